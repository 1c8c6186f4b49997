#!/usr/bin/env python3
"""amdsim's mip level choice and 3D linear filtering (docs/TEXTURES.md "Mip levels", "Bilinear
filtering"; src/sim/sem_image.c) on clang-19 inline-asm kernels, against CPU references: a 2D
rgba32f image of several levels (amdsim's image:rgba32f/mipN layout: each level after the
previous at a 256-byte boundary) sampled with image_sample_l (gfx1030, gfx1100, gfx1200: LOD
after x, y; the nearest level, clamped to the levels) and image_sample_lz / gfx90a's
image_sample over one level (the base level), at texel centres; a 3D rgba32f image through a
linear sampler (image:rgba32f/bilinear: Z_FILTER linear too) with image_sample_lz dim 3D
(gfx90a image_sample), against the eight-texel blend of CUDA's 8-bit weights.
usage: image_lod_test.py AMDSIM"""
import os
import random
import struct
import sys
import tempfile

from simlib import build_cl_text, check, finish, run


def sample_asm(target, op, dim, n):
    """Inline asm of a sample `op` of n address dwords (%[a0]..) in target syntax, dmask 0xf, and
    its operand list template (A0.. the C expressions)."""
    wait = "s_wait_loadcnt 0" if target == "gfx1200" else "s_waitcnt vmcnt(0)"
    if target == "gfx1200":
        addr = "[%s]" % ", ".join("%%[a%d]" % i for i in range(n))
        ops = ", ".join('[a%d] "v"(A%d)' % (i, i) for i in range(n))
    else:
        addr = "%[a]"
        ops = '[a] "v"((float%d)(%s))' % (n, ", ".join("A%d" % i for i in range(n)))
    sfx = "" if target == "gfx90a" else " dim:SQ_RSRC_IMG_" + dim
    if target == "gfx90a":
        op = "image_sample"
    return "%s %%[r], %s, %%[d], %%[s] dmask:0xf%s\\n %s" % (op, addr, sfx, wait), ops


def kernel(tmp, target, name, text, ops, n):
    for i in range(n):
        ops = ops.replace("A%d" % i, "c[l].s%d" % i)
    return build_cl_text("""
kernel void k(global float4 *o, constant int8 *d, global float4 *c) {
  int l = __builtin_amdgcn_workitem_id_x();
  float4 r;
  __asm volatile("%s" : [r] "=v"(r) : %s, [d] "s"(*d), [s] "s"(((constant int4 *)d)[3]));
  o[l] = r;
}
""" % (text, ops), target, os.path.join(tmp, name))


def launch(amdsim, hs, tmp, spec, data, coords, n):
    src, cf, outp = (os.path.join(tmp, f) for f in ("i.bin", "c.bin", "o.bin"))
    open(src, "wb").write(data)
    open(cf, "wb").write(struct.pack("<%df" % len(coords), *coords))
    r = run([amdsim, hs, "--kernel", "k", "--grid", str(n), "--block", str(n),
             "out:%d:%s" % (16 * n, outp), "image:%s:%s" % (spec, src), "in:" + cf])
    got = list(struct.unpack("<%df" % (4 * n), open(outp, "rb").read())) \
        if r.returncode == 0 else None
    return r, got


def mips(amdsim, tmp, target, rng):
    levels, w, h, n = 4, 12, 9, 32
    offs, off = [], 0
    for m in range(levels):
        offs.append(off)
        off = (off + max(1, w >> m) * max(1, h >> m) * 16 + 255) & ~255
    total = offs[-1] + max(1, w >> 3) * max(1, h >> 3) * 16
    vals = list(struct.unpack("<%df" % (total // 4), struct.pack(
        "<%df" % (total // 4), *[rng.uniform(-9, 9) for _ in range(total // 4)])))
    data = struct.pack("<%df" % len(vals), *vals)
    lod = target != "gfx90a"
    text, ops = sample_asm(target, "image_sample_l" if lod else "image_sample_lz", "2D",
                           3 if lod else 2)
    hs = kernel(tmp, target, "mip", text, ops, 3 if lod else 2)
    if not check(hs, "%s mip kernel builds" % target):
        return
    coords, want = [], []
    for _ in range(n):
        k = rng.randint(-1, levels + 1)
        m = min(max(k, 0), levels - 1) if lod else 0
        lw, lh = max(1, w >> m), max(1, h >> m)
        i, j = rng.randrange(lw), rng.randrange(lh)
        coords += [(i + 0.5) / lw, (j + 0.5) / lh, k + rng.uniform(-0.4, 0.4), 0.0]
        base = offs[m] // 4 + 4 * (j * lw + i)
        want += vals[base:base + 4]
    spec = "rgba32f/mip%d:%dx%d" % (levels if lod else 1, w, h)
    if not lod:  # gfx90a: one level (what its one_level leaves to sample)
        data = data[:w * h * 16]
    r, got = launch(amdsim, hs, tmp, spec, data, coords, n)
    if check(got is not None, "%s mip sample: %s" % (target, r.stderr[:300])):
        check(got == want, "%s mip sample: got %s, expected %s" % (target, got[:8], want[:8]))


def trilinear(amdsim, tmp, target, rng):
    w, h, d, n = 4, 3, 3, 32
    text, ops = sample_asm(target, "image_sample_lz", "3D", 3)
    hs = kernel(tmp, target, "tri", text, ops, 3)
    if not check(hs, "%s trilinear kernel builds" % target):
        return
    vals = list(struct.unpack("<%df" % (4 * w * h * d), struct.pack(
        "<%df" % (4 * w * h * d), *[rng.uniform(-9, 9) for _ in range(4 * w * h * d)])))
    coords, want = [], []
    for _ in range(n):
        axes = []
        for size in (w, h, d):
            k = rng.randrange(0, 256 * (size - 1))  # inside: clamp never reached
            axes.append((k // 256, (k % 256) / 256.0))
            coords.append((k / 256.0 + 0.5 + rng.uniform(-0.3, 0.3) / 256) / size)
        coords.append(0.0)
        acc = [0.0] * 4
        for c in range(8):
            wgt, at = 1.0, []
            for a, (i, f) in enumerate(axes):
                bit = c >> a & 1
                wgt *= f if bit else 1 - f
                at.append(i + bit)
            base = 4 * ((at[2] * h + at[1]) * w + at[0])
            acc = [x + wgt * v for x, v in zip(acc, vals[base:base + 4])]
        want += acc
    r, got = launch(amdsim, hs, tmp, "rgba32f/bilinear/clamp:%dx%dx%d" % (w, h, d),
                    struct.pack("<%df" % len(vals), *vals), coords, n)
    if check(got is not None, "%s trilinear: %s" % (target, r.stderr[:300])):
        bad = [i for i, (g, e) in enumerate(zip(got, want)) if abs(g - e) > 1e-5 * (1 + abs(e))]
        check(not bad, "%s trilinear: %d differ, first %s" % (
            target, len(bad), bad and (got[bad[0]], want[bad[0]])))


def main():
    amdsim = sys.argv[1]
    rng = random.Random(29)
    with tempfile.TemporaryDirectory() as tmp:
        for target in ("gfx90a", "gfx1030", "gfx1100", "gfx1200"):
            mips(amdsim, tmp, target, rng)
            trilinear(amdsim, tmp, target, rng)
    finish()


if __name__ == "__main__":
    main()
