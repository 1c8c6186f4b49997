#!/usr/bin/env python3
"""Code object writer against LLVM, for gfx90a, gfx942, gfx1030, gfx1100, gfx1200.

Oracles: clang-19 compiles OpenCL kernels (one batch per target) and ld.lld-19 links
them; llvm-readelf-19/llvm-objdump-19 read every file; ROCm comgr parses metadata and
links.  For each clang kernel we describe the same kernel to our writer: its machine
code (cut from clang's .o) and the resources clang's .amdhsa_* directives state.  The
descriptor and metadata we derive must then equal clang's, field by field, and our
file layout must equal ld.lld's.  Known, justified differences (checked, not ignored):
  - metadata: clang adds .language/.language_version (OpenCL); PTX has no such thing;
  - .comment and clang's __oclc_ABI_version symbol exist only in LLVM's file, so the
    .note (shorter without .language) and everything after it moves; we compare the
    layout rules and the content of every allocated section, not absolute offsets;
  - LLVM's .rodata ends with clang's 4-byte __oclc_ABI_version, so its size differs;
    the descriptors in it are compared field by field;
  - the kernel descriptor's entry offset differs by that move; we check it points at
    our kernel symbol instead;
  - clang's OpenCL globals are hidden, ours (PTX .visible) are exported, so in the
    globals tests the dynamic symbol tables are larger by design;
  - the relocatable's section order differs from clang's; we check instead that
    ld.lld-19 links our relocatable into exactly our executable.
Docs: docs/CODEOBJ.md lists the same differences.
usage: test_codeobj.py CO_TOOL COMGR_CHECK
"""
import concurrent.futures
import os
import re
import struct
import subprocess
import sys
import tempfile

TARGETS = ["gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200",
           "gfx90a:xnack-:sramecc+", "gfx942:xnack+"]  # features change e_flags and SGPRs
COMGR_TARGETS = {"gfx90a", "gfx1030", "gfx90a:xnack-:sramecc+"}  # Debian's comgr 5.2
CL = r"""
__kernel void vadd(__global float *a, __global const float *b, int n) {
  int i = __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x()
          + __builtin_amdgcn_workitem_id_x();
  if (i < n) a[i] += b[i];
}
__kernel void scr(__global int *a, int k) {
  int buf[64];
  int i = __builtin_amdgcn_workitem_id_x();
  for (int j = 0; j < 64; j++) buf[j] = a[j*i];
  a[i] = buf[k & 63];
}
__kernel __attribute__((reqd_work_group_size(64,2,1)))
void lds3(__global float *a, char c, short s, double d, long l) {
  __local float t[256];
  int x = __builtin_amdgcn_workitem_id_x(), y = __builtin_amdgcn_workitem_id_y();
  t[x + y*64] = a[x] * c + s + d + l;
  __builtin_amdgcn_s_barrier();
  a[x + 64*y + __builtin_amdgcn_workgroup_id_y()] = t[(x + 1) & 255];
}
__kernel void empty(void) {}
#if defined(__gfx90a__) || defined(__gfx942__)
__kernel void acc(__global float *a) {  /* AGPRs: accum offset, unified VGPR file */
  float x = a[__builtin_amdgcn_workitem_id_x()];
  __asm volatile("v_accvgpr_write_b32 a5, %0" :: "v"(x) : "a5");
  __asm volatile("v_mov_b32 v9, 0" ::: "v9");
}
#endif
"""
# LDS occupancy sweep: (LDS bytes, reqd work-group size or 0) hitting every term of
# LLVM's LDS occupancy (LDS-bound, workgroup-slot-bound, single-wave groups, barriers).
LDS_CASES = [(1000, 0), (5000, 0), (10000, 0), (20000, 0), (40000, 0), (3000, 64), (3000, 1024),
             (12000, 1024), (30000, 128), (16000, 512)]
CL += "".join(
    "__kernel %s void lds_%d_%d(__global float *a) { __local float t[%d];"
    " int x = __builtin_amdgcn_workitem_id_x(); t[x] = a[x]; __builtin_amdgcn_s_barrier();"
    " a[x] = t[x + 1]; }\n" % ("__attribute__((reqd_work_group_size(%d,1,1)))" % wg if wg else "",
                               n, wg, n // 4) for n, wg in LDS_CASES)
GLOBALS_CL = r"""
__global int counter = 5;
__constant float table[4] = {1, 2, 3, 4};
__kernel void gk(__global float *a) {
  int i = __builtin_amdgcn_workitem_id_x();
  a[i] = table[i & 3] + counter;
  counter = i;
}
"""
POINTER_CL = r"""
__global int counter = 5;
__global int *ptr = &counter;
__kernel void pk(__global int *a) { a[0] = *ptr; }
"""
USE_EXTERN_S = """
  .amdgcn_target "amdgcn-amd-amdhsa--{target}"
  .text
  .globl usek
  .p2align 8
  .type usek,@function
usek:
  s_getpc_b64 s[0:1]
  s_add_u32 s0, s0, counter@rel32@lo+4
  s_addc_u32 s1, s1, counter@rel32@hi+12
  s_getpc_b64 s[4:5]
  s_add_u32 s4, s4, helper@rel32@lo+4
  s_addc_u32 s5, s5, helper@rel32@hi+12
  s_swappc_b64 s[30:31], s[4:5]
  s_endpgm
helper_code:
  s_setpc_b64 s[30:31]
"""

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def run(cmd, ok_rc=(0,), **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode not in ok_rc:
        raise RuntimeError("%s -> %d\n%s%s" % (" ".join(cmd), r.returncode, r.stdout, r.stderr))
    return r


def readelf(path, *flags):
    r = run(["llvm-readelf-19", *flags, path])
    out = r.stdout + r.stderr
    if "warning" in out.lower():
        fail("llvm-readelf-19 %s %s warns:\n%s" % (" ".join(flags), path, out))
    return r.stdout


def parse_yaml(lines):
    """The block YAML subset llvm-readelf prints for AMDGPU metadata: maps, lists of
    maps or scalars, plain or single-quoted scalars."""
    lines = list(lines)

    def col(i):
        return len(lines[i]) - len(lines[i].lstrip())

    def scalar(v):
        v = v.strip()
        if v == "[]":
            return []
        return v[1:-1] if len(v) > 1 and v[0] == "'" and v[-1] == "'" else v

    def node(i, indent):
        if lines[i][indent:].startswith("- "):
            return seq(i, indent)
        return mapping(i, indent)

    def seq(i, indent):
        items = []
        while i < len(lines) and col(i) == indent and lines[i][indent:].startswith("- "):
            content = lines[i][indent + 2:]
            if re.match(r"[^ ']+:( |$)", content):
                lines[i] = " " * (indent + 2) + content
                val, i = mapping(i, indent + 2)
            else:
                val, i = scalar(content), i + 1
            items.append(val)
        return items, i

    def mapping(i, indent):
        out = {}
        while i < len(lines) and col(i) == indent and not lines[i][indent:].startswith("- "):
            key, _, val = lines[i][indent:].partition(":")
            if val.strip():
                out[key] = scalar(val)
                i += 1
            else:
                out[key], i = node(i + 1, col(i + 1))
        return out, i

    return mapping(0, 0)[0]


def notes_metadata(path):
    text = readelf(path, "--notes")
    if "amdhsa.kernels" not in text:
        fail("%s: llvm-readelf did not decode the metadata" % path)
        return {}
    body = text.split("---\n", 1)[1].split("\n...", 1)[0]
    return parse_yaml([l for l in body.split("\n") if l.strip()])


def sections(path):
    """name -> (type, flags, addr, off, size, align) from llvm-readelf -S."""
    out = {}
    for line in readelf(path, "-S", "-W").splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)"
                     r"\s+[0-9a-f]+\s+(\S*)\s+\d+\s+\d+\s+(\d+)", line)
        if m:
            out[m.group(1)] = (m.group(2), m.group(6), int(m.group(3), 16), int(m.group(4), 16),
                               int(m.group(5), 16), int(m.group(7)))
    return out


def section_bytes(path, name, tmp=None):
    """Contents of section `name`, read from the ELF section headers (llvm-objcopy
    refuses to extract .dynsym alone); b"" for NOBITS."""
    with open(path, "rb") as f:
        data = f.read()
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
    def shdr(i):
        return struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
    stroff = shdr(shstrndx)[4]
    for i in range(shnum):
        h = shdr(i)
        nm = data[stroff + h[0]:data.index(b"\0", stroff + h[0])].decode()
        if nm == name:
            return b"" if h[1] == 8 else data[h[4]:h[4] + h[5]]
    raise KeyError("%s has no section %s" % (path, name))


def symbols(path, dyn=False):
    """name -> (value, size, type, bind, ndx)."""
    out = {}
    text = readelf(path, "--dyn-syms" if dyn else "-s", "-W")
    for line in text.splitlines():
        f = line.split()
        if len(f) == 8 and f[0].endswith(":") and f[0][:-1].isdigit():
            out[f[7]] = (int(f[1], 16), int(f[2]), f[3], f[4], f[6])
    return out


def program_headers(path):
    rows, mapping = [], []
    text = readelf(path, "-l", "-W")
    for line in text.splitlines():
        f = line.split()
        if f and f[0] in ("PHDR", "LOAD", "DYNAMIC", "GNU_RELRO", "GNU_STACK", "NOTE"):
            rows.append((f[0], " ".join(f[6:-1]), f[-1]))
        m = re.match(r"\s+(\d\d)\s+(.*)$", line)
        if m and "Segment Sections" not in text.split(line)[0][-40:]:
            mapping.append(m.group(2).split())
    return rows, mapping


def amdhsa_directives(asm):
    kernels = {}
    for m in re.finditer(r"\.amdhsa_kernel (\S+)\n(.*?)\.end_amdhsa_kernel", asm, re.S):
        kernels[m.group(1)] = {k: int(v) for k, v in re.findall(r"\.amdhsa_(\w+) (\d+)",
                                                                 m.group(2))}
    occ = re.findall(r"^(\S+):\s+; @\S+\n(?:.*\n)*?; Occupancy: (\d+)", asm, re.M)
    # .amdhsa_next_free_[sv]gpr are clamped to >= 1; the "; NumSgprs/NumVgprs" comments
    # say 0 when the kernel names no register, which is the usage we describe.
    for name, nsgpr, nvgpr in re.findall(r"^(\S+):\s+; @\S+\n(?:.*\n)*?; NumSgprs: (\d+)\n"
                                         r"; NumVgprs: (\d+)", asm, re.M):
        if int(nsgpr) == 0:
            kernels[name]["next_free_sgpr"] = 0
        # next_free_vgpr counts AGPRs too on gfx90a; NumVgprs is the architected VGPRs.
        kernels[name]["next_free_vgpr"] = int(nvgpr)
    return kernels, {name: int(o) for name, o in occ}


HIDDEN = ["block_count_x", "block_count_y", "block_count_z", "group_size_x", "group_size_y",
          "group_size_z", "remainder_x", "remainder_y", "remainder_z", "global_offset_x",
          "global_offset_y", "global_offset_z", "grid_dims", "printf_buffer",
          "hostcall_buffer", "multigrid_sync_arg", "heap_v1", "default_queue",
          "completion_action", "dynamic_lds_size", "private_base", "shared_base", "queue_ptr"]


def kernel_spec(name, d, md, code_file, start, size, target):
    """Our module description of clang's kernel `name`."""
    afs = target.split(":")[0] in ("gfx942", "gfx1100", "gfx1200")
    lines = ["kernel " + name, " code %s %d %d" % (code_file, start, size),
             " vgprs %d" % d["next_free_vgpr"], " agprs %s" % md.get(".agpr_count", "0"),
             " sgprs %d" % d["next_free_sgpr"], " vcc %d" % d.get("reserve_vcc", 0),
             " flat_scratch %d" % d.get("reserve_flat_scratch", 0),
             " lds %d" % d["group_segment_fixed_size"],
             " scratch %d" % d["private_segment_fixed_size"],
             " dynamic_stack %d" % d.get("uses_dynamic_stack", 0),
             " user_sgpr_count %d" % d["user_sgpr_count"],
             " workitem_id_dims %d" % (d["system_vgpr_workitem_id"] + 1),
             " wave %d" % (32 if d.get("wavefront_size32") else 64),
             " max_flat_wg %s" % md[".max_flat_workgroup_size"],
             " uniform_wg %s" % md.get(".uniform_work_group_size", "0"),
             " float %d %d %d %d %d %d" % (d["float_round_mode_32"], d["float_round_mode_16_64"],
                                           d["float_denorm_mode_32"],
                                           d["float_denorm_mode_16_64"], d.get("ieee_mode", 0),
                                           d.get("dx10_clamp", 0)),
             " wgp %d" % d.get("workgroup_processor_mode", 0),
             " mem_ordered %d" % d.get("memory_ordered", 0),
             " tg_split %d" % d.get("tg_split", 0)]
    abi = [k for k in ("private_segment_buffer", "dispatch_ptr", "queue_ptr",
                       "kernarg_segment_ptr", "dispatch_id", "flat_scratch_init",
                       "private_segment_size") if d.get("user_sgpr_" + k)]
    abi += [k for k in ("workgroup_id_x", "workgroup_id_y", "workgroup_id_z",
                        "workgroup_info") if d.get("system_sgpr_" + k)]
    if d.get("enable_private_segment" if afs else
             "system_sgpr_private_segment_wavefront_offset"):
        abi.append("private_segment_wave_offset")
    lines.append(" abi " + " ".join(abi))
    if ".reqd_workgroup_size" in md:
        lines.append(" reqntid " + " ".join(md[".reqd_workgroup_size"]))
    hidden = []
    for a in md.get(".args", []):
        kind = a[".value_kind"]
        if kind.startswith("hidden_"):
            hidden.append(kind[len("hidden_"):])
            continue
        size = int(a[".size"])
        align = 8 if kind == "global_buffer" else size
        flags = [f[4:] for f in (".is_const", ".is_restrict", ".is_volatile") if a.get(f)]
        lines.append(" arg %s %d %d %s %s %s %s %s %s" % (
            a[".offset"], size, align, kind, a.get(".address_space", "-"),
            a.get(".access", "-"), a.get(".name", "-"), a.get(".type_name", "-").replace(" ", ""),
            " ".join(flags)))
    if hidden:
        lines.append(" hidden " + " ".join(hidden))
    lines.append("end")
    return "\n".join(lines) + "\n"


def compare_metadata(what, ours, ref, target):
    ignore = {".language", ".language_version"}
    for key in ("amdhsa.target", "amdhsa.version"):
        if ours.get(key) != ref.get(key):
            fail("%s: %s %r != LLVM %r" % (what, key, ours.get(key), ref.get(key)))
    rk = {k[".name"]: k for k in ref.get("amdhsa.kernels", [])}
    for k in ours.get("amdhsa.kernels", []):
        r = rk.get(k[".name"])
        if r is None:
            fail("%s: kernel %s not in LLVM's metadata" % (what, k[".name"]))
            continue
        for key in sorted(set(k) | set(r)):
            if key in ignore:
                continue
            ov, rv = k.get(key), r.get(key)
            if key == ".args" and ov and rv:
                # type names: clang writes 'char', 'float*' - our spec kept them verbatim
                for oa, ra in zip(ov, rv):
                    ra = {kk: vv.replace(" ", "") if kk == ".type_name" else vv
                          for kk, vv in ra.items()}
                    if oa != ra:
                        fail("%s/%s: arg %r != LLVM %r" % (what, k[".name"], oa, ra))
                if len(ov) != len(rv):
                    fail("%s/%s: %d args != LLVM %d" % (what, k[".name"], len(ov), len(rv)))
            elif ov != rv:
                fail("%s/%s: %s = %r, LLVM %r" % (what, k[".name"], key, ov, rv))


def check_layout(what, ours, ref, same_dynsym=True):
    """Same sections (minus .comment), flags and alignments; same segments and
    section-to-segment mapping; addresses congruent to offsets; lld's segment rule."""
    so, sr = sections(ours), sections(ref)
    sr.pop(".comment", None)
    if list(so) != list(sr):
        fail("%s: sections %s != LLVM %s" % (what, list(so), list(sr)))
    for name in so:
        if name in sr and (so[name][0], so[name][1], so[name][5]) != \
                (sr[name][0], sr[name][1], sr[name][5]):
            fail("%s: section %s %r != LLVM %r" % (what, name, so[name], sr[name]))
        if so[name][2] and so[name][2] % 0x1000 != so[name][3] % 0x1000:
            fail("%s: %s address not congruent to its offset" % (what, name))
    # .rodata: LLVM's holds clang's 4-byte __oclc_ABI_version after the descriptors
    sized = [".text", ".dynamic"]
    if same_dynsym:
        sized += [".dynsym", ".gnu.hash", ".hash", ".dynstr"]
    for name in sized:
        if name in so and name in sr and so[name][4] != sr[name][4]:
            fail("%s: %s size %#x != LLVM %#x" % (what, name, so[name][4], sr[name][4]))
    po, pr = program_headers(ours), program_headers(ref)
    if po[0] != pr[0]:
        fail("%s: program headers %s != LLVM %s" % (what, po[0], pr[0]))
    mo = [[s for s in row if s != ".comment"] for row in po[1]]
    mr = [[s for s in row if s != ".comment"] for row in pr[1]]
    if mo != mr:
        fail("%s: segment mapping %s != LLVM %s" % (what, mo, mr))


def check_kds(what, path, ref_path, names, tmp):
    so, sr = symbols(path), symbols(ref_path)
    ro = section_bytes(path, ".rodata", tmp)
    rr = section_bytes(ref_path, ".rodata", tmp)
    ro_addr, rr_addr = sections(path)[".rodata"][2], sections(ref_path)[".rodata"][2]
    for name in names:
        ko, kr = so[name + ".kd"], sr[name + ".kd"]
        fo = so[name]
        if ko[0] % 64 or fo[0] % 256 or ko[1] != 64 or ko[2] != "OBJECT" or fo[2] != "FUNC" \
                or ko[3] != "GLOBAL" or fo[3] != "GLOBAL":
            fail("%s/%s: symbol kinds/alignment wrong: %r %r" % (what, name, ko, fo))
        kdo = ro[ko[0] - ro_addr:ko[0] - ro_addr + 64]
        kdr = rr[kr[0] - rr_addr:kr[0] - rr_addr + 64]
        entry = int.from_bytes(kdo[16:24], "little", signed=True)
        if ko[0] + entry != fo[0]:
            fail("%s/%s: descriptor entry offset %#x does not reach the kernel" % (what, name,
                                                                                  entry))
        if kdo[:16] + kdo[24:] != kdr[:16] + kdr[24:]:
            for off, field in ((0, "group"), (4, "private"), (8, "kernarg"), (44, "rsrc3"),
                               (48, "rsrc1"), (52, "rsrc2"), (56, "props")):
                a = int.from_bytes(kdo[off:off + 4], "little")
                b = int.from_bytes(kdr[off:off + 4], "little")
                if a != b:
                    fail("%s/%s: descriptor %s %#x != LLVM %#x" % (what, name, field, a, b))


def comgr_check(tool, kind, path, expect_kernels):
    r = subprocess.run([tool, kind, path], capture_output=True, text=True)
    if r.returncode:
        fail("comgr could not read %s: %s" % (path, r.stderr))
        return ""
    for k in expect_kernels:
        if "kernel %s symbol %s.kd" % (k, k) not in r.stdout or "kd_size 64" not in r.stdout:
            fail("comgr did not find kernel %s in %s:\n%s" % (k, path, r.stdout))
    return r.stdout


def comgr_args(text):
    """kernel name -> [(offset, size, value_kind)] from co_comgr_check's output."""
    out, cur = {}, None
    for line in text.splitlines():
        f = line.split()
        if f and f[0] == "kernel":
            cur = out.setdefault(f[1], [])
        elif f and f[0] == "arg" and cur is not None:
            cur.append((f[1], f[2], f[3]))
    return out


def test_target(target, co_tool, comgr_tool, tmp, cov=5, flags=()):
    what = "%s/v%d%s" % (target, cov, "".join(flags))
    base = os.path.join(tmp, "%s_v%d%s" % (target.replace(":", "_"), cov, "".join(flags)))
    src = base + ".cl"
    with open(src, "w") as f:
        f.write(CL)
    cl = ["clang-19", "-x", "cl", "-target", "amdgcn-amd-amdhsa", "-mcpu=" + target,
          "-nogpulib", "-O3", "-mcode-object-version=%d" % cov, *flags]
    run(cl + ["-S", src, "-o", base + ".s"])
    run(cl + ["-c", src, "-o", base + ".o"])
    run(["ld.lld-19", "-shared", base + ".o", "-o", base + "_ref.hsaco"])
    with open(base + ".s") as f:
        directives, occupancy = amdhsa_directives(f.read())
    ref_md = notes_metadata(base + "_ref.hsaco")
    md_by_name = {k[".name"]: k for k in ref_md.get("amdhsa.kernels", [])}
    run(["llvm-objcopy-19", "-O", "binary", "--only-section=.text", base + ".o", base + ".text"])
    osyms = symbols(base + ".o")
    kernels = sorted((v[0], n) for n, v in osyms.items() if v[2] == "FUNC")
    spec = "target %s\ncov %d\n" % (target, cov)
    for start, name in kernels:
        spec += kernel_spec(name, directives[name], md_by_name[name], base + ".text", start,
                            osyms[name][1], target)
    with open(base + ".spec", "w") as f:
        f.write(spec)
    ours = base + ".hsaco"
    r = run([co_tool, "exec", base + ".spec", ours])
    if "built-in executable writer" not in r.stdout:
        fail("%s: path not reported" % what)
    header = readelf(ours, "-h")
    abiv = {4: "2", 5: "3"}[cov]
    if not re.search(r"ABI Version:\s+%s\n" % abiv, header) or "EM_AMDGPU" not in header:
        fail("%s: ELF header: %s" % (what, header))
    ref_flags = re.search(r"Flags:\s+(.*)", readelf(base + "_ref.hsaco", "-h")).group(1)
    if re.search(r"Flags:\s+(.*)", header).group(1) != ref_flags:
        fail("%s: e_flags differ from LLVM's %s" % (what, ref_flags))
    readelf(ours, "-a", "--notes")
    dis = run(["llvm-objdump-19", "-d", ours])
    if "warning" in (dis.stdout + dis.stderr).lower():
        fail("%s: llvm-objdump warns: %s" % (what, dis.stderr))
    for _, name in kernels:
        if "<%s>:" % name not in dis.stdout:
            fail("%s: llvm-objdump does not show kernel %s" % (what, name))
    compare_metadata(what, notes_metadata(ours), ref_md, target)
    check_layout(what, ours, base + "_ref.hsaco")
    for sec in (".text", ".gnu.hash", ".hash", ".dynstr"):
        if section_bytes(ours, sec, tmp) != section_bytes(base + "_ref.hsaco", sec, tmp):
            fail("%s: %s bytes differ from ld.lld's" % (what, sec))
    check_kds(what, ours, base + "_ref.hsaco", [n for _, n in kernels], tmp)
    # occupancy and the -v line
    stats = run([co_tool, "stats", base + ".spec"]).stdout
    for _, name in kernels:
        m = re.search(r"properties for %s: (\d+) VGPRs, (\d+) SGPRs, (\d+) bytes LDS, (\d+) "
                      r"bytes scratch, occupancy (\d+) waves/SIMD" % name, stats)
        md = md_by_name[name]
        want = (md[".vgpr_count"], md[".sgpr_count"], md[".group_segment_fixed_size"],
                md[".private_segment_fixed_size"], str(occupancy.get(name)))
        if not m or m.groups() != want:
            fail("%s/%s: -v line %r, want VGPRs/SGPRs/LDS/scratch/occupancy %r" % (
                what, name, m.group(0) if m else stats, want))
    # .amdgpu_metadata as a .s file carries it: YAML converted to msgpack must give
    # LLVM's note byte for byte (llvm-mc-19 made that note from the same YAML).
    with open(base + ".s") as f:
        asm = f.read()
    yaml = asm.split("\t.amdgpu_metadata\n", 1)[1].split("\t.end_amdgpu_metadata", 1)[0]
    with open(base + ".md.yaml", "w") as f:
        f.write(yaml)
    with open(base + "_yaml.spec", "w") as f:
        f.write(spec + "metadata %s\n" % (base + ".md.yaml"))
    run([co_tool, "exec", base + "_yaml.spec", base + "_yaml.hsaco"])
    if section_bytes(base + "_yaml.hsaco", ".note") != section_bytes(base + "_ref.hsaco", ".note"):
        fail("%s: note from the .amdgpu_metadata YAML differs from LLVM's" % what)
    # relocatable: lld must link it into exactly our executable
    rel = base + "_rel.o"
    run([co_tool, "rel", base + ".spec", rel])
    readelf(rel, "-a", "--notes", "-r")
    dis = run(["llvm-objdump-19", "-dr", rel])
    if "warning" in (dis.stdout + dis.stderr).lower() or "R_AMDGPU_REL64" not in dis.stdout + \
            readelf(rel, "-r"):
        fail("%s: llvm-objdump on the relocatable: %s" % (what, dis.stderr))
    run(["ld.lld-19", "-shared", rel, "-o", base + "_rel_lld.hsaco"])
    for sec in (".note", ".dynsym", ".gnu.hash", ".hash", ".dynstr", ".rodata", ".text",
                ".dynamic"):
        if section_bytes(ours, sec, tmp) != section_bytes(base + "_rel_lld.hsaco", sec, tmp):
            fail("%s: %s of ld.lld-linked relocatable differs from our executable" % (what, sec))
    names = [n for _, n in kernels]
    if cov == 5:
        seen = comgr_args(comgr_check(comgr_tool, "exec", ours, names))
        for name in names:
            want = [(a[".offset"], a[".size"], a[".value_kind"])
                    for a in md_by_name[name].get(".args", [])]
            if seen.get(name) != want:
                fail("%s/%s: comgr reads args %r, LLVM's metadata has %r" % (
                    what, name, seen.get(name), want))
        comgr_check(comgr_tool, "rel", rel, names)
        linked = base + "_comgr.hsaco"
        r = subprocess.run([co_tool, "link", target, linked, rel], capture_output=True, text=True)
        if target in COMGR_TARGETS:
            if r.returncode or "comgr" not in r.stdout:
                fail("%s: comgr link failed: %s" % (what, r.stderr))
            else:
                readelf(linked, "-a", "--notes")
                comgr_check(comgr_tool, "exec", linked, names)
                if section_bytes(linked, ".text", tmp) != section_bytes(ours, ".text", tmp):
                    fail("%s: comgr-linked .text differs" % what)
        elif r.returncode != 1 or "comgr does not support" not in r.stderr:
            fail("%s: comgr link should report the target unsupported: %s" % (what, r.stderr))
        best = base + "_best.hsaco"
        r = run([co_tool, "best", base + ".spec", best])
        want = "linked by ROCm comgr" if target in COMGR_TARGETS else "built-in executable writer"
        if want not in r.stdout:
            fail("%s: co_emit_executable took the wrong path: %s" % (what, r.stdout))
        comgr_check(comgr_tool, "exec", best, names)
        if section_bytes(best, ".text") != section_bytes(ours, ".text"):
            fail("%s: co_emit_executable's .text differs" % what)
    return base


def test_globals(target, co_tool, comgr_tool, tmp):
    """.global/.const data, REL32 relocations, dynsym entries, cross-object linking."""
    what = target + "/globals"
    base = os.path.join(tmp, target + "_g")
    with open(base + ".cl", "w") as f:
        f.write(GLOBALS_CL)
    run(["clang-19", "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa",
         "-mcpu=" + target, "-nogpulib", "-O3", "-c", base + ".cl", "-o", base + ".o"])
    run(["clang-19", "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa",
         "-mcpu=" + target, "-nogpulib", "-O3", "-S", base + ".cl", "-o", base + ".s"])
    run(["ld.lld-19", "-shared", base + ".o", "-o", base + "_ref.hsaco"])
    with open(base + ".s") as f:
        d = amdhsa_directives(f.read())[0]["gk"]
    md = {k[".name"]: k for k in notes_metadata(base + "_ref.hsaco")["amdhsa.kernels"]}["gk"]
    for sec in (".text", ".data", ".rodata"):
        run(["llvm-objcopy-19", "-O", "binary", "--only-section=" + sec, base + ".o",
             base + sec])
    osyms = symbols(base + ".o")
    spec = "target %s\n" % target
    spec += kernel_spec("gk", d, md, base + ".text", osyms["gk"][0], osyms["gk"][1], target)
    with open(base + ".rodata", "rb") as f:
        ro = f.read()
    tv = osyms["table"][0]
    with open(base + ".table", "wb") as f:
        f.write(ro[tv:tv + 16])
    spec += "data counter global 4 4 %s 1\n" % (base + ".data")
    spec += "data table const 16 4 %s 1\n" % (base + ".table")
    relocs = readelf(base + ".o", "-r", "-W")
    text_relocs = relocs.split(".rela.text")[1].split("Relocation section")[0]
    n = 0
    for m in re.finditer(r"^([0-9a-f]+)\s+[0-9a-f]+\s+R_AMDGPU_REL32_(LO|HI)\s+[0-9a-f]+\s+(\w+)"
                         r" \+ ([0-9a-f]+)", text_relocs, re.M):
        spec += "reloc kernel 0 %d %d %s %d\n" % (int(m.group(1), 16),
                                                  10 if m.group(2) == "LO" else 11,
                                                  m.group(3), int(m.group(4), 16))
        n += 1
    if n != 4:
        fail("%s: expected 4 REL32 relocations from clang, found %d" % (what, n))
    with open(base + ".spec", "w") as f:
        f.write(spec)
    ours, rel = base + ".hsaco", base + "_rel.o"
    run([co_tool, "exec", base + ".spec", ours])
    run([co_tool, "rel", base + ".spec", rel])
    readelf(ours, "-a", "--notes")
    relout = readelf(rel, "-r", "-W")
    if relout.count("R_AMDGPU_REL32_") != 4 or "R_AMDGPU_REL64" not in relout:
        fail("%s: relocatable lacks REL32/REL64 relocations:\n%s" % (what, relout))
    dyn = symbols(ours, dyn=True)
    for name, sec in (("counter", ".data"), ("table", ".rodata")):
        if name not in dyn or dyn[name][2] != "OBJECT" or dyn[name][3] != "GLOBAL":
            fail("%s: %s is not a global object in .dynsym: %r" % (what, name, dyn.get(name)))
        elif dyn[name][0] != sections(ours)[sec][2] + (16 * 4 if name == "table" else 0) and \
                name == "counter":
            fail("%s: counter not at the start of .data" % what)
    run(["ld.lld-19", "-shared", rel, "-o", base + "_lld.hsaco"])
    for sec in (".dynsym", ".rodata", ".text", ".data", ".dynamic"):
        if section_bytes(ours, sec, tmp) != section_bytes(base + "_lld.hsaco", sec, tmp):
            fail("%s: %s differs between our executable and ld.lld's link of our "
                 "relocatable" % (what, sec))
    # clang's OpenCL globals are hidden; ours are .visible (exported), so the dynamic
    # symbol tables are larger by design.
    check_layout(what, ours, base + "_ref.hsaco", same_dynsym=False)
    # The literal after each s_getpc must point at the variable: S + A - P.
    text = section_bytes(ours, ".text", tmp)
    taddr = sections(ours)[".text"][2]
    syms = symbols(ours)
    for line in spec.splitlines():
        if line.startswith("reloc"):
            _, _, _, off, typ, sym, add = line.split()
            off, add = int(off), int(add)
            value = (syms[sym][0] + add - (taddr + off)) & (2**64 - 1)
            want = value & 0xffffffff if typ == "10" else value >> 32
            got = int.from_bytes(text[off:off + 4], "little")
            if got != want:
                fail("%s: REL32 at %#x is %#x, want %#x" % (what, off, got, want))
    if target in COMGR_TARGETS:
        test_two_objects(target, co_tool, comgr_tool, tmp, base)


def test_two_objects(target, co_tool, comgr_tool, tmp, base):
    """Relocatables linked by comgr: a kernel using a variable (`counter`) and calling a
    device function (`helper`), both defined in a second object."""
    what = target + "/two-objects"
    use = base + "_use"
    with open(use + ".s", "w") as f:
        f.write(USE_EXTERN_S.format(target=target))
    run(["llvm-mc-19", "-triple=amdgcn-amd-amdhsa", "-mcpu=" + target, "-filetype=obj",
         use + ".s", "-o", use + "_mc.o"])
    run(["llvm-objcopy-19", "-O", "binary", "--only-section=.text", use + "_mc.o",
         use + ".text"])
    mc_relocs = readelf(use + "_mc.o", "-r", "-W")
    sites = [(int(m.group(1), 16), 10 if m.group(2) == "LO" else 11, m.group(3),
              int(m.group(4), 16))
             for m in re.finditer(r"^([0-9a-f]+)\s+[0-9a-f]+\s+R_AMDGPU_REL32_(LO|HI)\s+"
                                  r"[0-9a-f]+\s+(\w+) \+ ([0-9a-f]+)", mc_relocs, re.M)]
    if len(sites) != 4:
        fail("%s: llvm-mc gave %d REL32 relocations, want 4" % (what, len(sites)))
        return
    mc_syms = symbols(use + "_mc.o")
    with open(use + ".text", "rb") as f:
        text = f.read()
    helper_off = mc_syms["helper_code"][0]
    with open(use + ".helper", "wb") as f:
        f.write(text[helper_off:helper_off + 4])
    spec_use = "target %s\nkernel usek\n code %s 0 %d\n sgprs 6\n abi kernarg_segment_ptr\n" \
               " workitem_id_dims 1\nend\ndata counter global 4 4 - 2\n" % (
                   target, use + ".text", helper_off)
    spec_use += "".join("reloc kernel 0 %d %d %s %d\n" % s for s in sites)
    spec_def = "target %s\ndata counter global 4 4 %s 1\nfunction helper %s 0 4 1\n" % (
        target, base + ".data", use + ".helper")
    for n_, s_ in (("use", spec_use), ("def", spec_def)):
        with open("%s_%s.spec" % (base, n_), "w") as f:
            f.write(s_)
        run([co_tool, "rel", "%s_%s.spec" % (base, n_), "%s_%s.o" % (base, n_)])
        readelf("%s_%s.o" % (base, n_), "-a", "--notes")
    linked = base + "_two.hsaco"
    r = subprocess.run([co_tool, "link", target, linked, base + "_use.o", base + "_def.o"],
                       capture_output=True, text=True)
    if r.returncode:
        fail("%s: comgr link of two objects failed: %s" % (what, r.stderr))
        return
    readelf(linked, "-a", "--notes")
    comgr_check(comgr_tool, "exec", linked, ["usek"])
    syms = symbols(linked)
    text = section_bytes(linked, ".text")
    taddr = sections(linked)[".text"][2]
    k = syms["usek"][0] - taddr
    for off, typ, sym, add in sites:
        value = (syms[sym][0] + add - (taddr + k + off)) & (2**64 - 1)
        want = value & 0xffffffff if typ == 10 else value >> 32
        got = int.from_bytes(text[k + off:k + off + 4], "little")
        if got != want:
            fail("%s: REL32 against %s at +%#x is %#x, want %#x" % (what, sym, off, got, want))
    if text[syms["helper"][0] - taddr:syms["helper"][0] - taddr + 4] != \
            open(use + ".helper", "rb").read():
        fail("%s: helper's code is not at its symbol" % what)


def test_pointer_data(target, co_tool, tmp):
    """A pointer-valued .global initializer: R_AMDGPU_ABS64 in the relocatable, an
    R_AMDGPU_RELATIVE64 in .rela.dyn of the executable, exactly as ld.lld makes it."""
    what = target + "/pointer-data"
    base = os.path.join(tmp, target + "_p")
    with open(base + ".cl", "w") as f:
        f.write(POINTER_CL)
    cl = ["clang-19", "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa",
          "-mcpu=" + target, "-nogpulib", "-O3", base + ".cl"]
    run(cl + ["-c", "-o", base + ".o"])
    run(cl + ["-S", "-o", base + ".s"])
    run(["ld.lld-19", "-shared", base + ".o", "-o", base + "_ref.hsaco"])
    with open(base + ".s") as f:
        d = amdhsa_directives(f.read())[0]["pk"]
    md = notes_metadata(base + "_ref.hsaco")["amdhsa.kernels"][0]
    for sec in (".text", ".data"):
        run(["llvm-objcopy-19", "-O", "binary", "--only-section=" + sec, base + ".o",
             base + sec])
    with open(base + ".data", "rb") as f:
        data = f.read()
    with open(base + ".counter", "wb") as f:
        f.write(data[0:4])
    with open(base + ".ptr", "wb") as f:
        f.write(data[8:16])
    osyms = symbols(base + ".o")
    if osyms["counter"][0] != 0 or osyms["ptr"][0] != 8:
        fail("%s: clang's .data layout changed: %r" % (what, osyms))
    spec = "target %s\n" % target
    spec += kernel_spec("pk", d, md, base + ".text", osyms["pk"][0], osyms["pk"][1], target)
    spec += "data counter global 4 4 %s 1\ndata ptr global 8 8 %s 1\n" % (
        base + ".counter", base + ".ptr")
    relocs = readelf(base + ".o", "-r", "-W")
    for m in re.finditer(r"^([0-9a-f]+)\s+[0-9a-f]+\s+R_AMDGPU_(REL32_LO|REL32_HI|ABS64)\s+"
                         r"[0-9a-f]+\s+(\w+) \+ ([0-9a-f]+)", relocs, re.M):
        typ = {"REL32_LO": 10, "REL32_HI": 11, "ABS64": 3}[m.group(2)]
        where = "data 1 %d" % (int(m.group(1), 16) - 8) if typ == 3 else \
            "kernel 0 %d" % int(m.group(1), 16)
        spec += "reloc %s %d %s %d\n" % (where, typ, m.group(3), int(m.group(4), 16))
    if spec.count("reloc") != 3:
        fail("%s: expected 2 REL32 and 1 ABS64 relocation from clang:\n%s" % (what, relocs))
    with open(base + ".spec", "w") as f:
        f.write(spec)
    ours, rel = base + ".hsaco", base + "_rel.o"
    run([co_tool, "exec", base + ".spec", ours])
    run([co_tool, "rel", base + ".spec", rel])
    if "R_AMDGPU_ABS64" not in readelf(rel, "-r", "-W"):
        fail("%s: relocatable lacks the ABS64 relocation" % what)
    dyn = readelf(ours, "-r", "-d", "-W")
    if "R_AMDGPU_RELATIVE64" not in dyn or "RELACOUNT" not in dyn:
        fail("%s: executable lacks the dynamic relocation:\n%s" % (what, dyn))
    run(["ld.lld-19", "-shared", rel, "-o", base + "_lld.hsaco"])
    for sec in (".dynsym", ".rela.dyn", ".rodata", ".text", ".dynamic", ".data"):
        if section_bytes(ours, sec) != section_bytes(base + "_lld.hsaco", sec):
            fail("%s: %s differs from ld.lld's link of our relocatable" % (what, sec))
    check_layout(what, ours, base + "_ref.hsaco", same_dynsym=False)


def test_errors(co_tool, tmp, base):
    """Bad input is a clear error, never a file."""
    code = base + ".text"
    cases = [
        ("too many VGPRs", "target gfx1030\nkernel k\n code %s 0 4\n vgprs 300\nend\n" % code,
         "VGPR count"),
        ("private segment buffer on architected flat scratch",
         "target gfx942\nkernel k\n code %s 0 4\n abi private_segment_buffer\nend\n" % code,
         "architected flat scratch"),
        ("wave64 on gfx90a only", "target gfx90a\nkernel k\n code %s 0 4\n wave 32\nend\n" % code,
         "wave size 32"),
        ("scratch without private segment",
         "target gfx1100\nkernel k\n code %s 0 4\n scratch 16\nend\n" % code,
         "does not enable the private segment"),
        ("undefined relocation symbol",
         "target gfx90a\nkernel k\n code %s 0 4\nend\nreloc kernel 0 0 10 nowhere 4\n" % code,
         "undefined symbol 'nowhere'"),
        ("relocation outside the code",
         "target gfx90a\nkernel k\n code %s 0 4\nend\nreloc kernel 0 4 10 k 4\n" % code,
         "outside the code"),
        ("ABS64 in code of an executable",
         "target gfx90a\nkernel k\n code %s 0 8\nend\nreloc kernel 0 0 3 k 0\n" % code,
         "only supported in .global data"),
        ("misaligned argument",
         "target gfx90a\nkernel k\n code %s 0 4\n arg 2 4 4 by_value - - x int\nend\n" % code,
         "argument 0"),
        ("v5 hidden argument on v4",
         "target gfx90a\ncov 4\nkernel k\n code %s 0 4\n hidden block_count_x\nend\n" % code,
         "do not exist in code object v4"),
        ("argument past 1 MiB (offset + size would wrap)",
         "target gfx90a\nkernel k\n code %s 0 4\n arg 0xfffffff0 32 16 by_value - - x int\nend\n"
         % code, "within 1 MiB"),
        ("workgroup larger than 1024",
         "target gfx1100\nkernel k\n code %s 0 4\n reqntid 64 32 1\nend\n" % code,
         "required workgroup size"),
        ("duplicate symbol", "target gfx90a\nkernel k\n code %s 0 4\nend\n"
         "data k global 4 4 - 1\n" % code, "defined twice"),
        ("YAML metadata outside LLVM's subset",
         "target gfx90a\nmetadata %s\nkernel k\n code %s 0 4\nend\n" % (
             os.path.join(tmp, "md.yaml"), code), "unsupported YAML"),
        ("YAML key without a value",
         "target gfx90a\nmetadata %s\nkernel k\n code %s 0 4\nend\n" % (
             os.path.join(tmp, "md2.yaml"), code), "a key without a value"),
    ]
    with open(os.path.join(tmp, "md.yaml"), "w") as f:
        f.write("---\namdhsa.version: {a: 1}\n...\n")
    with open(os.path.join(tmp, "md2.yaml"), "w") as f:
        f.write("---\namdhsa.kernels:\namdhsa.version: [1, 2]\n...\n")
    for name, spec, msg in cases:
        path = os.path.join(tmp, "err.spec")
        with open(path, "w") as f:
            f.write(spec)
        out = os.path.join(tmp, "err.hsaco")
        if os.path.exists(out):
            os.unlink(out)
        r = subprocess.run([co_tool, "exec", path, out], capture_output=True, text=True)
        if r.returncode != 1 or msg not in r.stderr or os.path.exists(out):
            fail("error case '%s': rc %d, stderr %r (want %r)" % (name, r.returncode, r.stderr,
                                                                 msg))


def test_no_kernels(co_tool, tmp):
    """A module with only data, and an empty one: still valid, warning-free files."""
    for name, spec in (("data-only", "target gfx90a\ndata counter global 4 4 - 1\n"),
                       ("empty", "target gfx1100\n")):
        path = os.path.join(tmp, name + ".spec")
        with open(path, "w") as f:
            f.write(spec)
        out = os.path.join(tmp, name + ".hsaco")
        run([co_tool, "exec", path, out])
        readelf(out, "-a", "--notes")
        if "amdhsa.kernels" not in readelf(out, "--notes"):
            fail("%s: metadata not decoded" % name)
        if name == "data-only" and "counter" not in readelf(out, "--dyn-syms"):
            fail("data-only: counter not exported")


def test_raw_metadata(co_tool, tmp, base):
    """An .amdgpu_metadata override (msgpack) is copied into the note byte for byte."""
    ref = base + "_ref.hsaco"
    note = section_bytes(ref, ".note", tmp)
    descsz = int.from_bytes(note[4:8], "little")
    md = note[20:20 + descsz]
    with open(os.path.join(tmp, "md.bin"), "wb") as f:
        f.write(md)
    with open(base + ".spec") as f:
        spec = f.read()
    path = os.path.join(tmp, "raw.spec")
    with open(path, "w") as f:
        f.write(spec + "metadata %s\n" % os.path.join(tmp, "md.bin"))
    out = os.path.join(tmp, "raw.hsaco")
    run([co_tool, "exec", path, out])
    if section_bytes(out, ".note", tmp) != note:
        fail("raw metadata: note differs from LLVM's")
    so, sr = sections(out), sections(ref)
    for name in (".note", ".dynsym", ".gnu.hash", ".hash", ".dynstr", ".rodata"):
        if so[name][2:4] != sr[name][2:4]:
            fail("raw metadata: with LLVM's note, %s should sit where ld.lld put it" % name)


def guarded(label, fn, *args):
    try:
        return fn(*args)
    except (RuntimeError, KeyError, IndexError) as e:
        fail("%s: %s" % (label, e))
        return None


def main():
    co_tool, comgr_tool = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        jobs = [("%s" % t, test_target, t, co_tool, comgr_tool, tmp) for t in TARGETS]
        jobs += [("%s v%d %s" % (t, cov, " ".join(flags)), test_target, t, co_tool, comgr_tool,
                  tmp, cov, flags)
                 for t, cov, flags in (("gfx90a", 4, ()), ("gfx1100", 4, ()),
                                       ("gfx1030", 5, ("-mwavefrontsize64",)),
                                       ("gfx1200", 5, ("-mwavefrontsize64",)))]
        jobs += [("%s globals" % t, test_globals, t, co_tool, comgr_tool, tmp)
                 for t in ("gfx90a", "gfx1030", "gfx1100")]
        jobs += [("%s pointer data" % t, test_pointer_data, t, co_tool, tmp)
                 for t in ("gfx90a", "gfx1200")]
        # Every job writes its own files; two at a time (the machine has 2 cores).
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(lambda j: guarded(*j), jobs))
        if results[0]:
            test_errors(co_tool, tmp, results[0])
            test_raw_metadata(co_tool, tmp, results[0])
        else:
            fail("gfx90a base test did not finish; error and raw-metadata tests skipped")
        test_no_kernels(co_tool, tmp)
    if failures:
        print("%d failures" % len(failures))
        return 1
    print("codeobj: all checks passed (%d target IDs, %d jobs)" % (len(TARGETS), len(jobs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
