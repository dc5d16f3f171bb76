#!/bin/bash
# rename_attach.sh - a clamp policy's comm= actions follow a task that is renamed (prctl
# PR_SET_NAME, as rt-app and most thread pools name their threads after they start): the
# actions that match the new name and did not match the old one are applied when the new name
# is first seen, to the running or queued task as the kernel's sched_move_task() /
# __sched_setscheduler() do (dequeue, change, enqueue: the rq's clamp buckets re-accounted).
#
# By hand: task 11 is forked as "rt-app" on CPU 1 at 1.000 and runs; at 1.020 it sleeps, and
# that switch already names it "ga0"; it wakes at 1.021 and runs to 1.040. The policy creates
# /ga with cpu.uclamp.max 30 (%), i.e. 30 * 1024 / 100 = 307.2, rounded to 307
# (capacity_from_percent: DIV_ROUND_CLOSEST_ULL(3000 * 1024, 10000)), and attaches comm=ga0.
# So CPU 1's evaluations at the ticks before 1.020 see the rq's uclamp_max 1024 (the task is in
# the root group, unclamped), and every evaluation from the wakeup at 1.021 on sees 307 (its group's
# effective max; the task asks for no clamp of its own). Without a rename (the task called ga0
# from its fork) the same evaluations see 307 throughout; with attach comm=other, 1024
# throughout. (The fork's own evaluations at 1.000 come before the task is enqueued:
# wake_up_new_task() runs post_init_entity_util_avg(), which kicks cpufreq, before
# activate_task(); the empty rq's uclamp_max is then uclamp_none(UCLAMP_MAX), 1024, in every
# case, so they are left out.)
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init rename_attach.sh

# trace FIRST_NAME: the task is switched in as FIRST_NAME, named ga0 from 1.020 on
trace() {
	echo "# tracer: nop"
	echo "            init-1       [001] d..2.     1.000000: sched_wakeup_new: comm=$1 pid=11 prio=120 target_cpu=001"
	echo "          <idle>-0       [001] d..2.     1.000010: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=$1 next_pid=11 next_prio=120"
	for ms in 004 008 012 016; do
		echo "          $1-11      [001] d.h1.     1.$ms""000: hrtimer_expire_entry: hrtimer=0000000000000001 function=tick_sched_timer now=1$ms""000000"
	done
	echo "             ga0-11      [001] d..2.     1.020000: sched_switch: prev_comm=ga0 prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120"
	echo "          <idle>-0       [001] dNh2.     1.021000: sched_waking: comm=ga0 pid=11 prio=120 target_cpu=001"
	echo "          <idle>-0       [001] dNh2.     1.021001: sched_wakeup: comm=ga0 pid=11 prio=120 target_cpu=001"
	echo "          <idle>-0       [001] d..2.     1.021010: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=ga0 next_pid=11 next_prio=120"
	for ms in 024 028 032 036; do
		echo "             ga0-11      [001] d.h1.     1.$ms""000: hrtimer_expire_entry: hrtimer=0000000000000001 function=tick_sched_timer now=1$ms""000000"
	done
	echo "             ga0-11      [001] d..2.     1.040000: sched_switch: prev_comm=ga0 prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120"
}
policy() {
	printf 'cgroup /ga cpu.uclamp.max 30\nattach comm=%s /ga\n' "$1"
}
args=(--platform lab-2cpu --kernel v6.1 --timing traced --set rate_limit_us=0 --set switch_latency_us=0 --set rq_clock_offset_ns=0)
# the distinct uclamp_max of CPU 1's evaluations at the ticks before 0.020 s and from 0.021 s on
clamps() {
	trace "$1" >"$tmp/t.txt"
	policy "$2" >"$tmp/p.policy"
	"$bin" run "$tmp/t.txt" "${args[@]}" --policy "$tmp/p.policy" --timeline "$tmp/tl.csv" >"$tmp/out.txt" 2>&1 ||
		{ echo "rename_attach.sh: run $* failed: $(cat "$tmp/out.txt")" >&2; return; }
	awk -F, -v col="$(head -1 "$tmp/tl.csv" | tr , '\n' | grep -nx uclamp_max | cut -d: -f1)" '
		NR > 1 && $2 == 1 && $1 + 0 >= 0.004 && $1 + 0 < 0.020 { before[$col] = 1 }
		NR > 1 && $2 == 1 && $1 + 0 >= 0.021 { after[$col] = 1 }
		END {
			for (v in before) b = b (b == "" ? "" : "+") v
			for (v in after) a = a (a == "" ? "" : "+") v
			printf "%s|%s", b, a
		}' "$tmp/tl.csv"
}
expect() {
	local got
	got=$(clamps "$1" "$2")
	[ "$got" = "$3" ] || golden_fail "first name $1, attach comm=$2: uclamp_max before|after '$got', want '$3'"
}
expect rt-app ga0 "1024|307"
expect ga0 ga0 "307|307"
expect rt-app other "1024|1024"
expect rt-app 'rt-*' "307|307"
exit $fail
