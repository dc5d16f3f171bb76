#!/bin/bash
# bench.sh - throughput of the text trace reader against `wc -l` on the same file.
#
# usage: tools/bench.sh [LINES] [GOVSIM_BIN]     (default 5000000 lines, build/govsim)
# Generates /tmp/govsim-bench-LINES.txt with `govsim gen periodic --size LINES` (kept for the
# next run), then times, in this one run: `wc -l`, `govsim trace read` (the reader alone, a
# hidden command) and `govsim trace info`. For each: seconds, events/s (lines/s for wc), MB/s,
# peak RSS (GNU time %M, package `time`), and the ratio to wc -l. The file is read once before
# timing so that every tool sees it in the page cache.
set -eu
lines=${1:-5000000}
bin=${2:-build/govsim}
file=/tmp/govsim-bench-$lines.txt
gnutime=/usr/bin/time

[ -x "$bin" ] || { echo "bench.sh: no govsim binary at '$bin' (build first or pass its path)" >&2; exit 2; }
[ -x "$gnutime" ] || { echo "bench.sh: GNU time missing: install the package 'time' (tools/setup.sh)" >&2; exit 2; }

if [ ! -s "$file" ]; then
	echo "generating $file ($lines lines)..."
	"$bin" gen periodic --size "$lines" --seed 1 -o "$file"
fi
bytes=$(stat -c %s "$file")
cat "$file" >/dev/null

# run NAME CMD...: sets secs and rss_kb
run() {
	local out
	out=$( { "$gnutime" -f '%e %M' "$@" >/dev/null; } 2>&1 | tail -1)
	secs=${out% *}
	rss_kb=${out#* }
}

events=$("$bin" trace read "$file" | awk '{print $1}')
run wc -l "$file"; wc_s=$secs; wc_rss=$rss_kb
run "$bin" trace read "$file"; rd_s=$secs; rd_rss=$rss_kb
run "$bin" trace info "$file"; in_s=$secs; in_rss=$rss_kb

awk -v bytes="$bytes" -v lines="$lines" -v ev="$events" \
    -v wc_s="$wc_s" -v wc_rss="$wc_rss" -v rd_s="$rd_s" -v rd_rss="$rd_rss" \
    -v in_s="$in_s" -v in_rss="$in_rss" -v file="$file" 'BEGIN {
	mb = bytes / 1e6
	m = 0.005 # GNU time resolution: 10 ms; avoid dividing by zero
	if (wc_s < m) wc_s = m; if (rd_s < m) rd_s = m; if (in_s < m) in_s = m
	printf "file: %s, %.1f MB, %d lines, %d events\n", file, mb, lines, ev
	printf "%-22s %8s %14s %9s %10s %9s\n", "tool", "seconds", "events/s", "MB/s", "peak RSS", "x wc -l"
	printf "%-22s %8.2f %14.0f %9.0f %7.1f MB %9.2f\n", "wc -l", wc_s, lines / wc_s, mb / wc_s, wc_rss / 1024, 1
	printf "%-22s %8.2f %14.0f %9.0f %7.1f MB %9.2f\n", "govsim trace read", rd_s, ev / rd_s, mb / rd_s, rd_rss / 1024, rd_s / wc_s
	printf "%-22s %8.2f %14.0f %9.0f %7.1f MB %9.2f\n", "govsim trace info", in_s, ev / in_s, mb / in_s, in_rss / 1024, in_s / wc_s
}'
