"""Entry points of the PTX reference interpreter (tests/ptxref): run a kernel of a PTX text for
one CTA with global buffers, and a command line for doing so by hand.

usage: interp.py KERNEL.ptx --block N [--kernel NAME] ARG...
  ARG: in:FILE (a read-only buffer), inout:FILE:OUTFILE, out:BYTES:OUTFILE, u32:V, u64:V
"""

import argparse
import sys

import executor
import loader
import memory as mem
import ptxparse


def compile_ptx(text, entry=None, strict=True, quirk16=False):
    """PTX text -> CompiledKernel (raises ptxparse.PtxError / ops_common.UB).  strict: raise
    UB where PTX leaves a result undefined; else model what the hardware returns.  quirk16:
    follow the H100's 16-bit quirk (neg.s16/abs.s16 of -32768 leave +32768 in the register,
    which later signed 16-bit operations read; docs/PTXREF.md), which ptxas-amd does not."""
    return executor.CompiledKernel(loader.flatten(ptxparse.parse(text), entry), strict, quirk16)


def run(ck, ntid, buffers, scalars=None, max_steps=2000000, warp_size=32):
    """Runs one CTA.  buffers: list of bytearrays, passed as the kernel's first pointer
    parameters in order; scalars: ints for the parameters after them.  The buffers are
    updated in place."""
    gmem = mem.GlobalMemory()
    bases = [gmem.alloc(b) for b in buffers]
    args = bases + list(scalars or [])
    pb = bytearray(max(ck.param_layout.size, 16))
    for v, a in zip(ck.flat.entry.params, args):
        mem.store(pb, ck.param_layout.addr[v.name], v.size, a)
    executor.run_cta(ck, ntid, bytes(pb), gmem, max_steps, warp_size)
    for b, (base, buf) in zip(buffers, gmem.allocs):
        b[:] = buf


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('ptx')
    ap.add_argument('--block', type=int, required=True)
    ap.add_argument('--kernel')
    ap.add_argument('args', nargs='*')
    a = ap.parse_intermixed_args()
    ck = compile_ptx(open(a.ptx).read(), a.kernel)
    bufs, outs, scalars = [], [], []
    for arg in a.args:
        kind, _, rest = arg.partition(':')
        if kind == 'in':
            bufs.append(bytearray(open(rest, 'rb').read()))
            outs.append(None)
        elif kind == 'inout':
            src, dst = rest.split(':')
            bufs.append(bytearray(open(src, 'rb').read()))
            outs.append(dst)
        elif kind == 'out':
            n, dst = rest.split(':')
            bufs.append(bytearray(int(n)))
            outs.append(dst)
        else:
            scalars.append(int(rest, 0))
    run(ck, a.block, bufs, scalars)
    for b, o in zip(bufs, outs):
        if o:
            with open(o, 'wb') as f:
                f.write(b)
    return 0


if __name__ == '__main__':
    sys.exit(main())
