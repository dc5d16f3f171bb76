#!/bin/bash
# bad_inputs.sh - the malformed-input corpus (tests/fixtures/bad/) through the govsim CLI.
#
# Invariant: bad input never crashes govsim and always ends with the exit status of the design
# (3 bad input, 1 unreadable file) and one message in the project's style that names the file
# and, where a line is at fault, its line: "govsim: 'file':LINE: what". Platform models name the
# table and row instead of a line (rows are validated after the SQL has run). Each case gives the
# exit status and the message expected, as reviewed by hand from the fixture; a case passes when
# the status is equal and a line of stderr is "govsim: " followed by the message (a prefix match,
# so the message may go on after it; give the whole message where there is one).
# Does not check: the numbers of runs that succeed (other golden tests), warnings' layout.
#
# `known` cases are behaviour reported to the owners and not yet fixed: they print what differs
# but do not fail the test, and say so when they start to pass (then make them plain cases).
# Run from the source root with GOVSIM_BIN set (see tests/CMakeLists.txt).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init bad_inputs.sh
cp tests/fixtures/bad/* traces/android-8cpu/surfaceflinger.txt "$tmp/"
cp traces/juno-r0/rtapp_switch/trace.txt "$tmp/traces-tracecmd.txt"
fail=0 known_open=0 n=0

# run_case KIND NAME STATUS MESSAGE CMD...: KIND is "case" or "known"; MESSAGE "-" wants none.
run_case() {
	local kind=$1 name=$2 want=$3 msg=$4 status why=""
	shift 4
	n=$((n + 1))
	(cd "$tmp" && "$@") >"$tmp/out" 2>"$tmp/err"
	status=$?
	if [ "$status" -ne "$want" ]; then
		why="exit status $status, expected $want"
	elif [ "$msg" != "-" ] && ! grep -qF -- "govsim: $msg" "$tmp/err"; then
		why="no message 'govsim: $msg'"
	elif grep -qE 'runtime error|AddressSanitizer|LeakSanitizer' "$tmp/err"; then
		why="sanitizer report"
	fi
	if [ -n "$why" ]; then
		if [ "$kind" = known ]; then
			echo "bad_inputs.sh: $name: known issue (reported, not fixed): $why"
			known_open=$((known_open + 1))
		else
			golden_fail "$name: $why"
			echo "  command: $*"
			sed 's/^/  stderr: /' "$tmp/err" | head -5
		fi
	elif [ "$kind" = known ]; then
		echo "bad_inputs.sh: $name: known issue now passes: make it a plain case"
	fi
}
case_() { run_case case "$@"; }
known() { run_case known "$@"; }

sf=surfaceflinger.txt

# --- ftrace text: trace info --strict fails on the first bad line --------------------------
info() { "$bin" trace info --strict "$@"; }
case_ truncated-line 3 "'trace-truncated-line.txt':6: sched_switch: bad prev_pid value '10 pr'" info trace-truncated-line.txt
case_ wrong-type 3 "'trace-wrong-type.txt':5: sched_switch: bad next_pid value 'ten'" info trace-wrong-type.txt
case_ negative-target-cpu 3 "'trace-negative-target-cpu.txt':4: sched_wakeup without target_cpu" info trace-negative-target-cpu.txt
case_ huge-pid 3 "'trace-huge-pid.txt':5: sched_switch: bad next_pid value '99999999999999999999'" info trace-huge-pid.txt
case_ huge-prio 3 "'trace-huge-prio.txt':5: sched_switch: bad next_prio value '99999999999'" info trace-huge-prio.txt
case_ huge-timestamp 3 "'trace-huge-timestamp.txt':5: " info trace-huge-timestamp.txt
case_ nan-timestamp 3 "'trace-nan-timestamp.txt':5: " info trace-nan-timestamp.txt
case_ negative-timestamp 3 "'trace-negative-timestamp.txt':5: " info trace-negative-timestamp.txt
case_ nan-frequency 3 "'trace-nan-frequency.txt':5: cpu_frequency: bad state value 'nan'" info trace-nan-frequency.txt
case_ huge-frequency 3 "'trace-huge-frequency.txt':5: cpu_frequency: bad state value '999999999999'" info trace-huge-frequency.txt
backwards="'trace-time-backwards.txt':8: sched_wakeup at 0.500100000 is older than an event already delivered (beyond the re-ordering window)"
case_ time-backwards 3 "$backwards" info trace-time-backwards.txt
case_ empty 3 "'trace-empty.txt': empty trace" info trace-empty.txt
case_ binary 3 "'trace-binary.bin': not a trace (binary data)" info trace-binary.bin
case_ truncated-gzip 3 "'trace-truncated.txt.gz': " info trace-truncated.txt.gz
# a .gz cut short (no trailer, so no CRC check) or failing its CRC is bad input, not a shorter
# trace, with or without --strict (exit 3)
# a trace.dat missing its last byte or page (an interrupted copy) is bad input (exit 3), not a
# crash inside libtracecmd; its CPU 5 data is the last in the file (16384 bytes at 3420160)
dat=traces/juno-r0/sched_load/trace.dat
head -c -1 "$dat" >"$tmp/trace-cut-byte.dat"
head -c -4096 "$dat" >"$tmp/trace-cut-page.dat"
case_ dat-cut-byte 3 "'trace-cut-byte.dat': damaged trace.dat: CPU 5's data (16384 bytes at byte 3420160) runs past the end of the file (3436543 bytes; truncated?)" "$bin" run --quiet trace-cut-byte.dat
case_ dat-cut-page 3 "'trace-cut-page.dat': damaged trace.dat: CPU 5's data (16384 bytes at byte 3420160) runs past the end of the file (3432448 bytes; truncated?)" "$bin" trace info trace-cut-page.dat
# a page whose commit (its bytes of events) exceeds the page's data field (4096 - 16 bytes, from
# header_page) made libtracecmd fail the open and crash in its clean-up (fuzzing, exit 139):
# CPU 5's first page (byte 3420160) says 4081 bytes, one more than a page holds
cp "$dat" "$tmp/trace-big-commit.dat"
printf '\361\017\000\000\000\000\000\000' | dd of="$tmp/trace-big-commit.dat" bs=1 seek=3420168 conv=notrunc status=none
case_ dat-page-commit 3 "'trace-big-commit.dat': damaged trace.dat: CPU 5's page at byte 3420160 holds 4081 bytes of events, more than a page's 4080" "$bin" run --quiet trace-big-commit.dat
# an event format whose print fmt names a field the event does not have: libtraceevent's
# process_entry() dereferences the failed field lookup after __print_flags( (fuzzing, exit 139;
# tests/fuzz/corpus/dat/print-*-unknown-field.dat): sched_switch's REC->prev_state -> prev_statx
cp "$dat" "$tmp/trace-bad-fmt.dat"
off=$(grep -obUa '__print_flags(REC->prev_state' "$dat" | cut -d: -f1)
printf 'x' | dd of="$tmp/trace-bad-fmt.dat" bs=1 seek=$((off + 28)) conv=notrunc status=none
case_ dat-print-fmt 3 "'trace-bad-fmt.dat': damaged trace.dat: event sched/sched_switch: its print fmt names REC->prev_statx, which is not one of its fields" "$bin" run --quiet trace-bad-fmt.dat
# a print fmt the pre-check lets through but libtraceevent's parser crashes on: process_op()
# goes on with a NULL operand when an unknown operator follows `x[i]` (`m[6][7]`; fuzzing). The
# formats are parsed in a child first (dat_sandbox.c): exit 3 naming the format, no crash (139).
cp "$dat" "$tmp/trace-bad-index.dat"
off=$(grep -obUa 'REC->next_pid, REC->next_prio' "$dat" | tail -n 1 | cut -d: -f1) # sched_switch's (ftrace's wakeup and context_switch come first)
printf 'm[6][7]       ' | dd of="$tmp/trace-bad-index.dat" bs=1 seek=$((off + 16)) conv=notrunc status=none
case_ dat-trial-parse 3 "'trace-bad-index.dat': damaged trace.dat: libtraceevent cannot parse event sched/sched_switch's format (a trial parse: " "$bin" run --quiet trace-bad-index.dat
# a latency tracer's trace.dat (data section "latency", text instead of per-CPU records):
# libtracecmd leaves its CPU data unset and reading a CPU's first record crashed (fuzzing)
cp "$dat" "$tmp/trace-latency.dat"
off=$(grep -obUa 'flyrecord' "$dat" | head -n 1 | cut -d: -f1)
printf 'latency  ' | dd of="$tmp/trace-latency.dat" bs=1 seek="$off" conv=notrunc status=none
case_ dat-latency 3 "'trace-latency.dat': a latency tracer's trace.dat (its data is text, not per-CPU event records) is not supported: record events instead (trace-cmd record -e sched -e power)" "$bin" run --quiet trace-latency.dat
case_ half-gzip 3 "'trace-half.txt.gz': truncated gzip stream (it ends before its trailer and CRC)" "$bin" run --quiet trace-half.txt.gz
case_ bad-crc-gzip 3 "'trace-bad-crc.txt.gz': corrupt gzip stream: incorrect data check" "$bin" run --quiet trace-bad-crc.txt.gz
case_ no-events 3 "'trace-no-events.txt': no usable event in 3 lines" info trace-no-events.txt
# exit 3 for every input the command line names that is missing, a directory or unknown
case_ missing-file 3 "'no-such-trace.txt': cannot open: No such file or directory" info no-such-trace.txt
case_ run-missing-file 3 "'no-such-trace.txt': cannot open: No such file or directory" "$bin" run no-such-trace.txt
case_ trace-directory 3 "'.': is a directory" "$bin" run .
case_ unknown-platform 3 "'no-such-board': no such built-in platform" "$bin" run $sf --platform no-such-board
case_ missing-platform-file 3 "'no-such-model.sql': cannot open: No such file or directory" "$bin" run $sf --platform no-such-model.sql
case_ compare-missing-db 3 "'no-such.db': No such file or directory" "$bin" compare --db no-such.db --base governor=schedutil --new governor=performance
case_ report-missing-db 3 "'no-such.db': no such results database" "$bin" report --db no-such.db --out report
# --format tracecmd (as README and --help spell it) and trace-cmd, in every command
case_ format-tracecmd-info 0 - "$bin" trace info --format tracecmd traces-tracecmd.txt
case_ format-tracecmd-run 0 - "$bin" run --quiet --format tracecmd traces-tracecmd.txt
case_ format-trace-cmd-run 0 - "$bin" run --quiet --format trace-cmd traces-tracecmd.txt
# validate replays the traced configuration: a what-if option is refused, not ignored
case_ validate-policy 2 "validate takes no --policy/--action" "$bin" validate --platform juno-r0 --action 'setattr comm=* uclamp_max=300' traces-tracecmd.txt
case_ validate-warmup 2 "validate takes no --warmup-ms" "$bin" validate --platform juno-r0 --warmup-ms 10 traces-tracecmd.txt
case_ format-tracecmd-validate 3 "'traces-tracecmd.txt': nothing to validate against" "$bin" validate --platform juno-r0 --format tracecmd traces-tracecmd.txt

# --- a foreign SQLite file as --db: refused before replaying, left untouched --------
sqlite3 "$tmp/foreign.db" "CREATE TABLE runs (a, b); INSERT INTO runs VALUES (1, 2);"
cp "$tmp/foreign.db" "$tmp/foreign-copy.db"
case_ foreign-db 3 "'foreign.db': an SQLite database, but not a govsim results database (1 tables, no govsim schema version): nothing was written to it" "$bin" run --quiet $sf --db foreign.db
case_ foreign-db-sweep 3 "'foreign.db': an SQLite database, but not a govsim results database" "$bin" sweep $sf --db foreign.db
if ! cmp -s "$tmp/foreign.db" "$tmp/foreign-copy.db"; then
	golden_fail "foreign-db: the foreign database was changed"
fi
echo "not a database" >"$tmp/text.db"
case_ text-db 3 "'text.db': not a results database: file is not a database" "$bin" run --quiet $sf --db text.db
# --- --db that exists but is no regular file: refused before anything opens it (a FIFO blocked
# the open for ever; through a symlink to /dev/null SQLite wrote /dev/null-journal). `timeout`
# turns a hang into a failed case.
mkfifo "$tmp/fifo.db"
ln -s /dev/null "$tmp/null.db"
(cd "$tmp" && "$bin" run --quiet $sf --db ok.db) ||
	golden_fail "run --quiet $sf --db ok.db: exit $?"
case_ fifo-db 3 "'fifo.db': is a FIFO, not a regular file" timeout 20 "$bin" run --quiet $sf --db fifo.db
case_ fifo-db-sweep 3 "'fifo.db': is a FIFO, not a regular file" timeout 20 "$bin" sweep $sf --db fifo.db
case_ fifo-db-merge-out 3 "'fifo.db': is a FIFO, not a regular file" timeout 20 "$bin" merge fifo.db ok.db
case_ fifo-db-merge-in 3 "'fifo.db': is a FIFO, not a regular file" timeout 20 "$bin" merge merged.db fifo.db
case_ devnull-link-db 3 "'null.db': is a character device ('/dev/null'), not a regular file" timeout 20 "$bin" run --quiet $sf --db null.db
case_ devnull-link-db-sweep 3 "'null.db': is a character device ('/dev/null'), not a regular file" timeout 20 "$bin" sweep $sf --db null.db
case_ dir-db 3 "'.': is a directory, not a regular file" timeout 20 "$bin" run --quiet $sf --db .
if [ -e "$tmp/merged.db" ]; then
	golden_fail "fifo-db-merge-in: a refused merge created its output"
fi

# --- write errors: every output is checked (ferror/fclose), exit 1 naming it -------
if [ -w /dev/full ]; then
	case_ timeline-full 1 "'/dev/full': write error: No space left on device" "$bin" run --quiet $sf --timeline /dev/full
	case_ task-timeline-full 1 "'/dev/full': write error: No space left on device" "$bin" run --quiet $sf --task-timeline /dev/full
	case_ stdout-full 1 "write error on standard output: No space left on device" sh -c '"$0" run "$1" >/dev/full' "$bin" $sf
	case_ info-stdout-full 1 "write error on standard output: No space left on device" sh -c '"$0" trace info "$1" >/dev/full' "$bin" $sf
fi

# --- run: --strict like trace info; without it bad lines are skipped with a warning ---------
run() { "$bin" run --quiet "$@"; }
case_ run-strict-truncated-line 3 "'trace-truncated-line.txt':6: sched_switch: bad prev_pid value '10 pr'" run --strict trace-truncated-line.txt
case_ run-skips-truncated-line 0 "warning: 'trace-truncated-line.txt': 1 malformed line skipped" run trace-truncated-line.txt
case_ run-strict-time-backwards 3 "$backwards" run --strict trace-time-backwards.txt
case_ run-warns-time-backwards 0 "warning: 'trace-time-backwards.txt': 1 event older than the re-ordering window, replayed late" run trace-time-backwards.txt
case_ run-empty 3 "'trace-empty.txt': empty trace" run trace-empty.txt
case_ run-no-events 3 "'trace-no-events.txt': no usable event in 3 lines" run trace-no-events.txt

# --- CPUs the platform does not have ---------------------------------------------------------
case_ cpu9-on-8-cpus 3 "'trace-cpu9.txt':5: sched_switch on CPU 9, but platform 'hikey960' has 8 CPUs (0-7)" run trace-cpu9.txt
case_ cpu70-beyond-limit 3 "'trace-cpu70.txt':5: sched_switch on CPU 70, but platform 'hikey960' has 8 CPUs (0-7)" run trace-cpu70.txt
case_ frequency-cpu99 3 "'trace-frequency-cpu99.txt':5: cpu_frequency on CPU 99, but platform 'hikey960' has 8 CPUs (0-7)" run trace-frequency-cpu99.txt
case_ migrate-cpu12 3 "'trace-migrate-cpu12.txt':6: sched_migrate_task on CPU 12, but platform 'hikey960' has 8 CPUs (0-7)" run trace-migrate-cpu12.txt
# refused up front from the trace's header
case_ 8-cpu-trace-on-6-cpus 3 "'surfaceflinger.txt': the trace has 8 CPUs (its header) and platform 'juno-r0' 6: use a platform with at least 8 CPUs" run $sf --platform juno-r0

# --- CSV util traces ---------------------------------------------------------------------------
case_ csv-nan-util 3 "'csv-nan-util.csv':3: bad util (want 0..1024) 'nan'" info csv-nan-util.csv
case_ csv-negative-cpu 3 "'csv-negative-cpu.csv':3: bad cpu '-1'" info csv-negative-cpu.csv
case_ csv-huge-util 3 "'csv-huge-util.csv':3: bad util (want 0..1024) '99999999999999999999999'" info csv-huge-util.csv
case_ csv-short-row 3 "'csv-short-row.csv':3: 2 cells, the header has 3 columns" info csv-short-row.csv
case_ csv-unknown-column 3 "'csv-unknown-column.csv':1: unknown column 'utl'" info csv-unknown-column.csv
case_ csv-run-unknown-column 3 "'csv-unknown-column.csv':1: unknown column 'utl'" run csv-unknown-column.csv --util-source trace
case_ csv-exponent-time 3 "'csv-exponent-time.csv':2: bad time_s '1e-1'" info csv-exponent-time.csv
case_ csv-negative-time 3 "'csv-negative-time.csv':2: bad time_s '-0.100000'" info csv-negative-time.csv
case_ csv-open-quote 3 "'csv-open-quote.csv':2: bad util (want 0..1024) '100" info csv-open-quote.csv
# util is 0..1024 (tests/fixtures/traces/README-csv.md): 2000 should be a bad row.
case_ csv-util-over-1024 3 "'csv-util-over-1024.csv':3: bad util (want 0..1024) '2000'" info csv-util-over-1024.csv
# Samples of CPU 9 on an 8-CPU platform are dropped silently by the replay (src/sim/sim.c
# sim_trace_util), where a text trace's events fail as above.
case_ csv-cpu9-on-8-cpus 3 "'csv-cpu9.csv':3: " run csv-cpu9.csv --util-source trace

# --- clamp policies: parse errors, before anything runs ----------------------------------------
case_ policy-min-out-of-range 3 "'policy-min-out-of-range.txt':2: uclamp_min 2000 out of range 0..1024" run $sf --policy policy-min-out-of-range.txt
case_ policy-negative 3 "'policy-negative.txt':2: bad uclamp_max '-1' (want 0..1024)" run $sf --policy policy-negative.txt
case_ policy-huge 3 "'policy-huge.txt':2: bad uclamp_min '99999999999999999999' (want 0..1024)" run $sf --policy policy-huge.txt
case_ policy-min-gt-max 3 "'policy-min-gt-max.txt':3: uclamp_min 800 > uclamp_max 300" run $sf --policy policy-min-gt-max.txt
case_ policy-sysctl-min-gt-max 3 "'policy-sysctl-min-gt-max.txt':4: sched_util_clamp_min 200 > sched_util_clamp_max 100" run $sf --policy policy-sysctl-min-gt-max.txt
case_ policy-sysctl-out-of-range 3 "'policy-sysctl-out-of-range.txt':2: sched_util_clamp_min 1025 out of range 0..1024" run $sf --policy policy-sysctl-out-of-range.txt
case_ policy-percent-over-100 3 "'policy-percent-over-100.txt':3: '101': percent out of range 0..100" run $sf --policy policy-percent-over-100.txt
case_ policy-nan-percent 3 "'policy-nan-percent.txt':2: 'nan': not a percent (want 0..100 with up to 2 decimals, or max)" run $sf --policy policy-nan-percent.txt
case_ policy-nan-time 3 "'policy-nan-time.txt':2: bad time 'nan' (want seconds from the trace start, e.g. at 0.5)" run $sf --policy policy-nan-time.txt
case_ policy-negative-time 3 "'policy-negative-time.txt':2: bad time '-1' (want seconds from the trace start, e.g. at 0.5)" run $sf --policy policy-negative-time.txt
case_ policy-unknown-action 3 "'policy-unknown-action.txt':3: unknown action 'frobnicate' (want setattr, sysctl, cgroup, attach or affinity)" run $sf --policy policy-unknown-action.txt
# a setattr without a clamp is sched_setattr() without SCHED_FLAG_UTIL_CLAMP: valid
case_ policy-no-clamp 0 - run $sf --policy policy-no-clamp.txt
case_ policy-root-cgroup 3 "'policy-root-cgroup.txt':2: '/': cpu.uclamp.min does not exist on the root cgroup" run $sf --policy policy-root-cgroup.txt
# attach to a cgroup never created is ENOENT in the kernel: `cgroup PATH` alone creates it
case_ policy-attach-undefined 3 "'policy-attach-undefined.txt':2: attach to cgroup '/top-app', which does not exist then (ENOENT): create it first with 'cgroup /top-app' or a cgroup write" run $sf --policy policy-attach-undefined.txt
case_ action-attach-created 0 - run $sf --action 'cgroup /top-app' --action 'attach comm=surfaceflinger /top-app'
case_ action-min-gt-max 3 "'--action':1: uclamp_min 900 > uclamp_max 100" run $sf --action 'setattr comm=a uclamp_min=900 uclamp_max=100'
case_ policy-missing-file 3 "'no-such-policy.txt': cannot open: No such file or directory" run $sf --policy no-such-policy.txt
case_ policy-directory 3 "'.': is a directory" run $sf --policy .
# a NUL byte or other binary data in a policy file is bad input, not the end of a line or an
# empty policy
case_ policy-nul 3 "'policy-nul.txt':1: control character 0x00 (binary data, not a policy)" run $sf --policy policy-nul.txt
case_ policy-binary 3 "'policy-binary.bin':1: control character 0x02 (binary data, not a policy)" run $sf --policy policy-binary.bin
# Valid in run order (policy.h: "simulated in run order"), but each line is checked against the
# lines before it in the FILE, so the sysctl at 1 s is rejected before the un-timed min=0 that
# runs ahead of it is seen (src/uclamp/policy.c policy_insert).
case_ policy-sysctl-run-order 0 - run $sf --policy policy-sysctl-run-order.txt

# --- platform models ---------------------------------------------------------------------------
pv() { "$bin" platforms validate "$@"; }
case_ platform-no-opps 3 "'platform-no-opps.sql': clusters row cluster=0: no opps" pv platform-no-opps.sql
case_ platform-capacity-0 3 "'platform-capacity-0.sql': cpus row cpu=0: capacity 0 not in 1..1024" pv platform-capacity-0.sql
case_ platform-capacity-2000 3 "'platform-capacity-2000.sql': cpus row cpu=0: capacity 2000 not in 1..1024" pv platform-capacity-2000.sql
case_ platform-text-frequency 3 "'platform-text-frequency.sql': opps row cluster=0 freq_khz=fast: freq_khz must be an integer in 1..4294967295" pv platform-text-frequency.sql
case_ platform-negative-frequency 3 "'platform-negative-frequency.sql': opps row cluster=0 freq_khz=-1000000: freq_khz must be an integer in 1..4294967295" pv platform-negative-frequency.sql
case_ platform-huge-frequency 3 "'platform-huge-frequency.sql': opps row cluster=0 freq_khz=99999999999999: freq_khz must be an integer in 1..4294967295" pv platform-huge-frequency.sql
case_ platform-nan-voltage 3 "'platform-nan-voltage.sql': opps row cluster=0 freq_khz=1000000: volt_uv must be an integer in 1..4294967295" pv platform-nan-voltage.sql
case_ platform-real-voltage 3 "'platform-real-voltage.sql': opps row cluster=0 freq_khz=1000000: volt_uv must be an integer in 1..4294967295" pv platform-real-voltage.sql
case_ platform-duplicate-opp 3 "'platform-duplicate-opp.sql': opps row cluster=0 freq_khz=1000000: frequencies not strictly increasing" pv platform-duplicate-opp.sql
case_ platform-cpu-in-no-policy 3 "'platform-cpu-in-no-policy.sql': cpus row cpu=0: cpu in no policy" pv platform-cpu-in-no-policy.sql
case_ platform-unknown-cluster 3 "'platform-unknown-cluster.sql': cluster_cpus row cluster=1 cpu=1: no such cluster" pv platform-unknown-cluster.sql
case_ platform-cpu-gap 3 "'platform-cpu-gap.sql': cpus: cpu 1 missing (cpu ids must be 0..2)" pv platform-cpu-gap.sql
case_ platform-no-platform-row 3 "'platform-no-platform-row.sql': platform: no row (exactly one is needed)" pv platform-no-platform-row.sql
case_ platform-truncated 3 "'platform-truncated.sql':14: incomplete input" pv platform-truncated.sql
case_ platform-dropped-table 3 "'platform-dropped-table.sql':12: no such table: opps" pv platform-dropped-table.sql
case_ platform-binary 3 "'platform-binary.sql': not a text file (NUL byte)" pv platform-binary.sql
case_ platform-empty 3 "'platform-empty.sql': platform: no row (exactly one is needed)" pv platform-empty.sql
case_ platform-missing-file 3 "'no-such-model.sql': cannot open: No such file or directory" pv no-such-model.sql
case_ run-broken-platform 3 "'platform-capacity-0.sql': cpus row cpu=0: capacity 0 not in 1..1024" run $sf --platform platform-capacity-0.sql

echo "bad_inputs.sh: $n cases, $known_open known issues open"
exit $fail
