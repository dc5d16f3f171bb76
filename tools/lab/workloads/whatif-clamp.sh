# needs: uclamp
# The clamped half of the what-if pair (tools/lab/measure-whatif; docs/lab.md, "What-if"):
# uclamp-task's rt-app tasks and per-task clamps (sched_setattr through uclampctl), timed from
# the moment rt-app's threads exist, so that each clamp meets the same phase of the tasks as
# in whatif-base.sh. The first call, a clamp that changes nothing (the shell's own min 0),
# turns the sched_uclamp_used key on before rt-app starts: made while rt-app's threads ran, that
# call's text patching took 0.4 s of guest time under icount and moved every later clamp
# against the tasks' phases. Phases of the victim (uclamp-task.json): 0.5 s idle, then 1.5 s at 20 %,
# 2 s at 20 %, 1.5 s at 20 %, 2 s at 100 %, 1.5 s at 100 %.
uclampctl $$ min=0
rt-app workload.json &
until grep -qsx victim /proc/[0-9]*/task/[0-9]*/comm; do usleep 10000; done
sleep 2
uclampctl victim min=1024 max=1024
sleep 2
uclampctl victim min=0
sleep 1.5
uclampctl victim max=256
uclampctl other max=512
sleep 2
uclampctl victim max=1024
wait
