#!/bin/sh
# collect-platform.sh - dump what a running kernel says about its CPUs into one directory, for
# `govsim platforms import DIR -o NAME.sql`.
#
#   collect-platform.sh [-r ROOT] OUTDIR
#
# Runs on the device: as root on a board, through `adb shell` on a phone (push it to
# /data/local/tmp, run it with sh, then `adb pull` OUTDIR), or in the lab's QEMU guest. POSIX sh
# only (busybox, toybox/mksh): cat, mkdir, ls, zcat or gzip when there is /proc/config.gz.
# Files are copied to OUTDIR under their own path (OUTDIR/sys/devices/system/cpu/...):
#   per cpufreq policy: related_cpus, affected_cpus, scaling_driver, scaling_governor,
#     scaling_available_frequencies, stats/time_in_state, cpuinfo_{min,max}_freq,
#     cpuinfo_transition_latency
#   per CPU: cpu_capacity, topology ids, cpuidle states' name, desc, latency, residency
#   the energy model from debugfs: energy_model/<pd>/{cpus,flags}, ps:<kHz>/{frequency,power,
#     cost,inefficient} (debugfs is mounted if it is not and we may)
#   proc/cpuinfo; OUTDIR/uname-r (the kernel release); OUTDIR/config (the kernel's CONFIG_
#     lines about cpufreq, the energy model, uclamp, HZ and preemption, when readable)
# Nothing is written outside OUTDIR; a file that cannot be read is left out. -r ROOT reads
# ROOT/sys and ROOT/proc instead of /sys and /proc (a copy of a device's tree).
set -u

root=
if [ "${1:-}" = -r ] && [ $# -ge 3 ]; then
	root=$2
	shift 2
fi
if [ $# -ne 1 ] || [ "${1#-}" != "$1" ]; then
	echo "usage: collect-platform.sh [-r ROOT] OUTDIR" >&2
	exit 2
fi
out=$1
mkdir -p "$out" || exit 1

# copy PATH: ROOT/PATH to OUT/PATH, when it can be read
copy() {
	[ -r "$root$1" ] && [ -f "$root$1" ] || return 0
	mkdir -p "$out${1%/*}" && cat "$root$1" >"$out$1" 2>/dev/null || rm -f "$out$1"
}

cpu=/sys/devices/system/cpu
for f in possible present online cpuidle/current_driver cpuidle/current_governor \
	cpuidle/current_governor_ro; do
	copy $cpu/$f
done
for p in "$root$cpu"/cpufreq/policy*; do
	[ -d "$p" ] || continue
	p=${p#"$root"}
	for f in related_cpus affected_cpus scaling_driver scaling_governor \
		scaling_available_frequencies cpuinfo_min_freq cpuinfo_max_freq \
		cpuinfo_transition_latency scaling_min_freq scaling_max_freq stats/time_in_state; do
		copy "$p/$f"
	done
done
for c in "$root$cpu"/cpu[0-9]*; do
	[ -d "$c" ] || continue
	c=${c#"$root"}
	for f in cpu_capacity topology/cluster_id topology/package_id topology/core_id; do
		copy "$c/$f"
	done
	for s in "$root$c"/cpuidle/state[0-9]*; do
		[ -d "$s" ] || continue
		s=${s#"$root"}
		for f in name desc latency residency disable; do
			copy "$s/$f"
		done
	done
done

# The energy model (debugfs, root only): mounted for the dump when it is not.
dbg=/sys/kernel/debug
if [ -z "$root" ] && [ ! -d $dbg/energy_model ] && [ "$(id -u 2>/dev/null)" = 0 ]; then
	mount -t debugfs debugfs $dbg 2>/dev/null
fi
for pd in "$root$dbg"/energy_model/*; do
	[ -d "$pd" ] || continue
	pd=${pd#"$root"}
	copy "$pd/cpus"
	copy "$pd/flags"
	for ps in "$root$pd"/ps:*; do
		[ -d "$ps" ] || continue
		ps=${ps#"$root"}
		for f in frequency power cost inefficient; do
			copy "$ps/$f"
		done
	done
done

copy /proc/cpuinfo
copy /proc/version
if [ -r "$root/proc/sys/kernel/osrelease" ]; then
	cat "$root/proc/sys/kernel/osrelease" >"$out/uname-r"
elif [ -z "$root" ]; then
	uname -r >"$out/uname-r"
fi

want='^CONFIG_(CPU_FREQ|ENERGY_MODEL|UCLAMP|HZ|PREEMPT|NO_HZ|SCHED_MC|SCHED_SMT|ARM_CPUIDLE|CPU_IDLE)'
release=$(cat "$out/uname-r" 2>/dev/null)
if [ -r "$root/proc/config.gz" ]; then
	{ zcat "$root/proc/config.gz" 2>/dev/null || gzip -dc "$root/proc/config.gz"; } |
		grep -E "$want" >"$out/config"
elif [ -n "$release" ] && [ -r "$root/boot/config-$release" ]; then
	grep -E "$want" "$root/boot/config-$release" >"$out/config"
fi

n=$(ls -d "$out$cpu"/cpufreq/policy* 2>/dev/null | wc -l)
if [ "$n" -eq 0 ]; then
	echo "collect-platform.sh: wrote '$out', but it has no cpufreq policy (no cpufreq driver?): there is nothing for govsim to model" >&2
	exit 1
fi
echo "collect-platform.sh: wrote '$out': $n cpufreq policies; next: govsim platforms import '$out' -o NAME.sql"
