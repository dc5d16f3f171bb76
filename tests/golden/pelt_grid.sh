#!/bin/bash
# pelt_grid.sh - the kernel's PELT periods are 1024 us counted from the PELT clock's zero: a
# cfs_rq's last_update_time starts at 0 at boot and moves in whole 1024-ns units, and an
# attached se copies its cfs_rq's last_update_time and period_contrib (kernel/sched/pelt.c
# ___update_load_sum(), accumulate_sum(); fair.c attach_entity_load_avg(); Debian 5.10 to 7.2).
# A task the trace shows first, and a CPU's cfs_rq that first runs a task already running at the
# trace's start, begin on that grid (src/sched/pelt.c pelt_start_on_grid()), so the replay's
# updates cross period boundaries, decay and kick schedutil where the kernel's do.
#
# A hand-made lab-2cpu trace under v6.12, rq_clock_offset_ns=0 (the grid is the trace clock's):
# kw (pid 20) runs on CPU 0 from 1.000000 to 1.000100 and from 1.002000 to 1.002100; busy
# (pid 30) is current on CPU 1 from the start and sleeps at 1.000500. 1.000000 s is 690 units
# into its period (a boundary at 1.000341504), so busy's window crosses one: its util_avg at
# that sleep is tests/golden/lib/pelt_ref.py's, which counts periods from zero, 10 (on a
# period started at 1.000000 no boundary falls before 1.000500 and util_avg stays 0); kw's at
# its second sleep likewise.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init pelt_grid

{
	echo "# tracer: nop"
	golden_switch 0 1.000000 swapper/0 0 R kw 20
	golden_switch 0 1.000100 kw 20 S swapper/0 0
	golden_switch 1 1.000500 busy 30 S swapper/1 0
	golden_switch 0 1.002000 swapper/0 0 R kw 20
	golden_switch 0 1.002100 kw 20 S swapper/0 0
} >"$tmp/t.txt"
"$bin" run "$tmp/t.txt" --platform lab-2cpu --kernel v6.12 --timing traced --set rate_limit_us=0 \
	--set rq_clock_offset_ns=0 --task-timeline "$tmp/tt.csv" >/dev/null 2>"$tmp/err" ||
	golden_fail "run failed: $(cat "$tmp/err")"
# time_s,pid,comm,cpu,event,util_avg,...
at() { awk -F, -v p="$1" -v t="$2" 'NR > 1 && $2 == p && $1 == t && $5 == "sleep" { print $6 }' "$tmp/tt.csv"; }
ref() { python3 "$GOVSIM_SOURCE_DIR/tests/golden/lib/pelt_ref.py" "$@"; }

want=$(ref 1000000000:0 1000500000:1)
[ "$want" != 0 ] || golden_fail "the reference crosses no period"
golden_equal "busy's util_avg at its sleep" "$(at 30 0.000500)" "$want"
golden_equal "kw's util_avg at its second sleep" "$(at 20 0.002100)" \
	"$(ref 1000000000:0 1000100000:1 1002000000:0 1002100000:1)"
exit $fail
