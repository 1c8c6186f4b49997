#!/usr/bin/env python3
"""amdsim's matrix instructions against AMD's published operand layouts (suite 'sim').

  test_matrix.py AMDSIM layout   clang-19 kernels calling __builtin_amdgcn_mfma_* / _wmma_* /
                                 the dot builtins run in amdsim; the CPU reference places every
                                 A/B/C/D element with the tables below, written from AMD's
                                 documents (not from amdsim's code), and compares bit for bit
                                 (small-integer data: every product and sum is exact)
  test_matrix.py ISA_DUMP place  the compiler-side layout query (amd_matrix_place) against the
                                 same tables, every element of every covered row
  test_matrix.py AMDSIM hazard   clang-19's s_nop counts after each MFMA (its result read by a
                                 VALU; the same accumulator chained) equal the wait states
                                 amdsim's rules ask for: amdsim accepts clang's code and
                                 reports a hazard when one s_nop wait state is taken away;
                                 gfx11/gfx12's v_nop between dependent WMMAs likewise

Layout sources (the tables in LAYOUT below; docs/MATRIX_UNITS.md):
  [calc]  AMD Matrix Instruction Calculator (github.com/ROCm/amd_matrix_instruction_calculator):
          its README's worked examples -- v_mfma_f32_4x4x4f16 A[1][2].B4 = v1{17}.[15:0],
          D[3][2].B1 = v3{6}; v_mfma_f64_4x4x4f64 D[i][j].Bb = v[1:0]{16i + 4b + j} -- and its
          per-instruction register equations (e.g. f64 16x16x4 D in v[2*floor(i/4)+1 :
          2*floor(i/4)], 16-bit A in (floor(k/2) % 2).[16*(k%2)+15 : 16*(k%2)]).
  [cdna3] AMD CDNA3 ISA guide, "Matrix Arithmetic Instructions": the CDNA2 layouts extended to
          the new K (16x16x32 i8: 8 bytes per lane in two registers; xf32: 2 per lane).
  [rdna3] AMD RDNA3 ISA guide, WMMA section, and the calculator's RDNA3 rules: A/B rows in
          lanes 0-15, repeated in lanes 16-31; C/D row i in register i/2, lane 16*(i%2)+j.
  [rdna4] AMD RDNA4 ISA guide, WMMA section: no repetition, lanes 16-31 hold the upper K
          half; C/D row i in register i%8, lane j + 16*(i/8).  (The 8-/4-bit gfx12 packing
          is the least certain entry: see docs/MATRIX_UNITS.md.)
"""
import os
import random
import struct
import sys
import tempfile

from simlib import build_cl_text, check, disasm, finish, run, text_section


# ---- layouts written from the documents: (lane, register, sub-element) per element ----
# sub-element: index of a 16-bit half / byte / nibble inside the 32-bit register (0 for 32-
# and 64-bit values; a 64-bit value's register is the low register of its pair).

def mfma_ab(m, blocks, kpl, bits):
    """A[i][k] (B[k][j] with j for i) of the CDNA MFMA family [calc]: kpl k-values per lane."""
    per_reg = 32 // bits if bits < 32 else 1

    def at(i, k, b):
        lane = b * m + (k // kpl) * m * blocks + i
        e = k % kpl
        if bits == 64:
            return lane, 2 * e, 0
        return lane, e // per_reg, e % per_reg
    return at


LAYOUT = {
    # name: (M, N, K, blocks, ab bits, A/B placement, D placement(i, j, b) -> (lane, reg, 0))
    "v_mfma_f32_4x4x4f16": (4, 4, 4, 16, 16, mfma_ab(4, 16, 4, 16),
                            lambda i, j, b: (4 * b + j, i, 0)),
    "v_mfma_f32_16x16x16f16": (16, 16, 16, 1, 16, mfma_ab(16, 1, 4, 16),
                               lambda i, j, b: (j + 16 * (i // 4), i % 4, 0)),
    "v_mfma_f32_32x32x8f16": (32, 32, 8, 1, 16, mfma_ab(32, 1, 4, 16),
                              lambda i, j, b: (j + 32 * ((i // 4) % 2), 4 * (i // 8) + i % 4, 0)),
    "v_mfma_i32_16x16x16i8": (16, 16, 16, 1, 8, mfma_ab(16, 1, 4, 8),
                              lambda i, j, b: (j + 16 * (i // 4), i % 4, 0)),
    "v_mfma_i32_16x16x32_i8": (16, 16, 32, 1, 8, mfma_ab(16, 1, 8, 8),
                               lambda i, j, b: (j + 16 * (i // 4), i % 4, 0)),
    "v_mfma_f32_16x16x8_xf32": (16, 16, 8, 1, 32, mfma_ab(16, 1, 2, 32),
                                lambda i, j, b: (j + 16 * (i // 4), i % 4, 0)),
    "v_mfma_f32_16x16x4f32": (16, 16, 4, 1, 32, mfma_ab(16, 1, 1, 32),
                              lambda i, j, b: (j + 16 * (i // 4), i % 4, 0)),
    "v_mfma_f64_16x16x4f64": (16, 16, 4, 1, 64, mfma_ab(16, 1, 1, 64),
                              lambda i, j, b: (j + 16 * (i % 4), 2 * (i // 4), 0)),
    "v_mfma_f64_4x4x4f64": (4, 4, 4, 4, 64, mfma_ab(4, 4, 1, 64),
                            lambda i, j, b: (16 * i + 4 * b + j, 0, 0)),
}
D32 = lambda i, j, b: (j + 32 * ((i // 4) % 2), 16 * b + 4 * (i // 8) + i % 4, 0)  # 32x32 blocks
D16 = lambda i, j, b: (j + 16 * (i // 4), 4 * b + i % 4, 0)                       # 16x16 blocks
D4 = lambda i, j, b: (4 * b + j, i, 0)                                            # 4x4 blocks
LAYOUT.update({  # the multi-block forms: block b's A rows start at lane b*M [calc]
    "v_mfma_f32_32x32x1f32": (32, 32, 1, 2, 32, lambda i, k, b: (32 * b + i, 0, 0), D32),
    "v_mfma_f32_16x16x1f32": (16, 16, 1, 4, 32, lambda i, k, b: (16 * b + i, 0, 0), D16),
    "v_mfma_f32_4x4x1f32": (4, 4, 1, 16, 32, lambda i, k, b: (4 * b + i, 0, 0), D4),
    "v_mfma_f32_32x32x4f16": (32, 32, 4, 2, 16, lambda i, k, b: (32 * b + i, k // 2, k % 2), D32),
    "v_mfma_f32_16x16x4f16": (16, 16, 4, 4, 16, lambda i, k, b: (16 * b + i, k // 2, k % 2), D16),
    "v_mfma_i32_32x32x4i8": (32, 32, 4, 2, 8, lambda i, k, b: (32 * b + i, 0, k), D32),
    "v_mfma_i32_16x16x4i8": (16, 16, 4, 4, 8, lambda i, k, b: (16 * b + i, 0, k), D16),
    "v_mfma_i32_4x4x4i8": (4, 4, 4, 16, 8, lambda i, k, b: (4 * b + i, 0, k), D4),
})
LAYOUT["v_mfma_f32_16x16x32_fp8_bf8"] = LAYOUT["v_mfma_i32_16x16x32_i8"][:5] + (
    LAYOUT["v_mfma_i32_16x16x32_i8"][5], LAYOUT["v_mfma_f32_16x16x16f16"][6])
LAYOUT["v_mfma_f32_32x32x16_fp8_fp8"] = (32, 32, 16, 1, 8, mfma_ab(32, 1, 8, 8),
                                        LAYOUT["v_mfma_f32_32x32x8f16"][6])
LAYOUT["v_mfma_f32_16x16x16bf16_1k"] = LAYOUT["v_mfma_f32_16x16x16f16"]
LAYOUT["v_mfma_f32_32x32x4bf16_1k"] = LAYOUT["v_mfma_f32_32x32x4f16"]
LAYOUT["v_mfma_f32_16x16x4bf16_1k"] = LAYOUT["v_mfma_f32_16x16x4f16"]
LAYOUT["v_mfma_f32_4x4x4bf16_1k"] = LAYOUT["v_mfma_f32_4x4x4f16"]
LAYOUT["v_mfma_f32_32x32x8bf16_1k"] = LAYOUT["v_mfma_f32_32x32x8f16"]

# README data points of the calculator, checked against the tables above (guards the tables)
CALC_POINTS = [
    ("v_mfma_f32_4x4x4f16", "A", (1, 2, 4), (17, 1, 0)),   # A[1][2].B4 = v1{17}.[15:0]
    ("v_mfma_f32_4x4x4f16", "D", (3, 2, 1), (6, 3, 0)),    # D[3][2].B1 = v3{6}
    ("v_mfma_f32_4x4x4f16", "D", (2, 1, 8), (33, 2, 0)),   # v2{33} = D[2][1].B8
    ("v_mfma_f64_4x4x4f64", "D", (1, 0, 0), (16, 0, 0)),   # D[1][0] block 0 = v[1:0]{16}
    ("v_mfma_f64_4x4x4f64", "D", (3, 3, 3), (63, 0, 0)),   # D[3][3] block 3 = v[1:0]{63}
]


def wmma11_ab(bits):
    per = 32 // bits
    return lambda i, k, b: (i, k // per, k % per)   # and lane i + 16 holds the same [rdna3]


def wmma12_ab(bits, kk):
    per, half = 32 // bits, kk // 2
    return lambda i, k, b: (i + 16 * (k // half), (k % half) // per, (k % half) % per)


WMMA_LAYOUT = {
    # (gen, name): (K, ab bits, cd bits, A/B placement, D placement)
    ("gfx1100", "f32_f16"): (16, 16, 32, wmma11_ab(16), lambda i, j: (16 * (i % 2) + j, i // 2, 0)),
    ("gfx1100", "f16_f16"): (16, 16, 16, wmma11_ab(16), lambda i, j: (16 * (i % 2) + j, i // 2, 0)),
    ("gfx1100", "i32_iu8"): (16, 8, 32, wmma11_ab(8), lambda i, j: (16 * (i % 2) + j, i // 2, 0)),
    ("gfx1200", "f32_f16"): (16, 16, 32, wmma12_ab(16, 16), lambda i, j: (j + 16 * (i // 8), i % 8, 0)),
    ("gfx1200", "f16_f16"): (16, 16, 16, wmma12_ab(16, 16),
                             lambda i, j: (j + 16 * (i // 8), (i % 8) // 2, (i % 8) % 2)),
    ("gfx1200", "i32_iu8"): (16, 8, 32, wmma12_ab(8, 16), lambda i, j: (j + 16 * (i // 8), i % 8, 0)),
    ("gfx1100", "f32_bf16"): (16, 16, 32, wmma11_ab(16), lambda i, j: (16 * (i % 2) + j, i // 2, 0)),
    ("gfx1100", "bf16_bf16"): (16, 16, 16, wmma11_ab(16), lambda i, j: (16 * (i % 2) + j, i // 2, 0)),
    ("gfx1100", "i32_iu4"): (16, 4, 32, wmma11_ab(4), lambda i, j: (16 * (i % 2) + j, i // 2, 0)),
    ("gfx1100", "f16_f16_hi"): (16, 16, 16, wmma11_ab(16),
                                lambda i, j: (16 * (i % 2) + j, i // 2, 1)),  # op_sel:[0,0,1]
    ("gfx1100", "i32_iu8_clamp"): (16, 8, 32, wmma11_ab(8),
                                   lambda i, j: (16 * (i % 2) + j, i // 2, 0)),
    ("gfx1200", "f32_bf16"): (16, 16, 32, wmma12_ab(16, 16), lambda i, j: (j + 16 * (i // 8), i % 8, 0)),
    ("gfx1200", "bf16_bf16"): (16, 16, 16, wmma12_ab(16, 16),
                               lambda i, j: (j + 16 * (i // 8), (i % 8) // 2, (i % 8) % 2)),
    ("gfx1200", "i32_iu4"): (16, 4, 32, wmma12_ab(4, 16), lambda i, j: (j + 16 * (i // 8), i % 8, 0)),
    ("gfx1200", "i32_iu4_k32"): (32, 4, 32, wmma12_ab(4, 32), lambda i, j: (j + 16 * (i // 8), i % 8, 0)),
}


# ---- value packing ----

def f16_bits(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]


def bf16_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0] >> 16


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def put_elem(regs, lane, reg, sub, bits, raw):
    """Stores raw bits into regs[reg][lane] (64-bit: reg and reg + 1)."""
    if bits == 64:
        regs[reg][lane] = raw & 0xffffffff
        regs[reg + 1][lane] = raw >> 32
    elif bits == 32:
        regs[reg][lane] = raw & 0xffffffff
    else:
        sh = sub * bits
        mask = ((1 << bits) - 1) << sh
        regs[reg][lane] = (regs[reg][lane] & ~mask) | ((raw << sh) & mask)


def get_elem(regs, lane, reg, sub, bits):
    if bits == 64:
        return regs[reg][lane] | regs[reg + 1][lane] << 32
    return (regs[reg][lane] >> (sub * bits)) & ((1 << bits) - 1)


def encode(v, kind):
    return {"f16": f16_bits, "bf16": bf16_bits, "f32": f32_bits,
            "f64": lambda x: struct.unpack("<Q", struct.pack("<d", x))[0],
            "i8": lambda x: x & 0xff, "i4": lambda x: x & 0xf,
            "fp8": lambda x: FNUZ_BYTE["fp8"][x], "bf8": lambda x: FNUZ_BYTE["bf8"][x],
            "i32": lambda x: x & 0xffffffff}[kind](v)


def lane_major(regs, lanes):
    """Per-lane buffer: lane l's registers consecutively (the kernel's vector per lane)."""
    out = []
    for l in range(lanes):
        out += [regs[r][l] for r in range(len(regs))]
    return struct.pack("<%dI" % len(out), *out)


def from_lane_major(data, nregs, lanes):
    words = struct.unpack("<%dI" % (len(data) // 4), data)
    return [[words[l * nregs + r] for l in range(lanes)] for r in range(nregs)]


# ---- kernels ----

def build(src, target, tmp, name):
    """A failure to compile is a failure naming target and NAME.cl, and gives None."""
    return build_cl_text(src, target, os.path.join(tmp, name))


HEADER = """#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef half half4_ __attribute__((ext_vector_type(4)));
typedef half half8_ __attribute__((ext_vector_type(8)));
typedef half half16_ __attribute__((ext_vector_type(16)));
typedef short short4_ __attribute__((ext_vector_type(4)));
typedef short short8_ __attribute__((ext_vector_type(8)));
typedef short short16_ __attribute__((ext_vector_type(16)));
typedef float float2_ __attribute__((ext_vector_type(2)));
typedef float float4_ __attribute__((ext_vector_type(4)));
typedef float float8_ __attribute__((ext_vector_type(8)));
typedef float float16_ __attribute__((ext_vector_type(16)));
typedef int int2_ __attribute__((ext_vector_type(2)));
typedef int int4_ __attribute__((ext_vector_type(4)));
typedef int int8_ __attribute__((ext_vector_type(8)));
typedef double double4_ __attribute__((ext_vector_type(4)));
typedef int int16_ __attribute__((ext_vector_type(16)));
typedef int int32_ __attribute__((ext_vector_type(32)));
typedef float float32_ __attribute__((ext_vector_type(32)));
"""

# (builtin, A type, C type, element kind of A/B, of C/D, extra args) per MFMA row and target
MFMA_CASES = {
    "v_mfma_f32_4x4x4f16": ("mfma_f32_4x4x4f16", "half4_", "float4_", "f16", "f32"),
    "v_mfma_f32_16x16x16f16": ("mfma_f32_16x16x16f16", "half4_", "float4_", "f16", "f32"),
    "v_mfma_f32_32x32x8f16": ("mfma_f32_32x32x8f16", "half4_", "float16_", "f16", "f32"),
    "v_mfma_f32_16x16x16bf16_1k": ("mfma_f32_16x16x16bf16_1k", "short4_", "float4_", "bf16",
                                   "f32"),
    "v_mfma_f32_32x32x8bf16_1k": ("mfma_f32_32x32x8bf16_1k", "short4_", "float16_", "bf16",
                                  "f32"),
    "v_mfma_i32_16x16x16i8": ("mfma_i32_16x16x16i8", "int", "int4_", "i8", "i32"),
    "v_mfma_i32_16x16x32_i8": ("mfma_i32_16x16x32_i8", "long", "int4_", "i8", "i32"),
    "v_mfma_f32_16x16x8_xf32": ("mfma_f32_16x16x8_xf32", "float2_", "float4_", "f32", "f32"),
    "v_mfma_f32_16x16x4f32": ("mfma_f32_16x16x4f32", "float", "float4_", "f32", "f32"),
    "v_mfma_f64_16x16x4f64": ("mfma_f64_16x16x4f64", "double", "double4_", "f64", "f64"),
    "v_mfma_f64_4x4x4f64": ("mfma_f64_4x4x4f64", "double", "double", "f64", "f64"),
    "v_mfma_f32_32x32x1f32": ("mfma_f32_32x32x1f32", "float", "float32_", "f32", "f32"),
    "v_mfma_f32_16x16x1f32": ("mfma_f32_16x16x1f32", "float", "float16_", "f32", "f32"),
    "v_mfma_f32_4x4x1f32": ("mfma_f32_4x4x1f32", "float", "float4_", "f32", "f32"),
    "v_mfma_f32_32x32x4f16": ("mfma_f32_32x32x4f16", "half4_", "float32_", "f16", "f32"),
    "v_mfma_f32_16x16x4f16": ("mfma_f32_16x16x4f16", "half4_", "float16_", "f16", "f32"),
    "v_mfma_i32_32x32x4i8": ("mfma_i32_32x32x4i8", "int", "int32_", "i8", "i32"),
    "v_mfma_i32_16x16x4i8": ("mfma_i32_16x16x4i8", "int", "int16_", "i8", "i32"),
    "v_mfma_i32_4x4x4i8": ("mfma_i32_4x4x4i8", "int", "int4_", "i8", "i32"),
    "v_mfma_f32_32x32x4bf16_1k": ("mfma_f32_32x32x4bf16_1k", "short4_", "float32_", "bf16", "f32"),
    "v_mfma_f32_16x16x4bf16_1k": ("mfma_f32_16x16x4bf16_1k", "short4_", "float16_", "bf16", "f32"),
    "v_mfma_f32_4x4x4bf16_1k": ("mfma_f32_4x4x4bf16_1k", "short4_", "float4_", "bf16", "f32"),
    # gfx942 8-bit floats: A and B types differ in the mixed forms (6th entry: B's)
    "v_mfma_f32_16x16x32_fp8_bf8": ("mfma_f32_16x16x32_fp8_bf8", "long", "float4_", "fp8", "f32",
                                    "bf8"),
    "v_mfma_f32_32x32x16_fp8_fp8": ("mfma_f32_32x32x16_fp8_fp8", "long", "float16_", "fp8", "f32",
                                    "fp8"),
}
ON_GFX90A = {"v_mfma_i32_16x16x16i8"}
ON_GFX942 = {"v_mfma_i32_16x16x32_i8", "v_mfma_f32_16x16x8_xf32", "v_mfma_f32_16x16x32_fp8_bf8",
             "v_mfma_f32_32x32x16_fp8_fp8"}
BITS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64, "i8": 8, "i32": 32, "fp8": 8, "bf8": 8}


def fnuz8_value(byte, mant):
    """gfx942's FNUZ 8-bit floats as the CDNA3 ISA guide defines them: E4M3FNUZ (mant 3,
    bias 8) and E5M2FNUZ (mant 2, bias 16); 0x80 is NaN, there is no infinity."""
    ebits = 7 - mant
    bias = 1 << (ebits - 1)
    e, m = (byte >> mant) & ((1 << ebits) - 1), byte & ((1 << mant) - 1)
    v = (1 + m / (1 << mant)) * 2.0 ** (e - bias) if e else m / (1 << mant) * 2.0 ** (1 - bias)
    return -v if byte & 0x80 else v


FNUZ_BYTE = {kind: {fnuz8_value(b, mant): b for b in range(256) if b != 0x80}
             for kind, mant in (("fp8", 3), ("bf8", 2))}


def small_values(kind, count, rnd):
    if kind == "i4":
        return [rnd.randint(-8, 7) for _ in range(count)]
    if kind == "i8":
        return [rnd.randint(-128, 127) for _ in range(count)]
    return [float(rnd.randint(-8, 8)) for _ in range(count)]


def run_kernel(amdsim, hsaco, tmp, bufs, out_bytes, block):
    args = []
    for n, data in enumerate(bufs):
        p = os.path.join(tmp, "in%d.bin" % n)
        open(p, "wb").write(data)
        args.append("in:" + p)
    out = os.path.join(tmp, "out.bin")
    args.append("out:%d:%s" % (out_bytes, out))
    r = run([amdsim, hsaco, "--kernel", "k", "--grid", "1", "--block", str(block)] + args)
    if r.returncode != 0:
        return None, r.stderr
    return open(out, "rb").read(), ""


def blgp_lane(l, blgp):
    """The lane B is read from (the calculator README's BLGP list)."""
    return [l, l % 32, 32 + l % 32, (l + 16) % 64][blgp] if blgp < 4 else 16 * (blgp - 4) + l % 16


def test_mfma(amdsim, tmp, target, name, agpr=False, mods=(0, 0, 0)):
    m, n, kk, blocks, abits, place_ab, place_d = LAYOUT[name]
    builtin, at, ct, akind, ckind = MFMA_CASES[name][:5]
    bkind = MFMA_CASES[name][5] if len(MFMA_CASES[name]) > 5 else akind
    rnd = random.Random(name + target)
    cbits = BITS[ckind]
    nin = max(1, kk * m * blocks // 64 * abits // 32)
    nout = m * n * blocks // 64 * (2 if cbits == 64 else 1)
    A = {(i, k, b): v for (i, k, b), v in zip(
        [(i, k, b) for b in range(blocks) for i in range(m) for k in range(kk)],
        small_values(akind, m * kk * blocks, rnd))}
    B = {(k, j, b): v for (k, j, b), v in zip(
        [(k, j, b) for b in range(blocks) for k in range(kk) for j in range(n)],
        small_values(bkind, n * kk * blocks, rnd))}
    C = {(i, j, b): v for (i, j, b), v in zip(
        [(i, j, b) for b in range(blocks) for i in range(m) for j in range(n)],
        small_values("i8" if ckind == "i32" else "f32", m * n * blocks, rnd))}
    ra = [[0] * 64 for _ in range(nin)]
    rb = [[0] * 64 for _ in range(nin)]
    rc = [[0] * 64 for _ in range(nout)]
    for (i, k, b), v in A.items():
        put_elem(ra, *place_ab(i, k, b), abits, encode(v, akind))
    for (k, j, b), v in B.items():
        put_elem(rb, *place_ab(j, k, b), abits, encode(v, bkind))
    for (i, j, b), v in C.items():
        put_elem(rc, *place_d(i, j, b), cbits, encode(v, ckind))
    # amdgpu_waves_per_eu(2) caps the VGPRs at 256: clang then keeps C/D in VGPRs; without
    # it clang-19 loads C into AGPRs and runs the MFMA on them (acc_cd, acc bits)
    src = HEADER + """%s
kernel void k(global const %s *a, global const %s *b, global const %s *c, global %s *d) {
  int l = __builtin_amdgcn_workitem_id_x();
  d[l] = __builtin_amdgcn_%s(a[l], b[l], c[l], 0, 0, 0);
}""" % ("" if agpr else "__attribute__((amdgpu_waves_per_eu(2)))", at, at, ct, ct, builtin)
    src = src.replace("c[l], 0, 0, 0)", "c[l], %d, %d, %d)" % mods)
    h = build(src, target, tmp, "m_%s%s%d%d%d" % ((name, "_agpr" if agpr else "") + mods))
    if not h:
        return
    out, err = run_kernel(amdsim, h, tmp, [lane_major(ra, 64), lane_major(rb, 64),
                                           lane_major(rc, 64)], 64 * 4 * nout, 64)
    if not check(out is not None, "%s %s: amdsim failed: %s" % (target, name, err[-300:])):
        return
    rd = from_lane_major(out, nout, 64)
    cbsz, abid, blgp = mods
    decode = {"f16": lambda r: struct.unpack("<e", struct.pack("<H", r))[0],
              "bf16": lambda r: struct.unpack("<f", struct.pack("<I", r << 16))[0],
              "f32": lambda r: struct.unpack("<f", struct.pack("<I", r))[0],
              "f64": lambda r: struct.unpack("<d", struct.pack("<Q", r))[0],
              "i8": lambda r: r - 256 if r >= 128 else r,
              "fp8": lambda r: fnuz8_value(r, 3), "bf8": lambda r: fnuz8_value(r, 2)}[bkind]

    def b_seen(k, j, b):  # B[k][j] of block b as the lanes blgp picks deliver it
        lane, reg, sub = place_ab(j, k, b)
        return decode(get_elem(rb, blgp_lane(lane, blgp), reg, sub, abits))
    bad = 0
    for b in range(blocks):
        a_block = (b >> cbsz << cbsz) + abid  # the A block cbsz/abid broadcast to block b
        for i in range(m):
            for j in range(n):
                want = C[i, j, b] + sum(A[i, k, a_block] * b_seen(k, j, b) for k in range(kk))
                got = get_elem(rd, *place_d(i, j, b), cbits)
                if ckind == "i32":
                    got = got - (1 << 32) if got >> 31 else got
                else:
                    got = struct.unpack("<d" if cbits == 64 else "<f",
                                        struct.pack("<Q" if cbits == 64 else "<I", got))[0]
                bad += got != want
    check(bad == 0, "%s %s: %d of %d D elements differ from the published layout" %
          (target, name, bad, m * n * blocks))


WMMA_BUILTINS = {
    ("gfx1100", "f32_f16"): ("__builtin_amdgcn_wmma_f32_16x16x16_f16_w32(a[l], b[l], c[l])",
                             "half16_", "float8_"),
    ("gfx1100", "f16_f16"): ("__builtin_amdgcn_wmma_f16_16x16x16_f16_w32(a[l], b[l], c[l], 0)",
                             "half16_", "half16_"),
    ("gfx1100", "i32_iu8"): ("__builtin_amdgcn_wmma_i32_16x16x16_iu8_w32(1, a[l], 1, b[l], c[l], 0)",
                             "int4_", "int8_"),
    ("gfx1200", "f32_f16"): ("__builtin_amdgcn_wmma_f32_16x16x16_f16_w32_gfx12(a[l], b[l], c[l])",
                             "half8_", "float8_"),
    ("gfx1200", "f16_f16"): ("__builtin_amdgcn_wmma_f16_16x16x16_f16_w32_gfx12(a[l], b[l], c[l])",
                             "half8_", "half8_"),
    ("gfx1200", "i32_iu8"): ("__builtin_amdgcn_wmma_i32_16x16x16_iu8_w32_gfx12(1, a[l], 1, b[l], c[l], 0)",
                             "int2_", "int8_"),
    ("gfx1100", "f32_bf16"): ("__builtin_amdgcn_wmma_f32_16x16x16_bf16_w32(a[l], b[l], c[l])",
                              "short16_", "float8_"),
    ("gfx1100", "bf16_bf16"): ("__builtin_amdgcn_wmma_bf16_16x16x16_bf16_w32(a[l], b[l], c[l], 0)",
                               "short16_", "short16_"),
    ("gfx1100", "i32_iu4"): ("__builtin_amdgcn_wmma_i32_16x16x16_iu4_w32(1, a[l], 1, b[l], c[l], 0)",
                             "int2_", "int8_"),
    ("gfx1100", "f16_f16_hi"): ("__builtin_amdgcn_wmma_f16_16x16x16_f16_w32(a[l], b[l], c[l], 1)",
                                "half16_", "half16_"),
    ("gfx1100", "i32_iu8_clamp"): ("__builtin_amdgcn_wmma_i32_16x16x16_iu8_w32(0, a[l], 0, b[l], c[l], 1)",
                                   "int4_", "int8_"),
    ("gfx1200", "f32_bf16"): ("__builtin_amdgcn_wmma_f32_16x16x16_bf16_w32_gfx12(a[l], b[l], c[l])",
                              "short8_", "float8_"),
    ("gfx1200", "bf16_bf16"): ("__builtin_amdgcn_wmma_bf16_16x16x16_bf16_w32_gfx12(a[l], b[l], c[l])",
                               "short8_", "short8_"),
    ("gfx1200", "i32_iu4"): ("__builtin_amdgcn_wmma_i32_16x16x16_iu4_w32_gfx12(1, a[l], 1, b[l], c[l], 0)",
                             "int", "int8_"),
    ("gfx1200", "i32_iu4_k32"): ("__builtin_amdgcn_wmma_i32_16x16x32_iu4_w32_gfx12(1, a[l], 1, b[l], c[l], 0)",
                                 "int2_", "int8_"),
}


def test_wmma(amdsim, tmp, target, what):
    kk, abits, cbits, place_ab, place_d = WMMA_LAYOUT[target, what]
    call, at, ct = WMMA_BUILTINS[target, what]
    bf16 = "bf16" in what
    akind = {8: "i8", 4: "i4", 16: "bf16" if bf16 else "f16"}[abits]
    ckind = {32: "i32" if abits < 16 else "f32", 16: "bf16" if bf16 else "f16"}[cbits]
    clamp = what.endswith("_clamp")
    rnd = random.Random(what + target)
    nin = max(1, (kk if target == "gfx1100" else kk // 2) * abits // 32)
    nout = 8 if cbits == 32 or target == "gfx1100" else 4
    A = {(i, k): v for (i, k), v in zip([(i, k) for i in range(16) for k in range(kk)],
                                        small_values(akind, 16 * kk, rnd))}
    B = {(k, j): v for (k, j), v in zip([(k, j) for k in range(kk) for j in range(16)],
                                        small_values(akind, 16 * kk, rnd))}
    C = {(i, j): float(rnd.randint(-8, 8)) for i in range(16) for j in range(16)}
    if ckind == "i32":
        C = {key: int(v) for key, v in C.items()}
    if ckind == "bf16":  # |D| <= 16*4 + 8: exact in bf16's 8 significant bits
        A = {key: float(rnd.randint(-2, 2)) for key in A}
        B = {key: float(rnd.randint(-2, 2)) for key in B}
    if clamp:  # unsigned A/B bytes near 255 and C near the top: the sums saturate
        A = {key: rnd.randint(200, 255) for key in A}
        B = {key: rnd.randint(200, 255) for key in B}
        C = {key: 0x7fff0000 + rnd.randint(0, 0xffff) for key in C}
    ra = [[0] * 32 for _ in range(nin)]
    rb = [[0] * 32 for _ in range(nin)]
    rc = [[0] * 32 for _ in range(nout)]
    for (i, k), v in A.items():
        lane, reg, sub = place_ab(i, k, 0)
        put_elem(ra, lane, reg, sub, abits, encode(v, akind))
        if target == "gfx1100":  # [rdna3]: lanes 16-31 repeat lanes 0-15
            put_elem(ra, lane + 16, reg, sub, abits, encode(v, akind))
    for (k, j), v in B.items():
        lane, reg, sub = place_ab(j, k, 0)
        put_elem(rb, lane, reg, sub, abits, encode(v, akind))
        if target == "gfx1100":
            put_elem(rb, lane + 16, reg, sub, abits, encode(v, akind))
    for (i, j), v in C.items():
        put_elem(rc, *place_d(i, j), cbits, encode(v, ckind))
    src = HEADER + """kernel void k(global const %s *a, global const %s *b, global const %s *c,
                     global %s *d) {
  int l = __builtin_amdgcn_workitem_id_x();
  d[l] = %s;
}""" % (at, at, ct, ct, call)
    h = build(src, target, tmp, "w_%s_%s" % (target, what))
    if not h:
        return
    # gfx11 16-bit C/D: the builtin's half16 is 8 registers, element 2r in register r's low half
    out, err = run_kernel(amdsim, h, tmp, [lane_major(ra, 32), lane_major(rb, 32),
                                           lane_major(rc, 32)], 32 * 4 * nout, 32)
    if not check(out is not None, "%s wmma %s: amdsim failed: %s" % (target, what, err[-300:])):
        return
    rd = from_lane_major(out, nout, 32)
    bad = 0
    for i in range(16):
        for j in range(16):
            want = C[i, j] + sum(A[i, k] * B[k, j] for k in range(kk))
            if clamp:
                want = min(want, 0x7fffffff)
            raw = get_elem(rd, *place_d(i, j), cbits)
            if ckind == "i32":
                got = raw - (1 << 32) if raw >> 31 else raw
            elif ckind == "f16":
                got = struct.unpack("<e", struct.pack("<H", raw))[0]
            elif ckind == "bf16":
                got = struct.unpack("<f", struct.pack("<I", raw << 16))[0]
            else:
                got = struct.unpack("<f", struct.pack("<I", raw))[0]
            bad += got != want
    check(bad == 0, "%s wmma %s: %d of 256 D elements differ from the published layout" %
          (target, what, bad))


def test_dot(amdsim, tmp, target):
    """v_dot2_f32_f16 / v_dot4 on every target (gfx1030 has no matrix unit)."""
    cases = [("fdot2", "__builtin_amdgcn_fdot2(a[l], b[l], c[l], 0)", "half2", "float")]
    if target in ("gfx90a", "gfx942", "gfx1030"):
        cases.append(("sdot4", "__builtin_amdgcn_sdot4(a[l], b[l], c[l], 0)", "int", "int"))
    else:
        cases.append(("sudot4", "__builtin_amdgcn_sudot4(1, a[l], 1, b[l], c[l], 0)", "int",
                      "int"))
    cases.append(("udot4", "__builtin_amdgcn_udot4(a[l], b[l], c[l], 0)", "uint", "uint"))
    rnd = random.Random(target)
    for what, call, at, ct in cases:
        src = HEADER + """kernel void k(global const %s *a, global const %s *b, global const %s *c,
                         global %s *d) {
  int l = __builtin_amdgcn_workitem_id_x();
  d[l] = %s;
}""" % (at, at, ct, ct, call)
        h = build(src, target, tmp, "d_%s_%s" % (target, what))
        if not h:
            continue
        av, bv, cv, want = [], [], [], []
        for _ in range(64):
            if what == "fdot2":
                x = [float(rnd.randint(-30, 30)) for _ in range(5)]
                av.append(f16_bits(x[0]) | f16_bits(x[1]) << 16)
                bv.append(f16_bits(x[2]) | f16_bits(x[3]) << 16)
                cv.append(f32_bits(x[4]))
                want.append(f32_bits(x[0] * x[2] + x[1] * x[3] + x[4]))
            else:
                signed = what != "udot4"
                a = [rnd.randint(-128, 127) if signed else rnd.randint(0, 255) for _ in range(4)]
                b = [rnd.randint(-128, 127) if signed else rnd.randint(0, 255) for _ in range(4)]
                c = rnd.randint(-1000, 1000) if signed else rnd.randint(0, 1000)
                av.append(sum((x & 0xff) << 8 * e for e, x in enumerate(a)))
                bv.append(sum((x & 0xff) << 8 * e for e, x in enumerate(b)))
                cv.append(c & 0xffffffff)
                want.append((c + sum(x * y for x, y in zip(a, b))) & 0xffffffff)
        bufs = [struct.pack("<64I", *v) for v in (av, bv, cv)]
        out, err = run_kernel(amdsim, h, tmp, bufs, 256, 64)
        if check(out is not None, "%s %s: amdsim failed: %s" % (target, what, err[-300:])):
            got = list(struct.unpack("<64I", out))
            check(got == want, "%s %s: %d of 64 lanes differ" %
                  (target, what, sum(g != w for g, w in zip(got, want))))


def test_layout(amdsim, tmp):
    for name, mat, coords, want in CALC_POINTS:
        lay = LAYOUT[name]
        got = lay[5](coords[0], coords[1], coords[2]) if mat == "A" else \
            lay[6](coords[0], coords[1], coords[2])
        check(got == want, "layout table %s %s%s = %s, the calculator's README says %s" %
              (name, mat, coords, got, want))
    for target in ("gfx90a", "gfx942"):
        for name in LAYOUT:
            if (name in ON_GFX90A and target != "gfx90a") or \
                    (name in ON_GFX942 and target != "gfx942"):
                continue
            test_mfma(amdsim, tmp, target, name)
        test_mfma(amdsim, tmp, target, "v_mfma_f32_32x32x8f16", agpr=True)
        test_mfma(amdsim, tmp, target, "v_mfma_f32_16x16x4f16", mods=(2, 3, 3))
        test_mfma(amdsim, tmp, target, "v_mfma_f32_4x4x4f16", mods=(1, 1, 5))
        test_mfma(amdsim, tmp, target, "v_mfma_i32_32x32x4i8", mods=(1, 0, 2))
        test_mfma(amdsim, tmp, target, "v_mfma_f32_16x16x16f16", mods=(0, 0, 1))
    for target, what in WMMA_LAYOUT:
        test_wmma(amdsim, tmp, target, what)
    for target in ("gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"):
        test_dot(amdsim, tmp, target)


WMMA_ROWS = {"f32_f16": "v_wmma_f32_16x16x16_f16", "f16_f16": "v_wmma_f16_16x16x16_f16",
             "i32_iu8": "v_wmma_i32_16x16x16_iu8", "f32_bf16": "v_wmma_f32_16x16x16_bf16",
             "bf16_bf16": "v_wmma_bf16_16x16x16_bf16", "i32_iu4": "v_wmma_i32_16x16x16_iu4"}


def test_place(isa_dump, tmp):
    """The compiler-side layout (src/isa amd_matrix_place, via isa_dump matrix) against the
    tables above, element by element, for every row the tables cover."""
    del tmp
    for target in ("gfx90a", "gfx942", "gfx1100", "gfx1200"):
        got = {}
        for ln in run([isa_dump, "matrix", target], check=True).stdout.splitlines():
            f = ln.split()
            got[f[0], f[1], int(f[2]), int(f[3]), int(f[4])] = tuple(int(x) for x in f[5:8])
        expect = {}
        if target in ("gfx90a", "gfx942"):
            for name, (m, n, kk, blocks, _, pab, pd) in LAYOUT.items():
                if (name in ON_GFX90A and target != "gfx90a") or \
                        (name in ON_GFX942 and target != "gfx942"):
                    continue
                for b in range(blocks):
                    for i in range(m):
                        for k in range(kk):
                            expect[name, "A", i, k, b] = pab(i, k, b)
                    for k in range(kk):
                        for j in range(n):
                            expect[name, "B", k, j, b] = pab(j, k, b)
                    for i in range(m):
                        for j in range(n):
                            expect[name, "D", i, j, b] = pd(i, j, b)
        for (tgt, what), (kk, _, _, pab, pd) in WMMA_LAYOUT.items():
            if tgt != target or what.endswith(("_hi", "_clamp")):
                continue
            name = WMMA_ROWS.get(what, "v_wmma_i32_16x16x32_iu4")
            if target == "gfx1200" and what != "i32_iu4_k32":
                name += "_gfx12"
            for i in range(16):
                for k in range(kk):
                    expect[name, "A", i, k, 0] = pab(i, k, 0)
                    expect[name, "B", k, i, 0] = pab(i, k, 0)
                for j in range(16):
                    expect[name, "D", i, j, 0] = pd(i, j)
        bad = [key for key, v in expect.items() if got.get(key) != v]
        check(not bad, "%s: amd_matrix_place differs from the published layout at %d of %d "
              "elements, e.g. %s: %s, the table says %s" %
              (target, len(bad), len(expect), bad[0] if bad else "", got.get(bad[0]) if bad
               else "", expect[bad[0]] if bad else ""))
        check(len(expect) > 1000, "%s: only %d elements compared" % (target, len(expect)))


def main():
    amdsim, what = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        {"layout": test_layout, "hazard": test_hazard, "place": test_place}[what](amdsim, tmp)
    finish()


# The wait states amdsim's rules ask for (src/sim/check.c) per MFMA row, written from the
# reference below, and clang-19 must have inserted exactly that many s_nop wait states:
# (row on gfx90a, row on gfx942) -> (VALU reads D, next MFMA reuses D as srcC)
NOPS = {
    "mfma_f32_4x4x4f16": ((5, 0), (5, 2)), "mfma_f32_16x16x16f16": ((11, 0), (7, 0)),
    "mfma_f32_32x32x8f16": ((19, 0), (11, 0)), "mfma_f32_16x16x16bf16_1k": ((11, 0), (7, 0)),
    "mfma_f32_32x32x8bf16_1k": ((19, 0), (11, 0)), "mfma_i32_16x16x16i8": ((11, 0), None),
    "mfma_i32_32x32x8i8": ((19, 0), None), "mfma_i32_16x16x32_i8": (None, (7, 0)),
    "mfma_i32_32x32x16_i8": (None, (11, 0)), "mfma_f64_16x16x4f64": ((11, 0), (11, 0)),
    "mfma_f64_4x4x4f64": ((6, 4), (6, 4)), "mfma_f32_16x16x8_xf32": (None, (7, 0)),
    "mfma_f32_32x32x4_xf32": (None, (11, 0)), "mfma_f32_16x16x4f32": ((11, 0), (10, 0)),
    "mfma_f32_32x32x2f32": ((19, 0), (18, 0)),
    "mfma_f32_32x32x1f32": ((19, 0), (18, 0)), "mfma_f32_16x16x1f32": ((11, 0), (10, 0)),
    "mfma_f32_4x4x1f32": ((5, 0), (4, 2)), "mfma_f32_32x32x4f16": ((19, 0), (19, 0)),
    "mfma_f32_16x16x4f16": ((11, 0), (11, 0)), "mfma_i32_4x4x4i8": ((5, 0), (5, 2)),
    "mfma_f32_4x4x4bf16_1k": ((5, 0), (5, 2)),
    "mfma_f32_16x16x32_fp8_bf8": (None, (7, 0)), "mfma_f32_32x32x16_bf8_fp8": (None, (11, 0)),
}
HAZ_TYPES = {  # builtin suffix -> (A type, C type, C element type)
    "mfma_f32_4x4x4f16": ("half4_", "float4_", "float"),
    "mfma_f32_16x16x16f16": ("half4_", "float4_", "float"),
    "mfma_f32_32x32x8f16": ("half4_", "float16_", "float"),
    "mfma_f32_16x16x16bf16_1k": ("short4_", "float4_", "float"),
    "mfma_f32_32x32x8bf16_1k": ("short4_", "float16_", "float"),
    "mfma_i32_16x16x16i8": ("int", "int4_", "int"),
    "mfma_i32_32x32x8i8": ("int", "int16_", "int"),
    "mfma_i32_16x16x32_i8": ("long", "int4_", "int"),
    "mfma_i32_32x32x16_i8": ("long", "int16_", "int"),
    "mfma_f64_16x16x4f64": ("double", "double4_", "double"),
    "mfma_f64_4x4x4f64": ("double", "double", "double"),
    "mfma_f32_16x16x8_xf32": ("float2_", "float4_", "float"),
    "mfma_f32_32x32x4_xf32": ("float2_", "float16_", "float"),
    "mfma_f32_16x16x4f32": ("float", "float4_", "float"),
    "mfma_f32_32x32x2f32": ("float", "float16_", "float"),
    "mfma_f32_32x32x1f32": ("float", "float32_", "float"),
    "mfma_f32_16x16x1f32": ("float", "float16_", "float"),
    "mfma_f32_4x4x1f32": ("float", "float4_", "float"),
    "mfma_f32_32x32x4f16": ("half4_", "float32_", "float"),
    "mfma_f32_16x16x4f16": ("half4_", "float16_", "float"),
    "mfma_i32_4x4x4i8": ("int", "int4_", "int"),
    "mfma_f32_4x4x4bf16_1k": ("short4_", "float4_", "float"),
    "mfma_f32_16x16x32_fp8_bf8": ("long", "float4_", "float"),
    "mfma_f32_32x32x16_bf8_fp8": ("long", "float16_", "float"),
}


def nops_after(insns, idx):
    """Wait states of the s_nop run right after instruction idx, and the run's indexes."""
    n, run_idx, k = 0, [], idx + 1
    while k < len(insns) and insns[k][1] == "s_nop":
        n += (insns[k][3][0] & 0xf) + 1
        run_idx.append(k)
        k += 1
    return n, run_idx


def shorten_nops(hsaco, dst, insns, run_idx, by):
    """A copy of hsaco whose s_nop run after an MFMA has `by` fewer wait states."""
    off, base = text_section(hsaco)
    data = bytearray(open(hsaco, "rb").read())
    first = insns[run_idx[0]]
    word = first[3][0]
    left = (word & 0xf) + 1 - by
    if left <= 0:  # the first s_nop is all of it: make it a harmless s_nop after moving
        # replace it by s_nop 0 and take the rest from the following ones
        return None
    data[off + first[0] - base: off + first[0] - base + 4] = struct.pack(
        "<I", (word & ~0xf) | (left - 1))
    open(dst, "wb").write(data)
    return dst


def hazard_kernel(builtin, mode):
    at, ct, et = HAZ_TYPES[builtin]
    use = {"valu": "o[l] = ((%s*)&r)[0] * (%s)3;" % (et, et),
           "srcc": "r = __builtin_amdgcn_%s(a[l], b[l], r, 0, 0, 0); d[l] = r;" % builtin}[mode]
    return HEADER + """__attribute__((amdgpu_waves_per_eu(2)))
kernel void k(global const %s *a, global const %s *b, global %s *d, global %s *o) {
  int l = __builtin_amdgcn_workitem_id_x();
  %s r = __builtin_amdgcn_%s(a[l], b[l], d[l], 0, 0, 0);
  %s
}""" % (at, at, ct, et, ct, builtin, use)


def test_hazard(amdsim, tmp):
    checked = 0
    for builtin, per_target in NOPS.items():
        for t, target in enumerate(("gfx90a", "gfx942")):
            if per_target[t] is None:
                continue
            for m, mode in enumerate(("valu", "srcc")):
                want = per_target[t][m]
                h = build(hazard_kernel(builtin, mode), target, tmp, "h_%s_%s" % (builtin, mode))
                if not h:
                    continue
                insns = disasm(h)
                first = next((i for i, x in enumerate(insns) if x[1].startswith("v_mfma")), None)
                if not check(first is not None, "%s %s: no MFMA in clang's code" % (target, builtin)):
                    continue
                got, run_idx = nops_after(insns, first)
                check(got == want, "%s %s then %s: clang-19 puts %d wait states, the reference "
                      "table says %d" % (target, builtin, mode, got, want))
                size = 4 * 64 * 16 * 2
                bufs = [bytes(size), bytes(size), bytes(size)]
                r = run_sim(amdsim, h, tmp, bufs)
                check(r.returncode == 0, "%s %s %s: amdsim rejects clang's code: %s" %
                      (target, builtin, mode, r.stderr[-300:]))
                if got == 0:
                    checked += 1
                    continue
                short = shorten_nops(h, os.path.join(tmp, "short.hsaco"), insns, run_idx, 1)
                if short:
                    r = run_sim(amdsim, short, tmp, bufs)
                    check(r.returncode == 3 and "hazard" in r.stderr and "MFMA" in r.stderr,
                          "%s %s %s: one wait state fewer is not reported (exit %d)" %
                          (target, builtin, mode, r.returncode))
                checked += 1
    check(checked >= 40, "only %d MFMA hazard cases checked" % checked)
    test_wmma_hazard(amdsim, tmp)


def run_sim(amdsim, hsaco, tmp, bufs):
    args = []
    for n, data in enumerate(bufs):
        p = os.path.join(tmp, "h%d.bin" % n)
        open(p, "wb").write(data)
        args.append("in:" + p)
    args.append("out:%d:%s" % (4 * 64 * 16 * 2, os.path.join(tmp, "ho.bin")))
    return run([amdsim, hsaco, "--kernel", "k", "--grid", "1", "--block", "64"] + args)


def test_wmma_hazard(amdsim, tmp):
    """gfx11/gfx12: clang-19 separates a WMMA reading the previous WMMA's D as A with a v_nop;
    amdsim accepts that and reports the hazard when the v_nop becomes an s_nop."""
    for target, (ht, n) in (("gfx1100", ("half16_", 16)), ("gfx1200", ("half8_", 8))):
        sfx = "_w32" if target == "gfx1100" else "_w32_gfx12"
        extra = ", 0" if target == "gfx1100" else ""
        src = HEADER + """kernel void k(global const %s *a, global const %s *b, global %s *c,
                         global %s *o) {
  int l = __builtin_amdgcn_workitem_id_x();
  %s r = __builtin_amdgcn_wmma_f16_16x16x16_f16%s(a[l], b[l], c[l]%s);
  c[l] = __builtin_amdgcn_wmma_f16_16x16x16_f16%s(r, b[l], c[l]%s);
}""" % (ht, ht, ht, ht, ht, sfx, extra, sfx, extra)
        h = build(src, target, tmp, "wh_" + target)
        if not h:
            continue
        insns = disasm(h)
        idx = [i for i, x in enumerate(insns) if x[1].startswith("v_wmma")]
        if not check(len(idx) == 2 and insns[idx[0] + 1][1] == "v_nop",
                     "%s: clang-19 did not put a v_nop after the first WMMA" % target):
            continue
        size = 32 * n * 2
        r = run([amdsim, h, "--kernel", "k", "--grid", "1", "--block", "32"] +
                ["in:" + write(tmp, "a", size), "in:" + write(tmp, "b", size),
                 "inout:%s:%s" % (write(tmp, "c", size), os.path.join(tmp, "co")),
                 "out:64:" + os.path.join(tmp, "o")])
        check(r.returncode == 0, "%s: amdsim rejects clang's WMMA code: %s" % (target, r.stderr))
        off, base = text_section(h)
        data = bytearray(open(h, "rb").read())
        at = off + insns[idx[0] + 1][0] - base
        data[at:at + 4] = struct.pack("<I", 0xBF800000)  # v_nop -> s_nop 0 (not a VALU)
        bad = os.path.join(tmp, "wh_bad.hsaco")
        open(bad, "wb").write(data)
        r = run([amdsim, bad, "--kernel", "k", "--grid", "1", "--block", "32"] +
                ["in:" + write(tmp, "a", size), "in:" + write(tmp, "b", size),
                 "inout:%s:%s" % (write(tmp, "c", size), os.path.join(tmp, "co")),
                 "out:64:" + os.path.join(tmp, "o")])
        check(r.returncode == 3 and "WMMA" in r.stderr,
              "%s: WMMA after WMMA without a VALU between is not reported" % target)


def write(tmp, name, size):
    p = os.path.join(tmp, name + ".bin")
    open(p, "wb").write(bytes(size))
    return p


if __name__ == "__main__":
    main()
