# needs: uclamp
# A what-if workload (tools/lab/measure-whatif; docs/lab.md, "What-if"): uclamp-cgroup's two
# rt-app instances in groups /ga and /gb and cpu.uclamp writes at fixed delays after the
# threads exist: /ga's max 30, then /gb's min 70, then both released. The groups are made and
# the tasks moved in before they start, and a write that changes nothing (/ga's max, already
# max) turns the uclamp key on there. The marks "lab: cgroup ..." and "lab: attach ..." say
# what govsim's policy language says (tools/lab/markers-to-policy).
# Under `record --dry-clamps` (DRY_CLAMPS=1) the groups and the tasks in them are the same, and
# each write is only marked ("lab: whatif cgroup /G FILE VALUE"), not made: the key stays off.
G=/sys/fs/cgroup
m() { echo "lab: $*" >/sys/kernel/tracing/trace_marker; }
w() {
	if [ "$DRY_CLAMPS" = 1 ]; then
		m "whatif cgroup $1 $2 $3"
	else
		m "cgroup $1 $2 $3"
		echo "$3" >"$G$1/$2"
	fi
}
echo +cpu >$G/cgroup.subtree_control
m "cgroup /ga"
m "cgroup /gb"
mkdir -p $G/ga $G/gb
m "attach comm=ga0 /ga"
m "attach comm=ga1 /ga"
m "attach comm=gb0 /gb"
m "attach comm=gb1 /gb"
w /ga cpu.uclamp.max max
sh -c "echo \$\$ >$G/ga/cgroup.procs; exec rt-app whatif-cgroup-a.json" &
sh -c "echo \$\$ >$G/gb/cgroup.procs; exec rt-app whatif-cgroup-b.json" &
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
