"""Cases for named and counted barriers (tests/exec/ptx/nbar_*.ptx, nvcc-generated from CUDA
with CUTLASS-style inline `bar.sync`/`bar.arrive` and `bar.red` with a count).  References
from the PTX ISA (bar, barrier): bar.sync a, b waits until b threads arrived at barrier a
(a warp counts as warp-size threads), bar.arrive a, b arrives without waiting, a barrier is
reusable once it completed, bar.red reduces over the threads that took part; memory
accesses before the barrier are visible after it.  Every check is on data: a missing or
early barrier reads LDS before it is written (amdsim runs waves in turn).  Counts are
multiples of 64, so the results do not depend on the warp size (warp_level)."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'kernels'))
from ref import Case, In, Out, unpack, rng_for  # noqa: E402

M32 = 0xffffffff


def compare(name, got, expected):
    return ['%s word %d: got %#x, expected %#x' % (name, k, got[k], expected[k])
            for k in range(len(expected)) if got[k] != expected[k]][:12]


def prodcons_case(name, grid, iters):
    """nbar_prodcons: producers 0-127 write buf[t] = in * 3 + it, consumers 128-255 fold
    acc = acc * 7 + buf[c] + buf[(c + 37) & 127] per iteration."""
    rng = rng_for(name)
    vals = [rng.getrandbits(32) for _ in range(grid * 128 * iters)]
    expected = []
    for b in range(grid):
        src = vals[b * 128 * iters:(b + 1) * 128 * iters]
        bufs = [[(src[it * 128 + t] * 3 + it) & M32 for t in range(128)]
                for it in range(iters)]
        for c in range(128):
            acc = 0
            for it in range(iters):
                acc = (acc * 7 + bufs[it][c] + bufs[it][(c + 37) & 127]) & M32
            expected.append(acc)

    def check(outs, wave):
        return compare(name, unpack('I', outs[0]), expected)

    return Case(name, 'nbar_prodcons', (grid,), (256,),
                [In('I', vals), Out(4 * grid * 128), ('i32', iters)], check)


def groups_case(name, grid, block, rounds):
    """nbar_groups: out[(b * rounds + r) * ng + g] = the sum of group g's 64 values."""
    ng = block // 64
    rng = rng_for(name)
    vals = [rng.getrandbits(24) for _ in range(grid * rounds * block)]
    expected = []
    for b in range(grid):
        for r in range(rounds):
            row = vals[(b * rounds + r) * block:(b * rounds + r + 1) * block]
            expected += [sum(row[g * 64:(g + 1) * 64]) & M32 for g in range(ng)]

    def check(outs, wave):
        return compare(name, unpack('I', outs[0]), expected)

    return Case(name, 'nbar_groups', (grid,), (block,),
                [In('I', vals), Out(4 * len(expected)), ('i32', rounds)], check)


def red_case(name, grid, block, rounds):
    """nbar_red: per thread and round popc(v & 1), all(v < THR), any(v == 777) over the 64
    threads of its group (barrier 3 + group)."""
    thr = 500
    rng = rng_for(name)
    n = grid * rounds * block
    vals = [rng.randrange(thr) for _ in range(n)]
    for k in range(0, n, 64):  # some groups fail .and, some pass .or
        if rng.randrange(2):
            vals[k + rng.randrange(64)] = thr + rng.randrange(100)
        if rng.randrange(3) == 0:
            vals[k + rng.randrange(64)] = 777
    expected = []
    for k in range(0, n, 64):
        grp = vals[k:k + 64]
        row = [sum(v & 1 for v in grp), int(all(v < thr for v in grp)), int(777 in grp)]
        expected += row * 64

    def check(outs, wave):
        return compare(name, unpack('I', outs[0]), expected)

    return Case(name, 'nbar_red', (grid,), (block,),
                [In('I', vals), Out(12 * n), ('u32', thr), ('i32', rounds)], check)


def odd_case(name, grid, block, live, rounds):
    """nbar_odd: threads < live fold acc = acc * 5 + s[(t + 17 + r) % live] where every
    live thread stored s[t] = in + its acc before bar.sync 1, count (count = live: the
    hardware counts whole warps, so the kernel's live threads fill whole warps or the CTA)."""
    rng = rng_for(name)
    vals = [rng.getrandbits(32) for _ in range(grid * rounds * block)]
    expected = []
    for b in range(grid):
        acc = [0] * block
        for r in range(rounds):
            base = (b * rounds + r) * block
            s = [(vals[base + t] + acc[t]) & M32 for t in range(live)]
            acc = [(acc[t] * 5 + s[(t + 17 + r) % live]) & M32 if t < live else 0
                   for t in range(block)]
        expected += acc

    def check(outs, wave):
        return compare(name, unpack('I', outs[0]), expected)

    return Case(name, 'nbar_odd', (grid,), (block,),
                [In('I', vals), Out(4 * grid * block), ('u32', live), ('u32', live),
                 ('i32', rounds)], check)


def mixed_case(name, grid):
    """nbar_mixed: barrier 0 plain, counted, by register and arrive-only (see the .ptx)."""
    rng = rng_for(name)
    vals = [rng.getrandbits(30) for _ in range(grid * 128)]
    expected = []
    for b in range(grid):
        src = vals[b * 128:(b + 1) * 128]
        s = [3 * src[(t + 70) & 127] & M32 for t in range(128)]
        w = [s[(t + 33) & 127] for t in range(128)]
        for t in range(128):
            expected += [w[t], (w[t + 64] + 5) & M32 if t < 64 else 0]

    def check(outs, wave):
        return compare(name, unpack('I', outs[0]), expected)

    return Case(name, 'nbar_mixed', (grid,), (128,),
                [In('I', vals), Out(8 * grid * 128), ('u32', 0)], check)


def warps_case(name, grid):
    """nbar_warps: every thread reads its partner warp's value (odd: 2 in + 1, even: 3 in)."""
    rng = rng_for(name)
    vals = [rng.getrandbits(31) for _ in range(grid * 256)]

    def check(outs, wave):
        w = wave  # the warp size (warp == wave on the targets this case runs on)
        val = [(2 * v + 1 if t & w else 3 * v) & M32
               for b in range(grid) for t, v in enumerate(vals[b * 256:(b + 1) * 256])]
        exp = [val[b * 256 + (t ^ w)] for b in range(grid) for t in range(256)]
        return compare(name, unpack('I', outs[0]), exp)

    return Case(name, 'nbar_warps', (grid,), (256,), [In('I', vals), Out(4 * grid * 256)],
                check)


def cases():
    out = [prodcons_case('nbar_prodcons_4', 2, 4),
           prodcons_case('nbar_prodcons_1', 1, 1),
           groups_case('nbar_groups_256', 2, 256, 3),
           groups_case('nbar_groups_128', 2, 128, 2),
           red_case('nbar_red_192', 2, 192, 3),
           odd_case('nbar_odd_96', 2, 96, 96, 3),
           odd_case('nbar_odd_160', 2, 160, 160, 2),
           odd_case('nbar_odd_160_exit', 2, 160, 128, 3),
           odd_case('nbar_odd_128_exit96', 2, 128, 96, 2),
           mixed_case('nbar_mixed', 2)]
    for c in out:
        c.warp_level = True  # also other wave and warp sizes (run_ptx.py WARP_VARIANTS)
    # warp == wave only: with 32-lane warps on wave64 (the default) it deadlocks
    # (nbar_limits.py), so on wave64 it runs with --warp-size 64
    warps = warps_case('nbar_warps', 2)
    warps.warp_level = warps.warp_per_wave = True
    return out + [warps]
