#!/usr/bin/env python3
"""Generates optable_gen.inc: (generation, format, opcode) -> mnemonic, for amdsim's decoder.

TEMPORARY supplement until src/encode publishes its instruction table: every opcode value of
every format amdsim decodes is handed to llvm-mc-19's disassembler (the oracle on bits), and
the mnemonic it prints is recorded.  Run by hand: python3 gen_optable.py > optable_gen.inc
"""
import re
import subprocess
import sys

GENS = [("AMD_GFX9", "gfx90a"), ("AMD_GFX940", "gfx942"), ("AMD_GFX11", "gfx1100")]


def words_gfx9(fmt, op):
    if fmt == "SOP2":
        return [(0b10 << 30) | (op << 23) | (2 << 8) | 4] if op < 0x60 else None
    if fmt == "SOPK":
        return [(0b1011 << 28) | (op << 23) | 0x10] if op < 29 else None
    if fmt == "SOP1":
        return [0xBE800000 | (op << 8) | 2]
    if fmt == "SOPC":
        return [0xBF000000 | (op << 16) | (2 << 8) | 4] if op < 0x80 else None
    if fmt == "SOPP":
        return [0xBF800000 | (op << 16)] if op < 0x80 else None
    if fmt == "SMEM":
        return [0xC0000000 | (op << 18) | (1 << 17) | (8 << 6) | 2, 0]
    if fmt == "VOP2":
        return [(op << 25) | (1 << 17) | (2 << 9) | 0x103] if op < 0x3F else None
    if fmt == "VOP1":
        return [0x7E000000 | (op << 9) | (2 << 17) | 0x104]
    if fmt == "VOPC":
        return [0x7C000000 | (op << 17) | (2 << 9) | 0x104]
    if fmt == "VOP3":
        return [0xD0000000 | (op << 16) | 2, 0x102 | (0x104 << 9) | (0x106 << 18)] if op < 1024 else None
    if fmt == "VOP3P":
        return [0xD3800000 | (op << 16) | 2, 0x102 | (0x104 << 9) | (0x106 << 18) | (3 << 27)] if op < 128 else None
    if fmt == "DS":
        return [0xD8000000 | (op << 17), 2 | (4 << 8) | (6 << 16) | (8 << 24)]
    if fmt in ("FLAT", "GLOBAL", "SCRATCH"):
        seg = {"FLAT": 0, "SCRATCH": 1, "GLOBAL": 2}[fmt]
        return [0xDC000000 | (op << 18) | (seg << 14), 2 | (4 << 8) | (0x7F << 16) | (8 << 24)] if op < 128 else None
    if fmt == "MUBUF":
        return [0xE0000000 | (op << 18) | (1 << 12), 2 | (4 << 8) | (1 << 16) | (0x80 << 24)] if op < 128 else None
    return None


def words_gfx11(fmt, op):
    if fmt in ("SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "VOP2", "VOP1", "VOPC"):
        return words_gfx9(fmt, op)
    if fmt == "SMEM":
        return [0xF4000000 | (op << 18) | (8 << 6) | 2, 0xF8000000] if op < 256 else None
    if fmt == "VOP3":
        return [0xD4000000 | (op << 16) | 2, 0x102 | (0x104 << 9) | (0x106 << 18)] if op < 1024 else None
    if fmt == "VOP3P":
        return [0xCC000000 | (op << 16) | 2, 0x102 | (0x104 << 9) | (0x106 << 18) | (3 << 27)] if op < 128 else None
    if fmt == "DS":
        return [0xD8000000 | (op << 18), 2 | (4 << 8) | (6 << 16) | (8 << 24)]
    if fmt in ("FLAT", "GLOBAL", "SCRATCH"):
        seg = {"FLAT": 0, "SCRATCH": 1, "GLOBAL": 2}[fmt]
        return [0xDC000000 | (op << 18) | (seg << 16), 2 | (4 << 8) | (0x7C << 16) | (8 << 24)] if op < 128 else None
    if fmt == "MUBUF":
        return [0xE0000000 | (op << 18), 2 | (4 << 8) | (1 << 16) | (0x80 << 24) | (1 << 22)] if op < 256 else None
    if fmt == "VOPD":
        # opx in [25:22], opy in [21:17]; vdstx=v4 vdsty=v3 (one odd, one even)
        opx, opy = op >> 5, op & 31
        if opx >= 16:
            return None
        return [0xC8000000 | (opx << 22) | (opy << 17) | (2 << 9) | 0x104,
                0x106 | (8 << 9) | (1 << 17) | (4 << 24)]
    return None


FMTS = ["SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "SMEM", "VOP2", "VOP1", "VOPC", "VOP3", "VOP3P",
        "DS", "FLAT", "GLOBAL", "SCRATCH", "MUBUF"]


FMTS2 = FMTS + ["VOPDX", "VOPDY"]


def disasm(cpu, entries):
    """Mnemonic per entry (or None).  Each probe is preceded by a marker "s_sleep i" so output
    lines map back to probes; a probe counts only if the first instruction after its marker
    re-encodes with the probe's first dword."""
    lines = []
    for i, (_, _, ws) in enumerate(entries):
        lines.append("0x%02x,0x%02x,0x%02x,0xbf" % (i & 255, i >> 8, 0x83 if cpu == "gfx1100" else 0x8e))
        b = []
        for w in ws + [0xBF800000]:  # s_nop pad absorbs a literal
            b += [w & 255, (w >> 8) & 255, (w >> 16) & 255, w >> 24]
        lines.append(",".join("0x%02x" % x for x in b))
    out = subprocess.run(["llvm-mc-19", "-disassemble", "-show-encoding", "-triple=amdgcn-amd-amdhsa",
                          "-mcpu=" + cpu], input="\n".join(lines) + "\n", capture_output=True,
                         text=True).stdout
    names = [None] * len(entries)
    cur, taken = None, True
    for ln in out.splitlines():
        m = re.match(r"\s*(\S+)(.*); encoding: \[(.*)\]", ln)
        if not m:
            continue
        name, rest = m.group(1), m.group(2)
        if name == "s_sleep":
            cur, taken = int(rest.strip(), 0), False
            continue
        if taken or cur is None:
            continue
        taken = True
        bs = [int(x, 16) for x in m.group(3).split(",")]
        w0 = bs[0] | bs[1] << 8 | bs[2] << 16 | bs[3] << 24
        if w0 != entries[cur][2][0]:
            continue
        y = re.search(r"::\s*(\S+)", rest)
        if y:
            name += " " + y.group(1)
        names[cur] = name
    return names


def main():
    rows = []
    for gen, cpu in GENS:
        words = words_gfx11 if gen == "AMD_GFX11" else words_gfx9
        fmts = FMTS + (["VOPD"] if gen == "AMD_GFX11" else [])
        entries = []
        for fmt in fmts:
            for op in range(1024 if fmt in ("VOP3", "VOPD") else 256):
                ws = words(fmt, op)
                if not ws:
                    continue
                entries.append((fmt, op, ws))
                if fmt in ("SOP1", "SOPK", "SOP2", "SOPC"):  # operands must be zero for some
                    entries.append((fmt, op, [ws[0] & ~0xFF]))
                    clear = {"SOP1": 0x7F00FF, "SOPC": 0xFFFF}.get(fmt, 0x7FFFFF)
                    entries.append((fmt, op, [ws[0] & ~clear]))
                if fmt == "VOP3P":  # packed 64-bit moves need even registers, op_sel 0
                    entries.append((fmt, op, [ws[0] & ~0xFF, 0x104 | (0x106 << 9)]))
                    entries.append((fmt, op, [ws[0] & ~0xFF, 0x104 | (0x106 << 9) | (3 << 27)]))
                    entries.append((fmt, op, [(ws[0] & ~0xFF) | 0x4004, 0x80 | (0x80 << 9) | (3 << 27)]))
                    entries.append((fmt, op, [(ws[0] & ~0xFF) | 0x4000, 0x101 | (3 << 27)]))
                if len(ws) == 2 and fmt not in ("VOPD",):
                    # unused fields must be zero for some formats: try sparser probes too
                    for mask in (0xFF00FFFF, 0x00FFFFFF, 0x0000FFFF, 0x000000FF):
                        entries.append((fmt, op, [ws[0], ws[1] & mask]))
                    if fmt == "VOP3":  # gfx11 v_cmpx_*_e64 must name EXEC as destination
                        entries.append((fmt, op, [(ws[0] & ~0xFF) | 0x7E, ws[1] & 0x3FFFF]))
        names = disasm(cpu, entries)
        seen = set()
        for (fmt, op, ws), name in zip(entries, names):
            if not name or (fmt, op) in seen:
                continue
            seen.add((fmt, op))
            if fmt not in ("SOPP", "SOP1") and name == "s_nop":
                continue
            if fmt == "VOPD":
                x, y = name.split(" ")
                rows.append((gen, "VOPDX", op >> 5, x.replace("v_dual_", "v_")))
                rows.append((gen, "VOPDY", op & 31, y.replace("v_dual_", "v_")))
                continue
            name = re.sub(r"_e(32|64)$", "", name)
            rows.append((gen, fmt, op, name))
    print("/* Generated by gen_optable.py from llvm-mc-19 -disassemble: do not edit. */")
    # llvm-mc rejects the probe operands of v_dual_mov_b32; its opcode (8 in both halves) was
    # checked by assembling "v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v2" (0xca100101).
    rows += [("AMD_GFX11", "VOPDX", 8, "v_mov_b32"), ("AMD_GFX11", "VOPDY", 8, "v_mov_b32")]
    rows = sorted(set(rows), key=lambda r: (r[0], FMTS2.index(r[1]), r[2]))
    for gen, fmt, op, name in rows:
        print('{%s, SIM_FMT_%s, %d, "%s"},' % (gen, fmt, op, name))


main()
