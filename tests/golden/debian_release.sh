#!/bin/bash
# debian_release.sh - a Debian kernel's profile from its upstream version, not its ABI name.
#
# Debian names its kernels by ABI: `uname -r` is "5.10.0-32-amd64" for every 5.10 stable
# update, whose sublevel shows only in /proc/version: "... #1 SMP Debian 5.10.223-1
# (2024-08-10)". 5.10.223 is long past the util_est and schedutil backports that split v5.10
# from v5.10-early (at 5.10.~40), so the trace's /proc/version line picks v5.10. A release
# with its sublevel (5.10.20-..., no Debian version) keeps choosing by that sublevel, and a
# Debian line of another major.minor than the release is not taken.
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
exit $fail
