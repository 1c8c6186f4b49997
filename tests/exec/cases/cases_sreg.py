"""Special registers not covered elsewhere: %warpid.  PTX: a warp number unique within the
CTA; threads fill warps in linear order (x fastest), which is how AMD fills the waves of
a workgroup, so thread t of the CTA is in warp t // warp_size.

Machine-specific by design: the reference is ptxas-amd's definition (the wave's index in its
workgroup).  The PTX ISA only promises a number unique within the CTA, the same in a warp, and
calls it volatile (for profiling); NVIDIA returns the warp's hardware slot on its SM (the H100
replay: 2 for the first warp), so this case fails there (docs/TESTS_ON_NVIDIA.md)."""

from ref import Case, Out, cmp_ints

BLOCK = (20, 3, 3)


def warpid_case():
    n = BLOCK[0] * BLOCK[1] * BLOCK[2]

    def check(outs, warp):
        # ptxas-amd's %warpid (machine-specific, see above)
        return cmp_ints('warpid', outs[0], [t // int(warp) for t in range(n)], 'I')
    c = Case('sreg_warpid', 'sreg_warpid', (2,), BLOCK, [Out(4 * n)], check)
    c.warp_level = True
    return c


def cases():
    return [warpid_case()]
