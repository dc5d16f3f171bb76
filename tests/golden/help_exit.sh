#!/bin/bash
# help_exit.sh - every command's --help "exit status" paragraph against what the command returns.
#
# For each command, each case runs a command line that meets one documented condition and
# checks that the exit status equals the number the help gives for it: the number is read from
# the help text itself (the item the quoted phrase belongs to), so the help and the program are
# checked against each other, and a phrase the help no longer has fails too. Also checks that
# every command's --help has an "exit status:" paragraph, and that the two spellings of the
# trace-cmd format are one format.
# Does not check: the messages (bad_inputs.sh does), or conditions the help does not name.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init help_exit
src=$PWD
cd "$tmp" || exit 1

# documented CMD PHRASE: the exit status CMD's --help gives for the item that contains PHRASE
documented() {
	"$bin" $1 --help 2>&1 | PHRASE="$2" perl -0777 -ne '
		/exit status:(.*)/s or exit 0;
		(my $t = $1) =~ s/\s+/ /g;
		my $i = index($t, $ENV{PHRASE});
		exit 0 if $i < 0;
		if ($ENV{PHRASE} =~ /^([0-9]) /) { print $1; exit 0; }
		my @n = (substr($t, 0, $i) =~ /(?:^ ?|[;,.] )([0-9]) /g);
		print $n[-1] if @n;'
}

# case_ CMD PHRASE ARGS...: run govsim ARGS, expect the status CMD's help gives for PHRASE
case_() {
	local cmd=$1 phrase=$2 want st
	shift 2
	want=$(documented "$cmd" "$phrase")
	if [ -z "$want" ]; then
		golden_fail "'govsim $cmd --help' says nothing of '$phrase'"
		return
	fi
	"$bin" "$@" >out.txt 2>err.txt
	st=$?
	if [ "$st" != "$want" ]; then
		golden_fail "'govsim $*' exits $st; 'govsim $cmd --help' says $want for '$phrase':"
		head -5 err.txt >&2
	fi
}

for c in run validate trace gen platforms kernels sweep compare merge report tune; do
	"$bin" $c --help 2>&1 | grep -q '^exit status: ' ||
		golden_fail "'govsim $c --help' has no exit status paragraph"
done

"$bin" gen periodic -o p.txt || exit 1

# -h / --help after a command's other arguments asks for its help as first does: the same text,
# status 0 (git's and most tools' way), the other arguments kept behind it; after "--" it is an
# argument like any other
for c in run validate trace gen platforms kernels sweep compare merge report tune; do
	"$bin" $c --help >want.txt 2>&1
	for h in --help -h; do
		"$bin" $c p.txt --set rate_limit_us=0 $h >got.txt 2>&1
		st=$?
		[ "$st" = 0 ] && cmp -s want.txt got.txt ||
			golden_fail "'govsim $c p.txt --set rate_limit_us=0 $h' exits $st, not with its help: $(head -1 got.txt)"
	done
done
# the other arguments stay behind the help: a governor given before it is the one described
"$bin" run --help --governor ondemand >want.txt 2>&1
"$bin" run p.txt --governor ondemand --help >got.txt 2>&1
grep -q '^governor ondemand:' want.txt && cmp -s want.txt got.txt ||
	golden_fail "'govsim run p.txt --governor ondemand --help' is not 'run --help --governor ondemand'"
"$bin" sweep p.txt --db s.db --quiet -- --help >out.txt 2>&1
st=$?
[ "$st" = 3 ] && grep -qF "'--help': cannot open" out.txt ||
	golden_fail "'govsim sweep p.txt ... -- --help' exits $st: not a trace named --help"
printf 'setattr comm=* uclamp_max=x\n' >bad-policy.txt
printf 'not a database\n' >text.db
src_sql="$src/tests/fixtures/bad/platform-no-opps.sql"

case_ run "0 ok" run p.txt --quiet
case_ run "an output cannot be written" run p.txt --quiet --timeline /proc/nope/t.csv
case_ run "bad command line" run p.txt --frob
case_ run "a trace, platform or policy that does not exist" run nope.txt
case_ run "a trace, platform or policy that does not exist" run p.txt --platform nope.sql
case_ run "is malformed" run p.txt --policy bad-policy.txt

# the generated trace's frequency markers as the kernel's own cpu_frequency events
"$bin" gen periodic --count 20 -o v.txt || exit 1
sed -i 's/tracing_mark_write: cpu_frequency_devlib: /cpu_frequency: /' v.txt
case_ validate "0 ok" validate v.txt
case_ validate "a policy below --fail-below" validate v.txt --fail-below busy=100
case_ validate "bad command line" validate --frob
case_ validate "has nothing to validate against" validate p.txt
case_ validate "a trace that does not exist" validate nope.txt

case_ trace "0 ok" trace info p.txt
case_ trace "bad command line" trace info p.txt --format nope
case_ trace "a trace that does not exist" trace info nope.txt

case_ gen "0 ok" gen mix -o m.txt
case_ gen "FILE cannot be written" gen mix -o /proc/nope/m.txt
case_ gen "bad command line" gen frob -o m.txt

case_ platforms "0 ok" platforms list
case_ platforms "an output file cannot be written" platforms plot hikey960 -o /proc/nope/p.png
case_ platforms "bad command line" platforms frob
case_ platforms "does not exist" platforms show nope.sql
case_ platforms "does not exist" platforms validate nope.sql
case_ platforms "is broken" platforms validate "$src_sql"

case_ kernels "0 ok" kernels list
case_ kernels "bad command line" kernels frob
case_ kernels "unknown profile" kernels show v5.8

case_ sweep "0 every run stored" sweep p.txt --governor performance --governor powersave --db s.db --quiet
case_ sweep "all on bad input" sweep nope.txt --db s2.db --quiet
case_ sweep "FILE could not be written" sweep p.txt --db /proc/nope/s.db --quiet
case_ sweep "2 bad command line" sweep p.txt --frob --db s3.db

"$bin" run p.txt --db h.db --quiet --platform hikey960 &&
	"$bin" run p.txt --db h.db --quiet --platform hikey ||
		golden_fail "run p.txt --db h.db --platform hikey: exit $?"
case_ compare "0 no threshold crossed" compare --db s.db --base governor=performance --new governor=powersave --fail-on 'transitions>+1000'
case_ compare "a threshold crossed" compare --db s.db --base governor=powersave --new governor=performance --fail-on 'energy>+2%'
case_ compare "bad command line" compare --db s.db --base governor=performance
case_ compare "selector" compare --db s.db --base bogus_key=1 --new run=1
case_ compare "threshold;" compare --db s.db --base run=1 --new run=2 --fail-on 'energy>>2'
case_ compare "different platforms" compare --db h.db --base run=1 --new run=2
case_ compare "a database that does not exist" compare --db nope.db --base run=1 --new run=2
case_ compare "is not a results database" compare --db text.db --base run=1 --new run=2

for k in 0 1; do
	"$bin" sweep p.txt --governor performance --governor powersave --job $k --db part$k.db \
		--quiet ||
			golden_fail "sweep p.txt --job $k: exit $?"
done
case_ merge "0 merged" merge m.db part0.db part1.db
case_ merge "jobs missing" merge m2.db part0.db --expect 2
case_ merge "2 bad command line" merge m3.db
case_ merge "an input that does not exist" merge m4.db nope.db
case_ merge "is not a results database" merge m5.db text.db
case_ merge "is no part of the sweep" merge m6.db part0.db h.db --expect 2

case_ report "0 ok" report --db s.db --out r
case_ report "a run id that does not exist" report --db s.db --run 99 --out r
case_ report "selects no run" report --db s.db --select label=nothing-has-this --out r
case_ report "is malformed" report --db s.db --select label --out r
case_ report "a file that cannot be written" report --db s.db --out /proc/nope/r
case_ report "bad command line" report --db s.db
case_ report "a database that does not exist" report --db nope.db --out r
case_ report "is not a results database" report --db text.db --out r

case_ tune "0 a feasible value found" tune p.txt --vary 'rate_limit_us=?[0:4000:2000]' --minimize energy --jobs 1
case_ tune "1 none" tune p.txt --vary 'rate_limit_us=?[0:4000:2000]' --minimize energy --subject-to 'busy <= 0' --jobs 1
case_ tune "malformed spec" tune p.txt --vary 'rate_limit_us=' --minimize energy
case_ tune "bad input" tune nope.txt --vary 'rate_limit_us=?[0:4000:2000]' --minimize energy --jobs 1

# one format, two spellings
"$bin" trace info p.txt --format tracecmd --json >a.json 2>&1
"$bin" trace info p.txt --format trace-cmd --json >b.json 2>&1
cmp -s a.json b.json || golden_fail "--format trace-cmd and tracecmd differ"
for c in run trace; do
	"$bin" $c --help | grep -q 'trace-cmd|' &&
		golden_fail "'govsim $c --help' offers --format trace-cmd"
done
exit $fail
