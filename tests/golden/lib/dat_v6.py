"""dat_v6.py - read a version-6 trace.dat into its parts, and write parts back as one (imported,
not run: by dat_uname.py, dat_v7.py, golden scripts and tests/fuzz/mkdat.py).

Follows trace-cmd's Documentation/trace-cmd/trace-cmd.dat.v6.5.txt, written apart from govsim's
src/trace/dat/. In file order:
  magic "\\x17\\x08\\x44tracing", "6\\0", endianness (1 byte: 0 little, 1 big), long size,
  page size (4), "header_page\\0" + size (8) + text, "header_event\\0" + size (8) + text,
  ftrace event formats: count (4), then size (8) + text each,
  event systems: count (4), then per system its name (NUL-terminated), count (4) and
    size (8) + text per event format,
  kallsyms: size (4) + text, printk formats: size (4) + text, saved command lines: size (8) +
    text, the number of CPUs (4),
  optionally "options  \\0" then id (2) + size (4) + data per option up to id 0,
  "flyrecord\\0", per CPU the offset (8) and size (8) of its data, each at a page boundary.
"""
import struct

MAGIC = b'\x17\x08\x44tracing'
OPT_DONE = 0


class V6:
    """The parts of a version-6 file, read in file order. Every part can be changed before
    write(): system names and the version are kept without their NUL; options is None when
    the file has no options section, else a list of (id, data); cpu_data holds each CPU's
    pages."""

    def __init__(self, data):
        self.b, self.pos = data, 0
        if self.take(10) != MAGIC:
            raise SystemExit('trace.dat: bad magic')
        if self.cstr() != b'6':
            raise SystemExit('trace.dat: not version 6')
        self.endian, self.long_size = self.take(1), self.take(1)
        self.e = '>' if self.endian == b'\x01' else '<'
        self.page_size = self.u(4)
        self.header_page = self.tagged(b'header_page\0')
        self.header_event = self.tagged(b'header_event\0')
        self.ftrace = [self.take(self.u(8)) for _ in range(self.u(4))]
        self.systems = []
        for _ in range(self.u(4)):
            name = self.cstr()
            self.systems.append((name, [self.take(self.u(8)) for _ in range(self.u(4))]))
        self.kallsyms = self.take(self.u(4))
        self.printk = self.take(self.u(4))
        self.cmdlines = self.take(self.u(8))
        self.cpus = self.u(4)
        self.options = None
        self.cpus_end = self.pos   # where the options or data section starts
        tag = self.take(10)
        if tag == b'options  \0':
            self.options = []
            while True:
                oid = self.u(2)
                if oid == OPT_DONE:
                    break
                self.options.append((oid, self.take(self.u(4))))
            tag = self.take(10)
        if tag != b'flyrecord\0':
            raise SystemExit('trace.dat: no flyrecord section (a latency trace?)')
        table = [(self.u(8), self.u(8)) for _ in range(self.cpus)]
        self.cpu_data = [self.b[off:off + size] for off, size in table]
        for (off, size), d in zip(table, self.cpu_data):
            if len(d) != size:
                raise SystemExit('trace.dat: CPU data at %d runs past the end' % off)

    def take(self, n):
        out = self.b[self.pos:self.pos + n]
        if len(out) != n:
            raise SystemExit('trace.dat: truncated at byte %d' % self.pos)
        self.pos += n
        return out

    def u(self, n):
        return int.from_bytes(self.take(n), 'big' if self.e == '>' else 'little')

    def cstr(self):
        end = self.b.index(b'\0', self.pos)
        out = self.b[self.pos:end]
        self.pos = end + 1
        return out

    def tagged(self, tag):
        if self.take(len(tag)) != tag:
            raise SystemExit('trace.dat: no %r' % tag)
        return self.take(self.u(8))

    def write(self):
        """The parts as a version-6 file: the same layout in the same order, each CPU's data
        starting at a page boundary after the flyrecord table."""
        def p(fmt, *v):
            return struct.pack(self.e + fmt, *v)

        out = bytearray(MAGIC + b'6\0' + self.endian + self.long_size + p('I', self.page_size))
        out += b'header_page\0' + p('Q', len(self.header_page)) + self.header_page
        out += b'header_event\0' + p('Q', len(self.header_event)) + self.header_event
        out += p('I', len(self.ftrace)) + b''.join(p('Q', len(f)) + f for f in self.ftrace)
        out += p('I', len(self.systems))
        for name, evs in self.systems:
            out += name + b'\0' + p('I', len(evs)) + b''.join(p('Q', len(e)) + e for e in evs)
        out += p('I', len(self.kallsyms)) + self.kallsyms
        out += p('I', len(self.printk)) + self.printk
        out += p('Q', len(self.cmdlines)) + self.cmdlines
        out += p('I', len(self.cpu_data))
        if self.options is not None:
            out += b'options  \0'
            out += b''.join(p('HI', oid, len(d)) + d for oid, d in self.options)
            out += p('H', OPT_DONE)
        out += b'flyrecord\0'
        ps = self.page_size
        start = (len(out) + 16 * len(self.cpu_data) + ps - 1) // ps * ps
        data = bytearray()
        for d in self.cpu_data:
            data += bytes(-len(data) % ps)
            out += p('QQ', start + len(data), len(d))
            data += d
        return bytes(out + bytes(start - len(out)) + data)
