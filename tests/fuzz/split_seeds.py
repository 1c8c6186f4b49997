#!/usr/bin/env python3
"""Writes small, self-contained fuzz seeds from the PTX corpus.

usage: split_seeds.py OUTDIR MAX_BYTES FILE.ptx...

Whole corpus files are up to 160 KB, which makes every fuzz iteration slow.  For each
function of each file this writes one seed: the module header, every module-level
declaration (globals, .extern, prototypes), the other functions reduced to
prototypes, and that one function in full.  Seeds larger than MAX_BYTES are skipped;
identical seeds are written once."""
import hashlib
import pathlib
import re
import sys


def chunks(text):
    """Depth-0 statements; a function keeps its body."""
    out, cur, brace, paren = [], [], 0, 0
    for line in text.splitlines(keepends=True):
        code = re.sub(r"//.*", "", line)
        cur.append(line)
        brace += code.count("{") - code.count("}")
        paren += code.count("(") - code.count(")")
        s = code.strip()
        if brace == 0 and paren == 0 and (s.endswith(";") or s.endswith("}") or not s):
            out.append("".join(cur))
            cur = []
    if cur:
        out.append("".join(cur))
    return out


def is_function(chunk):
    head = re.sub(r"//[^\n]*", "", chunk)
    return re.search(r"\.(entry|func)\b", head.split("{", 1)[0]) is not None and "{" in head


def main():
    out, limit = pathlib.Path(sys.argv[1]), int(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    seen = set()
    for path in map(pathlib.Path, sys.argv[3:]):
        parts = [c for c in chunks(path.read_text()) if c.strip()]
        funcs = [i for i, c in enumerate(parts) if is_function(c)]
        for k in funcs:
            seed = []
            for i, c in enumerate(parts):
                if i == k or i not in funcs:
                    seed.append(c)
                elif ".entry" not in c.split("{", 1)[0]:
                    head = re.sub(r"//[^\n]*", "", c.split("{", 1)[0])
                    seed.append(head.rstrip() + ";\n")
            text = "".join(seed)
            key = hashlib.sha1(text.encode()).hexdigest()[:16]
            if len(text) <= limit and key not in seen:
                seen.add(key)
                (out / f"{path.stem}-{key}.ptx").write_text(text)


if __name__ == "__main__":
    main()
