#!/usr/bin/env python3
# ftrace_to_perfetto.py - an ftrace text trace (the kernel's layout, as `govsim gen` writes it) as
# a Perfetto protobuf trace, for the benchmark (tools/bench.sh): typed FtraceEvents (sched_switch,
# sched_wakeup, sched_waking, sched_wakeup_new, cpu_frequency, cpu_idle, print), one bundle per
# CPU every 50 ms of trace time, as traced_probes lays a trace out. Written with the wire format
# by hand (field numbers of Perfetto's protos at ec5d16b), independently of govsim's reader.
#
# usage: tools/ftrace_to_perfetto.py IN.txt OUT.pftrace
import re
import sys

LINE = re.compile(r'^\s*(.+)-(\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[(\d+)\]\s+\S+\s+(\d+)\.(\d+): ([\w]+): (.*)$')
STATE = {'R': 0, 'S': 1, 'D': 2, 'T': 4, 't': 8, 'X': 16, 'Z': 32, 'P': 64, 'I': 128}


def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def f_varint(num, v):
    return varint(num << 3) + varint(v)


def f_bytes(num, b):
    if isinstance(b, str):
        b = b.encode()
    return varint(num << 3 | 2) + varint(len(b)) + b


def kv(body):
    return dict(re.findall(r'(\w+)=(\S*)', body))


def prev_state(s):
    n = 0
    for part in s.rstrip('+').split('|'):
        n |= STATE.get(part, 0)
    return n | (0x100 if s.endswith('+') else 0)


def event(name, body, ts, pid):
    head = f_varint(1, ts) + f_varint(2, pid)
    if name == 'sched_switch':
        prev, nxt = body.split(' ==> ')
        p, n = kv(prev), kv(nxt)
        msg = (f_bytes(1, p['prev_comm']) + f_varint(2, int(p['prev_pid'])) +
               f_varint(3, int(p['prev_prio'])) + f_varint(4, prev_state(p['prev_state'])) +
               f_bytes(5, n['next_comm']) + f_varint(6, int(n['next_pid'])) +
               f_varint(7, int(n['next_prio'])))
        return head + f_bytes(4, msg)
    if name in ('sched_wakeup', 'sched_waking', 'sched_wakeup_new'):
        w = kv(body)
        msg = (f_bytes(1, w['comm']) + f_varint(2, int(w['pid'])) + f_varint(3, int(w['prio'])) +
               f_varint(4, 1) + f_varint(5, int(w['target_cpu'])))
        return head + f_bytes({'sched_wakeup': 17, 'sched_waking': 20,
                               'sched_wakeup_new': 114}[name], msg)
    if name in ('cpu_frequency', 'cpu_idle'):
        w = kv(body)
        msg = f_varint(1, int(w['state'])) + f_varint(2, int(w['cpu_id']))
        return head + f_bytes(11 if name == 'cpu_frequency' else 13, msg)
    if name in ('tracing_mark_write', 'print'):
        return head + f_bytes(3, f_bytes(2, body + '\n'))
    return None


def main():
    src, dst = sys.argv[1], sys.argv[2]
    pending = {}
    flush_at = None
    with open(src) as fin, open(dst, 'wb') as fout:
        def flush():
            for cpu in sorted(pending):
                bundle = f_varint(1, cpu) + b''.join(f_bytes(2, e) for e in pending[cpu])
                fout.write(f_bytes(1, f_bytes(1, bundle)))
            pending.clear()
        for line in fin:
            m = LINE.match(line)
            if not m:
                continue
            _, pid, cpu, sec, frac, name, body = m.groups()
            ts = int(sec) * 10**9 + int(frac.ljust(9, '0'))
            e = event(name, body.rstrip('\n'), ts, int(pid))
            if e is None:
                continue
            if flush_at is None:
                flush_at = ts + 50 * 10**6
            if ts >= flush_at:
                flush()
                while ts >= flush_at:
                    flush_at += 50 * 10**6
            pending.setdefault(int(cpu), []).append(e)
        flush()


if __name__ == '__main__':
    main()
