# needs: uclamp
# The sched_util_clamp_* sysctls: a write of an unchanged value leaves the key off; the RT
# default boost lowered; the system-wide max lowered (min first: max below min is EINVAL).
K=/proc/sys/kernel
m() { echo "lab: $*" >/sys/kernel/tracing/trace_marker; }
rt-app workload.json &
sleep 1.5
m "sysctl sched_util_clamp_min_rt_default 1024 (unchanged)"
echo 1024 >$K/sched_util_clamp_min_rt_default
sleep 1.5
m "sysctl sched_util_clamp_min_rt_default 300"
echo 300 >$K/sched_util_clamp_min_rt_default
sleep 1.5
m "sysctl sched_util_clamp_min 400; sched_util_clamp_max 400"
echo 400 >$K/sched_util_clamp_min
echo 400 >$K/sched_util_clamp_max
sleep 2
m "sysctl sched_util_clamp_max 1024; sched_util_clamp_min 1024; rt_default 1024"
echo 1024 >$K/sched_util_clamp_max
echo 1024 >$K/sched_util_clamp_min
echo 1024 >$K/sched_util_clamp_min_rt_default
wait
