#!/bin/bash
# nice_weight.sh - a fair task's load weight is its nice's (sched_prio_to_weight[]), as a real
# 6.12 kernel shows. The workqueue's high-priority kworkers (kworker/N:MH) run at nice -20:
# weight 88761, 87 times nice 0's. One made in the trace is born at nice 0 (its
# sched_wakeup_new shows prio 120); set_user_nice() -> reweight_task() rebuilds its load_avg at
# 88761 before its first wakeup at prio 100, and it joins its CPU's cfs_rq with a load of
# about 88000. From 6.12, post_init_entity_util_avg() gives a forked task
# cfs util * 1024 / (cfs load + 1): on that CPU, for the next few hundred ms, a few units where
# nice-0 weights would give the cap, half the spare capacity.
#
# traces/lab-pelt/6.12/periodic-eevdf carries the kernel's own PELT: each forked task's first
# util is the difference of the two root cfs_rq events of its CPU its attach prints at one
# update_time, and the cfs_rq's load before it tells the forks onto a CPU holding such a load
# (above 2000). govsim's first util of each is the first row of the task in --task-timeline,
# held within 3 of the kernel's: the weight is what this checks (nice-0 weights would give the
# cap, about 480). The root util the formula scales by 1024 / (load + 1), a third or less here,
# is the replay's own PELT, which in this part of the trace (the guest's setup, 9.45-9.55 s)
# is 34 from the kernel's on average at CPU 1's samples, so a fork's first util can move by a
# few units with it.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init nice_weight

trace="$GOVSIM_SOURCE_DIR/traces/lab-pelt/6.12/periodic-eevdf.txt.gz"
# PID KERNEL_UTIL LOAD_BEFORE of every fork whose attach the trace prints
zcat "$trace" | awk '
	function field(name,   v) { if (!match($0, name "=[0-9-]+")) return -1; v = substr($0, RSTART + length(name) + 1, RLENGTH - length(name) - 1); return v + 0 }
	/sched_pelt_cfs: / && / path=\/ / { c = field("cpu"); pu[c] = lu[c]; pl[c] = ll[c]; pt[c] = lt[c]
		lu[c] = field(" util"); ll[c] = field(" load"); lt[c] = field("update_time"); next }
	/sched_wakeup_new: / { c = field("target_cpu"); if (lt[c] == pt[c]) print field(" pid"), lu[c] - pu[c], pl[c] }' \
	>"$tmp/kernel.txt"
"$bin" run "$trace" --timing traced --task-timeline "$tmp/tt.csv" >"$tmp/run.txt" 2>&1 ||
	golden_fail "run: exit $?: $(tail -n 3 "$tmp/run.txt")"
# heavy-load forks: how many, and how many govsim starts within 3 of the kernel's util
read -r heavy near worst < <(awk -F, '
	NR == FNR { split($0, f, " "); k[f[1]] = f[2]; l[f[1]] = f[3]; next }
	FNR > 1 && $5 == "wakeup" && ($2 in k) && !seen[$2]++ && l[$2] > 2000 {
		n++; d = $6 - k[$2]; if (d < 0) d = -d; if (d <= 3) ok++; if (d > w) w = d }
	END { print n + 0, ok + 0, w + 0 }' "$tmp/kernel.txt" "$tmp/tt.csv")
[ "$heavy" -ge 10 ] || golden_fail "only $heavy forks onto a CPU with a nice -20 kworker's load"
golden_equal "forks onto a nice -20 kworker's CPU whose first util is within 3 of the kernel's" \
	"$near of $heavy" "$heavy of $heavy"
exit $fail
