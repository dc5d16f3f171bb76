#!/bin/bash
# remote_update.sh - cpufreq_this_cpu_can_update() (include/linux/cpufreq.h, v4.14 to 7.2): a
# cpufreq_update_util() call made from a CPU outside the policy does nothing when the driver
# cannot switch from another CPU (acpi-cpufreq, the lab's lab-2cpu model), and is a governor
# evaluation when it can (cpufreq-dt: dvfs_possible_from_any_cpu=1).
#
# A hand-made trace on lab-2cpu (a policy per CPU), with rate_limit_us=0 and fast switching so
# that every update that passes the check is an evaluation (a --timeline row of CPU 0):
#   1.000 CPU 1 runs the parent;
#   1.002 CPU 1: sched_wakeup_new of the child with target_cpu=0: wake_up_new_task() runs on the
#         parent's CPU, and post_init_entity_util_avg() -> attach_entity_cfs_rq() kicks CPU 0's
#         hook from CPU 1 (remote);
#   1.005 CPU 0 switches the child in: the wakeup asked this __schedule() to skip its rq clock
#         update (rq_clock_skip_update(), see update_points.sh), so set_next_entity()'s PELT
#         update sees the clock of 1.002, decays nothing and kicks nothing;
#   1.008 the child sleeps on CPU 0 (local: dequeue_entity -> update_load_avg, 6 ms after the
#         clock of the attach: a decay, so the hook runs);
#   1.014 CPU 1 wakes the child onto CPU 0 (the trace records the sched_wakeup on CPU 1:
#         ttwu_do_activate() ran there, remote);
#   1.012 CPU 1's tick (the replay's grid: HZ=250) kicks the idle-load balancer
#         (nohz_balancer_kick(): CPU 0 went idle at 1.008, nohz.next_blocked has passed), the
#         first idle CPU, CPU 0, which updates its own blocked load (src/sim/balance.c): local;
#   1.017 CPU 0 switches it in (skipped clock update, as at 1.005); 1.019 it sleeps (local).
# Expected CPU 0 evaluations, by the rule alone: without the remote ones 0.008 0.012 0.019;
# with dvfs_possible_from_any_cpu=1 also 0.002 and 0.014.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init remote_update.sh

cat >"$tmp/t.txt" <<'TRACE'
# tracer: nop
          <idle>-0       [001] d..2.     1.000000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=parent next_pid=20 next_prio=120
          parent-20      [001] d..2.     1.002000: sched_wakeup_new: comm=child pid=30 prio=120 target_cpu=000
          <idle>-0       [000] d..2.     1.005000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=child next_pid=30 next_prio=120
           child-30      [000] d..2.     1.008000: sched_switch: prev_comm=child prev_pid=30 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          parent-20      [001] d..2.     1.014000: sched_wakeup: comm=child pid=30 prio=120 target_cpu=000
          <idle>-0       [000] d..2.     1.017000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=child next_pid=30 next_prio=120
           child-30      [000] d..2.     1.019000: sched_switch: prev_comm=child prev_pid=30 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          parent-20      [001] d..2.     1.020000: sched_switch: prev_comm=parent prev_pid=20 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
TRACE

evals() { # CPU 0's evaluation times (relative to the first event)
	"$bin" run "$tmp/t.txt" --platform lab-2cpu --timing traced --set rate_limit_us=0 \
		--set switch_latency_us=0 "$@" --timeline "$tmp/tl.csv" >/dev/null 2>"$tmp/err" ||
		golden_fail "run $* failed: $(cat "$tmp/err")"
	awk -F, 'NR > 1 && $2 == 0 { print $1 }' "$tmp/tl.csv" | sort -u | tr '\n' ' '
}
got=$(evals)
want="0.008000 0.012000 0.019000 "
[ "$got" = "$want" ] || golden_fail "acpi-cpufreq: CPU 0 evaluated at '$got', want '$want'"
got=$(evals --set dvfs_possible_from_any_cpu=1)
want="0.002000 0.008000 0.012000 0.014000 0.019000 "
[ "$got" = "$want" ] || golden_fail "any CPU: CPU 0 evaluated at '$got', want '$want'"
# hikey960 (cpufreq-dt): remote updates count without the key
"$bin" run "$tmp/t.txt" --platform hikey960 --timing traced --set rate_limit_us=0 \
	--set switch_latency_us=0 --timeline "$tmp/tl.csv" >/dev/null 2>"$tmp/err" ||
	golden_fail "hikey960 run failed: $(cat "$tmp/err")"
awk -F, 'NR > 1 && $2 == 0 && $1 == "0.002000"' "$tmp/tl.csv" | grep -q . ||
	golden_fail "hikey960: no evaluation of CPU 0 at the remote wakeup_new"
# a bad value is a usage error
"$bin" run "$tmp/t.txt" --platform lab-2cpu --set dvfs_possible_from_any_cpu=2 >/dev/null 2>&1
[ $? = 2 ] || golden_fail "dvfs_possible_from_any_cpu=2 not refused with exit 2"
exit $fail
