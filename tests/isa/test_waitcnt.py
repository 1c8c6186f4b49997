#!/usr/bin/env python3
"""amd_waitcnt_pack/unpack/max and amd_delay_alu_pack against llvm-mc-19.

For every target with s_waitcnt (gfx90a, gfx942, gfx1030, gfx1100): the counter maxima
are the largest values llvm-mc-19 accepts (max + 1 is "too large"); packed immediates of
in-range triples equal llvm-mc-19's encoding of `s_waitcnt vmcnt(a) expcnt(b) lgkmcnt(c)`
and unpack to the same triple; values above the maximum saturate to it.  s_delay_alu
immediates equal llvm-mc-19's encoding of every instid0/instskip/instid1 combination.
usage: test_waitcnt.py ISA_DUMP"""
import random
import re
import subprocess
import sys

TARGETS = ["gfx90a", "gfx942", "gfx1030", "gfx1100"]
IDS = ["NO_DEP", "VALU_DEP_1", "VALU_DEP_2", "VALU_DEP_3", "VALU_DEP_4", "TRANS32_DEP_1",
       "TRANS32_DEP_2", "TRANS32_DEP_3", "FMA_ACCUM_CYCLE_1", "SALU_CYCLE_1", "SALU_CYCLE_2",
       "SALU_CYCLE_3"]
SKIPS = ["SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4"]
failures = []


def mc(cpu, lines):
    """[(simm16 or None)] for each line: None when llvm-mc-19 rejects it."""
    p = subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=" + cpu,
                        "-show-encoding"], input="\n".join(lines) + "\n", capture_output=True,
                       text=True)
    bad = {int(m.group(1)) - 1 for m in re.finditer(r"<stdin>:(\d+):\d+: error", p.stderr)}
    encs = iter(re.findall(r"encoding: \[0x(..),0x(..),", p.stdout))
    out = []
    for i in range(len(lines)):
        if i in bad:
            out.append(None)
        else:
            lo, hi = next(encs)
            out.append(int(hi + lo, 16))
    return out


def ours(dump, args, lines):
    p = subprocess.run([dump] + args, input="\n".join(lines) + "\n", capture_output=True,
                       text=True, check=True)
    return p.stdout.split("\n")


def check_target(dump, cpu):
    vm_max, vs_max, lgkm_max, km_max, exp_max = map(int, ours(dump, ["max", cpu], [])[0].split())
    probes = ["s_waitcnt vmcnt(%d)" % v for v in (vm_max, vm_max + 1)]
    probes += ["s_waitcnt expcnt(%d)" % v for v in (exp_max, exp_max + 1)]
    probes += ["s_waitcnt lgkmcnt(%d)" % v for v in (lgkm_max, lgkm_max + 1)]
    acc = mc(cpu, probes)
    for i, name in enumerate(("vmcnt", "expcnt", "lgkmcnt")):
        if acc[2 * i] is None or acc[2 * i + 1] is not None:
            failures.append("%s: %s maximum disagrees with llvm-mc-19" % (cpu, name))
    rng = random.Random(cpu)
    triples = [(vm_max, exp_max, lgkm_max), (0, 0, 0)]
    triples += [(rng.randint(0, vm_max), rng.randint(0, exp_max), rng.randint(0, lgkm_max))
                for _ in range(200)]
    want = mc(cpu, ["s_waitcnt vmcnt(%d) expcnt(%d) lgkmcnt(%d)" % t for t in triples])
    got = ours(dump, ["waitcnt", cpu], ["%d %d %d" % t for t in triples])
    for t, w, g in zip(triples, want, got):
        simm, *back = g.split()
        if w is None or int(simm, 16) != w or tuple(map(int, back)) != t:
            failures.append("%s: %s packs to %s, llvm-mc-19 %s" % (cpu, t, g, w))
    sat = ours(dump, ["waitcnt", cpu], ["1000 1000 1000", "%d 1000 0" % vm_max])
    if sat[0].split()[0] != "%#06x" % want[0] or sat[1].split()[1:] != [
            str(vm_max), str(exp_max), "0"]:
        failures.append("%s: values above the maximum do not saturate: %s" % (cpu, sat[:2]))
    return len(triples)


def check_delay(dump):
    combos = [(a, s, b) for a in range(12) for s in range(6) for b in range(12)]
    texts = ["s_delay_alu instid0(%s) | instskip(%s) | instid1(%s)" % (IDS[a], SKIPS[s], IDS[b])
             for a, s, b in combos]
    want = mc("gfx1100", texts)
    got = ours(dump, ["delay"], ["%d %d %d" % c for c in combos])
    for c, w, g in zip(combos, want, got):
        if w is None or int(g, 16) != w:
            failures.append("delay %s: ours %s, llvm-mc-19 %s" % (c, g, w))
    return len(combos)


def main():
    dump = sys.argv[1]
    n = sum(check_target(dump, cpu) for cpu in TARGETS)
    d = check_delay(dump)
    for f in failures[:40]:
        print("FAIL", f)
    print("%d s_waitcnt immediates and %d s_delay_alu immediates compared, %d failures"
          % (n, d, len(failures)))
    return 1 if failures else 0


sys.exit(main())
