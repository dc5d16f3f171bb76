#!/bin/bash
# lab_whatif.sh - tools/lab/measure-whatif's figures on a hand-made pair of recordings, with a
# stand-in for govsim whose what-if timeline is given, so that every figure is known by hand.
#   base:    workload 1.0 .. 3.0 s, uclampctl -n's marker at 2.0 (victim max=256, not set),
#            the kernel at 3000 MHz throughout (the no-clamp answer);
#   clamped: workload 11.0 .. 13.0 s, uclampctl's marker at 12.0, the kernel at 3000 MHz, then
#            800 MHz from 12.5 (the real answer: phase 1 is half 3000, half 800);
#   what-if: the stand-in's timeline, 3000 MHz from the start, 800 MHz from 2.25 s (phase 1 is
#            a quarter 3000, three quarters 800).
# CPU 0 runs a task throughout, but for the clamped run's last 0.25 s (idle). Phase 1: overlap of what-if and real = min(.25, .5) +
# min(.75, .5) = 75.0 %, of no-clamp and real min(1, .5) = 50.0 %; mean MHz real 1900,
# what-if 1350, no-clamp 3000. Energy over the workload (30000 mW at 3000, 5000 at 800, busy
# time only): real 1.5 s x 30000 + 0.25 s x 5000 = 46250 mJ, what-if 1.25 x 30000 + 0.75 x
# 5000 = 41250 (0.892), no-clamp 2 x 30000 = 60000 (1.297). The policy the stand-in gets holds the marker at its
# time from the base's first event: "at 1.000000 setattr comm=victim uclamp_max=256". A call
# that failed (the clamped recording's "-> Invalid argument" at 12.2) set nothing and is no
# phase boundary (one more boundary would not pair the recordings: exit 2). A second clamped
# run, at 800 MHz from 22.75 of 21 .. 23 s (phase 1 three quarters 3000), overlaps the first
# in phase 1 by min(.75, .5) + min(.25, .5) = 75.0 %; its CPU never runs a task (no
# sched_switch), so its energy is 0 (again / real 0.000).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init lab_whatif.sh

facts() {
	printf 'kernel = 7.2\npstates_mhz_mw = 3000:30000,800:5000\npolicy0.related_cpus = 0\n'
}
line() { # TIME TEXT
	echo "            init-1       [000] ...1.     $1: $2"
}
{
	echo "# tracer: nop"
	line 1.000000 "tracing_mark_write: lab: workload whatif-task start"
	line 1.000000 "cpu_frequency: state=3000000 cpu_id=0"
	line 1.000000 "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=victim next_pid=100 next_prio=120"
	line 2.000000 "tracing_mark_write: uclampctl: victim 100 min=-1 max=256 -> dry-run"
	line 3.000000 "tracing_mark_write: lab: workload whatif-task end"
} | gzip >"$tmp/base.txt.gz"
{
	echo "# tracer: nop"
	line 11.000000 "tracing_mark_write: lab: workload whatif-task start"
	line 11.000000 "cpu_frequency: state=3000000 cpu_id=0"
	line 11.000000 "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=victim next_pid=100 next_prio=120"
	line 12.000000 "tracing_mark_write: uclampctl: victim 100 min=-1 max=256 -> 0"
	line 12.200000 "tracing_mark_write: uclampctl: other 101 min=-1 max=512 -> Invalid argument"
	line 12.500000 "cpu_frequency: state=800000 cpu_id=0"
	line 12.750000 "sched_switch: prev_comm=victim prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120"
	line 13.000000 "tracing_mark_write: lab: workload whatif-task end"
} | gzip >"$tmp/clamp.txt.gz"
{
	echo "# tracer: nop"
	line 21.000000 "tracing_mark_write: lab: workload whatif-task start"
	line 21.000000 "cpu_frequency: state=3000000 cpu_id=0"
	line 22.000000 "tracing_mark_write: uclampctl: victim 100 min=-1 max=256 -> 0"
	line 22.750000 "cpu_frequency: state=800000 cpu_id=0"
	line 23.000000 "tracing_mark_write: lab: workload whatif-task end"
} | gzip >"$tmp/again.txt.gz"
facts >"$tmp/base.facts"
facts >"$tmp/clamp.facts"
cat >"$tmp/govsim" <<EOF
#!/bin/sh
# the stand-in: keeps the policy it was given, writes the what-if timeline
while [ \$# -gt 0 ]; do
	case \$1 in --policy) cp "\$2" "$tmp/given.policy"; shift ;; --csv) d=\$2; shift ;; esac
	shift
done
mkdir -p "\$d"
printf 'run_id,seq,time_s,policy,freq_khz,traced_khz,util,capacity\n0,0,0,0,3000000,0,0,1024\n0,1,1.25,0,800000,0,0,1024\n' >"\$d/timeline.csv"
EOF
chmod +x "$tmp/govsim"

python3 tools/lab/measure-whatif --govsim "$tmp/govsim" --write-thresholds "$tmp/floors.tsv" \
	"$tmp/base.txt.gz" "$tmp/clamp.txt.gz" "$tmp/again.txt.gz" >"$tmp/out.txt" 2>&1 ||
	golden_fail "measure-whatif failed: $(cat "$tmp/out.txt")"
grep -qx "at 1.000000 setattr comm=victim uclamp_max=256" "$tmp/given.policy" ||
	golden_fail "the policy given to govsim: $(cat "$tmp/given.policy")"
grep -Eq "^ +1 policy0 +1\.00 +1900 +1350 +3000 +75\.0 % +50\.0 % +75\.0 %$" "$tmp/out.txt" ||
	golden_fail "phase 1: want 1900 1350 3000 MHz, overlaps 75.0, 50.0, 75.0 %: $(cat "$tmp/out.txt")"
grep -Eq "^ +0 policy0 +1\.00 +3000 +3000 +3000 +100\.0 % +100\.0 % +100\.0 %$" "$tmp/out.txt" ||
	golden_fail "phase 0: want 3000 MHz everywhere, overlaps 100 %: $(cat "$tmp/out.txt")"
grep -Eq "^policy0 +46250\.0 +41250\.0 +60000\.0 +0\.892 +1\.297 +0\.000$" "$tmp/out.txt" ||
	golden_fail "energy: want 46250, 41250, 60000 mJ: $(grep '^policy0 ' "$tmp/out.txt")"
grep -qx "clamp	phase1 policy0 overlap	75.0" "$tmp/floors.tsv" ||
	golden_fail "floors: $(cat "$tmp/floors.tsv")"
# a floor above the figure fails, the written floors pass
python3 tools/lab/measure-whatif --govsim "$tmp/govsim" --check "$tmp/floors.tsv" \
	"$tmp/base.txt.gz" "$tmp/clamp.txt.gz" >/dev/null 2>&1 || golden_fail "its own floors fail"
sed 's/^\(clamp\tphase1 policy0 overlap\t\)75.0/\175.1/' "$tmp/floors.tsv" >"$tmp/high.tsv"
python3 tools/lab/measure-whatif --govsim "$tmp/govsim" --check "$tmp/high.tsv" \
	"$tmp/base.txt.gz" "$tmp/clamp.txt.gz" >/dev/null 2>"$tmp/err.txt"
golden_equal "exit status with a floor above the figure" "$?" 1
grep -q "clamp phase1 policy0 overlap 75.0 below its floor 75.1" "$tmp/err.txt" ||
	golden_fail "message: $(cat "$tmp/err.txt")"
# The cgroup interface: groups made and tasks attached are the policy's first lines; a marked
# write ("lab: whatif cgroup ...", not made) is a timed line and a phase limit, and in the
# clamped recording so is the write's own marker ("lab: cgroup /G FILE VALUE").
zcat "$tmp/base.txt.gz" | sed -e 's|uclampctl: victim 100 min=-1 max=256 -> dry-run|lab: whatif cgroup /ga cpu.uclamp.max 25|' \
	-e '/workload whatif-task start/a\            init-1       [000] ...1.     1.000000: tracing_mark_write: lab: cgroup /ga\n            init-1       [000] ...1.     1.000000: tracing_mark_write: lab: attach comm=victim /ga' |
	gzip >"$tmp/cg-base.txt.gz"
zcat "$tmp/clamp.txt.gz" | sed 's|uclampctl: victim 100 min=-1 max=256 -> 0|lab: cgroup /ga cpu.uclamp.max 25|' |
	gzip >"$tmp/cg-clamp.txt.gz"
# (with a second policy, of a CPU that runs no task: its energy ratios are n/a, not a crash)
{ cat "$tmp/base.facts"; echo "policy1.related_cpus = 1"; } >"$tmp/cg-base.facts"
cp "$tmp/cg-base.facts" "$tmp/cg-clamp.facts"
python3 tools/lab/measure-whatif --govsim "$tmp/govsim" "$tmp/cg-base.txt.gz" "$tmp/cg-clamp.txt.gz" \
	>"$tmp/cg-out.txt" 2>&1 || golden_fail "cgroup pair: $(cat "$tmp/cg-out.txt")"
printf 'cgroup /ga\nattach comm=victim /ga\nat 1.000000 cgroup /ga cpu.uclamp.max 25\n' >"$tmp/cg-want.policy"
grep -v '^#' "$tmp/given.policy" >"$tmp/cg-given.policy"
golden_same "the cgroup pair's policy" "$tmp/cg-want.policy" "$tmp/cg-given.policy"
grep -Eq "^ +1 policy0 +1\.00 +1900 +1350 +3000 +75\.0 % +50\.0 %$" "$tmp/cg-out.txt" ||
	golden_fail "cgroup pair, phase 1: $(cat "$tmp/cg-out.txt")"
grep -Eq "^policy1 +0\.0 +0\.0 +0\.0 +n/a +n/a$" "$tmp/cg-out.txt" ||
	golden_fail "a policy without busy time: $(grep '^policy1 ' "$tmp/cg-out.txt")"
# a floors file without the pair fails: the floors are named after the clamped recording
python3 tools/lab/measure-whatif --govsim "$tmp/govsim" --check "$tmp/floors.tsv" \
	"$tmp/cg-base.txt.gz" "$tmp/cg-clamp.txt.gz" >/dev/null 2>"$tmp/err2.txt"
golden_equal "exit status without the pair's floors" "$?" 1
grep -q "no floors for cg-clamp" "$tmp/err2.txt" || golden_fail "message: $(cat "$tmp/err2.txt")"
exit $fail
