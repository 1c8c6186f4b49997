#!/usr/bin/env python3
"""Command-line contract of ptxas-amd: options spelled as NVIDIA ptxas spells them, and
exit status 0 (success) / 1 (input error) / 2 (usage error), as the issue specifies."""
import os
import subprocess
import sys
import tempfile

exe, srcdir = sys.argv[1], sys.argv[2]
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


check("help", ["--help"], 0, out_has=["Usage: ptxas-amd", "--gpu-name", "gfx1200"])
check("version", ["--version"], 0, out_has=["ptxas-amd"])
check("no input", [], 2, err_has=["no input file"])
check("unknown option", ["--frobnicate", example], 2, err_has=["unknown option '--frobnicate'"])
check("two inputs", [example, example], 2, err_has=["more than one input"])
check("missing value", [example, "-o"], 2, err_has=["needs a value"])
check("bad gpu", ["--gpu-name", "gfx999", "--parse-only", example], 2,
      err_has=["unknown GPU name 'gfx999'", "gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"])
check("sm name", ["-arch=sm_80", "--parse-only", example], 2, err_has=["unknown GPU name 'sm_80'"])
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
check("missing file", ["--parse-only", "/nonexistent/k.ptx"], 1,
      err_has=["cannot open '/nonexistent/k.ptx'"])
check("directory", ["--parse-only", srcdir], 1, err_has=["Is a directory"])
check("parse only", ["--gpu-name", "gfx1030", "--parse-only", example], 0)
with open(example, "rb") as f:
    check("stdin", ["--parse-only", "-"], 0, stdin=f.read())
check("codegen not yet", ["--gpu-name", "gfx90a", example, "-o", os.devnull], 1,
      err_has=["not implemented yet"])
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

for f in failures:
    print("FAIL", f)
print(f"cli: {len(failures)} failures")
sys.exit(1 if failures else 0)
