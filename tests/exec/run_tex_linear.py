#!/usr/bin/env python3
"""tex.{1d,2d,3d}.v4.f32.f32 through a linear sampler (HIP's cudaFilterModeLinear: XY_MAG/MIN_FILTER
bilinear, amdsim's image:FMT/bilinear) in amdsim, against a CPU reference written here from CUDA's
definition of linear filtering (CUDA C++ Programming Guide, "Texture Fetching", "Linear
Filtering"): with x_B = x*N - 0.5 (x - 0.5 unnormalized), i = floor(x_B), alpha = frac(x_B)
"stored in 9-bit fixed point format with 8 bits of fractional value",
tex(x) = (1 - alpha) T[i] + alpha T[i + 1] and in 2D
(1-a)(1-b) T[i,j] + a(1-b) T[i+1,j] + (1-a)b T[i,j+1] + ab T[i+1,j+1], in 3D the eight-texel
sum with the third weight (trilinear: HIP's linear 3D sampler has Z_FILTER linear too), each T
through the address mode (wrap, mirror, clamp, border with its colour).  The 8-bit weight is rounded to the nearest
here, which the points chosen (their t * 256 within 0.4 of an integer) make independent of the
rounding direction; the sums are compared with a tolerance of 1e-6 relative (the hardware's
blending arithmetic is not specified bit by bit).  rgba32f and rgba8 (unorm) textures of random
sizes, normalized and unnormalized coordinates, texel positions up to two periods out; gfx90a,
gfx1030, gfx1100, gfx1200.
usage: run_tex_linear.py PTXAS_AMD AMDSIM"""
import math
import os
import random
import struct
import subprocess
import sys
import tempfile

from run_surf import BORDER, compile_ptx, f32, layered_kernel, sampled_index, tex_kernel, \
    texel_rgba

RUN = ['gfx90a', 'gfx1030', 'gfx1100', 'gfx1200']
N = 32


def coordinate(rng, n, unnorm):
    """A coordinate whose x_B * 256 is within 0.4 of an integer, up to two periods out, and the
    f32 it is passed as."""
    k = rng.randrange(-2 * 256 * n, 3 * 256 * n)
    t = (k + rng.uniform(-0.4, 0.4)) / 256.0
    return f32(t + 0.5) if unnorm else f32((t + 0.5) / n)


def footprint(x, n, unnorm, mode):
    """CUDA's i, i + 1 (through the address mode; -1 border) and alpha (8-bit, nearest)."""
    xb = (x if unnorm else x * n) - 0.5
    k = math.floor(xb * 256 + 0.5)
    i = k // 256
    return sampled_index(i, n, mode), sampled_index(i + 1, n, mode), (k - 256 * i) / 256.0


def reference(fmt, data, w, h, d, coords, unnorm, mode, border):
    xs = footprint(coords[0], w, unnorm, mode)
    ys = footprint(coords[1], h, unnorm, mode) if h else (0, 0, 0.0)
    zs = footprint(coords[2], d, unnorm, mode) if d else (0, 0, 0.0)
    out = [0.0] * 4
    for dz, wz in ((0, 1 - zs[2]), (1, zs[2])):
        for dy, wy in ((0, 1 - ys[2]), (1, ys[2])):
            for dx, wx in ((0, 1 - xs[2]), (1, xs[2])):
                x, y, z = xs[dx], ys[dy], zs[dz]
                t = BORDER[border] if min(x, y, z) < 0 else \
                    texel_rgba(fmt, data, (z * max(h, 1) + y) * w + x)
                out = [o + wx * wy * wz * v for o, v in zip(out, t)]
    return out


def run_case(sim, hsaco, tmp, rng, target, dims, fmt, mode, unnorm, border):
    w, h = rng.randint(1, 7), rng.randint(1, 5) if dims > 1 else 0
    d = rng.randint(1, 4) if dims > 2 else 0
    ntex = w * max(h, 1) * max(d, 1)
    if fmt == 'rgba8':
        data = bytes(rng.randrange(256) for _ in range(4 * ntex))
    else:
        data = struct.pack('<%df' % (4 * ntex), *[rng.uniform(-9, 9) for _ in range(4 * ntex)])
    coords, want = [], []
    for _ in range(N):
        c = [coordinate(rng, n, unnorm) for n in (w, h, d)[:dims]]
        coords += c + c[-1:] if dims == 3 else c  # tex.3d reads {x, y, z, z}
        want += reference(fmt, data, w, h, d, c + [0.0] * (3 - dims), unnorm, mode, border)
    img, cf, out = (os.path.join(tmp, n) for n in ('img.bin', 'c.bin', 'out.bin'))
    with open(img, 'wb') as f:
        f.write(data)
    with open(cf, 'wb') as f:
        f.write(struct.pack('<%df' % len(coords), *coords))
    opts = '/bilinear/' + mode + ('/unnorm' if unnorm else '') + ('/' + border if border else '')
    size = 'x'.join(str(n) for n in (w, h, d)[:dims])
    r = subprocess.run([sim, hsaco, '--kernel', 't', '--grid', '1', '--block', str(N),
                        'image:%s%s:%s:%s' % (fmt, opts, size, img), 'in:' + cf,
                        'out:%d:%s' % (16 * N, out)], capture_output=True, text=True, timeout=120)
    got = list(struct.unpack('<%df' % (4 * N), open(out, 'rb').read())) \
        if r.returncode == 0 else None
    tag = '%s tex.%dd %s%s %s' % (target, dims, fmt, opts, size)
    if got is None:
        return ['%s: amdsim failed: %s' % (tag, r.stderr.strip()[:300])]
    bad = [(i, g, e) for i, (g, e) in enumerate(zip(got, want))
           if abs(g - e) > 1e-6 * (1 + abs(e))]
    if bad:
        return ['%s: %d channels differ, first (channel %d) got %r, expected %r' % (
            tag, len(bad), bad[0][0], bad[0][1], bad[0][2])]
    return []


def main():
    exe, sim = sys.argv[1], sys.argv[2]
    errs, n = [], 0
    rng = random.Random(37)
    cases = [('wrap', False, ''), ('mirror', False, ''), ('clamp', False, ''),
             ('border', False, ''), ('border', False, 'white'), ('clamp', True, ''),
             ('border', True, 'black')]
    with tempfile.TemporaryDirectory() as tmp:
        for target in RUN:
            for dims in (1, 2, 3):
                src = layered_kernel('3d') if dims == 3 else tex_kernel(dims == 2)
                hsaco, r = compile_ptx(exe, tmp, target, src)
                if r.returncode:
                    errs.append('%s: ptxas-amd failed: %s' % (target, r.stderr[:300]))
                    continue
                for fmt in ('rgba32f', 'rgba8'):
                    for mode, unnorm, border in cases:
                        errs += run_case(sim, hsaco, tmp, rng, target, dims, fmt, mode, unnorm,
                                         border)
                        n += 1
    for e in errs:
        print(e)
    print('%d linear-filtering texture cases on %s, %d problems' % (n, ', '.join(RUN), len(errs)))
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
