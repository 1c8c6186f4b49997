"""Cases for lds_pairs.ptx: LDS reads from one base at several offsets (which the compiler
may merge into ds_read2_b32/b64, also past the 1020-byte offset fields), a read of a word after this thread's store to it, reads
after bar.sync and under divergent control.  The reference follows the PTX: each thread t
stores t*1000+k into sh[8t+k]; thread tid reads around the words of j = (5*tid+3) % 64."""

import struct

from ref import Case, Out, cmp_ints

N = 64


def expect():
    def sh(w):
        return (w // 8) * 1000 + w % 8
    out = []
    for tid in range(N):
        j = (5 * tid + 3) % 64
        w = 8 * j
        odd = tid & 1
        out += [sh(w), sh(w + 1), sh(w + 3), sh(w + 7), sh(w + 2),
                sh(w), sh(w + 1),                 # u64 at word w (lo, hi)
                sh(w + 4), sh(w + 5),             # u64 at word w+4: read before the store
                j * 1000 + 77, sh(w + 6),         # own store, then the next word
                j * 1000 + 77, sh(w),             # after bar.sync
                sh(w + 1) if odd else 0, sh(w + 2) if odd else 0,
                j]
        k = 8 * (32 + j % 16)
        out += [sh(k + 1), sh(k + 2), sh(k + 9), sh(k)]
    return out


def lds_case():
    def check(outs, wave):
        return cmp_ints('lds_pairs', outs[0], expect(), 'I')
    return Case('lds_pairs', 'lds_pairs', (1,), (N,), [Out(4 * 20 * N)], check)


def cases():
    return [lds_case()]
