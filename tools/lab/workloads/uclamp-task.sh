# needs: uclamp
# Per-task clamps set mid-run with sched_setattr (tools/lab/uclampctl): the first call turns
# the sched_uclamp_used key on. Times are from the start; the phases of uclamp-task.json are
# 0.5 s idle, then 1.5 s at 20 %, 2 s at 20 %, 1.5 s at 20 %, 2 s at 100 %, 1.5 s at 100 %.
rt-app workload.json &
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
