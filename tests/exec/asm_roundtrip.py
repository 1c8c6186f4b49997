#!/usr/bin/env python3
"""`ptxas-amd -S` is assembly llvm-mc-19 accepts and that reassembles to the very bytes
ptxas-amd put in the code object: for every PTX file given and every target, the code in
the .hsaco from its first kernel (kernels start 256-aligned, -S pads with `.p2align 8`) must
equal the .text that llvm-mc-19 makes of the -S listing.  The oracle is LLVM's assembler.  Literals llvm-mc-19
leaves to relocations (`var@rel32@lo+N` of module variables) are filled in as the ELF rules
say, R_AMDGPU_REL32_LO/HI = (S + A - P) low/high dword, with S the variable's address in the
code object and P the literal's address, before the comparison.  Functions compiled once per module for their address (function
pointers as code addresses, docs/CALLS.md) follow the kernel in .text; -S lists them as
local function symbols, so the bytes compared run from the kernel to the end of the last of
them, every one of llvm-mc-19's FUNC symbols must have the offset from the kernel and the
size it has in the code object, and relocations llvm-mc-19 keeps against its own .text (a
local symbol's address: `mov.u64 %rd, f`) are resolved with the kernel at its address.

usage: asm_roundtrip.py PTXAS_AMD FILE.ptx... [--target T]...
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

TARGETS = ('gfx90a', 'gfx942', 'gfx1030', 'gfx1100', 'gfx1200')
MC = os.environ.get('LLVM_MC', 'llvm-mc-19')
OBJCOPY = os.environ.get('LLVM_OBJCOPY', 'llvm-objcopy-19')
READELF = os.environ.get('READELF', 'llvm-readelf-19')


def text_of(obj, out):
    subprocess.run([OBJCOPY, '-O', 'binary', '--only-section=.text', obj, out], check=True)
    return open(out, 'rb').read()


def symbols(path):
    """name -> (value, size, type) from llvm-readelf-19 -s."""
    out = {}
    syms = subprocess.run([READELF, '-sW', path], stdout=subprocess.PIPE, text=True,
                          check=True).stdout
    for line in syms.splitlines():
        f = line.split()
        if len(f) >= 8 and f[0].endswith(':') and f[0][:-1].isdigit():
            size = int(f[2], 16) if f[2].startswith('0x') else int(f[2])
            out[f[7]] = (int(f[1], 16), size, f[3])
    return out


def functions(path):
    """name -> (value, size) of the FUNC symbols."""
    return {name: (v, n) for name, (v, n, t) in symbols(path).items() if t == 'FUNC'}


def apply_relocs(obj, mc, hsaco, kernel_addr):
    """The .text of llvm-mc-19's object with its REL32 relocations resolved against the
    symbols of our code object, the kernel placed at kernel_addr."""
    rel = subprocess.run([READELF, '-rW', obj], stdout=subprocess.PIPE, text=True,
                         check=True).stdout
    syms = symbols(hsaco)
    data = bytearray(mc)
    for m in re.finditer(r'^([0-9a-f]+)\s+[0-9a-f]+\s+(R_AMDGPU_REL32_(?:LO|HI))\s+[0-9a-f]+\s+'
                         r'(\S+) ([+-]) ([0-9a-f]+)$', rel, re.M):
        off, kind, sym = int(m.group(1), 16), m.group(2), m.group(3)
        addend = int(m.group(5), 16) * (-1 if m.group(4) == '-' else 1)
        at = kernel_addr if sym == '.text' else syms[sym][0]  # .text: llvm-mc's own
        value = (at + addend - (kernel_addr + off)) & ((1 << 64) - 1)
        word = value & 0xffffffff if kind.endswith('LO') else value >> 32
        data[off:off + 4] = word.to_bytes(4, 'little')
    return bytes(data)


def kernel_bytes(hsaco, name, tmp):
    """The bytes and address of function symbol `name` in the code object, up to the end
    of the last function symbol after it (address-taken functions follow the kernel)."""
    secs = subprocess.run([READELF, '-SW', hsaco], stdout=subprocess.PIPE, text=True,
                          check=True).stdout
    m = re.search(r'\]\s+\.text\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)', secs)
    text_addr = int(m.group(1), 16)
    funcs = [(v, n, fname) for fname, (v, n) in functions(hsaco).items()]
    for addr, size, fname in funcs:
        if fname == name:
            end = max([a + n for a, n, _ in funcs if a > addr] + [addr + size])
            data = text_of(hsaco, os.path.join(tmp, 'k.text'))
            return data[addr - text_addr:end - text_addr], addr
    raise RuntimeError('no FUNC symbol %s in %s' % (name, hsaco))


def functions_differ(obj, hsaco, kernel_addr):
    """The first FUNC symbol of llvm-mc-19's object whose offset or size differs from the
    code object's (offsets from the kernel), or None."""
    ours = functions(hsaco)
    for name, (value, size) in functions(obj).items():
        if name not in ours or (ours[name][0] - kernel_addr, ours[name][1]) != (value, size):
            return '%s at %#x (%d bytes), the code object has %s' % (
                name, value, size, ours.get(name))
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('ptxas_amd')
    ap.add_argument('files', nargs='+')
    ap.add_argument('--target', action='append')
    args = ap.parse_args()
    fails, passes = 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for f in args.files:
            names = re.findall(r'\.entry\s+([A-Za-z_$][\w$]*)', open(f).read())
            if not names:
                print('FAIL  %s: no kernel' % f)
                fails += 1
                continue
            for t in args.target or TARGETS:
                tag = '%-8s %s' % (t, os.path.basename(f))
                s = os.path.join(tmp, 'k.s')
                o = os.path.join(tmp, 'k.o')
                h = os.path.join(tmp, 'k.hsaco')
                words = t.split()  # a target with options: 'gfx90a --warp-size 32'
                r1 = subprocess.run([args.ptxas_amd, '--gpu-name'] + words + ['-S', f, '-o', s],
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                r2 = subprocess.run([args.ptxas_amd, '--gpu-name'] + words + [f, '-o', h],
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                if r1.returncode or r2.returncode:
                    print('FAIL  %s: ptxas-amd: %s%s' % (tag, r1.stdout, r2.stdout))
                    fails += 1
                    continue
                wave64 = ['-mattr=+wavefrontsize64'] if ' '.join(words[1:3]) == \
                    '--wavefront-size 64' else []  # RDNA in wave64
                r3 = subprocess.run([MC, '-triple=amdgcn-amd-amdhsa', '-mcpu=' + words[0]] +
                                    wave64 + ['--filetype=obj', s, '-o', o], stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True)
                if r3.returncode or 'warning' in r3.stdout:
                    print('FAIL  %s: llvm-mc-19 rejects the -S output:\n%s' % (tag, r3.stdout[:3000]))
                    fails += 1
                    continue
                ours, kaddr = min((kernel_bytes(h, n, tmp) for n in names),
                                  key=lambda bk: bk[1])  # the first in .text
                mc = apply_relocs(o, text_of(o, os.path.join(tmp, 'mc.text')), h, kaddr)
                bad = functions_differ(o, h, kaddr)
                if bad:
                    print('FAIL  %s: function symbol %s' % (tag, bad))
                    fails += 1
                    continue
                if mc != ours:
                    at = next((i for i in range(min(len(mc), len(ours))) if mc[i] != ours[i]),
                              min(len(mc), len(ours)))
                    print('FAIL  %s: llvm-mc-19 makes %d bytes, the code object has %d; first '
                          'difference at byte %d' % (tag, len(mc), len(ours), at))
                    fails += 1
                    continue
                passes += 1
                print('PASS  %s (%d bytes)' % (tag, len(ours)))
    print('asm-roundtrip: %d passed, %d failed' % (passes, fails))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
