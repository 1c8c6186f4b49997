"""Judges one kernel's outputs (ptxas-amd + amdsim) against what the NVIDIA H100 wrote for it.

Rules (docs/HARDWARE.md):
- every output slot bit for bit, except
- NaN payloads of f32/f16/bf16 results (the PTX ISA leaves the NaN of that arithmetic
  unspecified): both NaN is a match, whatever the bits (data movement -- mov, selp, ld, shfl --
  excepted: it must keep the bits);
- f64 results: both NaN is a match unless ours is a signalling NaN where the hardware's is quiet
  (IEEE 754 arithmetic must quiet a signalling NaN) -> kind 'f64-snan';
- approximate instructions (slot class 'approx' of the random set): our result against the exact
  value of the operation on our operands, with the error bound the PTX ISA states for the form
  (isa_bounds.bound) -> kind 'approx-bound' when outside it.  Tensor-core results with general
  data (class 'approx' of tensor/tensor2) have no such bound here yet: any difference is kind
  'tensor-approx';
- integer division by zero is not special: the hardware's all-ones results are to be matched.
A difference is a root cause when every recorded operand of that instruction has the same value
on both sides in that thread (so an accepted difference upstream -- a NaN payload, an approximate
result within its bound -- never makes a downstream root); else it is propagated.

Uses ../shared/ptx-hw/tools/compare.py's numpy-free helpers (result types, slot values, operand
values, NaN tests, decoding); the caller puts that directory on sys.path.
"""

import math
import struct

import compare  # ../shared/ptx-hw/tools/compare.py (its numpy-free parts)

try:
    import isa_bounds  # helper fconv's table of the PTX ISA's error bounds
except ImportError:  # until it lands: the provisional copy (same interface)
    import isa_bounds_stub as isa_bounds

SENTINEL = compare.SENTINEL
SENTINEL64 = SENTINEL | (SENTINEL << 32)
NAN_FREE_TYPES = ('f32', 'f16', 'bf16', 'tf32')
DATA_MOVES = ('mov', 'selp', 'ld', 'shfl', 'prmt', 'cvta')
MIN_NORMAL = {'f32': 2.0 ** -126, 'f64': 2.0 ** -1022, 'f16': 2.0 ** -14}
PACK = {'f32': '<f', 'f16': '<e'}


def opcode(op):
    """'mul' of '@p mul.rn.f32'."""
    if op.startswith('@'):
        op = op.split(None, 1)[1] if ' ' in op else op
    return op.split('.')[0]


def is_quiet_f64(bits):
    return bool(bits >> 51 & 1)


def exact_kind(slot, nv, us, nbits):
    """None when an exact slot's two values agree under the NaN rules, else the kind."""
    if nv == us:
        return None
    if (nbits == 32 and SENTINEL in (nv, us)) or (nbits == 64 and SENTINEL64 in (nv, us)):
        return 'unwritten'
    if slot['t'] == 'b16' and (nv >> 16) != (us >> 16):
        return 'store-b16-high-half'
    ty = compare.res_type(slot['op'])
    if opcode(slot['op']) in DATA_MOVES:
        return 'value'
    if ty in NAN_FREE_TYPES:
        mask = 0xffff if slot['t'] == 'b16' or ty in ('f16', 'bf16') else (1 << nbits) - 1
        if compare.isnan_t(nv & mask, ty) and compare.isnan_t(us & mask, ty):
            return None
    elif ty in ('f16x2', 'bf16x2'):
        half = ty[:-2]
        if all((nv >> s & 0xffff) == (us >> s & 0xffff) or
               (compare.isnan_t(nv >> s & 0xffff, half) and compare.isnan_t(us >> s & 0xffff, half))
               for s in (0, 16)):
            return None
    elif ty == 'f64' and compare.isnan_t(nv, 'f64') and compare.isnan_t(us, 'f64'):
        if is_quiet_f64(us) or not is_quiet_f64(nv):
            return None
        return 'f64-snan'
    return 'value'


# ------------------------------------------------------------------ approximate instructions

def to_float(bits, ty):
    if ty == 'f64':
        return compare.f64(bits)
    if ty in ('f16', 'f16x2'):
        return compare.f16(bits)
    return compare.f32(bits)


def flush(x, ty, ftz):
    if ftz and x and abs(x) < MIN_NORMAL[ty]:
        return math.copysign(0.0, x)
    return x


def ieee_div(a, b):
    if math.isnan(a) or math.isnan(b) or (a == 0 and b == 0) or (math.isinf(a) and math.isinf(b)):
        return math.nan
    sign = math.copysign(1.0, a) * math.copysign(1.0, b)
    if b == 0 or math.isinf(a):
        return sign * math.inf
    if math.isinf(b):
        return sign * 0.0
    try:
        return a / b
    except OverflowError:
        return sign * math.inf


def ieee_sqrt(x):
    if math.isnan(x) or x < 0:
        return math.nan
    return x if x == 0 or math.isinf(x) else math.sqrt(x)


def exact_value(base, x):
    """The exact (double precision) value of an approximate PTX operation on operands x."""
    a = x[0]
    if base == 'div':
        return ieee_div(a, x[1])
    if base == 'rcp':
        return ieee_div(1.0, a)
    if base == 'sqrt':
        return ieee_sqrt(a)
    if base == 'rsqrt':
        return ieee_div(1.0, ieee_sqrt(a))
    if base in ('sin', 'cos'):
        if math.isnan(a) or math.isinf(a):
            return math.nan
        return math.sin(a) if base == 'sin' else math.cos(a)
    if base == 'ex2':
        if math.isnan(a):
            return math.nan
        try:
            return 2.0 ** a
        except OverflowError:
            return math.inf
    if base == 'lg2':
        if math.isnan(a) or a < 0:
            return math.nan
        if a == 0:
            return -math.inf
        return a if math.isinf(a) else math.log2(a)
    if base == 'tanh':
        return math.tanh(a)
    raise KeyError('no exact value for %s' % base)


def in_format(e, ty):
    """e rounded to format ty (an overflow becomes the infinity)."""
    if ty not in PACK or math.isnan(e) or math.isinf(e):
        return e
    try:
        return struct.unpack(PACK[ty], struct.pack(PACK[ty], e))[0]
    except OverflowError:
        return math.copysign(math.inf, e)


def approx_element_ok(op, base, ty, result_bits, operand_bits, ftz):
    """Whether one element of an approximate result is within the ISA's bound of the exact value."""
    x = [flush(to_float(b, ty), ty, ftz) for b in operand_bits]
    r = to_float(result_bits, ty)
    e = exact_value(base, x)
    allowed = isa_bounds.bound(op, e, x)
    if allowed is None:
        return True  # the ISA states no bound (nor any value) for these operands
    if math.isnan(e) or math.isinf(e):
        return r == e or (math.isnan(e) and math.isnan(r))
    if math.isnan(r):
        return False
    if abs(r - e) <= allowed or r == in_format(e, ty):
        return True  # within the bound, or the exact value rounded (an overflow, an underflow)
    return ftz and r == 0 and abs(e) < MIN_NORMAL[ty]


def approx_ok(op, result, operands):
    """Our approximate result against the exact value of the operation on our operands."""
    ty = compare.res_type(op)
    base = opcode(op)
    ftz = '.ftz' in op
    if ty in ('f16x2',):
        return all(approx_element_ok(op, base, 'f16', result >> s & 0xffff,
                                     [v >> s & 0xffff for v in operands], ftz) for s in (0, 16))
    if ty == 'f16':
        return approx_element_ok(op, base, ty, result & 0xffff, [v & 0xffff for v in operands], ftz)
    return approx_element_ok(op, base, ty, result, operands, ftz)


# ------------------------------------------------------------------ one kernel

def slot_index(slots):
    """{word offset within a thread: slot} (both words of a 64-bit slot)."""
    at = {}
    for s in slots:
        at[s['w']] = s
        if s['n'] == 2:
            at[s['w'] + 1] = s
    return at


def judge_slot(kernel, slot, t, inp, nv, us, by_w, tensor_set):
    """(kind, root, nv value, our value, nbits, our operands, NVIDIA's operands) or None."""
    M, K = kernel['out_words'], kernel['in_words']
    a, nbits = compare.slot_value(nv, t, M, slot)
    b, _ = compare.slot_value(us, t, M, slot)
    if a == b:
        return None
    ops_nv = compare.operand_values(nv, t, M, K, inp, by_w, slot['srcs'])
    ops_us = compare.operand_values(us, t, M, K, inp, by_w, slot['srcs'])
    root = ops_nv == ops_us
    if SENTINEL in (a, b) or SENTINEL64 in (a, b):
        kind = 'unwritten'
    elif slot.get('cls') == 'approx' and tensor_set:
        kind = 'tensor-approx'
    elif slot.get('cls') == 'approx':
        usable = all(isinstance(v, int) for v in ops_us)
        kind = None if usable and approx_ok(slot['op'], b, ops_us) else 'approx-bound'
    else:
        kind = exact_kind(slot, a, b, nbits)
    if kind is None:
        return None
    return kind, root, a, b, nbits, ops_us, ops_nv


def compare_kernel(kernel, slots, by_off, inp, nv, us, tensor_set):
    """Every unaccepted difference: list of dicts(slot, thread, kind, root, nv, us, nbits, ops)."""
    if nv == us:
        return []
    M = kernel['out_words']
    by_w = {s['w']: s for s in slots}
    found = []
    seen = set()
    for t in range(kernel['threads']):
        lo = t * M
        if nv[lo:lo + M] == us[lo:lo + M]:
            continue
        for off in range(M):
            if nv[lo + off] == us[lo + off]:
                continue
            slot = by_off.get(off)
            if slot is None:
                found.append({'slot': None, 'thread': t, 'kind': 'unslotted-word', 'root': True,
                              'nv': nv[lo + off], 'us': us[lo + off], 'nbits': 32})
                continue
            if (t, slot['w']) in seen:
                continue
            seen.add((t, slot['w']))
            j = judge_slot(kernel, slot, t, inp, nv, us, by_w, tensor_set)
            if j is None:
                continue
            kind, root, a, b, nbits, ops_us, ops_nv = j
            found.append({'slot': slot, 'thread': t, 'kind': kind, 'root': root, 'nv': a, 'us': b,
                          'nbits': nbits, 'ops_us': ops_us, 'ops_nv': ops_nv})
    return found
