#!/usr/bin/env python3
"""Target descriptions against LLVM: for every target, the facts in src/isa/target.c are
checked with llvm-mc-19 (which instructions and operand combinations it accepts, where
s_waitcnt puts each counter, highest SGPR) and clang-19 -S (code-end padding).
usage: test_target.py TARGET_DUMP"""
import os
import re
import subprocess
import sys
import tempfile


def mc(cpu, lines):
    """(accepted?, encoding words) per line, one llvm-mc process."""
    p = subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=" + cpu,
                        "-show-encoding"], input="\n".join(lines) + "\n",
                       capture_output=True, text=True)
    bad = {int(m.group(1)) - 1 for m in re.finditer(r"<stdin>:(\d+):\d+: error", p.stderr)}
    encs = iter(re.findall(r"encoding: \[(.*)\]", p.stdout))
    out = []
    for i in range(len(lines)):
        if i in bad:
            out.append((False, None))
        else:
            b = [int(x, 16) for x in next(encs).split(",")]
            out.append((True, b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24))
    return out


def field(word, shift, width):
    return (word >> shift) & ((1 << width) - 1)


def main():
    dump = subprocess.run([sys.argv[1]], capture_output=True, text=True, check=True).stdout
    problems = []
    for line in dump.splitlines():
        name, *kv = line.split()
        t = dict(x.split("=") for x in kv)
        probes = [
            "v_add_f32_e64 v0, s1, s2",             # constant bus 2
            "v_add_f32_dpp v0, v1, v2 dpp8:[0,1,2,3,4,5,6,7]",
            "v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v2",
            "s_delay_alu instid0(VALU_DEP_1)",
            "s_wait_loadcnt 0x0",
            "s_waitcnt_vscnt null, 0x0",
            "s_waitcnt vmcnt(1)", "s_waitcnt expcnt(1)", "s_waitcnt lgkmcnt(1)",
            "s_waitcnt vmcnt(%d)" % 17,
            "s_mov_b32 s%d, 0" % (int(t["sgprs"]) - 1), "s_mov_b32 s%d, 0" % int(t["sgprs"]),
            "v_accvgpr_write_b32 a0, v0",
        ]
        r = mc(name, probes)
        want = {"const_bus": "2" if r[0][0] else "1", "dpp8": str(int(r[1][0])),
                "vopd": str(int(r[2][0])), "delay_alu": str(int(r[3][0])),
                "split_waits": str(int(r[4][0])), "vscnt": str(int(r[5][0])),
                "agprs": str(int(r[12][0]))}
        for k, v in want.items():
            if t[k] != v:
                problems.append("%s: %s=%s but llvm-mc says %s" % (name, k, t[k], v))
        if not r[10][0] or r[11][0]:
            problems.append("%s: sgprs=%s disagrees with llvm-mc" % (name, t["sgprs"]))
        if t["split_waits"] == "0":
            lo = [int(x) for x in t["vm_lo"].split(",")]
            hi = [int(x) for x in t["vm_hi"].split(",")]
            ex = [int(x) for x in t["exp"].split(",")]
            lg = [int(x) for x in t["lgkm"].split(",")]
            checks = [(r[6][1], lo, 1, "vmcnt"), (r[7][1], ex, 1, "expcnt"),
                      (r[8][1], lg, 1, "lgkmcnt")]
            for word, (sh, w), val, cname in checks:
                if field(word, sh, w) != val:
                    problems.append("%s: %s field %d,%d wrong (word %#x)" % (name, cname, sh, w, word))
            vm17 = field(r[9][1], lo[0], lo[1]) | (field(r[9][1], hi[0], hi[1]) << lo[1]
                                                   if hi[1] else 0)
            if vm17 != 17:
                problems.append("%s: vmcnt(17) decodes to %d with our layout" % (name, vm17))
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "k.cl")
            open(src, "w").write("kernel void k(global int *p) { p[0] = 1; }\n")
            s = subprocess.run(["clang-19", "-x", "cl", "-target", "amdgcn-amd-amdhsa",
                                "-mcpu=" + name, "-nogpulib", "-O3", "-S", src, "-o", "-"],
                               capture_output=True, text=True, check=True).stdout
            m1 = re.search(r"\.p2alignl\s+(\d+),\s*(\d+)", s)
            m2 = re.search(r"\.fill\s+(\d+),\s*4,\s*(\d+)", s)
            got = "%s,%s,%s" % (m1.group(2), m1.group(1), m2.group(1)) if m1 and m2 else "?"
            if got != t["code_end"]:
                problems.append("%s: code_end=%s, clang-19 pads with %s" % (name, t["code_end"], got))
        print("%-8s checked: %s" % (name, " ".join("%s=%s" % (k, t[k]) for k in sorted(want))))
    for p in problems:
        print("FAIL", p)
    return 1 if problems else 0


sys.exit(main())
