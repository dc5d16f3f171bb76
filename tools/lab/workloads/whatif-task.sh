# needs: uclamp
# A what-if workload (tools/lab/measure-whatif; docs/lab.md, "What-if"): uclamp-task's rt-app
# tasks (a victim at 20 %, then 100 %, of a 10 ms period on CPU 1; other, 3 ms of 12, on CPU 0)
# and per-task clamps set through uclampctl at fixed delays after the threads exist: the victim
# boosted to min = max = 1024, released (min 0), capped at 256 with other capped at 512, and
# released. A first clamp that changes nothing (the shell's own min 0) turns the uclamp key on
# before rt-app starts: made while the threads ran, that call's text patching took 0.4 s of
# guest time under icount and moved every later clamp against the tasks' phases.
# Under `record --dry-clamps` (DRY_CLAMPS=1) each call is `uclampctl -n`: the same processes at
# the same moments, each marking the clamp it would set ("-> dry-run"), none set.
u() { if [ "$DRY_CLAMPS" = 1 ]; then uclampctl -n "$@"; else uclampctl "$@"; fi; }
u $$ min=0
rt-app workload.json &
until grep -qsx victim /proc/[0-9]*/task/[0-9]*/comm; do usleep 10000; done
sleep 2
u victim min=1024 max=1024
sleep 2
u victim min=0
sleep 1.5
u victim max=256
u other max=512
sleep 2
u victim max=1024
wait
