#!/usr/bin/env python3
"""--gpu-name with several GPUs writes one clang offload bundle.  Judged by LLVM's own
clang-offload-bundler-19: --list names one entry per GPU (ids as clang's HIP driver writes
them) plus the empty host entry, --unbundle gives back byte for byte the code objects that
single-GPU runs write, and bundling those single-GPU code objects with the bundler, with
the arguments clang-19's HIP driver passes it, gives our file byte for byte.  amdsim runs
each GPU's entry (--gpu) against a CPU reference.  Also the usage errors of the option.

usage: test_bundle.py PTXAS_AMD AMDSIM SRCDIR [CLANG_OFFLOAD_BUNDLER]"""
import os
import struct
import subprocess
import sys
import tempfile

exe, amdsim, srcdir = (os.path.abspath(a) for a in sys.argv[1:4])
bundler = sys.argv[4] if len(sys.argv) > 4 else None
GPUS = ["gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"]
HOST = "host-x86_64-unknown-linux"  # as clang-19's HIP driver names it to the bundler
failures = []
# Modules with data, printf records, function pointers and real calls, besides vadd.
MODULES = [os.path.join(srcdir, "examples", "vadd.ptx")] + [
    os.path.join(srcdir, "tests", "exec", "ptx", m + ".ptx")
    for m in ("memspace_global", "printf_nvcc", "calls_fnptr", "calls_recursive")]


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=120, **kw)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def check(name, cond, detail=""):
    if not cond:
        failures.append(f"{name}: {detail}")


def hip_id(gpu):
    return "hipv4-amdgcn-amd-amdhsa--" + gpu


def check_module(tmp, ptx, gpus, tag=""):
    """Bundle vs single-GPU compiles of one module, through the bundler."""
    stem = os.path.basename(ptx)[:-4] + tag
    bundle = os.path.join(tmp, stem + ".hipfb")
    p = run([exe, "--gpu-name", ",".join(gpus), ptx, "-o", bundle])
    if p.returncode:
        failures.append(f"{stem}: bundle compile exit {p.returncode}: {p.stderr[:300]}")
        return
    singles = []
    for gpu in gpus:
        out = os.path.join(tmp, f"{stem}.{gpu}.hsaco")
        p = run([exe, "--gpu-name", gpu, ptx, "-o", out])
        check(f"{stem} {gpu}", p.returncode == 0, p.stderr[:300])
        singles.append(out)
    if not bundler:
        return
    p = run([bundler, "--list", "--type=o", f"--input={bundle}"])
    ids = sorted(p.stdout.split())
    want = sorted([hip_id(g) for g in gpus] + [HOST + "--"])
    check(f"{stem} --list", p.returncode == 0 and ids == want, f"{ids} {p.stderr}")
    for gpu, single in zip(gpus, singles):
        out = os.path.join(tmp, f"{stem}.{gpu}.unbundled")
        p = run([bundler, "--unbundle", "--type=o", f"--input={bundle}",
                 f"--targets={hip_id(gpu)}", f"--output={out}"])
        check(f"{stem} --unbundle {gpu}", p.returncode == 0 and read(out) == read(single),
              p.stderr or "differs from the single-GPU code object")
    ref = os.path.join(tmp, stem + ".ref.hipfb")
    p = run([bundler, "-type=o", "-bundle-align=4096",
             "-targets=" + ",".join([HOST] + [hip_id(g) for g in gpus]),
             "-input=/dev/null"] + [f"-input={s}" for s in singles] + [f"-output={ref}"])
    check(f"{stem} same bytes as clang-offload-bundler-19",
          p.returncode == 0 and read(ref) == read(bundle), p.stderr)


def check_run(tmp):
    """amdsim picks each GPU's entry of a vadd bundle; c = a + b computed here."""
    n = 200
    a = [float(i) * 0.5 for i in range(n)]
    b = [float(i) * 2.0 for i in range(n)]
    pa, pb = os.path.join(tmp, "a.bin"), os.path.join(tmp, "b.bin")
    with open(pa, "wb") as f:
        f.write(struct.pack(f"<{n}f", *a))
    with open(pb, "wb") as f:
        f.write(struct.pack(f"<{n}f", *b))
    bundle = os.path.join(tmp, "vadd.hipfb")
    for gpu in GPUS:
        pc = os.path.join(tmp, f"c.{gpu}.bin")
        p = run([amdsim, bundle, "--gpu", gpu, "--kernel", "vadd", "--grid", "2", "--block",
                 "128", f"in:{pa}", f"in:{pb}", f"out:{4 * n}:{pc}", f"i32:{n}"])
        ok = p.returncode == 0 and struct.unpack(f"<{n}f", read(pc)) == tuple(
            x + y for x, y in zip(a, b))
        check(f"amdsim --gpu {gpu} on a bundle", ok, p.stderr[:300])
    p = run([amdsim, bundle, "--kernel", "vadd", "--grid", "1", "--block", "1", f"in:{pa}"])
    check("amdsim bundle without --gpu", p.returncode == 1 and "give --gpu" in p.stderr,
          p.stderr)
    one = os.path.join(tmp, "vadd.three.hipfb")
    run([exe, "--gpu-name", "gfx90a,gfx942,gfx1030", MODULES[0], "-o", one])
    p = run([amdsim, one, "--gpu", "gfx1200", "--kernel", "vadd", "--grid", "1", "--block",
             "1", f"in:{pa}"])
    check("amdsim --gpu not in the bundle", p.returncode == 1 and "no entry for --gpu gfx1200"
          in p.stderr, p.stderr)


def check_usage(tmp):
    vadd = MODULES[0]
    cases = [
        (["--gpu-name", "gfx90a,gfx1100", "-S", vadd], 2, "take one GPU"),
        (["--gpu-name", "gfx90a,gfx1100", "-c", vadd], 2, "take one GPU"),
        (["--gpu-name", "gfx90a,gfx90a", vadd], 2, "'gfx90a' is named twice"),
        (["--gpu-name", "gfx90a,sm_80", vadd], 2, "'sm_80' is an NVIDIA GPU"),
        (["--gpu-name", "gfx90a,", vadd], 2, "unknown GPU name ''"),
        (["--gpu-name", "gfx1030,gfx1100", "--warp-size", "64", vadd], 2, "needs wave64"),
    ]
    for args, status, err in cases:
        p = run([exe] + args + ["-o", os.path.join(tmp, "x")])
        check(" ".join(args[:4]), p.returncode == status and err in p.stderr,
              f"exit {p.returncode}: {p.stderr[:300]}")
    asm = os.path.join(tmp, "k.s")
    with open(asm, "w") as f:
        f.write("\t.text\n")
    p = run([exe, "--gpu-name", "gfx90a,gfx1100", asm])
    check("assembly with several GPUs", p.returncode == 2 and "compile PTX only" in p.stderr,
          p.stderr)
    # Without -o: FILE.hipfb next to where we run.
    p = run([exe, "--gpu-name", "gfx90a,gfx1100", vadd], cwd=tmp)
    check("default output name", p.returncode == 0 and os.path.exists(
        os.path.join(tmp, "vadd.hipfb")), p.stderr)
    # An error in the PTX is reported once, not once per GPU.
    bad = os.path.join(tmp, "bad.ptx")
    with open(bad, "w") as f:
        f.write(".version 7.0\n.target sm_70\n.address_size 64\n"
                ".visible .entry k()\n{\n\tfoo.s32;\n}\n")
    p = run([exe, "--gpu-name", ",".join(GPUS), bad, "-o", os.path.join(tmp, "bad.hipfb")])
    check("PTX error once", p.returncode == 1 and p.stderr.count("bad.ptx:6:2: error:") == 1,
          p.stderr)
    # --input-name (shared with the library) names the input in diagnostics, one GPU or more.
    for gpus in ("gfx1100", "gfx90a,gfx1100"):
        p = run([exe, "--gpu-name", gpus, "--input-name", "k.cu", bad, "-o",
                 os.path.join(tmp, "bad.out")])
        check(f"--input-name {gpus}", p.returncode == 1 and "k.cu:6:2: error:" in p.stderr
              and "bad.ptx" not in p.stderr, p.stderr)


with tempfile.TemporaryDirectory() as tmp:
    for module in MODULES:
        check_module(tmp, module, GPUS)
    check_module(tmp, MODULES[0], ["gfx90a:xnack-", "gfx942:sramecc+:xnack+", "gfx1100"],
                 ".features")
    check_run(tmp)
    check_usage(tmp)

for f in failures:
    print("FAIL", f)
print(f"test_bundle: {len(failures)} failures{'' if bundler else ' (no clang-offload-bundler-19: format checks skipped)'}")
sys.exit(1 if failures else 0)
