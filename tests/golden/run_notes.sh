#!/bin/bash
# run_notes.sh - what `govsim run` says of actions, limits and governors, asserted value by value.
#
# Checks: a setattr matching no task (a comm typo, a pid absent from the trace) leaves the
# static key off and is warned about on stderr and in the notes; an action timed after the
# trace's end is warned about; each action's task count is printed; a setattr without clamps is
# valid and leaves the key off. scaling_max_freq=0 is the lowest OPP, as the v5.9
# cpufreq core clamps it; the iowait-boost departure is a note of every schedutil run and
# only of those; performance reports no governor evaluation (no update hook in v5.9).
# The expected values come from these rules and Hikey960's OPP table (lowest OPPs 533 and
# 903 MHz), not from a previous run. Does not check the figures of the runs (run.sh does).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init run_notes
sf=traces/android-8cpu/surfaceflinger.txt

# expect WHAT FILE PATTERN: fixed-string line match
expect() {
	grep -qxF -- "$3" "$2" || { golden_fail "$1: no line '$3' in:"; cat "$2" >&2; }
}
expect_not() {
	! grep -qF -- "$3" "$2" || golden_fail "$1: unexpected '$3'"
}
status() {
	[ "$2" = "$3" ] || golden_fail "$1: exit status $2, want $3"
}

# nothing matched -> key off, warnings on stderr and in the notes, counts per action
"$bin" run $sf --action 'setattr comm=surfaceflingr uclamp_min=512' \
	--action 'setattr pid=999999 uclamp_max=300' --action 'at 30 setattr comm=* uclamp_min=1' \
	--action 'setattr comm=surfaceflinger' >"$tmp/o" 2>"$tmp/e"
status "no match" $? 0
# the key stays off: no aggregation runs, and as many are skipped as without any action (the
# count itself depends on the timing model, so it is taken from the plain run)
plain=$("$bin" run $sf 2>/dev/null | grep '^uclamp: ')
case "$plain" in
"uclamp: static key off, aggregations run 0, skipped "[1-9]*) ;;
*) golden_fail "plain run: unexpected '$plain'" ;;
esac
expect "no match" "$tmp/o" "$plain"
expect "no match" "$tmp/o" "  setattr comm=surfaceflingr uclamp_min=512   (0 tasks)"
expect "no match" "$tmp/o" "  setattr comm=surfaceflinger   (0 tasks, 1 first seen later)"
expect "no match" "$tmp/o" "  at 30 setattr comm=* uclamp_min=1   (after the trace's end: not run)"
expect "no match" "$tmp/o" "note:     '--action':1: 'setattr comm=surfaceflingr uclamp_min=512' matched no task"
expect "no match" "$tmp/o" "note:     '--action':2: 'setattr pid=999999 uclamp_max=300' matched no task"
expect "no match" "$tmp/o" "note:     '--action':3: 'at 30 setattr comm=* uclamp_min=1' is timed after the trace's end: not run"
expect "no match" "$tmp/e" "govsim: warning: '--action':1: 'setattr comm=surfaceflingr uclamp_min=512' matched no task"
expect "no match" "$tmp/e" "govsim: warning: '--action':2: 'setattr pid=999999 uclamp_max=300' matched no task"
expect "no match" "$tmp/e" "govsim: warning: '--action':3: 'at 30 setattr comm=* uclamp_min=1' is timed after the trace's end: not run"
[ "$(wc -l <"$tmp/e")" = 3 ] || golden_fail "no match: stderr has more than the 3 warnings"

# a clamp that does reach a task turns the key on
"$bin" run $sf --action 'setattr comm=surfaceflinger uclamp_min=512' >"$tmp/o" 2>"$tmp/e"
status "match" $? 0
grep -q "^uclamp: static key on since" "$tmp/o" || golden_fail "match: key not on"
[ ! -s "$tmp/e" ] || { golden_fail "match: unexpected stderr"; cat "$tmp/e" >&2; }

# 7b: scaling_max_freq=0 is clamped to cpuinfo's min: every policy at its lowest OPP
"$bin" run $sf --governor performance --set scaling_max_freq=0 >"$tmp/o" 2>&1
status "scaling_max_freq=0" $? 0
grep -q "^policy0: avg 533.0 MHz" "$tmp/o" || golden_fail "scaling_max_freq=0: policy0 not at 533 MHz"
grep -q "^policy4: avg 903.0 MHz" "$tmp/o" || golden_fail "scaling_max_freq=0: policy4 not at 903 MHz"

# 7c: the iowait note, for schedutil only and only while the boost is off, on a trace without
# the kernel's own requests (surfaceflinger.txt has them: iowait_traced.sh)
juno=traces/juno-r0/rtapp_switch/trace.txt
note="note:     iowait boost off (a trace cannot tell in_iowait from other D-state sleeps: --set iowait_boost=1 models it)"
"$bin" run $juno --platform juno-r0 >"$tmp/o" 2>&1
expect "iowait default" "$tmp/o" "$note"
"$bin" run $juno --platform juno-r0 --set iowait_boost=1 >"$tmp/o" 2>&1
expect_not "iowait on" "$tmp/o" "iowait boost off"
"$bin" run $sf --governor ondemand >"$tmp/o" 2>&1
expect_not "iowait ondemand" "$tmp/o" "iowait boost off"

# 7d: performance and powersave: no evaluation rows, only the header
for g in performance powersave; do
	"$bin" run $sf --governor $g --quiet --timeline "$tmp/tl.csv"
	status "$g timeline" $? 0
	[ "$(wc -l <"$tmp/tl.csv")" = 1 ] || golden_fail "$g: --timeline has evaluation rows"
done
# schedutil does evaluate
"$bin" run $sf --quiet --timeline "$tmp/tl.csv"
[ "$(wc -l <"$tmp/tl.csv")" -gt 100 ] || golden_fail "schedutil: --timeline too short"

# did you mean (options, governors, platforms, tunables); gen states the range
dym() { # NAME WANT-STATUS WANT-TEXT ARGS...
	local name=$1 want=$2 text=$3
	shift 3
	"$bin" "$@" >"$tmp/o" 2>&1
	local st=$?
	[ "$want" = - ] || status "$name" $st "$want"
	grep -qF -- "$text" "$tmp/o" || { golden_fail "$name: no '$text' in:"; cat "$tmp/o" >&2; }
}
dym option 2 "unknown option '--platfrom'; did you mean '--platform'?" run $sf --platfrom hikey960
# a short option the command does not have is unknown, not one that "needs a value" (getopt
# gives both as '?' with optopt set unless told apart); a long one without its value needs one
dym short-option 2 "unknown option '-x'" run $sf -x
dym short-option-compare 2 "unknown option '-x'" compare -x
dym no-value 2 "option '--platform' needs a value" run $sf --platform
dym no-value-compare 2 "option '--base' needs a value" compare --base
dym governor 2 "unknown governor 'schedutl'; did you mean 'schedutil'?" run $sf --governor schedutl
# (its exit status is not checked here)
dym platform - "did you mean 'hikey960'?" run $sf --platform hikey96
dym tunable 2 "unknown tunable 'rate_limit' for governor 'schedutil'; did you mean 'rate_limit_us'? (schedutil takes rate_limit_us, up_rate_limit_us, down_rate_limit_us, iowait_boost;" run $sf --set rate_limit=5
dym tunable-none 2 "(performance takes no tunables;" run $sf --governor performance --set rate_limit_us=5
dym tunable-ok 0 "policy0" run $sf --governor ondemand --set up_threshold=80 --set sampling_rate=10000 --set sampling_down_factor=2
dym gen-range 2 "gen: bad cpus '99' (want 1..64)" gen periodic -o "$tmp/g.txt" --cpus 99
dym gen-count 2 "gen: bad count '0' (want 1..1000000000)" gen periodic -o "$tmp/g.txt" --count 0

# the trace against the platform
dym what-if 0 "note:     the trace runs policy0 at 950000 kHz, no OPP of juno-r0: replaying as a what-if on juno-r0" \
	run traces/juno-r0/rtapp_switch/trace.txt --platform juno-r0
dym fewer-cpus 0 "note:     trace uses CPUs 0-5 of 8" run traces/juno-r0/sched_load/trace.dat
dym more-cpus 3 "govsim: '$sf': the trace has 8 CPUs (its header) and platform 'juno-r0' 6: use a platform with at least 8 CPUs" \
	run $sf --platform juno-r0

# run's task count is trace info's less the sugov:N kthreads it names
info_tasks=$("$bin" trace info $sf | sed -n 's/^tasks: *\([0-9]*\) .*/\1/p')
info_gov=$("$bin" trace info $sf | sed -n 's/^ *of which \([0-9]*\) sugov:N kthreads.*/\1/p')
run_tasks=$("$bin" run $sf | sed -n 's/^tasks: \([0-9]*\),.*/\1/p')
[ -n "$info_tasks" ] && [ -n "$info_gov" ] && [ "$run_tasks" = $((info_tasks - info_gov)) ] ||
	golden_fail "tasks: run $run_tasks, trace info $info_tasks less ${info_gov:-?} sugov"
[ "$info_tasks" = 82 ] && [ "$info_gov" = 2 ] || golden_fail "trace info: $info_tasks tasks, $info_gov sugov (want 82, 2: pids 5859 and 5860)"

# many actions that match nothing: the first few are listed one a line (stderr and notes), the
# rest summed up in one line each; 1000 setattrs of absent comms, 7 actions after the end
for i in $(seq 1 1000); do echo "setattr comm=absent$i uclamp_min=10"; done >"$tmp/many.txt"
for i in $(seq 1 7); do echo "at 99 setattr comm=absent uclamp_min=$i"; done >>"$tmp/many.txt"
"$bin" run $sf --policy "$tmp/many.txt" >"$tmp/o" 2>"$tmp/e"
status "many unmatched" $? 0
for i in 1 2 3 4 5; do
	expect "many unmatched: line $i" "$tmp/e" "govsim: warning: '$tmp/many.txt':$i: 'setattr comm=absent$i uclamp_min=10' matched no task"
done
expect "many unmatched: sum" "$tmp/e" "govsim: warning: $((1000 - 5)) more actions matched no task"
expect "many unmatched: sum late" "$tmp/e" "govsim: warning: $((7 - 5)) more actions are timed after the trace's end: not run"
n=$(grep -c "matched no task\|after the trace's end" "$tmp/e")
[ "$n" = 12 ] || golden_fail "many unmatched: $n warning lines, want 12 (5 + 1 of each kind)"
n=$(grep "^note:" "$tmp/o" | grep -c "matched no task\|after the trace's end")
[ "$n" = 12 ] || golden_fail "many unmatched: $n notes, want 12 (5 + 1 of each kind)"
grep -qF "note:     $((1000 - 5)) more actions matched no task" "$tmp/o" ||
	golden_fail "many unmatched: no summing-up note"

exit $fail
