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
cd "${GOVSIM_SOURCE_DIR:-.}" || exit 1
bin=${GOVSIM_BIN:?GOVSIM_BIN is not set}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
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
		echo "limits.sh: $name: $why" >&2
		echo "  command: $*" >&2
		sed 's/^/  stderr: /' "$tmp/err" | head -5 >&2
		fail=1
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
# 80 MiB of newlines compress to ~80 KB: the floor, 64 MiB (67108864 bytes), is the limit
{ head -3 traces/juno-r0/rtapp_switch/trace.txt; head -c $((80 << 20)) /dev/zero | tr '\0' '\n'; } |
	gzip -9 >"$tmp/bomb.gz"
size=$(stat -c %s "$tmp/bomb.gz")
limit gzip-bomb 3 "'$tmp/bomb.gz': decompresses to more than 67108864 bytes, the limit for a $size-byte file (100 times its size, at least 64 MiB): not a trace, or a decompression bomb" \
	'timeout 20 "$bin" trace info "$tmp/bomb.gz"'
limit gzip-bomb-run 3 "'$tmp/bomb.gz': decompresses to more than 67108864 bytes" \
	'timeout 20 "$bin" run "$tmp/bomb.gz"'
exit $fail
