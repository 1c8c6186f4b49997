#!/usr/bin/env python3
"""The table's implicit registers (implicit_defs/implicit_uses, SCC_DST/SCC_SRC) against
independent sources.

1. Recorded facts (implicit_regs.txt: LLVM's SOPInstructions.td Defs/Uses, the ISA manuals):
   every scalar row (SOP1/SOP2/SOPK/SOPC/SOPP) on every target must be listed there and
   carry exactly its defs and uses; SCC_DST/SCC_SRC must agree with them.
2. Rules of the vector formats (LLVM's VOP/DS/FLAT/MUBUF pseudos Uses = [EXEC]; VOPCX
   Defs = [EXEC] and, on gfx9 only, VCC; gfx9 DS reads M0): checked on every row by its
   LLVM mnemonic.
3. The simulator (its own semantics, not the table): for every SALU row amdsim implements on
   the targets it runs, a kernel assembled by clang-19 runs the row once with SCC = 1 and
   once with SCC = 0 (sources 15 and 5, EXEC = 0x3c) and records SCC, EXEC and the
   destination afterwards.  The row writes
   SCC iff SCC afterwards does not follow SCC before; it reads SCC iff the destination
   differs; it writes EXEC iff EXEC changed.
usage: test_implicit.py ISA_DUMP AMDSIM"""
import os
import re
import struct
import subprocess
import sys
import tempfile

TARGETS = ["gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"]
SCALAR = ("SOP1", "SOP2", "SOPK", "SOPC", "SOPP")
F_SCC_DST, F_SCC_SRC = 1 << 9, 1 << 10
failures = []


def fail(msg):
    failures.append(msg)


def load_facts():
    facts = {}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "implicit_regs.txt")
    for ln in open(path):
        if ln.startswith("#") or not ln.strip():
            continue
        name, defs, uses = ln.rstrip("\n").split("\t")
        regs = lambda s: set() if s == "-" else set(s.split())
        facts[name] = (regs(defs), regs(uses))
    return facts


def rows_of(dump, target):
    out = subprocess.run([dump, "rows", target], capture_output=True, text=True, check=True)
    rows = []
    for ln in out.stdout.splitlines():
        name, mnem, fmt, defs, uses, flags, lat, unit, ops = ln.split("\t")
        regs = lambda s: set() if s == "-" else set(s.split())
        rows.append(dict(name=name, mnem=mnem, fmt=fmt, defs=regs(defs), uses=regs(uses),
                         flags=int(flags, 16), ops=[o.split(":") for o in ops.split()]))
    return rows


def check_facts(target, rows, facts):
    judged = 0
    for r in rows:
        if (r["flags"] & F_SCC_DST != 0) != ("SCC" in r["defs"]):
            fail("%s %s: SCC_DST flag disagrees with implicit defs" % (target, r["name"]))
        if (r["flags"] & F_SCC_SRC != 0) != ("SCC" in r["uses"]):
            fail("%s %s: SCC_SRC flag disagrees with implicit uses" % (target, r["name"]))
        if r["fmt"] not in SCALAR:
            continue
        if r["name"] not in facts:
            fail("%s %s: scalar row without a recorded fact in implicit_regs.txt"
                 % (target, r["name"]))
            continue
        defs, uses = facts[r["name"]]
        if (r["defs"], r["uses"]) != (defs, uses):
            fail("%s %s: table defs %s uses %s, recorded defs %s uses %s" % (
                target, r["name"], sorted(r["defs"]), sorted(r["uses"]), sorted(defs),
                sorted(uses)))
        judged += 1
    return judged


def check_vector_rules(target, rows):
    gfx9 = target in ("gfx90a", "gfx942")
    for r in rows:
        fmt, mnem = r["fmt"], r["mnem"]
        if fmt in ("VOP1", "VOP2", "VOPC", "VOP3", "VOP3P", "VOPD", "DS", "FLAT", "GLOBAL",
                   "SCRATCH", "MUBUF") and "EXEC" not in r["uses"]:
            fail("%s %s: a vector instruction must read EXEC" % (target, r["name"]))
        if fmt == "DS" and ("M0" in r["uses"]) != gfx9:
            fail("%s %s: DS reads M0 exactly on gfx9/gfx940" % (target, r["name"]))
        if fmt == "VOPC":
            want = {"EXEC", "VCC"} if mnem.startswith("v_cmpx") and gfx9 else \
                {"EXEC"} if mnem.startswith("v_cmpx") else {"VCC"}
            if r["defs"] != want:
                fail("%s %s: e32 defs %s, want %s" % (target, r["name"], sorted(r["defs"]),
                                                      sorted(want)))


# ---- the simulator probe ----

SKIP_KINDS = {"sreg", "label"}


def salu_text(r, wave32):
    """The row as one LLVM-syntax instruction on s10-s13 (sources), s16-s17 (destination),
    or None when it cannot run in the straight-line probe."""
    if r["fmt"] not in ("SOP1", "SOP2", "SOPK", "SOPC"):
        return None
    if any(k in SKIP_KINDS for k, _ in r["ops"]) or r["mnem"].startswith(
            ("s_getreg", "s_setreg", "s_waitcnt", "s_barrier", "s_call", "s_setpc",
             "s_swappc")):
        return None
    src = iter(["s10", "s12"])
    parts = []
    for kind, w in r["ops"]:
        w = int(w)
        if kind == "sdst":
            parts.append("s16" if w == 1 else "s[16:17]")
        elif kind == "ssrc" and r["fmt"] == "SOPK":
            parts.append("s16")
        elif kind == "ssrc":
            s = next(src)
            parts.append(s if w == 1 else "s[%s:%d]" % (s[1:], int(s[1:]) + 1))
        elif kind == "simm16":
            parts.append("0x5")
        elif kind == "kimm":
            parts.append("0x40000000")
        else:
            return None
    return r["mnem"] + " " + ", ".join(parts)


def kernel_source(target, wave32, lines, scc_in):
    store = "global_store_b128" if target.startswith("gfx11") or target.startswith("gfx12") \
        else "global_store_dwordx4"
    wait = {"gfx1200": "s_wait_storecnt 0", "gfx1100": "s_waitcnt_vscnt null, 0",
            "gfx1030": "s_waitcnt_vscnt null, 0"}.get(target, "s_waitcnt vmcnt(0)")
    load = "s_load_b64" if target.startswith(("gfx11", "gfx12")) else "s_load_dwordx2"
    kmwait = "s_wait_kmcnt 0" if target == "gfx1200" else "s_waitcnt lgkmcnt(0)"
    save_exec = ["s_mov_b32 s22, exec_lo", "s_mov_b32 s23, 0", "s_mov_b32 exec_lo, -1"] \
        if wave32 else ["s_mov_b64 s[22:23], exec", "s_mov_b64 exec, -1"]
    set_exec = "s_mov_b32 exec_lo, 0x3c" if wave32 else "s_mov_b64 exec, 0x3c"
    body = []
    for text in lines:
        body += ["s_mov_b32 s10, 15", "s_mov_b32 s11, 0", "s_mov_b32 s12, 5", "s_mov_b32 s13, 0",
                 "s_mov_b32 s16, 0x5a5a", "s_mov_b32 s17, 0x5a5a",
                 "s_mov_b32 s20, %d" % scc_in, set_exec, "s_cmp_eq_u32 s20, 1",
                 text, "s_cselect_b32 s21, 1, 0"] + save_exec + [
                 "v_mov_b32 v2, s16", "v_mov_b32 v3, s17", "v_mov_b32 v4, s21",
                 "v_mov_b32 v5, s22", store + " v0, v[2:5], s[2:3]", wait,
                 "s_add_u32 s2, s2, 16", "s_addc_u32 s3, s3, 0"]
    wave = "\n  .amdhsa_wavefront_size32 1" if wave32 else ""
    text = "\n".join("  " + b for b in body)
    return """.amdgcn_target "amdgcn-amd-amdhsa--%s"
.text
.globl probe
.p2align 8
.type probe,@function
probe:
  %s s[2:3], s[0:1], 0x0
  %s
  v_mov_b32 v0, 0
%s
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel probe
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 32%s%s
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.kernels:
  - .name: probe
    .symbol: probe.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: %d
    .sgpr_count: 32
    .vgpr_count: 8
    .max_flat_workgroup_size: 64
    .args:
      - { .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
amdhsa.version: [ 1, 2 ]
...
.end_amdgpu_metadata
""" % (target, load, kmwait, text, wave,
       "\n  .amdhsa_accum_offset 8" if target in ("gfx90a", "gfx942") else "",
       32 if wave32 else 64)


def assemble(target, src, tmp, tag):
    s, o, h = (os.path.join(tmp, "%s.%s" % (tag, e)) for e in ("s", "o", "hsaco"))
    open(s, "w").write(src)
    p = subprocess.run(["clang-19", "-x", "assembler", "-target", "amdgcn-amd-amdhsa",
                        "-mcpu=" + target, "-c", s, "-o", o], capture_output=True, text=True)
    if p.returncode:
        return None, p.stderr
    subprocess.run(["ld.lld-19", "-shared", o, "-o", h], check=True)
    return h, ""


def src_lines(target, wave32, cases):
    return kernel_source(target, wave32, [t for _, t in cases], 1).split("\n")


def run_probe(amdsim, target, lines, wave32, tmp):
    """[(scc, dst_lo, dst_hi, exec)] per line for SCC-in 1 and 0, or an error string."""
    results = []
    for scc_in in (1, 0):
        h, err = assemble(target, kernel_source(target, wave32, lines, scc_in), tmp,
                          "p%d" % scc_in)
        if not h:
            return None, err
        out = os.path.join(tmp, "out.bin")
        p = subprocess.run([amdsim, h, "--kernel", "probe", "--grid", "1", "--block",
                            "32" if wave32 else "64", "out:%d:%s" % (16 * len(lines) + 16, out)],
                           capture_output=True, text=True)
        if p.returncode:
            return None, p.stderr + p.stdout
        data = open(out, "rb").read()
        results.append([struct.unpack_from("<4I", data, 16 * i) for i in range(len(lines))])
        if not lines:
            return None, ""
    return results, ""


def probe_target(amdsim, target, rows, tmp):
    wave32 = not target.startswith("gfx9")
    cases = [(r, salu_text(r, wave32)) for r in rows]
    cases = [(r, t) for r, t in cases if t]
    judged = 0
    res, err = run_probe(amdsim, target, [], wave32, tmp)
    if "is not simulated" in err:
        print("%s: amdsim does not run this target; simulator probe skipped" % target)
        return 0
    for _ in range(60):  # drop rows clang or amdsim cannot run, then judge the rest
        res, err = run_probe(amdsim, target, [t for _, t in cases], wave32, tmp)
        if res:
            break
        if "is not simulated" in err:
            print("%s: amdsim does not run this target; simulator probe skipped" % target)
            return 0
        asm = re.search(r"\.s:(\d+):\d+: error", err)
        sim = re.search(r"unimplemented instruction \(.*?: (\w+)", err)
        if asm:  # clang rejects this spelling on the target: judge the row elsewhere
            bad = [i for i, (_, t) in enumerate(cases)
                   if t == src_lines(target, wave32, cases)[int(asm.group(1)) - 1].strip()]
        elif sim:  # amdsim has no semantics for it
            bad = [i for i, (r, _) in enumerate(cases) if r["mnem"] == sim.group(1)]
        else:
            bad = []
        if not bad:
            fail("%s: simulator probe failed: %s" % (target, err.strip()[:400]))
            return 0
        print("%s: not probed (%s): %s" % (target, "clang rejects" if asm else
                                              "amdsim lacks it", cases[bad[0]][1]))
        del cases[bad[0]]
    else:
        fail("%s: simulator probe never assembled" % target)
        return 0
    for i, (r, text) in enumerate(cases):
        (lo1, hi1, scc1, ex1), (lo0, hi0, scc0, ex0) = res[0][i], res[1][i]
        writes_scc = scc1 == scc0
        reads_scc = (lo1, hi1) != (lo0, hi0)
        writes_exec = ex1 != 0x3c or ex0 != 0x3c
        seen = (writes_scc, reads_scc, writes_exec)
        want = ("SCC" in r["defs"], "SCC" in r["uses"], "EXEC" in r["defs"])
        if seen != want:
            fail("%s %s: simulator shows writes-SCC %s reads-SCC %s writes-EXEC %s, table %s"
                 % (target, r["name"], *seen, want))
        judged += 1
    return judged


def main():
    dump, amdsim = sys.argv[1], sys.argv[2]
    facts = load_facts()
    total_facts = total_sim = 0
    with tempfile.TemporaryDirectory() as tmp:
        for target in TARGETS:
            rows = rows_of(dump, target)
            total_facts += check_facts(target, rows, facts)
            check_vector_rules(target, rows)
            total_sim += probe_target(amdsim, target, rows, tmp)
    for f in failures[:60]:
        print("FAIL", f)
    print("%d scalar rows judged against recorded facts, %d against the simulator, %d failures"
          % (total_facts, total_sim, len(failures)))
    if total_sim == 0:
        print("FAIL: the simulator judged nothing")
        return 1
    return 1 if failures else 0


sys.exit(main())
