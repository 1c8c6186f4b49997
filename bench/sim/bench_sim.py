#!/usr/bin/env python3
"""Simulator throughput benchmark: compiles tests/sim/kernels/lds_sum.cl with clang-19 for
gfx90a, gfx942 and gfx1100 and runs it through sim_bench (C API), printing wave instructions
per second.  Target (ROADMAP): >= 5M wave-instructions/s.  --quick: a small run (smoke test).

  python3 bench/sim/bench_sim.py --bench BUILD/tests/sim/sim_bench [--quick]
"""
import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True)
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    src = os.path.join(ROOT, "tests", "sim", "kernels", "lds_sum.cl")
    grid, iters, rep = (4, 20, 1) if a.quick else (64, 200, 3)
    with tempfile.TemporaryDirectory() as tmp:
        for t in ("gfx90a", "gfx942", "gfx1100"):
            o, h = os.path.join(tmp, t + ".o"), os.path.join(tmp, t + ".hsaco")
            subprocess.run(["clang-19", "-x", "cl", "-cl-std=CL2.0", "-target",
                            "amdgcn-amd-amdhsa", "-mcpu=" + t, "-nogpulib", "-O3", "-c", src,
                            "-o", o], check=True)
            subprocess.run(["ld.lld-19", "-shared", o, "-o", h], check=True)
            for mode in ([], ["--no-strict"]):
                r = subprocess.run([a.bench, h, "lds_sum", str(grid), "256", str(grid * 256),
                                    str(iters), str(rep)] + mode, capture_output=True, text=True)
                sys.stdout.write(r.stdout)
                if r.returncode:
                    sys.stderr.write(r.stderr)
                    return 1
    return 0


sys.exit(main())
