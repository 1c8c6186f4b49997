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
    nout = 10

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


def cases():
    return [warp_shfl_case()]
