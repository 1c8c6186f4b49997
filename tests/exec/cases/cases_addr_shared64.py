"""Cases for tests/exec/ptx/addr_shared64.ptx: nvcc's 64-bit .shared address chains
(mul.wide, cvta.shared.u64, add.s64, cvta.to.shared.u64, cvt.u32.u64) with negative
intermediate values and a negative LDS offset.  The references follow the PTX ISA's
definitions (mul.wide.s32 sign-extends, two's complement arithmetic modulo 2^64), never the
compiler's output."""

from ref import Case, Out, unpack, M64


def shared64_case(k):
    block = 64

    def check(outs, wave):
        got = unpack('Q', outs[0])
        errs = []
        for t in range(block):
            want = [((t + 1) & 63) * 3 + 7, ((t - k) * 4) & M64]
            for j in range(2):
                if got[2 * t + j] != want[j]:
                    errs.append('addr_shared64 k=%d thread %d slot %d: got %#x, expected %#x'
                                % (k, t, j, got[2 * t + j], want[j]))
        return errs[:12]

    return Case('addr_shared64_k%d' % k, 'addr_shared64', (1,), (block,),
                [Out(16 * block), ('u32', k)], check)


def cases():
    return [shared64_case(20), shared64_case(0)]
