#!/usr/bin/env python3
"""Every instruction clang-19 emits for the five targets runs in amdsim (issue 22 part 4).

1. The kernel survey (tests/kernels/survey/TARGET.txt: every mnemonic clang-19 -O3 emits for
   the OpenCL kernels of tests/kernels/src, kept current by the kernels-survey test) against
   the mnemonics amdsim can run on that target (sim_mnemonics: its decoder over the shared
   instruction table, rows with semantics).
2. The kernels of tests/sim/kernels/loops.cl compiled by clang-19 -O3 per target: their
   disassembly (llvm-objdump-19) against the same list, then each run in amdsim (strict
   checker) with its output compared with an exact CPU reference written here from the
   OpenCL source.  Two loop kernels, which clang brackets with the instruction-prefetch hints
   (s_inst_prefetch on gfx1030, s_set_inst_prefetch_distance on gfx1100); hash_loop takes its
   source buffer as a ulong, which LLVM's metadata lists by_value: amdsim is given in:FILE
   there.  hints runs the hint builtins (s_incperflevel, s_decperflevel, s_ttracedata,
   s_setprio, s_sleep, on gfx12 s_sleep_var) and the scalar-cache ones (s_dcache_inv, on gfx9
   s_dcache_wb and s_dcache_inv_vol); lds_minmax LDS float/double atomic min/max (gfx12:
   ds_min_num_f32 and the other _num forms); nan_minmax fmin/fmax of doubles with signalling
   and quiet NaN operands (a NaN result must be quiet).
3. OTHER_LEVELS: kernels whose code at another optimization level has instructions the
   survey lacks, mnemonics checked as in 1.
usage: clang_insns.py AMDSIM SIM_MNEMONICS SRCDIR"""
import os
import re
import struct
import subprocess
import sys
import tempfile

from simlib import TARGETS, build_cl, finish

amdsim, mnemonics_exe, srcdir = sys.argv[1:4]
HINTS = {'gfx90a': ('s_dcache_wb', 's_dcache_inv_vol'),
         'gfx942': ('s_dcache_wb', 's_dcache_inv_vol'), 'gfx1030': ('s_inst_prefetch',),
         'gfx1100': ('s_set_inst_prefetch_distance',), 'gfx1200': ('s_sleep_var',)}
ALL_HINTS = ('s_incperflevel', 's_decperflevel', 's_ttracedata', 's_setprio', 's_sleep',
             's_dcache_inv')
KSRC = os.path.join(srcdir, 'tests', 'kernels', 'src')
LOOPS = os.path.join(srcdir, 'tests', 'sim', 'kernels', 'loops.cl')
GRID, BLOCK, ITERS, NESTED_N = 2, 64, 40, 24
M32 = 0xffffffff
failures = []


def runnable():
    have = {t: set() for t in TARGETS}
    out = subprocess.run([mnemonics_exe], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        target, name = line.split()
        have[target].add(name)
    return have


def plain(m):
    """An llvm-objdump mnemonic as amdsim's semantics rows spell it."""
    m = re.sub(r'_(e32|e64|dpp|sdwa)$', '', m)
    return 'v_' + m[len('v_dual_'):] if m.startswith('v_dual_') else m


def check_names(where, target, names, have):
    missing = sorted({n for n in names if plain(n) not in have[target]})
    if missing:
        failures.append('%s (%s): amdsim cannot run %s' % (where, target, ', '.join(missing)))


def survey_names(target):
    path = os.path.join(srcdir, 'tests', 'kernels', 'survey', target + '.txt')
    return [line.split()[0] for line in open(path) if line[:1] not in ('#', ' ', '\n', '')]


def disasm_names(hsaco, target):
    text = subprocess.run(['llvm-objdump-19', '-d', '--mcpu=' + target, hsaco],
                          capture_output=True, text=True, check=True).stdout
    names = []
    for line in text.splitlines():
        m = re.match(r'^\s+([sv]_\w+|[a-z]+_\w+)\b', line)
        if not m:
            continue
        names.append(m.group(1))
        dual = re.search(r'::\s*(v_dual_\w+)', line)
        if dual:
            names.append(dual.group(1))
    return names


def build(tmp, target, src=LOOPS, level='-O3'):
    stem = os.path.splitext(os.path.basename(src))[0]
    co = build_cl(src, target, os.path.join(tmp, '%s-%s' % (stem, target)), ['-I', KSRC], level)
    if not co:  # simlib printed the FAIL line naming target and source
        finish()
    return co


# Kernels whose code at another level holds instructions the -O3 survey lacks (big_block at
# -Os: s_addk_i32, gfx12's s_addk_co_i32); their mnemonics are checked, not run.
OTHER_LEVELS = (('big_block.cl', '-Os'),)


def ref_hash(inp, i):
    h, a, b = inp[i], (i * 2654435761) & M32, 0x9e3779b9
    for k in range(ITERS):
        h ^= (h << 13) & M32
        h ^= h >> 17
        h ^= (h << 5) & M32
        a = (a * 1664525 + 1013904223) & M32
        b = (b + ((h ^ a) >> (k & 7))) & M32
        h = (h + inp[(i + k) & 255] * (k | 1)) & M32
        if b & 1:
            a ^= h
    return h ^ a ^ b


def ref_nested(inp, i):
    acc = 0
    for j in range(NESTED_N):
        x = inp[(i * 7 + j) & 255]
        for k in range((j & 3) + 2):
            x = (((x >> 3) | (x << 29)) + k * 0x45d9f3b) & M32
            x ^= x >> 11
            acc = (acc + x % 1000 + (x & (k + 1))) & M32
        acc = (acc * 31 + (x >> 16)) & M32
    return acc


def by_value_src(hsaco):
    """hash_loop's first argument as LLVM's metadata lists it: (value kind, size)."""
    notes = subprocess.run(['llvm-readelf-19', '--notes', hsaco], capture_output=True,
                           text=True, check=True).stdout
    # (the only ulong argument of loops.cl; -O3 records types, not names)
    m = re.search(r'\.offset:\s+0\s*\n\s+\.size:\s+(\d+)\s*\n\s+\.type_name:\s+ulong\s*\n'
                  r'\s+\.value_kind:\s+(\w+)', notes)
    return (m.group(2), int(m.group(1))) if m else None


def run_kernel(tmp, hsaco, target, kernel, args, ref, inp):
    out = os.path.join(tmp, 'out.bin')
    n = GRID * BLOCK
    p = subprocess.run([amdsim, hsaco, '--kernel', kernel, '--grid', str(GRID), '--block',
                        str(BLOCK)] + args(out, n), capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        failures.append('%s %s: amdsim exit %d: %s' % (target, kernel, p.returncode,
                                                      p.stderr.strip()[-400:]))
        return
    got = struct.unpack('<%dI' % n, open(out, 'rb').read())
    bad = [i for i in range(n) if got[i] != ref(inp, i)]
    if bad:
        i = bad[0]
        failures.append('%s %s: %d wrong values, first [%d] = %#x, expected %#x' %
                        (target, kernel, len(bad), i, got[i], ref(inp, i)))


def run_minmax(tmp, hsaco, target, inbin, inp):
    """lds_minmax: per group min/max of in >> 8 (float) and of in (double); seen[] all 3."""
    outs = [os.path.join(tmp, name) for name in ('f.bin', 'd.bin', 's.bin')]
    n = GRID * BLOCK
    p = subprocess.run([amdsim, hsaco, '--kernel', 'lds_minmax', '--grid', str(GRID), '--block',
                        str(BLOCK), 'in:' + inbin, 'out:%d:%s' % (8 * GRID, outs[0]),
                        'out:%d:%s' % (16 * GRID, outs[1]), 'out:%d:%s' % (4 * n, outs[2])],
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        failures.append('%s lds_minmax: amdsim exit %d: %s' % (target, p.returncode,
                                                              p.stderr.strip()[-400:]))
        return
    groups = [inp[g * BLOCK:(g + 1) * BLOCK] for g in range(GRID)]
    want_f = [float(f(x >> 8 for x in grp)) for grp in groups for f in (min, max)]
    want_d = [float(f(grp)) for grp in groups for f in (min, max)]
    got_f = list(struct.unpack('<%df' % (2 * GRID), open(outs[0], 'rb').read()))
    got_d = list(struct.unpack('<%dd' % (2 * GRID), open(outs[1], 'rb').read()))
    seen = struct.unpack('<%dI' % n, open(outs[2], 'rb').read())
    if got_f != want_f or got_d != want_d or any(v != 3 for v in seen):
        failures.append('%s lds_minmax: float %s (want %s), double %s (want %s), %d items '
                        'saw a returned value out of range' % (target, got_f, want_f, got_d,
                                                               want_d, sum(v != 3 for v in seen)))


# f64 operands of nan_minmax: signalling and quiet NaNs of both signs, numbers, zeros
NAN_OPS = [0x7ff0000000000001, 0xfff4000000000000, 0x7ff8000000000000, 0xfff8000012345678,
           0x3ff0000000000000, 0xc000000000000000, 0x0000000000000001, 0x7ff0000000000000,
           0x8000000000000000, 0x4024000000000000]


def f64_nan(x):
    return (x >> 52) & 0x7ff == 0x7ff and x & ((1 << 52) - 1)


def minmax_ref(a, b, is_max):
    """OpenCL fmin/fmax (IEEE 754 minNum/maxNum): a NaN operand yields the other one; two NaNs
    a quiet NaN (None: any quiet NaN); a signed-zero tie either zero (a set of both)."""
    if f64_nan(a) and f64_nan(b):
        return None
    if f64_nan(a) or f64_nan(b):
        return {b if f64_nan(a) else a}
    fa, fb = (struct.unpack('<d', struct.pack('<Q', x))[0] for x in (a, b))
    if fa == fb:
        return {a, b}
    return {a if (fa > fb) == is_max else b}


def run_nan_minmax(tmp, hsaco, target):
    """nan_minmax over every pair of NAN_OPS: a NaN result must be quiet (the RDNA4 guide's
    V_MIN_NUM_F64/V_MAX_NUM_F64 return cvtToQuietNAN(S0) for two NaNs)."""
    n = GRID * BLOCK
    pairs = [(a, b) for a in NAN_OPS for b in NAN_OPS]
    pairs += pairs[:n - len(pairs)]
    inbin, out = os.path.join(tmp, 'nm.bin'), os.path.join(tmp, 'nm_out.bin')
    with open(inbin, 'wb') as f:
        f.write(struct.pack('<%dQ' % (2 * n), *[x for pr in pairs for x in pr]))
    p = subprocess.run([amdsim, hsaco, '--kernel', 'nan_minmax', '--grid', str(GRID), '--block',
                        str(BLOCK), 'in:' + inbin, 'out:%d:%s' % (16 * n, out)],
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        failures.append('%s nan_minmax: amdsim exit %d: %s' % (target, p.returncode,
                                                              p.stderr.strip()[-400:]))
        return
    got = struct.unpack('<%dQ' % (2 * n), open(out, 'rb').read())
    for i, (a, b) in enumerate(pairs):
        for j, is_max in enumerate((False, True)):
            r, want = got[2 * i + j], minmax_ref(a, b, is_max)
            ok = (f64_nan(r) and r & (1 << 51)) if want is None else r in want
            if not ok:
                failures.append('%s nan_minmax: %s(%#x, %#x) = %#x' % (
                    target, 'fmax' if is_max else 'fmin', a, b, r))
                return


def main():
    have = runnable()
    inp = [(i * 0x9e3779b1 + 12345) & M32 for i in range(256)]
    with tempfile.TemporaryDirectory() as tmp:
        inbin = os.path.join(tmp, 'in.bin')
        with open(inbin, 'wb') as f:
            f.write(struct.pack('<256I', *inp))
        for target in TARGETS:
            check_names('kernel survey', target, survey_names(target), have)
            for name, level in OTHER_LEVELS:
                co = build(tmp, target, os.path.join(KSRC, name), level)
                check_names('%s %s' % (name, level), target, disasm_names(co, target), have)
            hsaco = build(tmp, target)
            names = disasm_names(hsaco, target)
            check_names('loops.cl', target, names, have)
            for hint in ALL_HINTS + HINTS[target]:
                if hint not in names:
                    failures.append('%s: clang-19 no longer emits %s in loops.cl (the test '
                                    'would not cover it)' % (target, hint))
            src = by_value_src(hsaco)
            if src != ('by_value', 8):
                failures.append('%s hash_loop: src listed as %s, expected by_value of 8 '
                                'bytes' % (target, src))
            run_kernel(tmp, hsaco, target, 'hash_loop',
                       lambda out, n: ['in:' + inbin, 'out:%d:%s' % (4 * n, out),
                                       'u32:%d' % ITERS], ref_hash, inp)
            run_kernel(tmp, hsaco, target, 'nested_loop',
                       lambda out, n: ['in:' + inbin, 'out:%d:%s' % (4 * n, out),
                                       'u32:%d' % NESTED_N], ref_nested, inp)
            run_kernel(tmp, hsaco, target, 'hints',
                       lambda out, n: ['out:%d:%s' % (4 * n, out), 'u32:7'],
                       lambda _, i: (7 * 2 + i) & M32, inp)
            run_minmax(tmp, hsaco, target, inbin, inp)
            run_nan_minmax(tmp, hsaco, target)
    for f in failures:
        print('FAIL', f)
    print('clang-19 instructions in amdsim: %d failures' % len(failures))
    return 1 if failures else 0


sys.exit(main())
