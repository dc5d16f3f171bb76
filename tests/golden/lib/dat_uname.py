#!/usr/bin/env python3
"""dat_uname.py - a version-6 trace.dat with its UNAME option set to a given string.

usage: tests/golden/lib/dat_uname.py IN_v6.dat OUT_v6.dat 'SYSNAME NODENAME RELEASE VERSION... MACHINE'

The UNAME option (id 5) is what `trace-cmd record` writes from uname(2): the five fields
joined by spaces (tracecmd/trace-record.c add_uname()), NUL-terminated. Any UNAME option of
the input is dropped and the new one is written first in the options; everything else is copied
as it is (dat_v6.py reads and writes the layout), the per-CPU data moved to the page boundaries
after the new header.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dat_v6 import V6  # noqa: E402

OPTION_UNAME = 5


def main():
    if len(sys.argv) != 4:
        raise SystemExit('usage: dat_uname.py IN_v6.dat OUT_v6.dat UNAME')
    v6 = V6(open(sys.argv[1], 'rb').read())
    kept = [(oid, d) for oid, d in v6.options or [] if oid != OPTION_UNAME]
    v6.options = [(OPTION_UNAME, sys.argv[3].encode() + b'\0')] + kept
    open(sys.argv[2], 'wb').write(v6.write())


if __name__ == '__main__':
    main()
