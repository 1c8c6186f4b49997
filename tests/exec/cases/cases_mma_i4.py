"""Cases for tests/exec/ptx/mma_i4_*.ptx (written by this module: run it as a script to
regenerate them): the .s4/.u4 mma forms gfx1100 computes on v_wmma_i32_16x16x16_iu4 and
gfx90a/gfx942 on v_mfma_i32_4x4x4i8 of unpacked bytes (docs/TENSOR.md, "Nibbles on the matrix
units"), on every target.  The kernels and references are
cases_mma.py's (the PTX ISA's fragments from tests/kernels/mma_frag.py, exact integer sums);
these add the k that leave half of the unit's registers empty (m16n8k32, m8n8k32), every
signedness, .satfinite with C near the limits, and a chain of accumulators."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'kernels'))
from cases_mma import chain_case, chain_ptx, form_case, ptx_text  # noqa: E402
from mma_frag import generic  # noqa: E402

FORMS = [
    generic('mma_i4_s4_k32', (16, 8, 32), 's4', 's4', 's32', 's32', 8, 8),
    generic('mma_i4_u4s4_k32_sat', (16, 8, 32), 'u4', 's4', 's32', 's32', 8, 8, sat=True),
    generic('mma_i4_u4_k64', (16, 8, 64), 'u4', 'u4', 's32', 's32', 8, 8, warp_level=True),
    generic('mma_i4_s4u4_m8_sat', (8, 8, 32), 's4', 'u4', 's32', 's32', 8, 8, sat=True),
]
CHAINS = [generic('mma_i4_chain_s4', (16, 8, 64), 's4', 's4', 's32', 's32', 8, 8)]


def cases():
    return [form_case(f) for f in FORMS] + [chain_case(f) for f in CHAINS]


if __name__ == '__main__':  # regenerate the PTX files
    pdir = os.path.join(os.path.dirname(HERE), 'ptx')
    for f in FORMS:
        with open(os.path.join(pdir, f.name + '.ptx'), 'w') as fh:
            fh.write(ptx_text(f))
    for f in CHAINS:
        with open(os.path.join(pdir, f.name + '.ptx'), 'w') as fh:
            fh.write(chain_ptx(f))
