#!/bin/bash
# governor_setattr.sh - the governor's kthread created in the trace, as a real 7.2 kernel did it.
# sugov_kthread_create() (kernel/sched/cpufreq_schedutil.c) calls kthread_create(): sugov:0 is
# born a fair task (its sched_wakeup_new shows prio 120), runs and sleeps in D; then
# sched_setattr_nocheck() makes it a deadline task and wake_up_process() wakes it (prio -1).
# Debian 7.2's sched_change_begin() detaches it from its cfs_rq before __setscheduler_params()
# reweights it while still fair, which puts its load_avg (about 1020) back on that cfs_rq: the
# first task forked there meanwhile gets util * 1024 / (load_avg + 1) from
# post_init_entity_util_avg(), a tiny first util. (6.12 reweights first and detaches after:
# nothing stays; tests/unit/test_pelt_sums.c works both rules by hand.)
#
# traces/lab-pelt/7.2/periodic4-shared carries the kernel's own PELT (sched_pelt_cfs): the first
# task forked onto the kthread's CPU after its setattr has the kernel's first util as the
# difference of the two root cfs_rq events of that CPU its attach prints at one update_time.
# govsim's is the first row of that task in --task-timeline.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init governor_setattr

trace="$GOVSIM_SOURCE_DIR/traces/lab-pelt/7.2/periodic4-shared.txt.gz"
# PID KERNEL_UTIL of the first fork onto the kthread's CPU after its first prio -1 waking
read -r pid kernel < <(zcat "$trace" | awk '
	function field(name,   v) { match($0, name "=[0-9-]+"); v = substr($0, RSTART + length(name) + 1, RLENGTH - length(name) - 1); return v + 0 }
	/sched_wakeup_new: comm=sugov:[0-9]+ / && / prio=120 / { kc = field("target_cpu"); seen = 1; next }
	seen && !set && /sched_waking: comm=sugov:[0-9]+ .* prio=-1 / { set = 1; next }
	set && /sched_pelt_cfs: / && / path=\/ / && field("cpu") == kc {
		pu = lu; pt = lt; lu = field("util"); lt = field("update_time"); next }
	set && /sched_wakeup_new: / && field("target_cpu") == kc {
		print field(" pid"), (lt == pt ? lu - pu : "none"); exit }')
[ -n "${pid:-}" ] || golden_fail "no fork onto the kthread's CPU after its setattr in $trace"
golden_equal "the kernel's first util of pid $pid (the trace's attach)" "$kernel" 1

"$bin" run "$trace" --timing traced --task-timeline "$tmp/tt.csv" --csv "$tmp/csv" >"$tmp/run.txt" 2>&1 ||
	golden_fail "run: exit $?: $(tail -n 3 "$tmp/run.txt")"
golden_equal "govsim's first util of pid $pid" \
	"$(awk -F, -v p="$pid" 'NR > 1 && $2 == p { print $6; exit }' "$tmp/tt.csv")" "$kernel"
# the kthread is not workload, fair at first or not: no row of the run's tasks
[ -s "$tmp/csv/task_stats.csv" ] || golden_fail "no task_stats.csv"
grep -q 'sugov:' "$tmp/csv/task_stats.csv" && golden_fail "sugov:0 among the run's tasks"
exit $fail
