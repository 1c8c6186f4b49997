"""A standard-library reader of .npy and .npz files (CI's python3 may lack numpy): the npy
header (magic, version, a Python-literal dict with descr/fortran_order/shape) and the raw
little-endian data, returned as (flat list or array('I'/'q'...), shape)."""

import array
import ast
import sys
import zipfile

_CODES = {'u1': 'B', 'i1': 'b', 'u2': 'H', 'i2': 'h', 'u4': 'I', 'i4': 'i', 'u8': 'Q',
          'i8': 'q', 'f4': 'f', 'f8': 'd'}


def parse_npy(data):
    """bytes of a .npy file -> (values, shape); values an array.array, or a list of str for
    unicode ('<U') arrays."""
    if data[:6] != b'\x93NUMPY':
        raise ValueError('not an npy file')
    major = data[6]
    if major == 1:
        hlen, start = int.from_bytes(data[8:10], 'little'), 10
    else:
        hlen, start = int.from_bytes(data[8:12], 'little'), 12
    header = ast.literal_eval(data[start:start + hlen].decode('latin1'))
    if header.get('fortran_order'):
        raise ValueError('fortran-order arrays are not supported')
    descr, shape = header['descr'], tuple(header['shape'])
    body = data[start + hlen:]
    count = 1
    for s in shape:
        count *= s
    if descr[1] == 'U':
        n = int(descr[2:])
        raw = body[:count * 4 * n]
        return [raw[i * 4 * n:(i + 1) * 4 * n].decode('utf-32-le').rstrip('\0')
                for i in range(count)], shape
    if descr[0] not in '<|':
        raise ValueError('big-endian arrays are not supported')
    code = _CODES[descr[1:]]
    arr = array.array(code)
    if arr.itemsize != int(descr[2:]):
        raise ValueError('no array code of %s bytes' % descr[2:])
    arr.frombytes(body[:count * arr.itemsize])
    if sys.byteorder != 'little':
        arr.byteswap()
    return arr, shape


def load_npy(path):
    with open(path, 'rb') as f:
        return parse_npy(f.read())


def load_npz(path):
    """{name: (values, shape)}"""
    out = {}
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            key = name[:-4] if name.endswith('.npy') else name
            out[key] = parse_npy(z.read(name))
    return out
