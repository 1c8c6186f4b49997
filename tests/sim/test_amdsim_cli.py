#!/usr/bin/env python3
"""amdsim's command line checks what it is given before it runs (exit 2 for a usage error,
1 for input that does not fit the code object): an unknown --kernel lists
the kernels that exist, a missing --kernel/--grid/--block is named, the arguments are checked
against the kernel's metadata (pointer or scalar, scalar size, count; a buffer also fits an
8-byte by_value argument, as on a GPU), --block against
.max_flat_workgroup_size, and a run whose violations are cut short says how many were shown.
The code objects come from clang-19 + llvm-mc-19 + ld.lld-19 (the metadata is LLVM's), one
of them with its s_waitcnt removed.  With PTXAS_AMD, tests/sim/kernels/opaque_ptr.ptx (.u64
parameters that reach memory only through xor, listed by_value) runs on the five targets with
in:/out: buffers for them, checked against the PTX ISA's arithmetic computed here.
usage: test_amdsim_cli.py AMDSIM SRCDIR [PTXAS_AMD]"""
import os
import struct
import subprocess
import sys
import tempfile

import simlib

amdsim, srcdir = sys.argv[1], sys.argv[2]
KSRC = os.path.join(srcdir, "tests", "kernels", "src")
failures = []


def build(tmp, name, src_text, drop_waits=False):
    cl = os.path.join(tmp, name + ".cl")
    with open(cl, "w") as f:
        f.write(src_text)
    asm = simlib.run(["clang-19"] + simlib.cl_flags("gfx90a") +
                     ["-O3", "-I", KSRC, "-S", cl, "-o", "-"], check=True).stdout
    if drop_waits:
        asm = "".join(l for l in asm.splitlines(True) if "s_waitcnt" not in l)
    co, err = simlib.assemble(asm, "gfx90a", os.path.join(tmp, name))
    if not co:
        sys.exit("FAIL: %s: llvm-mc-19: %s" % (name, err[:600]))
    return co


def check(what, args, status, err_has=(), err_lacks=()):
    p = simlib.run([amdsim] + args, timeout=120)
    problems = [f"exit {p.returncode}, expected {status}"] if p.returncode != status else []
    problems += [f"stderr lacks {s!r}" for s in err_has if s not in p.stderr]
    problems += [f"stderr has {s!r}" for s in err_lacks if s in p.stderr]
    if problems:
        failures.append(f"{what}: {'; '.join(problems)}\n{p.stderr[-600:]}")


VADD = open(os.path.join(KSRC, "vadd_f32.cl")).read()
PAIR = ('#include "common.h"\n'
        "__kernel void first(__global int *p) { p[gid_x()] = 1; }\n"
        "__attribute__((reqd_work_group_size(64, 1, 1)))\n"
        "__kernel void second(__global int *p, long k) { p[gid_x()] = (int)k; }\n"
        "__kernel void shared(__global int *p, __local int *s)\n"
        "{ s[lid_x()] = 1; p[gid_x()] = s[lid_x()]; }\n")

with tempfile.TemporaryDirectory() as tmp:
    vadd = build(tmp, "vadd", VADD)
    bad = build(tmp, "vadd_nowait", VADD, drop_waits=True)
    pair = build(tmp, "pair", PAIR)
    buf = os.path.join(tmp, "z.bin")
    with open(buf, "wb") as f:
        f.write(bytes(4096))
    out = os.path.join(tmp, "c.bin")
    good = ["in:" + buf, "in:" + buf, "out:4096:" + out, "u32:1024"]
    run = [vadd, "--kernel", "vadd_f32", "--grid", "4", "--block", "256"]
    check("runs", run + good, 0)
    check("unknown kernel", [pair, "--kernel", "third", "--grid", "1", "--block", "64",
                             "in:" + buf], 1, err_has=["no kernel named 'third'", "first, second, shared"])
    check("help names 8-byte by_value buffers", ["--help"], 0)
    if "8-byte\nby_value" not in subprocess.run([amdsim, "--help"], capture_output=True,
                                               text=True).stdout:
        failures.append("--help does not say a buffer fits an 8-byte by_value argument")
    check("missing kernel", [vadd, "--grid", "4", "--block", "256"] + good, 2,
          err_has=["missing --kernel NAME\n"])
    check("missing grid and block", [vadd, "--kernel", "vadd_f32"] + good, 2,
          err_has=["missing --grid X[,Y,Z] and --block X[,Y,Z]"])
    check("scalar for pointer", run + ["u32:1"] + good[1:], 1,
          err_has=["argument 1", "global_buffer", "a pointer", "not u32:"])
    check("buffer for scalar", run + good[:3] + ["in:" + buf], 1,
          err_has=["argument 4", "by_value of 4 bytes", "not a pointer"])
    check("scalar size", run + good[:3] + ["u64:1024"], 1,
          err_has=["argument 4", "by_value of 4 bytes", "u64: gives a different size"])
    check("argument count", run + good[:3], 1, err_has=["takes 4 arguments, 3 given"])
    check("i64 for long", [pair, "--kernel", "second", "--grid", "1", "--block", "64",
                           "out:256:" + out, "i64:5"], 0)
    check("buffer for long", [pair, "--kernel", "second", "--grid", "1", "--block", "64",
                              "out:256:" + out, "in:" + buf], 0)
    check("i32 for long", [pair, "--kernel", "second", "--grid", "1", "--block", "64",
                           "out:256:" + out, "i32:5"], 1, err_has=["by_value of 8 bytes"])
    check("block above reqd size", [pair, "--kernel", "second", "--grid", "1", "--block",
                                    "128", "out:1024:" + out, "i64:5"], 1,
          err_has=["128 work-items", "at most 64", ".max_flat_workgroup_size"])
    check("block above default", [vadd, "--kernel", "vadd_f32", "--grid", "1", "--block",
                                  "32,32"] + good, 1, err_has=["1024 work-items",
                                                               "at most 256"])
    check("LDS pointer as u32", [pair, "--kernel", "shared", "--grid", "1", "--block", "64",
                                 "--dynamic-lds", "256", "out:256:" + out, "u32:0"], 0)
    check("violations cut short", [bad, "--kernel", "vadd_f32", "--grid", "4", "--block",
                                   "256"] + good, 3,
          err_has=["waitcnt/hazard violation(s) (the first 20 shown)"])
    check("violations all shown", [bad, "--kernel", "vadd_f32", "--grid", "1", "--block",
                                   "64"] + good, 3, err_lacks=["shown"])



def opaque_pointers(tmp, ptxas):
    """ptxas-amd lists a .u64 it cannot prove to be a pointer by_value; amdsim takes buffers."""
    ptx = os.path.join(srcdir, "tests", "sim", "kernels", "opaque_ptr.ptx")
    src = os.path.join(tmp, "src.bin")
    vals = [(i * 2654435761) & 0xffffffff for i in range(128)]
    with open(src, "wb") as f:
        f.write(struct.pack("<128I", *vals))
    want = [(v * 3 + i) & 0xffffffff for i, v in enumerate(vals)]
    for target in ("gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"):
        co, dst = os.path.join(tmp, "opaque.hsaco"), os.path.join(tmp, "dst.bin")
        subprocess.run([ptxas, "--gpu-name", target, ptx, "-o", co], check=True)
        notes = subprocess.run(["llvm-readelf-19", "--notes", co], capture_output=True,
                               text=True, check=True).stdout
        if notes.count("by_value") != 3 or "global_buffer" in notes:
            failures.append(f"{target} opaque_copy: src/dst/key not all by_value\n{notes}")
        check(f"{target} buffers for by_value .u64", [co, "--kernel", "opaque_copy", "--grid",
              "2", "--block", "64", "in:" + src, "out:512:" + dst, "u64:0"], 0)
        if os.path.exists(dst) and list(struct.unpack("<128I", open(dst, "rb").read())) != want:
            failures.append(f"{target} opaque_copy: wrong values")
        if os.path.exists(dst):
            os.remove(dst)


if len(sys.argv) > 3:
    with tempfile.TemporaryDirectory() as tmp:
        opaque_pointers(tmp, sys.argv[3])

for f in failures:
    print("FAIL", f)
print(f"amdsim cli: {len(failures)} failures")
sys.exit(1 if failures else 0)
