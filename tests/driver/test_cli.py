#!/usr/bin/env python3
"""Command-line contract of ptxas-amd: options spelled as NVIDIA ptxas spells them, and
exit status 0 (success) / 1 (input error) / 2 (usage error), as the issue specifies."""
import os
import subprocess
import sys
import tempfile

exe, srcdir = sys.argv[1], sys.argv[2]
amdsim = sys.argv[3] if len(sys.argv) > 3 else None
example = os.path.join(srcdir, "examples", "vadd.ptx")
failures = []


def run(args, stdin=None):
    p = subprocess.run([exe] + args, input=stdin, capture_output=True, timeout=60)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def check(name, args, status, out_has=(), err_has=(), stdin=None):
    code, out, err = run(args, stdin)
    problems = []
    if code != status:
        problems.append(f"exit {code}, expected {status}")
    problems += [f"stdout lacks {s!r}" for s in out_has if s not in out]
    problems += [f"stderr lacks {s!r}" for s in err_has if s not in err]
    if problems:
        failures.append(f"{name}: {'; '.join(problems)}\n  stdout: {out[:300]}\n  stderr: {err[:300]}")


check("help", ["--help"], 0, out_has=["Usage: ptxas-amd", "--gpu-name", "gfx1200", "FILE.s",
                                      "FILE.o"])
check("version", ["--version"], 0, out_has=["ptxas-amd"])
check("no input", [], 2, err_has=["no input file"])
check("unknown option", ["--frobnicate", example], 2, err_has=["unknown option '--frobnicate'"])
check("two inputs", [example, example], 2, err_has=["more than one input"])
check("missing value", [example, "-o"], 2, err_has=["needs a value"])
check("bad gpu", ["--gpu-name", "gfx999", "--parse-only", example], 2,
      err_has=["unknown GPU name 'gfx999'", "gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"])
check("sm name", ["-arch=sm_80", "--parse-only", example], 2,
      err_has=["'sm_80' is an NVIDIA GPU", "gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"])
check("compute name", ["-arch", "compute_90a", "--parse-only", example], 2,
      err_has=["'compute_90a' is an NVIDIA GPU", "gfx90a"])
check("entry found", ["--parse-only", "--entry", "vadd", example], 0)
check("entry missing", ["--parse-only", "--entry", "nosuch", example], 1,
      err_has=["--entry nosuch", "no entry of that name", "entries: vadd"])
check("features", ["--gpu-name", "gfx90a:xnack+:sramecc-", "--parse-only", example], 0)
check("feature on rdna", ["--gpu-name", "gfx1100:xnack+", "--parse-only", example], 2,
      err_has=["not supported by gfx1100"])
check("bad feature", ["--gpu-name", "gfx942:ecc+", "--parse-only", example], 2,
      err_has=["unknown target feature 'ecc'"])
check("bad feature sign", ["--gpu-name", "gfx942:xnack", "--parse-only", example], 2,
      err_has=["malformed target feature"])
check("opt levels", ["-O0", "--parse-only", example], 0)
check("opt level long", ["--opt-level", "2", "--parse-only", example], 0)
check("opt level bad", ["--opt-level=7", "--parse-only", example], 2)
check("-O5", ["-O5", "--parse-only", example], 2, err_has=["unknown option '-O5'"])
check("maxrregcount", ["--maxrregcount", "64", "--parse-only", example], 0)
check("maxrregcount bad", ["--maxrregcount", "lots", "--parse-only", example], 2)
check("maxrregcount zero", ["--maxrregcount=0", "--parse-only", example], 2)
check("wavefront-size 64 on rdna", ["--gpu-name", "gfx1100", "--wavefront-size", "64", example,
                                   "-o", os.devnull], 0)
check("wavefront-size 32 on gfx90a", ["--gpu-name", "gfx90a", "--wavefront-size", "32", example],
      2, err_has=["gfx90a does not run code of that wavefront size"])
check("wavefront-size bad", ["--wavefront-size", "48", example], 2,
      err_has=["invalid wavefront size '48'"])
check("warp-size 32 on wave64", ["--gpu-name", "gfx942", "--warp-size", "32", example, "-o",
                                 os.devnull], 0)
check("warp-size 64 on wave32", ["--gpu-name", "gfx1030", "--warp-size", "64", example], 2,
      err_has=["--warp-size 64 needs wave64 code"])
check("no lanemask warning", ["-Wno-lanemask", "--gpu-name", "gfx90a", example, "-o",
                              os.devnull], 0)
check("missing file", ["--parse-only", "/nonexistent/k.ptx"], 1,
      err_has=["cannot open '/nonexistent/k.ptx'"])
check("directory", ["--parse-only", srcdir], 1, err_has=["Is a directory"])
check("parse only", ["--gpu-name", "gfx1030", "--parse-only", example], 0)
with open(example, "rb") as f:
    check("stdin", ["--parse-only", "-"], 0, stdin=f.read())
check("codegen", ["--gpu-name", "gfx90a", example, "-o", os.devnull], 0)
# a form ptxas accepts that AMD hardware cannot honour (docs/VECTORS.md): a located error
UNSUPPORTED_PTX = (b".version 8.3\n.target sm_90\n.address_size 64\n"
                   b".visible .entry k(.param .u64 p)\n{\n\t.reg .b128 %q<4>;\n"
                   b"\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [p];\n"
                   b"\tatom.global.exch.b128 %q1, [%rd1], %q2;\n\tret;\n}\n")
check("codegen unsupported", ["--gpu-name", "gfx1100", "-", "-o", os.devnull], 1,
      err_has=["<stdin>:9:2: error: 128-bit atomics (atom .b128) cannot be compiled for AMD "
               "GPUs"], stdin=UNSUPPORTED_PTX)



def check_unwritable_output():
    """An output path that cannot be written is reported and left alone: an empty directory
    (open fails with EISDIR; an unlink of the path would remove it) and a device stay."""
    with tempfile.TemporaryDirectory() as tmp:
        target = os.path.join(tmp, "out.hsaco")
        os.mkdir(target)
        check("output is a directory", ["--gpu-name", "gfx90a", example, "-o", target], 1,
              err_has=["cannot write '%s'" % target])
        if not os.path.isdir(target):
            failures.append("output is a directory: ptxas-amd removed the directory")
    check("output to /dev/null", ["--gpu-name", "gfx1100", example, "-o", os.devnull], 0)
    if not os.path.exists(os.devnull):
        failures.append("output to /dev/null: the device is gone")


check_unwritable_output()

def kernel_source(name, gpu, directive=True):
    return ((".amdgcn_target \"amdgcn-amd-amdhsa--%s\"\n" % gpu if directive else "") +
            ".text\n.globl {0}\n.p2align 8\n.type {0},@function\n{0}:\n  s_endpgm\n"
            ".rodata\n.p2align 6\n.amdhsa_kernel {0}\n  .amdhsa_next_free_vgpr 1\n"
            "  .amdhsa_next_free_sgpr 1\n.end_amdhsa_kernel\n".format(name))


def check_link_two(tmp):
    """Two objects with a kernel each link into one code object with ONE metadata note
    listing both kernels (llvm-readelf-19 is the judge; amdsim must find both); objects
    for different processors are named instead of comgr's bare ERROR."""
    objs = []
    for name, gpu in (("ka", "gfx90a"), ("kb", "gfx90a"), ("kc", "gfx1030")):
        src, obj = os.path.join(tmp, name + ".s"), os.path.join(tmp, name + ".o")
        with open(src, "w") as f:
            f.write(kernel_source(name, gpu))
        check("relocatable " + name, ["-c", src, "-o", obj], 0)  # target from the file
        objs.append(obj)
    linked = os.path.join(tmp, "two.hsaco")
    check("link two kernels", [objs[0], objs[1], "-o", linked], 0)
    r = subprocess.run(["llvm-readelf-19", "--notes", linked], capture_output=True, text=True)
    if r.stdout.count("NT_AMDGPU_METADATA") != 1 or ".name:           ka" not in r.stdout \
            or ".name:           kb" not in r.stdout or r.stderr:
        failures.append("link two kernels: want one note naming ka and kb:\n" + r.stdout)
    for k in ("ka", "kb"):
        if amdsim:
            p = subprocess.run([amdsim, linked, "--kernel", k, "--grid", "1", "--block", "64"],
                               capture_output=True, text=True, timeout=60)
            if p.returncode:
                failures.append("amdsim does not run %s of two.hsaco: %s" % (k, p.stderr))
    check("link different targets", [objs[0], objs[2], "-o", linked], 1,
          err_has=["different targets", "ka.o' is for gfx90a", "kc.o' is for gfx1030"])
    check("link against --gpu-name", ["--gpu-name", "gfx90a", objs[2], "-o", linked], 1,
          err_has=["kc.o' is for gfx1030, not for --gpu-name gfx90a"])
    check("link a non-object", [os.path.join(tmp, "ka.s") + ".o", "-o", linked], 1)


def check_target_directive(tmp):
    """Without --gpu-name the target of a .s file is its .amdgcn_target; a different
    --gpu-name is ONE error, worded as llvm-mc-19 words it."""
    src = os.path.join(tmp, "rdna3.s")
    with open(src, "w") as f:
        f.write(kernel_source("k11", "gfx1100").replace(
            "  s_endpgm\n", "  v_add_nc_u32 v0, v1, v2\n  s_endpgm\n"))
    out = os.path.join(tmp, "rdna3.hsaco")
    check("target from .amdgcn_target", [src, "-o", out], 0)
    r = subprocess.run(["llvm-readelf-19", "-h", out], capture_output=True, text=True)
    if not any(l.strip().startswith("Flags:") and l.endswith(", gfx1100")
               for l in r.stdout.splitlines()):
        failures.append("target from .amdgcn_target: not a gfx1100 object:\n" + r.stdout)
    code, _, err = run(["--gpu-name", "gfx90a", src, "-o", out])
    want = ("rdna3.s:1:16: error: .amdgcn_target directive's target id "
            "amdgcn-amd-amdhsa--gfx1100 does not match the specified target id "
            "amdgcn-amd-amdhsa--gfx90a")
    if code != 1 or err.count("error:") != 1 or want not in err:
        failures.append("target mismatch: exit %d, want one error %r:\n%s" % (code, want, err))
    check("same target with features", ["--gpu-name", "gfx1100", src, "-o", out], 0)


with tempfile.TemporaryDirectory() as tmp:
    asm = os.path.join(tmp, "k.s")
    with open(asm, "w") as f:
        f.write("s_endpgm\n")
    check("assembly without kernel", [asm, "-o", os.devnull], 1, err_has=["no kernel"])
    bad = os.path.join(tmp, "bad.s")
    with open(bad, "w") as f:
        f.write(".text\n.globl k\nk:\n  s_endpgm\n.rodata\n.amdhsa_kernel k\n"
                "  .amdhsa_next_free_vgpr 1\n  .amdhsa_next_free_sgpr 1\n"
                "  .amdhsa_exception_int_div_zero 1\n.end_amdhsa_kernel\n")
    check("unsupported descriptor field", ["--gpu-name", "gfx1100", bad, "-o",
          os.path.join(tmp, "bad.hsaco")], 1, err_has=["bad.s:9:", "amdhsa_exception_int_div_zero"])
    # -c writes a relocatable object; several .o inputs are linked through comgr (which
    # Debian's ROCm 5.2 has for gfx90a/gfx1030, not gfx1100): llvm-readelf is the judge.
    good = os.path.join(tmp, "good.s")
    with open(good, "w") as f:
        f.write(".text\n.globl k\n.p2align 8\n.type k,@function\nk:\n  s_endpgm\n"
                ".rodata\n.p2align 6\n.amdhsa_kernel k\n  .amdhsa_next_free_vgpr 1\n"
                "  .amdhsa_next_free_sgpr 1\n.end_amdhsa_kernel\n")
    for gpu, status in (("gfx90a", 0), ("gfx1030", 0), ("gfx1100", 1)):
        rel, exe_out = os.path.join(tmp, gpu + ".o"), os.path.join(tmp, gpu + ".hsaco")
        check("relocatable " + gpu, ["--gpu-name", gpu, "-c", good, "-o", rel], 0)
        check("link " + gpu, ["--gpu-name", gpu, rel, "-o", exe_out, "-v"], status,
              err_has=["linked by ROCm comgr"] if status == 0 else ["does not support"])
        if status == 0:
            r = subprocess.run(["llvm-readelf-19", "-h", "-s", "--notes", exe_out],
                               capture_output=True, text=True)
            if "DYN" not in r.stdout or "k.kd" not in r.stdout or ".name:" not in r.stdout \
                    or r.stderr:
                failures.append(f"link {gpu}: llvm-readelf-19 finds no kernel\n{r.stderr}")
    check_link_two(tmp)
    check_target_directive(tmp)
    check("mix objects and source", ["--gpu-name", "gfx90a", good, rel], 2,
          err_has=["cannot mix"])
    # Binary input: one clear message, not one per byte.
    elf = os.path.join(tmp, "obj.ptx")
    with open(elf, "wb") as f:
        f.write(b"\x7fELF\x02\x01\x01" + bytes(range(256)) * 8)
    code, out, err = run(["--parse-only", elf])
    if code != 1 or err.count("error:") != 1 or "ELF object file, not PTX" not in err:
        failures.append(f"ELF input: exit {code}, stderr {err[:400]}")
    noise = os.path.join(tmp, "noise.ptx")
    with open(noise, "wb") as f:
        f.write(bytes((i * 151 + 7) % 256 for i in range(20000)))
    code, out, err = run(["--parse-only", noise])
    if code != 1 or err.count("error:") > 5 or "binary data" not in err:
        failures.append(f"binary input: exit {code}, {err.count('error:')} errors")
    check("parse-only on assembly", ["--parse-only", asm], 2, err_has=["applies to PTX input"])
    dumped = os.path.join(tmp, "dump.ptx")
    check("dump to file", ["--dump-ast", example, "-o", dumped], 0)
    if not os.path.exists(dumped) or "vadd" not in open(dumped).read():
        failures.append("dump to file: output file lacks the kernel")
check("dump and parse-only", ["--dump-ast", "--parse-only", example], 2)
check("werror accepted", ["-Werror", "-w", "--parse-only", example], 0)


def check_targets():
    """`.target sm_XX` is accepted exactly when NVIDIA ptxas (CUDA 13.0) accepts it:
    tests/driver/ptxas_targets.txt records its verdicts over sm_/compute_ 1..135."""
    listed = os.path.join(srcdir, "tests", "driver", "ptxas_targets.txt")
    accepted = {l.strip() for l in open(listed) if l.strip() and not l.startswith("#")}
    # Every sm_N, and the suffixed and compute_ spellings of the numbers ptxas knows
    # (a process per name: keep the count modest).
    bases = sorted({int("".join(c for c in n.split("_")[1] if c.isdigit())) for n in accepted})
    names = ["sm_%d" % n for n in range(1, 136)] + ["sm_800", "sm_1000"]
    names += ["%s_%d%s" % (p, n, suf) for p in ("sm", "compute") for n in bases
              for suf in ("a", "f")] + ["compute_%d" % n for n in bases]
    wrong = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "t.ptx")
        for name in names:
            with open(path, "w") as f:
                f.write(".version 9.0\n.target %s\n.address_size 64\n"
                        ".visible .entry k() { ret; }\n" % name)
            code, _, err = run(["--parse-only", path])
            if (code == 0) != (name in accepted) or (code and "unknown target" not in err):
                wrong.append("%s: exit %d %s" % (name, code, err.strip()[:80]))
    if wrong:
        failures.append("target names (%d wrong): %s" % (len(wrong), "; ".join(wrong[:8])))


def check_load_deps():
    """Start fast and small: comgr (and LLVM with it) is loaded only when linking, so
    neither the binary's DT_NEEDED entries nor ldd's closure may name them.  A fully static
    ptxas-amd (meson option static_exe) has none; its dynamically linked twin ptxas-amd-link,
    which it runs to link, is checked instead (and must be there)."""
    binary = exe
    r = subprocess.run(["llvm-readelf-19", "-d", "-l", exe], capture_output=True, text=True)
    if r.returncode == 0 and "INTERP" not in r.stdout and "(NEEDED)" not in r.stdout:
        binary = os.path.join(os.path.dirname(exe), "ptxas-amd-link")
        if not os.access(binary, os.X_OK):
            failures.append("static ptxas-amd without ptxas-amd-link beside it")
            return
    r = subprocess.run(["llvm-readelf-19", "-d", binary], capture_output=True, text=True)
    needed = [l for l in r.stdout.splitlines() if "(NEEDED)" in l]
    if r.returncode or not needed:
        failures.append("readelf -d found no NEEDED entries in %s: %s" % (binary, r.stderr))
    r = subprocess.run(["ldd", binary], capture_output=True, text=True)
    closure = r.stdout.lower()
    for lib in ("comgr", "libllvm", "libz3", "libicu", "libxml2"):
        if lib in "\n".join(needed).lower() or lib in closure:
            failures.append("%s is loaded with %s itself:\n%s" % (lib, binary, r.stdout))


check_load_deps()
check_targets()
for f in failures:
    print("FAIL", f)
print(f"cli: {len(failures)} failures")
sys.exit(1 if failures else 0)
