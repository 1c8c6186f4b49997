"""Memory of the reference interpreter: the state spaces of PTX and the generic space.

Global buffers live at GLOBAL_BASE upwards in one sparse byte store; .shared is one byte
array per CTA; .local one per thread; .param per thread (kernel parameters are copied into
each thread's .param space, which is what reads of them observe).  Generic addresses: the
shared window starts at SHARED_WINDOW, the local window at LOCAL_WINDOW (each thread sees its
own .local there), everything else is global.  Addresses in the .shared/.local spaces start at
VAR_BASE so that no variable has address 0.
"""

import struct

GLOBAL_BASE = 0x7f0000000000
SHARED_WINDOW = 0x100000000
LOCAL_WINDOW = 0x200000000
WINDOW_SIZE = 0x100000000
VAR_BASE = 0x100


class MemoryFault(Exception):
    pass


class GlobalMemory:
    """Allocations at increasing addresses; each a bytearray."""

    def __init__(self):
        self.allocs = []   # (base, bytearray)
        self.next = GLOBAL_BASE

    def alloc(self, data):
        base = self.next
        buf = bytearray(data)
        self.allocs.append((base, buf))
        self.next = base + ((len(buf) + 255) // 256 + 1) * 256
        return base

    def find(self, addr, size):
        for base, buf in self.allocs:
            if base <= addr and addr + size <= base + len(buf):
                return buf, addr - base
        raise MemoryFault('global access of %d bytes at 0x%x outside every buffer' % (size, addr))


class SpaceLayout:
    """Addresses of the variables of one space (shared per CTA, local/param per thread)."""

    def __init__(self):
        self.addr = {}
        self.size = VAR_BASE

    def place(self, var):
        a = (self.size + var.align - 1) // var.align * var.align
        self.addr[var.name] = a
        self.size = a + var.size
        return a


def load(buf, off, nbytes):
    if off < 0 or off + nbytes > len(buf):
        raise MemoryFault('access of %d bytes at offset %d outside a buffer of %d' %
                          (nbytes, off, len(buf)))
    return int.from_bytes(buf[off:off + nbytes], 'little')


def store(buf, off, nbytes, value):
    if off < 0 or off + nbytes > len(buf):
        raise MemoryFault('access of %d bytes at offset %d outside a buffer of %d' %
                          (nbytes, off, len(buf)))
    buf[off:off + nbytes] = (value & ((1 << (8 * nbytes)) - 1)).to_bytes(nbytes, 'little')


def words_to_bytes(words):
    return struct.pack('<%dI' % len(words), *words)


def bytes_to_words(data):
    return list(struct.unpack('<%dI' % (len(data) // 4), bytes(data)))
