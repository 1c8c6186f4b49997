#!/usr/bin/env python3
"""libptxas-amd.so exports exactly the functions include/ptxas-amd.h declares, each under the
version node PTXAS_AMD_0, and nothing of the compiler's internals; its soname carries the
major version.  Read with binutils' nm and readelf.

usage: test_exports.py LIBPTXAS_AMD.so HEADER NM READELF"""
import re
import subprocess
import sys

lib, header, nm, readelf = sys.argv[1:5]
failures = []

with open(header) as f:
    text = f.read()
declared = set(re.findall(r"PTXAS_AMD_API\s[^;{]*?\b(ptxas_amd_\w+)\s*\(", text))
major = re.search(r"#define PTXAS_AMD_VERSION_MAJOR (\d+)", text).group(1)

out = subprocess.run([nm, "-D", "--defined-only", lib], capture_output=True, text=True,
                     check=True).stdout
exported, nodes = set(), set()
for line in out.splitlines():
    parts = line.split()
    if len(parts) < 3:
        continue
    kind, name = parts[1], parts[2]
    if kind == "A":
        nodes.add(name)
        continue
    sym, _, version = name.partition("@@")
    exported.add(sym)
    if version != "PTXAS_AMD_" + major:
        failures.append(f"{name}: not under version node PTXAS_AMD_{major}")

if len(declared) < 11:
    failures.append(f"header parse found only {sorted(declared)}")
if exported != declared:
    failures.append(f"exported but not declared: {sorted(exported - declared)}; "
                    f"declared but not exported: {sorted(declared - exported)}")
if nodes != {"PTXAS_AMD_" + major}:
    failures.append(f"version nodes {sorted(nodes)}")
dyn = subprocess.run([readelf, "-d", lib], capture_output=True, text=True, check=True).stdout
soname = re.search(r"Library soname: \[([^\]]+)\]", dyn)
if not soname or soname.group(1) != f"libptxas-amd.so.{major}":
    failures.append(f"soname {soname.group(1) if soname else None}")

for f in failures:
    print("FAIL", f)
print(f"test_exports: {len(exported)} symbols exported, {len(failures)} failures")
sys.exit(1 if failures else 0)
