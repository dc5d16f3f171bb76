#!/usr/bin/env python3
"""mkdat.py - a small trace.dat (v6) for the fuzz seeds, cut from a real one.

usage: tests/fuzz/mkdat.py IN.dat OUT.dat [PAGES]

Keeps the header pages, the 'sched' and 'power' event systems, the saved command lines, the
options and the first PAGES (default 1) pages of each CPU; drops ftrace formats, kallsyms and
printk formats. The layout is read and written by tests/golden/lib/dat_v6.py.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'golden', 'lib'))
from dat_v6 import V6  # noqa: E402


def main():
    if len(sys.argv) not in (3, 4):
        raise SystemExit('usage: mkdat.py IN.dat OUT.dat [PAGES]')
    v6 = V6(open(sys.argv[1], 'rb').read())
    pages = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    v6.ftrace, v6.kallsyms, v6.printk = [], b'', b''
    v6.systems = [(name, evs) for name, evs in v6.systems if name in (b'sched', b'power')]
    v6.cpu_data = [d[:pages * v6.page_size] for d in v6.cpu_data]
    open(sys.argv[2], 'wb').write(v6.write())


if __name__ == '__main__':
    main()
