"""Cases for nvcc's and clang-19's PTX of real warp-level CUDA: cooperative groups, CUB, and
hand-written collectives (tests/exec/src/coop_*.cu, tests/exec/ptx/coop_*.ptx), plus two
hand-written PTX files (coop_redux_mask, coop_bits).  References from the CUDA semantics of each
call (cooperative groups' documented meaning: tiles of T consecutive threads, coalesced groups
ranked in lane order, labeled/binary partitions; CUB's documented results; __shfl_*_sync with
CUDA's width; fns/bmsk/szext as the PTX ISA defines them), for 32-lane warps; coop_wave,
coop_redux_mask and coop_bits also for wave64 with docs/WARP.md's rules (the shuffle's c
fields wave-size bits wide, redux over the lanes of its membermask).  Where CUDA leaves a
choice (which lane elect.sync picks, which warp's atomic comes first) the check accepts any
valid choice and checks that the program used it consistently.  On plain wave64 the 32-lane
code is refused with located errors, or warned about: the .ptx files list the diagnostics
(run_diag.py, meson test exec-diag-coop)."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'kernels'))
sys.path.insert(0, HERE)
from ref import (Case, In, InOut, Out, unpack, rng_for, s16, s32, s64, crem,  # noqa: E402
                 M32, M64)
from cases_warp2 import shfl_w  # noqa: E402

GRID, BLOCK = 2, 128
N = GRID * BLOCK


def mask_of(lanes):
    m = 0
    for k in lanes:
        m |= 1 << k
    return s32(m)


def compare(kernel, name, got, exp, per):
    bad = [i for i in range(len(exp)) if exp[i] is not None and got[i] != exp[i]]
    return ['%s %s[%d] (thread %d item %d) = %d, expected %d'
            % (kernel, name, i, i // per, i % per, got[i], exp[i]) for i in bad[:8]]


def inputs(name, special=True):
    rng = rng_for(name)
    vals = [rng.randrange(-1000, 1000) for _ in range(N)]
    if special:
        for k in range(64, 96):  # a warp whose values all share v >> 12 and v & 7
            vals[k] = 8 * rng.randrange(0, 500) + 5
        for k in range(96, 128):  # a warp where every lane takes branch A (v % 3 == 0)
            vals[k] = 3 * rng.randrange(-300, 300)
    return vals


def fns(mask, base, offset):
    """The PTX ISA's fns.b32, except offset INT_MIN: 0 on NVIDIA hardware whatever the mask and
    the base (../shared/ptx-hw/exec/replay-1ff6e20.txt, coop_bits; the random kernels agree:
    hwint_ref.py, docs/SEMANTICS.md)."""
    if offset == -(1 << 31):
        return 0
    if offset == 0:
        return base if mask >> base & 1 else M32
    pos, count, inc = base, abs(offset) - 1, 1 if offset > 0 else -1
    while 0 <= pos < 32:
        if mask >> pos & 1:
            if count == 0:
                return pos
            count -= 1
        pos += inc
    return M32


def scan(xs, op):
    out, acc = [], None
    for x in xs:
        acc = x if acc is None else op(acc, x)
        out.append(acc)
    return out


def xor_all(xs):
    r = 0
    for x in xs:
        r ^= x
    return r


def and_all(xs):
    r = M32
    for x in xs:
        r &= x
    return r


def or_all(xs):
    r = 0
    for x in xs:
        r |= x
    return r


# ---- coop_tiles: thread_block_tile<T> ----

TILES = (32, 16, 8, 4, 2)
NOUT = 19


def tile_expect(vals):
    out = []
    for gid in range(N):
        tid, blk = gid % BLOCK, gid - gid % BLOCK
        for T in TILES:
            r, first = tid % T, blk + tid - tid % T
            tv = vals[first:first + T]
            tu = [x & M32 for x in tv]
            v = tv[r]
            out += [tv[(r + 1) % T], tv[r + 1] if r + 1 < T else v, tv[r - 1] if r else v,
                    tv[r ^ (T // 2)], int(any(x > 900 for x in tv)),
                    int(all(x > -950 for x in tv)),
                    mask_of(k for k in range(T) if tv[k] & 1),
                    mask_of(k for k in range(T) if tv[k] & 3 == v & 3),
                    s32(sum(tv)), min(tv), max(tv), s32(and_all(tu)), s32(or_all(tu)),
                    s32(xor_all(tu)), s32(sum(tv[:r + 1])), s32(sum(tv[:r])),
                    s32(xor_all(tu[:r + 1])), (tid // T) * 1000 + (BLOCK + T - 1) // T,
                    s32(((1 << T) - 1) ^ 256) if len(set(x >> 12 for x in tv)) == 1 else 0]
    return out


def tiles_case(kernel):
    vals = inputs(kernel)

    def check(outs, wave):
        if wave != 32:
            return ['%s runs with 32-lane warps only, not %d' % (kernel, wave)]
        return compare(kernel, 'out', unpack('i', outs[0]), tile_expect(vals), 5 * NOUT)

    return Case(kernel, kernel, (GRID,), (BLOCK,), [In('i', vals), Out(4 * 5 * NOUT * N)],
                check)


# ---- coop_coalesced: coalesced groups, partitions, atomicAggInc ----

NC = 24


def coalesced_expect(vals):
    out = [-7] * (NC * N)
    for base in range(0, N, 32):
        v = vals[base:base + 32]
        a = [k for k in range(32) if v[k] % 3 == 0]
        b = [k for k in range(32) if v[k] % 3 != 0 and v[k] & 1]
        h = [k for k in b if v[k] % 5 == 0]
        for r, k in enumerate(a):
            o = (base + k) * NC
            gv = [v[j] for j in a]
            n = len(a)
            t0 = r - r % 4
            tv = gv[t0:t0 + 4]
            out[o:o + 14] = [r, n, gv[0], gv[-1], s32(sum(gv)), s32(sum(gv[:r + 1])),
                             max(gv[:r + 1]), int(any(x > 500 for x in gv)),
                             int(all(x < 900 for x in gv)),
                             mask_of(j for j in range(n) if gv[j] & 1),
                             gv[r - 1] if r >= 1 else gv[r], gv[r + 2] if r + 2 < n else gv[r],
                             r % 4 + 10 * len(tv) + 100 * (r // 4), min(tv)]
        for r, k in enumerate(b):
            o = (base + k) * NC
            out[o:o + 2] = [r + 1000, len(b)]
            if k in h:
                out[o + 2:o + 5] = [h.index(k), len(h), max(v[j] for j in h)]
            out[o + 5] = s32(sum(v[j] for j in b[:r]))
        for k in range(32):
            o = (base + k) * NC
            lab = [j for j in range(32) if v[j] & 3 == v[k] & 3]
            side = [j for j in range(32) if (v[j] < 0) == (v[k] < 0)]
            r = side.index(k)
            out[o + 14:o + 22] = [lab.index(k), len(lab), s32(sum(v[j] for j in lab)),
                                  v[lab[0]], r, len(side),
                                  mask_of(i for i in range(len(side)) if v[side[i]] & 1),
                                  s32(sum(v[j] for j in side[:r + 1]))]
    return out


def check_agg(kernel, vals, compact, pos, counter, keep, value_of):
    """Warp-aggregated atomics: each warp's kept lanes take consecutive slots in lane order
    from a base the warp's one atomic returned; the warps' ranges tile [0, total)."""
    errs = []
    kept = [i for i in range(N) if keep(vals[i])]
    if counter != len(kept):
        errs.append('%s counter = %d, expected %d' % (kernel, counter, len(kept)))
    ranges = []
    for base in range(0, N, 32):
        mine = [i for i in kept if base <= i < base + 32]
        if not mine:
            continue
        want = list(range(pos[mine[0]], pos[mine[0]] + len(mine)))
        got = [pos[i] for i in mine]
        if got != want:
            errs.append('%s warp %d: slots %s, expected consecutive %s'
                        % (kernel, base // 32, got[:6], want[:6]))
        ranges += want
        errs += ['%s slot %d holds %d, expected %d (thread %d)'
                 % (kernel, pos[i], compact[pos[i]], value_of(i), i)
                 for i in mine if 0 <= pos[i] < N and compact[pos[i]] != value_of(i)][:3]
    if sorted(ranges) != list(range(len(kept))):
        errs.append("%s the warps' slot ranges do not tile [0, %d)" % (kernel, len(kept)))
    return errs


def coalesced_case(kernel='coop_coalesced'):
    vals = inputs(kernel)

    def check(outs, wave):
        if wave != 32:
            return ['%s runs with 32-lane warps only, not %d' % (kernel, wave)]
        out, compact, pos, counter = [unpack('i', o) for o in outs]
        errs = compare(kernel, 'out', out, coalesced_expect(vals), NC)
        errs += ['%s pos[%d] = %d, expected -1' % (kernel, i, pos[i])
                 for i in range(N) if not vals[i] & 1 and pos[i] != -1][:3]
        return errs + check_agg(kernel, vals, compact, pos, counter[0], lambda x: x & 1,
                                lambda i: vals[i])

    return Case(kernel, kernel, (GRID,), (BLOCK,),
                [In('i', vals), Out(4 * NC * N), Out(4 * N), Out(4 * N), InOut('i', [0])],
                check)


# ---- coop_warp: CUB-style shuffles, redux, match, fns, compaction, histogram ----

NW = 20


def cuda_shfl(mode, x, lane, b, width):
    """CUDA's __shfl*_sync(mask, x, b, width) on a 32-lane warp."""
    c = (32 - width) << 8
    return shfl_w(mode, x, lane, b, c if mode == 'up' else c | 31, 32)[0]


def seg_reduce(v, w):
    x = list(v)
    o = w // 2
    while o:
        x = [x[k] + cuda_shfl('down', x, k, o, w) for k in range(len(x))]
        o //= 2
    return x


def seg_scan(v, w, lanes):
    x, o = list(v), 1
    while o < w:
        y = [cuda_shfl('up', x, k, o, w) for k in range(len(x))]
        x = [x[k] + y[k] if lanes[k] & (w - 1) >= o else x[k] for k in range(len(x))]
        o *= 2
    return x


def warp_expect(vals):
    out, compact, counts, hist = [0] * (NW * N), [0] * N, [0] * (N // 32), [0] * 16
    for base in range(0, N, 32):
        v = vals[base:base + 32]
        u = [x & M32 for x in v]
        lanes = list(range(32))
        cols = [seg_reduce(v, 32), seg_reduce(v, 16), seg_reduce(v, 8),
                seg_scan(v, 32, lanes), seg_scan(v, 8, lanes), seg_scan(v, 4, lanes)]
        mx32 = [max(v)] * 32
        mx2 = [max(v[k], v[k ^ 1]) for k in range(32)]
        same = len(set(x >> 12 for x in v)) == 1
        kept = [x for x in v if x & 3 == 1]
        compact[base:base + len(kept)] = kept
        counts[base // 32] = len(kept)
        inb = [k for k in range(32) if v[k] % 3 != 0]
        for k in inb:
            hist[u[k] & 15] += 1
        for k in range(32):
            gid = base + k
            mask = (vals[gid ^ 1] * 2654435761) & M32
            bb, off = u[k] % 32, crem(v[k], 5) - 2
            peers = (mask_of(j for j in inb if u[j] & 15 == u[k] & 15) if k in inb
                     else mask_of(j for j in range(32) if j not in inb))
            r = [c[k] for c in cols] + [mx32[k], mx2[k], s32(v[k - k % 16] + v[31]),
                                        s32(sum(u)), min(u), max(v),
                                        s32(and_all(x | 0x10 for x in u) ^
                                            or_all(x & 0xff0 for x in u) ^ xor_all(u)),
                                        s32(0xffffffef) if same else 0,
                                        mask_of(j for j in range(32) if v[j] & 7 == v[k] & 7),
                                        s32(fns(mask, bb, off)),
                                        s32(fns(mask, 31 - bb, 1 + (v[k] & 15))),
                                        s32(fns(mask, bb, -1 - (v[k] & 15))), peers, 0]
            out[gid * NW:(gid + 1) * NW] = [s32(x) for x in r]
    return out, compact, counts, hist


def warp_case(kernel='coop_warp'):

    vals = inputs(kernel)

    def check(outs, wave):
        if wave != 32:
            return ['%s runs with 32-lane warps only, not %d' % (kernel, wave)]
        errs = []
        for name, got, exp, per in zip(('out', 'compact', 'counts', 'hist'),
                                       [unpack('i', o) for o in outs], warp_expect(vals),
                                       (NW, 32, 1, 1)):
            errs += compare(kernel, name, got, exp, per)
        return errs

    return Case(kernel, kernel, (GRID,), (BLOCK,),
                [In('i', vals), Out(4 * NW * N), Out(4 * N), Out(4 * N // 32), Out(4 * 16)],
                check)


# ---- coop_sm90: invoke_one (elect.sync) ----

NE = 8


def sm90_case(kernel):
    vals = inputs(kernel)

    def check(outs, wave):
        if wave != 32:
            return ['%s runs with 32-lane warps only, not %d' % (kernel, wave)]
        out, leaders, counter, slot = [unpack('i', o) for o in outs]
        errs = []
        exp = [None] * (NE * N)
        for base in range(0, N, 32):
            v = vals[base:base + 32]
            lead = leaders[base // 32]
            if not 0 <= lead < 32:
                errs.append('%s warp %d: elected lane %d' % (kernel, base // 32, lead))
                lead = 0
            odd = [k for k in range(32) if v[k] & 1]
            for k in range(32):
                o = (base + k) * NE
                t0 = k - k % 8
                exp[o:o + 6] = [3 * v[lead], None, s32(sum(v[t0:t0 + 8])),
                                s32(sum(v[t0:k])), -7, -7]
                got = out[o + 1] - k // 8  # v of the tile's elected lane
                if got not in v[t0:t0 + 8] or out[base * NE + t0 * NE + 1] != out[o + 1]:
                    errs.append('%s thread %d: invoke_one_broadcast on its tile of 8 gave %d'
                                % (kernel, base + k, out[o + 1]))
                if k in odd:
                    exp[o + 5] = None
                    e = out[(base + odd[0]) * NE + 4]  # the elected odd lane's v, for all
                    exp[o + 4] = e
                    if e not in [v[j] for j in odd]:
                        errs.append('%s warp %d: invoke_one_broadcast on the odd lanes gave '
                                    '%d, not an odd lane\'s value' % (kernel, base // 32, e))
            errs = errs[:8]
        errs += compare(kernel, 'out', out, exp, NE)
        pos = [out[i * NE + 5] for i in range(N)]
        return errs + check_agg(kernel, vals, slot, pos, counter[0], lambda x: x & 1,
                                lambda i: i)

    return Case(kernel, kernel, (GRID,), (BLOCK,),
                [In('i', vals), Out(4 * NE * N), Out(4 * N // 32), InOut('i', [0]),
                 Out(4 * N)], check)


# ---- coop_wave: 0xffffffff shuffles and redux, on both wave sizes ----

NV = 8


def wave_expect(vals, wave):
    out = []
    for base in range(0, N, wave):
        v = vals[base:base + wave]
        lanes = list(range(wave))

        def sh(mode, x, k, b, width):
            c = (32 - width) << 8
            return shfl_w(mode, x, k, b, c if mode == 'up' else c | 31, wave)[0]

        def red(w):
            x, o = list(v), w // 2
            while o:
                x = [x[k] + sh('down', x, k, o, w) for k in lanes]
                o //= 2
            return x

        def scn(w):
            x, o = list(v), 1
            while o < w:
                y = [sh('up', x, k, o, w) for k in lanes]
                x = [x[k] + y[k] if k & (w - 1) >= o else x[k] for k in lanes]
                o *= 2
            return x

        cols = [red(32), red(16), scn(32), scn(8),
                [sh('idx', v, k, 0, 32) - sh('bfly', v, k, 5, 8) for k in lanes]]
        # redux over membermask 0xffffffff: lanes 0-31; lanes 32-63 of a wave64 execute it
        # outside their membermask, which is undefined (docs/WARP.md)
        red = v[:32]
        for k in lanes:
            out += [s32(c[k]) for c in cols]
            out += [s32(sum(red)), max(red)] if k < 32 else [None, None]
            out.append(k)
    return out


def wave_case(kernel):
    vals = inputs(kernel, special=False)

    def check(outs, wave):
        return compare(kernel + ' (wave %d)' % wave, 'out', unpack('i', outs[0]),
                       wave_expect(vals, wave), NV)

    c = Case(kernel, kernel, (GRID,), (BLOCK,), [In('i', vals), Out(4 * NV * N)], check)
    c.warp_level = True  # also wave64 (nvcc -G: the masks reach the shuffles through
    return c             # .func parameters, still known constants when inlined)


# ---- coop_cub: CUB's WarpReduce/WarpScan/BlockReduce/BlockScan ----

def cub_case():
    kernel = 'coop_cub'
    vals = inputs(kernel)

    def expect():
        out = [None] * (8 * N)
        for gid in range(N):
            tid, lane = gid % BLOCK, gid % 32
            w = vals[gid - lane:gid - lane + 32]
            blk = vals[gid - tid:gid - tid + BLOCK]
            o = gid * 8
            if lane == 0:
                out[o:o + 2] = [s32(sum(w)), max(w)]
            out[o + 2] = s32(sum(w[:lane + 1]))
            out[o + 3] = max([0] + w[:lane])
            if lane % 16 == 0:
                out[o + 4] = s32(sum(w[lane:lane + 16]))
            out[o + 5] = s32(sum(blk)) if tid == 0 else 0
            out[o + 6] = s32(sum(blk[:tid]))
            heads = [k for k in range(32) if k == 0 or (gid - lane + k) % BLOCK % 7 == 0]
            if lane in heads:
                end = ([k for k in heads if k > lane] + [32])[0]
                out[o + 7] = s32(sum(w[lane:end]))
        return out

    def check(outs, wave):
        if wave != 32:
            return ['%s runs with 32-lane warps only, not %d' % (kernel, wave)]
        return compare(kernel, 'out', unpack('i', outs[0]), expect(), 8)

    c = Case(kernel, kernel, (GRID,), (BLOCK,), [In('i', vals), Out(4 * 8 * N)], check)
    c.warp_level = True
    c.warp32_only = True
    return c


# ---- coop_cub_sort: CUB's BlockRadixSort, BlockHistogram, BlockDiscontinuity ----

def cub_sort_case():
    kernel = 'coop_cub_sort'
    tile = BLOCK * 4
    rng = rng_for(kernel)
    keys = [rng.randrange(-1000, 1000) for _ in range(GRID * tile)]
    keys[tile:tile + 64] = [rng.randrange(-3, 3) for _ in range(64)]  # many equal keys

    def check(outs, wave):
        if wave != 32:
            return ['%s runs with 32-lane warps only, not %d' % (kernel, wave)]
        out, hist = unpack('i', outs[0]), unpack('I', outs[1])
        exp, exph = [], []
        for blk in range(GRID):
            srt = sorted(keys[blk * tile:(blk + 1) * tile])
            exp += srt + [int(i == 0 or srt[i] != srt[i - 1]) for i in range(tile)]
            exph += [sum(1 for x in srt if x & 15 == b) for b in range(16)]
        return (compare(kernel, 'out', out, exp, 4) +
                compare(kernel, 'hist', hist, exph, 16))

    c = Case(kernel, kernel, (GRID,), (BLOCK,),
             [In('i', keys), Out(4 * 2 * GRID * tile), Out(4 * 16 * GRID)], check)
    # with warp = wave64 it compiles with a warning per 0xffffffff membermask (listed in the
    # .ptx) and sorts wrongly: CUB's scans use 32-lane warps, lanes 32-63 run outside the mask
    c.warp_level = True
    c.warp32_only = True
    return c


# ---- coop_loop: coalesced groups in loops with per-lane trip counts ----

def loop_case(kernel):
    """Each iteration's coalesced group is the lanes still in the loop (CUDA leaves which
    threads are coalesced to the implementation; on AMD they are the wave's active lanes)."""
    vals = inputs(kernel)

    def expect():
        out, total = [], 0
        for base in range(0, N, 32):
            v = vals[base:base + 32]
            acc, ranks, last = [0] * 32, [0] * 32, [-1] * 32
            live = [k for k in range(32) if v[k] & 7 > 0]
            it = 0
            while live:
                n = len(live)
                total += n
                for r, k in enumerate(live):
                    ranks[k] = ranks[k] * 3 + r
                    acc[k] = s32(acc[k] + sum(v[j] + it for j in live) * (it + 1))
                    acc[k] ^= (it + 1) * r
                    last[k] = v[live[-1]]
                it += 1
                live = [k for k in live if crem(v[k], 11) != it - 1 and v[k] & 7 > it]
            for k in range(32):
                out += [acc[k], s32(ranks[k]), last[k], v[k] & 7]
        return out, total

    def check(outs, wave):
        if wave != 32:
            return ['%s runs with 32-lane warps only, not %d' % (kernel, wave)]
        exp, total = expect()
        got, counter = unpack('i', outs[0]), unpack('i', outs[1])[0]
        errs = compare(kernel, 'out', got, exp, 4)
        if counter != total:
            errs.append('%s counter = %d, expected %d' % (kernel, counter, total))
        return errs

    c = Case(kernel, kernel, (GRID,), (BLOCK,), [In('i', vals), Out(16 * N), InOut('i', [0])],
             check)
    c.warp_level = True
    c.warp32_only = True
    return c


# ---- coop_types: 64-bit, float and struct values through warp operations ----

def types_case():
    import struct
    kernel = 'coop_types'
    vals = inputs(kernel)

    def dbits(x):
        return struct.unpack('<q', struct.pack('<d', x))[0]

    def expect():
        out = []
        for gid in range(N):
            lane = gid % 32
            w32 = vals[gid - lane:gid - lane + 32]
            t0 = lane - lane % 8
            w = [s64(x * 1000003 + (x << 33)) for x in w32]
            t8, w8 = w32[t0:t0 + 8], w[t0:t0 + 8]
            v = w32[lane]
            f_sum = sum(x * 0.5 for x in w32)
            same = len(set(x >> 12 for x in w32)) == 1
            q = t8[5]
            xor = 0
            for x in w[:lane]:
                xor ^= x & M64
            out += [s64(sum(w)), max(w8), s64(sum(w8[:lane % 8 + 1])), int(f_sum),
                    dbits(sum(x * 0.25 for x in t8)), dbits(w32[lane ^ 3] * 0.25),
                    sum(1 << j for j in range(32) if w32[j] & 3 == v & 3),
                    M32 if same else 0, int(same), q + w8[5] + s16(q * 3),
                    int(sum(x * 0.5 for x in w32[:lane + 1])), s64(xor)]
        return out

    def check(outs, wave):
        if wave != 32:
            return ['%s runs with 32-lane warps only, not %d' % (kernel, wave)]
        return compare(kernel, 'out', unpack('q', outs[0]), expect(), 12)

    c = Case(kernel, kernel, (GRID,), (BLOCK,), [In('i', vals), Out(8 * 12 * N)], check)
    c.warp_level = True
    c.warp32_only = True
    return c


# ---- coop_bits: fns, bmsk, szext (PTX ISA pseudo-code) ----

def bmsk(a, b, clamp):
    a1, b1 = a & 31, b & 31
    mask0, total = (M32 << a1) & M32, a1 + b1
    mask1 = (M32 << total) & M32 if total < 32 else 0
    pos_ovf = clamp and a >= 32
    if pos_ovf:
        mask0 = 0
    if total >= 32 or pos_ovf or (clamp and b >= 32):
        mask1 = 0
    elif b1 == 0:
        mask1 = M32
    return mask0 & ~mask1 & M32


def szext(a, b, clamp, signed):
    b1 = b & 31
    too_large = clamp and b >= 32
    mask = 0 if too_large else (M32 << b1) & M32
    sign = signed and not (b1 == 0 or too_large) and (a >> ((b1 - 1) & 31)) & 1
    return (a & ~mask & M32) | (mask if sign else 0)


def bits_case():
    kernel = 'coop_bits'
    rng = rng_for(kernel)
    edge = [0, 1, 2, 5, 16, 30, 31, 32, 33, 63, 64, 100, 0x7fffffff, 0x80000000, M32]
    offs = [0, 1, -1, 2, -2, 3, -5, 17, -17, 31, -31, 32, -32, 33, 0x7fffffff, -(1 << 31)]
    rows = []
    for i in range(N):
        a = edge[i % len(edge)] if i < 225 else rng.getrandbits(32)
        b = edge[i // len(edge) % len(edge)] if i < 225 else rng.getrandbits(6)
        if i >= 225 and i % 2:
            b = offs[i % len(offs)] & M32
        c = rng.getrandbits(32) if i % 3 else rng.choice([0, M32, 0x80000001, 0x55555555])
        rows.append((a, b, c))

    def expect():
        out = []
        for a, b, c in rows:
            off = s32(b)
            out += [bmsk(a, b, True), bmsk(a, b, False), szext(c, b, True, True),
                    szext(c, b, False, True), szext(c, b, True, False), szext(c, b, False, False),
                    fns_u(c, a & 31, off), bmsk(3, b, True), szext(c, 12, False, True),
                    fns_u(c, 5, -2), fns_u(0x80000001, a & 31, 1), a]
        return [s32(x) for x in out]

    def check(outs, wave):
        got, exp = unpack('i', outs[0]), expect()
        names = ('bmsk.clamp', 'bmsk.wrap', 'szext.clamp.s32', 'szext.wrap.s32',
                 'szext.clamp.u32', 'szext.wrap.u32', 'fns', 'bmsk.clamp 3, b',
                 'szext.wrap.s32 c, 12', 'fns c, 5, -2', 'fns 0x80000001, a, 1', 'a')
        return ['%s thread %d %s (a=%#x b=%#x c=%#x): %#x, expected %#x'
                % (kernel, i // 12, names[i % 12], *rows[i // 12], got[i] & M32, exp[i] & M32)
                for i in range(len(exp)) if got[i] != exp[i]][:8]

    flat = [x for r in rows for x in r]
    return Case(kernel, kernel, (GRID,), (BLOCK,), [Out(48 * N), In('I', flat)], check)


def fns_u(mask, base, offset):
    return fns(mask, base, offset) & M32


# ---- coop_redux_mask: redux.sync over per-lane membermasks (hand-written PTX) ----

def redux_mask_case():
    kernel = 'coop_redux_mask'
    rng = rng_for(kernel)
    vals = [rng.randrange(-1 << 31, 1 << 31) for _ in range(N)]
    vals[:16] = [rng.randrange(-50, 50) for _ in range(16)]

    def expect(wave):
        out = []
        for base in range(0, N, wave):
            v = vals[base:base + wave]
            u = [x & M32 for x in v]
            for k in range(wave):
                t16, t4 = k - k % 16, k - k % 4
                grp = [j for j in range(wave) if j % 3 == k % 3]
                g, gu = [v[j] for j in grp], [u[j] for j in grp]
                out += [s32(sum(v[t16:t16 + 16])), max(v[t4:t4 + 4]), s32(sum(g)),
                        s32(min(gu)), min(g), s32(max(gu)), max(g), s32(and_all(gu)),
                        s32(or_all(gu)), s32(xor_all(gu))]
        return out

    def check(outs, wave):
        return compare('%s (warp %d)' % (kernel, wave), 'out', unpack('i', outs[0]),
                       expect(wave), 10)

    c = Case(kernel, kernel, (GRID,), (BLOCK,), [Out(40 * N), In('i', vals)], check)
    c.warp_level = True
    return c


# ---- coop_mwtile: multi-warp tiles thread_block_tile<64>/<128> ----

def mwtile_case():
    """Tiles of 64 and 128 consecutive threads of the block (CUDA: tile k holds threads
    k*T .. k*T+T-1; meta_group_rank k, meta_group_size BLOCK/T); any/all are 1 or 0."""
    kernel, nout = 'coop_mwtile', 9
    vals = inputs(kernel)

    def expect():
        out = []
        for gid in range(N):
            tid = gid % BLOCK
            for t in (64, 128):
                r, base = tid % t, gid - tid % t
                w = vals[base:base + t]

                def o7(k):
                    return 3 * w[(k + t // 2 + 1) % t] + t
                out += [tid // t * 100000 + BLOCK // t * 1000 + r * 4 + 1, w[37], w[t - 1],
                        int(any(x > 900 for x in w)), int(all(x > -990 for x in w)),
                        s32(sum(w)), max(w), o7(r), o7(t // 2 + 3) + t // 2 + 3]
        return out

    def check(outs, wave):
        if wave != 32:
            return ['%s runs with 32-lane warps only, not %d' % (kernel, wave)]
        return compare(kernel, 'out', unpack('i', outs[0]), expect(), 2 * nout)

    c = Case(kernel, kernel, (GRID,), (BLOCK,), [In('i', vals), Out(4 * 2 * nout * N)], check)
    c.warp_level = True
    c.warp32_only = True
    # a warp spins until another arrives: two warps as halves of a wave64 (--warp-size 32)
    # never finish (docs/WARP.md; ptxas-amd warns, amdsim exhausts its budget)
    c.warp_per_wave = True
    return c


def cases():
    out = [tiles_case('coop_tiles_sm75'), tiles_case('coop_tiles_sm80'), coalesced_case(),
           warp_case(), sm90_case('coop_sm90'), warp_case('coop_warp_g'),
           sm90_case('coop_sm90_g'),  # -G: lambdas hold the frame slots of the pointers
           tiles_case('coop_tiles_clang'), coalesced_case('coop_coalesced_clang'),
           warp_case('coop_warp_clang')]
    for c in out:
        c.warp_level = True  # also 32-lane warps on wave64 (--warp-size 32)
        c.warp32_only = True  # plain wave64: the errors listed in the .ptx (run_diag.py)
    return out + [wave_case('coop_wave'), wave_case('coop_wave_g'), redux_mask_case(),
                  cub_case(), cub_sort_case(), bits_case(), loop_case('coop_loop_sm80'),
                  loop_case('coop_loop_sm75'), types_case(), mwtile_case()]
