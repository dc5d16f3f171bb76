# Short-lived processes: each forks, runs a few ms of busybox work on CPU 0 and exits, beside
# a periodic rt-app task on CPU 1.
rt-app workload.json &
i=0
while [ $i -lt 150 ]; do
	taskset 1 dd if=/dev/zero of=/dev/null bs=4k count=$((200 + (i % 7) * 300)) 2>/dev/null
	usleep 30000
	i=$((i + 1))
done
wait
