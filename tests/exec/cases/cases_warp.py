"""Cases for the warp-level kernels (tests/exec/ptx/warp_*.ptx): shuffles, votes, ballots,
matches, reductions, lane masks.  The references model waves of the target's size (the `wave`
argument of check) with partial waves (block sizes that are not a multiple of the wave) and
lanes that branched away; what the PTX ISA leaves undefined (reading an inactive lane) is not
checked.  Semantics from the PTX ISA (shfl.sync, vote.sync, match.sync, redux.sync,
activemask, %lanemask_*) with lane masks and the shfl c operand's fields as wide as the wave
(docs/WARP.md)."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'kernels'))
from ref import Case, In, Out, unpack, rng_for, M32  # noqa: E402


def shfl_ref(mode, lane, b, c, wave):
    """(source lane, predicate) of shfl.sync for a lane of a wave of `wave` lanes."""
    field = wave - 1
    bval, cval, seg = b & field, c & field, (c >> 8) & field
    min_lane = lane & seg
    max_lane = min_lane | (cval & ~seg)
    if mode == 'up':
        j = lane - bval
        p = j >= max_lane
    elif mode == 'down':
        j = lane + bval
        p = j <= max_lane
    elif mode == 'bfly':
        j = lane ^ bval
        p = j <= max_lane
    else:
        j = min_lane | (bval & ~seg)
        p = j <= max_lane
    return (j if p else lane), p


def warp_shfl_case():
    grid, block = 2, 80
    n = grid * block
    rng = rng_for('warp_shfl')
    vals = [rng.getrandbits(32) for _ in range(n)]
    nout = 13

    def check(outs, wave):
        got = unpack('I', outs[0])
        errs = []
        for i in range(n):
            t = i % block
            lane = t % wave
            base = i - lane
            wave_lanes = min(wave, block - (t - lane))  # lanes that exist in this wave

            def value(src, active=lambda l: True):
                if src < wave_lanes and active(src):
                    return vals[base + src]
                return None  # an inactive source lane: undefined

            w = wave
            tests = [('idx', 5, w - 1), ('idx', lane + 3, w - 1), ('up', 3, 0), ('down', 3, w - 1),
                     ('bfly', 5, w - 1), ('down', 2, ((w - 8) << 8) | (w - 1)),
                     ('up', 1, (w - 16) << 8), ('idx', 3 * lane, ((w - 8) << 8) | (w - 1)),
                     ('bfly', 1, 10)]
            exp = []
            for mode, b, c in tests:
                src, p = shfl_ref(mode, lane, b, c, w)
                exp.append((value(src), int(p)))
            if lane % 2 == 0:
                src, p = shfl_ref('bfly', lane, 2, w - 1, w)
                exp.append((value(src, lambda l: l % 2 == 0), int(p)))
            else:
                exp.append((777, 2))
            exp.append((value(7), 1))
            exp.append((value(i // block + 2), 1))
            src, _ = shfl_ref('up', lane, 2, 0, w)  # 64-bit: (lane id, value) of the source
            exp.append((src, value(src)))
            for k, (d, p) in enumerate(exp):
                gd, gp = got[(i * nout + k) * 2], got[(i * nout + k) * 2 + 1]
                if gp != p or (d is not None and gd != d):
                    errs.append('warp_shfl thread %d test %d: got (%#x, %d), expected (%s, %d)'
                                % (i, k, gd, gp, '-' if d is None else '%#x' % d, p))
            if len(errs) > 12:
                break
        return errs

    return Case('warp_shfl', 'warp_shfl', (grid,), (block,),
                [Out(4 * 2 * nout * n), In('I', vals)], check)


def mask_of(lanes):
    m = 0
    for lane in lanes:
        m |= 1 << lane
    return m


def s32v(v):
    return v - (1 << 32) if v >> 31 else v


def warp_vote_expect(vals, n, block, wave):
    """Per thread, the NOUT = 31 u64 results of warp_vote.ptx."""
    full = (1 << wave) - 1
    out = []
    for i in range(n):
        t = i % block
        lane = t % wave
        base = i - lane
        nl = min(wave, block - (t - lane))
        lanes = range(nl)
        v = [vals[base + k] for k in lanes]
        pa = [x & 1 != 0 for x in v]
        pb = [x % 7 != 0 for x in v]
        pd = [x % 13 == 0 for x in v]
        pc = [k < 40 for k in lanes]
        act = mask_of(lanes)
        r = [0] * 31
        r[0] = mask_of(k for k in lanes if pa[k])
        r[1] = int(all(pb))
        r[2] = int(any(pd))
        r[3] = int(all(pc) or not any(pc))
        r[4] = act
        eq = 1 << lane
        r[5], r[6], r[7] = eq, eq - 1, (eq << 1) - 1
        r[8], r[9] = full & ~((eq << 1) - 1), full & ~(eq - 1)
        q = [x & 3 for x in v]
        r[10] = mask_of(k for k in lanes if q[k] == q[lane])
        same = all(x == q[0] for x in q)
        r[11], r[12] = (act if same else 0), int(same)
        r[13], r[14] = act, 1
        r[15] = sum(x & 255 for x in v) & M32
        r[16] = min(s32v(x) for x in v) & M32
        r[17] = max(v)
        r[18] = r[19] = r[20] = 0
        r[18] = M32
        for x in v:
            r[18] &= x
            r[19] |= x & 0x00ff00ff
            r[20] ^= x
        r[21], r[22] = 0, int(lane == 0)
        br = [k for k in lanes if v[k] & 2]
        if v[lane] & 2:
            r[23] = mask_of(k for k in br if v[k] & 4)
            r[24] = mask_of(br)
            r[29] = sum(v[k] & 255 for k in br) & M32
        if pa[lane]:
            r[25] = mask_of(k for k in lanes if pa[k] and not pb[k])
        r[26] = r[0] & 0x5555555555555555 & full
        r[27], r[28] = wave, lane
        key = [((x & 1) << 40) | ((x >> 1) & 1) for x in v]
        r[30] = mask_of(k for k in lanes if key[k] == key[lane])
        out.append(r)
    return out


def warp_vote_case():
    grid, block = 2, 80
    n = grid * block
    rng = rng_for('warp_vote')
    vals = [rng.getrandbits(32) for _ in range(n)]
    vals[3] = 0x80000000  # a negative minimum for redux.min.s32
    nout = 31

    def check(outs, wave):
        got = unpack('Q', outs[0])
        exp = warp_vote_expect(vals, n, block, wave)
        errs = []
        for i in range(n):
            for k in range(nout):
                if got[i * nout + k] != exp[i][k]:
                    errs.append('warp_vote thread %d result %d: got %#x, expected %#x'
                                % (i, k, got[i * nout + k], exp[i][k]))
            if len(errs) > 12:
                break
        return errs

    return Case('warp_vote', 'warp_vote', (grid,), (block,),
                [Out(8 * nout * n), In('I', vals)], check)


def s32w(v):
    v &= M32
    return v - (1 << 32) if v >> 31 else v


def warp_portable_case():
    """tests/exec/src/warp_portable.cu: SCALE's two wave-portable shuffle examples (reverse
    cumulative sum, butterfly reduction), ballot compaction, match deduplication."""
    grid, block = 2, 128  # full waves on both wave sizes
    n = grid * block
    rng = rng_for('warp_portable')
    vals = [rng.randrange(-1000, 1000) for _ in range(n)]

    def expect(wave):
        cumsum, total, compact, counts, dedup = [0] * n, [0] * n, [0] * n, [0] * n, [0] * n
        for base in range(0, n, wave):
            v = vals[base:base + wave]
            for lane in range(wave):
                cumsum[base + lane] = s32w(sum(v[lane:]))
                total[base + lane] = s32w(sum(v))
                peers = [k for k in range(wave) if v[k] & 7 == v[lane] & 7]
                dedup[base + lane] = len(peers) if peers[0] == lane else 0
            kept = [x for x in v if x % 3 == 0]
            compact[base:base + len(kept)] = kept
            counts[base // wave] = len(kept)
        return [cumsum, total, compact, counts, dedup]

    def check(outs, wave):
        errs = []
        names = ['cumsum', 'total', 'compact', 'counts', 'dedup']
        for k, exp in enumerate(expect(wave)):
            got = unpack('i', outs[k])
            bad = [i for i in range(n) if got[i] != exp[i]]
            errs += ['warp_portable %s[%d] = %d, expected %d' % (names[k], i, got[i], exp[i])
                     for i in bad[:4]]
        return errs

    return Case('warp_portable', 'warp_portable', (grid,), (block,),
                [In('i', vals)] + [Out(4 * n) for _ in range(5)], check)


def warp_cuda_expect(vals, n):
    """warp_cuda.cu for 32-lane warps (CUDA's __shfl_*_sync: an out-of-range source lane
    gives the caller's own value)."""
    out, compact, counts = [0] * (12 * n), [0] * n, [0] * n
    for base in range(0, n, 32):
        v = vals[base:base + 32]
        s = list(v)
        for off in (16, 8, 4, 2, 1):
            s = [s[k] + (s[k + off] if k + off <= 31 else s[k]) for k in range(32)]
        sc = list(v)
        off = 1
        while off < 32:
            sc = [sc[k] + (sc[k - off] if k >= off else 0) for k in range(32)]
            off *= 2
        odd = [k for k in range(32) if v[k] & 1]
        for k in range(32):
            r = [0] * 12
            r[0], r[1] = s32w(s[k]), s32w(sc[k])
            r[2] = v[k ^ 3]
            r[3] = v[(k & 16) | 5]
            r[4] = v[k + 3] if k + 3 <= (k & 24) | 7 else v[k]
            r[5] = s32w(mask_of(j for j in range(32) if v[j] & 7 == v[k] & 7))
            r[6] = sum(x & 255 for x in v)
            r[7] = s32w(max(x & M32 for x in v))
            r[8] = min(v)
            if v[k] & 1:
                r[9] = s32w(mask_of(odd))
                r[10] = int(all(v[j] > -500 for j in odd))
                r[11] = int(any(v[j] > 900 for j in odd))
            else:
                r[9] = r[10] = r[11] = -1
            out[(base + k) * 12:(base + k + 1) * 12] = r
        kept = [x for x in v if x % 3 == 0]
        compact[base:base + len(kept)] = kept
        counts[base // 32] = len(kept)
    return [out, compact, counts]


def warp_cuda_case():
    """nvcc's PTX of tests/exec/src/warp_cuda.cu: 32-lane warps only (wave32, or
    --warp-size 32 on wave64; on plain wave64 its 32-bit lane masks are errors)."""
    grid, block = 2, 96
    n = grid * block
    rng = rng_for('warp_cuda')
    vals = [rng.randrange(-1000, 1000) for _ in range(n)]

    def check(outs, wave):
        if wave != 32:
            return ['warp_cuda runs with 32-lane warps only, not %d' % wave]
        errs = []
        for name, got_bytes, exp in zip(('out', 'compact', 'counts'), outs,
                                        warp_cuda_expect(vals, n)):
            got = unpack('i', got_bytes)
            bad = [i for i in range(len(exp)) if got[i] != exp[i]]
            errs += ['warp_cuda %s[%d] = %d, expected %d' % (name, i, got[i], exp[i])
                     for i in bad[:6]]
        return errs

    c = Case('warp_cuda', 'warp_cuda', (grid,), (block,),
             [In('i', vals), Out(4 * 12 * n), Out(4 * n), Out(4 * n)], check)
    c.warp32_only = True
    return c


def warp_nvvm_case():
    """clang-19's PTX of tests/exec/src/warp_nvvm.cu (CUDA builtins, 32-lane warps)."""
    grid, block = 2, 96
    n = grid * block
    rng = rng_for('warp_nvvm')
    vals = [rng.randrange(-1000, 1000) for _ in range(n)]
    vals[5] = 995  # one lane of the first warp for vote.any

    def expect():
        out = []
        for base in range(0, n, 32):
            v = vals[base:base + 32]
            for k in range(32):
                out += [v[0], v[k - 2] if k >= 2 else v[k], v[k + 7] if k + 7 <= 31 else v[k],
                        v[k ^ 12], s32w(mask_of(j for j in range(32) if v[j] > 0)),
                        int(all(x > -900 for x in v)), int(any(x > 990 for x in v)),
                        int(len(set(x & 1 for x in v)) == 1),
                        s32w(mask_of(j for j in range(32) if v[j] & 3 == v[k] & 3)),
                        s32w(max(x & M32 for x in v))]
        return out

    def check(outs, wave):
        if wave != 32:
            return ['warp_nvvm runs with 32-lane warps only, not %d' % wave]
        got, exp = unpack('i', outs[0]), expect()
        bad = [i for i in range(len(exp)) if got[i] != exp[i]]
        return ['warp_nvvm out[%d] (thread %d result %d) = %d, expected %d'
                % (i, i // 10, i % 10, got[i], exp[i]) for i in bad[:8]]

    c = Case('warp_nvvm', 'warp_nvvm', (grid,), (block,), [In('i', vals), Out(40 * n)], check)
    c.warp32_only = True
    return c


def warp_loop_case():
    grid, block = 2, 80  # a partial last wave on both wave sizes
    n = grid * block
    rng = rng_for('warp_loop')
    vals = [rng.getrandbits(32) for _ in range(n)]

    def expect(wave):
        out = []
        for i in range(n):
            t = i % block
            lane = t % wave
            base = i - lane
            cnt = [vals[base + k] & 7 for k in range(min(wave, block - (t - lane)))]
            mine = cnt[lane]
            acc = sum(sum(1 for c in cnt if c > it) for it in range(mine))
            last = max(mine, 1)
            am = mask_of(k for k in range(len(cnt)) if max(cnt[k], 1) >= last)
            out += [acc, max(cnt), am, last]
        return out

    def check(outs, wave):
        got, exp = unpack('Q', outs[0]), expect(wave)
        bad = [k for k in range(len(exp)) if got[k] != exp[k]]
        return ['warp_loop thread %d result %d: got %#x, expected %#x'
                % (k // 4, k % 4, got[k], exp[k]) for k in bad[:8]]

    return Case('warp_loop', 'warp_loop', (grid,), (block,), [Out(32 * n), In('I', vals)],
                check)


def warp_old_case():
    block = 64

    def check(outs, wave):
        got = unpack('I', outs[0])
        exp = []
        for t in range(block):
            src, p = shfl_ref('bfly', t % wave, 1, 31, wave)  # c = 31: clamped at lane 31
            exp.append(src + int(p))
        return ['warp_old out[%d] = %d, expected %d' % (t, got[t], exp[t])
                for t in range(block) if got[t] != exp[t]][:6]

    return Case('warp_old', 'warp_old', (1,), (block,), [Out(4 * block)], check)


def cases():
    out = [warp_shfl_case(), warp_vote_case(), warp_portable_case(), warp_cuda_case(),
           warp_nvvm_case(), warp_loop_case(), warp_old_case()]
    for c in out:
        c.warp_level = True  # also other wave and warp sizes (run_ptx.py WARP_VARIANTS)
    return out
