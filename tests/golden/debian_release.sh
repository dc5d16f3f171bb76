#!/bin/bash
# debian_release.sh - a Debian kernel's profile from its upstream version, not its ABI name.
#
# Debian names its kernels by ABI: `uname -r` is "5.10.0-32-amd64" for every 5.10 stable
# update, whose sublevel shows only in /proc/version: "... #1 SMP Debian 5.10.223-1
# (2024-08-10)". 5.10.223 is long past the util_est and schedutil backports that split v5.10
# from v5.10-early (at 5.10.~40), so the trace's /proc/version line picks v5.10. A release
# with its sublevel (5.10.20-..., no Debian version) keeps choosing by that sublevel, and a
# Debian line of another major.minor than the release is not taken.
#
# The same kernel recorded as trace.dat (its UNAME option: sysname, nodename, release, version,
# machine, as trace-cmd record writes uname(2)) and as Perfetto (system_info's utsname release
# and version) gets the same profile as its text: the upstream version is in uname -v there.
# The trace.dat is the juno-r0 one with a UNAME option written in by lib/dat_uname.py, the
# Perfetto trace the text one below converted by tools/ftrace_to_perfetto.py with a system_info
# packet put first by lib/pf_uname.py (both written apart from govsim's readers).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init debian_release.sh

trace() { # $1: the /proc/version line
	echo "# tracer: nop"
	echo "# $1"
	echo "          <idle>-0       [001] d..2.     1.000010: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=11 next_prio=120"
	echo "            spin-11      [001] d..2.     1.030000: sched_switch: prev_comm=spin prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120"
}
profile() {
	"$bin" run "$tmp/t.txt" --platform lab-2cpu --timing traced 2>&1 |
		sed -n 's/.*kernel profile \(v[0-9.a-z-]*\).*/\1/p; s/.*: profile \(v[0-9.a-z-]*\).*/\1/p' | head -1
}
trace "Linux version 5.10.0-32-amd64 (debian-kernel@lists.debian.org) (gcc-10 (Debian 10.2.1-6) 10.2.1 20210110, GNU ld (GNU Binutils for Debian) 2.35.2) #1 SMP Debian 5.10.223-1 (2024-08-10)" >"$tmp/t.txt"
got=$(profile)
[ "$got" = v5.10 ] || golden_fail "Debian 5.10.223 (5.10.0-32-amd64): profile '$got', want v5.10"
trace "Linux version 5.10.20-foo (me@host) (gcc 10) #1 SMP PREEMPT" >"$tmp/t.txt"
got=$(profile)
[ "$got" = v5.10-early ] || golden_fail "5.10.20: profile '$got', want v5.10-early"
trace "Linux version 5.10.0-32-amd64 (me@host) (gcc 10) #1 SMP Debian 6.1.99-1 (2024-08-10)" >"$tmp/t.txt"
got=$(profile)
[ "$got" = v5.10-early ] || golden_fail "5.10.0 with a Debian 6.1 version: profile '$got', want v5.10-early"

release=5.10.0-32-amd64
version="#1 SMP Debian 5.10.223-1 (2024-08-10)"
# dat_profile UNAME_VERSION: the profile of the juno-r0 trace.dat recorded under that uname -v
dat_profile() {
	python3 tests/golden/lib/dat_uname.py traces/juno-r0/sched_load/trace.dat "$tmp/t.dat" \
		"Linux deb $release $1 aarch64" || golden_fail "dat_uname.py failed"
	"$bin" run "$tmp/t.dat" --platform juno-r0 --timing traced 2>&1 |
		sed -n 's/.*kernel profile \(v[0-9.a-z-]*\).*/\1/p' | head -1
}
# pf_profile UNAME_VERSION: the profile of the text trace above as Perfetto under that uname -v
pf_profile() {
	trace "Linux version 5.10.20-foo (me@host) (gcc 10) #1 SMP PREEMPT" >"$tmp/t.txt"
	python3 tools/ftrace_to_perfetto.py "$tmp/t.txt" "$tmp/plain.pftrace" &&
		python3 tests/golden/lib/pf_uname.py "$tmp/plain.pftrace" "$tmp/t.pftrace" Linux \
			"$release" "$1" x86_64 || golden_fail "pf_uname.py failed"
	"$bin" run "$tmp/t.pftrace" --platform lab-2cpu --timing traced 2>&1 |
		sed -n 's/.*kernel profile \(v[0-9.a-z-]*\).*/\1/p' | head -1
}
golden_equal "trace.dat of Debian 5.10.223 ($release): profile" "$(dat_profile "$version")" v5.10
golden_equal "Perfetto of Debian 5.10.223 ($release): profile" "$(pf_profile "$version")" v5.10
golden_equal "trace.dat of $release without a Debian version: profile" \
	"$(dat_profile "#1 SMP PREEMPT")" v5.10-early
golden_equal "Perfetto of $release with a Debian 6.1 version: profile" \
	"$(pf_profile "#1 SMP Debian 6.1.99-1 (2024-08-10)")" v5.10-early
exit $fail
