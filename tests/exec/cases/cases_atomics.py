"""Cases for the atomics kernels (tests/exec/ptx/atomics_*.ptx): references written from the
PTX ISA's definitions of atom/red.  Where the order of the atomic operations between threads is
unspecified, the returned old values are checked as a multiset (every order gives the same
one for add/inc/dec/exch), and float adds use integer values so every order gives exact sums.
"""

import random
import struct
from collections import Counter

from ref import Case, In, InOut, Out, unpack, s32, s64, M32, M64


def _u32(v):
    return v & M32


def _multiset(label, got, exp, errs):
    g, e = Counter(got), Counter(exp)
    if g != e:
        errs.append('%s: returned values differ as a multiset: extra %s, missing %s' % (
            label, sorted((g - e).elements())[:8], sorted((e - g).elements())[:8]))


def _eq(label, got, exp, errs):
    if got != exp:
        errs.append('%s: got %#x, expected %#x' % (label, got, exp))


def global_case():
    rng = random.Random('atomics_global')
    n, nbins = 700, 13
    vals = [rng.randrange(0, 1000) if i % 3 else rng.getrandbits(32) for i in range(n)]
    h0 = [rng.randrange(0, 50) for _ in range(nbins)]
    sc0 = [rng.getrandbits(32) for _ in range(16)]
    sc0[3], sc0[4] = 500, 5     # inc limit 37 (starting above it), dec limit 41
    sc0[2] = 0x80000005         # a negative start for max.s32
    sc0[13] = 100

    def check(outs, wave):
        hist = unpack('I', outs[0])
        olds = unpack('I', outs[1])
        sc = unpack('I', outs[2])
        errs = []
        by_bin = [[] for _ in range(nbins)]
        for i, x in enumerate(vals):
            by_bin[x % 13].append(i)
        for b in range(nbins):
            _eq('hist[%d]' % b, hist[b], h0[b] + len(by_bin[b]), errs)
            _multiset('hist[%d] old values' % b, [olds[8 * i] for i in by_bin[b]],
                      [h0[b] + k for k in range(len(by_bin[b]))], errs)
        _eq('red.add', sc[0], _u32(sc0[0] + sum(vals)), errs)
        _eq('atom.min.u32', sc[1], min([sc0[1]] + vals), errs)
        _eq('red.max.s32', sc[2], _u32(max([s32(sc0[2])] + [s32(v) for v in vals])), errs)
        _eq('atom.inc', sc[3], (n - 1) % 38, errs)  # 500 >= 37 wraps to 0 first
        _multiset('atom.inc old values', [olds[8 * i + 1] for i in range(n)],
                  [sc0[3]] + [(k - 1) % 38 for k in range(1, n)], errs)
        _eq('atom.dec', sc[4], (sc0[4] - n) % 42, errs)
        _multiset('atom.dec old values', [olds[8 * i + 2] for i in range(n)],
                  [(sc0[4] - k) % 42 for k in range(n)], errs)
        mask = 0
        xor = sc0[7]
        for i, x in enumerate(vals):
            mask |= 1 << (i % 29)
            xor ^= x
        _eq('atom.and', sc[5], sc0[5] & ~mask & M32, errs)
        _eq('red.or', sc[6], sc0[6] | mask, errs)
        _eq('atom.xor', sc[7], xor, errs)
        _multiset('atom.exch old values and final value', [olds[8 * i + 3] for i in range(n)] +
                  [sc[8]], [sc0[8]] + [i + 1 for i in range(n)], errs)
        _eq('cas loop add', sc[9], _u32(sc0[9] + sum(vals)), errs)
        _eq('generic atom.add', sc[10], _u32(sc0[10] + 2 * n), errs)
        _multiset('generic atom.add old values', [olds[8 * i + 4] for i in range(n)],
                  [_u32(sc0[10] + 2 * k) for k in range(n)], errs)
        _eq('atom.acq_rel.add', sc[11], _u32(sc0[11] + n), errs)
        _multiset('atom.acq_rel.add old values', [olds[8 * i + 5] for i in range(n)],
                  [_u32(sc0[11] + k) for k in range(n)], errs)
        _eq('red.release.sys', sc[12], _u32(sc0[12] + 3 * n), errs)
        _eq('atom.acquire.max', sc[13], max(sc0[13], n - 1), errs)
        for i in range(n):
            o = olds[8 * i + 6]
            if o != sc0[13] and not (o < n and o <= sc[13]):
                errs.append('atom.acquire.max thread %d returned %d' % (i, o))
                break
        for i in range(n):
            if olds[8 * i + 7] != vals[i]:
                errs.append('st.release/ld.acquire thread %d: %#x' % (i, olds[8 * i + 7]))
                break
        _eq('ld.acquire sum', sc[14], _u32(sc0[14] + sum(vals)), errs)
        return errs

    return Case('atomics_global', 'atomics_global', (3,), (256,),
                [InOut('I', h0), In('I', vals), Out(32 * n), InOut('I', sc0), ('u32', n)], check)


def shared_case():
    rng = random.Random('atomics_shared')
    nblk, bs = 4, 256
    n = nblk * bs
    vals = [rng.getrandbits(32) if i % 5 == 0 else rng.randrange(0, 64) for i in range(n)]
    h0 = [rng.randrange(0, 1000) for _ in range(16)]

    def check(outs, wave):
        hist, olds, blk = unpack('I', outs[0]), unpack('I', outs[1]), unpack('I', outs[2])
        errs = []
        for b in range(16):
            _eq('hist[%d]' % b, hist[b], h0[b] + sum(1 for x in vals if x & 15 == b), errs)
        for k in range(nblk):
            ids = range(k * bs, (k + 1) * bs)
            xs = [vals[i] for i in ids]
            c = blk[16 * k:16 * (k + 1)]
            for b in range(16):
                mine = [i for i in ids if vals[i] & 15 == b]
                _multiset('block %d bin %d old values' % (k, b), [olds[6 * i] for i in mine],
                          list(range(len(mine))), errs)
            _eq('block %d inc' % k, c[0], bs % 10, errs)
            _multiset('block %d inc old values' % k, [olds[6 * i + 1] for i in ids],
                      [j % 10 for j in range(bs)], errs)
            _eq('block %d dec' % k, c[1], (-bs) % 7, errs)
            _multiset('block %d dec old values' % k, [olds[6 * i + 2] for i in ids],
                      [(-j) % 7 for j in range(bs)], errs)
            _eq('block %d max.u32' % k, c[2], max(xs), errs)
            _eq('block %d min.s32' % k, c[3], _u32(min([0] + [s32(x) for x in xs])), errs)
            _multiset('block %d exch' % k, [olds[6 * i + 3] for i in ids] + [c[4]],
                      [0] + [t + 1 for t in range(bs)], errs)
            _eq('block %d cas loop' % k, c[5], _u32(sum(xs)), errs)
            _eq('block %d generic add' % k, c[6], bs, errs)
            _multiset('block %d generic add old values' % k, [olds[6 * i + 4] for i in ids],
                      list(range(bs)), errs)
            _eq('block %d generic red on [sh+92]' % k, c[7], 2 * bs, errs)
            _eq('block %d add.u64' % k, c[8] | c[9] << 32, sum(xs) & M64, errs)
            x64 = 0
            for x in xs:
                x64 ^= x
            _eq('block %d xor.b64' % k, c[10] | c[11] << 32, x64, errs)
        return errs

    return Case('atomics_shared', 'atomics_shared', (nblk,), (bs,),
                [InOut('I', h0), In('I', vals), Out(24 * n), Out(64 * nblk)], check)


def _f32(v):
    return struct.unpack('<f', struct.pack('<I', v))[0]


def _f64(v):
    return struct.unpack('<d', struct.pack('<Q', v))[0]


def wide_case():
    rng = random.Random('atomics_wide')
    n = 600
    nblk = 3
    vals = [rng.getrandbits(64) if i % 4 else rng.randrange(0, 1 << 20) for i in range(n)]
    sc0 = [rng.getrandbits(64) for _ in range(16)]
    sc0[8] = 1000 << 32  # inc counter (32-bit at byte 64), dec counter above its bound
    sc0[9] = struct.unpack('<Q', struct.pack('<ff', 0.0, 3.0))[0]   # f32 at 72 and 76
    sc0[10] = struct.unpack('<Q', struct.pack('<ff', 5.0, 0.0))[0]  # f32 at 80
    sc0[11] = struct.unpack('<Q', struct.pack('<d', 1.0))[0]
    sc0[12] = struct.unpack('<Q', struct.pack('<d', 0.5))[0]
    sc0[13] = struct.unpack('<Q', struct.pack('<d', -4.0))[0]
    sc0[14] = 7
    sc0[15] = struct.unpack('<Q', struct.pack('<ff', 0.0, 0.0))[0]

    def check(outs, wave):
        olds, sc = unpack('Q', outs[0]), unpack('Q', outs[1])
        errs = []
        _eq('add.u64', sc[0], (sc0[0] + sum(vals)) & M64, errs)
        _eq('min.s64', sc[1], min([s64(sc0[1])] + [s64(v) for v in vals]) & M64, errs)
        _eq('max.u64', sc[2], max([sc0[2]] + vals), errs)
        a, o, x = sc0[3], sc0[4], sc0[5]
        for v in vals:
            a, o, x = a & v, o | v, x ^ v
        _eq('and.b64', sc[3], a, errs)
        _eq('or.b64', sc[4], o, errs)
        _eq('xor.b64', sc[5], x, errs)
        _multiset('exch.b64', [olds[6 * i] for i in range(n)] + [sc[6]],
                  [sc0[6]] + [i + 1 for i in range(n)], errs)
        _eq('cas.b64 loop add', sc[7], (sc0[7] + sum(vals)) & M64, errs)
        _eq('inc.u32 next to 64-bit data', sc[8] & M32, n, errs)
        _eq('dec.u32 from above its bound', sc[8] >> 32, (10 - (n - 1)) % 11, errs)
        _multiset('dec.u32 old values', [olds[6 * i + 3] >> 32 for i in range(n)],
                  [1000] + [(10 - (k - 1)) % 11 for k in range(1, n)], errs)
        f = struct.unpack('<ff', struct.pack('<Q', sc[9]))
        _eq('add.f32 +1.0', int(f[0]), n, errs)
        _eq('red.add.f32', int(f[1]), 3 + sum(i % 7 for i in range(n)), errs)
        _multiset('add.f32 old values', [_f32(olds[6 * i + 1] & M32) for i in range(n)],
                  [float(k) for k in range(n)], errs)
        g = struct.unpack('<ff', struct.pack('<Q', sc[10]))
        _eq('generic add.f32', int(g[0]), 5 + sum(i % 7 for i in range(n)), errs)
        _eq('add.f64 +2.0', _f64(sc[11]), 1.0 + 2.0 * n, errs)
        _multiset('add.f64 old values', [_f64(olds[6 * i + 2]) for i in range(n)],
                  [1.0 + 2.0 * k for k in range(n)], errs)
        _eq('red.add.f64', _f64(sc[12]), 0.5 + sum(i % 7 for i in range(n)), errs)
        _eq('generic add.f64', _f64(sc[13]), -4.0 + sum(i % 7 for i in range(n)), errs)
        _eq('shared red.add.u64 merged', sc[14], (7 + sum(vals)) & M64, errs)
        h = struct.unpack('<ff', struct.pack('<Q', sc[15]))
        _eq('shared add.f32 merged', int(h[0]), n, errs)
        for k in range(nblk):
            ids = [i for i in range(k * 256, (k + 1) * 256) if i < n]
            _multiset('block %d shared add.f32 old values' % k,
                      [_f32(olds[6 * i + 3] & M32) for i in ids],
                      [float(j) for j in range(len(ids))], errs)
        for i in range(n):
            o = olds[6 * i + 5]
            if (o - sc0[0]) & M64 > sum(vals):
                errs.append('add.u64 thread %d returned %#x' % (i, o))
                break
        return errs

    return Case('atomics_wide', 'atomics_wide', (nblk,), (256,),
                [In('Q', vals), Out(48 * n), InOut('Q', sc0), ('u32', n)], check)


def loop_case():
    nblk, bs = 3, 192

    def check(outs, wave):
        out, blocks = outs[0], unpack('d', outs[1])
        f0, fmax = struct.unpack('<ff', out[:8])
        total = struct.unpack('<d', out[8:16])[0]
        errs = []
        exp_f, exp_d, exp_max = 0, [0.0] * nblk, 0.0
        for i in range(nblk * bs):
            t = i % 5
            exp_f += sum(k for k in range(t) if k % 2 == 0)
            exp_d[i // bs] += sum(float(t) for k in range(t) if k % 2 == 1)
            exp_max = max(exp_max, float((i * 7919) % 1000))
        _eq('guarded add.f32 in a divergent loop', int(f0), exp_f, errs)
        _eq('CAS float maximum', int(fmax), int(exp_max), errs)
        for k in range(nblk):
            if blocks[k] != exp_d[k]:
                errs.append('block %d shared add.f64: got %r, expected %r' % (k, blocks[k],
                                                                             exp_d[k]))
        if total != sum(exp_d):
            errs.append('global add.f64 of the blocks: got %r, expected %r' % (total, sum(exp_d)))
        return errs

    return Case('atomics_loop', 'atomics_loop', (nblk,), (bs,),
                [InOut('I', [0, 0, 0, 0]), Out(8 * nblk)], check)


def cases():
    return [global_case(), shared_case(), wide_case(), loop_case()]
