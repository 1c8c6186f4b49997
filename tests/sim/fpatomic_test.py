#!/usr/bin/env python3
"""amdsim's float atomic min/max on LDS (suite 'sim'), five targets: ds_min_f32/ds_max_f32
(gfx12: ds_min_num_f32/ds_max_num_f32) with NaNs, signed zeros, infinities and denormals on
either side.  References from the ISA guides: before gfx12 the pseudo-code (CDNA3 and RDNA3,
DS_MIN_F32 / GLOBAL_ATOMIC_MIN_F32 alike) is `MEM = src < tmp ? src : tmp` (max: `>`) with an
IEEE compare ("floating-point compare handles NAN/INF/denorm"): a NaN on either side and equal
values keep the memory word, bits unchanged; gfx12's *_NUM_* forms follow v_min_num/v_max_num:
a NaN gives the other operand (two NaNs: the memory word quieted), -0 < +0.

usage: fpatomic_test.py AMDSIM [TARGET...]"""
import math
import os
import struct
import sys
import tempfile

from simlib import TARGETS, assemble, run

LANES = 32
QNAN, QNAN_P, SNAN, NQNAN = 0x7fc00000, 0x7fc12345, 0x7fa00000, 0xffc00001
ONE, TWO, NEG1, PZERO, NZERO = 0x3f800000, 0x40000000, 0xbf800000, 0, 0x80000000
PINF, NINF, DEN1, DEN2, NDEN = 0x7f800000, 0xff800000, 1, 2, 0x80000001
# (memory word tmp, data src) per lane
PAIRS = [(ONE, TWO), (TWO, ONE), (QNAN, ONE), (ONE, QNAN), (QNAN_P, SNAN), (SNAN, QNAN_P),
         (PZERO, NZERO), (NZERO, PZERO), (PINF, NINF), (NINF, PINF), (DEN1, DEN2), (DEN2, DEN1),
         (NDEN, DEN1), (DEN1, NDEN), (NQNAN, NEG1), (NEG1, NQNAN), (SNAN, ONE), (ONE, SNAN),
         (PINF, QNAN), (QNAN, NINF), (PZERO, PZERO), (NZERO, NZERO), (ONE, ONE), (NEG1, ONE),
         (0x3f800001, ONE), (0x7f7fffff, PINF), (0x00800000, 0x007fffff), (NEG1, NZERO),
         (0xc0000000, NEG1), (TWO, 0x40000001), (QNAN, QNAN_P), (PZERO, DEN1)]


def f32(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def ref(tmp, src, is_max, num):
    t, s = f32(tmp), f32(src)
    if not num:
        return src if (s > t if is_max else s < t) else tmp
    if math.isnan(t) and math.isnan(s):
        return tmp | 0x400000
    if math.isnan(t) or math.isnan(s):
        return src if math.isnan(t) else tmp
    if s == t and (src >> 31) != (tmp >> 31):
        return src if bool(src >> 31) != is_max else tmp
    return src if (s > t if is_max else s < t) else tmp


def kernel_src(t):
    wave = 32 if t in ("gfx1030", "gfx1100", "gfx1200") else 64
    g12 = t == "gfx1200"
    kwait = "s_wait_kmcnt 0x0" if g12 else "s_waitcnt lgkmcnt(0)"
    dwait = "s_wait_dscnt 0x0" if g12 else "s_waitcnt lgkmcnt(0)"
    vwait = "s_wait_loadcnt 0x0" if g12 else "s_waitcnt vmcnt(0)"
    mn, mx = ("ds_min_num_f32", "ds_max_num_f32") if g12 else ("ds_min_f32", "ds_max_f32")
    body = ["s_load_dwordx4 s[4:7], s[0:1], 0x0", "v_lshlrev_b32 v1, 2, v0", kwait,
            "global_load_dword v2, v1, s[4:5]", "global_load_dword v3, v1, s[4:5] offset:128",
            vwait, "ds_write_b32 v1, v2", "ds_write_b32 v1, v2 offset:128", dwait,
            "%s v1, v3" % mn, "%s v1, v3 offset:128" % mx, dwait,
            "ds_read_b32 v4, v1", "ds_read_b32 v5, v1 offset:128", dwait,
            "global_store_dword v1, v4, s[6:7]", "global_store_dword v1, v5, s[6:7] offset:128",
            "s_endpgm"]
    desc = "  .amdhsa_wavefront_size32 1\n" if wave == 32 else "  .amdhsa_accum_offset 8\n"
    return """.amdgcn_target "amdgcn-amd-amdhsa--{t}"
.text
.globl fa
.p2align 8
.type fa,@function
fa:
{body}
.rodata
.p2align 6
.amdhsa_kernel fa
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 256
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_float_denorm_mode_32 3
{desc}.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: fa
    .symbol: fa.kd
    .kernarg_segment_size: 16
    .group_segment_fixed_size: 256
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: {wave}
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 64
    .args:
      - {{ .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }}
      - {{ .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }}
...
.end_amdgpu_metadata
""".format(t=t, body="\n".join("  " + ln for ln in body), desc=desc, wave=wave)


def test_target(amdsim, tmp, t):
    h, err = assemble(kernel_src(t), t, os.path.join(tmp, "fa-" + t))
    if not h:
        return ["%s: llvm-mc: %s" % (t, err[:1500])]
    inb, outb = os.path.join(tmp, "fa.in"), os.path.join(tmp, "fa.out")
    open(inb, "wb").write(struct.pack("<64I", *([p[0] for p in PAIRS] + [p[1] for p in PAIRS])))
    r = run([amdsim, h, "--kernel", "fa", "--grid", "1", "--block", str(LANES), "in:" + inb,
             "out:256:" + outb])
    if r.returncode:
        return ["%s: amdsim exit %d: %s" % (t, r.returncode, r.stderr[:800])]
    got = struct.unpack("<64I", open(outb, "rb").read())
    errs = []
    for k, (tmp_w, src_w) in enumerate(PAIRS):
        for is_max in (False, True):
            want = ref(tmp_w, src_w, is_max, t == "gfx1200")
            have = got[k + LANES * is_max]
            if have != want:
                errs.append("%s %s(mem %#010x, data %#010x) = %#010x, expected %#010x"
                            % (t, "max" if is_max else "min", tmp_w, src_w, have, want))
    return errs


def main():
    amdsim = sys.argv[1]
    errs = []
    with tempfile.TemporaryDirectory() as tmp:
        for t in sys.argv[2:] or TARGETS:
            errs += test_target(amdsim, tmp, t)
    for e in errs:
        print(e)
    print("%d failure(s)" % len(errs) if errs else "ok")
    return 1 if errs else 0


sys.exit(main())
