# needs: uclamp
# The clamped half of the cgroup what-if pair (tools/lab/measure-whatif; docs/lab.md,
# "What-if"): uclamp-cgroup's two rt-app instances in groups /ga and /gb and its cpu.uclamp
# writes, timed from the moment the threads exist (as in whatif-cgroup-base.sh). A first write
# that changes nothing (/ga's max, already max) turns the uclamp key on before the tasks start.
# The marks "lab: cgroup ..." and "lab: attach ..." say what govsim's policy language says.
G=/sys/fs/cgroup
m() { echo "lab: $*" >/sys/kernel/tracing/trace_marker; }
w() { m "cgroup $1 $2 $3"; echo "$3" >"$G$1/$2"; }
echo +cpu >$G/cgroup.subtree_control
m "cgroup /ga"
m "cgroup /gb"
mkdir -p $G/ga $G/gb
m "attach comm=ga0 /ga"
m "attach comm=ga1 /ga"
m "attach comm=gb0 /gb"
m "attach comm=gb1 /gb"
w /ga cpu.uclamp.max max
sh -c "echo \$\$ >$G/ga/cgroup.procs; exec rt-app whatif-cgroup-clamp-a.json" &
sh -c "echo \$\$ >$G/gb/cgroup.procs; exec rt-app whatif-cgroup-clamp-b.json" &
until grep -qsx ga1 /proc/[0-9]*/task/[0-9]*/comm && grep -qsx gb1 /proc/[0-9]*/task/[0-9]*/comm; do
	usleep 10000
done
sleep 1.5
w /ga cpu.uclamp.max 30
sleep 2
w /gb cpu.uclamp.min 70
sleep 2
w /ga cpu.uclamp.max max
w /gb cpu.uclamp.min 0
wait
