"""Cases for the CTA barrier kernels (tests/exec/ptx/bar_*.ptx): bar.red/barrier.red
.popc/.and/.or over the CTA, including after some threads exited, and __syncwarp-based
warp code.  References from the PTX ISA (barrier{.cta}.red): every non-exited thread of the
CTA contributes its predicate and receives the reduction (popc: how many hold, and: all,
or: any); threads that exited do not take part.  The results do not depend on the wave
size, so every case also runs on the other wave/warp sizes (warp_level)."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'kernels'))
from ref import Case, In, Out, unpack, rng_for  # noqa: E402

DEAD = 0xdeadbeef
THR = 500


def bar_red_values(name, grid, nthreads):
    """Per CTA: odd CTAs have one value >= THR (and is false), CTAs 0, 3, 6.. one 777 (or)."""
    rng = rng_for(name)
    vals = []
    for c in range(grid):
        v = [rng.randrange(THR) for _ in range(nthreads)]
        if c % 2:
            v[rng.randrange(nthreads)] = THR + rng.randrange(THR)
        if c % 3 == 0:
            v[rng.randrange(nthreads)] = 777
        vals += v
    return vals


def bar_red_expected(vals, grid, nthreads):
    exp = []
    for c in range(grid):
        v = vals[c * nthreads:(c + 1) * nthreads]
        live = [t for t in range(nthreads) if t % 7 != 3 and not 64 <= t < 128]
        popc_odd = sum(x & 1 for x in v)
        bits = sum(sum((x >> k) & 1 for x in v) for k in range(4))
        after_odd = sum(v[t] & 1 for t in live)
        after_or = int(any(v[t] % 5 == 0 for t in live))
        for t in range(nthreads):
            row = [popc_odd, int(all(x < THR for x in v)), nthreads - popc_odd,
                   int(777 in v), bits]
            row += [after_odd, after_or] if t in live else [DEAD, DEAD]
            exp.append(row + [0])
    return exp


def bar_red_case(name, grid, block):
    nthreads = block[0] * (block[1] if len(block) > 1 else 1)
    n = grid * nthreads
    vals = bar_red_values(name, grid, nthreads)
    expected = bar_red_expected(vals, grid, nthreads)

    def check(outs, wave):
        got = unpack('I', outs[0])
        errs = []
        for i in range(n):
            for k in range(8):
                if got[i * 8 + k] != expected[i][k]:
                    errs.append('%s thread %d word %d: got %#x, expected %#x' %
                                (name, i, k, got[i * 8 + k], expected[i][k]))
            if len(errs) > 12:
                break
        return errs

    return Case(name, 'bar_red', (grid,), block,
                [Out(32 * n), In('I', vals), ('u32', THR)], check)


def syncwarp_case(name, grid, block):
    """bar_syncwarp: out[warp] = the sum of in over each 32 threads (int32 wrap-around)."""
    n = grid * block
    rng = rng_for(name)
    vals = [rng.randrange(-1 << 20, 1 << 20) for _ in range(n)]
    nw = n // 32
    expected = [sum(vals[w * 32:(w + 1) * 32]) & 0xffffffff for w in range(nw)]

    def check(outs, wave):
        got = unpack('I', outs[0])
        return ['%s warp %d: got %#x, expected %#x' % (name, w, got[w], expected[w])
                for w in range(nw) if got[w] != expected[w]][:12]

    return Case(name, 'bar_syncwarp', (grid,), (block,),
                [In('i', vals), Out(4 * nw)], check)


def sync_count_case(name, grid, block):
    """bar_sync_count (nvcc's __syncthreads_count/_and/_or): out[i] = c * 4 + a * 2 + o with
    c = how many threads of the CTA have v > 0, a = all v != 0, o = any v == 42."""
    n = grid * block
    rng = rng_for(name)
    vals = []
    for c in range(grid):
        v = [rng.choice((-3, 0, 5, 7, 42, -1)) if c % 2 else rng.choice((1, 2, -5, 9))
             for _ in range(block)]
        vals += v
    expected = []
    for c in range(grid):
        v = vals[c * block:(c + 1) * block]
        r = sum(x > 0 for x in v) * 4 + int(all(x != 0 for x in v)) * 2 + int(42 in v)
        expected += [r] * block

    def check(outs, wave):
        got = unpack('i', outs[0])
        return ['%s thread %d: got %d, expected %d' % (name, i, got[i], expected[i])
                for i in range(n) if got[i] != expected[i]][:12]

    return Case(name, 'bar_sync_count', (grid,), (block,), [In('i', vals), Out(4 * n)], check)


def dyn_case(name, grid, block):
    """bar_dyn: bar.red beside an extern .shared array of one dword per thread."""
    n = grid * block
    rng = rng_for(name)
    vals = [rng.getrandbits(32) for _ in range(n)]
    expected = []
    for i in range(n):
        c, t = i // block, i % block
        cta = vals[c * block:(c + 1) * block]
        expected += [cta[(t + 1) % block], sum(x & 1 for x in cta)]

    def check(outs, wave):
        got = unpack('I', outs[0])
        return ['%s word %d: got %#x, expected %#x' % (name, k, got[k], expected[k])
                for k in range(2 * n) if got[k] != expected[k]][:12]

    case = Case(name, 'bar_dyn', (grid,), (block,), [Out(8 * n), In('I', vals)], check)
    case.dynamic_lds = 4 * block  # the extern .shared array (run.py --dynamic-lds)
    return case


def reserved_smem_case():
    """bar_reserved_smem: the reserved area and a .shared array do not overlap."""
    block = 128
    expected = []
    for t in range(block):
        expected += [1000 + t, 3 * t if t < 72 else 0]

    def check(outs, wave):
        got = unpack('I', outs[0])
        return ['bar_reserved_smem word %d: got %#x, expected %#x' % (k, got[k], expected[k])
                for k in range(2 * block) if got[k] != expected[k]][:12]

    return Case('bar_reserved_smem', 'bar_reserved_smem', (1,), (block,), [Out(8 * block)],
                check)


def cases():
    out = [reserved_smem_case(),
           dyn_case('bar_dyn_128', 2, 128),
           dyn_case('bar_dyn_50', 2, 50),
           syncwarp_case('bar_syncwarp_256', 2, 256),
           syncwarp_case('bar_syncwarp_96', 3, 96),
           sync_count_case('bar_sync_count_200', 4, 200),
           sync_count_case('bar_sync_count_64', 4, 64),
           bar_red_case('bar_red_1d', 4, (256,)),
           bar_red_case('bar_red_32', 3, (32,)),
           bar_red_case('bar_red_40', 3, (40,)),
           bar_red_case('bar_red_2d', 2, (16, 5)),
           bar_red_case('bar_red_1024', 1, (1024,))]
    for c in out:
        c.warp_level = True  # also other wave and warp sizes (run_ptx.py WARP_VARIANTS)
    return out
