"""Reproduces the NVIDIA hardware's results in ../shared/ptx-hw/{random,tensor,tensor2} with the
reference interpreter, kernel by kernel, bit for bit, and reports per category how many kernels
match (per set and category when several sets are given).

usage: hwcheck.py DIR [DIR..] [--cat C]... [--kernels K,K..] [--kernels-file F] [--every N]
                  [--limit N]
                  [--list-fails] [--expect-all] (exit 1 unless every selected kernel matches)
                  [--quirk16] (follow the H100's 16-bit quirk, interp.compile_ptx)
                  [--known-fail F] (exit 1 unless exactly the kernels listed in F fail)
                  [--write-known F] (write the failing kernels to F)
                  [--judge] (a kernel that differs is judged as tests/hw's sweep judges
                  ptxas-amd: approximate results by the PTX ISA's bounds, f64 NaNs by class,
                  general-data tensor-core results of the tensor sets by tests/hw/tensor_bound.py,
                  differences downstream of accepted ones not counted: 'judged' if it passes)
                  [--skip-missing] (exit 77 when DIR has no hardware set)
Slots that the hardware set marks approximate (slots.json.gz: class 'approx') are compared
with their tolerance relative to the hardware value; a kernel whose only differences are NaN
payloads (both NaN) is counted as 'nan-payload', not as a failure."""

import argparse
import gzip
import json
import os
import struct
import sys
import time
import zipfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import interp  # noqa: E402
sys.path.insert(0, os.path.join(HERE, '..', 'hw'))
import hwdata  # noqa: E402  (tests/hw: the standard-library .npy/.npz reader)
import floatcore as fc  # noqa: E402

SENTINEL = 0xDEADBEEF


def load_set(d):
    man = json.load(open(os.path.join(d, 'manifest.json')))['kernels']
    with open(os.path.join(d, 'inputs.npy'), 'rb') as f:
        inputs, shape = hwdata.npy_array(f.read())
    with zipfile.ZipFile(os.path.join(d, 'nv.part0.npz')) as z:
        idx, off, data = (hwdata.npy_array(z.read(n + '.npy'))[0] for n in ('idx', 'off', 'data'))
    results = {int(i): (off[j], off[j + 1]) for j, i in enumerate(idx)}
    with gzip.open(os.path.join(d, 'slots.json.gz'), 'rt') as f:
        slots = json.load(f)
    return man, inputs, shape[1], data, results, slots


def _result_fmt(op):
    """Float format of an instruction's result (None: not a float)."""
    parts = op.split('.')
    tys = [x for x in parts if x in ('f16', 'bf16', 'f32', 'f64', 'f16x2', 'bf16x2', 'u8', 's8',
                                    'u16', 's16', 'u32', 's32', 'u64', 's64', 'b16', 'b32',
                                    'b64', 'pred', 'tf32')]
    if not tys or parts[0] in ('setp', 'testp'):
        return None
    t = tys[0] if parts[0] == 'cvt' else tys[-1]
    return t if t in ('f16', 'bf16', 'f32', 'f64', 'f16x2', 'bf16x2') else None


def _both_nan(a, b, fmt):
    if fmt in ('f16x2', 'bf16x2'):
        e = fmt[:-2]
        return all(fc.is_nan(x, e) == fc.is_nan(y, e) and (x == y or fc.is_nan(x, e))
                   for x, y in ((a & 0xffff, b & 0xffff), (a >> 16, b >> 16)))
    if fmt in ('f16', 'bf16'):
        return fc.is_nan(a & 0xffff, fmt) and fc.is_nan(b & 0xffff, fmt) and a >> 16 == b >> 16
    return fc.is_nan(a, fmt) and fc.is_nan(b, fmt)


def compare(ours, nv, k, slots, M):
    """-> ('ok' | 'nan-payload' | 'mismatch', first differing word index).  Approximate slots
    pass within a tolerance (see _close)."""
    by_word = {}
    for s in slots[k]:
        for j in range(s['n']):
            by_word[s['w'] + j] = (s, j)
    nanp = False
    for i, (a, b) in enumerate(zip(ours, nv)):
        if a == b:
            continue
        w = i % M
        s, j = by_word.get(w, (None, 0))
        fmt = _result_fmt(s['op']) if s else None
        if fmt == 'f64':
            base = i - j
            x, y = ours[base] | ours[base + 1] << 32, nv[base] | nv[base + 1] << 32
        else:
            base, x, y = i, a, b
        if fmt and _both_nan(x, y, fmt):
            nanp = True
            continue
        if s and s['cls'] == 'approx' and fmt in ('f32', 'f64', 'f16', 'f16x2'):
            tol = s.get('tol')
            if isinstance(tol, dict) and 'range' in tol:
                continue  # sin/cos: the hardware's error is bounded only inside 'range'
            if fmt == 'f16x2':
                if _close(x & 0xffff, y & 0xffff, 'f16', tol) and \
                        _close(x >> 16, y >> 16, 'f16', tol):
                    continue
            elif _close(x, y, fmt, tol):
                continue
        return 'mismatch', i
    return ('nan-payload' if nanp else 'ok'), None


def _val(x, fmt):
    if fmt == 'f32':
        return struct.unpack('<f', struct.pack('<I', x))[0]
    if fmt == 'f64':
        return struct.unpack('<d', struct.pack('<Q', x))[0]
    d = fc.decode(x & 0xffff, fmt)
    if d.kind == 'nan':
        return float('nan')
    if d.kind == 'inf':
        return float('-inf') if d.sign else float('inf')
    return float(d.value())


def _close(x, y, fmt, tol):
    """The interpreter computes approximate forms exactly rounded; the hardware's error bound is
    the PTX ISA's (a few ulp, or an absolute error for sin/cos/lg2): accept 4x the recorded
    tolerance, at least 2^-20 relative."""
    a, b = _val(x, fmt), _val(y, fmt)
    if a != a or b != b:
        return a != a and b != b
    if a == b:
        return True
    tol = tol if isinstance(tol, dict) else {}
    rel = max(4 * tol.get('rel', 0), 2.0 ** -20, 4 * tol.get('ulp', 0) * 2.0 ** -23)
    ab = 4 * tol.get('abs', 0)
    if fmt == 'f16':
        rel = max(rel, 2.0 ** -9)
    d = abs(a - b)
    return d <= ab or d <= rel * abs(b)


def run_kernel(d, k, inputs, W, quirk16=False):
    T, K, M = k['threads'], k['in_words'], k['out_words']
    i = k['index']
    inp = bytearray(struct.pack('<%dI' % (T * K), *inputs[i * W:i * W + T * K]))
    out = bytearray(struct.pack('<I', SENTINEL) * (T * M))
    ck = interp.compile_ptx(open(os.path.join(d, k['file'])).read(), strict=False,
                            quirk16=quirk16)
    interp.run(ck, T, [inp, out])
    return list(struct.unpack('<%dI' % (T * M), bytes(out)))


def check_set(a, d, several, stats, fails, judged):
    """Runs the selected kernels of hardware set d, counting per category into stats; several:
    name categories and kernels by set too."""
    if a.judge:
        import judge  # noqa: E402  (main put tests/hw's tools on the path)
    man, inputs, W, data, results, slots = load_set(d)
    ks = man[::a.every]
    if a.cat:
        ks = [k for k in ks if k['cat'] in a.cat]
    if a.kernels:
        want = {int(x) for x in a.kernels.split(',')}
        ks = [k for k in man if k['index'] in want]
    if a.limit:
        ks = ks[:a.limit]
    name = os.path.basename(os.path.normpath(d))
    tensor_set = name.startswith('tensor')  # general-data tensor slots: tensor_bound.py
    for k in ks:
        st = stats.setdefault(name + '/' + k['cat'] if several else k['cat'],
                              {'ok': 0, 'nan-payload': 0, 'judged': 0, 'mismatch': 0, 'error': 0})
        fname = name + '/' + k['file'] if several else k['file']
        lo, hi = results[k['index']]
        nv = data[lo:hi]
        try:
            ours = run_kernel(d, k, inputs, W, a.quirk16)
            res, where = compare(ours, nv, k['index'], slots, k['out_words'])
            if res == 'mismatch' and a.judge:
                i = k['index']
                ks_ = slots[i]
                diffs = judge.compare_kernel(k, ks_, judge.slot_index(ks_),
                                             inputs[i * W:(i + 1) * W], nv, ours,
                                             tensor_set)
                if not any(x['root'] for x in diffs):
                    res = 'judged'
        except Exception as e:  # noqa: BLE001 -- report and go on
            res, where = 'error', '%s: %s' % (type(e).__name__, str(e)[:200])
        st[res] += 1
        if res in ('mismatch', 'error'):
            if res == 'mismatch':
                M = k['out_words']
                where = 'thread %d word %d: ours 0x%08x hw 0x%08x' % (
                    where // M, where % M, ours[where], nv[where])
            fails.append((fname, k['cat'], res, where))
        elif res == 'judged':
            judged.append((fname, k['cat']))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('dir', nargs='+', help='hardware sets (random, tensor, tensor2)')
    ap.add_argument('--cat', action='append')
    ap.add_argument('--kernels')
    ap.add_argument('--every', type=int, default=1)
    ap.add_argument('--limit', type=int)
    ap.add_argument('--list-fails', action='store_true')
    ap.add_argument('--kernels-file', help='kernel numbers, one a line (# comments)')
    ap.add_argument('--expect-all', action='store_true')
    ap.add_argument('--known-fail', help='kernel files expected to fail, one a line (# notes)')
    ap.add_argument('--write-known', help='write the failing kernels there')
    ap.add_argument('--judge', action='store_true',
                    help="judge differing kernels as tests/hw/hw_sweep.py does")
    ap.add_argument('--quirk16', action='store_true',
                    help="follow the H100's 16-bit quirk (neg/abs.s16 of -32768 -> +32768)")
    ap.add_argument('--skip-missing', action='store_true',
                    help='exit 77 (skipped) when the hardware set is not there')
    ap.add_argument('--opt-in', metavar='VAR',
                    help='exit 77 (skipped) unless the environment variable VAR is set')
    a = ap.parse_args()
    if a.opt_in and not os.environ.get(a.opt_in):
        print('skipped: set %s=1 to run it (the whole sets: minutes)' % a.opt_in)
        return 77
    if a.skip_missing and not all(os.path.exists(os.path.join(d, 'manifest.json'))
                                  for d in a.dir):
        print('no hardware set at %s: skipped' % ' '.join(a.dir))
        return 77
    if a.kernels_file:
        a.kernels = ','.join(ln.split('#')[0].strip() for ln in open(a.kernels_file)
                             if ln.split('#')[0].strip())
    if a.judge:
        sys.path.insert(0, os.path.join(a.dir[0], '..', 'tools'))  # judge.py's compare.py
        import judge  # noqa: F401,E402  (tests/hw/judge.py: the sweep's rules)
    stats, fails, judged = {}, [], []
    t0 = time.time()
    for d in a.dir:
        check_set(a, d, len(a.dir) > 1, stats, fails, judged)
    print('category         kernels  exact  nan-payload  judged  mismatch  error')
    tot = [0, 0, 0, 0, 0, 0]
    for c in sorted(stats):
        s = stats[c]
        n = sum(s.values())
        row = (n, s['ok'], s['nan-payload'], s['judged'], s['mismatch'], s['error'])
        print('%-16s %8d %6d %12d %7d %9d %6d' % ((c,) + row))
        for j, v in enumerate(row):
            tot[j] += v
    print('%-16s %8d %6d %12d %7d %9d %6d' % ('total', *tot))
    print('%.1f s' % (time.time() - t0))
    if a.list_fails:
        for f in fails:
            print('FAIL %s [%s] %s: %s' % f)
        for f in judged:
            print('JUDGED %s [%s]' % f)
    if a.write_known:
        with open(a.write_known, 'w') as f:
            f.write(KNOWN_HEADER)
            for x in fails:
                f.write('%s  # [%s] %s: %s\n' % x)
    if a.known_fail:
        known = {ln.split('#')[0].strip() for ln in open(a.known_fail)} - {''}
        failed = {x[0] for x in fails}
        new, gone = sorted(failed - known), sorted(known - failed)
        for x in fails:
            if x[0] in new:
                print('NEW FAIL %s [%s] %s: %s' % x)
        for x in gone:
            print('GONE (passes now; drop it from the list) %s' % x)
        print('%d known failures, %d new, %d gone' % (len(known), len(new), len(gone)))
        return 1 if new or gone else 0
    if a.expect_all and fails:
        for f in fails[:20]:
            print('FAIL %s [%s] %s: %s' % f)
        return 1
    return 0


KNOWN_HEADER = """\
# Kernels of ../shared/ptx-hw/random the reference interpreter does not reproduce (test
# ptxref-hw-all, run with PTXREF_HW_ALL=1: hwcheck.py --quirk16 --judge --known-fail;
# docs/PTXREF.md).  It fails on a kernel that fails and is not listed, and on a listed one that
# passes.
# Regenerate: python3 tests/ptxref/hwcheck.py ../shared/ptx-hw/random --quirk16 --judge \\
#   --write-known tests/ptxref/hw_known_fail.txt
"""


if __name__ == '__main__':
    sys.exit(main())
