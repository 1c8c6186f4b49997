#!/usr/bin/env python3
"""tex.level.{2d,3d,a2d,a1d} and tex.2d on mipmapped textures (docs/TEXTURES.md "Mip levels") in amdsim
against a CPU reference written here from CUDA's definition: tex2DLod(t, x, y, level) fetches at
that level of detail; with mipmapFilterMode point (the sampler's MIP_FILTER point) the nearest
level, the level clamped to the texture's levels (the sampler's MIN_LOD/MAX_LOD: 0 and the last
level here); tex2D (PTX tex without .level) samples level 0.  Level m is max(1, W >> m) x
max(1, H >> m) texels, point-sampled at floor(u * size) through the address mode (wrap, clamp).
Level m of a 3D texture is also max(1, D >> m) deep; an array keeps its layers (the layer, an
.s32, clamped to them).  rgba32f textures of 2-5 levels built by amdsim's image:rgba32f/mipN
argument (levels one after
the other at 256-byte boundaries: amdsim's own layout, docs/TEXTURES.md), LODs within 0.4 of a
level (where the rounding is unambiguous) from -2 to past the last level, texel centres up to
a period outside.  tex.level on gfx1030, gfx1100 and gfx1200 (gfx90a has no image_sample_l:
rejected by name); tex on gfx90a (image_sample with LAST_LEVEL := BASE_LEVEL), gfx1030, gfx1100
and gfx1200.
usage: run_tex_mip.py PTXAS_AMD AMDSIM"""
import os
import random
import struct
import subprocess
import sys
import tempfile

from run_surf import compile_ptx, layered_kernel, rejected_by_name, sampled_index

N = 32


def kernel(level):
    """t(tex, coords, out): thread n samples at {x, y} of its coordinate vector {x, y, lod, -}
    (tex.level.2d with the lod; tex.2d without) and stores the four channels."""
    return ('.version 7.8\n.target sm_80\n.address_size 64\n'
            '.visible .entry t(.param .u64 tex, .param .u64 coords, .param .u64 out)\n{\n'
            '\t.reg .f32 %c<4>, %d<4>;\n\t.reg .b64 %t, %cs, %o, %a, %off;\n\t.reg .b32 %n;\n'
            '\tld.param.u64 %t, [tex];\n\tld.param.u64 %cs, [coords];\n'
            '\tld.param.u64 %o, [out];\n\tmov.u32 %n, %tid.x;\n'
            '\tmul.wide.u32 %off, %n, 16;\n\tadd.u64 %a, %cs, %off;\n'
            '\tld.global.v4.f32 {%c0, %c1, %c2, %c3}, [%a];\n'
            '\ttex' + ('.level' if level else '') + '.2d.v4.f32.f32 {%d0, %d1, %d2, %d3}, '
            '[%t, {%c0, %c1}]' + (', %c2' if level else '') + ';\n'
            '\tadd.u64 %a, %o, %off;\n\tst.global.v4.f32 [%a], {%d0, %d1, %d2, %d3};\n'
            '\tret;\n}\n')


def level_size(n, m):
    return max(1, n >> m)


def level_dims(geom, w, h, d, m):
    """Level m's W x H x D: a 3D image's depth halves, an array keeps its layers."""
    return (level_size(w, m), level_size(h, m), level_size(d, m) if geom == '3d' else d)


def level_offsets(geom, w, h, d, levels):
    """amdsim's layout (src/sim/image_desc.c sim_image_level_offset): each level after the
    previous at a 256-byte boundary; rgba32f texels."""
    offs, off = [], 0
    for m in range(levels):
        offs.append(off)
        lw, lh, ld = level_dims(geom, w, h, d, m)
        off += lw * lh * ld * 16
        end = off
        off = (off + 255) & ~255
    return offs, end


def run_case(sim, hsaco, tmp, rng, target, level, mode, geom='2d'):
    levels = rng.randint(2, 4)
    w = rng.randint(1 << (levels - 1), 20)
    h = 1 if geom == 'a1d' else rng.randint(1, 9)
    d = rng.randint(1, 5) if geom == '3d' else rng.randint(1, 3) if geom[0] == 'a' else 1
    offs, total = level_offsets(geom, w, h, d, levels)
    vals = [rng.uniform(-50, 50) for _ in range(total // 4)]
    data = struct.pack('<%df' % len(vals), *vals)
    vals = list(struct.unpack('<%df' % len(vals), data))
    coords, want = [], []
    for _ in range(N):
        k = rng.randint(-2, levels + 1)
        lod = k + rng.uniform(-0.4, 0.4)
        m = min(max(k, 0), levels - 1) if level else 0
        lw, lh, ld = level_dims(geom, w, h, d, m)
        i, j, q = rng.randrange(-lw, 2 * lw), rng.randrange(-lh, 2 * lh), rng.randrange(-1, ld + 1)
        x, y = sampled_index(i, lw, mode), sampled_index(j, lh, mode)
        u, v = (i + 0.5) / lw, (j + 0.5) / lh
        if geom == '2d':
            z, c = 0, [u, v, lod, 0.0]
        elif geom == '3d':
            z, c = sampled_index(q, ld, mode), [u, v, (q + 0.5) / ld, lod]
        else:  # the layer (an .s32 in the third word) clamped to the layers, as CUDA does
            y = 0 if geom == 'a1d' else y
            z, c = min(max(q, 0), ld - 1), [u, 0.0 if geom == 'a1d' else v, q, lod]
        coords += [struct.unpack('<I', struct.pack('<f', f) if isinstance(f, float)
                                 else struct.pack('<i', f))[0] for f in c]
        base = offs[m] // 4 + 4 * ((z * lh + y) * lw + x)
        want += vals[base:base + 4]
    img, cf, out = (os.path.join(tmp, n) for n in ('img.bin', 'c.bin', 'out.bin'))
    open(img, 'wb').write(data)
    open(cf, 'wb').write(struct.pack('<%dI' % len(coords), *coords))
    size = {'2d': '%dx%d' % (w, h), '3d': '%dx%dx%d' % (w, h, d), 'a2d': '%dx%dx%d' % (w, h, d),
            'a1d': '%dx%d' % (w, d)}[geom]
    spec = 'image:rgba32f/%s/mip%d%s:%s:%s' % (mode, levels, '/array' if geom[0] == 'a' else '',
                                              size, img)
    r = subprocess.run([sim, hsaco, '--kernel', 't', '--grid', '1', '--block', str(N), spec,
                        'in:' + cf, 'out:%d:%s' % (16 * N, out)], capture_output=True,
                       text=True, timeout=120)
    tag = '%s tex%s.%s %s' % (target, '.level' if level else '', geom, spec.split(':')[1:3])
    if r.returncode:
        return ['%s: amdsim failed: %s' % (tag, r.stderr.strip()[:300])]
    got = list(struct.unpack('<%df' % (4 * N), open(out, 'rb').read()))
    if got != want:
        bad = [i for i in range(len(got)) if got[i] != want[i]]
        return ['%s: %d channels differ, first (%d) got %r, expected %r' % (
            tag, len(bad), bad[0], got[bad[0]], want[bad[0]])]
    return []


def main():
    exe, sim = sys.argv[1], sys.argv[2]
    errs, n = [], 0
    rng = random.Random(53)
    with tempfile.TemporaryDirectory() as tmp:
        for target in ('gfx90a', 'gfx1030', 'gfx1100', 'gfx1200'):
            for level in (False, True):
                if level and target == 'gfx90a':
                    errs += rejected_by_name(exe, tmp, target, kernel(True),
                                             'no image_sample_l', 'gfx90a tex.level')
                    continue
                hsaco, r = compile_ptx(exe, tmp, target, kernel(level))
                if r.returncode:
                    errs.append('%s: ptxas-amd failed: %s' % (target, r.stderr[:300]))
                    continue
                for mode in ('wrap', 'clamp', 'wrap', 'clamp'):
                    errs += run_case(sim, hsaco, tmp, rng, target, level, mode)
                    n += 1
            for geom in ('3d', 'a2d', 'a1d'):  # tex.level on 3D images and arrays
                if target == 'gfx90a':
                    continue
                hsaco, r = compile_ptx(exe, tmp, target, layered_kernel(geom, True))
                if r.returncode:
                    errs.append('%s: ptxas-amd failed: %s' % (target, r.stderr[:300]))
                    continue
                for mode in ('wrap', 'clamp'):
                    errs += run_case(sim, hsaco, tmp, rng, target, True, mode, geom)
                    n += 1
    for e in errs:
        print(e)
    print('%d mipmapped texture cases, %d problems' % (n, len(errs)))
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
