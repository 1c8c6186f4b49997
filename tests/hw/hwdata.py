"""Reads the hardware data sets of ../shared/ptx-hw with the standard library only (CI's python
has no numpy): the .npy arrays of inputs.npy and nv.part*.npz, manifest.json and slots.json.gz.

A set directory holds kNNNNN.ptx, manifest.json (per kernel: file, cat, threads, in_words,
out_words, warp_ops), slots.json.gz (per kernel, per output slot: word offset, width, PTX form,
operand sources, comparison class) and NVIDIA's results in nv.part*.npz (idx, off, data, status);
see ../shared/ptx-hw/README.md.
"""

import array
import ast
import glob
import gzip
import json
import os
import sys
import zipfile

# .npy dtype descriptors this loader understands -> array.array type codes (all little-endian)
NPY_CODES = {'<u4': 'I', '<i4': 'i', '<i8': 'q', '<u8': 'Q'}


def parse_npy(blob):
    """(descr, shape, payload bytes) of a version 1/2/3 .npy file held in memory."""
    if blob[:6] != b'\x93NUMPY':
        raise ValueError('not a .npy file')
    major = blob[6]
    if major == 1:
        hlen, start = int.from_bytes(blob[8:10], 'little'), 10
    else:
        hlen, start = int.from_bytes(blob[8:12], 'little'), 12
    header = ast.literal_eval(blob[start:start + hlen].decode('latin-1'))
    if header.get('fortran_order'):
        raise ValueError('fortran-order .npy arrays are not supported')
    return header['descr'], tuple(header['shape']), memoryview(blob)[start + hlen:]


def npy_array(blob):
    """(flat values, shape): numeric arrays as array.array, '<Un' string arrays as a list of str."""
    descr, shape, payload = parse_npy(blob)
    count = 1
    for n in shape:
        count *= n
    if descr.startswith('<U'):
        width = int(descr[2:]) * 4
        return [bytes(payload[i * width:(i + 1) * width]).decode('utf-32-le').rstrip('\0')
                for i in range(count)], shape
    if descr not in NPY_CODES:
        raise ValueError('unsupported .npy dtype %s' % descr)
    values = array.array(NPY_CODES[descr])
    values.frombytes(bytes(payload[:count * values.itemsize]))
    if sys.byteorder != 'little':
        values.byteswap()
    return values, shape


def load_inputs(set_dir):
    """Per kernel, its whole input buffer (array.array of uint32)."""
    with open(os.path.join(set_dir, 'inputs.npy'), 'rb') as f:
        flat, shape = npy_array(f.read())
    rows, width = shape
    return [flat[i * width:(i + 1) * width] for i in range(rows)]


def load_nv(set_dir):
    """{kernel index: (status, uint32 array.array or None)} from nv.part*.npz."""
    files = sorted(glob.glob(os.path.join(glob.escape(set_dir), 'nv.part*.npz')))
    if not files:
        raise SystemExit('no NVIDIA results %s/nv.part*.npz' % set_dir)
    out = {}
    for fn in files:
        with zipfile.ZipFile(fn) as z:
            idx, _ = npy_array(z.read('idx.npy'))
            off, _ = npy_array(z.read('off.npy'))
            data, _ = npy_array(z.read('data.npy'))
            status, _ = npy_array(z.read('status.npy'))
        for j, kernel in enumerate(idx):
            ok = status[j] == 'ok'
            out[kernel] = (status[j], data[off[j]:off[j + 1]] if ok else None)
    return out


def load_set(set_dir):
    """(manifest dict, per-kernel slot lists, per-kernel inputs, NVIDIA results)."""
    with open(os.path.join(set_dir, 'manifest.json')) as f:
        manifest = json.load(f)
    with gzip.open(os.path.join(set_dir, 'slots.json.gz'), 'rt') as f:
        slots = json.load(f)
    return manifest, slots, load_inputs(set_dir), load_nv(set_dir)
