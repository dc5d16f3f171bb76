# needs: uclamp
# cgroup v2 cpu.uclamp.{min,max}: two rt-app instances in groups /ga and /gb; the first write
# of a clamp file turns the key on (mkdir alone does not).
G=/sys/fs/cgroup
echo +cpu >$G/cgroup.subtree_control
mkdir -p $G/ga $G/gb
sh -c "echo \$\$ >$G/ga/cgroup.procs; exec rt-app uclamp-cgroup-a.json" &
sh -c "echo \$\$ >$G/gb/cgroup.procs; exec rt-app uclamp-cgroup-b.json" &
sleep 1.5
echo "lab: cgroup /ga cpu.uclamp.max 30" >/sys/kernel/tracing/trace_marker
echo 30 >$G/ga/cpu.uclamp.max
sleep 2
echo "lab: cgroup /gb cpu.uclamp.min 70" >/sys/kernel/tracing/trace_marker
echo 70 >$G/gb/cpu.uclamp.min
sleep 2
echo "lab: cgroup /ga cpu.uclamp.max max" >/sys/kernel/tracing/trace_marker
echo max >$G/ga/cpu.uclamp.max
echo "lab: cgroup /gb cpu.uclamp.min 0" >/sys/kernel/tracing/trace_marker
echo 0 >$G/gb/cpu.uclamp.min
wait
