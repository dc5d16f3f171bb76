#!/bin/bash
# fair_server.sh - the fair class's deadline server (v6.12+, kernel/sched/deadline.c
# dl_server_start(), Debian 6.12 l.1828, 7.2 l.1796): the first fair task queued on a CPU starts
# it (fair.c enqueue_task_fair(), after the class's own enqueue and its PELT update), its
# bandwidth, 50 ms every 1 s, joins the rq's running_bw (to_ratio(): 52428 of 1 << 20, so
# cpu_bw_dl() = 52428 * 1024 >> 20 = 51) with a cpufreq kick (__add_running_bw()), and
# schedutil's minimum from then on is that bandwidth (effective_cpu_util(): *min = irq +
# cpu_bw_dl()): sugov_effective_cpu_perf() returns max(min, util + util / 4) when below the max.
#
# A hand-made lab-2cpu trace (rate limit 0): T first wakes on CPU 1 at 1.000000, runs 100 us,
# sleeps, wakes again at 1.010000 and sleeps at 1.011000 with the root cfs_rq's util at 24.
#   v6.12 and v7.2: at the first wakeup two evaluations, the enqueue's update (util 0) then the
#   server's start (51); at the last sleep util 24 + 6 = 30 < 51, so 51.
#   v6.1: no server: one evaluation at the first wakeup (util 0), and 24 at the sleep (before
#   v6.8 the headroom is in the frequency, not in the util).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init fair_server

golden_wakes_twice >"$tmp/t.txt"

utils() { # KERNEL TIME: the util of CPU 1's evaluations at TIME
	golden_lab_timeline "$tmp/t.txt" "$1" || return
	awk -F, -v t="$2" 'NR > 1 && $2 == 1 && $1 == t { printf "%s ", $10 }' "$tmp/tl.csv"
}
for k in v6.12 v7.2; do
	golden_equal "$k: the first wakeup's update, then the server's start" \
		"$(utils $k 0.000000)" "0 51 "
	golden_equal "$k: the server's bandwidth is the minimum" "$(utils $k 0.011000)" "51 51 "
done
golden_equal "v6.1: no server" "$(utils v6.1 0.000000)" "0 "
golden_equal "v6.1: the util alone" "$(utils v6.1 0.011000)" "24 24 "
exit $fail
