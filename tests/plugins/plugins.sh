#!/bin/bash
# plugins.sh - governors as plugins (include/govsim/governor.h, src/gov/plugin.c, host.c).
#
# Checks:
# - `cmake --install` puts the header and govsim.pc into a prefix; examples/governor-plugin is
#   configured against it through pkg-config alone, out of the tree, and built;
# - the example's decisions on traces/android-8cpu/surfaceflinger.txt (fast switch), row by row
#   of --timeline, against the formula computed here in awk from the signals of the same rows:
#   target = cpuinfo_max * max_i((util_cfs_i + util_rt_i) * 1024 / capacity_i) / 1024 with
#   util_cfs = max(util_avg, util_est.enqueued), then the lowest OPP >= target (Hikey960 tables);
# - --governor FILE, --governor-plugin FILE and GOVSIM_PLUGIN_PATH give the same run; results
#   record the plugin's name, resolved path and the file's SHA-256 (sha256sum), also in a
#   database from before those columns; run --help --governor FILE lists its tunables; a bad
#   tunable value is refused with its name;
# - schedutil built as a plugin from src/gov/schedutil.c (named schedutil_plugin) gives
#   byte-identical summary, timeline and CSV tables to the built-in (two traces, slow and fast
#   switch) but for its name; built under a built-in governor's name it is refused (exit 3);
# - a plugin for another ABI major or a newer minor, a shared object without govsim_governor
#   and a missing file: exit 3 with a message naming the problem, nothing stored;
# - what is no plugin is refused before dlopen() runs any of it, exit 3 naming the file and the
#   problem, no crash, no hang: the schedutil plugin cut at 3,000 bytes (dlopen() died of
#   SIGBUS), cut inside its section headers, /dev/zero (hashed for ever), a directory, a
#   text file, a govsim_governor that is a function or smaller than the struct;
# - sweep with built-in + plugin governors: --jobs 2 stores the same database as --jobs 1; each
#   --set key goes to the governors that take it, a plugin's own tunable included; a
#   plugin that kills its process fails its own jobs only (reported, exit 1), the others are
#   stored; compare reads plugin runs by governor name.
set -u
cd "${GOVSIM_SOURCE_DIR:?}"
bin="${GOVSIM_BIN:?}"
plugins="${GOVSIM_TEST_PLUGINS:?}"
# the ABI version this govsim is built with, from the public header
abi_major=$(sed -n 's/^#define GOVSIM_GOV_ABI_MAJOR \([0-9]*\)$/\1/p' include/govsim/governor.h)
abi_minor=$(sed -n 's/^#define GOVSIM_GOV_ABI_MINOR \([0-9]*\)$/\1/p' include/govsim/governor.h)
build="${GOVSIM_BUILD_DIR:?}"
fail=0

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bad() {
	echo "plugins: $*" >&2
	fail=1
}

sf=traces/android-8cpu/surfaceflinger.txt
small=$tmp/small.txt
"$bin" gen periodic --count 20 -o "$small" >/dev/null || bad "gen periodic failed"

# --- install, then the example out of tree through pkg-config ----------------------------------
cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 || {
	cat "$tmp/install.log"
	bad "cmake --install failed"
	exit 1
}
[ -f "$tmp/prefix/include/govsim/governor.h" ] || bad "header not installed"
[ -f "$tmp/prefix/share/pkgconfig/govsim.pc" ] || bad "govsim.pc not installed"
cflags=$(PKG_CONFIG_PATH="$tmp/prefix/share/pkgconfig" pkg-config --cflags govsim | xargs)
[ "$cflags" = "-I$tmp/prefix/share/pkgconfig/../../include" ] || bad "pkg-config --cflags: '$cflags'"

# the example is plain C without sanitizers, even when govsim has them (CC/CFLAGS cleared)
cp -r examples/governor-plugin "$tmp/src"
if ! env -u CFLAGS -u LDFLAGS PKG_CONFIG_PATH="$tmp/prefix/share/pkgconfig" \
	cmake -S "$tmp/src" -B "$tmp/ex" -DCMAKE_BUILD_TYPE=Release >"$tmp/ex.log" 2>&1 ||
	! cmake --build "$tmp/ex" >>"$tmp/ex.log" 2>&1; then
	cat "$tmp/ex.log"
	bad "the example does not build against the installed header"
	exit 1
fi
prop="$tmp/ex/libproportional.so"
[ -f "$prop" ] || { bad "no $prop"; exit 1; }

# --- the example's decisions against the formula ------------------------------------------------
"$bin" run "$sf" --governor "$prop" --set switch_latency_us=0 --timeline "$tmp/prop.csv" \
	>"$tmp/prop.txt" 2>&1 || { cat "$tmp/prop.txt"; bad "run with the example failed"; }
grep -q "governor proportional" "$tmp/prop.txt" || bad "summary does not name the plugin's governor"
awk -F, -f tests/plugins/proportional.awk "$tmp/prop.csv" || bad "the example's frequencies differ from the hand computation"

# the three ways to name it give the same run; the results record name, path and SHA-256
"$bin" run "$small" --governor-plugin "$prop" --db "$tmp/ways.db" --label path --quiet || bad "--governor-plugin"
GOVSIM_PLUGIN_PATH="/nonexistent:$tmp/ex" "$bin" run "$small" --governor proportional \
	--db "$tmp/ways.db" --label search --quiet || bad "GOVSIM_PLUGIN_PATH"
(cd "$tmp/ex" && "$bin" run "$small" --governor ./libproportional.so --db "$tmp/ways.db" \
	--label relative --quiet) || bad "--governor ./libproportional.so"
sum=$(sha256sum "$prop" | cut -d' ' -f1)
real=$(realpath "$prop")
rows=$(sqlite3 "$tmp/ways.db" "SELECT DISTINCT governor, governor_path, governor_sha256 FROM runs")
[ "$rows" = "proportional|$real|$sum" ] || bad "runs record '$rows', want 'proportional|$real|$sum'"
n=$(sqlite3 "$tmp/ways.db" "SELECT count(*) FROM runs")
[ "$n" = 3 ] || bad "expected 3 runs, got $n"
n=$(sqlite3 "$tmp/ways.db" "SELECT count(DISTINCT joules) FROM energy WHERE scope = 'total'")
[ "$n" = 1 ] || bad "the three ways of naming the plugin give different energies"
"$bin" run --help --governor "$prop" >"$tmp/help.txt" 2>&1 || bad "run --help --governor FILE failed"
grep -q "^governor proportional (plugin '$real', sha256 $sum, ABI $abi_major.$abi_minor):" "$tmp/help.txt" ||
	bad "run --help --governor: no plugin line"
grep -q "floor_khz" "$tmp/help.txt" || bad "run --help --governor: no tunables"
"$bin" run "$small" --governor "$prop" --set floor_khz=abc >"$tmp/tun.txt" 2>&1
st=$?
[ $st = 2 ] && grep -q "floor_khz=abc" "$tmp/tun.txt" || bad "bad tunable: exit $st, $(cat "$tmp/tun.txt")"

# a database from before the two columns gets them when opened; its runs still read back
"$bin" run "$small" --db "$tmp/old.db" --quiet || bad "run --db old.db"
sqlite3 "$tmp/old.db" "ALTER TABLE runs DROP COLUMN governor_path;
	ALTER TABLE runs DROP COLUMN governor_sha256" || bad "cannot make an old database"
"$bin" run "$small" --governor "$prop" --db "$tmp/old.db" --quiet || bad "run into an old database"
rows=$(sqlite3 "$tmp/old.db" "SELECT governor || ':' || governor_path FROM runs ORDER BY run_id" | xargs)
[ "$rows" = "schedutil: proportional:$real" ] || bad "old database: '$rows'"
"$bin" compare --db "$tmp/old.db" --base run=1 --new run=2 >/dev/null 2>&1 || bad "compare on an old database"

# --- schedutil as a plugin: byte-identical ----------------------------------------------------------
for args in "$sf" "$small --set switch_latency_us=0"; do
	# shellcheck disable=SC2086
	"$bin" run $args --timeline "$tmp/a.csv" --csv "$tmp/a" >"$tmp/a.txt" 2>&1
	# shellcheck disable=SC2086
	"$bin" run $args --governor "$plugins/libschedutil.so" --timeline "$tmp/b.csv" --csv "$tmp/b" \
		>"$tmp/b.txt" 2>&1
	# the plugin's own name where the built-in's stands, and without the note the host adds
	# to the built-in's runs alone
	sed -i 's/schedutil_plugin/schedutil/g' "$tmp/b.txt" "$tmp/b/runs.csv"
	sed -i -e '/^note: *iowait boost off/d' -e '/^note: *schedutil taken as running before/d' "$tmp/a.txt"
	sed -i -e 's/; schedutil taken as running before the trace ([^)]*): its last decision is each policy.s frequency at the first event, the raw frequency it cached unknown//' \
		-e 's/; iowait boost off ([^)]*)//' -e 's/"iowait boost off ([^)]*)"/""/' \
		"$tmp/a/runs.csv"
	cmp -s "$tmp/a.txt" "$tmp/b.txt" || { diff "$tmp/a.txt" "$tmp/b.txt" | head; bad "$args: summaries differ"; }
	cmp -s "$tmp/a.csv" "$tmp/b.csv" || bad "$args: timelines differ"
	[ "$(wc -l <"$tmp/a.csv")" -gt 10 ] || bad "$args: timeline too short"
	for f in "$tmp"/a/*.csv; do
		g="$tmp/b/$(basename "$f")"
		if [ "$(basename "$f")" = runs.csv ]; then
			# all but the plugin's path and SHA-256
			cmp -s <(rev "$f" | cut -d, -f3- | rev) <(rev "$g" | cut -d, -f3- | rev) ||
				bad "$args: runs.csv differs"
			tail -1 "$g" | grep -q ",\"$(realpath "$plugins/libschedutil.so")\",\"[0-9a-f]\{64\}\"$" ||
				bad "$args: runs.csv does not end with the plugin's path and SHA-256"
		else
			cmp -s "$f" "$g" || bad "$args: $(basename "$f") differs"
		fi
	done
	rm -rf "$tmp/a" "$tmp/b"
done

# --- refused plugins: exit 3 with the reason ------------------------------------------------------
"$bin" run "$small" --governor "$plugins/libbad_abi.so" --db "$tmp/refused.db" >"$tmp/abi.txt" 2>&1
st=$?
[ $st = 3 ] || bad "ABI mismatch: exit $st"
grep -q "governor ABI $((abi_major + 1)).0, this govsim has ABI $abi_major.$abi_minor" "$tmp/abi.txt" || bad "ABI mismatch: $(cat "$tmp/abi.txt")"
"$bin" run "$small" --governor "$plugins/libnewer_minor.so" >"$tmp/minor.txt" 2>&1
st=$?
[ $st = 3 ] && grep -q "governor ABI $abi_major.$((abi_minor + 1)) is newer than this govsim's $abi_major.$abi_minor" "$tmp/minor.txt" ||
	bad "newer ABI minor: exit $st, $(cat "$tmp/minor.txt")"
"$bin" run "$small" --governor-plugin "$plugins/libno_symbol.so" --db "$tmp/refused.db" >"$tmp/sym.txt" 2>&1
st=$?
[ $st = 3 ] || bad "missing symbol: exit $st"
grep -q "no symbol 'govsim_governor'" "$tmp/sym.txt" || bad "missing symbol: $(cat "$tmp/sym.txt")"
[ ! -e "$tmp/refused.db" ] || bad "a refused plugin left a database"
"$bin" run "$small" --governor "$tmp/none.so" >"$tmp/none.txt" 2>&1
st=$?
[ $st = 3 ] && grep -q "none.so': governor plugin not found" "$tmp/none.txt" || bad "missing file: exit $st"

# --- not plugins: refused before dlopen(), exit 3 naming the file and what is wrong --------------
# refused NAME FILE PATTERN: exit 3 within 20 s, a message 'govsim: 'FILE': ...PATTERN', no
# sanitizer report.
refused() {
	local name=$1 file=$2 pattern=$3 st
	timeout 20 "$bin" run "$small" --governor-plugin "$file" >"$tmp/refused.txt" 2>&1
	st=$?
	if [ $st != 3 ] || ! grep -qF "govsim: '$file': " "$tmp/refused.txt" ||
		! grep -q "$pattern" "$tmp/refused.txt" ||
		grep -qE 'runtime error|AddressSanitizer|LeakSanitizer' "$tmp/refused.txt"; then
		bad "$name: exit $st (expected 3, '$pattern'): $(head -5 "$tmp/refused.txt")"
	fi
}
su="$plugins/libschedutil.so"
size=$(stat -c %s "$su")
head -c 3000 "$su" >"$tmp/cut3000.so"
refused "cut at 3000 bytes" "$tmp/cut3000.so" "truncated"
head -c $((size - 10)) "$su" >"$tmp/cut-end.so"
refused "cut 10 bytes short" "$tmp/cut-end.so" "truncated"
head -c 40 "$su" >"$tmp/cut40.so"
refused "cut inside the ELF header" "$tmp/cut40.so" "truncated"
refused "/dev/zero" /dev/zero "not a regular file"
refused "a directory" "$tmp" "not a regular file"
echo "not an ELF file" >"$tmp/text.so"
refused "a text file" "$tmp/text.so" "not an ELF shared object"
refused "symbol is a function" "$plugins/libsym_function.so" "'govsim_governor' is a function, not"
refused "symbol too small" "$plugins/libsym_small.so" "'govsim_governor' is 4 bytes"
# a plugin may not take a built-in governor's name: its runs would be stored and compared as
# the built-in's
for n in schedutil performance powersave; do
	refused "named '$n'" "$plugins/libnamed_$n.so" "governor plugin names itself '$n', the name of a built-in governor"
done

# --- sweep: --jobs 2 equals --jobs 1; a crashing plugin fails its own jobs only ---------------------
dump() {
	cp "$1" "$1.dump.db"
	sqlite3 "$1.dump.db" "UPDATE runs SET created_at = ''" && sqlite3 "$1.dump.db" .dump
}
sargs=("$small" "$sf" --governor schedutil --governor "$prop" --set switch_latency_us=0,300)
"$bin" sweep "${sargs[@]}" --db "$tmp/j1.db" --jobs 1 --quiet || bad "sweep --jobs 1 failed"
"$bin" sweep "${sargs[@]}" --db "$tmp/j2.db" --jobs 2 --quiet || bad "sweep --jobs 2 failed"
n=$(sqlite3 "$tmp/j2.db" "SELECT count(*) FROM runs WHERE governor = 'proportional' AND governor_sha256 = '$sum'")
[ "$n" = 4 ] || bad "sweep: expected 4 plugin runs, got $n"
diff <(dump "$tmp/j1.db") <(dump "$tmp/j2.db") >/dev/null || bad "sweep: --jobs 1 and --jobs 2 differ"

# a tunable goes to the governors that take it, a plugin's too (GOV.KEY by its own name)
"$bin" sweep "$small" --governor schedutil --governor "$prop" --set rate_limit_us=0,1000 \
	--set proportional.floor_khz=0,999000 --list-jobs | cut -f3 >"$tmp/jobs.txt"
printf '%s\n' "governor=schedutil rate_limit_us=0" "governor=schedutil rate_limit_us=1000" \
	"governor=$prop floor_khz=0" "governor=$prop floor_khz=999000" | diff - "$tmp/jobs.txt" ||
	bad "sweep --list-jobs with a plugin's tunable"

"$bin" sweep "$small" --governor schedutil --governor "$plugins/libcrash.so" --db "$tmp/crash.db" \
	--jobs 2 >"$tmp/crash.txt" 2>&1
st=$?
[ $st = 1 ] || bad "sweep with a crashing plugin: exit $st"
grep -q "job 1 .*failed" "$tmp/crash.txt" || bad "sweep: the crash is not reported: $(cat "$tmp/crash.txt")"
n=$(sqlite3 "$tmp/crash.db" "SELECT count(*) FROM runs WHERE governor = 'schedutil'")
[ "$n" = 1 ] || bad "sweep: the built-in's run is not stored beside the crashed one"

# compare: plugin runs against built-in ones, selected by governor name
"$bin" compare --db "$tmp/j2.db" --base governor=schedutil --new governor=proportional \
	>"$tmp/cmp.txt" 2>&1
st=$?
[ $st = 0 ] && grep -q "energy" "$tmp/cmp.txt" || { cat "$tmp/cmp.txt"; bad "compare: exit $st"; }

exit $fail
