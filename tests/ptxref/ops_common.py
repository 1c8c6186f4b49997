"""Operand access shared by the instruction modules of the reference interpreter: getters and
setters compiled per operand (closures over a Thread), immediates, special registers, types."""

import struct

from ptxparse import TYPE_BITS


class UB(Exception):
    """The program does something the interpreter does not model or PTX leaves undefined."""


def mask(bits):
    return (1 << bits) - 1


# The H100's 16-bit quirk (CompiledKernel.quirk16): neg.s16/abs.s16 of -32768 leave +32768 in
# the hardware's 32-bit register.  Such a 16-bit register holds QUIRK16 (0x8000 with bit 80
# set, which no register value has); every read masks that bit away except a signed 16-bit
# read, which sext turns into +32768.
QUIRK16 = (1 << 80) | 0x8000


def sext(v, bits):
    if bits == 16 and v == QUIRK16:
        return 32768
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def types_of(mods):
    return [m for m in mods if m in TYPE_BITS]


def is_signed(ty):
    return ty[0] == 's'


def is_float(ty):
    return ty[0] == 'f' or ty.startswith('bf')


def _float_literal(text, ty):
    """0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX / decimal -> bits of ty."""
    bits = TYPE_BITS[ty]
    neg = text.startswith('-')
    t = text.lstrip('-')
    if t[:2] in ('0f', '0F'):
        v = int(t[2:], 16)
        if bits == 64:
            v = struct.unpack('<Q', struct.pack('<d', struct.unpack('<f', struct.pack('<I', v))[0]))[0]
        return v ^ (1 << (bits - 1)) if neg else v
    if t[:2] in ('0d', '0D'):
        v = int(t[2:], 16)
        if bits == 32:
            v = struct.unpack('<I', struct.pack('<f', struct.unpack('<d', struct.pack('<Q', v))[0]))[0]
        return v ^ (1 << (bits - 1)) if neg else v
    import floatcore
    x = float(t)
    if neg:
        x = -x
    return floatcore.from_pyfloat(x, ty)


def immediate(text, ty):
    if ty and is_float(ty):
        if text.lstrip('-')[:2].lower() in ('0f', '0d') or '.' in text or 'e' in text.lower():
            return _float_literal(text, ty)
    if '.' in text:
        return _float_literal(text, ty or 'f32')
    bits = TYPE_BITS.get(ty, 64) if ty else 64
    v = int(text.rstrip('U'), 0)
    return v & mask(bits) if bits > 1 else (1 if v else 0)


def _special(name):
    """Getter for a special register, or None."""
    base = name.split('.')[0]
    dim = name.split('.')[1] if '.' in name else 'x'
    if base == '%tid':
        return {'x': lambda t: t.tid, 'y': lambda t: 0, 'z': lambda t: 0}[dim]
    if base == '%ntid':
        return {'x': lambda t: t.cta.ntid, 'y': lambda t: 1, 'z': lambda t: 1}[dim]
    if base == '%ctaid':
        return {'x': lambda t: t.cta.ctaid, 'y': lambda t: 0, 'z': lambda t: 0}[dim]
    if base == '%nctaid':
        return {'x': lambda t: t.cta.nctaid, 'y': lambda t: 1, 'z': lambda t: 1}[dim]
    if base == '%laneid':
        return lambda t: t.lane
    if base == '%warpid':
        return lambda t: t.warp
    if base == '%lanemask_eq':
        return lambda t: 1 << t.lane
    if base == '%lanemask_lt':
        return lambda t: (1 << t.lane) - 1
    if base == '%lanemask_le':
        return lambda t: (2 << t.lane) - 1
    if base == '%lanemask_gt':
        return lambda t: 0xffffffff ^ ((2 << t.lane) - 1)
    if base == '%lanemask_ge':
        return lambda t: 0xffffffff ^ ((1 << t.lane) - 1)
    if base in ('%warpsize', 'WARP_SZ'):
        return lambda t: 32
    return None


class OpContext:
    """What an instruction compiler needs: the flat kernel (register widths) and the layouts."""

    def __init__(self, flat, ck):
        self.flat, self.ck = flat, ck

    def reg_bits(self, name):
        if name not in self.flat.regs:
            raise UB('undeclared register %s' % name)
        return self.flat.regs[name]

    def get(self, a, ty):
        """Getter returning the operand's bits at the width of ty (predicates 0/1)."""
        k = a[0]
        bits = TYPE_BITS[ty] if ty else 64
        m = mask(bits)
        if k == 'reg':
            name = a[1]
            sp = _special(name)
            if sp is not None:
                return lambda t: sp(t) & m
            self.reg_bits(name)
            if ty == 'pred':
                return lambda t: t.r[name]
            if ty == 's16' and self.ck.quirk16:
                return lambda t: t.r[name] if t.r[name] == QUIRK16 else t.r[name] & m
            return lambda t: t.r[name] & m
        if k == 'imm':
            v = immediate(a[1], ty)
            return lambda t: v
        if k == 'not':
            g = self.get(a[1], 'pred')
            return lambda t: g(t) ^ 1
        if k == 'sym':
            if a[1] == 'WARP_SZ':
                return lambda t: 32
            addr = self.var_addr(a[1])
            return lambda t: addr & m
        if k == 'vec':
            parts = [self.get(x, None) for x in a[1]]
            widths = [self.reg_bits(x[1]) for x in a[1]]

            def g(t):
                v, s = 0, 0
                for p, w in zip(parts, widths):
                    v |= (p(t) & mask(w)) << s
                    s += w
                return v & m
            return g
        raise UB('cannot read operand %r' % (a,))

    def set(self, a, ty, signed=None):
        """Setter(thread, value) writing the value (bits of ty) into a register, extended to
        the register's width (sign-extended when signed)."""
        k = a[0]
        bits = TYPE_BITS[ty] if ty else 64
        if signed is None:
            signed = bool(ty) and ty[0] == 's'
        if k == 'reg':
            name = a[1]
            if name == '_':
                return lambda t, v: None
            rb = self.reg_bits(name)
            if rb == 1:
                return lambda t, v: t.r.__setitem__(name, 1 if v else 0)
            rm = mask(rb)
            if signed and rb > bits:
                return lambda t, v: t.r.__setitem__(name, sext(v, bits) & rm)
            m = mask(min(bits, rb))
            return lambda t, v: t.r.__setitem__(name, v & m)
        if k == 'vec':
            names = [x[1] for x in a[1]]
            widths = [self.reg_bits(n) if n != '_' else bits // len(names) for n in names]

            def s(t, v):
                sh = 0
                for n, w in zip(names, widths):
                    if n != '_':
                        t.r[n] = (v >> sh) & mask(w)
                    sh += w
            return s
        raise UB('cannot write operand %r' % (a,))

    def var_addr(self, name):
        """Address of a variable in its own state space."""
        for lay in (self.ck.local_layout, self.ck.shared_layout, self.ck.param_layout):
            if name in lay.addr:
                return lay.addr[name]
        raise UB('unknown variable %s' % name)

    def var_space(self, name):
        if name in self.ck.local_layout.addr:
            return 'local'
        if name in self.ck.shared_layout.addr:
            return 'shared'
        if name in self.ck.param_layout.addr:
            return 'param'
        return None
