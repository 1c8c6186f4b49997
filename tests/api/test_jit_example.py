#!/usr/bin/env python3
"""examples/jit runs: it compiles its PTX string in-process for each GPU (and for all five
into one offload bundle), and amdsim runs the code object it wrote (the bundle's entry per
GPU) on inputs whose sums Python computes: c[i] = a[i] + b[i] in float32.

usage: test_jit_example.py JIT AMDSIM"""
import os
import random
import struct
import subprocess
import sys
import tempfile

jit, amdsim = sys.argv[1:3]
GPUS = ("gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200")
N = 300  # not a multiple of the block: the bound check matters
failures = []
rng = random.Random(22)


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


a = [f32(rng.uniform(-1e3, 1e3)) for _ in range(N)]
b = [f32(rng.uniform(-1e3, 1e3)) for _ in range(N)]
want = [f32(x + y) for x, y in zip(a, b)]


def run_vadd(tmp, code, gpu_args, name):
    pa, pb, pc = (os.path.join(tmp, n) for n in ("a.bin", "b.bin", "c.bin"))
    with open(pa, "wb") as f:
        f.write(struct.pack(f"<{N}f", *a))
    with open(pb, "wb") as f:
        f.write(struct.pack(f"<{N}f", *b))
    p = subprocess.run([amdsim, code, "--kernel", "vadd", "--grid", "3", "--block", "128",
                        f"in:{pa}", f"in:{pb}", f"out:{4 * N}:{pc}", f"i32:{N}"] + gpu_args,
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        failures.append(f"{name}: amdsim exit {p.returncode}: {p.stderr[:400]}")
        return
    with open(pc, "rb") as f:
        got = list(struct.unpack(f"<{N}f", f.read()))
    if got != want:
        bad = next(i for i in range(N) if got[i] != want[i])
        failures.append(f"{name}: c[{bad}] = {got[bad]}, expected {want[bad]}")


with tempfile.TemporaryDirectory() as tmp:
    for gpu in GPUS:
        out = os.path.join(tmp, f"{gpu}.hsaco")
        p = subprocess.run([jit, gpu, out], capture_output=True, text=True, timeout=60)
        if p.returncode != 0 or "Function properties for vadd" not in p.stdout:
            failures.append(f"jit {gpu}: exit {p.returncode}: {p.stdout}{p.stderr}")
            continue
        run_vadd(tmp, out, [], gpu)
    bundle = os.path.join(tmp, "vadd.hipfb")
    p = subprocess.run([jit, ",".join(GPUS), bundle], capture_output=True, text=True,
                       timeout=60)
    if p.returncode != 0:
        failures.append(f"jit bundle: exit {p.returncode}: {p.stderr}")
    else:
        for gpu in GPUS:
            run_vadd(tmp, bundle, ["--gpu", gpu], f"bundle entry {gpu}")
    p = subprocess.run([jit, "sm_80", os.path.join(tmp, "x")], capture_output=True, text=True)
    if p.returncode == 0 or "UNSUPPORTED_OPTION" not in p.stderr or "sm_80" not in p.stderr:
        failures.append(f"jit sm_80 should fail naming the option: {p.stderr}")

for f in failures:
    print("FAIL", f)
print(f"test_jit_example: {len(failures)} failures")
sys.exit(1 if failures else 0)
