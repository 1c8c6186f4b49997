"""Cases for calls_fnptr.ptx (tests/exec/ptx/gen_calls_fnptr.py): ten functions in a .global
pointer table, called through divergent and uniform pointers with a struct argument.  By
default their pointers are code addresses and the calls real calls (docs/CALLS.md; run_ptx.py
checks -v); with --inline-all they are hashes and compare chains.  The pointer values are not
known in advance, so the check is that they behave as pointers: equal for the same function,
distinct otherwise, and equal to `mov.u64 %rd, f3` exactly for f3.  The results follow the PTX
ISA's definitions (32-bit wrap-around of mad.lo/shl, rem.u32 unsigned), independently of the
compiler.  calls_fnptr_exit.ptx is the same with an `exit` in f5, which a function compiled
on its own does not support: the module keeps hashes (and -v names no real call).
calls_fnptr_rec.ptx: pointers called from a device function, recursion through a pointer
(hashes: a real call for the recursion; --no-inline: code addresses)."""

import math
import struct

from ref import Case, In, Out, rng_for, M32, M64

N = 10


def fk(k, x, a, b, c, tid):
    if k == 0:
        r = [x, a, b, x ^ a][x & 3]
    elif k == 1:
        r = (x + tid) & M32
    elif k == 2:
        r = (x * x + 1) & M32
    else:
        r = ((x * (2 * k + 3) + a) & M32) ^ ((b << k) & M32)
    return (r + c) & M64


def fnptr_case(suffix, flags, must_call, sel, kernel='calls_fnptr'):
    rng = rng_for('calls_fnptr')
    n, block = 300, 64
    xs = [rng.getrandbits(32) for _ in range(n)]
    xs[:12] = list(range(12))
    rows = []
    for i, x in enumerate(xs):
        a, b, c = x ^ 0x55, i, (x << 20) & M64
        tid = i % block
        rows.append((fk(x % N, x, a, b, c, tid), fk(sel % N, i, a, b, c, tid)))

    def check(outs, wave):
        errs, seen = [], {}
        for i in range(n):
            r1, r2, p, eq = struct.unpack_from('<QQQQ', outs[0], 32 * i)
            k = xs[i] % N
            if (r1, r2) != rows[i]:
                errs.append('thread %d: results %#x %#x, expected %#x %#x'
                            % ((i, r1, r2) + rows[i]))
            if eq != (k == 3):
                errs.append('thread %d: (tab[%d] == f3) is %d' % (i, k, eq))
            if seen.setdefault(k, p) != p:
                errs.append('thread %d: tab[%d] read as %#x and %#x' % (i, k, p, seen[k]))
            if len(errs) > 6:
                break
        if len(set(seen.values())) != len(seen):
            errs.append('two functions have the same pointer: %r' % seen)
        return errs

    c = Case('calls_fnptr' + suffix, kernel, ((n + block - 1) // block,), (block,),
             [Out(32 * n), In('I', xs), ('u32', sel), ('u32', n)], check)
    c.ptxas_flags = flags
    c.must_real_call = must_call
    c.must_inline = not must_call  # run_ptx.py: -v names no real call
    return c


def rec_case(suffix, flags, say, not_say=None):
    """calls_fnptr_rec.ptx: apply(i odd ? fact : sq, i % 9) + 1000 * fact(i % 9 % 5), with
    apply(fp, x) = fp(x) + 1 and fact recursive through a pointer to itself.  not_say: what
    -v must not print (with code addresses the kernel's direct call to fact calls the
    module's copy, so no copy of fact is linked into the kernel)."""
    n, block = 200, 64
    exp = [((math.factorial(i % 9) if i & 1 else (i % 9) ** 2) + 1 +
            1000 * math.factorial(i % 9 % 5)) & M32 for i in range(n)]

    def check(outs, wave):
        got = struct.unpack('<%dI' % n, outs[0])
        bad = [i for i in range(n) if got[i] != exp[i]]
        return ['thread %d: got %d, expected %d' % (i, got[i], exp[i]) for i in bad[:6]]

    c = Case('calls_fnptr_rec' + suffix, 'calls_fnptr_rec', ((n + block - 1) // block,),
             (block,), [Out(4 * n), ('u32', n)], check)
    c.ptxas_flags = flags
    c.must_real_call = True
    c.must_say = say
    c.must_not_say = not_say
    return c


def ptrarg_case():
    """calls_fnptr_ptrarg.ptx: aux_p reaches memory only in g, which the kernel calls
    directly (--no-inline) through the module's copy: it must still be a pointer argument."""
    n, block = 150, 64

    def check(outs, wave):
        got = struct.unpack('<%dI' % n, outs[0])
        aux = struct.unpack('<%dI' % n, outs[1])
        bad = ['out[%d]: got %d, expected %d' % (i, got[i], i * i + 1)
               for i in range(n) if got[i] != i * i + 1]
        bad += ['aux[%d]: got %d, expected %d' % (i, aux[i], 3 * i + 7)
                for i in range(n) if aux[i] != 3 * i + 7]
        return bad[:6]

    c = Case('calls_fnptr_ptrarg', 'calls_fnptr_ptrarg', ((n + block - 1) // block,),
             (block,), [Out(4 * n), Out(4 * n), ('u32', n)], check)
    c.ptxas_flags = ['--no-inline']
    c.must_real_call = True
    c.must_say = 'function pointers are code addresses'
    c.must_not_say = "Function 'g' compiled as a real call in"
    return c


def cases():
    return [fnptr_case('', [], True, 7), fnptr_case('_sel12', [], True, 12),
            fnptr_case('_inlall', ['--inline-all'], False, 7),
            fnptr_case('_exit', [], False, 7, 'calls_fnptr_exit'),
            rec_case('', [], '(recursive)'),
            rec_case('_noinl', ['--no-inline'], 'function pointers are code addresses',
                     "Function 'fact' compiled as a real call in"),
            ptrarg_case()]
