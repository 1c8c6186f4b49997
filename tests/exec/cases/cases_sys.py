"""Case for tests/exec/ptx/sys_hints.ptx: the hint and system forms (prefetch, applypriority,
discard, createpolicy, .L2::cache_hint on ld/st/atom/red, nanosleep, griddepcontrol,
setmaxnreg, pmevent, %pm registers, a trap and a brkpt no lane reaches, __assertfail behind a
passing test, a call through .alias) must leave the program's results as the PTX ISA defines them without the hints:
the loads, stores, atom and red happen; the atom's old values are a permutation of 0..n-1 and
the red sums the inputs.  %pm0..%pm7 and %pm0_64.. are "undefined" in the PTX ISA; ptxas-amd
reads them as 0 (docs/SEMANTICS.md), the only machine-specific slot here.  sys_alloca.ptx:
alloca, stacksave and stackrestore."""

import random

from ref import Case, In, Out, unpack, M32

GRID, BLOCK = 3, 96


def sys_hints_case():
    n = GRID * BLOCK
    rng = random.Random('sys_hints')
    a = [rng.randrange(0, 1 << 30) for _ in range(n)]

    def check(outs, wave):
        out, cnt = unpack('I', outs[0]), unpack('I', outs[1])
        errs = []
        olds = sorted(out[5 * i + 1] for i in range(n))
        if olds != list(range(n)):
            errs.append('atom.add old values are not a permutation of 0..%d' % (n - 1))
        if cnt[0] != n:
            errs.append('counter %d after %d atom.add of 1' % (cnt[0], n))
        if cnt[1] != sum(a) & M32:
            errs.append('red.add sum %#x, expected %#x' % (cnt[1], sum(a) & M32))
        for i in range(n):
            want = (a[i] + 1) & M32
            if out[5 * i] != want or out[5 * i + 2] != want:
                errs.append('thread %d: st %#x / ld back %#x, expected %#x'
                            % (i, out[5 * i], out[5 * i + 2], want))
            if out[5 * i + 4] != (3 * a[i] + 7) & M32:
                errs.append('thread %d: call through .alias gave %#x' % (i, out[5 * i + 4]))
            if out[5 * i + 3] != 0:
                errs.append('thread %d: %%pm sum %#x (ptxas-amd reads 0)' % (i, out[5 * i + 3]))
            if len(errs) > 12:
                break
        return errs

    return Case('sys_hints', 'sys_hints', (GRID,), (BLOCK,),
                [Out(20 * n), In('I', a), Out(256)], check)


def sys_alloca_case():
    """sys_alloca.ptx: the PTX ISA's alloca (aligned to max(align, 8), allocations apart,
    stackrestore returns the pointer stacksave gave, a function's allocations end when it
    returns), .local data kept."""
    n = GRID * BLOCK

    def check(outs, wave):
        out = unpack('I', outs[0])
        errs = []
        for i in range(n):
            k = i % 5 + 1
            want = [sum(100 * i + j for j in range(k)) & M32, 0, 0, 1, 0x1234 + i, 1, i + 77, 1,
                    sum(2 * (i + t) + 1 for t in range(2000)) & M32]
            got = out[9 * i:9 * i + 9]
            # words 3 and 7 (b after a's end, c >= s0) say which way the stack grows, which the
            # ISA leaves to the implementation: ptxas-amd's grows up (1), the H100's down (0,
            # tests/hw/nvexec); the sums of words 0 and 8 still show the allocations apart
            if got[3] in (0, 1) and got[7] == got[3]:
                want[3] = want[7] = got[3]
            if got != want:
                errs.append('thread %d: %r, expected %r' % (i, got, want))
            if len(errs) > 12:
                break
        return errs

    return Case('sys_alloca', 'sys_alloca', (GRID,), (BLOCK,), [Out(36 * n)], check)


def cases():
    return [sys_hints_case(), sys_alloca_case()]
