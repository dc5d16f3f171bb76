# The unclamped half of the cgroup what-if pair (tools/lab/measure-whatif; docs/lab.md,
# "What-if"): whatif-cgroup-clamp.sh with the same groups and tasks in them, but each
# cpu.uclamp write only marked ("lab: whatif cgroup /G FILE VALUE"), not made: no clamp is set
# and the key stays off (a group made and a task attached to it do not turn it on).
G=/sys/fs/cgroup
m() { echo "lab: $*" >/sys/kernel/tracing/trace_marker; }
w() { m "whatif cgroup $1 $2 $3"; }
echo +cpu >$G/cgroup.subtree_control
m "cgroup /ga"
m "cgroup /gb"
mkdir -p $G/ga $G/gb
m "attach comm=ga0 /ga"
m "attach comm=ga1 /ga"
m "attach comm=gb0 /gb"
m "attach comm=gb1 /gb"
w /ga cpu.uclamp.max max
sh -c "echo \$\$ >$G/ga/cgroup.procs; exec rt-app whatif-cgroup-base-a.json" &
sh -c "echo \$\$ >$G/gb/cgroup.procs; exec rt-app whatif-cgroup-base-b.json" &
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
