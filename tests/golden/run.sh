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

# run_expect NAME ARGS...: run, compare with $exp/run_NAME.txt
run_expect() {
	local name=$1 out="$tmp/$1.txt"
	shift
	"$bin" run "$@" >"$out" 2>&1
	echo "exit status: $?" >>"$out"
	golden_expect "$out" "$exp/run_$name.txt"
}

run_expect juno_sched_load_work traces/juno-r0/sched_load/trace.dat --platform juno-r0
run_expect juno_sched_load_traced_costs traces/juno-r0/sched_load/trace.report.txt \
	--platform juno-r0 --timing traced --power-model costs
run_expect juno_rtapp_cap traces/juno-r0/rtapp_switch/trace.txt --platform juno-r0 \
	--action 'setattr comm=rt-app* uclamp_max=300'
run_expect android_sf traces/android-8cpu/surfaceflinger.txt
run_expect android_sf_performance traces/android-8cpu/surfaceflinger.txt --governor performance
run_expect android_sf_traced_fast traces/android-8cpu/surfaceflinger.txt --timing traced \
	--set switch_latency_us=0 --power-model costs
run_expect bad_policy traces/android-8cpu/surfaceflinger.txt --action 'setattr comm=x uclamp_min=900 uclamp_max=100'
run_expect bad_tunable traces/android-8cpu/surfaceflinger.txt --set nosuchkey=1

# The CSV outputs: headers and event names.
"$bin" run traces/juno-r0/sched_load/trace.dat --platform juno-r0 --quiet \
	--timeline "$tmp/tl.csv" --task-timeline "$tmp/task.csv" || golden_fail "run with the CSV outputs failed"
want_tl="time_s,cpu,policy,util_cfs,util_est_cfs,util_rt,util_dl,uclamp_min,uclamp_max,util,target_khz,freq_khz"
want_task="time_s,pid,comm,cpu,event,util_avg,util_est_enqueued,util_est_ewma,vlag_ns,delayed"
golden_equal "--timeline header" "$(head -1 "$tmp/tl.csv")" "$want_tl"
golden_equal "--task-timeline header" "$(head -1 "$tmp/task.csv")" "$want_task"
golden_check "--timeline too short" "$([ "$(wc -l <"$tmp/tl.csv")" -gt 100 ]; echo $?)"
bad=$(tail -n +2 "$tmp/task.csv" | cut -d, -f5 | sort -u | grep -vxE 'wakeup|switch_in|tick|preempt|sleep|migrate')
golden_equal "task-timeline events not of the six" "$bad" ""

exit $fail
