#!/bin/bash
# selectors.sh - report --select and compare take one selector, and mistakes get a "did you mean".
#
# Checks, on a database of four runs of one generated trace (no policy; a policy file; one
# action; rate_limit_us=2000), each expected set of runs written here from how the runs were
# made and read back with sqlite3 (their ids by label):
#  - report --select picks, for policy=none, policy=FILE, action='LINE', a tunable and a runs
#    column, exactly the runs compare's side with the same selector counts (compare --json
#    base_runs) and those expected; db= is refused by report (exit 2);
#  - "did you mean" for a mistyped command, policy key, sysctl, cgroup file and action, --fail-on
#    metric, selector key (compare and report), and --format.
# Does not check: which suggestion wins among close ones (unit test_suggest does).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init selectors
cd "$tmp" || exit 1

"$bin" gen periodic --count 10 -o p.txt || exit 1
printf 'setattr comm=* uclamp_max=300\n' >cap.txt
"$bin" run p.txt --db r.db --quiet --label plain &&
	"$bin" run p.txt --db r.db --quiet --label withfile --policy cap.txt &&
	"$bin" run p.txt --db r.db --quiet --label withaction --action 'setattr comm=* uclamp_min=100' &&
	"$bin" run p.txt --db r.db --quiet --label ratelimit --set rate_limit_us=2000 || exit 1
id() { sqlite3 r.db "SELECT run_id FROM runs WHERE label = '$1'"; }

# selected SEL EXPECTED_IDS: report's runs (its file names) and compare's count for SEL
selected() {
	local sel=$1 want=$2 got n
	rm -rf out
	if ! "$bin" report --db r.db --select "$sel" --out out >/dev/null 2>err.txt; then
		golden_fail "report --select '$sel' failed:"; cat err.txt >&2; return
	fi
	got=$(ls out | sed -n 's/^run\([0-9]*\)_residency\.png$/\1/p' | sort -n | tr '\n' ' ')
	[ "$got" = "$want " ] ||
		golden_fail "report --select '$sel' drew runs '$got', expected '$want '"
	n=$("$bin" compare --db r.db --base "$sel" --new "$sel" --json 2>err.txt |
		grep -o '"base_runs": *[0-9]*' | head -1 | grep -o '[0-9]*$')
	[ "$n" = "$(echo $want | wc -w)" ] ||
		{ golden_fail "compare --base '$sel' took '$n' runs, expected $(echo $want | wc -w)"; cat err.txt >&2; }
}
selected "policy=none" "$(id plain) $(id ratelimit)"
selected "policy=cap.txt" "$(id withfile)"
selected "action=setattr comm=* uclamp_min=100" "$(id withaction)"
selected "rate_limit_us=2000" "$(id ratelimit)"
selected "governor=schedutil,policy=none,label=plain" "$(id plain)"

"$bin" report --db r.db --select "db=r.db" --out out >/dev/null 2>err.txt
st=$?
[ $st = 2 ] || golden_fail "report --select db=... exits $st, expected 2"

# hint EXPECTED ARGS...: stderr of govsim ARGS ends with "did you mean 'EXPECTED'?"
hint() {
	local want=$1
	shift
	"$bin" "$@" >/dev/null 2>err.txt
	grep -qF "did you mean '$want'?" err.txt ||
		{ golden_fail "'govsim $*' does not suggest '$want':"; cat err.txt >&2; }
}
printf 'setattr comm=* uclamp_mni=300\n' >p1.txt
printf 'sysctl sched_util_clamp_mni 300\n' >p2.txt
printf 'cgroup /a cpu.uclamp.mx 50\n' >p3.txt
printf 'setatr comm=* uclamp_max=300\n' >p4.txt
hint run rnu
hint uclamp_min= run p.txt --policy p1.txt
hint sched_util_clamp_min run p.txt --policy p2.txt
hint cpu.uclamp.max run p.txt --policy p3.txt
hint setattr run p.txt --policy p4.txt
hint energy compare --db r.db --base run=1 --new run=2 --fail-on 'enrgy>+2%'
hint governor compare --db r.db --base govenor=schedutil --new run=2
hint governor report --db r.db --select govenor=schedutil --out out
hint tracecmd trace info p.txt --format tracecm
hint tracecmd run p.txt --format tracecm
exit $fail
