#!/usr/bin/env python3
"""The man pages keep up with the tools: every option `ptxas-amd --help` and `amdsim --help`
list is described in man/ptxas-amd.1 and man/amdsim.1, and groff formats both without a
warning (when groff is installed).

usage: test_man.py PTXAS_AMD AMDSIM SRCDIR"""
import os
import re
import shutil
import subprocess
import sys

exe, amdsim, srcdir = sys.argv[1:4]
failures = []


def help_options(tool):
    text = subprocess.run([tool, "--help"], capture_output=True, text=True, timeout=30).stdout
    return set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", text))


def man_text(name):
    with open(os.path.join(srcdir, "man", name)) as f:
        # roff escapes: \- is a hyphen, \fB..\fR fonts
        return re.sub(r"\\f[BIRP]", "", f.read()).replace("\\-", "-")


for tool, page in ((exe, "ptxas-amd.1"), (amdsim, "amdsim.1")):
    text = man_text(page)
    for opt in sorted(help_options(tool)):
        if not re.search(r"(?<![\w-])" + re.escape(opt) + r"(?![\w-])", text):
            failures.append(f"{page}: lacks {opt} (in {os.path.basename(tool)} --help)")
    if shutil.which("groff"):
        p = subprocess.run(["groff", "-man", "-ww", "-z", os.path.join(srcdir, "man", page)],
                           capture_output=True, text=True, timeout=30)
        if p.returncode or p.stderr:
            failures.append(f"{page}: groff: {p.stderr[:300]}")

for f in failures:
    print("FAIL", f)
print(f"test_man: {len(failures)} failures")
sys.exit(1 if failures else 0)
