"""Cases for tests/exec/ptx/warp2_{cuda,nvvm}.ptx: nvcc's and clang-19's PTX of
tests/exec/src/warp2_patterns.cu (real warp-level patterns for 32-lane warps).  References from
the PTX ISA's definitions of shfl.sync (with CUDA's width argument: c = ((32 - width) << 8) |
clamp), vote.sync.ballot, match.any.sync, redux.sync, %lanemask_lt and atom.add; the
warp-aggregated atomics are checked without assuming an order between warps (which warp's
atomic comes first is the scheduler's choice)."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'kernels'))
from ref import Case, In, InOut, Out, unpack, rng_for, M32  # noqa: E402

GRID, BLOCK = 2, 256
N = GRID * BLOCK


def s32(v):
    v &= M32
    return v - (1 << 32) if v >> 31 else v


def shfl(mode, v, lane, b, c):
    """shfl.sync.MODE.b32 on a 32-lane warp (PTX ISA): v[j] when j is in range, else v[lane]."""
    bval, cval, seg = b & 31, c & 31, (c >> 8) & 31
    min_lane = lane & seg
    max_lane = min_lane | (cval & ~seg)
    if mode == 'up':
        j = lane - bval
        ok = j >= max_lane
    else:
        j = {'down': lane + bval, 'bfly': lane ^ bval,
             'idx': min_lane | (bval & ~seg)}[mode]
        ok = j <= max_lane
    return v[j] if ok else v[lane]


def cuda_shfl(mode, v, lane, b, width):
    """CUDA's __shfl*_sync(mask, v, b, width)."""
    c = (32 - width) << 8
    return shfl(mode, v, lane, b, c if mode == 'up' else c | 31)


SHUFFLES = [('bfly', 1, 32), ('bfly', 2, 32), ('bfly', 3, 32), ('bfly', 4, 32), ('bfly', 8, 32),
            ('bfly', 15, 32), ('bfly', 16, 32), ('bfly', 31, 32), ('bfly', 2, 4), ('bfly', 9, 8),
            ('up', 1, 32), ('up', 3, 16), ('up', 1, 8), ('up', 2, 4), ('up', 15, 16),
            ('up', 5, 8), ('down', 1, 32), ('down', 16, 32), ('down', 4, 16), ('down', 1, 4),
            ('down', 7, 8), ('down', 2, 2), ('idx', 0, 4), ('idx', 3, 4), ('idx', 13, 16),
            ('idx', 31, 32)]


def warp_out(v):
    """out[32 * lane + k] of one warp (values v of its 32 lanes)."""
    rows = [[cuda_shfl(m, v, lane, b, w) for (m, b, w) in SHUFFLES] for lane in range(32)]
    s = list(v)
    for k in (4, 2, 1):
        s = [s[lane] + cuda_shfl('bfly', s, lane, k, 8) for lane in range(32)]
    t = list(v)
    for k in (8, 4, 2, 1):
        t = [max(t[lane], cuda_shfl('down', t, lane, k, 16)) for lane in range(32)]
    u = list(v)
    for k in (1, 2, 4, 8):
        u = [u[lane] + (cuda_shfl('up', u, lane, k, 16) if lane % 16 >= k else 0)
             for lane in range(32)]
    odd = [x for x in v if x & 1]
    red = [0, 0, 0]
    if odd:
        uo = [x & M32 for x in odd]
        andv, orv, xorv = M32, 0, 0
        for x in uo:
            andv, orv, xorv = andv & x, orv | x, xorv ^ x
        red = [s32(sum(odd)) ^ max(odd), s32(andv + orv), s32(xorv - min(uo))]
    out = []
    for lane in range(32):
        out += rows[lane] + [s32(s[lane]), t[lane], s32(u[lane])]
        out += red if v[lane] & 1 else [0, 0, 0]
    return out


def expect_fixed(vals):
    """out, dedup and scan: everything but the order-dependent compaction."""
    out, dedup, scan = [], [], []
    for base in range(0, N, 32):
        v = vals[base:base + 32]
        out += warp_out(v)
        keys = [x & 7 for x in v]
        reps = sum(1 for lane in range(32) if keys.index(keys[lane]) == lane)
        for lane in range(32):
            first = keys.index(keys[lane])
            dedup += [base + first, keys.count(keys[lane]) if first == lane else 0, reps]
    for blk in range(0, N, BLOCK):
        acc = 0
        for x in vals[blk:blk + BLOCK]:
            acc += x
            scan.append(s32(acc))
    return out, dedup, scan


def check_compaction(vals, compact, pos, counter):
    """Warp-aggregated atomics: each warp's kept lanes take consecutive slots in lane order
    from a base its leader's atomic returned; the warps' ranges tile [0, total)."""
    errs = []
    kept = [i for i in range(N) if vals[i] & 3 == 1]
    if counter[0] != len(kept):
        errs.append('counter = %d, expected %d' % (counter[0], len(kept)))
    for i in range(N):
        if i not in kept and pos[i] != -1:
            errs.append('pos[%d] = %d, expected -1 (not kept)' % (i, pos[i]))
    ranges = []
    for base in range(0, N, 32):
        mine = [i for i in kept if base <= i < base + 32]
        if not mine:
            continue
        first = pos[mine[0]]
        want = list(range(first, first + len(mine)))
        got = [pos[i] for i in mine]
        if got != want:
            errs.append('warp %d: positions %s, expected consecutive %s' % (base // 32, got[:6],
                                                                           want[:6]))
        ranges += want
        errs += ['compact[%d] = %d, expected %d (thread %d)' % (pos[i], compact[pos[i]], vals[i], i)
                 for i in mine if 0 <= pos[i] < N and compact[pos[i]] != vals[i]][:3]
    if sorted(ranges) != list(range(len(kept))):
        errs.append('the warps\' ranges do not tile [0, %d)' % len(kept))
    return errs


def pattern_case(kernel):
    rng = rng_for(kernel)
    vals = [rng.randrange(-1000, 1000) for _ in range(N)]
    for k in range(64, 96):  # a warp with all keys equal and every lane odd
        vals[k] = 8 * rng.randrange(-100, 100) + 5
    for k in range(96, 128):  # a warp with nothing kept and no odd lane
        vals[k] = 4 * rng.randrange(-200, 200)

    def check(outs, wave):
        if wave != 32:
            return ['%s runs with 32-lane warps only, not %d' % (kernel, wave)]
        out, compact, pos, counter, scan, dedup = [unpack('i', o) for o in outs]
        errs = []
        for name, got, exp in zip(('out', 'dedup', 'scan'), (out, dedup, scan),
                                  expect_fixed(vals)):
            bad = [i for i in range(len(exp)) if got[i] != exp[i]]
            errs += ['%s %s[%d] = %d, expected %d' % (kernel, name, i, got[i], exp[i])
                     for i in bad[:8]]
        return errs + check_compaction(vals, compact, pos, counter)

    c = Case(kernel, kernel, (GRID,), (BLOCK,),
             [In('i', vals), Out(4 * 32 * N), Out(4 * N), Out(4 * N), InOut('i', [0]), Out(4 * N),
              Out(4 * 3 * N)], check)
    c.warp_level = True  # also 32-lane warps on wave64 (--warp-size 32)
    c.warp32_only = True
    return c


# warp2_const.ptx: (mode, b, c) with c = ((64 - p) << 8) | clamp, the same segments of p lanes
# on wave32 and wave64 (the fields are W bits wide); 63 is the whole wave.
CONST_SHUFFLES = [
    ('bfly', 1, 63), ('bfly', 2, 63), ('bfly', 3, 63), ('bfly', 5, 63), ('bfly', 12, 63),
    ('bfly', 16, 63), ('bfly', 21, 63), ('bfly', 31, 63), ('bfly', 40, 63), ('bfly', 1, 0x3807),
    ('bfly', 6, 0x3807), ('bfly', 9, 0x3807), ('bfly', 3, 0x3c03), ('bfly', 4, 0x1f),
    ('up', 1, 0x3000), ('up', 5, 0x3000), ('up', 15, 0x3000), ('up', 1, 0x3c00),
    ('up', 3, 0x3c00), ('up', 2, 0x3800), ('up', 1, 0), ('up', 7, 0x3000), ('up', 2, 0x3002),
    ('down', 1, 0x300f), ('down', 4, 0x300f), ('down', 15, 0x300f), ('down', 1, 0x3e01),
    ('down', 3, 0x3807), ('down', 1, 63), ('down', 33, 63), ('down', 2, 0x3005),
    ('idx', 0, 0x3c03), ('idx', 3, 0x3c03), ('idx', 1, 0x3e01), ('idx', 5, 0x3807),
    ('idx', 13, 0x300f), ('idx', 17, 0x201f), ('idx', 40, 63), ('idx', 7, 0x3003),
    ('idx', 0, 0x3f00), ('idx', 6, 0x3c03),
    ('down', 2, 63), ('up', 4, 0), ('up', 3, 0x2000), ('down', 16, 0x201f), ('up', 16, 0x2000),
    ('down', 4, 0x201f), ('down', 5, 0x201f), ('up', 2, 0x2000), ('down', 3, 0x201f)]
CONST_BLOCK = 128


def shfl_w(mode, v, lane, b, c, wave):
    """shfl.sync with the lane and c fields wave-size bits wide (docs/WARP.md): (d, p)."""
    f = wave - 1
    bval, cval, seg = b & f, c & f, (c >> 8) & f
    min_lane = lane & seg
    max_lane = min_lane | (cval & ~seg & f)
    if mode == 'up':
        j = lane - bval
        ok = j >= max_lane
    else:
        j = {'down': lane + bval, 'bfly': lane ^ bval,
             'idx': min_lane | (bval & ~seg & f)}[mode]
        ok = j <= max_lane
    return (v[j] if ok else v[lane]), int(ok)


def const_shfl_case(name, shuffles, block):
    """A kernel storing (d, p) of each constant shuffle (mode, b, c) for 2 CTAs of `block`
    random values: checked lane by lane against shfl_w on the run's wave size."""
    n = 2 * block
    rng = rng_for(name)
    vals = [rng.randrange(-1 << 31, 1 << 31) for _ in range(n)]

    def check(outs, wave):
        got = unpack('i', outs[0])
        errs = []
        for k, (mode, b, c) in enumerate(shuffles):
            for base in range(0, n, wave):
                v = vals[base:base + wave]
                for lane in range(wave):
                    d, p = shfl_w(mode, v, lane, b, c, wave)
                    at = (k * n + base + lane) * 2
                    if (got[at], got[at + 1]) != (d, p) and len(errs) < 8:
                        errs.append('shfl.%s b=%d c=%#x lane %d (thread %d): d=%d p=%d, '
                                    'expected d=%d p=%d' % (mode, b, c, lane, base + lane,
                                                            got[at], got[at + 1], d, p))
        return errs

    c = Case(name, name, (2,), (block,), [Out(8 * n * len(shuffles)), In('i', vals)], check)
    c.warp_level = True
    return c


def const_case():
    return const_shfl_case('warp2_const', CONST_SHUFFLES, CONST_BLOCK)


def cases():
    return [pattern_case('warp2_cuda'), pattern_case('warp2_nvvm'), const_case()]
