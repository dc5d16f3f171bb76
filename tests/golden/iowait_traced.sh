#!/bin/bash
# iowait_traced.sh - a trace's own iowait requests (sugov_set_iowait_boost, as Android kernels
# trace them: "doing iow boost" / "skipping iow boost") drive schedutil's iowait boost.
#
# Checks, on a hand-written hikey960 trace in traced timing with rate_limit_us=1000: a task on
# CPU 4 (capacity 1024) is woken five times 2 ms apart, each wakeup 5 us after a "doing iow
# boost" on CPU 4, and a task on CPU 0 (capacity 462) once. Each request is replayed as v5.9's
# cpufreq_update_util(SCHED_CPUFREQ_IOWAIT) on its CPU at its time: sugov_iowait_boost() sets
# the boost to IOWAIT_BOOST_MIN (128; more than a tick since the previous request's update, so
# no doubling) and sugov_iowait_apply() gives max(util, 128 x capacity >> 10): 128 on CPU 4,
# target (2362000 + 2362000/4) x 128 / 1024 = 369062 kHz; 57 on CPU 0, target
# (1844000 + 1844000/4) x 57 / 462 = 284383 kHz. The wakeup's enqueue 5 us later evaluates
# again (the frequency did not change, so no rate limit holds it): no new request, the boost
# halves to 64, below the minimum, and drops to 0, so that evaluation sees the task's own util
# (below 10). "skipping iow boost" lines request nothing; a wakeup after a D-state sleep with no
# request is not boosted (the trace's requests replace the D-state guess); --set iowait_boost=0
# boosts nothing. The run notes the trace's requests (not "cannot tell") and records
# iowait_source=trace.
# Does not check: work timing's figures (there a request applies at the replay's time).
set -u
export LC_ALL=C
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init iowait_traced

{
	printf '# tracer: nop\n#\n'
	for c in 0 1 2 3; do
		printf '          <idle>-0     [00%d] d..2   20.000000: cpu_frequency: state=533000 cpu_id=%d\n' $c $c
	done
	for c in 4 5 6 7; do
		printf '          <idle>-0     [00%d] d..2   20.000000: cpu_frequency: state=903000 cpu_id=%d\n' $c $c
	done
	# wake CPU CPU PID COMM US STATE REQUEST: a run of 20 us, after a request when REQUEST=1
	wake() {
		if [ "$6" = 1 ]; then
			printf '          <idle>-0     [00%d] d.h3   20.%06d: sugov_set_iowait_boost: doing iow boost\n' $1 $(($4 - 5))
		fi
		printf '          <idle>-0     [00%d] dnh3   20.%06d: sched_wakeup: comm=%s pid=%d prio=120 target_cpu=00%d\n' $1 $4 $3 $2 $1
		printf '          <idle>-0     [00%d] d..3   20.%06d: sched_switch: prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=%s next_pid=%d next_prio=120\n' $1 $(($4 + 10)) $1 $3 $2
		printf '%16s-%-5d [00%d] d..3   20.%06d: sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s ==> next_comm=swapper/%d next_pid=0 next_prio=120\n' $3 $2 $1 $(($4 + 30)) $3 $2 $5 $1
	}
	wake 4 50 a 5000 S 0 # the tasks are known before their first request
	wake 0 60 b 5000 S 0
	for k in 0 1 2 3 4; do
		us=$((10000 + 2000 * k))
		printf '          <idle>-0     [000] d.h3   20.%06d: sugov_set_iowait_boost: skipping iow boost\n' $((us - 8))
		st=S; [ $k = 4 ] && st=D # the last sleep is a D-state one
		wake 4 50 a $us $st 1
	done
	wake 0 60 b 20000 S 1
	wake 4 50 a 30000 S 0 # after a D-state sleep, no request
} >"$tmp/io.txt"

# the first and the last evaluation of CPU C at time T: "T C util target_khz" each
evals() {
	awk -F, 'NR > 1 { k = $1 " " $2; if (!(k in first)) { first[k] = $10 " " $11; order[++n] = k }
		last[k] = $10 " " $11 }
		END { for (i = 1; i <= n; i++) print order[i], first[order[i]], "|", last[order[i]] }' "$1"
}

"$bin" run "$tmp/io.txt" --timing traced --set rate_limit_us=1000 --timeline "$tmp/on.csv" \
	--json >"$tmp/on.json" 2>"$tmp/e" || golden_fail "run failed: $(cat "$tmp/e")"
evals "$tmp/on.csv" >"$tmp/on.txt"
for t in 0.0099 0.0119 0.0139 0.0159 0.0179; do
	grep -q "^${t}95 4 128 369062 " "$tmp/on.txt" ||
		golden_fail "CPU 4 at ${t}95: want 128 (369062 kHz): $(grep "^${t}95 4 " "$tmp/on.txt")"
	w=$(awk -v t="$t" 'BEGIN { printf "%.6f", t + 0.0001 }')
	grep -q "^$w 4 [0-9] " "$tmp/on.txt" ||
		golden_fail "CPU 4 at $w: want the task's own util: $(grep "^$w 4 " "$tmp/on.txt")"
done
grep -q "^0.019995 0 57 284383 " "$tmp/on.txt" ||
	golden_fail "CPU 0 at 0.019995: want 57 (284383 kHz): $(grep "^0.019995 0 " "$tmp/on.txt")"
grep -q "^0.030000 4 [0-9] " "$tmp/on.txt" ||
	golden_fail "the D-state wakeup without a request was boosted: $(grep "^0.030000 4 " "$tmp/on.txt")"
python3 - "$tmp/on.json" <<'PY' || golden_fail "the run's notes or params do not say the boost came from the trace"
import json, sys
j = json.load(open(sys.argv[1]))
notes = json.dumps(j.get("notes"))
ok = "6 kernel requests" in notes and "cannot tell" not in notes
ok = ok and "iowait_source=trace" in json.dumps(j.get("params"))
if not ok:
    print(j.get("notes"), j.get("params"), file=sys.stderr)
sys.exit(0 if ok else 1)
PY

"$bin" run "$tmp/io.txt" --timing traced --set rate_limit_us=1000 --set iowait_boost=0 \
	--timeline "$tmp/off.csv" >"$tmp/o" 2>"$tmp/e" || golden_fail "iowait_boost=0 run failed: $(cat "$tmp/e")"
awk -F, 'NR > 1 && $10 + 0 >= 10 { bad = 1 } END { exit bad }' "$tmp/off.csv" ||
	golden_fail "iowait_boost=0: boosted evaluations: $(awk -F, 'NR > 1 && $10 + 0 >= 10' "$tmp/off.csv" | head -3)"
grep -q "iowait boost off (--set iowait_boost=0), though the trace gives the kernel's requests" "$tmp/o" ||
	golden_fail "iowait_boost=0: no note: $(grep note "$tmp/o")"
exit $fail
