#!/usr/bin/env python3
"""Assembly reader against LLVM: every OpenCL kernel of tests/kernels/src is compiled by
clang-19 -S for each target; our reader (asm_read) must produce exactly the .text bytes
llvm-mc-19 assembles from the same file, the kernel symbols' offsets and sizes
llvm-nm-19 reports, and the .text relocations (calls, global variables) llvm-readelf-19 -r
reports (llvm-mc writes a reference to a local symbol as .text + its offset).  Files using what the reader does not support yet (listed per reason)
are reported; any byte mismatch fails, and so does a target where fewer than MIN_READ of
the files could be read.  usage: test_reader.py ASM_READ"""
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "kernels", "src")
TARGETS = ["gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"]
MIN_READ = 0.9


def flags_of(path):
    for line in open(path):
        m = re.match(r"\s*//\s*CFLAGS:\s*(.*)", line)
        if m:
            return m.group(1).split()
    return []


RELOC_TYPES = {"R_AMDGPU_ABS32_LO": 1, "R_AMDGPU_ABS32_HI": 2, "R_AMDGPU_ABS64": 3,
               "R_AMDGPU_REL32": 4, "R_AMDGPU_REL64": 5, "R_AMDGPU_ABS32": 6,
               "R_AMDGPU_GOTPCREL": 7, "R_AMDGPU_GOTPCREL32_LO": 8,
               "R_AMDGPU_GOTPCREL32_HI": 9, "R_AMDGPU_REL32_LO": 10, "R_AMDGPU_REL32_HI": 11}


def llvm_text_relocs(obj):
    """[(offset, type number, symbol, addend)] of .rela.text, from llvm-readelf-19 -r."""
    out = subprocess.run(["llvm-readelf-19", "-r", obj], capture_output=True, text=True,
                         check=True).stdout
    relocs, in_text = [], False
    for ln in out.splitlines():
        if ln.startswith("Relocation section"):
            in_text = "'.rela.text'" in ln
            continue
        m = re.match(r"\s*([0-9a-f]+)\s+[0-9a-f]+\s+(R_AMDGPU_\w+)\s+[0-9a-f]+\s+(\S+)"
                     r"\s*([+-])\s*([0-9a-f]+)", ln)
        if in_text and m:
            addend = int(m.group(5), 16) * (-1 if m.group(4) == "-" else 1)
            relocs.append((int(m.group(1), 16), RELOC_TYPES[m.group(2)], m.group(3), addend))
    return relocs


def one(asm_read, tmp, target, src):
    stem = os.path.basename(src)[:-3]
    s = os.path.join(tmp, "%s.%s.s" % (stem, target))
    o = s[:-2] + ".o"
    b = s[:-2] + ".bin"
    cc = subprocess.run(["clang-19", "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa",
                         "-mcpu=" + target, "-nogpulib", "-O3", "-S", "-I", SRC, src, "-o", s] +
                        flags_of(src), capture_output=True, text=True)
    if cc.returncode:
        return ("skip", "clang failed: " + cc.stderr.splitlines()[0] if cc.stderr else "")
    subprocess.run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=" + target,
                    "-filetype=obj", s, "-o", o], check=True, capture_output=True)
    subprocess.run(["llvm-objcopy-19", "-O", "binary", "--only-section=.text", o, b],
                   check=True)
    want = open(b, "rb").read()
    nm = subprocess.run(["llvm-nm-19", "--print-size", "--defined-only", o],
                        capture_output=True, text=True, check=True).stdout
    syms, local_syms = {}, {}  # local: name -> (section llvm-mc names instead, offset)
    for ln in nm.splitlines():
        f = ln.split()
        if len(f) == 4 and f[2] in "Tt":
            syms[f[3]] = (int(f[0], 16), int(f[1], 16))
        if len(f) == 4 and f[2] in "tdbr":
            sec = {"t": ".text", "d": ".data", "b": ".bss", "r": ".rodata"}[f[2]]
            local_syms[f[3]] = (sec, int(f[0], 16))
    ours = subprocess.run([asm_read, target, s], capture_output=True, text=True)
    if ours.returncode:
        first = next((ln for ln in ours.stderr.splitlines() if ": error:" in ln), ours.stderr)
        return ("unsupported", re.sub(r"^.*?error: ", "", first))
    lines = ours.stdout.splitlines()
    got = bytes(int(x, 16) for x in lines[0].split()[1:])
    if got != want:
        at = next((i for i in range(min(len(got), len(want))) if got[i] != want[i]),
                  min(len(got), len(want)))
        return ("mismatch", "%s: .text differs at byte %d (ours %d bytes, llvm-mc %d)" %
                (s, at, len(got), len(want)))
    relocs = []
    for ln in lines[1:]:
        if ln.startswith("reloc "):
            _, off, typ, sym, addend = ln.split()
            off, typ, addend = int(off), int(typ), int(addend)
            if sym in local_syms:  # llvm-mc: the section symbol + the offset
                sym, addend = local_syms[sym][0], addend + local_syms[sym][1]
            relocs.append((off, typ, sym, addend))
            continue
        _, name, off, size, _ = ln.split()
        if name not in syms or syms[name] != (int(off), int(size)):
            return ("mismatch", "%s: kernel %s at %s+%s, llvm-nm says %s" %
                    (s, name, off, size, syms.get(name)))
    want_relocs = llvm_text_relocs(o)
    if relocs != want_relocs:
        return ("mismatch", "%s: relocations %s, llvm-mc's %s" % (s, relocs, want_relocs))
    return ("match", "")


def main():
    asm_read = sys.argv[1]
    srcs = sorted(os.path.join(SRC, f) for f in os.listdir(SRC) if f.endswith(".cl"))
    srcs.append(os.path.join(HERE, "..", "driver", "globals.cl"))  # variables
    failed = False
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(2) as pool:
        for target in TARGETS:
            results = list(pool.map(lambda src: one(asm_read, tmp, target, src), srcs))
            counts = {}
            reasons = {}
            for (kind, why), src in zip(results, srcs):
                counts[kind] = counts.get(kind, 0) + 1
                if kind == "mismatch":
                    print("FAIL", why)
                    failed = True
                elif kind != "match":
                    reasons.setdefault(why, []).append(os.path.basename(src)[:-3])
            tried = len(srcs) - counts.get("skip", 0)
            print("%-8s %2d/%d kernel files read byte-exact, %d not yet readable" %
                  (target, counts.get("match", 0), tried, counts.get("unsupported", 0)))
            for why, names in sorted(reasons.items()):
                print("    %-60s %s" % (why[:60], " ".join(names)))
            if counts.get("match", 0) < MIN_READ * tried:
                print("FAIL %s: fewer than %d%% of the files readable" % (target, MIN_READ * 100))
                failed = True
    return 1 if failed else 0


sys.exit(main())
