#!/usr/bin/env python3
"""dat_v7.py - rewrite a version-6 trace.dat as an uncompressed version-7 one.

usage: tests/golden/lib/dat_v7.py IN_v6.dat OUT_v7.dat

A second implementation of the two layouts, written from trace-cmd's documentation
(Documentation/trace-cmd/trace-cmd.dat.v6.5.txt and .v7.5.txt), independently of govsim's
src/trace/dat/dat_check.c, so that govsim's version-7 path can be tested against a file that holds
exactly the same events as a version-6 one. Where the v7 text and trace-cmd 3.1's reader
(lib/trace-cmd/trace-input.c) differ, the reader is followed, as trace-cmd 3.1.6 writes it:
  - a section header's size is 8 bytes (read_section_header()), not 4;
  - the BUFFER option carries the buffer's page size (4 bytes) between the clock and the
    number of CPUs (handle_buffer_option());
  - the strings section is found by walking the section headers from the end of the file
    header (read_metadata_strings()), so the sections are written back to back.

The output, in file order:
  file header ("none" compression, the offset of the first options section)
  HEADER_INFO (16), FTRACE_EVENTS (17), EVENT_FORMATS (18), KALLSYMS (19), PRINTK (20),
  CMDLINES (21) sections
  options section 1: the v6 options carried over (CPUSTAT, UNAME, TRACECLOCK, ...), the
    offsets of the six sections above, CPUCOUNT, DONE -> options section 2
  the BUFFER FLYRECORD section (id 3): padding, then each CPU's pages at a page boundary
  options section 2: BUFFER (top instance), DONE -> 0
  the STRINGS section (15): the sections' descriptions
Only the top instance is converted (a v6 BUFFER option, an instance, is refused).
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dat_v6 import MAGIC, V6  # noqa: E402

OPT_DONE, OPT_BUFFER, OPT_TRACECLOCK, OPT_CPUCOUNT = 0, 3, 4, 8
SEC_OPTIONS, SEC_STRINGS = 0, 15
SEC_HEADER, SEC_FTRACE, SEC_EVENTS, SEC_KALLSYMS, SEC_PRINTK, SEC_CMDLINES = range(16, 22)


def clock_of(options):
    """The clock in use, from a TRACECLOCK option ("... [local] global ..."), else local."""
    for oid, data in options or []:
        if oid == OPT_TRACECLOCK:
            for word in data.rstrip(b'\0').split():
                if word.startswith(b'[') and word.endswith(b']'):
                    return word[1:-1]
    return b'local'


class V7:
    def __init__(self, v6):
        self.v6, self.e = v6, v6.e
        self.out = bytearray()
        self.strings = bytearray()

    def p(self, fmt, *vals):
        return struct.pack(self.e + fmt, *vals)

    def string_id(self, text):
        sid = len(self.strings)
        self.strings += text + b'\0'
        return sid

    def section(self, sid, desc, body):
        """Append a section (header: id 2, flags 2, description 4, size 8); its offset."""
        at = len(self.out)
        self.out += self.p('HHIQ', sid, 0, self.string_id(desc), len(body)) + body
        return at

    @staticmethod
    def option(p, oid, data):
        return p('HI', oid, len(data)) + data

    def metadata(self):
        v6, p = self.v6, self.p
        offs = {}
        offs[SEC_HEADER] = self.section(SEC_HEADER, b'headers',
                                        b'header_page\0' + p('Q', len(v6.header_page)) +
                                        v6.header_page + b'header_event\0' +
                                        p('Q', len(v6.header_event)) + v6.header_event)
        body = p('I', len(v6.ftrace)) + b''.join(p('Q', len(f)) + f for f in v6.ftrace)
        offs[SEC_FTRACE] = self.section(SEC_FTRACE, b'ftrace events', body)
        body = bytearray(p('I', len(v6.systems)))
        for name, evs in v6.systems:
            body += name + b'\0' + p('I', len(evs))
            body += b''.join(p('Q', len(f)) + f for f in evs)
        offs[SEC_EVENTS] = self.section(SEC_EVENTS, b'events format', bytes(body))
        offs[SEC_KALLSYMS] = self.section(SEC_KALLSYMS, b'kallsyms',
                                          p('I', len(v6.kallsyms)) + v6.kallsyms)
        offs[SEC_PRINTK] = self.section(SEC_PRINTK, b'printk', p('I', len(v6.printk)) + v6.printk)
        offs[SEC_CMDLINES] = self.section(SEC_CMDLINES, b'command lines',
                                          p('Q', len(v6.cmdlines)) + v6.cmdlines)
        return offs

    def flyrecord(self):
        """The BUFFER FLYRECORD section: padding up to a page boundary after the section
        header, then the CPUs' pages back to back. Its offset and the CPU table."""
        v6, ps = self.v6, self.v6.page_size
        at = len(self.out)
        data_start = (at + 16 + ps - 1) // ps * ps
        body = bytearray(data_start - at - 16)
        table = []
        for cpu, d in enumerate(v6.cpu_data):
            table.append((cpu, at + 16 + len(body), len(d)))
            body += d
        self.section(OPT_BUFFER, b'flyrecord', bytes(body))
        return at, table

    def build(self):
        v6, p = self.v6, self.p
        self.out += MAGIC + b'7\0' + v6.endian + v6.long_size + p('I', v6.page_size)
        self.out += b'none\0' + b'\0'       # compression name and version
        first_opts_at = len(self.out)
        self.out += p('Q', 0)                # patched below
        offs = self.metadata()
        # options section 1: the v6 options, the metadata sections, the CPU count
        opts = bytearray()
        for oid, data in v6.options or []:
            opts += self.option(p, oid, data)
        for sid in sorted(offs):
            opts += self.option(p, sid, p('Q', offs[sid]))
        opts += self.option(p, OPT_CPUCOUNT, p('I', v6.cpus))
        opts1_at = len(self.out)
        done1 = opts1_at + 16 + len(opts) + 6  # where the DONE option's offset is written
        self.section(SEC_OPTIONS, b'options', bytes(opts) + self.option(p, OPT_DONE, p('Q', 0)))
        fly_at, table = self.flyrecord()
        buf = p('Q', fly_at) + b'\0' + clock_of(v6.options) + b'\0'
        buf += p('I', v6.page_size) + p('I', len(table))
        buf += b''.join(p('IQQ', cpu, off, size) for cpu, off, size in table)
        opts2_at = self.section(SEC_OPTIONS, b'options',
                                self.option(p, OPT_BUFFER, buf) +
                                self.option(p, OPT_DONE, p('Q', 0)))
        self.out[done1:done1 + 8] = p('Q', opts2_at)
        self.out[first_opts_at:first_opts_at + 8] = p('Q', opts1_at)
        desc = self.string_id(b'strings')
        body = bytes(self.strings)
        self.out += p('HHIQ', SEC_STRINGS, 0, desc, len(body)) + body
        return bytes(self.out)


def main():
    if len(sys.argv) != 3:
        raise SystemExit('usage: dat_v7.py IN_v6.dat OUT_v7.dat')
    v6 = V6(open(sys.argv[1], 'rb').read())
    if any(oid == OPT_BUFFER for oid, _ in v6.options or []):
        raise SystemExit('dat_v7.py: instance buffers are not converted')
    with open(sys.argv[2], 'wb') as f:
        f.write(V7(v6).build())


if __name__ == '__main__':
    main()
