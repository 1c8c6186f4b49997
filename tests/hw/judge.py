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
  (isa_bounds.check) -> kind 'approx-bound' when outside it.  Tensor-core results with general
  data (class 'approx' of tensor/tensor2): our result against the exact value on our operands
  within K x 2^-22 x (sum|a*b| + |c|) (tensor_bound.py, after ../shared/ptx-hw/README.md's
  caveat that the hardware's accumulation is not one IEEE rounding) -> kind 'tensor-approx'
  when outside it;
- integer division by zero is not special: the hardware's all-ones results are to be matched.
A difference is a root cause when every recorded operand of that instruction has the same value
on both sides in that thread (so an accepted difference upstream -- a NaN payload, an approximate
result within its bound -- never makes a downstream root); else it is propagated.

Uses ../shared/ptx-hw/tools/compare.py's numpy-free helpers (result types, slot values, operand
values, NaN tests, decoding); the caller puts that directory on sys.path.
"""


import compare  # ../shared/ptx-hw/tools/compare.py (its numpy-free parts)

import isa_bounds  # the PTX ISA's error bounds (tests/hw/isa_bounds.py)

import tensor_bound  # general-data tensor-core results (tests/hw/tensor_bound.py)

SENTINEL = compare.SENTINEL
SENTINEL64 = SENTINEL | (SENTINEL << 32)
NAN_FREE_TYPES = ('f32', 'f16', 'bf16', 'tf32')
DATA_MOVES = ('mov', 'selp', 'ld', 'shfl', 'prmt', 'cvta')
# Results that depend on other lanes of the warp or on the path taken, which the slots do not
# record as operands: such a difference (and a slot one side did not write: another path) is a
# root cause only when no earlier word of any thread of its warp differs (else it follows from
# that difference: docs/HARDWARE.md).
# The carry chains read CC, which the slots do not record either.  A loop slot (and a phi) holds
# a value that later instructions of the loop body computed in the previous iteration, so it is
# a root only when nothing else in its warp differs.
WARP_WIDE = ('vote', 'shfl', 'redux', 'match', 'activemask', 'addc', 'subc', 'madc')
LOOP_SLOTS = ('phi', 'loop-result', 'loop-count', 'loop-carried')


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

def approx_ok(op, result, operands):
    """Our approximate result against the exact value of the operation on our operands, with
    the bound the PTX ISA states for the form (isa_bounds.check); packed f16x2 half by half.
    A form without a stated bound is never accepted as approximate."""
    ty = compare.res_type(op)
    try:
        if ty == 'f16x2':
            return all(isa_bounds.check(op, [v >> s & 0xffff for v in operands],
                                        result >> s & 0xffff)[0] for s in (0, 16))
        if ty in ('f16', 'bf16'):
            return isa_bounds.check(op, [v & 0xffff for v in operands], result & 0xffff)[0]
        return isa_bounds.check(op, operands, result)[0]
    except ValueError:
        return False


# ------------------------------------------------------------------ one kernel

def slot_index(slots):
    """{word offset within a thread: slot} (both words of a 64-bit slot)."""
    at = {}
    for s in slots:
        at[s['w']] = s
        if s['n'] == 2:
            at[s['w'] + 1] = s
    return at


def judge_slot(kernel, slot, t, inp, nv, us, by_w, tensor_set, warp_diffs=None):
    """(kind, root, nv value, our value, nbits, our operands, NVIDIA's operands) or None."""
    M, K = kernel['out_words'], kernel['in_words']
    a, nbits = compare.slot_value(nv, t, M, slot)
    b, _ = compare.slot_value(us, t, M, slot)
    if a == b:
        return None
    ops_nv = compare.operand_values(nv, t, M, K, inp, by_w, slot['srcs'])
    ops_us = compare.operand_values(us, t, M, K, inp, by_w, slot['srcs'])
    root = ops_nv == ops_us
    path = SENTINEL in (a, b) or SENTINEL64 in (a, b)  # unwritten: another path was taken
    op = opcode(slot['op'])
    if root and warp_diffs is not None and op in LOOP_SLOTS:
        root = all(w in (slot['w'], slot['w'] + slot['n'] - 1) for w in warp_diffs(t))
    elif root and warp_diffs is not None and (path or op in WARP_WIDE):
        root = warp_diffs(t)[0] >= slot['w']
    if SENTINEL in (a, b) or SENTINEL64 in (a, b):
        kind = 'unwritten'
    elif slot.get('cls') == 'approx' and tensor_set:
        kind = None if tensor_bound.ok(kernel, slot, t, inp, us, by_w) else 'tensor-approx'
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
    diffs = {}  # warp -> the word offsets that differ in any of its threads, in order

    def warp_diffs(t):
        w = t // 32
        if w not in diffs:
            lo, hi = w * 32, min(w * 32 + 32, kernel['threads'])
            diffs[w] = sorted({off for u in range(lo, hi) for off in range(M)
                               if nv[u * M + off] != us[u * M + off]}) or [M]
        return diffs[w]

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
            j = judge_slot(kernel, slot, t, inp, nv, us, by_w, tensor_set, warp_diffs)
            if j is None:
                continue
            kind, root, a, b, nbits, ops_us, ops_nv = j
            found.append({'slot': slot, 'thread': t, 'kind': kind, 'root': root, 'nv': a, 'us': b,
                          'nbits': nbits, 'ops_us': ops_us, 'ops_nv': ops_nv})
    return found
