#!/usr/bin/env python3
"""tex.cube, tex.acube and tex.level.{cube,acube} (.v4.f32.f32, docs/TEXTURES.md "Cube maps") in
amdsim against a CPU reference written here from CUDA's definition of cubemap fetches (CUDA C++
Programming Guide, "Cubemap Textures"): the face is the direction's major axis -- |x| largest:
face 0 (x > 0: s = -z, t = -y) or 1 (s = z, t = -y); |y|: face 2 (s = x, t = z) or 3 (s = x,
t = -z); |z|: face 4 (s = x, t = -y) or 5 (s = -x, t = -y) -- the face coordinates are
((s / m + 1) / 2, (t / m + 1) / 2) with m the major coordinate's magnitude, and a cubemap
layered texture's cube c, face f is layer 6c + f.  Textures of 6 (cube) or 6N (acube) layers
built by amdsim's image: argument (rgba32f 2D arrays), point sampling (the texel
floor(u * size)), directions at random texel positions away from texel and face edges, random
magnitudes; the sampler of the object is wrap or unnormalized (a cube face is sampled
normalized with clamp-to-edge whatever it says); acube layers from -1 to N (clamped to the
cubes).  Also tld4.{r,g,b,a} on .a2d (a layer of a 2D array, under the sampler's address mode)
and .cube (footprints inside a face: across an edge NVIDIA gathers from the neighbouring face,
this code clamps, docs/TEXTURES.md): the four texels of the bilinear footprint counter-clockwise
from the lower left, (i0, j1), (i1, j1), (i1, j0), (i0, j0) with i0 = floor(u * w - 0.5), as the
PTX ISA states for tld4.  Targets gfx90a (tex.cube/.acube only: no image_sample_l or
image_gather4 there), gfx1030, gfx1100, gfx1200; gfx942 rejects by name.
usage: run_cube.py PTXAS_AMD AMDSIM"""
import math
import os
import random
import struct
import subprocess
import sys
import tempfile

from run_surf import compile_ptx, rejected_by_name

RUN = ['gfx90a', 'gfx1030', 'gfx1100', 'gfx1200']
N = 32  # threads, one direction each


def kernel(geom, level):
    """t(tex, coords, out): thread n reads {x, y, z, cube} (the cube an .s32) and stores
    tex[.level].GEOM's four channels (LOD 0.0 for .level)."""
    opnd = '{%c0, %c1, %c2, %c2}' if geom == 'cube' else '{%l, %c0, %c1, %c2}'
    lev = '.level' if level else ''
    return ('.version 7.8\n.target sm_80\n.address_size 64\n'
            '.visible .entry t(.param .u64 tex, .param .u64 coords, .param .u64 out)\n{\n'
            '\t.reg .f32 %%c<4>, %%d<4>;\n\t.reg .b64 %%t, %%cs, %%o, %%a, %%off;\n'
            '\t.reg .b32 %%n, %%l;\n\tld.param.u64 %%t, [tex];\n\tld.param.u64 %%cs, [coords];\n'
            '\tld.param.u64 %%o, [out];\n\tmov.u32 %%n, %%tid.x;\n'
            '\tmul.wide.u32 %%off, %%n, 16;\n\tadd.u64 %%a, %%cs, %%off;\n'
            '\tld.global.v4.f32 {%%c0, %%c1, %%c2, %%c3}, [%%a];\n'
            '\tld.global.s32 %%l, [%%a+12];\n'
            '\ttex%s.%s.v4.f32.f32 {%%d0, %%d1, %%d2, %%d3}, [%%t, %s]%s;\n'
            '\tadd.u64 %%a, %%o, %%off;\n'
            '\tst.global.v4.f32 [%%a], {%%d0, %%d1, %%d2, %%d3};\n\tret;\n}\n'
            % (lev, geom, opnd, ', 0f00000000' if level else ''))


def gather_kernel(geom, comp):
    """t(tex, coords, out): thread n reads {a, b, c, layer} and stores tld4.COMP.GEOM's four
    texels: .a2d at {layer, a, b, -}, .cube at {a, b, c, -}."""
    opnd = '{%l, %c0, %c1, %c1}' if geom == 'a2d' else '{%c0, %c1, %c2, %c2}'
    return kernel('cube', False).replace('tex.cube.v4.f32.f32', 'tld4.%s.%s.v4.f32.f32' % (
        comp, geom)).replace('[%t, {%c0, %c1, %c2, %c2}]', '[%t, ' + opnd + ']')


def cube_gather_point(rng, w, h, face):
    """A direction whose face coordinates are a quarter texel off a centre with the bilinear
    footprint inside the face; its (u, v, face) by CUDA's table."""
    i, j = rng.randrange(w - 1), rng.randrange(h - 1)  # footprints (i, i+1), (j, j+1)
    m = rng.uniform(0.25, 40.0)
    u = (i + 0.5 + rng.choice((0.25, 0.75))) / w
    v = (j + 0.5 + rng.choice((0.25, 0.75))) / h
    s, t = (2 * u - 1) * m, (2 * v - 1) * m
    d = [(m, -t, -s), (-m, -t, s), (s, m, t), (s, -m, -t), (s, -t, m), (-s, -t, -m)][face]
    d = tuple(f32(c) for c in d)
    face, sc, tc, mm = cuda_face(*d)
    return d, (sc / mm + 1) / 2, (tc / mm + 1) / 2, face


def run_gather(sim, hsaco, tmp, rng, target, geom, comp, opts):
    """tld4 of channel `comp` (0-3): points a quarter texel off the centres (amdsim stops near a
    centre, where the footprint changes); .cube keeps the footprint inside the face."""
    w, h = rng.randint(2, 6), rng.randint(2, 5)
    layers = 6 if geom == 'cube' else rng.randint(1, 4)
    mode = 'clamp' if geom == 'cube' else (opts.split('/')[1] if opts else 'wrap')
    vals = [rng.uniform(-9, 9) for _ in range(4 * w * h * layers)]
    data = struct.pack('<%df' % len(vals), *vals)
    vals = list(struct.unpack('<%df' % len(vals), data))
    words, want = [], []
    for n in range(N):
        if geom == 'cube':
            d, u, v, layer = cube_gather_point(rng, w, h, n % 6)
            words += [struct.unpack('<I', struct.pack('<f', c))[0] for c in d] + [0]
        else:
            u = f32((rng.randrange(-2 * w, 3 * w) + rng.choice((0.25, 0.75))) / w)
            v = f32((rng.randrange(-2 * h, 3 * h) + rng.choice((0.25, 0.75))) / h)
            cube = rng.randrange(-1, layers + 1)
            layer = min(max(cube, 0), layers - 1)
            words += [struct.unpack('<I', struct.pack('<f', c))[0] for c in (u, v, 0.0)]
            words.append(cube & 0xffffffff)
        i0, j0 = math.floor(u * w - 0.5), math.floor(v * h - 0.5)
        for di, dj in ((0, 1), (1, 1), (1, 0), (0, 0)):
            x, y = sampled(i0 + di, w, mode), sampled(j0 + dj, h, mode)
            want.append(0.0 if x < 0 or y < 0 else vals[4 * ((layer * h + y) * w + x) + comp])
    img, cf, out = (os.path.join(tmp, n) for n in ('img.bin', 'c.bin', 'out.bin'))
    with open(img, 'wb') as f:
        f.write(data)
    with open(cf, 'wb') as f:
        f.write(struct.pack('<%dI' % len(words), *words))
    spec = 'rgba32f%s/array:%dx%dx%d' % (opts, w, h, layers)
    r = subprocess.run([sim, hsaco, '--kernel', 't', '--grid', '1', '--block', str(N),
                        'image:%s:%s' % (spec, img), 'in:' + cf, 'out:%d:%s' % (16 * N, out)],
                       capture_output=True, text=True, timeout=120)
    got = list(struct.unpack('<%df' % (4 * N), open(out, 'rb').read())) \
        if r.returncode == 0 else None
    if got != want:
        return ['%s tld4.%s.%s %s: got %r, expected %r; %s' % (
            target, 'rgba'[comp], geom, spec, got and got[:8], want[:8], r.stderr.strip()[:300])]
    return []


def sampled(i, n, mode):
    """Texel i along an axis of n through CUDA's wrap, clamp or border (-1) mode."""
    if mode == 'wrap':
        return i % n
    if mode == 'clamp':
        return min(max(i, 0), n - 1)
    return i if 0 <= i < n else -1


def f32(v):
    return struct.unpack('<f', struct.pack('<f', v))[0]


def cuda_face(x, y, z):
    """CUDA's cubemap table: (face, s, t, m) of a direction without ties."""
    ax, ay, az = abs(x), abs(y), abs(z)
    if ax > ay and ax > az:
        return (0, -z, -y, ax) if x > 0 else (1, z, -y, ax)
    if ay > az:
        return (2, x, z, ay) if y > 0 else (3, x, -z, ay)
    return (4, x, -y, az) if z > 0 else (5, -x, -y, az)


def direction(rng, face, w, h):
    """A direction hitting a random texel of `face`, within its middle 60 % (away from the texel's
    and the face's edges), at a random magnitude; built by inverting the table above."""
    u = (rng.randrange(w) + rng.uniform(0.2, 0.8)) / w
    v = (rng.randrange(h) + rng.uniform(0.2, 0.8)) / h
    m = rng.uniform(0.25, 40.0)
    s, t = (2 * u - 1) * m, (2 * v - 1) * m
    return [(m, -t, -s), (-m, -t, s), (s, m, t), (s, -m, -t), (s, -t, m), (-s, -t, -m)][face]


def expected(data, w, h, cubes, d, cube):
    face, s, t, m = cuda_face(*d)
    i = min(int((s / m + 1) / 2 * w), w - 1)
    j = min(int((t / m + 1) / 2 * h), h - 1)
    layer = 6 * min(max(cube, 0), cubes - 1) + face
    base = 4 * ((layer * h + j) * w + i)
    return list(struct.unpack('<4f', data[4 * base:4 * base + 16]))


def run_case(sim, hsaco, tmp, rng, geom, opts, target):
    w, h = rng.randint(1, 6), rng.randint(1, 5)
    cubes = 1 if geom == 'cube' else rng.randint(1, 3)
    vals = [rng.uniform(-9, 9) for _ in range(4 * w * h * 6 * cubes)]
    data = struct.pack('<%df' % len(vals), *vals)
    words, want = [], []
    for n in range(N):
        d = tuple(f32(c) for c in direction(rng, n % 6, w, h))
        cube = rng.randrange(-1, cubes + 1) if geom == 'acube' else 0
        words += [struct.unpack('<I', struct.pack('<f', c))[0] for c in d] + [cube & 0xffffffff]
        want += expected(data, w, h, cubes, d, cube)
    img, cf, out = (os.path.join(tmp, n) for n in ('img.bin', 'c.bin', 'out.bin'))
    with open(img, 'wb') as f:
        f.write(data)
    with open(cf, 'wb') as f:
        f.write(struct.pack('<%dI' % len(words), *words))
    spec = 'rgba32f%s/array:%dx%dx%d' % (opts, w, h, 6 * cubes)
    r = subprocess.run([sim, hsaco, '--kernel', 't', '--grid', '1', '--block', str(N),
                        'image:%s:%s' % (spec, img), 'in:' + cf, 'out:%d:%s' % (16 * N, out)],
                       capture_output=True, text=True, timeout=120)
    got = list(struct.unpack('<%df' % (4 * N), open(out, 'rb').read())) \
        if r.returncode == 0 else None
    if got != want:
        return ['%s tex.%s %s: got %r, expected %r; %s' % (
            target, geom, spec, got and got[:8], want[:8], r.stderr.strip()[:300])]
    return []


def main():
    exe, sim = sys.argv[1], sys.argv[2]
    errs, n = [], 0
    rng = random.Random(29)
    with tempfile.TemporaryDirectory() as tmp:
        for target in RUN + ['gfx942']:
            for geom in ('cube', 'acube'):
                for level in (False, True):
                    hsaco, r = compile_ptx(exe, tmp, target, kernel(geom, level))
                    why = 'no image instructions' if target == 'gfx942' else \
                        'no image_sample_l' if target == 'gfx90a' and level else None
                    if why:
                        if r.returncode == 0 or why not in r.stderr:
                            errs.append('%s tex.%s: expected the rejection naming %r: %s' % (
                                target, geom, why, r.stderr.strip()[:300]))
                        continue
                    if r.returncode:
                        errs.append('%s tex.%s: ptxas-amd failed: %s' % (
                            target, geom, r.stderr[:300]))
                        continue
                    for opts in ('', '/clamp', '/unnorm/clamp', '/border'):
                        errs += run_case(sim, hsaco, tmp, rng, geom, opts, target)
                        n += 1
            for geom in ('a2d', 'cube'):
                for comp in range(4):
                    if target == 'gfx942':
                        break
                    hsaco, r = compile_ptx(exe, tmp, target, gather_kernel(geom, 'rgba'[comp]))
                    if target == 'gfx90a':
                        if r.returncode == 0 or 'no image_gather4' not in r.stderr:
                            errs.append('gfx90a tld4.%s: expected the rejection by name: %s'
                                        % (geom, r.stderr[:300]))
                        break
                    if r.returncode:
                        errs.append('%s tld4.%s: ptxas-amd failed: %s' % (
                            target, geom, r.stderr[:300]))
                        continue
                    for opts in ('', '/clamp', '/border') if geom == 'a2d' else ('',):
                        errs += run_gather(sim, hsaco, tmp, rng, target, geom, comp, opts)
                        n += 1
        errs += rejected_by_name(exe, tmp, 'gfx1100', kernel('cube', False).replace(
            'tex.cube', 'tex.grad.cube').replace('[%t, {%c0, %c1, %c2, %c2}]',
                                                 '[%t, {%c0, %c1, %c2, %c2}], {%c0, %c1, %c2, '
                                                 '%c2}, {%c0, %c1, %c2, %c2}'),
            'tex.cube/.acube with integer coordinates or .grad', 'tex.grad.cube')
    for e in errs:
        print(e)
    print('%d cube-map cases on %s, %d problems' % (n, ', '.join(RUN), len(errs)))
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
