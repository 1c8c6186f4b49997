#!/usr/bin/env python3
"""Execution tests: clang-19 kernels run in amdsim and checked against CPU references.

For each target, every kernel in src/ is compiled with clang-19 (kbuild.py) into a temporary
directory, its code-object metadata (llvm-readelf-19 --notes) is checked against the launch in
ref.py (argument kinds, sizes and order, work-group size limits), then it is launched with

  amdsim K.hsaco --kernel K --grid GX,GY,GZ --block BX,BY,BZ ARG...

(--grid counts work-groups, --block work-items per group; buffer arguments are in:FILE,
out:SIZE:FILE and inout:FILE:OUTFILE; a __local pointer argument is u32:LDS_OFFSET plus
--dynamic-lds BYTES) and every output buffer is compared with ref.py's values.

usage: run.py --amdsim PATH [--target T]... [--case NAME]... [--seed N]... [--keep DIR] [-v]
       run.py --no-sim [--target T]...      (compile + metadata checks only)
Cases listed in known_failures.txt for a target may fail (reported as XFAIL, with the reason);
one that passes is reported as XPASS so the entry can be removed. Exit status 0 only if every
other case passed.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # keep the source tree clean of __pycache__
import kbuild  # noqa: E402
import ref  # noqa: E402

READELF = os.environ.get('READELF', 'llvm-readelf-19')
SCALAR_SIZES = {'i32': 4, 'u32': 4, 'f32': 4, 'i64': 8, 'u64': 8, 'f64': 8}
SIM_TIMEOUT = 300


def read_metadata(hsaco):
    """Minimal reader for the one-kernel YAML printed by llvm-readelf --notes: returns
    (kernel keys dict, list of arg dicts). Kernel keys sit at indent 4 (the first one after
    '  - '), argument keys at indent 8 (a new argument starts with '      - '), list items of
    a kernel key ('      - N') at indent 6."""
    text = subprocess.run([READELF, '--notes', hsaco], check=True, stdout=subprocess.PIPE,
                          text=True).stdout
    kern, args, key = {}, [], None
    for line in text.splitlines():
        m = re.match(r'^( *)(- )?\.([a-z_]+):\s*(.*)$', line)
        if m:
            col = len(m.group(1)) + (2 if m.group(2) else 0)
            if col == 4:
                key = m.group(3)
                kern[key] = m.group(4).strip("'") if m.group(4) else []
            elif col == 8 and key == 'args':
                if m.group(2):
                    args.append({})
                args[-1][m.group(3)] = m.group(4).strip("'")
            continue
        m = re.match(r'^      - (\S+)$', line)
        if m and key and isinstance(kern.get(key), list):
            kern[key].append(int(m.group(1)) if m.group(1).isdigit() else m.group(1))
    return kern, args


def check_metadata(case, kern, args):
    errs = []
    explicit = [a for a in args if not a.get('value_kind', '').startswith('hidden_')]
    if kern.get('name') != case.kernel:
        errs.append('kernel name %r, expected %r' % (kern.get('name'), case.kernel))
    if len(explicit) != len(case.args):
        return errs + ['kernel has %d arguments, case passes %d' % (len(explicit),
                                                                       len(case.args))]
    for i, (meta, arg) in enumerate(zip(explicit, case.args)):
        kind = meta.get('value_kind')
        if isinstance(arg, ref.Buf):
            if kind != 'global_buffer':
                errs.append('arg %d: buffer passed for a %s argument' % (i, kind))
        elif arg[0] == 'lds':
            if kind != 'dynamic_shared_pointer':
                errs.append('arg %d: dynamic LDS passed for a %s argument' % (i, kind))
        elif kind != 'by_value' or int(meta['size']) != SCALAR_SIZES[arg[0]]:
            errs.append('arg %d: %s passed for %s of size %s' % (i, arg[0], kind,
                                                                 meta.get('size')))
    threads = 1
    for b in case.block:
        threads *= b
    if threads > int(kern.get('max_flat_workgroup_size', 1024)):
        errs.append('block of %d work-items exceeds max_flat_workgroup_size' % threads)
    reqd = kern.get('reqd_workgroup_size')
    if reqd and list(reqd) != list(case.block) + [1] * (3 - len(case.block)):
        errs.append('block %r differs from reqd_workgroup_size %r' % (case.block, reqd))
    return errs


def fmt_dims(d):
    return ','.join(str(x) for x in d)


def scalar_text(kind, value):
    return '%s:%s' % (kind, repr(float(value)) if kind[0] == 'f' else str(int(value)))


def dynamic_lds_layout(case, kern):
    """Places the case's ('lds', BYTES) arguments after the static LDS, as an OpenCL runtime
    does; returns ({arg index: LDS offset}, total dynamic bytes)."""
    offsets, end = {}, int(kern.get('group_segment_fixed_size', 0))
    static = end
    for i, arg in enumerate(case.args):
        if not isinstance(arg, ref.Buf) and arg[0] == 'lds':
            end = (end + 15) & ~15
            offsets[i] = end
            end += arg[1]
    return offsets, end - static


def run_case(case, hsaco, amdsim_cmd, workdir, kern, verbose, seed=None):
    """amdsim_cmd: the simulator command as a list; kern: the kernel's metadata. Returns
    (ok, message, seconds). A dynamic LDS argument is passed as `u32:OFFSET` (its LDS address)
    with --dynamic-lds giving the bytes beyond the static LDS."""
    cmd = amdsim_cmd + [hsaco, '--kernel', case.kernel, '--grid', fmt_dims(case.grid),
                        '--block', fmt_dims(case.block)]
    if seed is not None:
        cmd += ['--seed', str(seed)]
    lds_offsets, lds_bytes = dynamic_lds_layout(case, kern)
    lds_bytes += getattr(case, 'dynamic_lds', 0)  # a PTX kernel's extern .shared arrays
    if lds_bytes:
        cmd += ['--dynamic-lds', str(lds_bytes)]
    outfiles = []
    for i, arg in enumerate(case.args):
        if isinstance(arg, ref.Buf):
            base = os.path.join(workdir, '%s.arg%d' % (case.name, i))
            if arg.kind in ('in', 'inout'):
                with open(base + '.in', 'wb') as f:
                    f.write(arg.data)
            if arg.kind == 'in':
                cmd.append('in:%s.in' % base)
            elif arg.kind == 'out':
                cmd.append('out:%d:%s.out' % (arg.size, base))
                outfiles.append((base + '.out', arg.size))
            else:
                cmd.append('inout:%s.in:%s.out' % (base, base))
                outfiles.append((base + '.out', arg.size))
        elif arg[0] == 'lds':  # the pointer's width: 4 bytes from clang AMDGPU, 8 from PTX
            sizes = kern.get('_arg_sizes')
            width = 'u64' if sizes and sizes[i] == 8 else 'u32'
            cmd.append('%s:%d' % (width, lds_offsets[i]))
        else:
            cmd.append(scalar_text(*arg))
    for path, _ in outfiles:
        if os.path.exists(path):
            os.unlink(path)
    if verbose:
        print('  $ ' + ' '.join(cmd))
    t0 = time.time()
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=SIM_TIMEOUT)
    except subprocess.TimeoutExpired:
        return False, 'amdsim timed out after %d s' % SIM_TIMEOUT, time.time() - t0
    secs = time.time() - t0
    if r.returncode != 0:
        tail = '\n'.join(r.stdout.strip().splitlines()[-15:])
        return False, 'amdsim exit status %d:\n%s' % (r.returncode, tail), secs
    outs = []
    for path, size in outfiles:
        if not os.path.exists(path):
            return False, 'amdsim wrote no %s' % path, secs
        with open(path, 'rb') as f:
            data = f.read()
        if len(data) != size:
            return False, '%s has %d bytes, expected %d' % (path, len(data), size), secs
        outs.append(data)
    errs = case.check(outs, int(kern['wavefront_size']))
    return not errs, '\n'.join(errs), secs


def load_known_failures():
    """known_failures.txt: lines `TARGET CASE  # reason` (TARGET may be *). Returns
    {(target, case): reason}."""
    known = {}
    path = os.path.join(kbuild.HERE, 'known_failures.txt')
    if os.path.exists(path):
        for line in open(path):
            entry, _, reason = line.partition('#')
            if entry.strip():
                target, case = entry.split()[:2]
                known[(target, case)] = reason.strip()
    return known


def run(cases, targets, amdsim_cmd, keep=None, verbose=False, seeds=(None,)):
    """Compiles, checks metadata and (unless amdsim_cmd is None) runs every case on every
    target, once per latency seed (None: amdsim's default). Returns the exit status."""
    sources = dict(kbuild.kernel_sources())
    known = load_known_failures()
    failures, xfails, passes = [], [], 0
    tmp = None if keep else tempfile.TemporaryDirectory()
    workdir = keep or tmp.name
    os.makedirs(workdir, exist_ok=True)
    for target in targets:
        kernels = sorted({c.kernel for c in cases})
        built = kbuild.compile_all([(sources[k], target) for k in kernels], workdir)
        for case in cases:
            hsaco = built[(sources[case.kernel], target)]
            kern, margs = read_metadata(hsaco)
            errs = check_metadata(case, kern, margs)
            if errs:
                failures.append((target, case.name))
                print('FAIL  %-8s %-16s metadata: %s' % (target, case.name, '; '.join(errs)))
                continue
            if amdsim_cmd is None:
                passes += 1
                continue
            ok, msg, secs = True, '', 0.0
            for seed in seeds:
                ok, msg, t = run_case(case, hsaco, amdsim_cmd, workdir, kern, verbose, seed)
                secs += t
                if not ok:
                    msg = ('with --seed %d: ' % seed if seed is not None else '') + msg
                    break
            expected_fail = (target, case.name) in known or ('*', case.name) in known
            if ok and expected_fail:
                # Not a failure: amdsim gets fixed by others, who do not own this list.
                passes += 1
                print('XPASS %-8s %-16s passes now: remove it from known_failures.txt' %
                      (target, case.name))
            elif ok:
                passes += 1
                print('PASS  %-8s %-16s %6.2fs' % (target, case.name, secs))
            elif expected_fail:
                xfails.append((target, case.name))
                reason = known.get((target, case.name), known.get(('*', case.name)))
                print('XFAIL %-8s %-16s known: %s\n    now: %s' %
                      (target, case.name, reason, ' '.join(msg.splitlines()[:2])[:300]))
            else:
                failures.append((target, case.name))
                print('FAIL  %-8s %-16s %6.2fs\n    %s' % (target, case.name, secs,
                                                            msg.replace('\n', '\n    ')))
                print('    reproduce: %s %s --amdsim %s --target %s --case %s -v --keep DIR'
                      % (os.path.basename(sys.executable), os.path.abspath(__file__),
                         amdsim_cmd[-1], target, case.name))
            sys.stdout.flush()
    what = 'metadata checks' if amdsim_cmd is None else 'runs'
    print('kernels: %d %s passed, %d failed, %d expected failures' %
          (passes, what, len(failures), len(xfails)))
    if tmp:
        tmp.cleanup()
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--amdsim')
    ap.add_argument('--no-sim', action='store_true')
    ap.add_argument('--target', action='append')
    ap.add_argument('--case', action='append')
    ap.add_argument('--seed', type=int, action='append',
                    help='run each case once per seed (repeatable; default: amdsim default)')
    ap.add_argument('--keep')
    ap.add_argument('-v', '--verbose', action='store_true')
    args = ap.parse_args()
    if not args.amdsim and not args.no_sim:
        ap.error('--amdsim PATH or --no-sim is required')
    all_cases = ref.all_cases()
    cases = [c for c in all_cases if not args.case or c.name in args.case]
    if args.case and len(cases) != len(set(args.case)):
        ap.error('unknown case in %s' % args.case)
    missing = sorted(set(dict(kbuild.kernel_sources())) - {c.kernel for c in all_cases})
    if missing:
        print('FAIL  kernels without a case in ref.py: %s' % missing)
        return 1
    amdsim_cmd = None if args.no_sim else [os.path.abspath(args.amdsim)]
    return run(cases, args.target or list(kbuild.SIM_TARGETS), amdsim_cmd, args.keep,
               args.verbose, args.seed or (None,))


if __name__ == '__main__':
    sys.exit(main())
