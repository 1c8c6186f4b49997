#!/usr/bin/env python3
"""`ptxas-amd KERNEL.s` (LLVM AMDGPU assembly -> code object) against LLVM itself.

For clang-19 -O3 kernels of tests/kernels/src on all five targets, the .s that clang
writes is assembled twice: by llvm-mc-19 + ld.lld-19 (the reference) and by ptxas-amd.
Required: identical instructions (text and bytes, addresses aside), identical kernel
descriptors (the entry offset aside: our layout differs, see docs/CODEOBJ.md, so the
offset is checked to reach the kernel symbol instead), identical metadata when the .s
carries an .amdgpu_metadata block; and without that block, metadata derived from the
.amdhsa_kernel fields that agrees with LLVM's on every field those fields determine.
"""
import concurrent.futures
import os
import re
import struct
import subprocess
import sys
import tempfile

exe, srcdir = sys.argv[1], sys.argv[2]
KSRC = os.path.join(srcdir, "tests", "kernels", "src")
KERNELS = ["vadd_f32", "reduce_lds", "scratch", "elem_f64", "atomics_lds", "grid3d",
           "wave_ops", "dyn_lds", "div_i64", "matmul_lds", "calls",
           # device functions and relocations; global variables in .data/.bss/.comm:
           os.path.join(srcdir, "tests", "driver", "globals.cl")]
TARGETS = ["gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"]
failures = []


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}\n{r.stdout}{r.stderr}")
    if "warning" in r.stderr:
        raise RuntimeError(f"warning from {' '.join(cmd)}:\n{r.stderr}")
    return r.stdout


def cflags(path):
    for line in open(path):
        m = re.match(r"\s*//\s*CFLAGS:\s*(.*)", line)
        if m:
            return m.group(1).split()
    return []


def disasm(path):
    """Instructions as (text, bytes) in order, addresses removed."""
    out = []
    for line in run(["llvm-objdump-19", "-d", path]).splitlines():
        m = re.match(r"\t(.*?)\s*// [0-9A-F]+: ([0-9A-F ]+)(.*)$", line)
        if m:
            out.append((m.group(1), m.group(2).strip()))
        elif re.match(r"^[0-9a-f]+ <(.*)>:", line):
            out.append((line.split(" ", 1)[1], ""))
    return out


def symbols(path):
    syms = {}
    for line in run(["llvm-readelf-19", "-sW", path]).splitlines():
        f = line.split()
        if len(f) >= 8 and f[0].endswith(":") and f[1] != "Value":
            syms[f[7]] = int(f[1], 16)
    return syms


def sections(path):
    """name -> (address, file offset, size)."""
    secs = {}
    for line in run(["llvm-readelf-19", "-SW", path]).splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)", line)
        if m:
            secs[m.group(1)] = tuple(int(m.group(i), 16) for i in (2, 3, 4))
    return secs


def descriptors(path, gfx10_plus):
    """NAME.kd -> (64 bytes with the entry offset zeroed, entry offset reaches NAME).
    On gfx10+ hardware ignores GRANULATED_WAVEFRONT_SGPR_COUNT (rsrc1 bits 9:6, SGPRs are
    always allocated in full): clang's compiler writes the count there, llvm-mc's
    .amdhsa directive path writes 0, ptxas-amd writes what clang writes; the bits are
    masked on those targets."""
    data = open(path, "rb").read()
    secs, syms = sections(path), symbols(path)
    out = {}
    for name, addr in syms.items():
        if not name.endswith(".kd"):
            continue
        for sa, off, size in secs.values():
            if sa <= addr < sa + size:
                kd = bytearray(data[off + addr - sa: off + addr - sa + 64])
                if gfx10_plus:
                    rsrc1 = struct.unpack_from("<I", kd, 48)[0] & ~(0xf << 6)
                    struct.pack_into("<I", kd, 48, rsrc1)
                kd = bytes(kd)
                entry = addr + struct.unpack_from("<q", kd, 16)[0]
                out[name] = (kd[:16] + b"\0" * 8 + kd[24:], entry == syms.get(name[:-3]))
    return out


def notes(path):
    return run(["llvm-readelf-19", "--notes", path])


def md_fields(text):
    """kernel name -> {key: scalar value} from llvm-readelf's YAML: the kernel-level keys of
    each amdhsa.kernels item (indent 4, or the item's first line '  - .key:')."""
    kernels, cur = [], None
    for line in text.splitlines():
        m = re.match(r"(  - |    )\.(\w+):\s+(\S.*)$", line)
        if line.startswith("  - "):
            cur = {}
            kernels.append(cur)
        if m and cur is not None:
            cur[m.group(2)] = m.group(3).strip("'")
    return {k.get("name"): k for k in kernels}


def data_sections(path):
    """The bytes of .data and .bss and the address of every OBJECT symbol."""
    dump = run(["llvm-readelf-19", "-x", ".data", path]) if ".data" in sections(path) else ""
    objs = sorted({l.split()[7] + "@" + l.split()[1]
                  for l in run(["llvm-readelf-19", "-sW", path]).splitlines()
                  if len(l.split()) >= 8 and l.split()[3] == "OBJECT"})
    return [l for l in dump.splitlines() if l.startswith("0x")], sections(path).get(".bss"), objs


def check(cond, what):
    if not cond:
        failures.append(what)


def one_case(tmp, target, k):
    """Assembles kernel file k for target both ways and compares; returns 1 if compared."""
    src = k if k.endswith(".cl") else os.path.join(KSRC, k + ".cl")
    k = os.path.basename(k)[:-3] if k.endswith(".cl") else k
    base = os.path.join(tmp, f"{k}-{target}")
    try:
        run(["clang-19", "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa",
             "-mcpu=" + target, "-nogpulib", "-O3", *cflags(src), "-S", src,
             "-o", base + ".s"])
        run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=" + target,
             "-filetype=obj", base + ".s", "-o", base + ".o"])
        run(["ld.lld-19", "-shared", base + ".o", "-o", base + ".ref.hsaco"])
        r = subprocess.run([exe, "--gpu-name", target, base + ".s", "-o",
                            base + ".hsaco"], capture_output=True, text=True,
                           timeout=60)
        if r.returncode != 0:
            failures.append(f"{k} {target}: ptxas-amd failed:\n{r.stderr}")
            return 0
        ours, ref = base + ".hsaco", base + ".ref.hsaco"
        check(disasm(ours) == disasm(ref), f"{k} {target}: instructions differ")
        if k == "globals":  # the only file with variables
            vo, vr = data_sections(ours), data_sections(ref)
            check(vo == vr and vo[0] and vo[2],
                  f"{k} {target}: variables differ (or none): {vo} vs {vr}")
        gfx10_plus = not target.startswith("gfx9")
        do, dr = descriptors(ours, gfx10_plus), descriptors(ref, gfx10_plus)
        check(do.keys() == dr.keys(), f"{k} {target}: kernels {do.keys()} vs {dr.keys()}")
        for name in dr:
            check(name in do and do[name][0] == dr[name][0],
                  f"{k} {target}: descriptor {name} differs")
            check(name in do and do[name][1], f"{k} {target}: {name} entry offset wrong")
        check(notes(ours) == notes(ref), f"{k} {target}: metadata note differs")
        # Without the .amdgpu_metadata block: metadata from the .amdhsa fields.
        text = open(base + ".s").read()
        stripped = re.sub(r"\.amdgpu_metadata\n.*?\.end_amdgpu_metadata\n", "", text,
                          flags=re.S)
        with open(base + ".nomd.s", "w") as f:
            f.write(stripped)
        r = subprocess.run([exe, "--gpu-name", target, base + ".nomd.s", "-o",
                            base + ".nomd.hsaco"], capture_output=True, text=True,
                           timeout=60)
        if r.returncode != 0:
            failures.append(f"{k} {target} (no metadata block): {r.stderr}")
            return 0
        mo, mr = md_fields(notes(base + ".nomd.hsaco")), md_fields(notes(ref))
        check(mo.keys() == mr.keys(), f"{k} {target}: derived kernels {list(mo)}")
        for name, fields in mr.items():
            for key in ("kernarg_segment_size", "group_segment_fixed_size",
                        "private_segment_fixed_size", "wavefront_size", "sgpr_count",
                        "vgpr_count", "agpr_count", "kernarg_segment_align"):
                if key in fields:
                    got = mo.get(name, {}).get(key)
                    check(got == fields[key],
                          f"{k} {target}: derived .{key} {got} != LLVM's {fields[key]}")
        return 1
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        failures.append(f"{k} {target}: {e}")
        return 0


# Two cases at a time (the machine has 2 cores; each case runs a dozen LLVM tools).
with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(2) as pool:
    checked = sum(pool.map(lambda tk: one_case(tmp, *tk),
                           [(t, k) for t in TARGETS for k in KERNELS]))

for f in failures:
    print("FAIL", f)
print(f"asm: {checked} kernel files assembled and compared, {len(failures)} failures")
sys.exit(1 if failures or checked == 0 else 0)
