#!/usr/bin/env python3
"""sust.p (formatted stores, docs/TEXTURES.md "Formatted stores") on surface objects in amdsim
against CPU references written here from the PTX ISA: "sust.p performs a formatted store of a
vector of 32-bit data values to a surface sample.  The source vector elements are interpreted
left-to-right as R, G, B, and A surface components ... Source elements that do not occur in the
surface sample are ignored.  Surface sample components that do not occur in the source vector
will be written with an unpredictable value [not compared here].  The lowest dimension
coordinate represents a sample offset rather than a byte offset.  ... If the surface format
contains UNORM, SNORM, or FLOAT data, then .f32 is assumed; if the surface format contains UINT
data, then .u32 is assumed; if ... SINT data, then .s32 ... The source data is then converted
from this type to the surface sample format."  The conversion to unorm8 is taken as D3D's
FLOAT -> UNORM (clamp to [0, 1], times 255, nearest), with values within 0.1 of an integer
step (where every rounding agrees) and values outside [0, 1]; uint8 channels get values that
fit.  .1d/.2d/.3d, scalar/.v2/.v4, .trap/.clamp/.zero (the last x pushed past the end: clamped
back or dropped), over ten formats built by amdsim's image: argument, on gfx90a, gfx1030,
gfx1100 and gfx1200, also on .a1d/.a2d ({layer, x[, y, -]}: the PTX ISA's syntax has sust.p on
.1d/.2d/.3d, NVIDIA's ptxas takes the arrays too); gfx942 rejects by name.
usage: run_surf_p.py PTXAS_AMD AMDSIM"""
import os
import random
import struct
import subprocess
import sys
import tempfile

from run_surf import compile_ptx, rejected_by_name

RUN = ['gfx90a', 'gfx1030', 'gfx1100', 'gfx1200']
DIMS = {'1d': (5, 1, 1), '2d': (4, 3, 1), '3d': (3, 2, 2), 'a1d': (4, 1, 3), 'a2d': (3, 2, 2)}
FORMATS = {  # name: (channels, bytes per channel, kind)
    'r32f': (1, 4, 'f'), 'rg32f': (2, 4, 'f'), 'rgba32f': (4, 4, 'f'), 'r32ui': (1, 4, 'u'),
    'rgba32ui': (4, 4, 'u'), 'r32i': (1, 4, 's'), 'r8': (1, 1, 'unorm'),
    'rgba8': (4, 1, 'unorm'), 'r8ui': (1, 1, 'u8'), 'rgba8ui': (4, 1, 'u8')}


def kernel(geom, nelem, mode):
    """k(surf, buf): thread (x, y, z) stores buf's four dwords n (its first nelem) at (x, y,
    z); for .clamp/.zero the last x is W + 5."""
    c = {'1d': '{%x}', '2d': '{%x, %y}', '3d': '{%x, %y, %z, %z}', 'a1d': '{%z, %x}',
         'a2d': '{%z, %x, %y, %y}'}
    vec = '' if nelem == 1 else '.v%d' % nelem
    regs = ', '.join('%%e%d' % e for e in range(nelem))
    body = ['mad.lo.u32 %n, %z, %bh, %y;', 'mad.lo.u32 %n, %n, %bw, %x;',
            'mul.wide.u32 %off, %n, 16;', 'add.u64 %a, %buf, %off;',
            'ld.global.v4.b32 {%e0, %e1, %e2, %e3}, [%a];']
    if mode != 'trap':
        body += ['sub.u32 %n, %bw, 1;', 'setp.eq.u32 %p, %x, %n;', 'add.u32 %n, %bw, 5;',
                 'selp.b32 %x, %n, %x, %p;']
    body.append('sust.p.%s%s.b32.%s [%%surf, %s], {%s};' % (geom, vec, mode, c[geom], regs))
    decl = ['.reg .b32 %e<4>, %x, %y, %z, %bw, %bh, %n;', '.reg .b64 %surf, %buf, %off, %a;',
            '.reg .pred %p;', 'ld.param.u64 %surf, [surf];', 'ld.param.u64 %buf, [buf];',
            'mov.u32 %x, %tid.x;', 'mov.u32 %y, %tid.y;', 'mov.u32 %z, %tid.z;',
            'mov.u32 %bw, %ntid.x;', 'mov.u32 %bh, %ntid.y;']
    return ('.version 7.8\n.target sm_80\n.address_size 64\n'
            '.visible .entry k(.param .u64 surf, .param .u64 buf)\n{\n\t' +
            '\n\t'.join(decl + body + ['ret;']) + '\n}\n')


def f32_bits(v):
    return struct.unpack('<I', struct.pack('<f', v))[0]


def component(rng, kind):
    """A random source component for a channel of this kind: (its dword, the channel's bits
    after the conversion the PTX ISA names)."""
    if kind == 'f':
        v = f32_bits(rng.uniform(-1e4, 1e4))
        return v, v
    if kind in ('u', 's'):
        v = rng.getrandbits(32)
        return v, v
    if kind == 'u8':
        v = rng.randrange(256)
        return v, v
    k = rng.randrange(256)  # unorm8: k/255 within 0.1 of a step, or outside [0, 1]
    if rng.random() < 0.2:
        x = rng.choice((-0.75, -1e-3, 1.001, 3.5))
        return f32_bits(x), 0 if x < 0 else 255
    return f32_bits((k + rng.uniform(-0.1, 0.1)) / 255.0), k


def expected(img, fmt, geom, mode, comps, nelem):
    """The image after the stores, None for the bytes the PTX ISA leaves unpredictable."""
    ch, nb, _ = FORMATS[fmt]
    w, h, d = DIMS[geom]
    out = list(img)
    n = 0
    for z in range(d):
        for y in range(h):
            for x in range(w):
                xe = w + 5 if mode != 'trap' and x == w - 1 else x
                if mode == 'zero' and xe >= w:
                    n += 1
                    continue
                xe = min(xe, w - 1)
                base = ((z * h + y) * w + xe) * ch * nb
                for c in range(ch):
                    bits = comps[n][c][1] if c < nelem else None
                    for b in range(nb):
                        out[base + c * nb + b] = None if bits is None else bits >> 8 * b & 255
                n += 1
    return out


def run_case(exe, sim, tmp, rng, target, fmt, geom, nelem, mode):
    tag = '%s sust.p.%s.v%d.b32.%s on %s' % (target, geom, nelem, mode, fmt)
    img_fmt = fmt + ('/array' if geom[0] == 'a' else '')
    hsaco, r = compile_ptx(exe, tmp, target, kernel(geom, nelem, mode))
    if r.returncode:
        return ['%s: ptxas-amd failed: %s' % (tag, r.stderr.strip()[:300])]
    ch, nb, kind = FORMATS[fmt]
    w, h, d = DIMS[geom]
    img = bytes(rng.getrandbits(8) for _ in range(w * h * d * ch * nb))
    comps = [[component(rng, kind) for _ in range(4)] for _ in range(w * h * d)]
    words = [c[0] for t in comps for c in t]
    paths = [os.path.join(tmp, n) for n in ('img.bin', 'in.bin', 'out.bin')]
    if os.path.exists(paths[2]):
        os.remove(paths[2])
    open(paths[0], 'wb').write(img)
    open(paths[1], 'wb').write(struct.pack('<%dI' % len(words), *words))
    size = {'1d': '%d' % w, '2d': '%dx%d' % (w, h), '3d': '%dx%dx%d' % (w, h, d),
            'a1d': '%dx%d' % (w, d), 'a2d': '%dx%dx%d' % (w, h, d)}[geom]
    r = subprocess.run([sim, hsaco, '--kernel', 'k', '--grid', '1', '--block',
                        '%d,%d,%d' % (w, h, d), 'image:%s:%s:%s:%s' % (img_fmt, size, *paths[::2]),
                        'in:' + paths[1]], capture_output=True, text=True, timeout=120)
    got = open(paths[2], 'rb').read() if os.path.exists(paths[2]) else None
    want = expected(img, fmt, geom, mode, comps, nelem)
    if r.returncode or got is None or any(e is not None and e != g for e, g in zip(want, got)):
        return ['%s: exit %d, got %r, expected %r; %s' % (
            tag, r.returncode, got and list(got[:16]), want[:16], r.stderr.strip()[:300])]
    return []


def main():
    exe, sim = sys.argv[1], sys.argv[2]
    errs, n = [], 0
    rng = random.Random(23)
    with tempfile.TemporaryDirectory() as tmp:
        for target in RUN:
            for fmt in sorted(FORMATS):
                for mode in ('trap', 'clamp', 'zero'):
                    errs += run_case(exe, sim, tmp, rng, target, fmt,
                                     rng.choice(sorted(DIMS)), rng.choice((1, 2, 4)), mode)
                    n += 1
        errs += rejected_by_name(exe, tmp, 'gfx942', kernel('2d', 4, 'zero'),
                                 'no image instructions', 'gfx942 sust.p')
    for e in errs:
        print(e)
    print('%d sust.p cases on %s, %d problems' % (n, ', '.join(RUN), len(errs)))
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
