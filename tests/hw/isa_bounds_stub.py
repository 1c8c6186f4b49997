"""PROVISIONAL error bounds of PTX's approximate instructions, used by judge.py only until
tests/hw/isa_bounds.py (helper "fconv": the table from the PTX ISA text, with its sources)
exists; judge.py imports isa_bounds first and falls back to this file.  Delete it then.

The interface judge.py calls (isa_bounds.py is to provide the same):

    bound(op, exact, inputs) -> float or None

  op      the instruction form as slots.json.gz spells it ('ex2.approx.ftz.f32',
          'div.full.f32', 'tanh.approx.f16x2' -- packed forms are judged per half with the op
          string unchanged);
  exact   the exact value (a Python float, computed in double precision from the operands after
          .ftz flushing; NaN or infinite where the operation's IEEE value is);
  inputs  the operand values as Python floats, in PTX operand order (after .ftz flushing);
  returns the largest |result - exact| the PTX ISA allows for these operands, or None where the
          ISA states no bound for them (e.g. sin/cos outside [-pi, pi], div.approx with a
          divisor outside [2^-126, 2^126]): the result is then not checked beyond its class
          (judge.py applies nothing: any result passes).  For operands with a bound, a NaN or
          infinite exact value must be met exactly (any NaN for NaN) whatever the number
          returned, and a finite one within it (or by the exact value rounded to the format).
  An op the table does not know raises KeyError (a new approximate form must get its bound).

The numbers below are those ../shared/ptx-hw/tools/gen.py recorded as the ISA's (one side's
bound, not the sum of two), written again here as (relative, ulps, absolute) terms: the bound is
the largest of rel*|exact|, ulps*ulp(exact) and abs.
"""

import math

# form (without .ftz) -> dict(rel=, ulp=, abs=, arg_range=(operand index, max |x|),
#                             divisor_range=(lo, hi))
TABLE = {
    'ex2.approx.f32': {'rel': 2.0 ** -22.5, 'ulp': 2},
    'lg2.approx.f32': {'abs': 2.0 ** -22.6, 'rel': 2.0 ** -22},
    'sin.approx.f32': {'abs': 2.0 ** -20.9, 'arg_range': (0, math.pi)},
    'cos.approx.f32': {'abs': 2.0 ** -20.9, 'arg_range': (0, math.pi)},
    'rsqrt.approx.f32': {'rel': 2.0 ** -22.9},
    'rcp.approx.f32': {'ulp': 1},
    'sqrt.approx.f32': {'rel': 2.0 ** -23, 'ulp': 1},
    'div.approx.f32': {'ulp': 2, 'divisor_range': (2.0 ** -126, 2.0 ** 126)},
    'div.full.f32': {'ulp': 2},
    'tanh.approx.f32': {'rel': 2.0 ** -10.987},
    'ex2.approx.f16': {'rel': 2.0 ** -9.9},
    'ex2.approx.f16x2': {'rel': 2.0 ** -9.9},
    'tanh.approx.f16': {'rel': 2.0 ** -10.987},
    'tanh.approx.f16x2': {'rel': 2.0 ** -10.987},
    'rsqrt.approx.f64': {'rel': 2.0 ** -20},
    'rcp.approx.f64': {'rel': 2.0 ** -20},
}

# (significand bits after the point, smallest normal exponent) per result type
FORMATS = {'f32': (23, -126), 'f64': (52, -1022), 'f16': (10, -14), 'f16x2': (10, -14)}


def ulp(x, ty):
    """One unit in the last place of |x| in format ty (subnormal spacing at the bottom)."""
    frac, emin = FORMATS[ty]
    e = max(math.frexp(abs(x))[1] - 1 if x else emin, emin)
    return 2.0 ** (e - frac)


def bound(op, exact, inputs):
    key = op.replace('.ftz', '')
    entry = TABLE[key]
    if 'arg_range' in entry:
        i, limit = entry['arg_range']
        if abs(inputs[i]) > limit:
            return None
    if 'divisor_range' in entry:
        lo, hi = entry['divisor_range']
        if not lo <= abs(inputs[1]) <= hi:
            return None
    if math.isnan(exact) or math.isinf(exact):
        return 0.0
    allowed = entry.get('abs', 0.0)
    allowed = max(allowed, entry.get('rel', 0.0) * abs(exact))
    if 'ulp' in entry:
        allowed = max(allowed, entry['ulp'] * ulp(exact, key.rsplit('.', 1)[1]))
    return allowed
