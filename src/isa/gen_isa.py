#!/usr/bin/env python3
"""Generates amd_isa_table.c (the public table of amd_isa.h) from isa_table.py.

Derives per row what the table does not state: operand kinds/widths/data types from the `ops`
string; implicit register defs/uses from the row's defs/uses or its format's default plus its
e32 vcc operands (SCC_DST, SCC_SRC, EXEC_DST, READS_VCC, WAVE_MASK and READS_EXEC_ONLY follow
from them); unit, latency class and wait counter from the row or its format's default; flags
from the row, its operand string and format (only the VALU modifier flags still read the
mnemonic's type suffixes).  Emits rows sorted by canonical name, a mnemonic index and a decode index sorted
by (generation, format, opcode).  usage: gen_isa.py isa_table.py out.c [out_ops.h]
"""
import re
import os
import sys

GENS = ["GFX9", "GFX940", "GFX10", "GFX11", "GFX12"]
E32 = ("VOP1", "VOP2", "VOPC")


def types_of(name):
    return re.findall(r"_(?:v2)?([fiub](?:8|16|32|64))(?=_|$)", name)


# LLVM gives these no output modifier although their source is a float
NO_OMOD = re.compile(r"v_(cvt_flr_i32_f32|cvt_rpi_i32_f32|cvt_floor_i32_f32|cvt_nearest_i32_f32|"
                     r"frexp_exp_i32_f32|pack_b32_f16)$")
INT_SRC1 = re.compile(r"v_(ldexp|cmp_class|cmpx_class|trig_preop)_")


def dtype(name, width, is_pk, srcno):
    if is_pk or "dot2" in name:
        return "V2F16" if "_f16" in name else "V2B16"
    if srcno == 1 and INT_SRC1.match(name) or re.match(r"v_cvt_f32_ubyte", name):
        return "B32"
    ts = types_of(name)
    t = ts[-1] if ts else "b32"
    if name.startswith("v_cvt_") and len(ts) >= 2:
        t = ts[1]
    if width == 2:
        return "F64" if t.startswith("f") else "B64"
    if t == "f16":
        return "F16"
    if t in ("i16", "u16", "b16"):
        return "B16"
    if t.startswith("f"):
        return "F32"
    return "B32"


# C/D element type of a matrix row -> the data type of an inline-constant srcC
MMA_CD_DTYPE = {"f32": "F32", "f64": "F64", "i32": "B32", "f16": "F16", "bf16": "BF16"}
# A/B and C/D element types of the matrix rows (enum amd_mtype in amd_isa.h)
MMA_TYPES = ("f16", "bf16", "f32", "xf32", "f64", "i8", "iu8", "iu4", "i32", "fp8", "bf8")


def operands(row):
    name, fmt = row["name"], row["fmt"]
    is_pk = name.startswith("v_pk_") and fmt == "VOP3P"
    is_store = "STORE" in row.get("flags", [])  # vdata is then a source
    out = []
    toks = row["ops"].split()
    srcno = 0
    for i, t in enumerate(toks):
        m = re.match(r"([a-z]+?)(\d*)$", t)
        k, w = m.group(1), int(m.group(2) or 1)
        if k == "vdata":
            k = "vv" if is_store else "vd"
        role, kind, dt = "SRC", None, "B32"
        if k == "sd":
            role, kind = "DST", "SDST"
        elif k in ("ss", "sk"):
            kind = "SSRC"
        elif k == "sr":
            kind = "SREG"
        elif k == "vd":
            role, kind = "DST", "VDST"
        elif k == "vs":
            kind = "VSRC"
        elif k in ("vv", "va"):
            kind = "VGPR"
        elif k == "vccd":
            role, kind, w = "DST", "VCC", 0
        elif k == "vccs":
            kind, w = "VCC", 0
        elif k == "md":
            role, kind, w = "DST", "MASK_DST", 0
        elif k == "simm":
            kind, w = "SIMM16", 0
        elif k == "lit":
            kind, w = "KIMM", 0
        elif k == "label":
            kind, w = "LABEL", 0
        elif k == "sbase":
            kind = "SBASE"
        elif k == "soff":
            kind = "SOFFSET"
        elif k == "saddr":
            kind, w = "SADDR", 2
        elif k == "srsrc":  # buffer resource 4 SGPRs; image resource srsrc8
            kind, w = "SRSRC", int(m.group(2) or 4)
        elif k == "ssamp":
            kind, w = "SSAMP", 4
        else:
            raise SystemExit("%s: bad operand token %s" % (name, t))
        if kind in ("VSRC", "VGPR", "SSRC", "SREG") and role == "SRC":
            dt = dtype(name, w, is_pk, srcno)
            if row.get("mma"):  # srcA/srcB are VGPRs; srcC may be an inline constant
                dt = MMA_CD_DTYPE[row["mma"][5]] if srcno == 2 else "B32"
            elif name.startswith("v_dot") and srcno == 2:  # the accumulator
                dt = "F32" if "_f32" in name else "B32"
        if kind == "VDST" and fmt in ("VOP1", "VOP2", "VOP3", "VOPC"):
            ts = types_of(name)
            if ts and ts[0] in ("f16", "i16", "u16", "b16"):
                dt = "F16" if ts[0] == "f16" else "B16"
        if kind == "KIMM":
            dt = "F16" if "_f16" in name else "F32"
        if role == "SRC" and kind not in ("SIMM16", "LABEL", "KIMM"):
            srcno += 1
        out.append((role, kind, w, dt))
    return out


SALU = ("SOP1", "SOP2", "SOPK", "SOPC", "SOPP")
IMPLICIT_REGS = ("EXEC", "VCC", "SCC", "M0", "MODE")  # bit i = enum AMD_IMP_* value 1 << i
# (defs, uses) of a row that states none: what the format implies (AMD ISA manuals, "SCC"
# and "EXEC" lines of each format's instructions; LLVM's VOP/DS/MUBUF pseudos Uses = [EXEC])
IMPLICIT_BY_FORMAT = {
    "SOP1": ("", ""), "SOP2": ("SCC", ""), "SOPK": ("", ""), "SOPC": ("SCC", ""),
    "SOPP": ("", ""), "SMEM": ("", ""),
    "VOP1": ("", "EXEC MODE"), "VOP2": ("", "EXEC MODE"), "VOPC": ("", "EXEC MODE"),
    "VOP3": ("", "EXEC MODE"), "VOP3P": ("", "EXEC MODE"), "VOPD": ("", "EXEC MODE"),
    "DS": ("", "EXEC M0"),
    "FLAT": ("", "EXEC"), "GLOBAL": ("", "EXEC"), "SCRATCH": ("", "EXEC"), "MUBUF": ("", "EXEC"),
    "MIMG": ("", "EXEC"),
}


def implicit_regs(row):
    """(defs, uses): lists of IMPLICIT_REGS names, from the row's defs/uses (else the format
    default) plus VCC for an e32 vccd/vccs operand.  Never from the name."""
    d_defs, d_uses = IMPLICIT_BY_FORMAT[row["fmt"]]
    defs = row.get("defs", d_defs).split()
    uses = row.get("uses", d_uses).split()
    ops = row["ops"].split()
    if "vccd" in ops and "VCC" not in defs:
        defs.append("VCC")
    if "vccs" in ops and "VCC" not in uses:
        uses.append("VCC")
    for r in defs + uses:
        if r not in IMPLICIT_REGS:
            raise SystemExit("%s: unknown implicit register %s" % (row["name"], r))
    return defs, uses


def imp_mask(regs):
    return " | ".join("AMD_IMP_" + r for r in IMPLICIT_REGS if r in regs) or "0"


def format_defaults(row):
    """(unit, latency class, counter) a row of this format has unless it says otherwise:
    stores state unit="VMEM_STORE", cnt="VS"; transcendental and 64-bit VALU rows state
    unit="TRANS"/lat="TRANS" or lat="VALU64" (tests/isa/test_columns.py judges them)."""
    fmt, ops = row["fmt"], row["ops"].split()
    if fmt in ("SOP1", "SOP2", "SOPK", "SOPC"):
        return "SALU", "SALU", "NONE"
    if fmt == "SOPP":
        return ("BRANCH", "BRANCH", "NONE") if "label" in ops else ("MSG", "MISC", "NONE")
    if fmt == "SMEM":
        return "SMEM", "SMEM", "LGKM"
    if fmt == "DS":
        return "LDS", "LDS", "LGKM"
    if fmt in ("FLAT", "GLOBAL", "SCRATCH", "MUBUF", "MIMG"):
        return "VMEM_LOAD", "VMEM", "VM"
    return "VALU", "VALU", "NONE"  # VOP*, VOPD


def derive(row):
    """unit, latency class, counter and flags: the row's own (unit= lat= cnt= flags=, e.g.
    TIED_DST, LOAD/STORE/ATOMIC, DS_2ADDR) or its format's, plus flags that follow from the
    operand string, the format and the implicit registers.  Only the VALU modifier flags
    (NO_MODS, FP_RESULT, NO_CLAMP) still come from the mnemonic's type suffixes; the
    conformance test judges them against llvm-mc-19."""
    name, fmt, ops = row["name"], row["fmt"], row["ops"].split()
    unit, lat, cnt = format_defaults(row)
    flags = []
    if fmt == "VOP2" and ("vccd" in ops or "vccs" in ops):
        flags.append("CARRY_VCC")
    if "md" in ops:
        flags.append("VOP3B")
    if fmt in ("VOP1", "VOP2", "VOPC", "VOP3") and not [t for t in types_of(name) if t[0] == "f"]:
        flags.append("NO_MODS")
    defs, uses = implicit_regs(row)
    if fmt == "VOPC" and "EXEC" in defs:
        flags.append("EXEC_DST")
    ts = types_of(name)
    src0 = next((o for o in operands(row) if o[0] == "SRC"), None)
    fp_dst = bool(ts) and ts[0][0] == "f" and any(o.startswith("vd") for o in ops)
    if fmt in ("VOP1", "VOP2", "VOP3") and (fp_dst or src0 and src0[3] in ("F16", "F32", "F64")) \
            and not NO_OMOD.match(name):
        flags.append("FP_RESULT")
    if re.match(r"v_cmpx?_class_", name):
        flags.append("NO_CLAMP")
    if "VCC" in uses and "vccs" not in ops:
        flags.append("READS_VCC")
    if fmt == "FLAT":
        flags.append("ALSO_LGKM")
    if fmt == "SMEM" and len(ops) <= 1:  # dst only, or nothing (s_dcache_inv)
        flags.append("SMEM_NO_ADDR")
    if fmt in SALU and "EXEC" in defs:
        flags.append("WAVE_MASK")
    if "SCC" in defs:
        flags.append("SCC_DST")
    if "SCC" in uses:
        flags.append("SCC_SRC")
    if uses == ["EXEC"]:
        flags.append("READS_EXEC_ONLY")
    if "label" in ops:
        flags.append("BRANCH")
    return (row.get("unit", unit), row.get("lat", lat), row.get("cnt", cnt),
            flags + row.get("flags", []))


IMAGE_KINDS = ("coords", "lod", "grad", "resinfo")


def image_field(row):
    """The `image` field: AMD_IMG_<kind> (| AMD_IMG_GATHER) from the row's img="kind" or
    img="kind gather"; 0 on rows without img=."""
    if "img" not in row:
        return "0"
    words = row["img"].split()
    if words[0] not in IMAGE_KINDS or words[1:] not in ([], ["gather"]):
        raise SystemExit("%s: bad img=%s" % (row["name"], row["img"]))
    return "AMD_IMG_" + words[0].upper() + (" | AMD_IMG_GATHER" if words[1:] else "")


def cstr(s):
    return '"%s"' % s if s else "NULL"


def format_enum_order():
    """The members of enum amd_format, in order, read from amd_isa.h beside this script."""
    header = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "amd_isa.h")).read()
    body = re.search(r"enum amd_format \{(.*?)\};", header, re.S).group(1)
    return re.findall(r"AMD_FMT_(\w+)", re.sub(r"/\*.*?\*/", "", body, flags=re.S))


def main():
    env = {}
    exec(open(sys.argv[1]).read(), env)
    rows = sorted(env["ROWS"], key=lambda r: r["name"])
    names = [r["name"] for r in rows]
    if len(set(names)) != len(names):
        raise SystemExit("duplicate row names")
    out = ["/* Generated by gen_isa.py from isa_table.py: do not edit. */",
           '#include "amd_isa.h"', "#include \"isa_index.h\"", "",
           "const struct amd_isa_op amd_isa_rows[] = {"]
    name_index = []
    decode = []
    for idx, r in enumerate(rows):
        unit, lat, cnt, flags = derive(r)
        ops = operands(r)
        e64 = r["e64"] if r["e64"] else (r["op"] if r["fmt"] == "VOP3" else (-1,) * 5)
        gen_names = []
        for g in range(5):
            exists = r["op"][g] >= 0 or (e64[g] >= 0 and r["fmt"] in E32)
            gen_names.append(r["names"].get(g, r["name"]) if exists else None)
            if exists:
                name_index.append((gen_names[g], g, idx))
                fmt = r["fmt"]
                if r["op"][g] >= 0:
                    decode.append((g, fmt, r["op"][g], idx))
                if fmt in E32 and e64[g] >= 0:
                    decode.append((g, "VOP3", e64[g], idx))
        simm = r.get("simm", "NONE")
        if any(o[1] == "SIMM16" for o in ops) and simm == "NONE":
            simm = "UIMM"
        out.append("\t{.name = \"%s\", .gen_name = {%s}, .format = AMD_FMT_%s, .unit = AMD_UNIT_%s,"
                   % (r["name"], ", ".join(cstr(n) for n in gen_names), r["fmt"], unit))
        out.append("\t .latency = AMD_LAT_%s, .counter = AMD_CNT_%s, .simm = AMD_SIMM_%s, .nopnds = %d,"
                   % (lat, cnt, simm, len(ops)))
        out.append("\t .opcode = {%s}, .vop3_opcode = {%s}, .flags = %s,"
                   % (", ".join(str(o) for o in r["op"]), ", ".join(str(o) for o in e64),
                      " | ".join("AMD_F_" + f for f in sorted(set(flags))) or "0"))
        defs, uses = implicit_regs(r)
        out.append("\t .implicit_defs = %s, .implicit_uses = %s," % (imp_mask(defs), imp_mask(uses)))
        out.append("\t .opnds = {%s}, .image = %s}," % (", ".join(
            "{AMD_ROLE_%s, AMD_OPK_%s, %d, AMD_DT_%s}" % o for o in ops), image_field(r)))
    out.append("};")
    out.append("")
    name_index.sort(key=lambda e: (e[0], e[1]))
    out.append("static const struct amd_isa_name_entry isa_names[] = {")
    for n, g, i in name_index:
        out.append('\t{"%s", %d, %d},' % (n, g, i))
    out.append("};")
    # amd_isa_decode binary-searches by (gen, enum amd_format value, opcode): sort by the
    # enum's order, not by the format's name.
    fmt_order = {f: i for i, f in enumerate(format_enum_order())}
    unknown = {e[1] for e in decode} - set(fmt_order)
    if unknown:
        sys.exit("gen_isa.py: formats missing from enum amd_format: %s" % sorted(unknown))
    decode.sort(key=lambda e: (e[0], fmt_order[e[1]], e[2]))
    seen = set()
    out.append("static const struct amd_isa_decode_entry isa_decode[] = {")
    for g, f, op, i in decode:
        if (g, f, op) in seen:
            continue  # two rows for one opcode: the first (by name) wins
        seen.add((g, f, op))
        out.append("\t{%d, AMD_FMT_%s, %d, %d}," % (g, f, op, i))
    out.append("};")
    out.append("")
    out.append("const struct amd_matrix_info amd_isa_matrix_rows[] = {")
    nmatrix = 0
    for idx, r in enumerate(rows):
        if not r.get("mma"):
            continue
        m, n, k, blocks, ab, cd = r["mma"][:6]
        b_type = r["mma"][6] if len(r["mma"]) > 6 else ab
        out.append("\t{%d, %d, %d, %d, %d, AMD_MT_%s, AMD_MT_%s, {%s}, %s, AMD_MT_%s}," %
                   (idx, m, n, k, blocks, ab.upper(), cd.upper(),
                    ", ".join(str(x) for x in r["passes"]), "true" if r.get("xdl") else "false",
                    b_type.upper()))
        nmatrix += 1
    out.append("};")
    out.append("const unsigned amd_isa_nmatrix = %d;" % nmatrix)
    out.append("""
const struct amd_isa_index amd_isa_generated = {
	.rows = amd_isa_rows, .nrows = sizeof amd_isa_rows / sizeof amd_isa_rows[0],
	.names = isa_names, .nnames = sizeof isa_names / sizeof isa_names[0],
	.decode = isa_decode, .ndecode = sizeof isa_decode / sizeof isa_decode[0],
};""")
    open(sys.argv[2], "w").write("\n".join(out) + "\n")
    if len(sys.argv) > 3:
        write_opcode_enum(sys.argv[3], names)


def write_opcode_enum(path, names):
    """enum amd_opcode: AMD_OP_<canonical name> = its row index, so passes name rows as
    constants and never look them up by string.  Rows are sorted by name, so a value can
    change when rows are added: code uses the names, never the numbers."""
    out = ["/* Generated by gen_isa.py from isa_table.py: do not edit. */",
           "#ifndef AMD_ISA_OPS_H", "#define AMD_ISA_OPS_H", "", "enum amd_opcode {"]
    for i, n in enumerate(names):
        out.append("\tAMD_OP_%s = %d," % (n.upper(), i))
    out += ["\tAMD_NUM_OPCODES = %d" % len(names), "};", "", "#endif"]
    open(path, "w").write("\n".join(out) + "\n")


main()
