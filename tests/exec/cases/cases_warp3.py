"""Cases for tests/exec/ptx/warp3_shfl.ptx and warp3_match.ptx: shuffles with constant lane
patterns that gfx10+ selects as v_permlane16/v_permlanex16 and gfx11+ wave64 as
v_permlane64 (segments of 2 to 64 lanes, with the in-range predicate), and match.any.sync
(one round of a waterfall loop per distinct value) on 32- and 64-bit values with one, two,
several and all-distinct values per warp, partial membermasks and inactive lanes.
References from the PTX ISA's definitions of shfl.sync (lane and c fields wave-size bits
wide, docs/WARP.md) and match.any.sync (the mask of the lanes in membermask holding the
same value); every case runs on all five targets and the wave/warp-size variants."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'kernels'))
from ref import Case, In, Out, unpack, rng_for, M64  # noqa: E402
from cases_warp2 import const_shfl_case  # noqa: E402 (shfl_w, wave-size fields)

BLOCK = 128
N = 2 * BLOCK

# (mode, b, c) with c = ((64 - p) << 8) | clamp: segments of p lanes on either wave size
SHUFFLES = [
    # xor 16..31 in 32-lane segments and whole waves: v_permlanex16; >= 32 v_permlane64
    ('bfly', 16, 0x201f), ('bfly', 17, 0x201f), ('bfly', 22, 0x201f), ('bfly', 31, 0x201f),
    ('bfly', 24, 0x201f), ('bfly', 16, 63), ('bfly', 19, 63), ('bfly', 32, 63),
    ('bfly', 33, 63), ('bfly', 45, 63), ('bfly', 48, 63), ('bfly', 63, 63),
    # idx in 8-lane segments: v_permlane16
    ('idx', 0, 0x3807), ('idx', 3, 0x3807), ('idx', 7, 0x3807), ('idx', 12, 0x3807),
    # up/down within 16-lane rows: one v_permlane16 (out-of-range lanes select themselves)
    ('up', 1, 0x3e00), ('up', 1, 0x3c00), ('up', 3, 0x3800), ('up', 7, 0x3800),
    ('up', 9, 0x3000), ('up', 14, 0x3000), ('down', 1, 0x3e01), ('down', 2, 0x3c03),
    ('down', 5, 0x3807), ('down', 6, 0x3807), ('down', 10, 0x300f), ('down', 15, 0x300f),
    # up/down in 32-lane segments: v_permlane16 + v_permlanex16 + v_cndmask (n > 16:
    # ds_bpermute)
    ('up', 1, 0x2000), ('up', 4, 0x2000), ('up', 15, 0x2000), ('up', 16, 0x2000),
    ('up', 17, 0x2000), ('up', 31, 0x2000), ('down', 1, 0x201f), ('down', 8, 0x201f),
    ('down', 15, 0x201f), ('down', 16, 0x201f), ('down', 20, 0x201f), ('down', 31, 0x201f),
    # clamps that are not a segment's end (no pattern), whole-wave shifts
    ('down', 3, 0x2015), ('up', 2, 0x2003), ('up', 1, 0), ('down', 1, 63),
    # idx in 32-lane segments: v_readlane on wave32, v_permlane16 + v_permlanex16 on wave64
    ('idx', 0, 0x201f), ('idx', 5, 0x201f), ('idx', 16, 0x201f), ('idx', 29, 0x201f),
    # gfx9 one-DPP xors (row_half_mirror, row_ror:8, row_mirror) and whole-wave shifts
    # (ds_bpermute with a constant-mask address on wave64)
    ('bfly', 7, 0x3807), ('bfly', 7, 0x201f), ('bfly', 8, 0x201f), ('bfly', 15, 0x201f),
    ('bfly', 8, 63), ('bfly', 15, 0x300f), ('up', 5, 0), ('up', 33, 0), ('down', 9, 63),
    ('down', 16, 63), ('up', 2, 0x3000),
    # b and c read in loop headers: the same constant on the back edge, and c changed there
    # (the second iteration's shuffle is stored)
    ('down', 3, 0x201f), ('up', 5, 0x3000)]


def shfl_case():
    return const_shfl_case('warp3_shfl', SHUFFLES, BLOCK)


# ---- match.any ----

DEAD = 0xdead  # what a lane that does not execute a match stores
S64 = [0x100000005, 0x200000005, 0x5, 0x100000000, 0xffffffff00000005]


def match_inputs():
    """Per 64 threads: one value, two values, a few values, all distinct (32-bit); the
    64-bit values collide in their low halves so both halves must be compared."""
    rng = rng_for('warp3_match')
    a32, a64 = [], []
    for t in range(N):
        g = (t // 64) % 4
        if g == 0:
            a32.append(7)
            a64.append(S64[0])
        elif g == 1:
            a32.append(rng.choice([5, 0x80000005]))
            a64.append(rng.choice(S64[:2]))
        elif g == 2:
            a32.append(rng.choice([1, 2, 3, 0xffffffff, 0x7fffffff, 0]))
            a64.append(rng.choice(S64))
        else:
            a32.append(rng.randrange(0, 1 << 32) & ~0xff | (t & 0xff))
            a64.append((t << 32) | 5)
    return a32, a64


def match_mask(vals, active, base, lane, wave, member):
    """match.any.sync: the lanes of lane's warp in membermask whose value equals lane's."""
    m = 0
    for j in range(wave):
        if active(base + j) and vals[base + j] == vals[base + lane]:
            m |= 1 << j
    return m & member


def match_expected(a32, a64, wave):
    full = (1 << wave) - 1
    even = 0x5555555555555555 & full
    exp = []
    for t in range(N):
        base, lane = t - t % wave, t % wave
        def every(_):
            return True

        def third(u):
            return u % 3 != 0

        def bit2(u):
            return bool(u & 4)

        def not_bit2(u):
            return not u & 4
        r = [match_mask(a32, every, base, lane, wave, full),
             match_mask(a64, every, base, lane, wave, full),
             match_mask(a32, every, base, lane, wave, even) if lane % 2 == 0 else DEAD,
             match_mask(a64, third, base, lane, wave, full) if third(t) else DEAD,
             match_mask(a32, bit2, base, lane, wave, full) if bit2(t)
             else match_mask(a64, not_bit2, base, lane, wave, full)]
        exp += r
    return exp


def match_case():
    a32, a64 = match_inputs()

    def check(outs, wave):
        got = unpack('Q', outs[0])
        exp = match_expected(a32, a64, wave)
        bad = [i for i in range(len(exp)) if got[i] != exp[i]]
        names = ('b32 -1', 'b64 -1', 'b32 even lanes', 'b64 guard tid%3', 'b32/b64 branches')
        return ['thread %d %s: %#x, expected %#x' % (i // 5, names[i % 5], got[i], exp[i])
                for i in bad[:8]] + (['%d mismatches in all' % len(bad)] if len(bad) > 8 else [])

    c = Case('warp3_match', 'warp3_match', (2,), (BLOCK,),
             [Out(8 * 5 * N), In('I', a32), In('Q', [v & M64 for v in a64])], check)
    c.warp_level = True
    return c


def cases():
    return [shfl_case(), match_case()]
