#!/bin/bash
# limits.sh - every limit docs/limits.md lists, hit once through the CLI: the exit status and
# the message the table gives (a prefix match on a line of stderr, after "govsim: ").
#
# Invariant: an input past a limit ends with the documented status and message, within the
# case's `timeout` (an endless or huge input is cut short, never read to its end), and without a
# sanitizer report. Each input is built here, its size computed from the limit (not taken from a
# previous run). Limits that unit tests hit (Perfetto's compressed packets together, the
# reader's 64 MiB floor read whole below it) are named in the table with their test.
# Does not check: what a run prints when it succeeds (other golden tests).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init limits.sh
sf=traces/android-8cpu/surfaceflinger.txt

# limit NAME STATUS MESSAGE CMD...: run CMD (in a shell, so it may pipe) and check both.
limit() {
	local name=$1 want=$2 msg=$3 status why=""
	shift 3
	bash -c "$*" >"$tmp/out" 2>"$tmp/err"
	status=$?
	if [ "$status" -ne "$want" ]; then
		why="exit status $status, expected $want"
	elif ! grep -qF -- "govsim: $msg" "$tmp/err"; then
		why="no message 'govsim: $msg'"
	elif grep -qE 'runtime error|AddressSanitizer|LeakSanitizer' "$tmp/err"; then
		why="sanitizer report"
	fi
	if [ -n "$why" ]; then
		golden_fail "$name: $why"
		echo "  command: $*" >&2
		sed 's/^/  stderr: /' "$tmp/err" | head -5 >&2
	fi
}
export bin tmp sf

# --- devices and pipes (trace/spool.c) -------------------------------------------------------
limit chardev 3 "'/dev/zero': is a character device, not a trace (a file, a pipe or a FIFO is read)" \
	'timeout 20 "$bin" trace info /dev/zero'
limit chardev-run 3 "'/dev/zero': is a character device, not a trace (a file, a pipe or a FIFO is read)" \
	'timeout 20 "$bin" run /dev/zero'
limit chardev-stdin 3 "'-': is a character device, not a trace (a file, a pipe or a FIFO is read)" \
	'timeout 20 "$bin" trace info - </dev/zero'
# the spool's cap, set to 1 MiB: 3 MB of newlines, then an endless pipe
limit spool 3 "'-': longer than 1 MiB, the most read from a pipe (GOVSIM_SPOOL_MAX_MB sets it)" \
	'head -c 3000000 /dev/zero | tr "\0" "\n" | GOVSIM_SPOOL_MAX_MB=1 timeout 20 "$bin" trace info -'
limit spool-endless 3 "'-': longer than 1 MiB, the most read from a pipe (GOVSIM_SPOOL_MAX_MB sets it)" \
	'yes | GOVSIM_SPOOL_MAX_MB=1 timeout 20 "$bin" run -'
limit spool-fifo 3 "'$tmp/fifo': longer than 1 MiB, the most read from a pipe (GOVSIM_SPOOL_MAX_MB sets it)" \
	'mkfifo "$tmp/fifo"; (yes >"$tmp/fifo" 2>/dev/null &); GOVSIM_SPOOL_MAX_MB=1 timeout 20 "$bin" trace info "$tmp/fifo"'
# below the cap: read to its end (300000 comment lines of 10 bytes: no usable event in them)
limit spool-below 3 "'-': no usable event in 300000 lines" \
	'yes "# comment" | head -n 300000 | GOVSIM_SPOOL_MAX_MB=3 timeout 20 "$bin" trace info -'

# --- decompressed size (trace/reader.c): 100 x the file, at least 64 MiB ---------------------
# 80 MiB of one byte compress to ~80 KB: the floor, 64 MiB (67108864 bytes), is the limit. The
# byte is an 'x' with a newline every 2 MiB, lines the reader skips whole (a sanitizer build
# takes minutes over 64 million empty lines)
{ head -3 traces/juno-r0/rtapp_switch/trace.txt
  for i in $(seq 40); do head -c $((2 << 20)) /dev/zero | tr '\0' x; echo; done
} | gzip -9 >"$tmp/bomb.gz"
size=$(stat -c %s "$tmp/bomb.gz")
limit gzip-bomb 3 "'$tmp/bomb.gz': decompresses to more than 67108864 bytes, the limit for a $size-byte file (100 times its size, at least 64 MiB): not a trace, or a decompression bomb" \
	'timeout 20 "$bin" trace info "$tmp/bomb.gz"'
limit gzip-bomb-run 3 "'$tmp/bomb.gz': decompresses to more than 67108864 bytes" \
	'timeout 20 "$bin" run "$tmp/bomb.gz"'

# --- Perfetto (trace/perfetto_input.c) -------------------------------------------------------
# a packet that says it is 128 MiB long, after a first packet that makes the file a Perfetto one
printf '\x0a\x02\x40\x01\x0a\x80\x80\x80\x40\x00\x00' >"$tmp/big.pftrace"
limit perfetto-packet 3 "'$tmp/big.pftrace': byte 4: a packet of 134217728 bytes (more than 64 MB)" \
	'timeout 20 "$bin" trace info "$tmp/big.pftrace"'
# one compressed_packets stream of 257 MiB of zeros, in a file made 3 MiB long by a first packet
# of random bytes (an unknown field), so that the total's limit (100 x 3 MiB) is not hit first
/usr/bin/python3 - "$tmp/zip.pftrace" <<'PY'
import os, sys, zlib
def varint(v):
    out = b""
    while True:
        b = v & 0x7f
        v >>= 7
        out += bytes([b | (0x80 if v else 0)])
        if not v:
            return out
def field(num, payload):  # a length-delimited field
    return varint(num << 3 | 2) + varint(len(payload)) + payload
pad = field(1000, os.urandom(3 << 20))
z = zlib.compress(bytes(257 << 20), 9)
with open(sys.argv[1], "wb") as f:
    f.write(field(1, pad))
    f.write(field(1, field(50, z)))
PY
limit perfetto-inflated-packet 3 "'$tmp/zip.pftrace':2: compressed packets at byte $((3 * 1048576 + 11)): more than 256 MB inflated" \
	'timeout 60 "$bin" trace info --strict "$tmp/zip.pftrace"'
# a bundle on CPU 4096 (PF_MAX_CPU): skipped as malformed, fatal with --strict
/usr/bin/python3 - "$tmp/cpu.pftrace" <<'PY'
import sys
def varint(v):
    out = b""
    while True:
        b = v & 0x7f
        v >>= 7
        out += bytes([b | (0x80 if v else 0)])
        if not v:
            return out
bundle = varint(1 << 3 | 0) + varint(4096)           # FtraceEventBundle.cpu = 4096
pkt = varint(1 << 3 | 2) + varint(len(bundle)) + bundle  # TracePacket.ftrace_events
open(sys.argv[1], "wb").write(varint(1 << 3 | 2) + varint(len(pkt)) + pkt)
PY
limit perfetto-cpu 3 "'$tmp/cpu.pftrace':1: packet at byte 0: ftrace bundle without a valid cpu" \
	'timeout 20 "$bin" trace info --strict "$tmp/cpu.pftrace"'

# --- trace.dat (trace/dat_check.c), each limit past its value in a copy of the one-page seed --
# (v6, little endian: tests/fuzz/mkdat.py). dat.py walks the header as the v6 layout gives it and
# writes one damaged copy per case, printing the byte offset each message names.
/usr/bin/python3 - tests/fuzz/corpus/dat/juno-sched-load-1page.dat "$tmp" >"$tmp/dat.at" <<'PY' || golden_fail "writing the damaged v6 trace.dat copies failed"
import struct, sys
src, d = open(sys.argv[1], 'rb').read(), sys.argv[2]
pos = 0
def take(n):
    global pos
    pos += n
    return src[pos - n:pos]
def u(n):
    return int.from_bytes(take(n), 'little')
def cstr():
    global pos
    pos = src.index(b'\0', pos) + 1
take(10); cstr(); take(2)
page_at = pos; u(4)
take(len(b'header_page\0')); hp_size_at = pos; take(u(8))
take(len(b'header_event\0')); take(u(8))
for _ in range(u(4)):
    take(u(8))
nsys = u(4)
sys_name_at = pos
cstr(); u(4)
fmt_size_at = pos
pos = sys_name_at
for _ in range(nsys):
    cstr()
    for _ in range(u(4)):
        take(u(8))
take(u(4)); take(u(4)); take(u(8))    # kallsyms, printk, cmdlines
cpus_at = pos; u(4)
tag_at = pos
assert src[tag_at:tag_at + 10] in (b'options  \0', b'flyrecord\0')
def put(name, data):
    open(f"{d}/{name}.dat", 'wb').write(data)
def patch(at, fmt, v):
    b = bytearray(src)
    struct.pack_into(fmt, b, at, v)
    return bytes(b)
put('page-small', patch(page_at, '<I', 512))
put('page-big', patch(page_at, '<I', 32 << 20))
put('header-page', patch(hp_size_at, '<Q', 1024))
put('format', patch(fmt_size_at, '<Q', 2 << 20))
print('format', fmt_size_at + 8)
put('string', src[:sys_name_at] + b'x' * 5000 + src[sys_name_at:])
print('string', sys_name_at)
put('cpus', patch(cpus_at, '<I', 5000))
put('cpus0', patch(cpus_at, '<I', 0))
opt = lambda oid, body: struct.pack('<HI', oid, len(body)) + body
many = b'options  \0' + b''.join(opt(8, b'') for _ in range(4100)) + struct.pack('<H', 0)
put('options', src[:tag_at] + many + src[tag_at:])
bufs = b'options  \0' + b''.join(opt(3, struct.pack('<Q', 0) + b'b\0') for _ in range(257)) + struct.pack('<H', 0)
put('buffers', src[:tag_at] + bufs + src[tag_at:])
PY
# v7 (the zstd seed): the first compressed section of the chain that follows the file header
# (16-byte section headers: id, flags, description, size; then the compressed block's sizes,
# compressed and uncompressed, 4 bytes each) says it inflates to 1 GiB + 1
/usr/bin/python3 - tests/fuzz/corpus/dat/v7-juno-1page-zstd.dat "$tmp" >>"$tmp/dat.at" <<'PY' || golden_fail "writing the damaged v7 trace.dat copy failed"
import struct, sys
src = open(sys.argv[1], 'rb').read()
pos = src.index(b'\0', 10) + 1 + 2 + 4          # magic, version, endianness and long size, page size
pos = src.index(b'\0', src.index(b'\0', pos) + 1) + 1 + 8  # compression name, version; options offset
while True:
    sid, flags, _, size = struct.unpack_from('<HHIQ', src, pos)
    if flags & 1 and sid not in (3, 22):          # compressed, not a buffer's data
        break
    pos += 16 + size
b = bytearray(src)
struct.pack_into('<I', b, pos + 20, (1 << 30) + 1)
open(f"{sys.argv[2]}/inflate.dat", 'wb').write(b)
print('inflate', pos + 16)
PY
at() { sed -n "s/^$1 //p" "$tmp/dat.at"; }
dmg="damaged trace.dat"
limit dat-page-size 3 "'$tmp/page-small.dat': $dmg: page size 512 (expected a power of two, 1 KiB .. 16 MiB)" \
	'timeout 20 "$bin" trace info "$tmp/page-small.dat"'
limit dat-page-size-big 3 "'$tmp/page-big.dat': $dmg: page size 33554432 (expected a power of two, 1 KiB .. 16 MiB)" \
	'timeout 20 "$bin" trace info "$tmp/page-big.dat"'
limit dat-header-page 3 "'$tmp/header-page.dat': $dmg: header_page of 1024 bytes (a kernel's is about 200)" \
	'timeout 20 "$bin" trace info "$tmp/header-page.dat"'
limit dat-format 3 "'$tmp/format.dat': $dmg: an event format of 2097152 bytes at byte $(at format) (at most 1048576)" \
	'timeout 20 "$bin" trace info "$tmp/format.dat"'
limit dat-string 3 "'$tmp/string.dat': $dmg: an event system's name at byte $(at string) is not terminated" \
	'timeout 20 "$bin" trace info "$tmp/string.dat"'
limit dat-cpus 3 "'$tmp/cpus.dat': $dmg: 5000 CPUs (expected 1..4096)" \
	'timeout 20 "$bin" run "$tmp/cpus.dat"'
limit dat-cpus-0 3 "'$tmp/cpus0.dat': $dmg: 0 CPUs (expected 1..4096)" \
	'timeout 20 "$bin" trace info "$tmp/cpus0.dat"'
limit dat-options 3 "'$tmp/options.dat': $dmg: more than 4096 options" \
	'timeout 20 "$bin" trace info "$tmp/options.dat"'
limit dat-inflated 3 "'$tmp/inflate.dat': $dmg: a compressed section at byte $(at inflate) uncompresses to 1073741825 bytes (at most 1073741824)" \
	'timeout 20 "$bin" trace info "$tmp/inflate.dat"'
limit dat-buffers 3 "'$tmp/buffers.dat': $dmg: more than 256 buffers" \
	'timeout 20 "$bin" trace info "$tmp/buffers.dat"'

# --- text lines (trace/reader.c, trace/systrace.c) -------------------------------------------
{ head -3 traces/juno-r0/rtapp_switch/trace.txt; head -c $((1 << 20)) /dev/zero | tr '\0' x; echo; } >"$tmp/long.txt"
limit line-length 3 "'$tmp/long.txt':4: line longer than 1048576 bytes" \
	'timeout 20 "$bin" trace info --strict "$tmp/long.txt"'
{ printf '{"systemTraceEvents": "'; head -c $(((1 << 20) + 1)) /dev/zero | tr '\0' x; printf '\\n"}\n'; } >"$tmp/long.json"
limit line-length-json 3 "'$tmp/long.json':1: line longer than 1048576 bytes" \
	'timeout 20 "$bin" trace info --strict "$tmp/long.json"'

# --- timestamps (trace/text.c): below 2^63 ns; CPUs: those of the platform (at most 64) --------
{ head -2 traces/juno-r0/rtapp_switch/trace.txt
  echo '  <...>-1701  [001]    9223372037.000000: sched_switch:          prev_comm=a prev_pid=1701 prev_prio=120 prev_state=64 next_comm=swapper/1 next_pid=0 next_prio=120'
} >"$tmp/ts.txt"
limit timestamp 3 "'$tmp/ts.txt':3: timestamp beyond 2^63 ns (9223372036.854775807 s)" \
	'"$bin" trace info --strict "$tmp/ts.txt"'
sed 's/9223372037\.000000/76.000000/; s/\[001\]/[5000]/' "$tmp/ts.txt" >"$tmp/cpu.txt"
limit cpu-platform 3 "'$tmp/cpu.txt':3: sched_switch on CPU 5000, but platform 'hikey960' has 8 CPUs (0-7)" \
	'"$bin" run "$tmp/cpu.txt"'

# --- CSV (trace/csv.c): a CPU below 4096 ----------------------------------------------------
printf 'time_s,cpu,util\n0.1,4096,10\n' >"$tmp/cpu.csv"
limit csv-cpu 3 "'$tmp/cpu.csv':2: bad cpu '4096'" 'timeout 20 "$bin" trace info --strict "$tmp/cpu.csv"'

# --- a lab recording's facts file (trace/facts.c): 1 MiB, lines of 1023 bytes -----------------
cp "$sf" "$tmp/lab.txt"
{ printf 'kernel_release = '; head -c 1100 /dev/zero | tr '\0' x; echo; } >"$tmp/lab.facts"
limit facts-line 3 "'$tmp/lab.facts':1: line longer than 1023 bytes" '"$bin" run "$tmp/lab.txt"'
{ echo '# padding'; head -c $(((1 << 20) + 1)) /dev/zero | tr '\0' '#'; echo; } >"$tmp/lab.facts"
limit facts-size 3 "'$tmp/lab.facts': 1048588 bytes: not a facts file" '"$bin" run "$tmp/lab.txt"'

# --- policy files (uclamp/policy.c) ----------------------------------------------------------
{ printf 'setattr comm=a uclamp_min=1 #'; head -c 5000 /dev/zero | tr '\0' x; echo; } >"$tmp/long-policy.txt"
limit policy-line 3 "'$tmp/long-policy.txt':1: line longer than 4096 bytes" \
	'"$bin" run "$sf" --policy "$tmp/long-policy.txt"'
limit policy-words 3 "'--action':1: too many words (at most 16)" \
	'"$bin" run "$sf" --action "setattr comm=a uclamp_min=1 a b c d e f g h i j k l m n"'
limit policy-lines 3 "'-':1000001: more than 1000000 lines" \
	'yes "# a comment" | timeout 60 "$bin" run "$sf" --policy -'
exit $fail
