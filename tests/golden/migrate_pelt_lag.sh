#!/bin/bash
# migrate_pelt_lag.sh - a task woken onto another CPU from an idle one arrives decayed to the
# wakeup's time, not to the idle CPU's last PELT update. From v6.0, migrate_task_rq_fair() of a
# waking task calls migrate_se_pelt_lag() after remove_entity_load_avg(): where the source CPU
# runs its idle task, the task is decayed as blocked to the source rq's PELT clock at its last
# idle clock update (rq->clock_pelt_idle, recorded by _update_idle_rq_clock_pelt() at every
# update_rq_clock() while idle and at the switch to idle from a fair task) plus the time since
# (sched_clock_cpu() - rq->clock_idle) (Debian 6.1 kernel/sched/fair.c l.3920 / l.7559, 6.12
# l.4593 / l.8770, 7.2 l.5549 / l.9860; pelt.h _update_idle_rq_clock_pelt()). Before (Debian
# 5.10 fair.c l.7049-7053) the task keeps the values of the source cfs_rq's last update.
#
# A hand-made lab-2cpu trace, rq_clock_offset_ns=0: t (pid 30) wakes on idle CPU 1 at 1.000000
# and runs to its sleep at 1.004000; both CPUs then idle (no tick, no blocked-load update: CPU
# 1's cfs_rq was last updated at t's dequeue). At 1.030000 an interrupt on idle CPU 0 wakes t
# there (sched_migrate_task 1 -> 0 and its enqueue at that clock); t runs to 1.033000. Its
# util_avg at that sleep is tests/golden/lib/pelt_ref.py's: its history on CPU 1, decayed to
# the migration (v6.1+) or not (v5.10), then attached at CPU 0's cfs_rq's last update
# (attach_entity_load_avg(): its last_update_time and period_contrib, util_sum = util_avg *
# divider: pelt_ref's init=) and running from there.
# With a busy source (hog runs on CPU 1 from 1.028100, which updated CPU 1's cfs_rq then) no
# kernel decays further: t keeps its sync to that update.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init migrate_pelt_lag

ev() { printf '%16s-%-5s [%03d] %s %12s: %s\n' "$1" "$2" "$3" "$4" "$5" "$6"; }
trace() { # idle|busy: CPU 1 at the migration
	echo "# tracer: nop"
	ev '<idle>' 0 1 dNh2. 1.000000 "sched_wakeup: comm=t pid=30 prio=120 target_cpu=001"
	golden_switch 1 1.000050 swapper/1 0 R t 30
	golden_switch 1 1.004000 t 30 S swapper/1 0
	if [ "$1" = busy ]; then
		ev '<idle>' 0 1 dNh2. 1.028100 "sched_wakeup: comm=hog pid=40 prio=120 target_cpu=001"
		golden_switch 1 1.028150 swapper/1 0 R hog 40
	fi
	ev '<idle>' 0 0 d.h3. 1.029990 "sched_waking: comm=t pid=30 prio=120 target_cpu=001"
	ev '<idle>' 0 0 d.h3. 1.030000 "sched_migrate_task: comm=t pid=30 prio=120 orig_cpu=1 dest_cpu=0"
	ev '<idle>' 0 0 dNh3. 1.030000 "sched_wakeup: comm=t pid=30 prio=120 target_cpu=000"
	golden_switch 0 1.030100 swapper/0 0 R t 30
	golden_switch 0 1.033000 t 30 S swapper/0 0
	[ "$1" = busy ] && golden_switch 1 1.040000 hog 40 S swapper/1 0
	return 0
}
trace idle >"$tmp/idle.txt"
trace busy >"$tmp/busy.txt"

# util_at_sleep TRACE KERNEL: t's util_avg at its second sleep, the one on CPU 0
util_at_sleep() {
	golden_util_at_sleep "$1" --platform lab-2cpu --kernel "$2" --timing traced \
		--set rq_clock_offset_ns=0 | sed -n 2p
}
ref() { golden_pelt_ref "$@"; }

# CPU 0's cfs_rq at the enqueue: its last update on the 1024-ns grid of the rq clock's zero
attach=$((1030000000 / 1024 * 1024))
history="1000000000:0 1004000000:1"
at_sleep=$(ref $history)
lagged=$(ref $history 1030000000:0)
synced_busy=$(ref $history 1028100000:0)
[ "$lagged" != "$at_sleep" ] && [ "$lagged" != "$synced_busy" ] ||
	golden_fail "the cases cannot tell the decays apart"
with_lag=$(ref init=$attach:$lagged 1033000000:1)
without=$(ref init=$attach:$at_sleep 1033000000:1)
busy=$(ref init=$attach:$synced_busy 1033000000:1)
for k in v6.1 v6.12 v7.2; do
	golden_equal "$k: decayed to the migration from an idle CPU" \
		"$(util_at_sleep "$tmp/idle.txt" $k)" "$with_lag"
	golden_equal "$k: a busy source, synced to its last update" \
		"$(util_at_sleep "$tmp/busy.txt" $k)" "$busy"
done
golden_equal "v5.10: synced to the idle CPU's last update only" \
	"$(util_at_sleep "$tmp/idle.txt" v5.10)" "$without"
golden_equal "v5.10: a busy source" "$(util_at_sleep "$tmp/busy.txt" v5.10)" "$busy"
exit $fail
