#!/usr/bin/env python3
"""Differential fuzzer: programs from gen_fuzz.py, compiled by ptxas-amd, run in amdsim, and
compared word for word with the reference interpreter (tests/ptxref).

usage: fuzz.py --seeds A..B [--targets gfx1100,gfx90a,...] [--ptxas-amd PATH] [--amdsim PATH]
               [--out DIR] [--known-fail FILE] [--write-known FILE] [--disable F,F] [-j N] [-v]
On a mismatch the program, its inputs and both outputs are written to DIR/seedN_TARGET/
(with a README naming the first differing word and the PTX line that stored it).  Seeds in
--known-fail (lines 'SEED [TARGET,...] # cause') are expected to fail and reported apart;
the exit status is 1 when an unexpected failure happens or an expected one passes (stale
entry: the lead re-runs after merging fixes)."""

import argparse
import concurrent.futures
import os
import struct
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_fuzz  # noqa: E402
import interp  # noqa: E402

TARGETS = ('gfx90a', 'gfx942', 'gfx1030', 'gfx1100', 'gfx1200')
WAVE64 = ('gfx90a', 'gfx942')
SENTINEL = 0xDEADBEEF


def parse_range(s):
    if '..' in s:
        a, b = s.split('..')
        return list(range(int(a), int(b) + 1))
    return [int(x) for x in s.split(',')]


def load_known(path):
    """{seed: (set of targets or None for all, cause)}"""
    known = {}
    if not path or not os.path.exists(path):
        return known
    for line in open(path):
        body, _, cause = line.partition('#')
        words = body.split()
        if not words:
            continue
        targets = set(words[1].split(',')) if len(words) > 1 else None
        known[int(words[0])] = (targets, cause.strip())
    return known


def reference(seed, disable=(), warp_size=32):
    """(ptx, info, input words, scalars, expected output words) for a seed."""
    text, info = gen_fuzz.generate(seed, disable)
    words, scalars = gen_fuzz.inputs(seed)
    ck = interp.compile_ptx(text, 'fuzz', strict=True)
    inp = bytearray(struct.pack('<%dI' % len(words), *words))
    n = info['threads'] * info['nout']
    out = bytearray(struct.pack('<I', SENTINEL) * n)
    interp.run(ck, info['threads'], [inp, out], list(scalars), warp_size=warp_size)
    return text, info, words, scalars, list(struct.unpack('<%dI' % n, bytes(out)))


def run_target(args, seed, target, ref, work):
    """-> None when amdsim's output equals the reference, else a short reason."""
    text, info, words, scalars, expect = ref
    base = os.path.join(work, 'f%d_%s' % (seed, target.replace('/', '_')))
    src, hs = base + '.ptx', base + '.hsaco'
    with open(src, 'w') as f:
        f.write(text)
    gpu, _, mode = target.partition('/')
    cmd = [args.ptxas_amd, '--gpu-name', gpu]
    if gpu in WAVE64:  # 32-lane warps, as PTX defines them, or the wave64 dialect (w64)
        cmd += ['--warp-size', '64' if mode == 'w64' else '32']
    if info['maxrregcount']:
        cmd += ['--maxrregcount', str(info['maxrregcount'])]
    cmd += [src, '-o', hs]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        return 'ptxas-amd failed (rc %d): %s' % (r.returncode, r.stderr.strip()[-300:])
    fin, fsent, fout = base + '.in', base + '.sent', base + '.out'
    with open(fin, 'wb') as f:
        f.write(struct.pack('<%dI' % len(words), *words))
    with open(fsent, 'wb') as f:
        f.write(struct.pack('<I', SENTINEL) * len(expect))
    cmd = [args.amdsim, hs, '--kernel', 'fuzz', '--grid', '1', '--block', str(info['threads']),
           'in:' + fin, 'inout:%s:%s' % (fsent, fout), 'u32:%d' % scalars[0],
           'u32:%d' % scalars[1]]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if r.returncode != 0 or not os.path.exists(fout):
        return 'amdsim failed (rc %d): %s' % (r.returncode, r.stderr.strip()[-300:])
    got = list(struct.unpack('<%dI' % len(expect), open(fout, 'rb').read()))
    if got == expect:
        return None
    i = next(j for j in range(len(expect)) if got[j] != expect[j])
    t, w = divmod(i, info['nout'])
    line = next((ln.strip() for ln in text.splitlines()
                 if ln.strip().startswith('st.global.b32 [%%pout+%d]' % (4 * w))), '?')
    ndiff = sum(1 for a, b in zip(got, expect) if a != b)
    return ('thread %d word %d (%s): amdsim 0x%08x, interpreter 0x%08x; %d words differ' %
            (t, w, line, got[i], expect[i], ndiff), got)


def save_failure(outdir, seed, target, ref, reason, got):
    text, info, words, scalars, expect = ref
    d = os.path.join(outdir, 'seed%d_%s' % (seed, target.replace('/', '_')))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'prog.ptx'), 'w') as f:
        f.write(text)
    with open(os.path.join(d, 'in.bin'), 'wb') as f:
        f.write(struct.pack('<%dI' % len(words), *words))
    with open(os.path.join(d, 'expected.bin'), 'wb') as f:
        f.write(struct.pack('<%dI' % len(expect), *expect))
    if got:
        with open(os.path.join(d, 'amdsim.bin'), 'wb') as f:
            f.write(struct.pack('<%dI' % len(got), *got))
    with open(os.path.join(d, 'README'), 'w') as f:
        f.write('seed %d target %s: %s\nblock %d, params u0=%d u1=%d, warp ops: %s, '
                'maxrregcount: %s\nfeatures: %s\n' % (
                    seed, target, reason, info['threads'], scalars[0], scalars[1], info['warp'],
                    info['maxrregcount'], ' '.join(info['features'])))


def check_seed(args, seed, targets, work):
    """-> list of (target, reason)."""
    try:
        ref = reference(seed, args.disable)
    except Exception as e:  # noqa: BLE001 -- a generator/interpreter bug is a failure too
        return [('*', 'interpreter: %s: %s' % (type(e).__name__, e))]
    fails = []
    runs = [(t, ref) for t in targets]
    if not ref[1]['warp'] and any(t in WAVE64 for t in targets):
        # no warp instructions: also ptxas-amd's native 64-lane warps on wave64 targets
        # (GPU/w64), against the interpreter with 64-lane warps (%laneid up to 63)
        try:
            ref64 = reference(seed, args.disable, warp_size=64)
        except Exception as e:  # noqa: BLE001
            return [('*', 'interpreter (64-lane warps): %s: %s' % (type(e).__name__, e))]
        runs += [(t + '/w64', ref64) for t in targets if t in WAVE64]
    for t, r in runs:
        try:
            res = run_target(args, seed, t, r, work)
        except subprocess.TimeoutExpired:
            res = 'timeout'
        if res is None:
            continue
        reason, got = (res if isinstance(res, tuple) else (res, None))
        fails.append((t, reason))
        if args.out:
            save_failure(args.out, seed, t, r, reason, got)
    return fails


def classify(seed, reason, disable=()):
    """The compiler bug a failure most likely shows, from its kind and the seed's features
    (each confirmed on reduced programs: see docs/PTXREF.md)."""
    feats = gen_fuzz.generate(seed, disable)[1]['features']
    if 'out-of-bounds' in reason and 'local_generic' in feats:
        return 'generic ld/st naming a .local variable faults (address 0)'
    if 'interpreter 0x' in reason and 'pred_phi' in feats:
        return 'predicate assigned in a divergent branch read after the join'
    return 'unclassified: ' + reason[:80]


def write_known(path, results, disable=()):
    with open(path, 'w') as f:
        f.write('# Seeds of fuzz.py that fail for known compiler bugs: SEED TARGETS # cause.\n'
                '# Regenerate after fixes: fuzz.py --seeds 0..99 --write-known FILE\n')
        for seed, fails in results:
            if not fails:
                continue
            causes = sorted({classify(seed, r, disable) for _, r in fails})
            f.write('%d %s # %s\n' % (seed, ','.join(t for t, _ in fails), '; '.join(causes)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--seeds', required=True)
    ap.add_argument('--targets', default=','.join(TARGETS))
    ap.add_argument('--ptxas-amd', default='build/src/driver/ptxas-amd')
    ap.add_argument('--amdsim', default='build/src/sim/amdsim')
    ap.add_argument('--out', help='write failing programs here')
    ap.add_argument('--known-fail', default=os.path.join(HERE, 'known_fail.txt'))
    ap.add_argument('--write-known', metavar='FILE',
                    help='write every failure of this run to FILE as known, with its cause')
    ap.add_argument('--disable', default='',
                    help='feature classes to turn off (comma list, see gen_fuzz.FEATURES)')
    ap.add_argument('-j', type=int, default=1)
    ap.add_argument('-v', action='store_true')
    args = ap.parse_args()
    args.disable = [f for f in args.disable.split(',') if f]
    seeds = parse_range(args.seeds)
    targets = args.targets.split(',')
    known = load_known(args.known_fail)
    unexpected, expected, stale = [], [], []
    with tempfile.TemporaryDirectory() as work:
        with concurrent.futures.ThreadPoolExecutor(args.j) as ex:
            results = list(ex.map(lambda s: (s, check_seed(args, s, targets, work)), seeds))
    if args.write_known:
        write_known(args.write_known, results, args.disable)
    for seed, fails in results:
        k = known.get(seed)
        for t, reason in fails:
            if k and (k[0] is None or t in k[0]):
                expected.append((seed, t, reason))
            else:
                unexpected.append((seed, t, reason))
        if k:
            failed_targets = {t for t, _ in fails}
            ran = set(targets) | {t + '/w64' for t in targets if t in WAVE64}
            for t in (k[0] or set(targets)) & ran:
                if t not in failed_targets and not failed_targets & {'*'}:
                    stale.append((seed, t, k[1]))
        if args.v:
            print('seed %d: %s' % (seed, 'ok' if not fails else '%d failures' % len(fails)))
    for seed, t, reason in unexpected:
        print('FAIL seed %d %s: %s' % (seed, t, reason))
    for seed, t, reason in expected:
        print('known failure seed %d %s: %s' % (seed, t, reason))
    for seed, t, cause in stale:
        print('PASSES NOW (remove from known_fail.txt): seed %d %s (%s)' % (seed, t, cause))
    print('%d seeds x %d targets: %d unexpected failures, %d known failures, %d stale entries'
          % (len(seeds), len(targets), len(unexpected), len(expected), len(stale)))
    return 1 if unexpected or stale else 0


if __name__ == '__main__':
    sys.exit(main())
