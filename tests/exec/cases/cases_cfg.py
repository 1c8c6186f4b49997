"""Cases for the unstructured control-flow zoo (tests/exec/ptx/cfg_*.ptx): every kernel is
generated from a CFG description in cfg_zoo.py, which also interprets it per thread; the
reference is that per-thread trace of block indices (and its length), independent of waves,
EXEC masks and the compiler.  Inputs: random per-thread data and a uniform word per launch
(varied per work-group), so divergent and uniform conditions both take both ways."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'kernels'))
from ref import Case, In, Out, unpack, rng_for  # noqa: E402
import cfg_zoo  # noqa: E402

GRID, BLOCK = 3, 96


def check_stale(name, blocks, comment=None, trace=True):
    """The committed PTX must be what cfg_zoo.py generates now."""
    path = os.path.join(cfg_zoo.ptx_dir(), name + '.ptx')
    if comment is None:
        comment = cfg_zoo.comment_of(name)
    with open(path) as f:
        if f.read() != cfg_zoo.gen_ptx(name, blocks, comment, trace):
            raise RuntimeError('%s is stale: run tests/exec/cases/cfg_zoo.py' % path)


def zoo_case(name, blocks):
    check_stale(name, blocks)
    n = GRID * BLOCK
    rng = rng_for(name)
    data = [rng.getrandbits(32) for _ in range(n)]
    u = rng.getrandbits(32)
    exp = cfg_zoo.expected(blocks, GRID, BLOCK, data, u)

    def check(outs, wave):
        trace, cnt = unpack('I', outs[0]), unpack('I', outs[1])
        errs = []
        for g in range(n):
            row, count = exp[g]
            got = trace[g * cfg_zoo.MAXT:(g + 1) * cfg_zoo.MAXT]
            if cnt[g] != count or got[:min(count, cfg_zoo.MAXT)] != row[:min(count,
                                                                              cfg_zoo.MAXT)]:
                errs.append('%s thread %d: trace %s (%d blocks), expected %s (%d)' % (
                    name, g, got[:min(cnt[g], cfg_zoo.MAXT) or 8], cnt[g],
                    row[:min(count, cfg_zoo.MAXT)], count))
                if len(errs) > 8:
                    break
        return errs

    case = Case(name, name, (GRID,), (BLOCK,),
                [Out(4 * cfg_zoo.MAXT * n), Out(4 * n), In('I', data), ('u32', u)], check)
    case.warp_level = True  # not warp-dependent, but cheap: also run RDNA in wave64
    return case


def trace_hash_case(name, blocks, grid, block):
    """A kernel in cfg_zoo's light form: cnt[g] = the hash of thread g's block trace, which
    cfg_zoo.run_thread interprets from the CFG description."""
    n = grid * block
    rng = rng_for(name)
    data = [rng.getrandbits(32) for _ in range(n)]
    u = rng.getrandbits(32)
    exp = [cfg_zoo.block_hash(cfg_zoo.run_thread(blocks, g, g % block, data[g],
                                                 (u + (g // block) * cfg_zoo.GOLDEN) &
                                                 cfg_zoo.M32)) for g in range(n)]

    def check(outs, wave):
        got = unpack('I', outs[0])
        bad = [g for g in range(n) if got[g] != exp[g]]
        return ['%s thread %d: trace hash %#x, expected %#x' % (name, g, got[g], exp[g])
                for g in bad[:8]]

    return Case(name, name, (grid,), (block,),
                [('u64', 0), Out(4 * n), In('I', data), ('u32', u)], check)


def hash_case(name, blocks):
    """A generated kernel in the light form (trace_hash_case) on GRID x BLOCK threads."""
    check_stale(name, blocks, cfg_zoo.GENERATED_COMMENTS[name], trace=False)
    case = trace_hash_case(name, blocks, GRID, BLOCK)
    case.warp_level = True
    return case


SCC_BLOCK = 64


def scc_branch_case(name, n, k, m):
    """cfg_scc_branch.ptx per thread t: acc = t; for i = 0..n: acc = acc * 3 + i; then
    +7 unless k == 0x123456789; +11 when t % 4 == 0 or m == 1000000; acc ^ 0x55."""
    exp = []
    for t in range(SCC_BLOCK):
        acc = t
        for i in range(n + 1):
            acc = (acc * 3 + i) & 0xffffffff
        if k != 0x123456789:
            acc = (acc + 7) & 0xffffffff
        if t % 4 == 0 or m == 1000000:
            acc = (acc + 11) & 0xffffffff
        exp.append(acc ^ 0x55)

    def check(outs, wave):
        got = unpack('I', outs[0])
        return ['%s thread %d: %#x, expected %#x' % (name, t, got[t], exp[t])
                for t in range(SCC_BLOCK) if got[t] != exp[t]][:8]

    case = Case(name, 'cfg_scc_branch', (1,), (SCC_BLOCK,),
                [Out(4 * SCC_BLOCK), ('u32', n), ('u64', k), ('u32', m)], check)
    case.warp_level = True  # masks of the other wave size
    return case


def cases():
    return [zoo_case(name, blocks) for name, blocks in cfg_zoo.ZOO.items()] + [
        hash_case(name, make()) for name, make in cfg_zoo.GENERATED.items()] + [
        scc_branch_case('cfg_scc_branch', 5, 0x123456789, 3),
        scc_branch_case('cfg_scc_branch2', 0, 0x23456789, 1000000)]
