#!/usr/bin/env python3
"""libptxas-amd from Python through ctypes (standard library only), as a framework that
receives PTX at run time would use it: the code object the API returns for each GPU is
byte-identical to what the ptxas-amd command line writes for the same file and options;
errors, refused options, the -v log and the too-early code object behave as documented.

usage: test_ctypes.py LIBPTXAS_AMD.so PTXAS_AMD_CLI SRCDIR"""
import ctypes
import os
import subprocess
import sys
import tempfile

lib_path, cli, srcdir = sys.argv[1:4]
lib = ctypes.CDLL(os.path.abspath(lib_path))
failures = []

SUCCESS, INVALID_HANDLE, INVALID_INPUT, COMPILATION_FAILURE, UNSUPPORTED_OPTION, \
    OUT_OF_MEMORY, INVOCATION_INCOMPLETE = range(7)
handle_t = ctypes.c_void_p
lib.ptxas_amd_create.argtypes = [ctypes.POINTER(handle_t), ctypes.c_size_t, ctypes.c_char_p]
lib.ptxas_amd_destroy.argtypes = [ctypes.POINTER(handle_t)]
lib.ptxas_amd_compile.argtypes = [handle_t, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
for name in ("code_object", "error_log", "info_log"):
    getattr(lib, f"ptxas_amd_get_{name}_size").argtypes = [handle_t,
                                                          ctypes.POINTER(ctypes.c_size_t)]
    getattr(lib, f"ptxas_amd_get_{name}").argtypes = [handle_t, ctypes.c_void_p]
lib.ptxas_amd_get_version.argtypes = [ctypes.POINTER(ctypes.c_uint)] * 2
lib.ptxas_amd_result_name.restype = ctypes.c_char_p


def get(h, name):
    """The bytes of the code object or a log (without the log's NUL)."""
    size = ctypes.c_size_t()
    status = getattr(lib, f"ptxas_amd_get_{name}_size")(h, ctypes.byref(size))
    if status != SUCCESS:
        return status, None
    buf = ctypes.create_string_buffer(size.value)
    status = getattr(lib, f"ptxas_amd_get_{name}")(h, buf)
    raw = buf.raw
    return status, raw if name == "code_object" else raw[:-1].decode()


def compile_ptx(ptx, options):
    """(status, code object or None, error log, info log)."""
    h = handle_t()
    assert lib.ptxas_amd_create(ctypes.byref(h), len(ptx), ptx) == SUCCESS
    argv = (ctypes.c_char_p * len(options))(*[o.encode() for o in options])
    status = lib.ptxas_amd_compile(h, len(options), argv)
    code = get(h, "code_object")[1] if status == SUCCESS else None
    errors, info = get(h, "error_log")[1], get(h, "info_log")[1]
    assert lib.ptxas_amd_destroy(ctypes.byref(h)) == SUCCESS and not h.value
    return status, code, errors, info


def check(name, cond, detail=""):
    if not cond:
        failures.append(f"{name}: {detail}")


major, minor = ctypes.c_uint(), ctypes.c_uint()
check("version", lib.ptxas_amd_get_version(ctypes.byref(major), ctypes.byref(minor)) == SUCCESS
      and (major.value, minor.value) >= (0, 1))
check("result name", lib.ptxas_amd_result_name(COMPILATION_FAILURE) ==
      b"PTXAS_AMD_ERROR_COMPILATION_FAILURE")

vadd_path = os.path.join(srcdir, "examples", "vadd.ptx")
with open(vadd_path, "rb") as f:
    vadd = f.read()
with tempfile.TemporaryDirectory() as tmp:
    for gpu in ("gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"):
        for extra in ([], ["-O0"], ["--maxrregcount", "24"]):
            opts = ["--gpu-name", gpu] + extra
            status, code, errors, _ = compile_ptx(vadd, opts)
            out = os.path.join(tmp, f"{gpu}.hsaco")
            subprocess.run([cli, vadd_path, "-o", out] + opts, check=True, timeout=60)
            with open(out, "rb") as f:
                want = f.read()
            check(f"{gpu} {extra}", status == SUCCESS and code == want,
                  f"status {status}, API and CLI code objects differ; {errors}")
    # The same for several GPUs: the API's bundle is the CLI's bundle.
    gpus = "gfx90a,gfx1100"
    status, code, errors, _ = compile_ptx(vadd, ["--gpu-name", gpus])
    out = os.path.join(tmp, "k.hipfb")
    subprocess.run([cli, vadd_path, "--gpu-name", gpus, "-o", out], check=True, timeout=60)
    with open(out, "rb") as f:
        check("bundle", status == SUCCESS and code == f.read(), errors)
    # -lineinfo through the API: the CLI's code object, DWARF line table included.
    li_path = os.path.join(srcdir, "tests", "codeobj", "lineinfo.ptx")
    with open(li_path, "rb") as f:
        status, code, errors, _ = compile_ptx(f.read(), ["--gpu-name", "gfx1100", "-lineinfo"])
    out = os.path.join(tmp, "li.hsaco")
    subprocess.run([cli, li_path, "--gpu-name", "gfx1100", "-lineinfo", "-o", out], check=True,
                   timeout=60)
    with open(out, "rb") as f:
        check("-lineinfo", status == SUCCESS and code == f.read() and b".debug_line" in code,
              errors)

status, code, errors, info = compile_ptx(vadd, ["-arch=gfx1030", "-v"])
check("-v", status == SUCCESS and "Function properties for vadd" in info and not errors, info)
status, _, errors, _ = compile_ptx(vadd, ["--frobnicate"])
check("unknown option", status == UNSUPPORTED_OPTION and "'--frobnicate'" in errors, errors)
BAD = b".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n\tfoo.s32;\n}\n"
status, _, errors, _ = compile_ptx(BAD, ["--input-name", "k.ptx"])
check("bad ptx", status == COMPILATION_FAILURE and "k.ptx:6:2: error:" in errors, errors)

h = handle_t()
lib.ptxas_amd_create(ctypes.byref(h), len(vadd), vadd)
check("too early", get(h, "code_object")[0] == INVOCATION_INCOMPLETE)
lib.ptxas_amd_destroy(ctypes.byref(h))
check("null handle", lib.ptxas_amd_compile(None, 0, None) == INVALID_HANDLE)

for f in failures:
    print("FAIL", f)
print(f"test_ctypes: {len(failures)} failures")
sys.exit(1 if failures else 0)
