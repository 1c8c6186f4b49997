#!/usr/bin/env python3
"""Records NVIDIA ptxas's kernel parameter layout of a PTX file (run by hand, once, when
the PTX changes; the test does not need ptxas).

usage: record_layout.py PTXAS FILE.ptx > FILE.expected

Compiles FILE for sm_80 and reads each kernel's EIATTR_KPARAM_INFO records (attribute
0x17 in the .nv.info.KERNEL sections: u32 index, u16 ordinal, u16 offset, u32 flags whose
bits 18..31 are the size) and EIATTR_PARAM_CBANK (0x0a: u32 symbol, u16 offset, u16
size of the parameter block).  Prints per kernel `kernel NAME bytes N` then
`param ORDINAL offset OFFSET size SIZE` in ordinal order, kernels in source order."""
import os
import re
import struct
import subprocess
import sys
import tempfile


def sections(data):
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    secs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names = secs[shstrndx][4]
    for sec in secs:
        start = names + sec[0]
        yield data[start:data.index(b"\0", start)].decode(), data[sec[4]:sec[4] + sec[5]]


def attributes(blob):
    pos = 0
    while pos < len(blob):
        fmt, attr = blob[pos], blob[pos + 1]
        if fmt == 4:
            size = struct.unpack_from("<H", blob, pos + 2)[0]
            yield attr, blob[pos + 4:pos + 4 + size]
            pos += 4 + size
        else:
            pos += 4 if fmt in (2, 3) else 2


def main():
    ptxas, ptx = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        cubin = os.path.join(tmp, "k.cubin")
        subprocess.run([ptxas, "-arch", "sm_80", ptx, "-o", cubin], check=True)
        data = open(cubin, "rb").read()
    order = re.findall(r"\.entry\s+([A-Za-z_$][A-Za-z0-9_$]*)", open(ptx).read())
    infos = {name[len(".nv.info."):]: blob for name, blob in sections(data)
             if name.startswith(".nv.info.")}
    for kernel in order:
        blob = infos[kernel]
        params, total = [], 0
        for attr, body in attributes(blob):
            if attr == 0x17:
                _, ordinal, offset, flags = struct.unpack_from("<IHHI", body)
                params.append((ordinal, offset, (flags >> 18) & 0x3FFF))
            elif attr == 0x0A:
                total = struct.unpack_from("<IHH", body)[2]
        print(f"kernel {kernel} bytes {total}")
        for ordinal, offset, size in sorted(params):
            print(f"param {ordinal} offset {offset} size {size}")


if __name__ == "__main__":
    main()
