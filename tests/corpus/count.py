#!/usr/bin/env python3
"""Counts PTX files and instructions in the corpus (figures for README.md).

An instruction is a statement ending in ';' inside a function body ({...} after
.entry/.func) that is not a directive (.reg, .param, .local, .shared, .pragma...).
Multi-line statements (call with argument lists) count once, at their ';'.
"Distinct" ignores files whose text equals another file's apart from the .target
line (clang writes the same PTX for sm_75, sm_80 and sm_90 of most sources)."""
import hashlib
import pathlib
import re
import sys


def count_instructions(text):
    count, depth, in_func = 0, 0, False
    for raw in text.splitlines():
        line = re.sub(r"//.*", "", raw).strip()
        if not line:
            continue
        if depth == 0 and re.search(r"\.(entry|func)\b", line):
            in_func = True
        opens, closes = line.count("{"), line.count("}")
        if in_func and depth > 0 and line.endswith(";"):
            body = line.lstrip("{").strip()
            if body and not body.startswith(".") and ".callprototype" not in body:
                count += 1
        depth += opens - closes
        if in_func and depth == 0 and closes:
            in_func = False
        if depth == 0 and line.endswith(";") and in_func and opens == 0:
            in_func = False  # prototype-only declaration: .func foo(...);
    return count


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent)
    total_files = total_insts = 0
    seen = set()
    distinct_files = distinct_insts = 0
    rows = []
    for sub in ("nvcc", "clang", "handwritten"):
        files = sorted((root / sub).glob("*.ptx"))
        insts = 0
        for f in files:
            text = f.read_text()
            n = count_instructions(text)
            insts += n
            key = hashlib.sha1(re.sub(r"\.target[^\n]*", "", text).encode()).hexdigest()
            if key not in seen:
                seen.add(key)
                distinct_files += 1
                distinct_insts += n
        rows.append((sub, len(files), insts))
        total_files += len(files)
        total_insts += insts
    for sub, nf, ni in rows:
        print(f"{sub:12} {nf:4} files {ni:7} instructions")
    print(f"{'total':12} {total_files:4} files {total_insts:7} instructions")
    print(f"{'distinct':12} {distinct_files:4} files {distinct_insts:7} instructions")


if __name__ == "__main__":
    main()
