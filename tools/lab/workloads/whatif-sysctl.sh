# needs: uclamp
# A what-if workload (tools/lab/measure-whatif; docs/lab.md, "What-if"): uclamp-sysctl's tasks
# (an RT task and a CFS task on CPU 0, a CFS task on CPU 1) and writes of the
# sched_util_clamp_* sysctls at fixed delays after the threads exist: the RT default boost
# lowered to 300, then every task's clamps limited to 400, then all restored (min after max: a
# min above the max is EINVAL). Two writes that lower the min by one and restore it turn the
# uclamp key on before rt-app starts (lowering the max below the min instead is EINVAL, which
# changes nothing). Each write is marked "lab: sysctl NAME VALUE" just before it.
# Under `record --dry-clamps` (DRY_CLAMPS=1) each write is only marked ("lab: whatif sysctl
# NAME VALUE"), not made: the sysctls keep their defaults and the key stays off.
K=/proc/sys/kernel
m() { echo "lab: $*" >/sys/kernel/tracing/trace_marker; }
w() {
	if [ "$DRY_CLAMPS" = 1 ]; then
		m "whatif sysctl $1 $2"
	else
		m "sysctl $1 $2"
		echo "$2" >"$K/$1"
	fi
}
w sched_util_clamp_min 1023
w sched_util_clamp_min 1024
rt-app workload.json &
until grep -qsx cfs1 /proc/[0-9]*/task/[0-9]*/comm; do usleep 10000; done
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
