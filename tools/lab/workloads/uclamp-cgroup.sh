# needs: uclamp
# cgroup v2 cpu.uclamp.{min,max}: two rt-app instances in groups /ga and /gb; the first write
# of a clamp file turns the key on (mkdir alone does not).
# The marks "lab: cgroup ..." and "lab: attach ..." say what govsim's policy language says
# (tools/lab/markers-to-policy).
G=/sys/fs/cgroup
m() { echo "lab: $*" >/sys/kernel/tracing/trace_marker; }
echo +cpu >$G/cgroup.subtree_control
m "cgroup /ga"
m "cgroup /gb"
mkdir -p $G/ga $G/gb
m "attach comm=ga0 /ga"
m "attach comm=ga1 /ga"
m "attach comm=gb0 /gb"
m "attach comm=gb1 /gb"
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
