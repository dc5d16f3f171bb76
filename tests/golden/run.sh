#!/bin/bash
# run.sh - `govsim run` end to end on the real traces, against reviewed summaries.
#
# Pins the whole pipeline (reader, scheduler model, uclamp, schedutil, cpufreq core, timing,
# power) on real traces with fixed options: a change anywhere that moves a residency, an energy
# or a delay shows up here as a diff to review. The expected summaries were reviewed for the
# invariants a reader can check by eye: residency columns sum to the span, energy is zero on
# clusters that never ran under em, the static key stays off without a policy. Also checks the
# --timeline and --task-timeline CSV headers and that every task-timeline event name is one of
# the documented six.
# Set GOVSIM_GOLDEN_UPDATE=1 to rewrite the expected files (then review the diff).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init run

# check NAME ARGS...: run, compare with $exp/run_NAME.txt
check() {
	local name=$1 out="$tmp/$1.txt"
	shift
	"$bin" run "$@" >"$out" 2>&1
	echo "exit status: $?" >>"$out"
	golden_expect "$out" "$exp/run_$name.txt"
}

check juno_sched_load_work traces/juno-r0/sched_load/trace.dat --platform juno-r0
check juno_sched_load_traced_costs traces/juno-r0/sched_load/trace.report.txt \
	--platform juno-r0 --timing traced --power-model costs
check juno_rtapp_cap traces/juno-r0/rtapp_switch/trace.txt --platform juno-r0 \
	--action 'setattr comm=rt-app* uclamp_max=300'
check android_sf traces/android-8cpu/surfaceflinger.txt
check android_sf_performance traces/android-8cpu/surfaceflinger.txt --governor performance
check android_sf_traced_fast traces/android-8cpu/surfaceflinger.txt --timing traced \
	--set switch_latency_us=0 --power-model costs
check bad_policy traces/android-8cpu/surfaceflinger.txt --action 'setattr comm=x uclamp_min=900 uclamp_max=100'
check bad_tunable traces/android-8cpu/surfaceflinger.txt --set nosuchkey=1

# The CSV outputs: headers and event names.
"$bin" run traces/juno-r0/sched_load/trace.dat --platform juno-r0 --quiet \
	--timeline "$tmp/tl.csv" --task-timeline "$tmp/task.csv" || fail=1
want_tl="time_s,cpu,policy,util_cfs,util_est_cfs,util_rt,util_dl,uclamp_min,uclamp_max,util,target_khz,freq_khz"
want_task="time_s,pid,comm,cpu,event,util_avg,util_est_enqueued,util_est_ewma"
[ "$(head -1 "$tmp/tl.csv")" = "$want_tl" ] || { echo "run: bad --timeline header" >&2; fail=1; }
[ "$(head -1 "$tmp/task.csv")" = "$want_task" ] || { echo "run: bad --task-timeline header" >&2; fail=1; }
[ "$(wc -l <"$tmp/tl.csv")" -gt 100 ] || { echo "run: --timeline too short" >&2; fail=1; }
bad=$(tail -n +2 "$tmp/task.csv" | cut -d, -f5 | sort -u | grep -vxE 'wakeup|switch_in|tick|preempt|sleep|migrate')
[ -z "$bad" ] || { echo "run: unknown task-timeline events: $bad" >&2; fail=1; }

exit $fail
