#!/usr/bin/env python3
"""suld.b and sust.b on 3D surfaces and surface arrays (.3d, .a1d, .a2d; docs/TEXTURES.md
"Surfaces") in amdsim against CPU references written here from the PTX ISA, as run_surf.py does
for .1d/.2d: "suld.b performs an unformatted load of binary data.  The lowest dimension
coordinate represents a byte offset into the surface and is not scaled, and the size of the
data transfer matches the size of destination operand d" (sust.b the same with its source);
.3d takes {x, y, z, -}; the arrays "first select a surface layer ... using the index given by
the first element", "interpreted as an unsigned integer index (.u32)": .a1d {layer, x}, .a2d
{layer, x, y, -}.  .trap traps on an out-of-range coordinate, .clamp uses the nearest element,
.zero reads zero and drops the store; the layer is one more coordinate (unsigned: -1 is past the
last layer and clamps to it).  Surfaces of W x H x D texels (D slices or layers; .a1d: H = 1) of
the access size (r32ui, rg32f, rgba32ui; suld of 4 bytes also rgba8ui, whose 8-bit integer
channels are the raw bytes) built by amdsim's image: argument; loads cover one element past
every face (block (W+2) x (H+2) x (D+2)), stores every element once with the last x and z
coordinates pushed past the end (clamped back for .clamp, dropped for .zero).  gfx90a, gfx1030,
gfx1100, gfx1200; a .trap access past the end must end the launch (exit 4, "kernel trap");
gfx942 rejects by name.
usage: run_surf3d.py PTXAS_AMD AMDSIM"""
import os
import random
import struct
import subprocess
import sys
import tempfile

from run_surf import compile_ptx, rejected_by_name

RUN = ['gfx90a', 'gfx1030', 'gfx1100', 'gfx1200']
W, H, D = 3, 2, 3
FORMAT = {4: 'r32ui', 8: 'rg32f', 16: 'rgba32ui'}
SHAPES = [('suld', 1, 32), ('suld', 2, 32), ('suld', 4, 32), ('suld', 4, 8), ('sust', 1, 32),
          ('sust', 2, 32), ('sust', 4, 32)]


GEOMS = ['3d', 'a2d', 'a1d']


def dims(geom):
    """(W, H, D) of the surface: D slices of H rows (H = 1 for .a1d)."""
    return (W, 1, D) if geom == 'a1d' else (W, H, D)


def ptx_coords(geom):
    """The coordinate vector: the element coordinates %xb (bytes), %ye, %ze (slice or layer)."""
    return {'3d': '{%xb, %ye, %ze, %ze}', 'a2d': '{%ze, %xb, %ye, %ye}',
            'a1d': '{%ze, %xb}'}[geom]


def coords(op, mode):
    """PTX for the element coordinates %xe, %ye, %ze of thread (%tx, %ty, %tz)."""
    if op == 'suld' and mode != 'trap':
        return ['sub.s32 %xe, %tx, 1;', 'sub.s32 %ye, %ty, 1;', 'sub.s32 %ze, %tz, 1;']
    code = ['mov.u32 %xe, %tx;', 'mov.u32 %ye, %ty;', 'mov.u32 %ze, %tz;']
    if op == 'sust' and mode != 'trap':  # the last x and z past the end
        code += ['setp.eq.u32 %p1, %tx, {};'.format(W - 1),
                 'selp.b32 %xe, {}, %xe, %p1;'.format(W + 5),
                 'setp.eq.u32 %p1, %tz, {};'.format(D - 1),
                 'selp.b32 %ze, {}, %ze, %p1;'.format(D + 3)]
    return code


def kernel(op, nelem, bits, mode, geom='3d'):
    ty = {8: 'b16', 32: 'b32'}[bits]
    regs = ', '.join('%%e%d' % e for e in range(nelem))
    vec = '' if nelem == 1 else '.v%d' % nelem
    size = nelem * bits // 8
    body = coords(op, mode) + ['mul.lo.s32 %%xb, %%xe, %d;' % size,
                               'mad.lo.u32 %n, %tz, %bh, %ty;', 'mad.lo.u32 %n, %n, %bw, %tx;',
                               'mul.lo.u32 %%n, %%n, %d;' % nelem, 'mul.wide.u32 %off, %n, 8;',
                               'add.u64 %a, %buf, %off;']
    c = ptx_coords(geom)
    if op == 'suld':
        body.append('suld.b.%s%s.b%d.%s {%s}, [%%surf, %s];' % (geom, vec, bits, mode, regs, c))
        for e in range(nelem):
            body += ['cvt.u64.u%d %%q, %%e%d;' % (16 if bits == 8 else 32, e),
                     'st.global.u64 [%%a+%d], %%q;' % (8 * e)]
    else:
        for e in range(nelem):
            body += ['ld.global.u64 %%q, [%%a+%d];' % (8 * e), 'cvt.u32.u64 %%e%d, %%q;' % e]
        body.append('sust.b.%s%s.b%d.%s [%%surf, %s], {%s};' % (geom, vec, bits, mode, c, regs))
    decl = ['.reg .%s %%e<%d>;' % (ty, nelem), '.reg .b64 %surf, %buf, %off, %a, %q;',
            '.reg .b32 %tx, %ty, %tz, %bw, %bh, %xe, %ye, %ze, %xb, %n;', '.reg .pred %p1;',
            'ld.param.u64 %surf, [surf];', 'ld.param.u64 %buf, [buf];', 'mov.u32 %tx, %tid.x;',
            'mov.u32 %ty, %tid.y;', 'mov.u32 %tz, %tid.z;', 'mov.u32 %bw, %ntid.x;',
            'mov.u32 %bh, %ntid.y;']
    return ('.version 7.8\n.target sm_80\n.address_size 64\n'
            '.visible .entry k(.param .u64 surf, .param .u64 buf)\n{\n\t' +
            '\n\t'.join(decl + body + ['ret;']) + '\n}\n')


def threads(bw, bh, bd):
    return [(x, y, z) for z in range(bd) for y in range(bh) for x in range(bw)]


def clamp(v, n):
    return min(max(v, 0), n - 1)


def element(c, geom):
    """The element coordinates a PTX vector names, each inside: a layer is unsigned."""
    (w, h, d), layered = dims(geom), geom != '3d'
    z = c[2] & 0xffffffff if layered else c[2]
    inside = 0 <= c[0] < w and 0 <= c[1] < h and 0 <= z < d
    return inside, (clamp(c[0], w), clamp(c[1], h), min(z, d - 1) if layered else clamp(z, d))


def load_ref(img, nelem, bits, mode, block, geom='3d'):
    size, out = nelem * bits // 8, []
    w, h, _ = dims(geom)
    for tx, ty, tz in threads(*block):
        c = (tx, ty, tz) if mode == 'trap' else (tx - 1, ty - (h > 1), tz - 1)
        inside, (x, y, z) = element(c, geom)
        if not inside and mode == 'zero':
            out += [0] * nelem
            continue
        off = ((z * h + y) * w + x) * size
        out += [int.from_bytes(img[off + e * bits // 8:off + (e + 1) * bits // 8], 'little')
                for e in range(nelem)]
    return out


def store_ref(img, vals, nelem, bits, mode, geom='3d'):
    size, img = nelem * bits // 8, bytearray(img)
    w, h, d = dims(geom)
    for n, (tx, ty, tz) in enumerate(threads(w, h, d)):
        x = W + 5 if mode != 'trap' and tx == W - 1 else tx
        z = D + 3 if mode != 'trap' and tz == D - 1 else tz
        if mode == 'zero' and (x >= W or z >= D):
            continue
        x, z = clamp(x, W), clamp(z, D)
        data = b''.join((vals[n * nelem + e] & 0xffffffff).to_bytes(4, 'little')
                        for e in range(nelem))
        off = ((z * h + ty) * w + x) * size
        img[off:off + size] = data
    return bytes(img)


def launch(sim, hsaco, tmp, fmt, block, img, buf, nslots, geom='3d'):
    """Runs k over one block; returns (result, the output buffer or the image after it)."""
    paths = [os.path.join(tmp, n) for n in ('img.bin', 'buf.bin', 'outimg.bin')]
    for p in paths[1:]:
        if os.path.exists(p):
            os.remove(p)
    with open(paths[0], 'wb') as f:
        f.write(img)
    w, h, d = dims(geom)
    shape = '%dx%d' % (w, d) if geom == 'a1d' else '%dx%dx%d' % (w, h, d)
    spec = 'image:%s%s:%s:%s' % (fmt, '' if geom == '3d' else '/array', shape, paths[0])
    args = [sim, hsaco, '--kernel', 'k', '--grid', '1', '--block', '%d,%d,%d' % block]
    if buf is not None:  # a store: the values in, the image out
        with open(paths[1], 'wb') as f:
            f.write(struct.pack('<%dQ' % len(buf), *buf))
        args += [spec + ':' + paths[2], 'in:' + paths[1]]
    else:
        args += [spec, 'out:%d:%s' % (8 * nslots, paths[1])]
    r = subprocess.run(args, capture_output=True, text=True, timeout=120)
    res = paths[2] if buf is not None else paths[1]
    return r, open(res, 'rb').read() if os.path.exists(res) else None


def run_case(exe, sim, tmp, rng, target, op, nelem, bits, mode, geom):
    size = nelem * bits // 8
    tag = '%s %s.b.%s.v%d.b%d.%s' % (target, op, geom, nelem, bits, mode)
    hsaco, r = compile_ptx(exe, tmp, target, kernel(op, nelem, bits, mode, geom))
    if r.returncode:
        return ['%s: ptxas-amd failed: %s' % (tag, r.stderr.strip()[:300])]
    fmt = 'rgba8ui' if bits == 8 else FORMAT[size]
    w, h, d = dims(geom)
    img = bytes(rng.getrandbits(8) for _ in range(w * h * d * size))
    if op == 'suld':
        block = (w, h, d) if mode == 'trap' else (w + 2, h + 2 if h > 1 else 1, d + 2)
        nslots = block[0] * block[1] * block[2] * nelem
        r, data = launch(sim, hsaco, tmp, fmt, block, img, None, nslots, geom)
        want = load_ref(img, nelem, bits, mode, block, geom)
        got = list(struct.unpack('<%dQ' % (len(data) // 8), data)) if data else None
    else:
        vals = [rng.getrandbits(64) for _ in range(w * h * d * nelem)]
        r, got = launch(sim, hsaco, tmp, fmt, (w, h, d), img, vals, 0, geom)
        want = store_ref(img, vals, nelem, bits, mode, geom)
    if r.returncode or got != want:
        return ['%s (%s): exit %d, got %r, expected %r; %s' % (
            tag, fmt, r.returncode, got and got[:8], want[:8], r.stderr.strip()[:300])]
    return []


def run_trap_past_end(exe, sim, tmp, target, geom):
    """A .trap load one slice or layer past the last must end the launch."""
    w, h, d = dims(geom)
    hsaco, r = compile_ptx(exe, tmp, target, kernel('suld', 1, 32, 'trap', geom).replace(
        'mov.u32 %ze, %tz;', 'add.u32 %ze, %tz, 1;'))
    r, _ = launch(sim, hsaco, tmp, 'r32ui', (w, h, d), bytes(4 * w * h * d), None, w * h * d,
                  geom)
    if r.returncode != 4 or 'kernel trap' not in r.stderr:
        return ['%s suld.b.%s.trap past the last slice: exit %d, expected the trap (4): %s' % (
            target, geom, r.returncode, r.stderr.strip()[:300])]
    return []


def main():
    exe, sim = sys.argv[1], sys.argv[2]
    geoms = sys.argv[3:] or ['3d']
    errs, n = [], 0
    rng = random.Random(31)
    with tempfile.TemporaryDirectory() as tmp:
        for geom in geoms:
            for target in RUN:
                for op, nelem, bits in SHAPES:
                    for mode in ('trap', 'clamp', 'zero'):
                        errs += run_case(exe, sim, tmp, rng, target, op, nelem, bits, mode,
                                         geom)
                        n += 1
                errs += run_trap_past_end(exe, sim, tmp, target, geom)
            errs += rejected_by_name(exe, tmp, 'gfx942', kernel('sust', 1, 32, 'zero', geom),
                                     'no image instructions', 'gfx942 sust.b.' + geom)
    for e in errs:
        print(e)
    print('%d .%s surface cases on %s, %d problems' % (n, '/.'.join(geoms), ', '.join(RUN),
                                                       len(errs)))
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
