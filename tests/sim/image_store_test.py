#!/usr/bin/env python3
"""amdsim's image_load/image_store on 1D and 2D arrays and image_store's format conversion
(docs/TEXTURES.md "Surfaces", "Formatted stores"; src/sim/sem_image.c) on clang-19 inline-asm
kernels against CPU references, on gfx90a, gfx1030, gfx1100 and gfx1200: the texel at (x, slice)
of a 1D array and (x, y, slice) of a 2D array, the slices one after the other (image_load of
rgba32ui, image_store of it), and image_store dmask 0xf of four f32/u32 components to r32f,
rgba8 (unorm: clamped to [0, 1], times 255, rounded to the nearest: values within 0.1 of a step
here), r8 and rgba8ui (the components past the format's channels dropped).
usage: image_store_test.py AMDSIM"""
import os
import random
import struct
import sys
import tempfile

from simlib import build_cl_text, check, finish, run

TARGETS = ("gfx90a", "gfx1030", "gfx1100", "gfx1200")


def image_op(target, op, dim, coords):
    """Inline asm of `op` (image_load %[r] / image_store %[v]) at the address coords (C
    expressions) of dim (1D, 2D, 1D_ARRAY, 2D_ARRAY) in target syntax, and its operands."""
    n = len(coords)
    if target == "gfx1200":
        addr = "[%s]" % ", ".join("%%[a%d]" % i for i in range(n))
        ops = ", ".join('[a%d] "v"(%s)' % (i, c) for i, c in enumerate(coords))
        sfx = " dim:SQ_RSRC_IMG_" + dim
    else:
        addr = "%[a]"
        vec = coords[0] if n == 1 else "(int%d)(%s)" % (n, ", ".join(coords))
        ops = '[a] "v"(%s)' % vec
        sfx = (" unorm" + (" da" if "ARRAY" in dim else "") if target == "gfx90a" else
               " dim:SQ_RSRC_IMG_%s unorm" % dim)
    wait = "s_wait_loadcnt 0\\n s_wait_storecnt 0" if target == "gfx1200" else "s_waitcnt vmcnt(0)"
    return "%s, %s, %%[d] dmask:0xf%s\\n %s" % (op, addr, sfx, wait), ops


def arrays(amdsim, tmp, target, rng):
    """image_load and image_store of rgba32ui texels in 1D and 2D arrays."""
    for dim, (w, h, d) in (("1D_ARRAY", (5, 1, 3)), ("2D_ARRAY", (3, 2, 3))):
        x, y, z = "l % w", "(l / w) % h", "l / (w * h)"
        coords = [x, z] if dim == "1D_ARRAY" else [x, y, z]
        ld, lops = image_op(target, "image_load %[r]", dim, coords)
        st, sops = image_op(target, "image_store %[v]", dim, coords)
        hs = build_cl_text("""
kernel void k(global uint4 *o, constant int8 *d, int w, int h, int store) {
  int l = __builtin_amdgcn_workitem_id_x();
  uint4 r = 7, v = (uint4)(l, 3 * l + 1, ~l, l << 8);
  if (store) __asm volatile("%s" : : [v] "v"(v), %s, [d] "s"(*d) : "memory");
  else __asm volatile("%s" : [r] "=v"(r) : %s, [d] "s"(*d));
  o[l] = r;
}
""" % (st, sops, ld, lops), target, os.path.join(tmp, "arr" + dim))
        if not check(hs, "%s %s kernel builds" % (target, dim)):
            continue
        n = w * h * d
        data = bytes(rng.randrange(256) for _ in range(16 * n))
        src, outp, img = (os.path.join(tmp, f) for f in ("a.bin", "a.out", "a.img"))
        open(src, "wb").write(data)
        size = "%dx%d" % (w, d) if dim == "1D_ARRAY" else "%dx%dx%d" % (w, h, d)
        for store in (0, 1):
            r = run([amdsim, hs, "--kernel", "k", "--grid", str(n), "--block", str(n),
                     "out:%d:%s" % (16 * n, outp),
                     "image:rgba32ui/array:%s:%s:%s" % (size, src, img),
                     "i32:%d" % w, "i32:%d" % h, "i32:%d" % store])
            if not check(r.returncode == 0, "%s %s store=%d: %s" % (
                    target, dim, store, r.stderr[:300])):
                continue
            if store:  # texel l (slices one after the other) holds lane l's value
                want = [v & 0xffffffff for l in range(n) for v in (l, 3 * l + 1, ~l, l << 8)]
                got = list(struct.unpack("<%dI" % (4 * n), open(img, "rb").read()))
            else:
                want = list(struct.unpack("<%dI" % (4 * n), data))
                got = list(struct.unpack("<%dI" % (4 * n), open(outp, "rb").read()))
            check(got == want, "%s %s image_%s: got %s, expected %s" % (
                target, dim, "store" if store else "load", got[:8], want[:8]))


def conversions(amdsim, tmp, target, rng):
    """image_store dmask 0xf of four components to formats of fewer or narrower channels."""
    n = 16
    st, ops = image_op(target, "image_store %[v]", "1D", ["l"])
    hs = build_cl_text("""
kernel void k(constant int8 *d, global uint4 *c) {
  int l = __builtin_amdgcn_workitem_id_x();
  uint4 v = c[l];
  __asm volatile("%s" : : [v] "v"(v), %s, [d] "s"(*d) : "memory");
}
""" % (st, ops), target, os.path.join(tmp, "conv"))
    if not check(hs, "%s conversion kernel builds" % target):
        return
    for fmt, ch, nb in (("r32f", 1, 4), ("rgba8", 4, 1), ("r8", 1, 1), ("rgba8ui", 4, 1)):
        words, want = [], []
        for _ in range(n):
            for c in range(4):
                if fmt == "r32f":
                    v = struct.unpack("<I", struct.pack("<f", rng.uniform(-9, 9)))[0]
                    bits = v
                elif fmt == "rgba8ui":
                    v = bits = rng.randrange(256)
                else:
                    k = rng.randrange(256)
                    x = rng.choice((-0.5, 2.0)) if rng.random() < 0.2 else \
                        (k + rng.uniform(-0.1, 0.1)) / 255
                    v = struct.unpack("<I", struct.pack("<f", x))[0]
                    bits = 0 if x < 0 else 255 if x > 1 else k
                words.append(v)
                if c < ch:
                    want += list(bits.to_bytes(nb, "little"))
        src, cf, img = (os.path.join(tmp, f) for f in ("c.bin", "c.in", "c.img"))
        open(src, "wb").write(bytes(n * ch * nb))
        open(cf, "wb").write(struct.pack("<%dI" % len(words), *words))
        r = run([amdsim, hs, "--kernel", "k", "--grid", str(n), "--block", str(n),
                 "image:%s:%d:%s:%s" % (fmt, n, src, img), "in:" + cf])
        if check(r.returncode == 0, "%s image_store to %s: %s" % (target, fmt, r.stderr[:300])):
            got = list(open(img, "rb").read())
            check(got == want, "%s image_store to %s: got %s, expected %s" % (
                target, fmt, got[:16], want[:16]))


def main():
    amdsim = sys.argv[1]
    rng = random.Random(17)
    with tempfile.TemporaryDirectory() as tmp:
        for target in TARGETS:
            arrays(amdsim, tmp, target, rng)
            conversions(amdsim, tmp, target, rng)
    finish()


if __name__ == "__main__":
    main()
