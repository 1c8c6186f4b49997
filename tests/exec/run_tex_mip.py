#!/usr/bin/env python3
"""tex.level.2d and tex.2d on mipmapped 2D textures (docs/TEXTURES.md "Mip levels") in amdsim
against a CPU reference written here from CUDA's definition: tex2DLod(t, x, y, level) fetches at
that level of detail; with mipmapFilterMode point (the sampler's MIP_FILTER point) the nearest
level, the level clamped to the texture's levels (the sampler's MIN_LOD/MAX_LOD: 0 and the last
level here); tex2D (PTX tex without .level) samples level 0.  Level m is max(1, W >> m) x
max(1, H >> m) texels, point-sampled at floor(u * size) through the address mode (wrap, clamp).
rgba32f textures of 2-5 levels built by amdsim's image:rgba32f/mipN argument (levels one after
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

from run_surf import compile_ptx, rejected_by_name, sampled_index

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


def level_offsets(w, h, levels):
    """amdsim's layout (src/sim/image_desc.c sim_image_level_offset): each level after the
    previous at a 256-byte boundary; rgba32f texels."""
    offs, off = [], 0
    for m in range(levels):
        offs.append(off)
        off += level_size(w, m) * level_size(h, m) * 16
        off = (off + 255) & ~255
    return offs, offs[-1] + level_size(w, levels - 1) * level_size(h, levels - 1) * 16


def run_case(sim, hsaco, tmp, rng, target, level, mode):
    levels = rng.randint(2, 5)
    w, h = rng.randint(1 << (levels - 1), 20), rng.randint(1, 9)
    offs, total = level_offsets(w, h, levels)
    vals = [rng.uniform(-50, 50) for _ in range(total // 4)]
    data = struct.pack('<%df' % len(vals), *vals)
    vals = list(struct.unpack('<%df' % len(vals), data))
    coords, want = [], []
    for _ in range(N):
        k = rng.randint(-2, levels + 1)
        lod = k + rng.uniform(-0.4, 0.4)
        m = min(max(k, 0), levels - 1) if level else 0
        lw, lh = level_size(w, m), level_size(h, m)
        i, j = rng.randrange(-lw, 2 * lw), rng.randrange(-lh, 2 * lh)
        coords += [(i + 0.5) / lw, (j + 0.5) / lh, lod, 0.0]
        x, y = sampled_index(i, lw, mode), sampled_index(j, lh, mode)
        base = offs[m] // 4 + 4 * (y * lw + x)
        want += vals[base:base + 4]
    img, cf, out = (os.path.join(tmp, n) for n in ('img.bin', 'c.bin', 'out.bin'))
    open(img, 'wb').write(data)
    open(cf, 'wb').write(struct.pack('<%df' % len(coords), *coords))
    spec = 'image:rgba32f/%s/mip%d:%dx%d:%s' % (mode, levels, w, h, img)
    r = subprocess.run([sim, hsaco, '--kernel', 't', '--grid', '1', '--block', str(N), spec,
                        'in:' + cf, 'out:%d:%s' % (16 * N, out)], capture_output=True,
                       text=True, timeout=120)
    tag = '%s tex%s.2d %s' % (target, '.level' if level else '', spec.split(':')[1:3])
    if r.returncode:
        return ['%s: amdsim failed: %s' % (tag, r.stderr.strip()[:300])]
    got = list(struct.unpack('<%df' % (4 * N), open(out, 'rb').read()))
    want = list(struct.unpack('<%df' % len(want), struct.pack('<%df' % len(want), *want)))
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
    for e in errs:
        print(e)
    print('%d mipmapped texture cases, %d problems' % (n, len(errs)))
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
