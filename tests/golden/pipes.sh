#!/bin/bash
# pipes.sh - a trace from a pipe, a FIFO, `<(cmd)` or stdin gives the same run as the file.
#
# Invariant: every command reads a once-only input exactly once (`run <(cat t)`
# opening the path twice would replay only what the second open found, 1443 of 1861 events,
# with exit 0). Each case compares the output from the pipe with the output from the file
# itself (the regular-file path is the independent reference), apart from the line that names
# the input; and expects no warning on stderr.
# Does not check: the summaries' numbers (golden.run does).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init pipes
sf=traces/android-8cpu/surfaceflinger.txt
dat=traces/juno-r0/sched_load/trace.dat

# same_as_file NAME FILE_OUTPUT PIPE_OUTPUT: equal apart from lines naming the input; nothing on the
# pipe run's stderr ($tmp/err)
same_as_file() {
	grep -vE '^(trace|file): ' "$2" >"$2.input-unnamed"
	grep -vE '^(trace|file): ' "$3" >"$3.input-unnamed"
	golden_same "$1: output against the file's" "$2.input-unnamed" "$3.input-unnamed"
	golden_empty "$1: stderr" "$tmp/err"
}

"$bin" run "$sf" >"$tmp/file.txt" 2>&1
"$bin" run <(cat "$sf") >"$tmp/pipe.txt" 2>"$tmp/err"
same_as_file "run <(cat)" "$tmp/file.txt" "$tmp/pipe.txt"
cat "$sf" | "$bin" run - >"$tmp/pipe.txt" 2>"$tmp/err"
same_as_file "run - (stdin pipe)" "$tmp/file.txt" "$tmp/pipe.txt"
"$bin" run - <"$sf" >"$tmp/pipe.txt" 2>"$tmp/err"
same_as_file "run - (stdin file)" "$tmp/file.txt" "$tmp/pipe.txt"

"$bin" run --baselines --governor ondemand "$sf" >"$tmp/file.txt" 2>&1
"$bin" run --baselines --governor ondemand <(gzip -c "$sf") >"$tmp/pipe.txt" 2>"$tmp/err"
same_as_file "run --baselines <(gzip -c)" "$tmp/file.txt" "$tmp/pipe.txt"

mkfifo "$tmp/fifo"
"$bin" validate --platform juno-r0 "$dat" >"$tmp/file.txt" 2>&1
cat "$dat" >"$tmp/fifo" &
"$bin" validate --platform juno-r0 "$tmp/fifo" | sed 1d >"$tmp/pipe.txt" 2>"$tmp/err"
wait
# the file's name and the hint from the plat_info.yml beside it (a FIFO has none) differ
sed -i -e 1d -e '/plat_info.yml beside the trace/d' "$tmp/file.txt"
same_as_file "validate FIFO (trace.dat)" "$tmp/file.txt" "$tmp/pipe.txt"

"$bin" trace info "$sf" | grep -v '^format:' >"$tmp/file.txt" 2>&1
"$bin" trace info <(gzip -c "$sf") >"$tmp/pipe.txt" 2>"$tmp/err"
grep -q '^format: *ftrace text, gzip' "$tmp/pipe.txt" ||
	golden_fail "trace info <(gzip -c): not read as gzip"
sed -i '/^format:/d' "$tmp/pipe.txt"
same_as_file "trace info <(gzip -c)" "$tmp/file.txt" "$tmp/pipe.txt"

# a sweep's jobs run in forked processes: each reads the same copy; stored runs carry the
# trace's own SHA-256 and all its events
"$bin" sweep <(cat "$sf") --governor schedutil --governor performance --db "$tmp/s.db" \
	>/dev/null 2>"$tmp/err"
# (its events by type: 715 sched_switch, 421 sched_wakeup, 104 cpu_frequency, 621 cpu_idle and
# 366 sugov_set_iowait_boost, 2227 in all)
want="$(sha256sum <"$sf" | cut -d' ' -f1)|2227"
got=$(sqlite3 "$tmp/s.db" "SELECT DISTINCT trace_sha256 || '|' || events FROM runs")
n=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM runs")
golden_equal "sweep <(cat): stored trace_sha256|events" "$got" "$want"
golden_equal "sweep <(cat): stored runs" "$n" 2
exit $fail
