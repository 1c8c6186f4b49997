"""Compile the OpenCL kernels in tests/kernels/src with clang-19 into AMDGPU code objects.

Shared by survey.py (mnemonic survey) and run.py (execution tests). Each kernel source may carry
extra compiler flags on a line `// CFLAGS: ...`. Compilation is clang-19 -O3 -nogpulib followed by
ld.lld-19 -shared, i.e. exactly what a HIP runtime would load.
"""

import concurrent.futures
import hashlib
import os
import re
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
SRC_DIR = os.path.join(HERE, 'src')
SIM_TARGETS = ('gfx90a', 'gfx942', 'gfx1030', 'gfx1100', 'gfx1200')
SURVEY_TARGETS = ('gfx90a', 'gfx942', 'gfx1030', 'gfx1100', 'gfx1200')

CLANG = os.environ.get('CLANG', 'clang-19')
LLD = os.environ.get('LLD', 'ld.lld-19')


def kernel_sources():
    """Sorted list of (kernel name, source path); the kernel name is the file stem."""
    out = []
    for name in sorted(os.listdir(SRC_DIR)):
        if name.endswith('.cl'):
            out.append((name[:-3], os.path.join(SRC_DIR, name)))
    return out


def extra_flags(path):
    with open(path) as f:
        for line in f:
            m = re.match(r'\s*//\s*CFLAGS:\s*(.*)', line)
            if m:
                return m.group(1).split()
    return []


def target_flags(target):
    """'gfx1030' or 'gfx1030:wave64' (wave64 code for an RDNA target) -> (processor, flags)."""
    cpu, _, variant = target.partition(':')
    if variant not in ('', 'wave64'):
        raise RuntimeError('unknown target variant %r (only :wave64)' % target)
    return cpu, (['-mwavefrontsize64'] if variant else [])


def cached_run(cmd, src, out):
    """Runs cmd, which reads the file src and writes the file out; returns (exit status, output).

    With $KBUILD_CACHE set (scripts/run-tests sets it), a successful run's output file is kept
    there under a hash of the command (with src and out replaced by placeholders) and of the
    source text, so the tests that build the same kernels with clang (survey, execution runs,
    mutants, run_cl, both builds of the suite) compile each one once.  A cache hit is a copy."""
    cache = os.environ.get('KBUILD_CACHE')
    if cache:
        h = hashlib.sha256()
        for a in cmd:
            h.update(('<src>' if a == src else '<out>' if a == out else a).encode() + b'\0')
        with open(src, 'rb') as f:
            h.update(f.read())
        hit = os.path.join(cache, h.hexdigest())
        if os.path.exists(hit):
            shutil.copyfile(hit, out)
            return 0, ''
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if cache and r.returncode == 0 and not r.stdout:
        os.makedirs(cache, exist_ok=True)
        tmp = '%s.%d' % (hit, os.getpid())
        shutil.copyfile(out, tmp)
        os.replace(tmp, hit)  # atomic: tests running in parallel may store the same entry
    return r.returncode, r.stdout


def compile_kernel(path, target, outdir):
    """Compile one .cl file for one target; returns the .hsaco path or raises RuntimeError."""
    stem = os.path.splitext(os.path.basename(path))[0]
    cpu, tflags = target_flags(target)
    tname = target.replace(':', '-')
    obj = os.path.join(outdir, '%s-%s.o' % (stem, tname))
    hsaco = os.path.join(outdir, '%s-%s.hsaco' % (stem, tname))
    cmd = [CLANG, '-x', 'cl', '-cl-std=CL2.0', '-target', 'amdgcn-amd-amdhsa',
           '-mcpu=' + cpu, '-nogpulib', '-O3'] + tflags + extra_flags(path) + \
        ['-c', path, '-o', obj]
    for c, src, out in ((cmd, path, obj), ([LLD, '-shared', obj, '-o', hsaco], obj, hsaco)):
        status, text = cached_run(c, src, out)
        if status != 0 or 'warning' in text:
            raise RuntimeError('%s\n%s' % (' '.join(c), text))
    return hsaco


def compile_all(jobs, outdir, workers=2):
    """jobs: list of (path, target). Returns {(path, target): hsaco}; raises on any failure."""
    res = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as ex:
        futs = {ex.submit(compile_kernel, p, t, outdir): (p, t) for p, t in jobs}
        for fut in concurrent.futures.as_completed(futs):
            res[futs[fut]] = fut.result()
    return res
