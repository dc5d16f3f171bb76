# needs: uclamp
# The sched_util_clamp_* sysctls: a write of an unchanged value leaves the key off; the RT
# default boost lowered; the system-wide max lowered (min first: max below min is EINVAL).
# Each write is marked "lab: sysctl NAME VALUE" just before it (tools/lab/markers-to-policy
# turns the marks into the govsim policy the replay applies).
K=/proc/sys/kernel
w() { echo "lab: sysctl $1 $2" >/sys/kernel/tracing/trace_marker; echo "$2" >$K/$1; }
rt-app workload.json &
sleep 1.5
w sched_util_clamp_min_rt_default 1024
sleep 1.5
w sched_util_clamp_min_rt_default 300
sleep 1.5
w sched_util_clamp_min 400
w sched_util_clamp_max 400
sleep 2
w sched_util_clamp_max 1024
w sched_util_clamp_min 1024
w sched_util_clamp_min_rt_default 1024
wait
