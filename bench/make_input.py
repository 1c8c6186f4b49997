#!/usr/bin/env python3
"""Builds one large, valid PTX module from the corpus for the parse benchmark.

usage: make_input.py CORPUS_DIR MEGABYTES OUT.ptx
       make_input.py --repeat FILE.ptx MEGABYTES OUT.ptx    (one file, renamed per copy)
       make_input.py --big-functions COUNT OUT.ptx    (synthetic, see below)
       make_input.py --tiny-functions COUNT OUT.ptx

A PTX module may not repeat .version/.target, and every module-level symbol must be
unique, so the corpus cannot simply be concatenated.  Each round appends every corpus
file (except the -G debug builds and handwritten/debug_sections.ptx, whose .file
numbers and DWARF sections would clash) with a fresh suffix appended to each
module-level name it declares (functions, kernels, globals) and to every reference to
them.  .extern declarations (vprintf, clang's threadIdx) keep their names and are
emitted once.  Rounds are added until the output reaches MEGABYTES.  The first round
alone is valid PTX for NVIDIA ptxas (checked by parse.sh).

--repeat does the same with one file (keeping its own .version/.target): the large-
function shape uses it on sgemm8x8.ptx, nvcc -O3 -arch=sm_80 output of sgemm8x8.cu,
one ~42 KB kernel of ~1100 statements.

The synthetic inputs separate the two kinds of parser memory: --big-functions writes
COUNT functions of 20,000 instructions each (body memory, which must not grow with
COUNT), --tiny-functions COUNT empty functions (module symbol table, which must grow
with COUNT because later calls may name any earlier function)."""
import pathlib
import re
import sys

TOKEN = re.compile(r'"[^"\n]*"|//[^\n]*|[.%]?[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z0-9_$]+)*|[0-9][A-Za-z0-9_$.]*')
IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
HEADER = (".version", ".target", ".address_size")
MARK = "\x00"


def strip_parens(text):
    """Drops balanced (...) groups and everything from an unmatched '(' on."""
    out, depth = [], 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def statements(text):
    """Splits a module into depth-0 chunks: (is_decl_head, text) pairs, where function
    bodies stay attached to their header."""
    chunks, cur, brace, paren = [], [], 0, 0
    for line in text.splitlines(keepends=True):
        code = re.sub(r"//.*", "", line)
        cur.append(line)
        brace += code.count("{") - code.count("}")
        paren += code.count("(") - code.count(")")
        s = code.strip()
        if brace == 0 and paren == 0 and (s.endswith(";") or s.endswith("}") or not s):
            chunks.append("".join(cur))
            cur = []
    if cur:
        chunks.append("".join(cur))
    return chunks


def declared_name(chunk):
    """The module-level name a chunk declares, or None."""
    head = re.sub(r"//[^\n]*", "", chunk).split("{", 1)[0]
    head = head.split("=", 1)[0]
    if not head.strip().startswith("."):
        return None
    names = [t for t in TOKEN.findall(strip_parens(head)) if IDENT.fullmatch(t)]
    return names[-1] if names else None


def template(text, seen_externs):
    """Returns the module body with MARK after every module-level name."""
    kept, names = [], set()
    for chunk in statements(text):
        first = re.sub(r"//[^\n]*", "", chunk).strip()
        if first.startswith(HEADER) or first.startswith(".file") or first.startswith(".section"):
            continue
        name = declared_name(chunk)
        if first.startswith(".extern"):
            if name in seen_externs:
                continue
            seen_externs.add(name)
            kept.append(chunk)
            continue
        if name:
            names.add(name)
        kept.append(chunk)
    body = "".join(kept)
    return TOKEN.sub(lambda m: m.group(0) + MARK if m.group(0) in names else m.group(0), body)


def synthetic(kind, count, out):
    head = ".version 8.0\n.target sm_80\n.address_size 64\n"
    with open(out, "w") as fp:
        fp.write(head)
        if kind == "--tiny-functions":
            for i in range(count):
                fp.write(f".visible .func tiny{i}()\n{{\n\tret;\n}}\n")
            return
        body = "".join(f"\tadd.s32 %r{i % 90 + 1}, %r{(i + 1) % 90 + 1}, {i};\n"
                       for i in range(20000))
        for i in range(count):
            fp.write(f".visible .func big{i}()\n{{\n\t.reg .b32 %r<100>;\n{body}\tret;\n}}\n")


def repeat(path, megabytes, out):
    text = pathlib.Path(path).read_text()
    head = "".join(c for c in statements(text)
                   if re.sub(r"//[^\n]*", "", c).strip().startswith(HEADER))
    body = template(text, set())
    limit = int(megabytes * 1e6)
    written, copies = len(head), 0
    with open(out, "w") as fp:
        fp.write(head)
        while written < limit:
            chunk = body.replace(MARK, f"_r{copies}")
            fp.write(chunk)
            written += len(chunk)
            copies += 1
    print(f"{out}: {written} bytes, {copies} copies of {path}")


def main():
    if sys.argv[1] == "--repeat":
        repeat(sys.argv[2], float(sys.argv[3]), sys.argv[4])
        return
    if sys.argv[1].startswith("--"):
        synthetic(sys.argv[1], int(sys.argv[2]), sys.argv[3])
        return
    corpus, megabytes, out = pathlib.Path(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
    files = sorted(corpus.glob("nvcc/*.ptx")) + sorted(corpus.glob("clang/*.ptx"))
    files += sorted(corpus.glob("handwritten/*.ptx"))
    files = [f for f in files if not f.name.endswith(".Og.ptx") and "debug" not in f.name]
    seen = set()
    templates = [template(f.read_text(), seen) for f in files]
    limit = int(megabytes * 1e6)
    written, rounds = 0, 0
    with open(out, "w") as fp:
        head = ".version 9.0\n.target sm_90\n.address_size 64\n\n"
        fp.write(head)
        written += len(head)
        while written < limit:
            for i, t in enumerate(templates):
                chunk = t.replace(MARK, f"_r{rounds}f{i}")
                fp.write(chunk)
                written += len(chunk)
            rounds += 1
    print(f"{out}: {written} bytes, {rounds} rounds of {len(files)} files")


if __name__ == "__main__":
    main()
