#!/bin/bash
# bench.sh - throughput of `govsim trace info` and `govsim run` against `wc -l` on the same file,
# peak memory at two trace sizes, and the cost of uclamp with its static key off and on.
#
# usage: tools/bench.sh [LINES] [GOVSIM_BIN]     (default 4000000 lines, build/govsim)
#        env BENCH_REPEAT=N  N rounds (default 3): each round runs every row once, in the
#                            table's order; a row's timings are its best over the rounds
#
# Generates /tmp/govsim-bench-mix-LINES.txt and /tmp/govsim-bench-mix-LINES/4.txt with
# `govsim gen mix --size` (8 CPUs of hikey960, per CPU one RT and two CFS tasks: 24 tasks; kept
# for the next run; the same size gives the same bytes), reads each file once so that every tool
# sees it in the page cache, then times, in this one run:
#   wc -l                          the machine's line-scan speed
#   govsim trace read              the reader alone (a hidden command)
#   govsim trace info              the reader and the per-event accounting
#   govsim run                     schedutil, work timing, em power model, no policy
#   govsim run, key off            --action 'sysctl sched_util_clamp_min 1024' (writes the value
#                                  it already has: the uclamp static key stays off)
#   govsim run, clamps on          --action 'setattr comm=* uclamp_min=100 uclamp_max=900'
#   govsim run, placement eas      --placement eas: every wakeup placed as v5.9 would
#                                  (target: within 2x the CPU time of the traced placement)
#   govsim run at LINES/4          the same run on a quarter of the trace: peak RSS must not grow
#   govsim sweep, 8 configurations --set rate_limit_us=10000,...,17000 --jobs 2 --db: the trace
#                                  read (and hashed) once in the parent, then 8 replays from
#                                  memory in forked workers, each stored (their CPU time counted:
#                                  wait4() includes reaped children); rate limits of 10 ms and more
#                                  (a shorter one makes a replay dearer: more evaluations)
#   govsim tune, 8 points          --vary 'rate_limit_us=?[10000:17000:1000]' --minimize energy
#                                  --grid 8: the 8 values in one round, read once, not stored
#   Perfetto: trace read, run      the same traces as Perfetto protobuf (tools/ftrace_to_perfetto.py:
#                                  typed events, per-CPU bundles every 50 ms), kept beside them
#                                  as .pftrace: the reader's CPU per event must not exceed the
#                                  text reader's, and its peak RSS must not grow with the file
#   govsim --version               a line under the table: what every govsim row pays to start;
#                                  its text heads the table (the build type, LTO, PGO)
# For each: wall and CPU seconds (user+sys, from wait4(), microseconds), events/s, MB/s, peak RSS
# (ru_maxrss) and the ratio to wc -l. Ratios use CPU time, which does not count time spent
# waiting for a core on a shared machine; wall time is printed beside it (and, for run, as a
# ratio too: the reader runs ahead on a second core, so a run's wall time is less than its CPU
# time). Then the targets, each ok or MISSED: trace read
# within 3x wc -l (and 2 GB/s), trace info 3.5x, run 8x (and 6 M events/s), clamps on within
# 1.15x of run and key off within 2%, placement eas within 1.5x of run with the peak RSS of run
# (within 10%), peak RSS of run the same at both sizes, Perfetto read within 0.8x of the text
# read, and a sweep of N configurations and a tune of N points within one parse and N replays:
# trace read + N x (run - trace read). Exits 0 even when a target is missed (the table says so):
# it is a measurement, not a test.
set -eu
lines=${1:-4000000}
bin=${2:-build/govsim}
repeat=${BENCH_REPEAT:-3}
quarter=$((lines / 4))
file=/tmp/govsim-bench-mix-$lines.txt
small=/tmp/govsim-bench-mix-$quarter.txt

[ -x "$bin" ] || { echo "bench.sh: no govsim binary at '$bin' (build first or pass its path)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "bench.sh: python3 missing (tools/setup.sh)" >&2; exit 2; }
case $lines in '' | *[!0-9]*) echo "bench.sh: LINES must be a number, not '$lines'" >&2; exit 2 ;; esac

for f in "$file:$lines" "$small:$quarter"; do
	if [ ! -s "${f%%:*}" ]; then
		echo "generating ${f%%:*} (${f##*:} lines)..."
		"$bin" gen mix --size "${f##*:}" --seed 1 -o "${f%%:*}"
	fi
	if [ ! -s "${f%%:*}.pftrace" ]; then
		echo "converting ${f%%:*} to Perfetto..."
		python3 "$(dirname "$0")/ftrace_to_perfetto.py" "${f%%:*}" "${f%%:*}.pftrace"
	fi
	cat "${f%%:*}" "${f%%:*}.pftrace" >/dev/null
done

# measure REPEAT CMD...: runs CMD (stdout to /dev/null) REPEAT times; prints the best wall
# and CPU seconds and the largest peak RSS in kB. wait4() gives this child's own rusage. A small
# C program, not Python: a child that Python forks pays, before its exec, for the copy of the
# interpreter's address space it tears down (about 10 ms of CPU on the 2-core build machine,
# twice what /bin/true costs whole), and its peak RSS starts at the interpreter's (10 MB), a
# floor under every row's.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
measure=$work/measure
cat >"$work/measure.c" <<'EOF'
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	double best_wall = 1e30, best_cpu = 1e30;
	long rss = 0;
	int repeat = argc > 2 ? atoi(argv[1]) : 0;

	if (repeat < 1)
		return 2;
	for (int i = 0; i < repeat; i++) {
		struct timespec t0, t1;
		struct rusage ru;
		double wall, cpu;
		int status, fd;
		pid_t pid;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		pid = fork();
		if (pid == 0) {
			fd = open("/dev/null", O_WRONLY);
			if (fd >= 0)
				dup2(fd, 1);
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
			return perror("bench.sh: measure"), 2;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "bench.sh: '%s' failed (status %d)\n", argv[2], status);
			return 1;
		}
		wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
		      (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
		best_wall = wall < best_wall ? wall : best_wall;
		best_cpu = cpu < best_cpu ? cpu : best_cpu;
		rss = ru.ru_maxrss > rss ? ru.ru_maxrss : rss;
	}
	printf("%.6f %.6f %ld\n", best_wall, best_cpu, rss);
	return 0;
}
EOF
"${CC:-cc}" -O2 -o "$measure" "$work/measure.c" ||
	{ echo "bench.sh: cannot compile its timer with '${CC:-cc}' (tools/setup.sh)" >&2; exit 2; }

events=$("$bin" trace read "$file" | awk '{print $1}')
small_events=$("$bin" trace read "$small" | awk '{print $1}')
bytes=$(stat -c %s "$file")
small_bytes=$(stat -c %s "$small")
pf_bytes=$(stat -c %s "$file.pftrace")
pf_small_bytes=$(stat -c %s "$small.pftrace")

# bench LABEL FILE CMD...: one row of the table, run in each round below. Rounds, not a row's
# runs back to back: a ratio compares rows (clamps on / run, eas / run, a sweep / its parts),
# and the host's load changes over the minutes a bench takes (another job starts, a core is
# taken away for a while): back to back, a row measured in a slow minute is compared with a
# reference measured in a quick one. Run in turn, every row's best comes from the same rounds.
labels=() files=() cmds=()
bench() {
	labels+=("$1")
	files+=("$2")
	shift 2
	cmds+=("$(printf '%q ' "$@")")
}

bench "wc -l" "$file" wc -l "$file"
bench "govsim trace read" "$file" "$bin" trace read "$file"
bench "govsim trace info" "$file" "$bin" trace info "$file"
bench "govsim run" "$file" "$bin" run "$file" --quiet
bench "govsim run, key off" "$file" "$bin" run "$file" --quiet --action 'sysctl sched_util_clamp_min 1024'
bench "govsim run, clamps on" "$file" "$bin" run "$file" --quiet --action 'setattr comm=* uclamp_min=100 uclamp_max=900'
bench "govsim run, 1/4 size" "$small" "$bin" run "$small" --quiet
bench "perfetto trace read" "$file.pftrace" "$bin" trace read "$file.pftrace"
bench "perfetto run" "$file.pftrace" "$bin" run "$file.pftrace" --quiet
bench "perfetto read, 1/4 size" "$small.pftrace" "$bin" trace read "$small.pftrace"
bench "govsim run, placement eas" "$file" "$bin" run "$file" --quiet --placement eas
bench "govsim sweep, 8 configs" "$file" "$bin" sweep "$file" --quiet --jobs 2 --db "$work/sweep.db" \
	--set rate_limit_us=10000,11000,12000,13000,14000,15000,16000,17000
tune_cmd=("$bin" tune "$file" --quiet --jobs 2 --vary 'rate_limit_us=?[10000:17000:1000]' --minimize energy
	--grid 8)
tune_replays=$("${tune_cmd[@]}" | sed -n 's/^runs: .* \([0-9]*\) replays$/\1/p')
bench "govsim tune, $tune_replays points" "$file" "${tune_cmd[@]}"

# What starting the program costs (loading its shared libraries), in every row above
bench "--version" "" "$bin" --version

# REPEAT rounds of every row; per row the best wall and CPU time and the largest peak RSS
declare -a best
for ((round = 0; round < repeat; round++)); do
	for i in "${!cmds[@]}"; do
		out=$(eval "\"\$measure\" 1 ${cmds[$i]}") || exit 1
		best[i]=$(awk -v a="${best[i]:-}" -v b="$out" 'BEGIN {
			if (a == "") { print b; exit }
			split(a, x, " "); split(b, y, " ")
			printf "%.6f %.6f %d\n", (y[1] < x[1] ? y[1] : x[1]), (y[2] < x[2] ? y[2] : x[2]),
			       (y[3] > x[3] ? y[3] : x[3]) }')
	done
done
results=""
last=$((${#cmds[@]} - 1))
for ((i = 0; i < last; i++)); do
	results="$results${labels[i]}|${files[i]}|${best[i]}
"
done
start=${best[last]}

version=$("$bin" --version)
printf '%s' "$results" | awk -F'|' -v file="$file" -v small="$small" -v bytes="$bytes" \
    -v start="$start" -v version="$version" \
    -v sbytes="$small_bytes" -v lines="$lines" -v ev="$events" -v sev="$small_events" \
    -v repeat="$repeat" -v pbytes="$pf_bytes" -v psbytes="$pf_small_bytes" -v tn="$tune_replays" '
function row(i,  mb, n, cpu) {
	mb = (f[i] == small ? sbytes : f[i] == small ".pftrace" ? psbytes : \
	      f[i] == file ".pftrace" ? pbytes : bytes) / 1e6
	n = (i == 1) ? lines : (f[i] == small || f[i] == small ".pftrace" ? sev : ev)
	cpu = c[i] < 0.0005 ? 0.0005 : c[i]
	printf "%-24s %7.3f %7.3f %13.0f %8.0f %8.1f MB %8.2f\n", name[i], w[i], c[i], n / cpu, \
	       mb / cpu, r[i] / 1024, cpu / (c[1] < 0.0005 ? 0.0005 : c[1])
}
{ name[NR] = $1; f[NR] = $2; split($3, v, " "); w[NR] = v[1]; c[NR] = v[2]; r[NR] = v[3] }
END {
	printf "%s\n", version
	printf "file: %s, %.1f MB, %d lines, %d events (best of %d rounds)\n", file, bytes / 1e6, lines, ev, repeat
	printf "      %s, %.1f MB, %d events, for the 1/4 size row\n", small, sbytes / 1e6, sev
	printf "%-24s %7s %7s %13s %8s %11s %8s\n", "", "wall s", "cpu s", "events/s", "MB/s", "peak RSS", "x wc -l"
	for (i = 1; i <= NR; i++)
		row(i)
	split(start, v, " ")
	printf "(starting govsim, --version: %.3f s CPU, %.1f MB peak RSS, counted in each govsim row)\n",
	       v[2], v[3] / 1024
	base = c[4]
	read = c[2]
	replay = c[4] - c[2] # the cost of a run beyond its parse
	printf "\ntargets\n"
	t("trace read / wc -l (cpu)", c[2] / c[1], "<= 3", c[2] / c[1] <= 3)
	t("trace read, GB/s", bytes / 1e9 / c[2], ">= 2", bytes / 1e9 / c[2] >= 2)
	t("trace info / wc -l (cpu)", c[3] / c[1], "<= 3.5", c[3] / c[1] <= 3.5)
	t("run / wc -l (cpu)", c[4] / c[1], "<= 8", c[4] / c[1] <= 8)
	t("run, M events/s (cpu)", ev / c[4] / 1e6, ">= 6", ev / c[4] / 1e6 >= 6)
	t("run / wc -l (wall)", w[4] / w[1], "<= 8", w[4] / w[1] <= 8)
	t("run key off / run", c[5] / base, "<= 1.02", c[5] / base <= 1.02)
	t("run clamps on / run", c[6] / base, "<= 1.15", c[6] / base <= 1.15)
	t("run --placement eas / run", c[11] / base, "<= 1.5", c[11] / base <= 1.5)
	t("peak RSS, eas / run", r[11] / r[4], "<= 1.10", r[11] / r[4] <= 1.10)
	t("peak RSS of run, full / 1/4", r[4] / r[7], "<= 1.10", r[4] / r[7] <= 1.10)
	t("perfetto read / text read", c[8] / c[2], "<= 0.8", c[8] / c[2] <= 0.8)
	t("perfetto read RSS, full / 1/4", r[8] / r[10], "<= 1.10", r[8] / r[10] <= 1.10)
	printf "  (one parse = trace read, %.3f s; one replay = run - trace read, %.3f s)\n", read, replay
	t("sweep 8 / (parse + 8 replays)", c[12] / (read + 8 * replay), "<= 1", c[12] <= read + 8 * replay)
	t("tune " tn " / (parse + " tn " replays)", c[13] / (read + tn * replay), "<= 1",
	  c[13] <= read + tn * replay)
}
# t(WHAT, VALUE, TARGET, OK): one line of the targets
function t(what, v, target, ok) {
	printf "  %-34s %8.3f   target %-8s %s\n", what, v, target, ok ? "ok" : "MISSED"
}'
