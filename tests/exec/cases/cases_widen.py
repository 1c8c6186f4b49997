"""Cases for mem_widen.ptx: adjacent LDS and global loads (which the compiler may merge into
ds_read_b128 and global_load_dwordx2/x3/x4) next to loads it must keep apart or in place.
The reference follows the PTX: in[k] = 7919*k + 13 (mod 2^32); sh[k] = in[k] for k < 768;
thread tid reads the words of j = (3*tid + 1) % 64 and writes 40 words of out."""

from ref import Case, In, Out, cmp_ints

N = 64
WORDS_IN = 768


def word(k):
    return (7919 * k + 13) & 0xffffffff


def expect():
    out = []
    for tid in range(N):
        j = (3 * tid + 1) % 64
        w = 8 * j
        row = [word(w + k) for k in range(8)]                      # aligned quads
        row += [word(w + 1 + k) for k in range(4)]                 # 4-byte aligned quad
        q = 512 + 4 * j
        row += [word(q), word(q + 1), tid + 5000, word(q + 3)]      # a store in between
        g = 4 * tid + 8
        row += [word(g + k) for k in range(4)]                     # x4
        row += [word(g + 5), word(g + 4), word(g + 6)]              # x3, loaded out of order
        row += [word(g + 8), word(g + 9)]                           # x2
        row += [tid, 7]                                             # after the stores
        row += [word(4 * tid), word(4 * tid + 258)]                 # address redefined
        row += [0, tid, 7]                                          # out[29..31] as stored
        t2 = (tid + 1) % 64
        row += [tid + 101] + [(t2 + 100 + k) ^ 85 for k in range(4)]  # LDS quad stores
        row += [tid + 200, tid + 201, tid + 200]                    # around a load
        out += row
    return out


def case():
    def check(outs, wave):
        return cmp_ints('mem_widen', outs[0], expect(), 'I')
    return Case('mem_widen', 'mem_widen', (1,), (N,),
                [In('I', [word(k) for k in range(WORDS_IN)]), Out(4 * 40 * N)], check)


def cases():
    return [case()]
