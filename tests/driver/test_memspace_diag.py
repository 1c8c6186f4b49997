#!/usr/bin/env python3
"""Module variables and .local memory that ptxas-amd does not support are errors at the
construct's file:line:col (exit 1), never a crash or a silent wrong object; what it supports
around them compiles.  Each case records NVIDIA ptxas 13's verdict on the snippet
(-arch=sm_75): where ptxas accepts it, ptxas-amd either compiles it too (an .extern variable
never defined is, as in ptxas's whole-program compilation, a zero-initialized definition with
a warning) or names its own limit; where ptxas rejects it, ptxas-amd must reject it too.

usage: test_memspace_diag.py PTXAS_AMD
"""

import subprocess
import sys

HEAD = '.version 7.0\n.target sm_70\n.address_size 64\n'
KERNEL = '.visible .entry k(.param .u64 out)\n{\n\t.reg .b64 %rd<4>;\n\t.reg .b32 %r<4>;\n'

CASES = [
    # (name, PTX after the header, expected exit status, text the diagnostic must hold);
    # ptxas: its recorded verdict
    ('extern used', '.extern .global .align 4 .u32 ext;\n' + KERNEL +  # ptxas: accepts
     '\tld.param.u64 %rd1, [out];\n\tld.global.u32 %r1, [ext];\n'
     '\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n', 0,
     '<stdin>:4:31: warning: unresolved extern variable \'ext\' in whole program'),
    ('extern unused',  # ptxas: accepts
     '.extern .global .align 4 .u32 ext;\n' + KERNEL + '\tret;\n}\n', 0, ''),
    ('address of shared',  # ptxas: rejects
     '.shared .align 4 .u32 sh;\n'
     '.global .align 8 .u64 p = generic(sh);\n' + KERNEL + '\tret;\n}\n', 1,
     '<stdin>:5:23: error: initializer of \'p\': only addresses of .global/.const variables'),
    ('32-bit address',  # ptxas: accepts
     '.global .align 4 .u32 a;\n.global .align 4 .u32 p = a;\n' + KERNEL +
     '\tret;\n}\n', 1,
     '<stdin>:5:23: error: initializer of \'p\': an address needs a 64-bit element type'),
    ('f16 initializer',  # ptxas: rejects
     '.global .align 2 .f16 h = 0f3F800000;\n' + KERNEL + '\tret;\n}\n', 1,
     '16-bit float initializers are not supported yet'),
    ('isspacep.param',  # ptxas: rejects below .version 7.7
     KERNEL + '\t.reg .pred %p;\n\tld.param.u64 %rd1, [out];\n'
     '\tisspacep.param %p, %rd1;\n\tret;\n}\n', 1, '<stdin>:10:2: error:'),
    ('local too large',  # ptxas: accepts
     KERNEL + '\t.local .align 4 .b8 big[2000000];\n\tmov.u64 %rd1, big;\n'
     '\tst.local.u32 [%rd1], 1;\n\tret;\n}\n', 1,
     'uses 2000000 bytes of .local memory per thread; at most 1 MiB'),
]


def main():
    ptxas_amd = sys.argv[1]
    fails = 0
    for name, body, status, want in CASES:
        for target in ('gfx90a', 'gfx1100'):
            r = subprocess.run([ptxas_amd, '--gpu-name', target, '-', '-o', '/dev/null'],
                               input=HEAD + body, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, timeout=60)
            ok = r.returncode == status and want in r.stderr
            print('%s  %-18s %s%s' % ('PASS' if ok else 'FAIL', name, target,
                                      '' if ok else ': exit %d, %s' % (r.returncode,
                                                                      r.stderr[-600:])))
            fails += not ok
    print('memspace-diag: %d failed' % fails)
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
