#!/usr/bin/env python3
"""A stand-in for ptxas-amd that "compiles" bench/kernels/ptx/NAME.*.ptx by compiling
bench/kernels/src/NAME.cu with clang-19 for the --gpu-name target.  Only for the harness test
(bench-stand-in in bench/meson.build): it lets bench/run's ptxas-amd columns, ratios, charts
and code-quality rows be exercised before ptxas-amd generates code.  It is never measured as
ptxas-amd in a committed report.

  stand_in_compiler.py [--parse-only] [-O3] [--gpu-name T] FILE.ptx [-o OUT]
"""
import os
import subprocess
import sys

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'kernels', 'src')


def main(argv):
    if '--version' in argv:
        print('stand-in for ptxas-amd (clang-19)')
        return 0
    target, out, ptx = 'gfx90a', None, None
    i = 0
    while i < len(argv):
        if argv[i] in ('--gpu-name', '-o'):
            target, out = (argv[i + 1], out) if argv[i] == '--gpu-name' else (target, argv[i + 1])
            i += 2
            continue
        if argv[i].endswith('.ptx'):
            ptx = argv[i]
        i += 1
    if ptx is None or not os.path.exists(ptx):
        print('stand-in: no PTX input', file=sys.stderr)
        return 1
    if '--parse-only' in argv:
        return 0
    name = os.path.basename(ptx).split('.')[0]
    return subprocess.run(['clang-19', '-x', 'hip', '--offload-arch=' + target, '-nogpulib',
                           '-nogpuinc', '--cuda-device-only', '--no-gpu-bundle-output', '-O3',
                           '-I' + SRC, '-c', os.path.join(SRC, name + '.cu'), '-o',
                           out or os.devnull]).returncode


sys.exit(main(sys.argv[1:]))
