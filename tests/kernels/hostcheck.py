#!/usr/bin/env python3
"""Check the Python references themselves: run the kernels on the host CPU.

Kernels that need neither cross-lane operations nor AMDGPU-only builtins are also compiled by
clang-19 for x86-64 (same OpenCL source, common.h's host branch) and linked with a generated C
driver that runs each work-group as one thread per work-item (pthread barrier for wg_barrier).
This script stands in for amdsim (same command line) and is driven through run.py, so the
outputs go through exactly the checks amdsim's do, and run.py's plumbing (argument files,
scalar formatting, output reading) is exercised without the simulator. It catches a reference
that misreads its kernel (C conversion rules, operator order, overflow) independently of amdsim.

usage: hostcheck.py [-v]                          check the references of the host kernels
       hostcheck.py K.hsaco --kernel K --grid G --block B ARG...   (amdsim stand-in)
"""

import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree clean of __pycache__
import kbuild  # noqa: E402
import ref  # noqa: E402
import run  # noqa: E402

# Kernels the host can run: no lane_id, cross-lane or dispatch-packet builtins.
HOST_KERNELS = ('atomics_global', 'atomics_lds', 'big_block', 'bitonic_sort', 'bitops',
                'branch_div', 'calls', 'cas_fmax', 'convert', 'div_i32', 'div_i64', 'dyn_lds',
                'elem_f32', 'elem_f64', 'elem_i32', 'elem_i64', 'fdiv_f32', 'fdiv_f32_cr',
                'fdiv_f64', 'fp16_math', 'fp_special', 'grid3d', 'histogram', 'int16_sat',
                'lds_narrow', 'loop_div', 'matmul_lds', 'partial_wave', 'prefix_scan',
                'reduce_f64', 'reduce_lds', 'scratch', 'scratch_f64', 'stencil2d', 'switch_loop',
                'transcend_f32', 'uniform_load', 'vadd_f32', 'vec_bytes')
C_TYPES = {'i32': 'int32_t', 'u32': 'uint32_t', 'i64': 'int64_t', 'u64': 'uint64_t',
           'f32': 'float', 'f64': 'double'}

DRIVER = r'''
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local unsigned ids[4][3];
static unsigned group[3], block[3], grid[3];
static pthread_barrier_t bar;
unsigned host_id(unsigned what, unsigned dim) { return ids[what][dim]; }
void host_barrier(void) { pthread_barrier_wait(&bar); }
void %(kernel)s(%(proto)s);
%(globals)s

static void *load(const char *path, size_t size)
{
	void *p = calloc(1, size ? size : 1);
	FILE *f = fopen(path, "rb");
	if (!p || !f || fread(p, 1, size, f) != size)
		exit(2);
	fclose(f);
	return p;
}

static void save(const char *path, const void *p, size_t size)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(p, 1, size, f) != size)
		exit(3);
	fclose(f);
}

static void *work_item(void *arg)
{
	unsigned lin = (unsigned)(uintptr_t)arg;
	ids[0][0] = lin %% block[0];
	ids[0][1] = lin / block[0] %% block[1];
	ids[0][2] = lin / block[0] / block[1];
	for (unsigned d = 0; d < 3; d++) {
		ids[1][d] = group[d];
		ids[2][d] = block[d];
		ids[3][d] = block[d] * grid[d];
	}
	%(kernel)s(%(call)s);
	return NULL;
}

int main(void)
{
%(setup)s
	unsigned g[3] = {%(grid)s}, b[3] = {%(block)s};
	memcpy(grid, g, sizeof(g));
	memcpy(block, b, sizeof(b));
	unsigned n = b[0] * b[1] * b[2];
	pthread_t th[1024];
	pthread_barrier_init(&bar, NULL, n);
	for (group[2] = 0; group[2] < g[2]; group[2]++)
	for (group[1] = 0; group[1] < g[1]; group[1]++)
	for (group[0] = 0; group[0] < g[0]; group[0]++) {
		for (unsigned t = 0; t < n; t++)
			if (pthread_create(&th[t], NULL, work_item, (void *)(uintptr_t)t))
				exit(4);
		for (unsigned t = 0; t < n; t++)
			pthread_join(th[t], NULL);
	}
%(finish)s
	return 0;
}
'''


def driver_source(case, workdir):
    proto, call, setup, finish, outs, globs = [], [], [], [], [], []
    for i, arg in enumerate(case.args):
        if isinstance(arg, ref.Buf):
            path = os.path.join(workdir, '%s.arg%d' % (case.name, i))
            proto.append('void *')
            call.append('b%d' % i)
            globs.append('static void *b%d;' % i)
            if arg.kind == 'out':
                setup.append('\tb%d = calloc(1, %d);' % (i, arg.size))
            else:
                with open(path + '.in', 'wb') as f:
                    f.write(arg.data)
                setup.append('\tb%d = load("%s.in", %d);' % (i, path, arg.size))
            if arg.kind != 'in':
                finish.append('\tsave("%s.out", b%d, %d);' % (path, i, arg.size))
                outs.append(path + '.out')
        elif arg[0] == 'lds':
            proto.append('void *')
            call.append('lds%d' % i)
            globs.append('static void *lds%d;' % i)
            setup.append('\tlds%d = calloc(1, %d);' % (i, arg[1]))
        else:
            proto.append(C_TYPES[arg[0]])
            call.append(repr(float(arg[1])) if arg[0][0] == 'f' else '%dLL' % arg[1])
    dims = [list(d) + [1] * (3 - len(d)) for d in (case.grid, case.block)]
    src = DRIVER % {'kernel': case.kernel, 'proto': ', '.join(proto), 'call': ', '.join(call),
                    'setup': '\n'.join(setup), 'globals': '\n'.join(globs),
                    'finish': '\n'.join(finish),
                    'grid': ', '.join(map(str, dims[0])), 'block': ', '.join(map(str, dims[1]))}
    return src, outs


def fake_amdsim(argv):
    """Runs `amdsim`'s command line on the host build of src/KERNEL.cl (the .hsaco is unused)."""
    opts, args, i = {}, [], 1
    while i < len(argv):
        if argv[i].startswith('--'):
            opts[argv[i]] = argv[i + 1]
            i += 2
            continue
        kind, _, rest = argv[i].partition(':')
        if kind == 'in':
            args.append(ref.Buf('in', open(rest, 'rb').read()))
        elif kind == 'out':
            size, _, path = rest.partition(':')
            args.append(ref.Buf('out', size=int(size)))
            args[-1].dest = path
        elif kind == 'inout':
            src, _, path = rest.partition(':')
            args.append(ref.Buf('inout', open(src, 'rb').read()))
            args[-1].dest = path
        else:
            args.append((kind, float(rest) if kind[0] == 'f' else int(rest)))
        i += 1
    # A u32 given for a dynamic_shared_pointer argument is its LDS offset: the host build
    # gets a buffer of --dynamic-lds bytes instead.
    _, margs = run.read_metadata(argv[0])
    explicit = [m for m in margs if not m.get('value_kind', '').startswith('hidden_')]
    for k, meta in enumerate(explicit):
        if meta.get('value_kind') == 'dynamic_shared_pointer':
            args[k] = ('lds', int(opts['--dynamic-lds']))
    dims = [tuple(int(x) for x in opts[o].split(',')) for o in ('--grid', '--block')]
    case = ref.Case('host_' + opts['--kernel'], opts['--kernel'], dims[0], dims[1], args, None)
    with tempfile.TemporaryDirectory() as tmp:
        errs, outs = build_and_run(case, tmp, False)
        if errs:
            sys.stderr.write('\n'.join(errs) + '\n')
            return 1
        dests = [a.dest for a in args if isinstance(a, ref.Buf) and a.kind != 'in']
        for data, dest in zip(outs, dests):
            with open(dest, 'wb') as f:
                f.write(data)
    return 0


def build_and_run(case, workdir, verbose):
    """Returns (errors, output buffers)."""
    kernel_src = os.path.join(kbuild.SRC_DIR, case.kernel + '.cl')
    obj = os.path.join(workdir, case.name + '.host.o')
    drv = os.path.join(workdir, case.name + '.driver.c')
    exe = os.path.join(workdir, case.name + '.host')
    src, outs = driver_source(case, workdir)
    with open(drv, 'w') as f:
        f.write(src)
    cmds = [[kbuild.CLANG, '-x', 'cl', '-cl-std=CL2.0', '-target', 'x86_64-linux-gnu', '-O1',
             '-ffp-contract=off'] + kbuild.extra_flags(kernel_src) + ['-c', kernel_src, '-o', obj],
            [kbuild.CLANG, '-O1', '-w', '-pthread', drv, obj, '-o', exe, '-rtlib=compiler-rt',
             '-lm'],
            [exe]]
    for c in cmds:
        r = subprocess.run(c, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if verbose:
            print('  $ ' + ' '.join(c))
        if r.returncode != 0:
            return ['%s failed (%d):\n%s' % (c[0], r.returncode, r.stdout)], []
    data = []
    for path in outs:
        with open(path, 'rb') as f:
            data.append(f.read())
    return [], data


def main():
    if len(sys.argv) > 1 and sys.argv[1].endswith('.hsaco'):
        return fake_amdsim(sys.argv[1:])
    cases = [c for c in ref.all_cases() if c.kernel in HOST_KERNELS]
    return run.run(cases, ['gfx90a'], [sys.executable, os.path.abspath(__file__)],
                   verbose='-v' in sys.argv[1:])


if __name__ == '__main__':
    sys.exit(main())
