#!/usr/bin/env python3
"""-j / --threads / --split-compile (docs/ARCHITECTURE.md, "Kernels in parallel"): a module's
kernels compiled on several threads give the same code object, the same -v lines, the same
diagnostics and the same exit status as one thread, on five targets.

The judge is the one-thread compile of the same binary: -j changes only where a kernel is
compiled, never what it compiles to.  Modules: nvcc's many-kernel template module (128
kernels, bench/scale), the corpus's template module, and generated ones where a warning, an
error (-Werror too), a kernel with calls between self-contained ones, and a global declared
.extern before the kernels and defined after them put the in-order rules to the test.

usage: test_threads.py PTXAS_AMD SOURCE_ROOT
"""

import os
import subprocess
import sys

TARGETS = ('gfx90a', 'gfx942', 'gfx1030', 'gfx1100', 'gfx1200')
HEAD = '.version 7.0\n.target sm_70\n.address_size 64\n'


def kernel(name, body):
    return ('.visible .entry %s(.param .u64 out)\n{\n\t.reg .b64 %%rd<4>;\n'
            '\t.reg .b32 %%r<8>;\n\t.reg .pred %%p<2>;\n\tld.param.u64 %%rd1, [out];\n'
            '\tmov.u32 %%r1, %%tid.x;\n%s\tst.global.u32 [%%rd1], %%r2;\n\tret;\n}\n'
            % (name, body))


PLAIN = '\tmul.lo.u32 %r2, %r1, 7;\n\tadd.u32 %r2, %r2, 3;\n'
WARN = '\tshfl.sync.bfly.b32 %r2, %r1, 1, 31, 0xffff;\n'  # (a 32-bit constant mask)
ERROR = '\t.reg .b32 %m;\n\tmov.b32 %m, %r1;\n\tshfl.sync.bfly.b32 %r2, %r1, 1, 31, %m;\n'
CALLS = ('.func (.reg .b32 r) twice(.reg .b32 a)\n{\n\tadd.u32 r, a, a;\n\tret;\n}\n')
CALLER = '\tcall (%r2), twice, (%r1);\n'
EXTERN = '\tmov.u64 %rd2, ext;\n\tld.global.u32 %r2, [%rd2];\n\tadd.u32 %r2, %r2, %r1;\n'


def generated():
    """(name, PTX, extra options) of the generated modules."""
    plain = [kernel('p%d' % i, PLAIN) for i in range(12)]
    warn = plain[:5] + [kernel('w', WARN)] + plain[5:]
    error = plain[:3] + [kernel('w', WARN)] + plain[3:6] + [kernel('e', ERROR)] + plain[6:]
    calls = CALLS + ''.join(plain[:4]) + kernel('c', CALLER) + ''.join(plain[4:])
    extern = ('.extern .global .align 4 .u32 ext;\n' +
              ''.join(kernel('x%d' % i, EXTERN) for i in range(8)) +
              '.visible .global .align 4 .u32 ext = 42;\n')
    w64 = ['--warp-size', '64']  # the lane-mask warning and error need the wave64 dialect
    return [('plain', HEAD + ''.join(plain), []),
            ('warning', HEAD + ''.join(warn), w64),
            ('warning -Werror', HEAD + ''.join(warn), w64 + ['-Werror']),
            ('error', HEAD + ''.join(error), w64),
            ('calls', HEAD + calls, []),
            ('extern', HEAD + extern, [])]


def compile_once(exe, ptx, target, extra, out):
    if os.path.exists(out):
        os.remove(out)
    r = subprocess.run([exe, '--gpu-name', target, '-v', '-', '-o', out] + extra, input=ptx,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    code = open(out, 'rb').read() if os.path.exists(out) else b''
    return r.returncode, code, r.stdout, r.stderr


def main():
    exe, root = sys.argv[1], sys.argv[2]
    out = os.path.join(os.environ.get('TMPDIR', '/tmp'), 'test_threads.%d.o' % os.getpid())
    modules = generated()
    for rel in ('bench/scale/ptx/many_kernels.nvcc.ptx',
                'tests/corpus/nvcc/templates.sm_80.O3.ptx'):
        modules.append((rel, open(os.path.join(root, rel)).read(), []))
    fails = 0
    spellings = (['-j', '2'], ['-j0'], ['--threads', '3'], ['--split-compile=4'])
    for name, ptx, extra in modules:
        wave64_only = '--warp-size' in extra
        for target in (('gfx90a', 'gfx942') if wave64_only else TARGETS):
            want = compile_once(exe, ptx, target, extra, out)
            for j in spellings:
                if name.startswith('bench') and target != 'gfx90a' and j != ['-j0']:
                    continue  # (the big module: one spelling on four of the targets)
                got = compile_once(exe, ptx, target, extra + j, out)
                ok = got == want
                fails += not ok
                print('%s  %-40s %-8s %s' % ('PASS' if ok else 'FAIL', name, target,
                                            ' '.join(j)))
                if not ok:
                    print('  -j1: exit %d, %d bytes, stderr %r' % (want[0], len(want[1]),
                                                                  want[3][-400:]))
                    print('  %s: exit %d, %d bytes, stderr %r' % (' '.join(j), got[0],
                                                                 len(got[1]), got[3][-400:]))
            if name in ('warning', 'error', 'warning -Werror') and target == 'gfx90a':
                # the cases must do what they say, or they test nothing
                status = 1 if name != 'warning' else 0
                ok = want[0] == status and ('error' if status else 'warning') in want[3]
                fails += not ok
                print('%s  %-40s gfx90a   reports it (exit %d)' % ('PASS' if ok else 'FAIL',
                                                                    name, want[0]))
    if os.path.exists(out):
        os.remove(out)
    bad = subprocess.run([exe, '-j', '-1', '-'], input=HEAD, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    ok = bad.returncode != 0 and 'thread count' in bad.stderr
    fails += not ok
    print('%s  -j -1 refused: %s' % ('PASS' if ok else 'FAIL', bad.stderr.strip().splitlines()[0][:100]))
    print('%d failures' % fails)
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
