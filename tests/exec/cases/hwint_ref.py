"""Integer semantics as NVIDIA hardware computes them, where they differ from the PTX ISA's
pseudo-code: plain Python references for cases_hwint.py and the other cases' references.

Each rule was derived from what an H100 computed for the random kernels of ../shared/ptx-hw
(random/slots.json.gz, inputs.npy, nv.part0.npz) and from our own tests replayed on it
(../shared/ptx-hw/exec/replay-1ff6e20.txt); tests/exec/hwint_verify.py checks every rule here
against every such hardware result (docs/SEMANTICS.md lists the figures).  Written from that
data, independently of the compiler.

- bfe/bfi .32: position and length are the operand's low 8 bits (as in the ISA);
  .64: the whole unsigned 32-bit operands (the ISA's `& 0xff` does not happen).
- bfe.s32 with an immediate position >= 32 and an immediate nonzero length: all ones
  (NVIDIA's JIT; with a register operand the ISA's result).
- bfi.b32 with an immediate position in 1..31 and an immediate length that is a nonzero
  multiple of 32: the base unchanged (NVIDIA's JIT; observed for lengths 32 and 64).
- fns with offset INT_MIN: 0, whatever the mask and the base.
- div/rem by zero, 16/32/64-bit, signed or unsigned: all ones.
- carry chains: CC.CF is a carry; subtraction adds the complement: sub.cc/subc compute
  a + ~b + CF (sub.cc: CF = 1) and set CF to that sum's carry out (1 = no borrow).
"""

M32 = 0xffffffff
M64 = (1 << 64) - 1


def mask(width):
    return (1 << width) - 1


def sx(v, width):
    v &= mask(width)
    return v - (1 << width) if v >> (width - 1) else v


def bfe(a, b, c, signed, width, imm=False):
    """bfe.{u,s}{32,64} d, a, b(pos), c(len); imm: b and c are both immediates."""
    m = 0xff if width == 32 else M32
    pos, ln = b & m, c & m
    if imm and width == 32 and signed and pos >= 32 and ln != 0:
        return M32
    if ln == 0:
        return 0
    a &= mask(width)
    if pos >= width:
        return mask(width) if signed and a >> (width - 1) else 0
    ln = min(ln, width - pos)
    f = (a >> pos) & mask(ln)
    if signed and f >> (ln - 1):
        f |= mask(width) ^ mask(ln)
    return f


def bfi(a, b, c, d, width, imm=False):
    """bfi.b{32,64} f, a(insert), b(base), c(pos), d(len)."""
    m = 0xff if width == 32 else M32
    pos, ln = c & m, d & m
    b &= mask(width)
    if imm and width == 32 and 1 <= pos <= 31 and ln != 0 and ln % 32 == 0:
        return b
    if pos >= width:
        return b
    ln = min(ln, width - pos)
    fm = mask(ln) << pos
    return (b & ~fm | (a << pos) & fm) & mask(width)


def fns(msk, base, offset):
    """fns.b32 d, mask, base, offset (offset signed)."""
    msk &= M32
    base &= M32
    off = sx(offset, 32)
    if off == -(1 << 31):
        return 0
    if off == 0:
        return base if base < 32 and (msk >> base) & 1 else M32
    pos, cnt, inc = base, abs(off) - 1, 1 if off > 0 else -1
    while 0 <= pos < 32:
        if (msk >> pos) & 1:
            if cnt == 0:
                return pos
            cnt -= 1
        pos += inc
    return M32


def div(a, b, width, signed):
    if b & mask(width) == 0:
        return mask(width)
    if not signed:
        return (a & mask(width)) // (b & mask(width))
    x, y = sx(a, width), sx(b, width)
    q = abs(x) // abs(y)
    return (q if (x < 0) == (y < 0) else -q) & mask(width)


def rem(a, b, width, signed):
    if b & mask(width) == 0:
        return mask(width)
    if not signed:
        return (a & mask(width)) % (b & mask(width))
    x, y = sx(a, width), sx(b, width)
    q = abs(x) // abs(y)
    q = q if (x < 0) == (y < 0) else -q
    return (x - q * y) & mask(width)


def add_cc(a, b, cf, width):
    """add.cc (cf = 0) / addc: (a + b + cf, carry out)."""
    s = (a & mask(width)) + (b & mask(width)) + cf
    return s & mask(width), s >> width


def sub_cc(a, b, cf, width):
    """sub.cc (cf = 1) / subc: a + ~b + cf = a - b - !cf, and that sum's carry out."""
    s = (a & mask(width)) + (~b & mask(width)) + cf
    return s & mask(width), s >> width


def mad_cc(a, b, c, cf, width, hi=False, signed=False):
    """mad{.lo,.hi}.cc (cf = 0) / madc: (product half + c + cf, carry out)."""
    p = (sx(a, width) * sx(b, width)) if signed else (a & mask(width)) * (b & mask(width))
    p = (p >> width if hi else p) & mask(width)
    return add_cc(p, c, cf, width)
