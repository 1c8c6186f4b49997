#!/usr/bin/env python3
"""amdsim inline constants (suite 'sim'): every inline constant in every source position.

  inline_const_test.py AMDSIM [inline] [TARGET...]
  inline_const_test.py AMDSIM divnan [TARGET...]   v_div_fmas_f32/f64 rounded once at the least
      normal (exact rationals); a signaling NaN operand of VALU float ops gives it quieted
  inline_const_test.py AMDSIM outmod [TARGET...]   VOP3 clamp (with and without DX10_CLAMP)
      and omod on conversions and arithmetic; signaling NaN in min/max/min3/med3 (IEEE mode);
      f16 rounding under a non-nearest f32 mode; v_pk_*_f32 with a constant refused by name

For each of the five targets one kernel, written in AMDGPU assembly and assembled by llvm-mc-19,
runs the inline constants 0, 1..64, -1..-16, +-0.5, +-1.0, +-2.0, +-4.0 and 1/(2pi) through
f16/f32/f64 add, sub, mul, min, max, fma and compares (all 14 predicates with the constant in
src1 of the VOP3 form; four with the constant in src0 of VOPC e32 and of VOP3), neg/abs input
modifiers, VOP3P packed f16 (gfx9+), SDWA (gfx9/gfx10), VOPD and VOP3 DPP (gfx11+), VOP1
conversions and 32/64-bit moves (VALU and SALU).  The constant's value for an operand type follows the ISA manuals: a float constant is the value in the operand's own
format (f16, f32, or the full f64), an integer constant is its two's complement bit pattern
(32-bit sign-extended; 64-bit for f64 operands), so 1 read as f32 is the denormal 2^-149.
The expected results are computed here from IEEE-754 semantics (exact rationals, rounded to
nearest even), independent of amdsim; the disassembly (llvm-objdump-19) is checked to hold an
inline constant, not a literal, in each tested instruction.
"""
import math
import os
import re
import struct
import sys
import tempfile
from fractions import Fraction

from simlib import TARGETS, WAVE32, assemble, check, finish, run

LANES = 32

# (format name, exponent bits, mantissa bits)
FMT = {"f16": (5, 10), "f32": (8, 23), "f64": (11, 52)}
WIDTH = {"f16": 16, "f32": 32, "f64": 64}

INT_CONSTS = list(range(0, 65)) + list(range(-1, -17, -1))
FLOAT_CONSTS = [0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0]
INV2PI = "inv2pi"
CONSTS = INT_CONSTS + FLOAT_CONSTS + [INV2PI]
SNAN16, SNAN32, SNAN64 = 0x7d00, 0x7fa00000, 0x7ff4000000000000
MAX_FINITE = {"f16": 0x7bff, "f32": 0x7f7fffff, "f64": 0x7fefffffffffffff}
INV2PI_BITS = {"f16": 0x3118, "f32": 0x3e22f983, "f64": 0x3fc45f306dc9c882}


# ---- IEEE formats on bit patterns ----

def to_bits(x, f):
    """Exact float x (representable in f, or inf/nan) -> bit pattern."""
    if f == "f64":
        return struct.unpack("<Q", struct.pack("<d", x))[0]
    if f == "f32":
        return struct.unpack("<I", struct.pack("<f", x))[0]
    return struct.unpack("<H", struct.pack("<e", x))[0]


def from_bits(b, f):
    if f == "f64":
        return struct.unpack("<d", struct.pack("<Q", b))[0]
    if f == "f32":
        return struct.unpack("<f", struct.pack("<I", b))[0]
    return struct.unpack("<e", struct.pack("<H", b))[0]


def round_exact(v, f):
    """Exact rational v rounded to nearest even in format f, as a Python float (inf on
    overflow); the value is exactly representable in a double."""
    eb, mb = FMT[f]
    emax, emin = (1 << (eb - 1)) - 1, 2 - (1 << (eb - 1))
    if v == 0:
        return 0.0
    neg, a = v < 0, abs(v)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    e = max(e, emin)
    scale = Fraction(2) ** (mb - e)
    m = a * scale
    q = m.numerator // m.denominator
    r = m - q
    if r > Fraction(1, 2) or (r == Fraction(1, 2) and q & 1):
        q += 1
    res = Fraction(q) / scale
    if res >= Fraction(2) ** (emax + 1):
        return -math.inf if neg else math.inf
    return -float(res) if neg else float(res)


def rnd(x, f):
    """Double x (the exactly rounded double of an f16/f32 add/sub/mul, whose rounding to f is
    then correct: 53 >= 2p + 2) rounded to format f, as bits."""
    if math.isnan(x) or math.isinf(x) or x == 0 or f == "f64":
        return to_bits(x, f)
    try:  # struct rounds to nearest even (C conversion; CPython's own f16 packing)
        return to_bits(x, f)
    except OverflowError:
        return to_bits(math.copysign(math.inf, x), f)


def fma_bits(a, b, c, f):
    if any(math.isnan(v) or math.isinf(v) for v in (a, b, c)):
        return to_bits(a * b + c, f)  # inf/nan rules are those of the double expression
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:
        prod_zero_sign = math.copysign(1.0, a) * math.copysign(1.0, b) < 0
        if a * b == 0 and c == 0:  # all zero terms: -0 only when both are -0
            neg = prod_zero_sign and math.copysign(1.0, c) < 0
            return to_bits(-0.0 if neg else 0.0, f)
        return to_bits(0.0, f)
    return to_bits(round_exact(exact, f), f)


def minmax_bits(a, b, f, is_max):
    """IEEE minNum/maxNum (a quiet NaN yields the other operand); None: -0 vs +0, whose order
    the test leaves open."""
    if math.isnan(a) and math.isnan(b):
        return to_bits(math.nan, f)
    if math.isnan(a):
        return to_bits(b, f)
    if math.isnan(b):
        return to_bits(a, f)
    if a == 0 and b == 0 and math.copysign(1, a) != math.copysign(1, b):
        return None
    return to_bits(max(a, b) if is_max else min(a, b), f)


def cmp(a, b, p):
    un = math.isnan(a) or math.isnan(b)
    return {"lt": a < b, "eq": a == b, "le": a <= b, "gt": a > b, "lg": a < b or a > b,
            "ge": a >= b, "o": not un, "u": un, "nge": not a >= b, "nlg": not (a < b or a > b),
            "ngt": not a > b, "nle": not a <= b, "neq": not a == b, "nlt": not a < b}[p]


PREDS = ["lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq", "nlt"]


# ---- the constants ----

def const_bits(c, f):
    """Bit pattern of inline constant c read as an operand of format f."""
    if c == INV2PI:
        return INV2PI_BITS[f]
    if isinstance(c, int):
        return c & ((1 << WIDTH[f]) - 1)
    return to_bits(c, f)


def const_text(c, f):
    if c == INV2PI:
        return "0.15915494309189532" if f == "f64" else "0.15915494"
    return str(c)


def lane_inputs(c, f):
    """32 lane values (bits) around constant c in format f: the constant, its neighbours and
    negation, zeros, the float constants, NaN, infinities, denormals, large values."""
    w = WIDTH[f]
    sign = 1 << (w - 1)
    mask = (1 << w) - 1
    k = const_bits(c, f)
    vals = [k, k ^ sign, (k + 1) & mask, (k - 1) & mask]
    fl = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -2.0, 4.0, -4.0, 64.0, -16.0, math.nan, math.inf,
          -math.inf, 3.0, 100.5 if f != "f16" else 10.5, -7.0, 0.1, -0.25]
    for x in fl:
        vals.append(to_bits(x, f) if x != 0.1 else to_bits(round_exact(Fraction(1, 10), f), f))
    vals += [1, 5, 64, sign | 1, INV2PI_BITS[f], (k ^ sign) + 1 & mask,
             to_bits(round_exact(Fraction(7, 3), f), f), MAX_FINITE[f],
             1 << FMT[f][1]]
    assert len(vals) == LANES, len(vals)
    return vals


def partner(vals):
    return vals[7:] + vals[:7]


# ---- cases ----

class Case:
    def __init__(self, lines, out, ref, key, exact=False):
        self.lines, self.out, self.ref, self.key = lines, out, ref, key  # out: 'b32'|'b64'
        self.exact = exact  # compare NaNs bit for bit (quiet bit and payload)


def vreg(f, which, half_hi=False):
    """Input VGPRs: f32 x v10, y v11; f64 x v[12:13], y v[14:15]; f16 x v16, y v17."""
    return {"f32": ["v10", "v11"], "f64": ["v[12:13]", "v[14:15]"],
            "f16": ["v16", "v17"]}[f][which]


def names(t):
    g12 = t == "gfx1200"
    return {"min": "v_min_num" if g12 else "v_min", "max": "v_max_num" if g12 else "v_max",
            "pk_max": "v_pk_max_num_f16" if g12 else "v_pk_max_f16"}


def arith_cases(t, c, f, x, y):
    """(asm, result bits per lane) for f add/sub/mul/min/max/fma with c in each position."""
    k = const_bits(c, f)
    kv = from_bits(k, f)
    xv = [from_bits(b, f) for b in x]
    yv = [from_bits(b, f) for b in y]
    ct = const_text(c, f)
    X, Y = vreg(f, 0), vreg(f, 1)
    d = "v[20:21]" if f == "f64" else "v20"
    e64 = "_e64" if f != "f64" else ""
    nm = names(t)
    out = "b64" if f == "f64" else ("b16" if f == "f16" else "b32")
    res = []

    def add(lines, fn, key):
        res.append(Case(lines, out, [fn(i) for i in range(LANES)], key))

    for op, fn in (("add", lambda a, b: a + b), ("mul", lambda a, b: a * b)):
        if f != "f64":  # VOP2 e32: a constant can only be src0
            add(["v_%s_%s %s, %s, %s" % (op, f, d, ct, X)],
                lambda i, fn=fn: rnd(fn(kv, xv[i]), f), "%s e32 src0" % op)
        add(["v_%s_%s%s %s, %s, %s" % (op, f, e64, d, ct, X)],
            lambda i, fn=fn: rnd(fn(kv, xv[i]), f), "%s vop3 src0" % op)
    add(["v_add_%s%s %s, %s, %s" % (f, e64, d, X, ct)], lambda i: rnd(xv[i] + kv, f),
        "add vop3 src1")
    add(["v_mul_%s%s %s, -|%s|, %s" % (f, e64, d, X, ct)], lambda i: rnd(-abs(xv[i]) * kv, f),
        "mul vop3 -|src0| src1")
    if f != "f64":
        add(["v_sub_%s_e64 %s, %s, %s" % (f, d, X, ct)], lambda i: rnd(xv[i] - kv, f),
            "sub vop3 src1")
    for mm in ("min", "max"):
        name = "%s_%s" % (nm[mm], f)
        if f != "f64":
            add(["%s %s, %s, %s" % (name, d, ct, X)],
                lambda i, mm=mm: minmax_bits(kv, xv[i], f, mm == "max"), "%s e32 src0" % mm)
        add(["%s%s %s, %s, %s" % (name, e64, d, X, ct)],
            lambda i, mm=mm: minmax_bits(xv[i], kv, f, mm == "max"), "%s vop3 src1" % mm)
    for pos in range(3):
        ops = [X, Y, X]
        vals = [xv, yv, xv]
        ops[pos] = ct
        add(["v_fma_%s %s, %s" % (f, d, ", ".join(ops))],
            lambda i, pos=pos: fma_bits(*[kv if j == pos else vals[j][i] for j in range(3)],
                                        f), "fma src%d" % pos)
    return res


def cmp_cases(t, c, f, x):
    k = const_bits(c, f)
    kv = from_bits(k, f)
    xv = [from_bits(b, f) for b in x]
    ct = const_text(c, f)
    X = vreg(f, 0)
    w32 = t in WAVE32
    vcc, sd = ("vcc_lo", "s8") if w32 else ("vcc", "s[8:9]")
    res = []

    def add(cmp_line, mask, fn, key):
        lines = [cmp_line, "v_cndmask_b32_e64 v20, 0, 1, %s" % mask]
        if not w32:  # gfx940 has no interlock for a VALU-written SGPR read by VALU
            lines.insert(1, "s_nop 1")
        res.append(Case(lines, "b32", [int(fn(i)) for i in range(LANES)], key))

    for p in PREDS:
        add("v_cmp_%s_%s_e64 %s, %s, %s" % (p, f, sd, X, ct), sd,
            lambda i, p=p: cmp(xv[i], kv, p), "cmp_%s e64 src1" % p)
    n = CONSTS.index(c)
    for j in range(4):  # four predicates per constant, rotating through all 14
        p = PREDS[(4 * n + j) % len(PREDS)]
        add("v_cmp_%s_%s %s, %s, %s" % (p, f, vcc, ct, X), vcc,
            lambda i, p=p: cmp(kv, xv[i], p), "cmp_%s e32 src0" % p)
        add("v_cmp_%s_%s_e64 %s, %s, %s" % (p, f, sd, ct, X), sd,
            lambda i, p=p: cmp(kv, xv[i], p), "cmp_%s e64 src0" % p)
    add("v_cmp_lt_%s_e64 %s, |%s|, %s" % (f, sd, X, ct), sd,
        lambda i: cmp(abs(xv[i]), kv, "lt"), "cmp_lt e64 |src0| src1")
    add("v_cmp_ge_%s_e64 %s, -%s, %s" % (f, sd, X, ct), sd,
        lambda i: cmp(-xv[i], kv, "ge"), "cmp_ge e64 -src0 src1")
    return res


def packed_cases(t, c, x16, y16):
    """VOP3P f16 with the constant in each position.  op_sel_hi is 0 for the constant (its
    low half feeds both results), so only the documented f16 value of the constant is used."""
    k = const_bits(c, "f16")
    kv = from_bits(k, "f16")
    lo = [from_bits(b, "f16") for b in x16]  # v16 = x | y << 16, v17 = y | x << 16
    hi = [from_bits(b, "f16") for b in y16]
    ct = const_text(c, "f16")
    res = []

    def add(lines, flo, fhi, key):
        ref = [flo(i) | fhi(i) << 16 for i in range(LANES)]
        res.append(Case(lines, "pk16", ref, key))

    for op, fn in (("add", lambda a, b: a + b), ("mul", lambda a, b: a * b)):
        add(["v_pk_%s_f16 v20, %s, v16 op_sel_hi:[0,1]" % (op, ct)],
            lambda i, fn=fn: rnd(fn(kv, lo[i]), "f16"), lambda i, fn=fn: rnd(fn(kv, hi[i]), "f16"),
            "pk_%s src0" % op)
        add(["v_pk_%s_f16 v20, v16, %s op_sel_hi:[1,0]" % (op, ct)],
            lambda i, fn=fn: rnd(fn(lo[i], kv), "f16"), lambda i, fn=fn: rnd(fn(hi[i], kv), "f16"),
            "pk_%s src1" % op)
    add(["%s v20, v16, %s op_sel_hi:[1,0]" % (names(t)["pk_max"], ct)],
        lambda i: minmax_bits(lo[i], kv, "f16", True) or 0,
        lambda i: minmax_bits(hi[i], kv, "f16", True) or 0, "pk_max src1")
    for pos in range(3):
        ops = ["v16", "v17", "v16"]
        ops[pos] = ct
        sel = ",".join("0" if j == pos else "1" for j in range(3))
        a_lo = [lo, hi, lo]  # low halves of v16, v17, v16
        a_hi = [hi, lo, hi]
        add(["v_pk_fma_f16 v20, %s op_sel_hi:[%s]" % (", ".join(ops), sel)],
            lambda i, pos=pos: fma_bits(*[kv if j == pos else a_lo[j][i] for j in range(3)],
                                        "f16"),
            lambda i, pos=pos: fma_bits(*[kv if j == pos else a_hi[j][i] for j in range(3)],
                                        "f16"), "pk_fma src%d" % pos)
    # pk_max lanes with -0 vs +0 are open: mark them
    for cs in res:
        if cs.key == "pk_max src1":
            for i in range(LANES):
                if (minmax_bits(lo[i], kv, "f16", True) is None
                        or minmax_bits(hi[i], kv, "f16", True) is None):
                    cs.ref[i] = None
    return res


def sdwa_cases(t, c, x32, x16, y16):
    """SDWA (gfx9, gfx10): f32 add with the constant in src0 and src1; f16 add reading the high
    word of v16 (y) with the constant in src1."""
    k32, k16 = from_bits(const_bits(c, "f32"), "f32"), from_bits(const_bits(c, "f16"), "f16")
    ct32, ct16 = const_text(c, "f32"), const_text(c, "f16")
    xv = [from_bits(b, "f32") for b in x32]
    hv = [from_bits(b, "f16") for b in y16]
    sel = "dst_sel:DWORD dst_unused:UNUSED_PAD"
    return [
        Case(["v_add_f32_sdwa v20, %s, v10 %s src0_sel:DWORD src1_sel:DWORD" % (ct32, sel)], "b32",
             [rnd(k32 + xv[i], "f32") for i in range(LANES)], "add_f32 sdwa src0"),
        Case(["v_add_f32_sdwa v20, v10, %s %s src0_sel:DWORD src1_sel:DWORD" % (ct32, sel)], "b32",
             [rnd(xv[i] + k32, "f32") for i in range(LANES)], "add_f32 sdwa src1"),
        Case(["v_add_f16_sdwa v20, v16, %s dst_sel:WORD_0 dst_unused:UNUSED_PAD "
              "src0_sel:WORD_1 src1_sel:WORD_0" % ct16], "b16",
             [rnd(hv[i] + k16, "f16") for i in range(LANES)], "add_f16 sdwa word1 src1"),
    ] + sdwa_cmp_cases(t, c, x32, y16)


def sdwa_cmp_cases(t, c, x32, y16):
    """SDWA compares with an SGPR destination: the constant in src0, src1 a selected word (the
    high word of v10 read as the f32 bit pattern it zero-extends to; the high half of v16)."""
    k32, k16 = from_bits(const_bits(c, "f32"), "f32"), from_bits(const_bits(c, "f16"), "f16")
    ct32, ct16 = const_text(c, "f32"), const_text(c, "f16")
    w1 = [from_bits(b >> 16, "f32") for b in x32]
    hv = [from_bits(b, "f16") for b in y16]
    sd = "s8" if t in WAVE32 else "s[8:9]"
    res = []
    for p, line, a, b in (
            ("lt", "v_cmp_lt_f32_sdwa %s, %s, v10 src0_sel:DWORD src1_sel:WORD_1" % (sd, ct32),
             [k32] * LANES, w1),
            ("ge", "v_cmp_ge_f16_sdwa %s, %s, v16 src0_sel:WORD_0 src1_sel:WORD_1" % (sd, ct16),
             [k16] * LANES, hv)):
        lines = [line, "s_nop 1", "v_cndmask_b32_e64 v20, 0, 1, %s" % sd]
        res.append(Case(lines, "b32", [int(cmp(a[i], b[i], p)) for i in range(LANES)],
                        "cmp_%s sdwa src1 word1" % p))
    return res


def vopd_cases(t, c, x32, y32):
    k = from_bits(const_bits(c, "f32"), "f32")
    ct = const_text(c, "f32")
    xv = [from_bits(b, "f32") for b in x32]
    yv = [from_bits(b, "f32") for b in y32]
    line = "v_dual_add_f32 v20, %s, v10 :: v_dual_mul_f32 v21, %s, v11" % (ct, ct)
    return [Case([line], "b32x2",
                 [(rnd(k + xv[i], "f32"), rnd(k * yv[i], "f32")) for i in range(LANES)],
                 "vopd add/mul src0")]


def dpp_cases(t, c, x32, y32):
    """VOP3 DPP (gfx11+) with the constant in src2 (gfx11) or src1/src2 (gfx12): src0 is read
    from the neighbour lane (quad_perm:[1,0,3,2] and dpp8:[1,0,3,2,5,4,7,6] both swap pairs)."""
    k = from_bits(const_bits(c, "f32"), "f32")
    ct = const_text(c, "f32")
    xv = [from_bits(b, "f32") for b in x32]
    yv = [from_bits(b, "f32") for b in y32]
    qp = "quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"
    res = [Case(["v_fma_f32_e64_dpp v20, v10, v11, %s %s" % (ct, qp)], "b32",
                [fma_bits(xv[i ^ 1], yv[i], k, "f32") for i in range(LANES)], "fma dpp src2")]
    if t == "gfx1200":
        res += [Case(["v_add_f32_e64_dpp v20, v10, %s %s" % (ct, qp)], "b32",
                     [rnd(xv[i ^ 1] + k, "f32") for i in range(LANES)], "add dpp src1"),
                Case(["v_mul_f32_e64_dpp v20, v10, %s dpp8:[1,0,3,2,5,4,7,6]" % ct], "b32",
                     [rnd(xv[i ^ 1] * k, "f32") for i in range(LANES)], "mul dpp8 src1")]
    return res


def vop1_salu_cases(t, c, x32):
    """VOP1 conversions reading the constant as f32, f16 and f64; integer moves (32-bit: the f32
    pattern of a float constant; 64-bit: the f64 pattern, integers sign-extended) in VALU
    (v_lshlrev_b64 by 0) and SALU (s_mov_b32/b64); gfx12 SALU f32 arithmetic."""
    k32, k16, k64 = (const_bits(c, f) for f in ("f32", "f16", "f64"))
    f32v, f16v, f64v = from_bits(k32, "f32"), from_bits(k16, "f16"), from_bits(k64, "f64")
    k64i = k64 if not isinstance(c, int) else c & ((1 << 64) - 1)
    ct32, ct16, ct64 = (const_text(c, f) for f in ("f32", "f16", "f64"))
    res = [Case(["v_cvt_f64_f32 v[20:21], %s" % ct32], "b64", [to_bits(f32v, "f64")] * LANES,
                "cvt_f64_f32 vop1 src0"),
           Case(["v_cvt_f32_f16 v20, %s" % ct16], "b32", [to_bits(f16v, "f32")] * LANES,
                "cvt_f32_f16 vop1 src0"),
           Case(["v_cvt_f32_f64 v20, %s" % ct64], "b32", [rnd(f64v, "f32")] * LANES,
                "cvt_f32_f64 vop1 src0"),
           Case(["v_mov_b32 v20, %s" % ct32], "b32", [k32] * LANES, "mov_b32 vop1"),
           Case(["v_lshlrev_b64 v[20:21], 0, %s" % ct64], "b64", [k64i] * LANES,
                "lshlrev_b64 vop3 src1"),
           Case(["s_mov_b32 s10, %s" % ct32, "v_mov_b32 v20, s10"], "b32", [k32] * LANES,
                "s_mov_b32"),
           Case(["s_mov_b64 s[10:11], %s" % ct64, "v_mov_b32 v20, s10", "v_mov_b32 v21, s11"],
                "b64", [k64i] * LANES, "s_mov_b64")]
    if t == "gfx1200":
        x0 = from_bits(x32[0], "f32")
        res.append(Case(["v_readfirstlane_b32 s11, v10", "s_add_f32 s10, s11, %s" % ct32,
                         "v_mov_b32 v20, s10"], "b32", [rnd(x0 + f32v, "f32")] * LANES,
                        "s_add_f32 src1"))
    return res


def all_groups(t):
    """[(inputs: {f: (x, y)}, [Case])] per constant."""
    groups = []
    for c in CONSTS:
        inp = {}
        for f in ("f32", "f64", "f16"):
            x = lane_inputs(c, f)
            inp[f] = (x, partner(x))
        cases = []
        for f in ("f32", "f64", "f16"):
            cases += arith_cases(t, c, f, *inp[f])
            cases += cmp_cases(t, c, f, inp[f][0])
        cases += packed_cases(t, c, inp["f16"][0], inp["f16"][1])
        cases += vop1_salu_cases(t, c, inp["f32"][0])
        if t in ("gfx90a", "gfx942", "gfx1030"):
            cases += sdwa_cases(t, c, inp["f32"][0], inp["f16"][0], inp["f16"][1])
        if t in ("gfx1100", "gfx1200"):
            cases += vopd_cases(t, c, *inp["f32"])
            cases += dpp_cases(t, c, *inp["f32"])
        groups.append((c, inp, cases))
    return groups


# ---- kernel ----

GROUP_IN = 1024  # input bytes per constant: f32 x,y (128 each), f64 x,y (256 each), v16, v17


def group_input(inp):
    x32, y32 = inp["f32"]
    x64, y64 = inp["f64"]
    x16, y16 = inp["f16"]
    b = struct.pack("<32I", *x32) + struct.pack("<32I", *y32)
    b += struct.pack("<32Q", *x64) + struct.pack("<32Q", *y64)
    b += struct.pack("<32I", *[x16[i] | y16[i] << 16 for i in range(LANES)])
    b += struct.pack("<32I", *[y16[i] | x16[i] << 16 for i in range(LANES)])
    assert len(b) == GROUP_IN
    return b


def out_bytes(case):
    return 256 if case.out in ("b64", "b32x2") else 128


def kernel_src(t, groups, round32=0, extra=""):
    wave = 32 if t in WAVE32 else 64
    g12 = t == "gfx1200"
    vmwait = "s_wait_loadcnt 0x0" if g12 else "s_waitcnt vmcnt(0)"
    body = ["s_load_dwordx4 s[4:7], s[0:1], 0x0",
            "v_lshlrev_b32 v1, 2, v0", "v_lshlrev_b32 v2, 3, v0",
            "s_wait_kmcnt 0x0" if g12 else "s_waitcnt lgkmcnt(0)"]
    for _, _, cases in groups:
        body += ["global_load_dword v10, v1, s[4:5]", "global_load_dword v11, v1, s[4:5] offset:128",
                 "global_load_dwordx2 v[12:13], v2, s[4:5] offset:256",
                 "global_load_dwordx2 v[14:15], v2, s[4:5] offset:512",
                 "global_load_dword v16, v1, s[4:5] offset:768",
                 "global_load_dword v17, v1, s[4:5] offset:896", vmwait,
                 "s_add_u32 s4, s4, %d" % GROUP_IN, "s_addc_u32 s5, s5, 0"]
        for cs in cases:
            body += cs.lines
            if cs.out == "b64":
                body.append("global_store_dwordx2 v2, v[20:21], s[6:7]")
            elif cs.out == "b32x2":
                body += ["global_store_dword v1, v20, s[6:7]",
                         "global_store_dword v1, v21, s[6:7] offset:128"]
            else:
                body.append("global_store_dword v1, v20, s[6:7]")
            body += ["s_add_u32 s6, s6, %d" % out_bytes(cs), "s_addc_u32 s7, s7, 0"]
    body.append("s_endpgm")
    desc = "  .amdhsa_wavefront_size32 1\n" if wave == 32 else "  .amdhsa_accum_offset 24\n"
    return """.amdgcn_target "amdgcn-amd-amdhsa--{t}"
.text
.globl ic
.p2align 8
.type ic,@function
ic:
{body}
.rodata
.p2align 6
.amdhsa_kernel ic
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 24
  .amdhsa_next_free_sgpr 16
  .amdhsa_float_denorm_mode_32 3
  .amdhsa_float_denorm_mode_16_64 3
  .amdhsa_float_round_mode_32 {round32}
{extra}{desc}.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: ic
    .symbol: ic.kd
    .kernarg_segment_size: 16
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: {wave}
    .sgpr_count: 16
    .vgpr_count: 24
    .max_flat_workgroup_size: 64
    .args:
      - {{ .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }}
      - {{ .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }}
...
.end_amdgpu_metadata
""".format(t=t, body="\n".join("  " + ln for ln in body), desc=desc, wave=wave, round32=round32,
           extra=extra)


def literal_free(hsaco):
    """Instructions of the tested forms that llvm-mc encoded with a literal (a hex operand in
    llvm-objdump-19's text) instead of an inline constant."""
    out = run(["llvm-objdump-19", "-d", hsaco]).stdout
    bad = []
    for ln in out.splitlines():
        text = re.sub(r"(row|bank)_mask:0x[0-9a-f]+", "", ln.split("//")[0])
        if re.search(r"\bv_", text) and re.search(r"0x[0-9a-fA-F]+", text):
            bad.append(text.strip())
    return bad


def same(got, want, kind):
    if want is None:
        return True
    if kind == "b32" and isinstance(want, int) and want in (0, 1):
        return got == want
    f = {"b16": "f16", "b32": "f32", "b64": "f64"}[kind]
    gv, wv = from_bits(got, f), from_bits(want, f)
    if math.isnan(wv):
        return math.isnan(gv)
    return got == want


def compare(t, groups, data):
    off = 0
    bad = 0
    for c, _, cases in groups:
        for cs in cases:
            n = out_bytes(cs)
            chunk = data[off:off + n]
            off += n
            if cs.out == "b64":
                got = struct.unpack("<32Q", chunk)
                kinds = ["b64"] * LANES
                pairs = list(zip(got, cs.ref, kinds))
            elif cs.out == "b32x2":
                g = struct.unpack("<64I", chunk)
                pairs = [(g[i], cs.ref[i][0], "b32") for i in range(LANES)]
                pairs += [(g[32 + i], cs.ref[i][1], "b32") for i in range(LANES)]
            elif cs.out == "pk16":
                g = struct.unpack("<32I", chunk)
                pairs = [(g[i] & 0xffff, None if cs.ref[i] is None else cs.ref[i] & 0xffff, "b16")
                         for i in range(LANES)]
                pairs += [(g[i] >> 16, None if cs.ref[i] is None else cs.ref[i] >> 16, "b16")
                          for i in range(LANES)]
            else:
                g = struct.unpack("<32I", chunk)
                if cs.out == "b16":
                    g = [v & 0xffff for v in g]
                kind = "b16" if cs.out == "b16" else "b32"
                pairs = [(g[i], cs.ref[i], kind) for i in range(LANES)]
                if "v_cndmask" in cs.lines[-1]:
                    pairs = [(g[i], cs.ref[i], "b32") for i in range(LANES)]
            wrong = [i for i, (gv, wv, kd) in enumerate(pairs)
                     if not (gv == wv if cs.exact and wv is not None else same(gv, wv, kd))]
            if wrong:
                bad += 1
                if bad <= 12:
                    i = wrong[0]
                    check(False, "%s const %s %s [%s]: lane %d got 0x%x want %s (%d lanes)"
                          % (t, c, cs.key, cs.lines[0], i % LANES, pairs[i][0],
                             hex(pairs[i][1]), len(wrong)))
    check(bad == 0, "%s: %d of %d cases differ" % (t, bad, sum(len(g[2]) for g in groups)))


def test_target(amdsim, tmp, t):
    groups = all_groups(t)
    h, err = assemble(kernel_src(t, groups), t, os.path.join(tmp, "ic-" + t))
    if not check(h, "%s: llvm-mc: %s" % (t, err[:1500])):
        return
    lits = literal_free(h)
    check(not lits, "%s: %d tested instructions hold a literal, e.g. %s" % (t, len(lits), lits[:3]))
    inb, outb = os.path.join(tmp, "ic.in"), os.path.join(tmp, "ic.out")
    open(inb, "wb").write(b"".join(group_input(g[1]) for g in groups))
    size = sum(out_bytes(cs) for g in groups for cs in g[2])
    r = run([amdsim, h, "--kernel", "ic", "--grid", "1", "--block", str(LANES), "in:" + inb,
             "out:%d:%s" % (size, outb)])
    if not check(r.returncode == 0, "%s: amdsim exit %d: %s" % (t, r.returncode, r.stderr[:800])):
        return
    compare(t, groups, open(outb, "rb").read())


# ---- output modifiers (clamp, omod) on conversions and arithmetic ----

def clamp_ref(v, t):
    """VOP3 clamp to [0, 1]: NaN gives +0 with DX10_CLAMP (the descriptor default before
    gfx12; left open on gfx12, which has no such mode bit); -0.0 is left open."""
    if math.isnan(v):
        return None if t == "gfx1200" else 0.0
    if v == 0 and math.copysign(1.0, v) < 0:
        return None
    return 0.0 if v < 0 else 1.0 if v > 1 else v


def outmod_group(t):
    x32 = [0.5, 1.5, -0.25, 2.0, 0.999, 1.0000001, math.nan, math.inf, -math.inf, 0.0, 3e38,
           -3.0, 0.75, 0.25, 100.0, 1e-30, 0.3, -1e-30, 0.0625, 1.0, 0.9, 65504.0, 7.5, -0.5,
           0.125, 1.25, 0.01, 1e10, -1e10, 2.5, 0.6, 3.0]
    x32 = [to_bits(v, "f32") for v in x32]
    x32[27] = SNAN32
    ints = [0, 1, 2, -1, 255, 256, 0x1ff, -5, 7, 3, 0x7fff, -0x8000, 100, -100, 0x1234, 0x80,
            0xff, 0x101, 4, 5, 6, 8, 9, 10, 11, 12, -2, -3, 1000, 0x3ff, 0x7f, 0x81]
    ints = [v & 0xffffffff for v in ints]
    x64 = [to_bits(from_bits(b, "f32") * 1.5, "f64") for b in x32]
    x64[27] = SNAN64
    x16 = [rnd(from_bits(b, "f32"), "f16") for b in x32]
    x16[27] = SNAN16
    inp = {"f32": (x32, ints), "f64": (x64, x64), "f16": (x16, x16)}
    f32 = [from_bits(b, "f32") for b in x32]
    f64 = [from_bits(b, "f64") for b in x64]
    f16 = [from_bits(b, "f16") for b in x16]
    si = [v - (1 << 32) if v >> 31 else v for v in ints]
    cases = []

    def add(line, out, f, vals, omod=1.0, clamp=False):
        """vals: exact results before the output modifiers (Python floats, exact in f)."""
        ref = []
        for v in vals:
            r = v * omod
            if clamp:
                r = clamp_ref(r, t)
            ref.append(None if r is None else rnd(r, f))
        cases.append(Case([line], out, ref, line))

    for mod, om, cl in (("clamp", 1.0, True), ("mul:2", 2.0, False), ("div:2", 0.5, False),
                        ("clamp mul:4", 4.0, True)):
        add("v_cvt_f64_f32_e64 v[20:21], v10 " + mod, "b64", "f64", f32, om, cl)
        add("v_cvt_f32_f64_e64 v20, v[12:13] " + mod, "b32", "f32",
            [from_bits(rnd(v, "f32"), "f32") for v in f64], om, cl)
        add("v_cvt_f32_f16_e64 v20, v16 " + mod, "b32", "f32", f16, om, cl)
        add("v_cvt_f16_f32_e64 v20, v10 " + mod, "b16", "f16",
            [from_bits(rnd(v, "f16"), "f16") for v in f32], om, cl)
        add("v_cvt_f32_i32_e64 v20, v11 " + mod, "b32", "f32",
            [from_bits(rnd(float(v), "f32"), "f32") for v in si], om, cl)
        add("v_cvt_f32_u32_e64 v20, v11 " + mod, "b32", "f32",
            [from_bits(rnd(float(v), "f32"), "f32") for v in ints], om, cl)
        add("v_cvt_f64_i32_e64 v[20:21], v11 " + mod, "b64", "f64", [float(v) for v in si], om,
            cl)
        add("v_cvt_f64_u32_e64 v[20:21], v11 " + mod, "b64", "f64", [float(v) for v in ints],
            om, cl)
        add("v_cvt_f32_ubyte1_e64 v20, v11 " + mod, "b32", "f32",
            [float((v >> 8) & 0xff) for v in ints], om, cl)
        add("v_cvt_f16_i16_e64 v20, v11 " + mod, "b16", "f16",
            [float(((v & 0xffff) ^ 0x8000) - 0x8000) for v in ints], om, cl)
        add("v_add_f32_e64 v20, v10, 0.5 " + mod, "b32", "f32",
            [from_bits(rnd(v + 0.5, "f32"), "f32") for v in f32], om, cl)
        add("v_mul_f64 v[20:21], v[12:13], -2.0 " + mod, "b64", "f64", [v * -2.0 for v in f64],
            om, cl)
    # min/max: a signaling NaN operand gives a quiet NaN in IEEE mode (MODE.IEEE, on by default
    # in the descriptor before gfx12); gfx12's v_min_num/v_max_num return the other operand
    g12 = t == "gfx1200"
    nm = names(t)
    snan_ref = lambda i, other: (other if g12 else math.nan) if i == 27 else None

    def mm(line, out, f, vals):
        cases.append(Case([line], out, [rnd(v, f) for v in vals], line))

    mm("%s_f32_e64 v20, v10, 1.0" % nm["min"], "b32", "f32",
       [1.0 if math.isnan(v) and i != 27 else snan_ref(i, 1.0) or min(v, 1.0)
        for i, v in enumerate(f32)])
    mm("%s_f32_e64 v20, 1.0, v10" % nm["max"], "b32", "f32",
       [1.0 if math.isnan(v) and i != 27 else snan_ref(i, 1.0) or max(v, 1.0)
        for i, v in enumerate(f32)])
    mm("%s_f64 v[20:21], v[12:13], 1.0" % nm["max"], "b64", "f64",
       [1.0 if math.isnan(v) and i != 27 else snan_ref(i, 1.0) or max(v, 1.0)
        for i, v in enumerate(f64)])
    mm("%s_f16_e64 v20, v16, 1.0" % nm["max"], "b16", "f16",
       [1.0 if math.isnan(v) and i != 27 else snan_ref(i, 1.0) or max(v, 1.0)
        for i, v in enumerate(f16)])
    pk = [1.0 if math.isnan(v) and i != 27 else snan_ref(i, 1.0) or min(v, 1.0)
          for i, v in enumerate(f16)]
    pkmin = "v_pk_min_num_f16" if g12 else "v_pk_min_f16"
    cases.append(Case(["%s v20, v16, 1.0 op_sel_hi:[1,0]" % pkmin], "pk16",
                      [rnd(v, "f16") | rnd(v, "f16") << 16 for v in pk], "pk_min snan"))
    # med3 with a NaN operand is min3 of the three (ISA pseudo-code): 0.5 here, whatever the NaN
    med3 = "v_med3_num_f32" if g12 else "v_med3_f32"
    mm("%s v20, v10, 1.0, 0.5" % med3, "b32", "f32",
       [0.5 if math.isnan(v) or i == 27 else sorted([v, 1.0, 0.5])[1] for i, v in enumerate(f32)])
    min3 = "v_min3_num_f32" if g12 else "v_min3_f32"
    # min3 is min(min(S0, S1), S2): the quiet NaN of the inner min yields S2
    mm("%s v20, v10, 1.0, 2.0" % min3, "b32", "f32",
       [1.0 if math.isnan(v) and i != 27 else (1.0 if g12 else 2.0) if i == 27 else min(v, 1.0)
        for i, v in enumerate(f32)])
    return [("outmod", inp, cases)]


def f16_round_group():
    """f16 arithmetic under an f32 rounding mode of +inf (descriptor FLOAT_ROUND_MODE_32 = 1,
    FP16/FP64 mode nearest even): ties and inexact sums must still round to nearest even."""
    x16 = [to_bits(1024.0 + i, "f16") for i in range(LANES)]
    inp = {"f32": ([0] * LANES, [0] * LANES), "f64": ([0] * LANES, [0] * LANES),
           "f16": (x16, x16)}
    xs = [1024.0 + i for i in range(LANES)]
    cases = [Case(["v_add_f16_e64 v20, v16, 0.5"], "b16", [rnd(x + 0.5, "f16") for x in xs],
                  "add_f16 round"),
             Case(["v_fma_f16 v20, v16, 0.5, v17"], "b16",
                  [fma_bits(x, 0.5, x, "f16") for x in xs], "fma_f16 round"),
             Case(["v_pk_add_f16 v20, v16, 0.5 op_sel_hi:[1,0]"], "pk16",
                  [rnd(x + 0.5, "f16") * 0x10001 for x in xs], "pk_add_f16 round")]
    return [("f16-round", inp, cases)]


def test_outmod(amdsim, tmp, t):
    run_kernel(amdsim, tmp, t, "om", outmod_group(t), 0)
    run_kernel(amdsim, tmp, t, "f16r", f16_round_group(), 1)
    if t in ("gfx90a", "gfx942"):
        test_pk_f32_constant(amdsim, tmp, t)
    if t != "gfx1200":  # gfx12 has no DX10_CLAMP bit
        run_kernel(amdsim, tmp, t, "dx10", dx10_off_group(), 0, "  .amdhsa_dx10_clamp 0\n")


def dx10_off_group():
    """Clamp with MODE.DX10_CLAMP clear (descriptor ENABLE_DX10_CLAMP = 0): a NaN result passes
    through the clamp instead of becoming 0 (MODE register description in the ISA manuals)."""
    x32 = [to_bits(v, "f32") for v in (math.nan, 2.0, -1.0, 0.25)] * (LANES // 4)
    x64 = [to_bits(from_bits(b, "f32"), "f64") for b in x32]
    inp = {"f32": (x32, x32), "f64": (x64, x64), "f16": ([0] * LANES, [0] * LANES)}
    f32 = [from_bits(b, "f32") for b in x32]
    ref = lambda v: math.nan if math.isnan(v) else min(max(v, 0.0), 1.0)
    return [("dx10-off", inp, [
        Case(["v_add_f32_e64 v20, v10, 0.5 clamp"], "b32",
             [rnd(ref(v + 0.5), "f32") for v in f32], "add_f32 clamp dx10 off"),
        Case(["v_mul_f64 v[20:21], v[12:13], 2.0 clamp"], "b64",
             [rnd(ref(v * 2.0), "f64") for v in f32], "mul_f64 clamp dx10 off"),
        Case(["v_cvt_f64_f32_e64 v[20:21], v10 clamp"], "b64",
             [rnd(ref(v), "f64") for v in f32], "cvt_f64_f32 clamp dx10 off")])]


def test_pk_f32_constant(amdsim, tmp, t):
    """v_pk_*_f32 with an inline constant: what the high half reads is not modeled, so amdsim
    must stop and name the instruction rather than guess."""
    inp = {"f32": ([0] * LANES, [0] * LANES), "f64": ([0] * LANES, [0] * LANES),
           "f16": ([0] * LANES, [0] * LANES)}
    groups = [("pk", inp, [Case(["v_pk_mul_f32 v[20:21], v[12:13], 1.0"], "b64",
                                [None] * LANES, "pk_mul_f32 constant")])]
    h, err = assemble(kernel_src(t, groups), t, os.path.join(tmp, "pkf-" + t))
    if not check(h, "%s pk_f32: llvm-mc: %s" % (t, err[:800])):
        return
    inb, outb = os.path.join(tmp, "pkf.in"), os.path.join(tmp, "pkf.out")
    open(inb, "wb").write(group_input(inp))
    r = run([amdsim, h, "--kernel", "ic", "--grid", "1", "--block", str(LANES), "in:" + inb,
             "out:256:" + outb])
    check(r.returncode != 0 and "v_pk_mul_f32 with a constant" in r.stderr,
          "%s: v_pk_mul_f32 with a constant is refused by name (exit %d: %s)"
          % (t, r.returncode, r.stderr[:300]))


# ---- v_div_fmas rounding, signaling NaN quieting (mode 'divnan') ----

def fmas_lanes(f, rng):
    """32 (a, b, c) triples for v_div_fmas_f32/f64 (VCC set): quotients at the least normal
    after the scaling (2^-64 / 2^-128 for |c| < 2, 2^+64 / 2^+128 otherwise), deep subnormals,
    overflow, and the case of PTX div.rn.f32 0x807fffff / 0x3f7fffff (one rounding of the
    exact fma scaled: 0x807fffff, where rounding the fma first gives 0x80800000)."""
    eb, mb = FMT[f]
    k = 64 if f == "f32" else 128
    emin = 2 - (1 << (eb - 1))
    edge = emin + k  # exponent of the least normal before the scaling down
    r = lambda v: round_exact(Fraction(v), f)
    below = r(Fraction(2) ** edge - Fraction(2) ** (edge - mb - 1))  # just below, one ulp
    tiny = 2.0 ** (edge - mb - 16)  # far below one ulp of `below`: the fma rounds to it
    lanes = [(-tiny, 1.0, below), (tiny, 1.0, -below), (tiny, -1.0, below),
             (tiny * 2.0 ** -20, 1.0, below)]
    while len(lanes) < 24:  # near the least normal and deep into the subnormals
        e = edge - rng.choice([0, 0, 1, 3, 10, mb - 2, mb])
        c = r(Fraction(rng.randrange(1 << mb, 2 << mb), 1 << mb) * Fraction(2) ** (e - 1))
        a = r(Fraction(rng.randrange(1 << mb, 2 << mb), 1 << mb)
              * Fraction(2) ** (e - rng.randrange(mb - 4, mb + 8)))
        b = r(Fraction(rng.randrange(1 << mb, 2 << mb), 1 << mb) * rng.choice([1, -1]))
        lanes.append((a, b, rng.choice([c, -c])))
    big = 2.0 ** ((1 << (eb - 1)) - k)  # scaled up: near and past the largest finite
    for m in (1.0, 1.5, 1.999, 0.75):
        lanes.append((r(Fraction(rng.randrange(1, 1 << 20), 1 << 22)), 1.0, r(Fraction(big * m))))
    lanes += [(1.0, 1.0, 2.0), (3.0, 0.5, -0.75), (1.0, 2.0 ** (edge - 30), 0.0), (0.0, 0.0, 0.0)]
    return lanes


def fmas_ref(a, b, c, f):
    k = 64 if f == "f32" else 128
    exact = (Fraction(a) * Fraction(b) + Fraction(c)) * Fraction(2) ** (k if abs(c) >= 2 else -k)
    if exact == 0:
        return None  # the sign of an exact zero is left open
    return to_bits(round_exact(exact, f), f)


def fmas_groups(t):
    import random
    rng = random.Random(7)
    vcc = "s_mov_b32 vcc_lo, -1" if t in WAVE32 else "s_mov_b64 vcc, -1"
    zero = [0] * LANES
    l32 = fmas_lanes("f32", rng)
    x32 = [to_bits(a, "f32") for a, _, _ in l32]
    y32 = [to_bits(b, "f32") for _, b, _ in l32]
    c32 = [to_bits(c, "f32") for _, _, c in l32]
    g32 = ("fmas32", {"f32": (x32, y32), "f64": (c32, zero), "f16": (zero, zero)},
           [Case([vcc, "v_div_fmas_f32 v20, v10, v11, v12"], "b32",
                 [fmas_ref(a, b, c, "f32") for a, b, c in l32], "div_fmas_f32")])
    l64 = fmas_lanes("f64", rng)
    c64 = [to_bits(c, "f64") for _, _, c in l64]
    g64 = ("fmas64", {"f32": ([v & 0xffffffff for v in c64], [v >> 32 for v in c64]),
                      "f64": ([to_bits(a, "f64") for a, _, _ in l64],
                              [to_bits(b, "f64") for _, b, _ in l64]),
                      "f16": (zero, zero)},
           [Case([vcc, "v_div_fmas_f64 v[20:21], v[12:13], v[14:15], v[10:11]"], "b64",
                 [fmas_ref(a, b, c, "f64") for a, b, c in l64], "div_fmas_f64")])
    return [g32, g64]


QUIET = {"f16": 0x200, "f32": 0x400000, "f64": 0x8000000000000}


def snan_group(t):
    """A signaling NaN operand of these VALU float operations gives that NaN quieted (the ISA
    pseudo-code's cvtToQuietNAN, payload kept): lanes 0-1 signaling, 2 quiet; other lanes are
    not checked here."""
    nan = {"f16": [0x7d01, 0xfd55, 0x7e01], "f32": [0x7fa00001, 0xffb12345, 0x7fc00003],
           "f64": [0x7ff4000000000001, 0xfff5123456789abc, 0x7ff8000000000003]}
    one = {"f16": 0x3c00, "f32": 0x3f800000, "f64": 0x3ff0000000000000}
    inp = {}
    for f in ("f32", "f64", "f16"):
        x = nan[f] + [one[f]] * (LANES - 3)
        inp[f] = (x, x)
    q = {f: [v | QUIET[f] for v in nan[f]] + [None] * (LANES - 3) for f in nan}
    cases = []
    for op in ("trunc", "ceil", "rndne", "floor", "fract", "frexp_mant", "sqrt", "rcp", "rsq"):
        cases.append(Case(["v_%s_f32 v20, v10" % op], "b32", q["f32"], op + "_f32", True))
        cases.append(Case(["v_%s_f64 v[20:21], v[12:13]" % op], "b64", q["f64"], op + "_f64",
                          True))
    for op in ("trunc", "ceil", "rndne", "floor", "sqrt", "rcp"):  # the f16 ops amdsim models
        cases.append(Case(["v_%s_f16 v20, v16" % op], "b16", q["f16"], op + "_f16", True))
    for op in ("exp", "log"):
        cases.append(Case(["v_%s_f32 v20, v10" % op], "b32", q["f32"], op + "_f32", True))
    cases += [Case(["v_ldexp_f32 v20, v10, 1"], "b32", q["f32"], "ldexp_f32", True),
              Case(["v_ldexp_f64 v[20:21], v[12:13], 1"], "b64", q["f64"], "ldexp_f64", True),
              Case(["v_ldexp_f16 v20, v16, 1"], "b16", q["f16"], "ldexp_f16", True)]
    for f, d, x in (("f32", "v20", "v10"), ("f64", "v[20:21]", "v[12:13]")):
        out = {"f32": "b32", "f64": "b64", "f16": "b16"}[f]
        cases.append(Case(["v_div_fixup_%s %s, 1.0, %s, 1.0" % (f, d, x)], out, q[f],
                          "div_fixup_%s den" % f, True))
        cases.append(Case(["v_div_fixup_%s %s, 1.0, 2.0, %s" % (f, d, x)], out, q[f],
                          "div_fixup_%s num" % f, True))
    # conversions keep the payload's leading bits (quieted)
    cvt64 = [(n >> 31) << 63 | 0x7ff0000000000000 | QUIET["f64"] | (n & 0x7fffff) << 29
             for n in nan["f32"]] + [None] * (LANES - 3)
    cases.append(Case(["v_cvt_f64_f32 v[20:21], v10"], "b64", cvt64, "cvt_f64_f32", True))
    cvt32 = [(n >> 63) << 31 | 0x7f800000 | QUIET["f32"] | (n >> 29) & 0x7fffff
             for n in nan["f64"]] + [None] * (LANES - 3)
    cases.append(Case(["v_cvt_f32_f64 v20, v[12:13]"], "b32", cvt32, "cvt_f32_f64", True))
    cvt32h = [(n >> 15) << 31 | 0x7f800000 | QUIET["f32"] | (n & 0x3ff) << 13
              for n in nan["f16"]] + [None] * (LANES - 3)
    cases.append(Case(["v_cvt_f32_f16 v20, v16"], "b32", cvt32h, "cvt_f32_f16", True))
    return [("snan", inp, cases)]


def test_divnan(amdsim, tmp, t):
    run_kernel(amdsim, tmp, t, "fmas", fmas_groups(t), 0)
    run_kernel(amdsim, tmp, t, "snan", snan_group(t), 0)


def run_kernel(amdsim, tmp, t, tag, groups, round32, extra=""):
    h, err = assemble(kernel_src(t, groups, round32, extra), t,
                      os.path.join(tmp, "%s-%s" % (tag, t)))
    if not check(h, "%s outmod: llvm-mc: %s" % (t, err[:1500])):
        return
    inb, outb = os.path.join(tmp, "om.in"), os.path.join(tmp, "om.out")
    open(inb, "wb").write(b"".join(group_input(g[1]) for g in groups))
    size = sum(out_bytes(cs) for g in groups for cs in g[2])
    r = run([amdsim, h, "--kernel", "ic", "--grid", "1", "--block", str(LANES), "in:" + inb,
             "out:%d:%s" % (size, outb)])
    if not check(r.returncode == 0, "%s outmod: amdsim exit %d: %s"
                 % (t, r.returncode, r.stderr[:800])):
        return
    compare(t, groups, open(outb, "rb").read())


def main():
    amdsim = sys.argv[1]
    what = "inline"
    if len(sys.argv) > 2 and sys.argv[2] in ("inline", "outmod", "divnan"):
        what = sys.argv.pop(2)
    targets = sys.argv[2:] or TARGETS
    test = {"inline": test_target, "outmod": test_outmod, "divnan": test_divnan}[what]
    with tempfile.TemporaryDirectory() as tmp:
        for t in targets:
            test(amdsim, tmp, t)
    finish()


main()
