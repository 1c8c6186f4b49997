#!/usr/bin/env python3
"""src/sched against independent oracles, for one target.
  1. waits: every wait encoding of sched_test's grid assembles with llvm-mc-19 from LLVM's
     own spelling of the same wait to the same bytes;
  2. listing: each kernel's `sched_dump(as_assembly)` reassembled by llvm-mc-19 gives the
     bytes sched_emit produced;
  3. placement: llvm-mc-19's disassembly of our bytes shows the waits/nops the ISA rules
     require where they are required (in-order vmcnt(1), the gfx9 VALU->SGPR->VMEM nop,
     gfx942's VCC and transcendental nops, gfx11's trans-use drain);
  4. run: the kernels in amdsim (strict) match CPU results; the planted bugs are reported.
usage: test_sched.py SCHED_TEST TARGET"""
import os
import re
import subprocess
import sys
import tempfile

TRIPLE = "-triple=amdgcn-amd-amdhsa"


def mcpu(target):
    """llvm-mc-19 options for TARGET ("gfx1100/w64": wave64 on an RDNA target)."""
    cpu, _, wave = target.partition("/")
    return ["-mcpu=" + cpu] + (["-mattr=+wavefrontsize64"] if wave == "w64" else [])


def mc(target, text, *extra):
    return subprocess.run(["llvm-mc-19", TRIPLE] + mcpu(target) + list(extra),
                          input=text, capture_output=True, text=True)


def check_waits(tool, target):
    out = subprocess.run([tool, "waits", target], capture_output=True, text=True)
    if out.returncode:
        return ["waits: sched_test failed: " + out.stdout + out.stderr]
    lines = [ln.split("\t") for ln in out.stdout.splitlines()]
    res = mc(target, "\n".join(t for _, t in lines) + "\n", "-show-encoding")
    if res.returncode:
        return ["waits: llvm-mc-19 rejected: " + res.stderr.strip()]
    encs = re.findall(r"encoding: \[([^\]]*)\]", res.stdout)
    fails = []
    for (ours, text), enc in zip(lines, encs):
        b = [int(x, 16) for x in enc.split(",")]
        want = "%08x" % (b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24)
        if want != ours:
            fails.append("waits: %s: ours %s, llvm-mc-19 %s" % (text, ours, want))
    if len(encs) != len(lines) or not lines:
        fails.append("waits: %d encodings for %d lines" % (len(encs), len(lines)))
    print("waits: %d encodings checked" % len(lines))
    return fails


def disassemble(target, code):
    words = " ".join("0x%02x" % b for b in code)
    res = mc(target, words + "\n", "-disassemble")
    return [ln.strip() for ln in res.stdout.splitlines() if ln.strip() and
            not ln.strip().startswith(".")]


# Instruction sequences the ISA rules require in our kernels (regexes matched against
# consecutive lines of llvm-mc-19's disassembly of our bytes).
def required(target):
    gfx12 = target == "gfx1200"
    vm1 = r"s_wait_loadcnt 0x1" if gfx12 else r"s_waitcnt vmcnt\(1\)"
    vm0 = r"s_wait_loadcnt 0x0" if gfx12 else r"s_waitcnt vmcnt\(0\)"
    req = {"vadd": [[vm1, r"v_mul_f32"], [vm0, r"v_add_f32"]],
           "loop": [[vm1, r"v_add_f32"], [vm1, r"global_load_(dword|b32) v6"]]}
    # mixed: gfx9 counts the store after the load in vmcnt (in order: vmcnt(1)); gfx10+
    # counts it in vscnt.  LDS and SMEM pending together in lgkmcnt: only 0 is safe.
    if target in ("gfx90a", "gfx942"):
        req["mixed"] = [[r"s_waitcnt vmcnt\(1\) lgkmcnt\(0\)$", r"v_add_u32"]]
    elif gfx12:
        req["mixed"] = [[vm0, r"s_wait_dscnt 0x0", r"v_add_nc_u32"],
                        [r"s_wait_kmcnt 0x0", r"v_sub_nc_u32"]]
    else:
        req["mixed"] = [[r"s_waitcnt vmcnt\(0\) lgkmcnt\(0\)$", r"v_add_nc_u32"]]
    # atomic: a returning atomic counts as a load
    req["atomic"] = [[vm0, r"v_add_(nc_)?u32_e32 v3, 1, v2"]]
    # flat: a FLAT load counts in vmcnt and lgkmcnt (its lgkm side out of order)
    req["flat"] = [[vm0, r"s_wait_dscnt 0x0", r"v_mul_f32"] if gfx12 else
                   [r"s_waitcnt vmcnt\(0\) lgkmcnt\(0\)$", r"v_mul_f32"]]
    if target == "gfx942":
        req["flat"].append([r"v_mov_b32", r"s_nop 0", r"v_addc_co_u32"])
    if target in ("gfx90a", "gfx942"):
        # VALU writes SGPR -> VMEM reads it: 5 wait states
        req["vadd"].append([r"v_readfirstlane_b32 s15", r"s_nop 4", r"global_load_dword"])
    if target == "gfx942":
        # no interlock: VALU writes VCC -> VALU reads it (2); trans -> VALU use (1)
        req["trans"] = [[r"v_cmp_gt_u32", r"s_nop 1", r"v_cndmask_b32"],
                        [r"v_sqrt_f32", r"s_nop 0", r"v_add_f32"]]
    if target.startswith("gfx1100"):
        # VALUTransUse: drain (va_vdst = 0) before a VALU reads the transcendental result
        req["trans"] = [[r"v_sqrt_f32", r"s_waitcnt_depctr (0xfff|depctr_va_vdst\(0\))$",
                         r"v_add_f32"]]
    if target == "gfx1100/w64":
        # VALUMaskWrite: sa_sdst(0) right after the SALU write of a mask a VALU read
        req["trans"].append([r"s_mov_b64 vcc, 0",
                             r"s_waitcnt_depctr (0xfffe|depctr_sa_sdst\(0\))$"])
        # VALUPartialForwarding: v13 written before the exec write, v14 after, read together
        req["trans"].append([r"v_mov_b32_e32 v14, 2",
                             r"s_waitcnt_depctr (0xfff|depctr_va_vdst\(0\))$",
                             r"v_add_nc_u32_e32 v15, v13, v14"])
    return req


def has_sequence(lines, seq):
    lines = [ln for ln in lines if not ln.startswith("s_delay_alu")]  # stall hints only
    for i in range(len(lines) - len(seq) + 1):
        if all(re.search(p, lines[i + k]) for k, p in enumerate(seq)):
            return True
    return False


def check_listings(tool, target, tmp):
    out = subprocess.run([tool, "listing", target, tmp], capture_output=True, text=True)
    if out.returncode:
        return ["listing: sched_test failed: " + out.stdout + out.stderr]
    fails = []
    req = required(target)
    kernels = sorted(f[:-2] for f in os.listdir(tmp) if f.endswith(".s"))
    joined = 0  # s_delay_alu hints carrying a second field (instskip + instid1)
    for k in kernels:
        s, o, b = (os.path.join(tmp, k + ext) for ext in (".s", ".o", ".text"))
        res = subprocess.run(["llvm-mc-19", TRIPLE] + mcpu(target) + ["-filetype=obj", s,
                              "-o", o], capture_output=True, text=True)
        if res.returncode:
            fails.append("listing %s: llvm-mc-19 rejects it: %s" % (k, res.stderr.strip()))
            continue
        subprocess.run(["llvm-objcopy-19", "-O", "binary", "--only-section=.text", o, b],
                       check=True)
        want = open(b, "rb").read()
        ours = open(os.path.join(tmp, k + ".bin"), "rb").read()
        if want != ours:
            at = next((i for i in range(min(len(want), len(ours))) if want[i] != ours[i]),
                      min(len(want), len(ours)))
            fails.append("listing %s: llvm-mc-19 bytes differ from sched_emit at byte %d "
                         "(%d vs %d bytes)" % (k, at, len(want), len(ours)))
        lines = disassemble(target, ours)
        joined += sum(1 for ln in lines if ln.startswith("s_delay_alu") and "instid1(" in ln)
        if k == "vadd":  # the annotation of the in-order wait names the older load only
            lst = open(os.path.join(tmp, k + ".lst")).read()
            if not re.search(r"(vmcnt\(1\)|s_wait_loadcnt 0x1)\s+; retires v2\n", lst):
                fails.append("vadd: the listing does not say vmcnt(1) retires v2:\n" + lst)
            if not re.search(r"s_nop 4\s+; hazard: VALU writes SGPR, VMEM", lst) and \
                    target in ("gfx90a", "gfx942"):
                fails.append("vadd: the listing does not name the s_nop's hazard:\n" + lst)
        if k == "vadd":  # the kernel's own wait for its arguments is not repeated
            scalar = [ln for ln in lines if re.search(r"lgkmcnt|s_wait_kmcnt", ln)]
            if len(scalar) != 1:
                fails.append("vadd: %d scalar-memory waits, want the kernel's own one: %s" %
                             (len(scalar), scalar))
        for seq in req.get(k, []):
            if not has_sequence(lines, seq):
                fails.append("placement %s: no %s in llvm-mc-19's disassembly:\n  %s" %
                             (k, " ; ".join(seq), "\n  ".join(lines)))
    if target.startswith(("gfx11", "gfx12")) and not joined:
        # two hints a few instructions apart share one s_delay_alu, as LLVM combines them
        fails.append("listing: no s_delay_alu with a second field (instskip/instid1)")
    print("listing: %d kernels reassembled, %d joined s_delay_alu" % (len(kernels), joined))
    return fails


def main():
    tool, target = sys.argv[1], sys.argv[2]
    fails = check_waits(tool, target)
    with tempfile.TemporaryDirectory() as tmp:
        fails += check_listings(tool, target, tmp)
    run = subprocess.run([tool, "run", target], capture_output=True, text=True, timeout=100)
    sys.stdout.write(run.stdout)
    if run.returncode:
        fails.append("run: " + (run.stderr.strip() or "failures above"))
    for f in fails:
        print("FAIL", f)
    print("%s: %s" % (target, "FAILED" if fails else "passed"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
