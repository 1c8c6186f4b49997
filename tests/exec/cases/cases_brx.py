"""brx_idx.ptx: brx.idx to a .branchtargets list with a divergent index in a loop, and a
guarded brx.idx.  The reference interprets the same control flow per thread."""

from ref import Case, Out, cmp_ints

N = 96


def expect(tid):
    acc = 0
    for i in range(7):
        k = (tid + i) % 5
        acc = [acc + 1, acc * 3, acc ^ 0x55, acc + 1000, acc << 1][k] & 0xffffffff
    if tid & 1:
        acc += (20000, 30000, 40000)[tid % 3]
    else:
        acc += 7
    return acc & 0xffffffff


def brx_case():
    def check(outs, wave):
        return cmp_ints('brx_idx', outs[0], [expect(t) for t in range(N)], 'I')
    return Case('brx_idx', 'brx_idx', (1,), (N,), [Out(4 * N)], check)


def cases():
    return [brx_case()]
