#!/usr/bin/env python3
"""dat_uname.py - a version-6 trace.dat with its UNAME option set to a given string.

usage: tests/golden/lib/dat_uname.py IN_v6.dat OUT_v6.dat 'SYSNAME NODENAME RELEASE VERSION... MACHINE'

The UNAME option (id 5) is what `trace-cmd record` writes from uname(2): the five fields
joined by spaces (tracecmd/trace-record.c add_uname()), NUL-terminated. Any UNAME option of
the input is dropped and the new one is written first in the options; everything else is copied
as it is, and the per-CPU data is moved to the next page boundary after the header, its offsets
in the flyrecord table rewritten. Follows trace-cmd's Documentation/trace-cmd/trace-cmd.dat.v6.5.txt
(little endian only), written apart from govsim's src/trace/dat/.
"""
import struct
import sys

OPTION_UNAME = 5

src = open(sys.argv[1], 'rb').read()
uname = sys.argv[3].encode() + b'\0'
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


out = bytearray(take(10))           # magic "\x17\x08\x44tracing"
version = cstr()
assert version == b'6\0', version
out += version
out += take(2)                      # endianness, long size
page_size = u(4)
out += struct.pack('<I', page_size)
for name in (b'header_page\0', b'header_event\0'):
    assert take(len(name)) == name
    n = u(8)
    out += name + struct.pack('<Q', n) + take(n)
count = u(4)                        # ftrace event formats
out += struct.pack('<I', count)
for _ in range(count):
    n = u(8)
    out += struct.pack('<Q', n) + take(n)
count = u(4)                        # event systems
out += struct.pack('<I', count)
for _ in range(count):
    out += cstr()
    nev = u(4)
    out += struct.pack('<I', nev)
    for _ in range(nev):
        n = u(8)
        out += struct.pack('<Q', n) + take(n)
for _ in range(2):                  # kallsyms, printk formats
    n = u(4)
    out += struct.pack('<I', n) + take(n)
n = u(8)
out += struct.pack('<Q', n) + take(n)   # saved command lines
cpus = u(4)
out += struct.pack('<I', cpus)
options = [(OPTION_UNAME, uname)]
tag = take(10)
if tag == b'options  \0':
    while True:
        oid = u(2)
        if oid == 0:
            break
        data = take(u(4))
        if oid != OPTION_UNAME:
            options.append((oid, data))
    tag = take(10)
out += b'options  \0'
for oid, data in options:
    out += struct.pack('<HI', oid, len(data)) + data
out += struct.pack('<H', 0)
assert tag == b'flyrecord\0', tag
out += tag
table = [(u(8), u(8)) for _ in range(cpus)]
start = (len(out) + 16 * cpus + page_size - 1) // page_size * page_size
data = bytearray()
for off, size in table:
    pad = (-len(data)) % page_size
    data += b'\0' * pad
    out += struct.pack('<QQ', start + len(data), size)
    data += src[off:off + size]
out += b'\0' * (start - len(out)) + data
open(sys.argv[2], 'wb').write(out)
