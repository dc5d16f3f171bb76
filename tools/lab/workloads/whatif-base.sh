# The unclamped half of the what-if pair (tools/lab/measure-whatif; docs/lab.md, "What-if"):
# whatif-clamp.sh with `uclampctl -n`, which finds the threads and marks the clamp it would set
# ("uclampctl: COMM PID min=N max=N -> dry-run") but makes no sched_setattr call. The same
# processes run at the same moments, no clamp is set (the key stays off), and it runs on every
# kernel.
uclampctl -n $$ min=0
rt-app workload.json &
until grep -qsx victim /proc/[0-9]*/task/[0-9]*/comm; do usleep 10000; done
sleep 2
uclampctl -n victim min=1024 max=1024
sleep 2
uclampctl -n victim min=0
sleep 1.5
uclampctl -n victim max=256
uclampctl -n other max=512
sleep 2
uclampctl -n victim max=1024
wait
