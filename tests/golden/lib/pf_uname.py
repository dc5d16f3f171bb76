#!/usr/bin/env python3
"""pf_uname.py - a Perfetto trace with a system_info packet (its utsname) put first.

usage: tests/golden/lib/pf_uname.py IN.pftrace OUT.pftrace SYSNAME RELEASE VERSION MACHINE

A Perfetto trace is a Trace message: its packets are field 1 (length-delimited), one after the
other, so a packet is put before the others by writing it before the input's bytes. The packet
is TracePacket.system_info (45) holding SystemInfo.utsname (1): sysname 1, version 2, release 3,
machine 4, as traced_probes fills it from uname(2) (Perfetto's protos/perfetto/common/
system_info.proto and trace/trace_packet.proto). Written with tools/ftrace_to_perfetto.py's
wire-format writers, independently of govsim's reader.
"""
import os
import sys

# the wire-format writers of the tool that makes the tests' Perfetto traces from text
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'tools'))
from ftrace_to_perfetto import f_bytes  # noqa: E402


src, dst, sysname, release, version, machine = sys.argv[1:7]
utsname = f_bytes(1, sysname) + f_bytes(2, version) + f_bytes(3, release) + f_bytes(4, machine)
packet = f_bytes(45, f_bytes(1, utsname))
with open(dst, 'wb') as out:
    out.write(f_bytes(1, packet))
    out.write(open(src, 'rb').read())
