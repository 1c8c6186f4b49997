"""Cases for tests/exec/ptx/mma_qf16_*.ptx (written by this module: run it as a script to
regenerate them): the sm_70 form mma.sync.m8n8k4.row.col with .f16 or .f32 C and D, which gfx90a/gfx942
compute on v_mfma_f32_4x4x4f16 (docs/TENSOR.md, "m8n8k4 .f16 on MFMA"), on every target; the
kernel and reference are cases_mma.py's (the PTX ISA's quad-pair fragments from
tests/kernels/mma_frag.py, small integers: exact)."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'kernels'))
from cases_mma import form_case, ptx_text  # noqa: E402
from mma_frag import quad  # noqa: E402

FORMS = [quad('mma_qf16_rowcol', 'row', 'col', 'f16', 'f16', warp_level=True),
         quad('mma_qf32_rowcol', 'row', 'col', 'f32', 'f32')]


def cases():
    return [form_case(f) for f in FORMS]


if __name__ == '__main__':  # regenerate the PTX files
    pdir = os.path.join(os.path.dirname(HERE), 'ptx')
    for f in FORMS:
        with open(os.path.join(pdir, f.name + '.ptx'), 'w') as fh:
            fh.write(ptx_text(f))
