"""Cases for cp.async, mbarrier and clusters (tests/exec/ptx/async_tiles.ptx, mbar_pc.ptx,
cluster_one.ptx: nvcc-generated from the CUDA sources in their headers).  References from
the PTX ISA: cp.async copies cp-size bytes and zero-fills those at or past src-size (all of
them when ignore-src holds), complete after cp.async.wait_group / wait_all or at the
mbarrier they arrive on; an mbarrier phase completes when its pending arrivals and its
tx-count are both zero, then starts again with the expected count (arrive_drop lowers it),
test_wait/try_wait.parity say whether the phase of a state token / of a parity completed;
a CTA launched without cluster dimensions is a cluster of one CTA (rank 0, one CTA,
%clusterid = %ctaid, %is_explicit_cluster false).  Every check is on data: a copy that
lands late or a wait that returns early reads LDS before it is written (amdsim runs waves
in turn).  An NVIDIA H100 and an H200 agree with every reference here (the kernels run as
CUDA with the same inputs, 2026-11-27)."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'kernels'))
from ref import Case, In, Out, unpack, rng_for  # noqa: E402

M32 = 0xffffffff


def compare(name, got, expected):
    return ['%s word %d: got %#x, expected %#x' % (name, k, got[k], expected[k])
            for k in range(len(expected)) if got[k] != expected[k]][:12]


def tiles_case(name, grid, ntiles, nvalid):
    """async_tiles: 64 threads per block; per tile, element i of the buffer is the input or 0
    (at or past nvalid: src-size), small[t] the input or 0 (ignore-src for t & 7 == 3);
    out = b[i] * 3 + b[(i + 67) & 255] + small[(i / 4 + 5) & 63].  Then two copies tracked by
    mbarriers: out2[t] = b0[(4t + 9) & 255] + (b1[(2t + 77) & 127] ^ 0x5a)."""
    rng = rng_for(name)
    vals = [rng.getrandbits(32) for _ in range(grid * ntiles * 256)]
    exp1, exp2 = [], []
    for b in range(grid):
        src = vals[b * ntiles * 256:(b + 1) * ntiles * 256]
        for tile in range(ntiles):
            buf = [src[tile * 256 + e] if tile * 256 + e < nvalid else 0 for e in range(256)]
            small = [0 if t & 7 == 3 else src[tile * 256 + t] for t in range(64)]
            exp1 += [(buf[i] * 3 + buf[(i + 67) & 255] + small[(i // 4 + 5) & 63]) & M32
                     for i in range(256)]
        last = src[(ntiles - 1) * 256:]
        b0 = [last[((e & ~3) + 128 & 255) + (e & 3)] for e in range(256)]
        b1 = last[:128]
        exp2 += [(b0[(4 * t + 9) & 255] + (b1[(2 * t + 77) & 127] ^ 0x5a)) & M32
                 for t in range(64)]

    def check(outs, wave):
        return (compare(name, unpack('I', outs[0]), exp1) +
                compare(name + ' out2', unpack('I', outs[1]), exp2))

    return Case(name, 'async_tiles', (grid,), (64,),
                [In('I', vals), Out(4 * len(exp1)), Out(4 * len(exp2)), ('i32', ntiles),
                 ('i32', nvalid)], check)


def zfill_case(name, threads):
    """async_zfill: per thread 80 bytes: [0,16) with src-size 5, [16,24) src-size 3,
    [24,28) src-size 2, [28,32) ignore-src = t & 1, [32,48) src-size 0, [48,64) src-size
    t % 17, [64,80) src-size 0."""
    rng = rng_for(name)
    data = bytes(rng.getrandbits(8) for _ in range(threads * 80))
    exp = bytearray()
    for t in range(threads):
        src = data[t * 80:(t + 1) * 80]
        for lo, hi, n in ((0, 16, 5), (16, 24, 3), (24, 28, 2), (28, 32, 0 if t & 1 else 4),
                          (32, 48, 0), (48, 64, t % 17), (64, 80, 0)):
            exp += src[lo:lo + n] + bytes(hi - lo - n)

    def check(outs, wave):
        return compare(name, unpack('I', outs[0]), unpack('I', bytes(exp)))

    return Case(name, 'async_zfill', (1,), (threads,),
                [In('B', list(data)), Out(len(exp))], check)


def pending_errors(label, pend):
    """pending_count of the tokens of the arrivals at one phase: the pending arrivals before
    each.  An H100 arrives once for the threads of a warp that arrive together (they all see
    the same count), so only this holds whatever the order: the counts seen, highest first,
    start at the expected count and each is the previous one less the threads that saw it."""
    left = len(pend)
    for v in sorted(set(pend), reverse=True):
        if v != left:
            return ['%s: pending count %d, expected %d' % (label, v, left)]
        left -= pend.count(v)
    return ['%s: %d arrivals not seen' % (label, left)] if left else []


def mbar_case(name, grid, rounds):
    """mbar_pc: consumer c folds acc = acc * 7 + buf[c] + buf[(c + 37) & 63] over the rounds
    (buf = in * 3 + round); then per thread: res[(t + 41) & 127] after an mbarrier of the whole
    CTA (res[u] = in[u & 63] ^ u * 0x9e3779b9), the pending count of its state token, and
    for t < 64 res[(t + 7) & 63] = that thread's 3t + 1 after the second phase of a
    barrier that threads 64-127 left with arrive_drop, res2[(t + 2) & 127] = 5u + 2 of that
    thread after an arrival at mbarrier pair[t & 1] (the lanes of a wave at two objects) and
    the pending count of that token."""
    rng = rng_for(name)
    vals = [rng.getrandbits(32) for _ in range(grid * rounds * 64)]
    exp1, exp2 = [], []
    for b in range(grid):
        src = vals[b * rounds * 64:(b + 1) * rounds * 64]
        for c in range(64):
            acc = 0
            for r in range(rounds):
                buf = [(src[r * 64 + k] * 3 + r) & M32 for k in range(64)]
                acc = (acc * 7 + buf[c] + buf[(c + 37) & 63]) & M32
            exp1.append(acc)
        res = [(src[u & 63] ^ (u * 0x9e3779b9)) & M32 for u in range(128)]
        for t in range(128):
            exp2 += [res[(t + 41) & 127], None,
                     ((t + 7) & 63) * 3 + 1 if t < 64 else 0, ((t + 2) & 127) * 5 + 2, None]

    def check(outs, wave):
        got = unpack('I', outs[1])
        errs = compare(name, unpack('I', outs[0]), exp1)
        errs += ['%s out2 word %d: got %#x, expected %#x' % (name, k, got[k], e)
                 for k, e in enumerate(exp2) if e is not None and got[k] != e][:12]
        for b in range(grid):
            for word, group in ((1, range(128)), (4, range(0, 128, 2)), (4, range(1, 128, 2))):
                errs += pending_errors('%s block %d word %d' % (name, b, word),
                                       [got[(b * 128 + t) * 5 + word] for t in group])
        return errs

    c = Case(name, 'mbar_pc', (grid,), (128,),
             [In('I', vals), Out(4 * len(exp1)), Out(4 * len(exp2)), ('i32', rounds)], check)
    c.warp_level = True  # wave64, wave32 and 32-lane warps on wave64 alike
    return c


def cluster_case(name, grid):
    """cluster_one: 12 words per thread (see the CUDA source)."""
    rng = rng_for(name)
    vals = [rng.getrandbits(28) for _ in range(grid * 64)]
    exp = []
    for b in range(grid):
        v = vals[b * 64:(b + 1) * 64]
        sums = [sum(v[(u + 3) & 63] for u in range(64) if u & 1 == p) & M32 for p in (0, 1)]
        for t in range(64):
            exp += [sums[t & 1], v[(t + 9) & 63], 0, 1, 0, 111, b, grid + 1000, 0, 0, b,
                    0x600d]

    def check(outs, wave):
        return compare(name, unpack('I', outs[0]), exp)

    return Case(name, 'cluster_one', (grid,), (64,), [In('I', vals), Out(4 * len(exp))],
                check)


def nocomplete_case(name):
    """mbar_nocomplete: .noComplete arrivals count as arrivals (the program promises they do
    not complete the phase); arrive_drop lowers the expected count; pending_count is the
    pending arrivals before the token's own (as the H100 returns it, mbar_case)."""
    exp = [4, 0, 2, 1, 1, 3, 0]

    def check(outs, wave):
        return compare(name, unpack('I', outs[0])[:len(exp)], exp)

    c = Case(name, 'mbar_nocomplete', (1,), (64,), [Out(4 * 8)], check)
    c.warp_level = True
    return c


def cases():
    return [tiles_case('async_tiles_full', 2, 5, 5 * 256),
            tiles_case('async_tiles_zfill', 1, 3, 256 + 137),
            tiles_case('async_tiles_zfill2', 2, 3, 2 * 256 + 138),
            tiles_case('async_tiles_zfill3', 1, 2, 139),
            zfill_case('async_zfill', 64),
            mbar_case('mbar_pc_6', 2, 6),
            mbar_case('mbar_pc_1', 1, 1),
            cluster_case('cluster_one', 3),
            nocomplete_case('mbar_nocomplete')]
