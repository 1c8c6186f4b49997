"""Helpers shared by the amdsim tests of tests/sim (suite 'sim').

The test scripts run as `python3 tests/sim/NAME.py ...`, so this folder is on sys.path and
`import simlib` finds this file wherever meson runs them.  What is here: the failure record
(check/finish), subprocess runs, the clang-19 (OpenCL C) and llvm-mc-19 builds of kernels
linked by ld.lld-19 to code objects, the kernel metadata of hand-written kernels, and the
llvm-objdump-19/llvm-readelf-19 views used to patch code.  The oracles stay in the tests.
"""
import os
import re
import struct
import subprocess
import sys

TARGETS = ("gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200")
WAVE32 = ("gfx1030", "gfx1100", "gfx1200")  # default wave32; they also run wave64 code
FAILURES = []  # what failed, one line each (test, target, case), printed as it happens


def check(cond, what):
    """Records `what` as a failure unless cond holds; returns cond."""
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)
    return cond


def finish():
    """Ends the script: exit 1 with the failure count, or 'ok'."""
    if FAILURES:
        print("%d failure(s)" % len(FAILURES))
        sys.exit(1)
    print("ok")
    sys.exit(0)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def read_words(path, fmt):
    """The file as 32-bit little-endian words of struct format fmt ('I', 'i' or 'f')."""
    data = open(path, "rb").read()
    return list(struct.unpack("<%d%s" % (len(data) // 4, fmt), data))


def cl_flags(target):
    """clang-19's OpenCL C 2.0 flags for a bare AMDGPU kernel (no device library)."""
    return ["-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", "-mcpu=" + target,
            "-nogpulib"]


def link(obj, hsaco):
    subprocess.run(["ld.lld-19", "-shared", obj, "-o", hsaco], check=True)
    return hsaco


def build_cl(src, target, base, flags=(), level="-O3"):
    """clang-19 compiles the OpenCL file src for target to base.o, linked to base.hsaco; a
    compile error is a failure naming target and source, and gives None."""
    obj = base + ".o"
    r = run(["clang-19"] + cl_flags(target) + [level, *flags, "-c", src, "-o", obj])
    if not check(r.returncode == 0, "%s %s: clang-19: %s"
                 % (target, os.path.basename(src), r.stderr[-400:])):
        return None
    return link(obj, base + ".hsaco")


def build_cl_text(text, target, base, flags=()):
    """build_cl on OpenCL source text, written to base.cl."""
    with open(base + ".cl", "w") as f:
        f.write(text)
    return build_cl(base + ".cl", target, base, flags)


def assemble(text, target, base):
    """llvm-mc-19 assembles text (written to base.s) for target, linked to base.hsaco.
    Returns (hsaco, "") or (None, llvm-mc's stderr): the caller's check names the case."""
    s, o = base + ".s", base + ".o"
    with open(s, "w") as f:
        f.write(text)
    r = run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=" + target, "-filetype=obj", s,
             "-o", o])
    if r.returncode != 0:
        return None, r.stderr
    return link(o, base + ".hsaco"), ""


# One kernel's entry in the code object metadata: one global pointer argument (8 bytes).
META_KERNEL = """  - .name: {name}
    .symbol: {name}.kd
    .kernarg_segment_size: 8
    .group_segment_fixed_size: {lds}
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: {wave}
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 256
    .args:
      - {{ .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }}
"""


def metadata(names, wave, lds=0):
    """The .amdgpu_metadata block of kernels `names` (META_KERNEL each)."""
    kernels = "".join(META_KERNEL.format(name=n, wave=wave, lds=lds) for n in names)
    return ("\n.amdgpu_metadata\n---\namdhsa.version: [ 1, 2 ]\namdhsa.kernels:\n%s..."
            "\n.end_amdgpu_metadata\n" % kernels)


def disasm(hsaco):
    """[(address, mnemonic, text, [words])] from llvm-objdump-19."""
    res = []
    for ln in run(["llvm-objdump-19", "-d", hsaco]).stdout.splitlines():
        m = re.match(r"\s+(\S+)(.*?)//\s*([0-9A-Fa-f]+):((?:\s[0-9A-Fa-f]{8})+)", ln)
        if m:
            res.append((int(m.group(3), 16), m.group(1), (m.group(1) + m.group(2)).strip(),
                        [int(x, 16) for x in m.group(4).split()]))
    return res


def text_section(hsaco):
    """(file offset, address) of .text, from llvm-readelf-19."""
    out = run(["llvm-readelf-19", "-S", "-W", hsaco]).stdout
    for ln in out.splitlines():
        f = ln.replace("]", "] ").split()
        if ".text" in f:
            i = f.index(".text")
            return int(f[i + 3], 16), int(f[i + 2], 16)
    raise RuntimeError("no .text in " + hsaco)


def patch_word(src, dst, addr, word):
    """A copy of code object src at dst with the 32-bit word at code address addr replaced."""
    off, base = text_section(src)
    data = bytearray(open(src, "rb").read())
    data[off + addr - base: off + addr - base + 4] = struct.pack("<I", word)
    open(dst, "wb").write(data)
