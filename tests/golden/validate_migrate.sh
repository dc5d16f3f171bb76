#!/bin/bash
# validate_migrate.sh - `validate --placement eas` scores traced sched_migrate_task events
#: would the emulation, from the same state, move the task to dest_cpu?
#
# A hand-written Hikey960 trace (LITTLE CPUs 0-3 capacity 462, big 4-7 capacity 1024), one CFS
# task "light" that runs 1.5 to 2.5 ms at a time (its util stays far below LITTLE's 369 limit:
# 2.5 ms of running from 0 gives at most 1024 x (1 - 0.5^(3/32)) = 64), nothing overutilized
# (no CPU's util reaches 80 % of its capacity), every other CPU idle. Expected, by hand from
# v5.9's rules (find_energy_efficient_cpu; the energy argument is placement.sh's: for every
# util u >= 2
# the LITTLE candidate saves more than 1/16 of the big one, and from LITTLE the big candidate
# never wins):
#  1. 1.010000 migrate 4 -> 0 of the sleeping task (before its wakeup on CPU0): feec from prev
#     CPU4 picks LITTLE; the LITTLE perf domain's max-spare CPU is its first, CPU0 (all idle;
#     a later CPU must have strictly more spare): emulated 0 = traced 0, agree (policy0);
#  2. 1.020000 migrate 0 -> 5 of the sleeping task: from prev CPU0 (LITTLE) feec keeps LITTLE:
#     emulated 0, traced 5: a disagreement (policy4), listed "(migrate at wakeup)". The big
#     candidate it weighs is CPU4: CPU0's tick at 1.012 kicked the idle-load balancer, which
#     updated CPU4 (idle since 1.0026), dropping the util light took away when it migrated at
#     1.010 (remove_entity_load_avg: applied at the cfs_rq's next update); CPU4 and CPU5 then
#     both have util 0, and the first of equals is the max-spare CPU;
#  3. 1.021500 migrate 5 -> 6 of the runnable task (preempted by hog on CPU5, pulled by an idle
#     CPU6): the emulation's only balance is the misfit pull, and the task is no misfit (util
#     far below 80 % of 1024) nor is anything overutilized: it stays on 5, a disagreement
#     (policy4), listed "(migrate of a runnable task: no misfit pull, stays)".
# So: policy0 1 migration 1 agree; policy4 2 migrations 0 agree; 2 migrate lines in --explain.
# The wakeups are scored as before (light's first wakeup and hog's are of unknown tasks, not
# scored): at 1.010 (prev 0 after the migrate) LITTLE CPU0 is kept: policy0 1 wakeup 1 agree;
# at 1.020 (prev 5) feec moves it to a LITTLE CPU: policy4 1 wakeup 0 agree.
# Run from the source root with GOVSIM_BIN set (tests/CMakeLists.txt).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init validate_migrate

cat >"$tmp/m.txt" <<'TRACE'
# tracer: nop
#
#           TASK-PID     CPU#  ||||   TIMESTAMP  FUNCTION
#              | |         |   ||||      |         |
          <idle>-0       [000] d..2     1.000000: cpu_frequency: state=1844000 cpu_id=0
          <idle>-0       [000] d..2     1.000000: cpu_frequency: state=1844000 cpu_id=1
          <idle>-0       [000] d..2     1.000000: cpu_frequency: state=1844000 cpu_id=2
          <idle>-0       [000] d..2     1.000000: cpu_frequency: state=1844000 cpu_id=3
          <idle>-0       [004] d..2     1.000000: cpu_frequency: state=2362000 cpu_id=4
          <idle>-0       [004] d..2     1.000000: cpu_frequency: state=2362000 cpu_id=5
          <idle>-0       [004] d..2     1.000000: cpu_frequency: state=2362000 cpu_id=6
          <idle>-0       [004] d..2     1.000000: cpu_frequency: state=2362000 cpu_id=7
          <idle>-0       [004] dnh4     1.000100: sched_wakeup: comm=light pid=1000 prio=120 target_cpu=004
          <idle>-0       [004] d..3     1.000100: sched_switch: prev_comm=swapper/4 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=light next_pid=1000 next_prio=120
           light-1000    [004] d..3     1.002600: sched_switch: prev_comm=light prev_pid=1000 prev_prio=120 prev_state=S ==> next_comm=swapper/4 next_pid=0 next_prio=120
          <idle>-0       [000] dnh4     1.010000: sched_migrate_task: comm=light pid=1000 prio=120 orig_cpu=4 dest_cpu=0
          <idle>-0       [000] dnh4     1.010000: sched_wakeup: comm=light pid=1000 prio=120 target_cpu=000
          <idle>-0       [000] d..3     1.010000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=light next_pid=1000 next_prio=120
           light-1000    [000] d..3     1.012500: sched_switch: prev_comm=light prev_pid=1000 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0       [005] dnh4     1.020000: sched_migrate_task: comm=light pid=1000 prio=120 orig_cpu=0 dest_cpu=5
          <idle>-0       [005] dnh4     1.020000: sched_wakeup: comm=light pid=1000 prio=120 target_cpu=005
          <idle>-0       [005] d..3     1.020000: sched_switch: prev_comm=swapper/5 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=light next_pid=1000 next_prio=120
           light-1000    [005] dnh4     1.021000: sched_wakeup: comm=hog pid=2000 prio=120 target_cpu=005
           light-1000    [005] d..3     1.021000: sched_switch: prev_comm=light prev_pid=1000 prev_prio=120 prev_state=R ==> next_comm=hog next_pid=2000 next_prio=120
          <idle>-0       [006] d..4     1.021500: sched_migrate_task: comm=light pid=1000 prio=120 orig_cpu=5 dest_cpu=6
          <idle>-0       [006] d..3     1.021500: sched_switch: prev_comm=swapper/6 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=light next_pid=1000 next_prio=120
           light-1000    [006] d..3     1.023000: sched_switch: prev_comm=light prev_pid=1000 prev_prio=120 prev_state=S ==> next_comm=swapper/6 next_pid=0 next_prio=120
             hog-2000    [005] d..3     1.023000: sched_switch: prev_comm=hog prev_pid=2000 prev_prio=120 prev_state=S ==> next_comm=swapper/5 next_pid=0 next_prio=120
TRACE

"$bin" validate "$tmp/m.txt" --platform hikey960 --placement eas --explain >"$tmp/v.txt" 2>&1
golden_check "validate exit 0, got $?" $?
golden_check "policy0: 1 migration, 1 agree" $(grep -Eq '^ +policy0 +1 migrations, +1 agree' "$tmp/v.txt"; echo $?)
golden_check "policy4: 2 migrations, 0 agree" $(grep -Eq '^ +policy4 +2 migrations, +0 agree' "$tmp/v.txt"; echo $?)
golden_check "policy0: 1 wakeup, 1 agree" $(grep -Eq '^ +policy0 +1 wakeups, +1 agree' "$tmp/v.txt"; echo $?)
golden_check "policy4: 1 wakeup, 0 agree" $(grep -Eq '^ +policy4 +1 wakeups, +0 agree' "$tmp/v.txt"; echo $?)
golden_check "migrate at wakeup listed: prev 0 traced 5 emulated 0" \
	$(grep -Eq '0\.020000 light +1000 prev 0 traced 5 emulated 0  \(migrate at wakeup\) base [0-9]+, cpu4 \+[0-9]+ cpu0 \+[0-9]+$' "$tmp/v.txt"; echo $?)
golden_check "runnable migrate listed: prev 5 traced 6 emulated 5" \
	$(grep -Eq '0\.021500 light +1000 prev 5 traced 6 emulated 5  \(migrate of a runnable task: no misfit pull, stays\)$' "$tmp/v.txt"; echo $?)
golden_check "2 migrate lines" $([ "$(grep -c '(migrate ' "$tmp/v.txt")" = 2 ]; echo $?)
"$bin" validate "$tmp/m.txt" --platform hikey960 >"$tmp/n.txt" 2>&1
golden_check "without --placement eas: no placement rows" $(! grep -q 'migrations,' "$tmp/n.txt"; echo $?)

[ $fail = 0 ] && echo "validate_migrate.sh: ok"
exit $fail
