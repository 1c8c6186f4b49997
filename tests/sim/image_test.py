#!/usr/bin/env python3
"""amdsim's image instructions (docs/TEXTURES.md, src/sim/sem_image.c) on clang-19 inline-asm
kernels against CPU references from the texel format rules and point sampling, on gfx90a,
gfx1030, gfx1100 and gfx1200 (gfx942 has none): image_load/image_store, image_sample_lz
(gfx90a image_sample) under every address mode, image_sample_l/_d, image_gather4_lz, 3D and 2D
array sampling, buffer_load_format_xyzw through a linear texture's V#; image arguments built by
amdsim as HIP's descriptor block (T# at dword 0, S# at dword 12) in each generation's layout.
Also the cube-map face selection v_cubeid/sc/tc/ma_f32 (clang-19's __builtin_amdgcn_cube*) on
all five targets against the ISA documents' pseudo-code (cube_ref).

usage: image_test.py AMDSIM"""
import math
import os
import random
import struct
import sys
import tempfile

from simlib import build_cl_text, check, finish, read_words, run


IMG_FORMATS = {  # name: (channels, bytes per channel, kind) -- docs/TEXTURES.md
    "r32f": (1, 4, "f"), "r32ui": (1, 4, "u"), "rg32f": (2, 4, "f"), "rgba32f": (4, 4, "f"),
    "rgba32ui": (4, 4, "u"), "r8": (1, 1, "unorm"), "r8ui": (1, 1, "u"),
    "rgba8": (4, 1, "unorm")}


def img_kernel(tmp, target, name, body):
    """An OpenCL kernel with the image instruction in inline asm (clang-19 assembles it),
    linked to a code object; a failure to build stops the script."""
    hs = build_cl_text(body, target, os.path.join(tmp, name))
    if not hs:
        finish()
    return hs


def texel_ref(fmt, data, index, dmask):
    """What image_load returns for texel `index` (CPU reference from the format rules: channels
    widened, unorm8 v / 255, the missing ones 0 and alpha 1), the dmask components, as u32."""
    ch, nb, kind = IMG_FORMATS[fmt]
    one = 0x3f800000 if kind in ("f", "unorm") else 1
    comp = [0, 0, 0, one]
    for c in range(ch):
        v = int.from_bytes(data[(index * ch + c) * nb:(index * ch + c + 1) * nb], "little")
        if kind == "unorm":
            v = struct.unpack("<I", struct.pack("<f", v / 255.0))[0]
        comp[c] = v
    return [comp[i] for i in range(4) if dmask >> i & 1]


# The image instructions' syntax per target: gfx90a's MIMG has no dim (the resource's type
# decides) and no image_sample_lz; gfx12's VIMAGE/VSAMPLE take the address VGPRs as a list and
# image_load/image_store have no unorm bit.
IMG_SYNTAX = {  # target: (2D address, its operands, load/store suffix, sample, sample suffix)
    "gfx90a": ("%[xy]", '[xy] "v"((int2)(X, Y))', " unorm", "image_sample", ""),
    "gfx1030": ("%[xy]", '[xy] "v"((int2)(X, Y))', " dim:SQ_RSRC_IMG_2D unorm",
                "image_sample_lz", " dim:SQ_RSRC_IMG_2D"),
    "gfx1200": ("[%[x], %[y]]", '[x] "v"(X), [y] "v"(Y)', " dim:SQ_RSRC_IMG_2D",
                "image_sample_lz", " dim:SQ_RSRC_IMG_2D")}
IMG_SYNTAX["gfx1100"] = IMG_SYNTAX["gfx1030"]


def img_asm(target, text, x, y):
    """Inline asm text and its input operands with the 2D address of (x, y) in target syntax:
    ADDR in text is the address, SFX the load/store suffix, SAMPLE/SSFX the sampling op."""
    addr, opnds, sfx, sample, ssfx = IMG_SYNTAX[target]
    text = text.replace("ADDR", addr).replace("SSFX", ssfx).replace("SFX", sfx)
    wait = "s_wait_loadcnt 0\\n s_wait_storecnt 0" if target == "gfx1200" else "s_waitcnt vmcnt(0)"
    text = text.replace("SAMPLE", sample) + "\\n " + wait
    return text, opnds.replace("X", x).replace("Y", y)


def test_image(amdsim, tmp):
    """amdsim's image_load/image_store/image_sample_lz (gfx90a: image_sample) on linear 1D/2D
    images, four targets, on clang-19 inline-asm kernels, against CPU references from the texel
    format rules and point sampling; image arguments built by amdsim as HIP's descriptor block
    (T# at dword 0, S# at dword 12) in each generation's layout."""
    for target in ("gfx90a", "gfx1030", "gfx1100", "gfx1200"):
        image_target(amdsim, tmp, target)
        image_sample_target(amdsim, tmp, target)
        image_fetch_target(amdsim, tmp, target)
        if target != "gfx90a":  # no image_gather4 there
            image_gather_target(amdsim, tmp, target)
            image_gather_array_target(amdsim, tmp, target)
        image_layered_target(amdsim, tmp, target)
    for target in ("gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"):
        cube_target(amdsim, tmp, target)


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def cube_ref(x, y, z):
    """(id, sc, tc, ma) of V_CUBEID/SC/TC/MA_F32 as the pseudo-code of AMD's ISA documents
    (Vega, CDNA, RDNA 1-4) states them: major axis z when |z| >= |x| and |z| >= |y|, else y
    when |y| >= |x|, else x; ma twice the signed major coordinate.  NaNs compare false."""
    if abs(z) >= abs(x) and abs(z) >= abs(y):
        return (5.0 if z < 0 else 4.0), (-x if z < 0 else x), -y, f32(2.0 * z)
    if abs(y) >= abs(x):
        return (3.0 if y < 0 else 2.0), x, (-z if y < 0 else z), f32(2.0 * y)
    return (1.0 if x < 0 else 0.0), (z if x < 0 else -z), -y, f32(2.0 * x)


def cube_target(amdsim, tmp, target):
    """v_cubeid/sc/tc/ma_f32 (clang-19 -O3 selects them for the builtins) over random directions
    and the ties between axes (|x| = |y| = |z| in every sign, zeros of either sign, one NaN
    operand), bit-exact against cube_ref."""
    hs = img_kernel(tmp, target, "cube", """
kernel void cube(global float4 *o, global float4 *c) {
  int l = __builtin_amdgcn_workitem_id_x();
  float x = c[l].x, y = c[l].y, z = c[l].z;
  o[l] = (float4)(__builtin_amdgcn_cubeid(x, y, z), __builtin_amdgcn_cubesc(x, y, z),
                  __builtin_amdgcn_cubetc(x, y, z), __builtin_amdgcn_cubema(x, y, z));
}
""")
    dis = run(["llvm-objdump-19", "-d", "--mcpu=" + target, hs]).stdout
    for op in ("v_cubeid_f32", "v_cubesc_f32", "v_cubetc_f32", "v_cubema_f32"):
        check(op in dis, "%s: clang-19 did not emit %s" % (target, op))
    rng = random.Random(23)
    dirs = [(sx * 1.0, sy * 1.0, sz * 1.0) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
    dirs += [(0.0, 0.0, 0.0), (-0.0, -0.0, -0.0), (0.0, -0.0, 0.0), (-0.0, 0.0, -0.0),
             (2.0, -2.0, 1.0), (-1.0, 3.0, -3.0), (1.5, 0.25, -1.5), (math.nan, 1.0, 2.0),
             (1.0, math.nan, 0.5), (3.0, 1.0, math.nan)]
    while len(dirs) < 64:
        dirs.append(tuple(f32(rng.choice((-1, 1)) * rng.uniform(0, 8) ** rng.choice((1, 2)))
                          for _ in range(3)))
    n = len(dirs)
    coords = [v for d in dirs for v in d + (0.0,)]
    cf, outp = os.path.join(tmp, "cube.in"), os.path.join(tmp, "cube.out")
    open(cf, "wb").write(struct.pack("<%df" % len(coords), *coords))
    r = run([amdsim, hs, "--kernel", "cube", "--grid", str(n), "--block", str(n),
             "out:%d:%s" % (16 * n, outp), "in:" + cf])
    if not check(r.returncode == 0, "%s cube: %s" % (target, r.stderr[:300])):
        return
    got = read_words(outp, "I")
    for i, d in enumerate(dirs):
        want = [struct.unpack("<I", struct.pack("<f", v))[0] for v in cube_ref(*d)]
        have = got[4 * i:4 * i + 4]
        same = all(a == b or (math.isnan(struct.unpack("<f", struct.pack("<I", a))[0]) and
                              math.isnan(struct.unpack("<f", struct.pack("<I", b))[0]))
                   for a, b in zip(have, want))
        check(same, "%s cube%s: got %s, expected %s" % (
            target, d, [hex(v) for v in have], [hex(v) for v in want]))


def image_target(amdsim, tmp, target):
    w, h = 5, 3
    ld15, ops = img_asm(target, "image_load %[r], ADDR, %[d] dmask:0xfSFX", "l % w", "l / w")
    ld5, _ = img_asm(target, "image_load %[r], ADDR, %[d] dmask:0x5SFX", "l % w", "l / w")
    load = img_kernel(tmp, target, "imgld", """
kernel void ld(global uint *o, constant int8 *d, int w, int dm) {
  int l = __builtin_amdgcn_workitem_id_x();
  uint4 r = 7;
  if (dm == 15) __asm volatile("%s" : [r] "=v"(r) : %s, [d] "s"(*d));
  else __asm volatile("%s" : [r] "=v"(r.xy) : %s, [d] "s"(*d));
  ((global uint4 *)o)[l] = r;
}
""" % (ld15, ops, ld5, ops))
    rng = random.Random(5)
    for fmt, (ch, nb, kind) in sorted(IMG_FORMATS.items()):
        for dmask in (0xf, 0x5):
            data = bytes(rng.randrange(256) for _ in range(w * h * ch * nb))
            src, outp = os.path.join(tmp, "tex.bin"), os.path.join(tmp, "ld.out")
            open(src, "wb").write(data)
            r = run([amdsim, load, "--kernel", "ld", "--grid", str(w * h), "--block",
                     str(w * h), "out:%d:%s" % (16 * w * h, outp),
                     "image:%s:%dx%d:%s" % (fmt, w, h, src), "i32:%d" % w, "i32:%d" % dmask])
            if not check(r.returncode == 0, "image_load %s: %s" % (fmt, r.stderr[:300])):
                continue
            got = read_words(outp, "I")
            bad = []
            for i in range(w * h):
                want = texel_ref(fmt, data, i, dmask)
                want += [7] * (4 - len(want))
                if got[4 * i:4 * i + 4] != want:
                    bad.append((i, got[4 * i:4 * i + 4], want))
            check(not bad, "%s image_load %s dmask 0x%x: %s" % (target, fmt, dmask, bad[:3]))
    # image_store of all channels of a 32-bit format: the texels come back in the image
    st, ops = img_asm(target, "image_store %[v], ADDR, %[d] dmask:0xfSFX", "l % w", "l / w")
    store = img_kernel(tmp, target, "imgst", """
kernel void st(constant int8 *d, int w) {
  int l = __builtin_amdgcn_workitem_id_x();
  float4 v = (float4)(l, l * 0.5f, -l, l + 0.25f);
  __asm volatile("%s" : : [v] "v"(v), %s, [d] "s"(*d) : "memory");
}
""" % (st, ops))
    src, outp = os.path.join(tmp, "st.bin"), os.path.join(tmp, "st.out")
    open(src, "wb").write(bytes(16 * w * h))
    r = run([amdsim, store, "--kernel", "st", "--grid", str(w * h), "--block", str(w * h),
             "image:rgba32f:%dx%d:%s:%s" % (w, h, src, outp), "i32:%d" % w])
    if check(r.returncode == 0, "image_store: %s" % r.stderr[:300]):
        got = struct.unpack("<%df" % (4 * w * h), open(outp, "rb").read())
        want = [x for l in range(w * h) for x in (l, l * 0.5, -l, l + 0.25)]
        check(list(got) == want, "%s image_store rgba32f: %s" % (target, got[:8]))
    # the strict checker knows image_load's counter: its result read without a wait
    sfx = IMG_SYNTAX[target][2].replace("2D", "1D")
    nowait = img_kernel(tmp, target, "imgnw", """
kernel void nw(global uint *o, constant int8 *d) {
  int l = __builtin_amdgcn_workitem_id_x();
  uint r;
  __asm volatile("image_load %%0, %%1, %%2 dmask:0x1%s"
      : "=v"(r) : "v"(l), "s"(*d));
  o[l] = r;
}
""" % sfx)
    open(src, "wb").write(bytes(4 * w))
    r = run([amdsim, nowait, "--kernel", "nw", "--grid", str(w), "--block", str(w),
             "out:%d:%s" % (4 * w, outp), "image:r32f:%d:%s" % (w, src)])
    check(r.returncode == 3 and "image_load" in r.stderr,
          "%s image_load result read without s_waitcnt: violation (exit %d: %s)" %
          (target, r.returncode, r.stderr[:300]))
    # what is not simulated stops the run naming it (a coordinate outside the image)
    data = bytes(4 * w * h)
    open(src, "wb").write(data)
    r = run([amdsim, load, "--kernel", "ld", "--grid", "64", "--block", "64",
             "out:1024:" + outp, "image:r32f:%dx%d:%s" % (w, h, src), "i32:%d" % w, "i32:15"])
    check(r.returncode == 1 and "outside the 5x3x1 image" in r.stderr,
          "image_load outside the image: error (exit %d: %s)" % (r.returncode, r.stderr[:200]))


def image_fetch_target(amdsim, tmp, target):
    """buffer_load_format_xyzw by index through the V# amdsim builds for a linear (1D buffer)
    texture (image:FORMAT/linear, ROCR's 1DB descriptor): each element converted by its format
    (float and integer bits as they are, unorm8 v / 255, missing channels 0 and alpha 1)."""
    wait = "s_wait_loadcnt 0" if target == "gfx1200" else "s_waitcnt vmcnt(0)"
    soff = "null" if target == "gfx1200" else "0"
    hs = img_kernel(tmp, target, "imgbf", """
kernel void bf(global uint4 *o, constant int4 *d) {
  int l = __builtin_amdgcn_workitem_id_x();
  uint4 r;
  __asm volatile("buffer_load_format_xyzw %%0, %%1, %%2, %s idxen\\n %s"
      : "=v"(r) : "v"(l), "s"(*d));
  o[l] = r;
}
""" % (soff, wait))
    rng = random.Random(9)
    for fmt, (ch, nb, kind) in sorted(IMG_FORMATS.items()):
        n = rng.randint(1, 40)
        data = bytes(rng.randrange(256) for _ in range(n * ch * nb))
        src, outp = os.path.join(tmp, "lin.bin"), os.path.join(tmp, "lin.out")
        open(src, "wb").write(data)
        r = run([amdsim, hs, "--kernel", "bf", "--grid", str(n), "--block", str(n),
                 "out:%d:%s" % (16 * n, outp), "image:%s/linear:%d:%s" % (fmt, n, src)])
        if not check(r.returncode == 0, "%s buffer_load_format %s: %s" % (
                target, fmt, r.stderr[:300])):
            continue
        got = read_words(outp, "I")
        want = [x for i in range(n) for x in texel_ref(fmt, data, i, 0xf)]
        check(got == want, "%s buffer_load_format %s: got %s, expected %s" % (
            target, fmt, got[:8], want[:8]))


def image_gather_target(amdsim, tmp, target):
    """image_gather4_lz of each channel of 2D rgba32f images (wrap, mirror, clamp, white border)
    at points a quarter texel off the centres: the four texels of the bilinear footprint,
    counter-clockwise from the lower left ((i0, j1), (i1, j1), (i1, j0), (i0, j0), i0 =
    floor(u * w - 0.5)), as D3D's gather4 defines it."""
    rng = random.Random(11)
    for ch in range(4):
        text, ops = img_asm(target, "image_gather4_lz %%[r], ADDR, %%[d], %%[s] dmask:0x%xSSFX"
                            % (1 << ch), "c[l].x", "c[l].y")
        hs = img_kernel(tmp, target, "imgg%d" % ch, """
kernel void g(global float4 *o, constant int8 *d, global float2 *c) {
  int l = __builtin_amdgcn_workitem_id_x();
  float4 r;
  __asm volatile("%s"
      : [r] "=v"(r) : %s, [d] "s"(*d), [s] "s"(((constant int4 *)d)[3]));
  o[l] = r;
}
""" % (text.replace("%%", "%"), ops.replace("int2", "float2")))
        for opts, mode in (("", "wrap"), ("/mirror", "mirror"), ("/clamp", "clamp"),
                           ("/border/white", "border")):
            w, h, n = rng.randint(1, 6), rng.randint(1, 4), 32
            vals = [rng.uniform(-50, 50) for _ in range(4 * w * h)]
            data = struct.pack("<%df" % len(vals), *vals)
            vals = list(struct.unpack("<%df" % len(vals), data))
            coords, want = [], []
            for _ in range(n):
                u = (rng.randrange(-2 * w, 3 * w) + rng.choice((0.25, 0.75))) / w
                v = (rng.randrange(-2 * h, 3 * h) + rng.choice((0.25, 0.75))) / h
                coords += [u, v]
                i0, j0 = math.floor(u * w - 0.5), math.floor(v * h - 0.5)
                for di, dj in ((0, 1), (1, 1), (1, 0), (0, 0)):
                    x, y = point_index(i0 + di, w, mode), point_index(j0 + dj, h, mode)
                    want.append(1.0 if x < 0 or y < 0 else vals[4 * (y * w + x) + ch])
            src, cf, outp = (os.path.join(tmp, f) for f in ("g.bin", "c.bin", "g.out"))
            open(src, "wb").write(data)
            open(cf, "wb").write(struct.pack("<%df" % len(coords), *coords))
            r = run([amdsim, hs, "--kernel", "g", "--grid", str(n), "--block", str(n),
                     "out:%d:%s" % (16 * n, outp), "image:rgba32f%s:%dx%d:%s" % (opts, w, h, src),
                     "in:" + cf])
            if not check(r.returncode == 0, "%s image_gather4_lz %s: %s" % (
                    target, opts, r.stderr[:300])):
                continue
            got = list(struct.unpack("<%df" % (4 * n), open(outp, "rb").read()))
            check(got == want, "%s image_gather4_lz ch %d %s %dx%d: got %s, expected %s" % (
                target, ch, opts, w, h, got[:8], want[:8]))


def image_gather_array_target(amdsim, tmp, target):
    """image_gather4_lz dim 2D_ARRAY (x, y, then the slice as a float: rounded to the nearest,
    clamped to the layers) of each channel of rgba32f 2D arrays under clamp: the footprint of
    image_gather_target in that slice."""
    rng = random.Random(17)
    wait = "s_wait_loadcnt 0" if target == "gfx1200" else "s_waitcnt vmcnt(0)"
    for ch in range(4):
        if target == "gfx1200":
            addr, ops = "[%[x], %[y], %[z]]", '[x] "v"(c[l].x), [y] "v"(c[l].y), [z] "v"(c[l].z)'
        else:
            addr, ops = "%[a]", '[a] "v"((float3)(c[l].x, c[l].y, c[l].z))'
        hs = img_kernel(tmp, target, "imgga%d" % ch, """
kernel void g(global float4 *o, constant int8 *d, global float4 *c) {
  int l = __builtin_amdgcn_workitem_id_x();
  float4 r;
  __asm volatile("image_gather4_lz %%[r], %s, %%[d], %%[s] dmask:0x%x dim:SQ_RSRC_IMG_2D_ARRAY\\n %s"
      : [r] "=v"(r) : %s, [d] "s"(*d), [s] "s"(((constant int4 *)d)[3]));
  o[l] = r;
}
""" % (addr, 1 << ch, wait, ops))
        w, h, dd, n = rng.randint(1, 6), rng.randint(1, 4), rng.randint(1, 4), 32
        vals = [rng.uniform(-50, 50) for _ in range(4 * w * h * dd)]
        data = struct.pack("<%df" % len(vals), *vals)
        vals = list(struct.unpack("<%df" % len(vals), data))
        coords, want = [], []
        for _ in range(n):
            u = (rng.randrange(-2 * w, 3 * w) + rng.choice((0.25, 0.75))) / w
            v = (rng.randrange(-2 * h, 3 * h) + rng.choice((0.25, 0.75))) / h
            layer = rng.randrange(-2, dd + 2)
            coords += [u, v, layer + rng.choice((-0.3, 0.0, 0.3)), 0.0]
            z = min(max(layer, 0), dd - 1)
            i0, j0 = math.floor(u * w - 0.5), math.floor(v * h - 0.5)
            for di, dj in ((0, 1), (1, 1), (1, 0), (0, 0)):
                x, y = point_index(i0 + di, w, "clamp"), point_index(j0 + dj, h, "clamp")
                want.append(vals[4 * ((z * h + y) * w + x) + ch])
        src, cf, outp = (os.path.join(tmp, f) for f in ("ga.bin", "ca.bin", "ga.out"))
        open(src, "wb").write(data)
        open(cf, "wb").write(struct.pack("<%df" % len(coords), *coords))
        r = run([amdsim, hs, "--kernel", "g", "--grid", str(n), "--block", str(n),
                 "out:%d:%s" % (16 * n, outp),
                 "image:rgba32f/clamp/array:%dx%dx%d:%s" % (w, h, dd, src), "in:" + cf])
        if not check(r.returncode == 0, "%s image_gather4_lz 2D_ARRAY: %s" % (
                target, r.stderr[:300])):
            continue
        got = list(struct.unpack("<%df" % (4 * n), open(outp, "rb").read()))
        check(got == want, "%s image_gather4_lz 2D_ARRAY ch %d %dx%dx%d: got %s, expected %s" % (
            target, ch, w, h, dd, got[:8], want[:8]))


def image_layered_target(amdsim, tmp, target):
    """image_sample_lz (gfx90a: image_sample, `da` for arrays) and image_sample_l (LOD 0 after
    the address; not gfx90a) of 3D images (x, y, z normalized, the address mode on all three), 2D
    and 1D arrays (x[, y], then the slice as a float: rounded to the nearest and clamped to the
    layers; the faces of a cube map are such slices), rgba32f, against the CPU's texel choice."""
    rng = random.Random(13)
    wait = "s_wait_loadcnt 0" if target == "gfx1200" else "s_waitcnt vmcnt(0)"
    forms = [(g, lz) for g in ("3D", "2D_ARRAY", "1D_ARRAY") for lz in (True, False)
             if lz or target != "gfx90a"]  # image_sample_l (LOD c[l].w, 0): not on gfx90a
    for geom, lz in forms:
        one = geom == "1D_ARRAY"  # (x, slice): the slice in c[l].z, c[l].y unused
        vec = '[a] "v"((float2)(c[l].x, c[l].z))' if one else \
            '[a] "v"((float3)(c[l].x, c[l].y, c[l].z))'
        if not lz:
            vec = '[a] "v"((float3)(c[l].x, c[l].z, c[l].w))' if one else \
                '[a] "v"((float4)(c[l].x, c[l].y, c[l].z, c[l].w))'
        name = "image_sample_lz" if lz else "image_sample_l"
        if target == "gfx90a":
            op = "image_sample %[r], %[a], %[d], %[s] dmask:0xf" + (" da" if geom != "3D" else "")
            ops = vec
        elif target == "gfx1200":
            op = "%s %%[r], [%s%s], %%[d], %%[s] dmask:0xf dim:SQ_RSRC_IMG_%s" % (
                name, "%[x], %[z]" if one else "%[x], %[y], %[z]", "" if lz else ", %[w]", geom)
            ops = '[x] "v"(c[l].x), [z] "v"(c[l].z)' if one else \
                '[x] "v"(c[l].x), [y] "v"(c[l].y), [z] "v"(c[l].z)'
            ops += "" if lz else ', [w] "v"(c[l].w)'
        else:
            op = name + " %[r], %[a], %[d], %[s] dmask:0xf dim:SQ_RSRC_IMG_" + geom
            ops = vec
        hs = img_kernel(tmp, target, "imgl" + geom + name, """
kernel void s3(global float4 *o, constant int8 *d, global float4 *c) {
  int l = __builtin_amdgcn_workitem_id_x();
  float4 r;
  __asm volatile("%s\\n %s"
      : [r] "=v"(r) : %s, [d] "s"(*d), [s] "s"(((constant int4 *)d)[3]));
  o[l] = r;
}
""" % (op, wait, ops))
        for opts, mode in (("", "wrap"), ("/clamp", "clamp"), ("/border", "border")):
            w, h, dd, n = rng.randint(1, 5), rng.randint(1, 4), rng.randint(1, 4), 32
            h = 1 if one else h
            vals = [rng.uniform(-50, 50) for _ in range(4 * w * h * dd)]
            data = struct.pack("<%df" % len(vals), *vals)
            vals = list(struct.unpack("<%df" % len(vals), data))
            coords, want = [], []
            for _ in range(n):
                i, j = rng.randrange(-2 * w, 3 * w), rng.randrange(-2 * h, 3 * h)
                j = 0 if one else j
                x, y = point_index(i, w, mode), point_index(j, h, mode)
                if geom == "3D":
                    k = rng.randrange(-2 * dd, 3 * dd)
                    z, zc = point_index(k, dd, mode), (k + 0.5) / dd
                else:
                    layer = rng.randrange(-2, dd + 2)
                    z, zc = min(max(layer, 0), dd - 1), layer + rng.choice((-0.3, 0.0, 0.3))
                coords += [(i + 0.5) / w, (j + 0.5) / h, zc, 0.0]
                base = 4 * ((z * h + y) * w + x)
                want += [0.0] * 4 if x < 0 or y < 0 or z < 0 else vals[base:base + 4]
            src, cf, outp = (os.path.join(tmp, f) for f in ("l.bin", "c.bin", "l.out"))
            open(src, "wb").write(data)
            open(cf, "wb").write(struct.pack("<%df" % len(coords), *coords))
            arr = "/array" if geom != "3D" else ""
            size = "%dx%d" % (w, dd) if one else "%dx%dx%d" % (w, h, dd)
            r = run([amdsim, hs, "--kernel", "s3", "--grid", str(n), "--block", str(n),
                     "out:%d:%s" % (16 * n, outp),
                     "image:rgba32f%s%s:%s:%s" % (opts, arr, size, src), "in:" + cf])
            if not check(r.returncode == 0, "%s %s %s %s: %s" % (
                    target, name, geom, opts, r.stderr[:300])):
                continue
            got = list(struct.unpack("<%df" % (4 * n), open(outp, "rb").read()))
            check(got == want, "%s %s %s %s %dx%dx%d: got %s, expected %s" % (
                target, name, geom, opts, w, h, dd, got[:8], want[:8]))


def point_index(i, n, mode):
    """The texel a texel position i (its centre sampled) gives along an axis of n under the
    sampler's CLAMP mode (AMD's wrap, mirror, clamp to the last texel, border), -1 border."""
    if mode == "wrap":
        return i % n
    if mode == "mirror":
        r = i % (2 * n)
        return r if r < n else 2 * n - 1 - r
    if mode == "clamp":
        return min(max(i, 0), n - 1)
    return i if 0 <= i < n else -1


# image_sample_l (x, y, lod) and image_sample_d (ds/dx, dt/dx, ds/dy, dt/dy, s, t) address
# operands per target syntax: one tuple on gfx10/gfx11 (a float3 / double3), gfx12's list
LOD_GRAD_ASM = {
    "l": ("v[0:3]", "%[a]", '[a] "v"((float3)(c[l].x, c[l].y, 1.75f))',
          "[%[x], %[y], %[z]]", '[x] "v"(c[l].x), [y] "v"(c[l].y), [z] "v"(1.75f)'),
    "d": ("v[0:3]", "%[a]",
          '[a] "v"((double3)(as_double((float2)(0.5f, 0.0f)), as_double((float2)(0.0f, 0.25f)),'
          ' as_double(c[l])))',
          "[%[p], %[q], %[r2], %[s3]]",
          '[p] "v"(0.5f), [q] "v"(0.0f), [r2] "v"(0.0f), [s3] "v"((float3)(0.25f, c[l].x, c[l].y))')}


def image_lod_grad_kernel(tmp, target, kind):
    """A kernel running image_sample_l or image_sample_d (clang-19 inline asm) at c[l]."""
    _, addr, ops, addr12, ops12 = LOD_GRAD_ASM[kind]
    if target == "gfx1200":
        addr, ops = addr12, ops12
    text = "image_sample_%s %%[r], %s, %%[d], %%[s] dmask:0xf dim:SQ_RSRC_IMG_2D" % (kind, addr)
    text += "\\n " + ("s_wait_loadcnt 0" if target == "gfx1200" else "s_waitcnt vmcnt(0)")
    return img_kernel(tmp, target, "imgs" + kind, """
kernel void sm(global float4 *o, constant int8 *d, global float2 *c) {
  int l = __builtin_amdgcn_workitem_id_x();
  float4 r;
  __asm volatile("%s"
      : [r] "=v"(r) : %s, [d] "s"(*d), [s] "s"(((constant int4 *)d)[3]));
  o[l] = r;
}
""" % (text, ops))


def image_sample_target(amdsim, tmp, target):
    """Point sampling (image_sample_lz; gfx90a image_sample over a one-level image) of 2D rgba32f
    and rgba8 images at texel centres up to two periods outside, normalized and unnormalized
    coordinates, every address mode, against the CPU's texel choice and border colour."""
    smp, ops = img_asm(target, "SAMPLE %[r], ADDR, %[d], %[s] dmask:0xfSSFX", "c[l].x", "c[l].y")
    ops = ops.replace("int2", "float2")
    kernels = {IMG_SYNTAX[target][3]: img_kernel(tmp, target, "imgsm", """
kernel void sm(global float4 *o, constant int8 *d, global float2 *c) {
  int l = __builtin_amdgcn_workitem_id_x();
  float4 r;
  __asm volatile("%s"
      : [r] "=v"(r) : %s, [d] "s"(*d), [s] "s"(((constant int4 *)d)[3]));
  o[l] = r;
}
""" % (smp, ops))}
    if target != "gfx90a":  # gfx90a has no image_sample_l/_d
        for kind in ("l", "d"):
            kernels["image_sample_" + kind] = image_lod_grad_kernel(tmp, target, kind)
    for name, hs in sorted(kernels.items()):
        image_sample_cases(amdsim, tmp, target, name, hs)


def image_sample_cases(amdsim, tmp, target, name, hs):
    """Point samples of 2D rgba32f and rgba8 one-level images through the kernel hs (o[l] =
    sample at c[l]): texel centres up to two periods outside, four sampler settings."""
    rng = random.Random(7)
    for fmt in ("rgba32f", "rgba8"):
        for opts, mode, unnorm in (("", "wrap", False), ("/mirror", "mirror", False),
                                   ("/clamp/unnorm", "clamp", True),
                                   ("/border/white", "border", False)):
            w, h, n = rng.randint(1, 6), rng.randint(1, 4), 32
            nb = 4 if fmt == "rgba8" else 16
            data = bytes(rng.randrange(256) for _ in range(w * h * nb))
            if fmt == "rgba32f":
                data = struct.pack("<%df" % (4 * w * h),
                                   *[rng.uniform(-50, 50) for _ in range(4 * w * h)])
            coords, want = [], []
            for _ in range(n):
                i, j = rng.randrange(-2 * w, 3 * w), rng.randrange(-2 * h, 3 * h)
                coords += [i + 0.5, j + 0.5] if unnorm else [(i + 0.5) / w, (j + 0.5) / h]
                x, y = point_index(i, w, mode), point_index(j, h, mode)
                if x < 0 or y < 0:
                    want += [1.0] * 4
                elif fmt == "rgba8":
                    want += [struct.unpack("<f", struct.pack("<f", b / 255.0))[0]
                             for b in data[4 * (y * w + x):4 * (y * w + x) + 4]]
                else:
                    want += list(struct.unpack("<4f", data[16 * (y * w + x):16 * (y * w + x + 1)]))
            src, cf, outp = (os.path.join(tmp, f) for f in ("smp.bin", "c.bin", "smp.out"))
            open(src, "wb").write(data)
            open(cf, "wb").write(struct.pack("<%df" % len(coords), *coords))
            r = run([amdsim, hs, "--kernel", "sm", "--grid", str(n), "--block", str(n),
                     "out:%d:%s" % (16 * n, outp), "image:%s%s:%dx%d:%s" % (fmt, opts, w, h, src),
                     "in:" + cf])
            if not check(r.returncode == 0, "%s %s %s%s: %s" % (
                    target, name, fmt, opts, r.stderr[:300])):
                continue
            got = list(struct.unpack("<%df" % (4 * n), open(outp, "rb").read()))
            check(got == want, "%s %s %s%s %dx%d: got %s, expected %s" % (
                target, name, fmt, opts, w, h, got[:8], want[:8]))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        test_image(sys.argv[1], tmp)
    finish()


if __name__ == "__main__":
    main()
