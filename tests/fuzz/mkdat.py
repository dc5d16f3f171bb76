#!/usr/bin/env python3
"""mkdat.py - a small trace.dat (v6) for the fuzz seeds, cut from a real one.

usage: tests/fuzz/mkdat.py IN.dat OUT.dat [PAGES]

Keeps the header pages, the 'sched' and 'power' event systems, the saved command lines and the
first PAGES (default 1) pages of each CPU; drops ftrace formats, kallsyms and printk formats.
Follows trace-cmd's Documentation/trace-cmd/trace-cmd.dat.v6.5.txt (little endian only).
"""
import struct
import sys

src = open(sys.argv[1], 'rb').read()
pages = int(sys.argv[3]) if len(sys.argv) > 3 else 1
pos = 0


def take(n):
    global pos
    b = src[pos:pos + n]
    pos += n
    return b


def u(n):
    return int.from_bytes(take(n), 'little')


def cstr():
    global pos
    end = src.index(b'\0', pos)
    s = src[pos:end + 1]
    pos = end + 1
    return s


out = bytearray(take(10))
out += cstr()                       # version
out += take(2)                      # endianness, long size
page_size = u(4)
out += struct.pack('<I', page_size)
for name in (b'header_page\0', b'header_event\0'):
    assert take(len(name)) == name
    n = u(8)
    out += name + struct.pack('<Q', n) + take(n)
for _ in range(u(4)):               # ftrace event formats: dropped
    take(u(8))
out += struct.pack('<I', 0)
systems = []
for _ in range(u(4)):
    name = cstr()
    evs = [take(u(8)) for _ in range(u(4))]
    if name in (b'sched\0', b'power\0'):
        systems.append((name, evs))
out += struct.pack('<I', len(systems))
for name, evs in systems:
    out += name + struct.pack('<I', len(evs))
    for e in evs:
        out += struct.pack('<Q', len(e)) + e
take(u(4))                          # kallsyms: dropped
take(u(4))                          # printk: dropped
out += struct.pack('<II', 0, 0)
n = u(8)
out += struct.pack('<Q', n) + take(n)   # saved command lines
cpus = u(4)
out += struct.pack('<I', cpus)
tag = take(10)
if tag == b'options  \0':
    out += tag
    while True:
        oid = u(2)
        out += struct.pack('<H', oid)
        if oid == 0:
            break
        n = u(4)
        out += struct.pack('<I', n) + take(n)
    tag = take(10)
assert tag == b'flyrecord\0', tag
out += tag
table = [(u(8), u(8)) for _ in range(cpus)]
start = (len(out) + 16 * cpus + page_size - 1) // page_size * page_size
data = bytearray()
for off, size in table:
    keep = min(size, pages * page_size)
    out += struct.pack('<QQ', start + len(data), keep)
    data += src[off:off + keep]
out += b'\0' * (start - len(out)) + data
open(sys.argv[2], 'wb').write(out)
