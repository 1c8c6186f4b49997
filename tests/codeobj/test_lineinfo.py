#!/usr/bin/env python3
"""-lineinfo: PTX .file/.loc as DWARF 5 .debug_line, for gfx90a, gfx942, gfx1030, gfx1100, gfx1200.

Input: lineinfo.ptx, what `nvcc -arch=sm_80 -ptx -lineinfo lineinfo.cu` (CUDA 13.0) wrote for
lineinfo.cu (three kernels, a loop, a device function nvcc inlined -- its .loc lines carry
`inlined_at` -- and a __noinline__ one ptxas-amd inlines).  Oracles: llvm-dwarfdump-19 decodes
and verifies the DWARF, llvm-objdump-19 gives the instruction addresses and the -l source
lines, the PTX text (read here) says which .loc is in effect at each statement.  Which PTX
statement each instruction came from is the compiler's --dump-sched `(line N)` annotation.
Checked per target:
  - llvm-dwarfdump-19 --verify passes;
  - one sequence per kernel, from the kernel's symbol address to its end (every instruction
    is covered);
  - every instruction's row is the .loc in effect at its PTX statement (the innermost
    position for `inlined_at`; line 0 for code of no statement under a .loc), so every .loc
    line of a kept instruction appears at an address whose instruction came from it,
    including the inlined lines;
  - llvm-objdump-19 -d -l prints lineinfo.cu:LINE for each of those lines;
  - the loaded sections are byte for byte the same with and without -lineinfo, and without
    it no .debug_* section exists; two runs give the same bytes;
  - the same for tests/corpus/nvcc/half.sm_80.Og.ptx (nvcc -G: eight .file directives, the
    file names checked too), and for device functions compiled on their own (function pointers as code
    addresses, tests/exec/ptx/calls_fnptr.ptx: its PTX lines, as it has no .file) and
    with --no-inline (the .func compiled as a real call, linked into the kernel);
  - -c: the object's .rela.debug_* are right: ld.lld-19 links it into the same DWARF;
  - a module without .file maps to the PTX lines themselves; a .loc naming an undeclared
    file is an error, and so is -lineinfo with -S (a usage error).
usage: test_lineinfo.py PTXAS_AMD SOURCE_DIR
"""
import os
import re
import struct
import subprocess
import sys
import tempfile

TARGETS = ["gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"]
SHF_ALLOC = 2


def run(cmd, check=True):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if check and p.returncode:
        raise SystemExit(f"FAIL: {' '.join(cmd)}\n{p.stderr}")
    return p


def sections(path):
    """name -> (flags, addr, bytes) of an ELF64 little-endian file."""
    data = open(path, "rb").read()
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
    hdrs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    strtab = hdrs[shstrndx]
    out = {}
    for h in hdrs[1:]:
        name = data[strtab[4] + h[0]:].split(b"\0", 1)[0].decode()
        body = b"" if h[1] == 8 else data[h[4]:h[4] + h[5]]  # SHT_NOBITS
        out[name] = (h[2], h[3], body)
    return out


def kernels(path):
    """Kernel name -> (address, size), from .symtab's STT_FUNC symbols."""
    data = open(path, "rb").read()
    secs = sections(path)
    symtab, strtab = secs[".symtab"][2], secs[".strtab"][2]
    out = {}
    for off in range(24, len(symtab), 24):
        name_off, info, _, _, value, size = struct.unpack_from("<IBBHQQ", symtab, off)
        if info & 0xf == 2:  # STT_FUNC
            out[strtab[name_off:].split(b"\0", 1)[0].decode()] = (value, size)
    del data
    return out


def ptx_locs(text):
    """PTX line -> (file, line, col) of the .loc in effect at the statement on it (None:
    no .loc yet in that function), for the lines holding instructions."""
    locs, loc = {}, None
    for n, raw in enumerate(text.splitlines(), 1):
        s = raw.split("//", 1)[0].strip()
        if not s:
            continue
        if re.match(r"(\.(visible|extern|weak)\s+)*\.(entry|func)\b", s):
            loc = None  # a new body: nothing in effect until its first .loc
        m = re.match(r"\.loc\s+(\d+)\s+(\d+)\s+(\d+)", s)
        if m:
            loc = tuple(int(x) for x in m.groups())
        elif any(p.strip() and not p.strip().startswith((".", "$", ")", "("))
                 for p in re.split(r"[;{}]", s)):  # an instruction (`{ .reg ..; cvt ..; }` too)
            locs[n] = loc  # (also a call's continuation lines: never asked for)
    return locs


def sched_lines(ptxas, target, ptx, extra):
    """Per kernel: the PTX line of each emitted instruction (0: none), from --dump-sched;
    with -S in `extra`, from the assembly listing, which has the device functions too."""
    listing = ["-o", "-"] if "-S" in extra else ["--dump-sched"]
    out = run([ptxas, "--gpu-name", target, ptx] + extra + listing).stdout
    per, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"(;|//) (\S+): gfx", line)
        if m:
            cur = per.setdefault(m.group(2), [])
        elif line.startswith("\t") and not line[1:].startswith(".") and cur is not None:
            m = re.search(r"\(line (\d+)\)\s*$", line)
            cur.append((line.split()[0], int(m.group(1)) if m else 0))
    return per


def disasm(hsaco):
    """Per kernel: [(address, mnemonic)] from llvm-objdump-19 -d."""
    out = run(["llvm-objdump-19", "-d", "--no-show-raw-insn", hsaco]).stdout
    per, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"([0-9a-f]+) <(.+)>:", line)
        if m:
            cur = per.setdefault(m.group(2), [])
        elif cur is not None and re.match(r"\s+\S", line):
            m = re.search(r"//\s*([0-9A-Fa-f]+):", line)
            if m:
                cur.append((int(m.group(1), 16), line.split()[0]))
    return per


def line_table(hsaco):
    """(file names by index, sequences as [(address, line, col, file)] ending with the
    end_sequence row)."""
    out = run(["llvm-dwarfdump-19", "--debug-line", hsaco]).stdout
    files = dict((int(i), n) for i, n in re.findall(
        r'file_names\[\s*(\d+)\]:\s*\n\s*name: "([^"]*)"', out))
    seqs, cur = [], []
    for m in re.finditer(r"^0x([0-9a-f]+)\s+(\d+)\s+(\d+)\s+(\d+)\s.*$", out, re.M):
        cur.append((int(m.group(1), 16), int(m.group(2)), int(m.group(3)), int(m.group(4))))
        if "end_sequence" in m.group(0):
            seqs.append(cur)
            cur = []
    if cur:
        raise SystemExit(f"FAIL: {hsaco}: a sequence without end_sequence")
    return files, seqs


def row_at(seq, addr):
    best = None
    for row in seq[:-1]:
        if row[0] <= addr:
            best = row
    return best


def loc_expect(text):
    """PTX line -> the (line, column, file name) its code must map to: its .loc's, (0, 0,
    None) without one (the file of a line-0 row is not checked)."""
    locs = ptx_locs(text)
    names = {int(i): os.path.basename(n) for i, n in re.findall(r'\.file\s+(\d+)\s+"([^"]*)"',
                                                                 text)}

    def expect(ptx_line):
        loc = locs.get(ptx_line)
        return (loc[1], loc[2], names[loc[0]]) if loc else (0, 0, None)
    return expect


def check_mapping(tag, hsaco, per_sched, expect):
    """llvm-dwarfdump-19 --verify passes and every instruction's row is
    expect(ptx_line) = (line, col, file name); returns the lines seen."""
    v = run(["llvm-dwarfdump-19", "--verify", hsaco], check=False)
    if v.returncode or "No errors." not in v.stdout:
        raise SystemExit(f"FAIL {tag}: llvm-dwarfdump-19 --verify\n{v.stdout}{v.stderr}")
    files, seqs = line_table(hsaco)
    syms, code = kernels(hsaco), disasm(hsaco)
    seen = set()
    if len(seqs) != len(per_sched):
        raise SystemExit(f"FAIL {tag}: {len(seqs)} sequences for {len(per_sched)} kernels")
    for name, insns in per_sched.items():
        addr, size = syms[name]
        seq = [s for s in seqs if s[0][0] == addr]
        if len(seq) != 1 or seq[0][-1][0] != addr + size:
            raise SystemExit(f"FAIL {tag}: {name}: no sequence covering [{addr:#x}, "
                             f"{addr + size:#x})")
        dis = [i for i in code[name] if i[0] < addr + size]  # (not the padding after it)
        if [m for _, m in dis] != [m for m, _ in insns]:
            raise SystemExit(f"FAIL {tag}: {name}: --dump-sched and llvm-objdump-19 disagree")
        for (a, mnem), (_, ptx_line) in zip(dis, insns):
            row = row_at(seq[0], a)
            want = expect(ptx_line)
            got = row and (row[1], row[2], files[row[3]] if want[2] else None)
            if got != want:
                raise SystemExit(f"FAIL {tag}: {name}+{a - addr:#x} {mnem} (PTX line "
                                 f"{ptx_line}): row {row} (file "
                                 f"{files.get(row[3]) if row else None}), want {want}")
            seen.add(want[0])
    return seen


def check_relocatable(ptxas, t, ptx, exe, tmp):
    tag = f"{t}-{os.path.basename(ptx)}"
    """-c -lineinfo: the relocations are right when ld.lld-19 links the object into an
    executable whose line table and unit read the same as our executable's; without the
    option the object has no .debug_* and the same loaded sections."""
    obj, plain, linked = (os.path.join(tmp, f"{tag}-{k}") for k in ("li.o", "no.o", "linked"))
    run([ptxas, "--gpu-name", t, "-lineinfo", "-c", ptx, "-o", obj])
    run([ptxas, "--gpu-name", t, "-c", ptx, "-o", plain])
    a, b = sections(obj), sections(plain)
    if any(n.startswith(".debug") for n in b):
        raise SystemExit(f"FAIL {t}: .debug_* in a relocatable without -lineinfo")
    for n, (flags, addr, body) in b.items():
        if flags & SHF_ALLOC and a.get(n) != (flags, addr, body):
            raise SystemExit(f"FAIL {t}: {n} of the relocatable differs with -lineinfo")
    v = run(["llvm-dwarfdump-19", "--verify", obj], check=False)
    if v.returncode or "No errors." not in v.stdout:
        raise SystemExit(f"FAIL {t}: llvm-dwarfdump-19 --verify (-c)\n{v.stdout}{v.stderr}")
    run(["ld.lld-19", "-shared", obj, "-o", linked])
    dump = [run(["llvm-dwarfdump-19", "--debug-info", "--debug-line", f]).stdout
            .split("\n", 1)[1] for f in (linked, exe)]
    if dump[0] != dump[1]:
        raise SystemExit(f"FAIL {t}: ld.lld-19 -shared of the -c object gives other DWARF")


def main():
    ptxas, src = sys.argv[1], sys.argv[2]
    ptx = os.path.join(src, "tests", "codeobj", "lineinfo.ptx")
    text = open(ptx).read()
    expect = loc_expect(text)
    inlined = {int(m) for m in re.findall(r"\.loc\s+\d+\s+(\d+)\s+\d+,.*inlined_at", text)}
    func_body = text[text.index(".func"):text.index(".entry")]
    in_func = {int(m) for m in re.findall(r"\.loc\s+\d+\s+(\d+)\s+[1-9]", func_body)}
    if not inlined or not in_func:
        raise SystemExit("FAIL: lineinfo.ptx lost its inlined_at .loc or its .func")

    with tempfile.TemporaryDirectory() as tmp:
        for t in TARGETS:
            li, li2, plain = (os.path.join(tmp, f"{t}-{k}.hsaco") for k in ("li", "li2", "no"))
            run([ptxas, "--gpu-name", t, "-lineinfo", ptx, "-o", li])
            run([ptxas, "--gpu-name", t, "--generate-line-info", ptx, "-o", li2])
            run([ptxas, "--gpu-name", t, ptx, "-o", plain])
            if open(li, "rb").read() != open(li2, "rb").read():
                raise SystemExit(f"FAIL {t}: two -lineinfo runs differ")
            a, b = sections(li), sections(plain)
            if any(n.startswith(".debug") for n in b):
                raise SystemExit(f"FAIL {t}: .debug_* without -lineinfo")
            if {n for n in a if n.startswith(".debug")} != {".debug_abbrev", ".debug_info",
                                                            ".debug_line"}:
                raise SystemExit(f"FAIL {t}: debug sections {sorted(a)}")
            for n, (flags, addr, body) in b.items():
                if flags & SHF_ALLOC and a.get(n) != (flags, addr, body):
                    raise SystemExit(f"FAIL {t}: {n} differs with -lineinfo")
            seen = check_mapping(t, li, sched_lines(ptxas, t, ptx, []), expect)
            if not inlined <= seen or not in_func <= seen:
                raise SystemExit(f"FAIL {t}: inlined lines {sorted(inlined | in_func)} not "
                                 f"all in the table {sorted(seen)}")
            shown = {int(n) for n in re.findall(r"lineinfo\.cu:(\d+)",
                                                run(["llvm-objdump-19", "-d", "-l", li]).stdout)}
            if not (seen - {0}) <= shown:
                raise SystemExit(f"FAIL {t}: llvm-objdump-19 -l misses {sorted(seen - shown)}")
            check_relocatable(ptxas, t, ptx, li, tmp)
            # --no-inline: the .func is a real call, its code linked after the kernel's.
            ni = os.path.join(tmp, f"{t}-ni.hsaco")
            run([ptxas, "--gpu-name", t, "-lineinfo", "--no-inline", ptx, "-o", ni])
            seen = check_mapping(t + " --no-inline", ni,
                                 sched_lines(ptxas, t, ptx, ["--no-inline"]), expect)
            if not in_func <= seen:
                raise SystemExit(f"FAIL {t}: --no-inline: {sorted(in_func)} not in the table")
            # Function pointers as code addresses: functions compiled on their own, each a
            # sequence of its own (the PTX has no .file: its own lines are the source).
            fnptr = os.path.join(src, "tests", "exec", "ptx", "calls_fnptr.ptx")
            fp = os.path.join(tmp, f"{t}-fnptr.hsaco")
            run([ptxas, "--gpu-name", t, "-lineinfo", fnptr, "-o", fp])
            per = sched_lines(ptxas, t, fnptr, ["-S"])
            if len(per) < 3:
                raise SystemExit(f"FAIL {t}: calls_fnptr.ptx compiled no functions on their own")
            check_mapping(t + " fnptr", fp, per, lambda n: (n, 0, "calls_fnptr.ptx"))
            check_relocatable(ptxas, t, fnptr, fp, tmp)
            # nvcc -G output: eight .file directives (CUDA headers), inline asm.
            half = os.path.join(src, "tests", "corpus", "nvcc", "half.sm_80.Og.ptx")
            hp = os.path.join(tmp, f"{t}-half.hsaco")
            run([ptxas, "--gpu-name", t, "-lineinfo", half, "-o", hp])
            check_mapping(t + " half", hp, sched_lines(ptxas, t, half, []),
                          loc_expect(open(half).read()))
        # No .file: the PTX text is the source.
        bare = os.path.join(tmp, "bare.ptx")
        with open(bare, "w") as f:
            f.write(".version 7.0\n.target sm_80\n.address_size 64\n\n"
                    ".visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %r<3>;\n"
                    "\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [p];\n"
                    "\tmov.u32 %r1, %tid.x;\n\tadd.u32 %r2, %r1, 7;\n"
                    "\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n")
        out = os.path.join(tmp, "bare.hsaco")
        run([ptxas, "--gpu-name", "gfx1100", "-g", bare, "-o", out])
        check_mapping("bare", out, sched_lines(ptxas, "gfx1100", bare, []),
                      lambda n: (n, 0, "bare.ptx"))
        # Errors, by name.
        bad = os.path.join(tmp, "bad.ptx")
        with open(bad, "w") as f:
            f.write(text.replace(".loc\t1 33 2", ".loc\t3 33 2"))
        e = run([ptxas, "--gpu-name", "gfx1100", "-lineinfo", bad, "-o", out], check=False)
        if e.returncode == 0 or "names file 3, which no '.file' declares" not in e.stderr:
            raise SystemExit(f"FAIL: undeclared .loc file: rc {e.returncode}\n{e.stderr}")
        e = run([ptxas, "--gpu-name", "gfx1100", "-lineinfo", "-S", ptx, "-o", out + ".s"],
                check=False)
        if e.returncode != 2 or "-lineinfo/-g needs PTX input compiled to a code object" \
                not in e.stderr:
            raise SystemExit(f"FAIL: -lineinfo -S: rc {e.returncode}\n{e.stderr}")
    print("lineinfo: 5 targets OK")


if __name__ == "__main__":
    main()
