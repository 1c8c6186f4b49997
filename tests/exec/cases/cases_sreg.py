"""Special registers not covered elsewhere: %warpid.  PTX: a warp number unique within the
CTA; threads fill warps in linear order (x fastest), which is how AMD fills the waves of
a workgroup, so thread t of the CTA is in warp t // warp_size."""

from ref import Case, Out, cmp_ints

BLOCK = (20, 3, 3)


def warpid_case():
    n = BLOCK[0] * BLOCK[1] * BLOCK[2]

    def check(outs, warp):
        return cmp_ints('warpid', outs[0], [t // int(warp) for t in range(n)], 'I')
    c = Case('sreg_warpid', 'sreg_warpid', (2,), BLOCK, [Out(4 * n)], check)
    c.warp_level = True
    return c


def cases():
    return [warpid_case()]
