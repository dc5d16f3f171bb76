# common.sh - sourced by the cluster tests: the blocks of docs/cluster.md, a working folder that
# holds what the doc's sweep names, and database comparison.
#
# The doc's blocks are run verbatim: each is the ```sh fence after a `<!-- test: NAME -->` line,
# so a change to the doc that breaks a recipe breaks the test.

SKIP=77
# Every wait in a cluster test is bounded, and all of them together by BUDGET_S, well under
# CTest's timeout for the test, so the EXIT trap always runs and stops what was started.
BUDGET_S=${GOVSIM_CLUSTER_BUDGET_S:-180}
deadline=$((SECONDS + BUDGET_S))
src="${GOVSIM_SOURCE_DIR:?}"
bin="${GOVSIM_BIN:?}"
doc="$src/docs/cluster.md"
fail=0

# bounded CAP CMD...: CMD under `timeout`, at most CAP seconds and never past the deadline
bounded() {
	local cap=$1 left=$((deadline - SECONDS))
	shift
	[ "$left" -lt "$cap" ] && cap=$left
	if [ "$cap" -le 0 ]; then
		echo "cluster: out of time (${BUDGET_S}s) before: $*" >&2
		return 124
	fi
	timeout "$cap" "$@"
}

# doc_block NAME: the body of the fenced block after `<!-- test: NAME -->` in docs/cluster.md
doc_block() {
	local body
	body=$(awk -v m="<!-- test: $1 -->" '
		$0 == m { f = 1; next }
		f == 1 && /^```/ { f = 2; next }
		f == 2 && /^```/ { exit }
		f == 2 { print }' "$doc")
	if [ -z "$body" ]; then
		echo "cluster: docs/cluster.md has no block marked '<!-- test: $1 -->'" >&2
		exit 1
	fi
	printf '%s\n' "$body"
}

# workdir DIR: a folder holding what the doc's sweep names -- traces/a.txt and traces/b.txt
# (two real Juno traces), cap300.txt and boost.txt -- and `govsim` on PATH (this build)
workdir() {
	mkdir -p "$1/traces" "$tmp/bin"
	ln -sf "$src/traces/juno-r0/rtapp_switch/trace.txt" "$1/traces/a.txt"
	ln -sf "$src/traces/formats/juno_idle_5ms.txt" "$1/traces/b.txt"
	printf 'setattr comm=* uclamp_max=300\n' >"$1/cap300.txt"
	printf 'setattr comm=* uclamp_min=512\n' >"$1/boost.txt"
	ln -sf "$bin" "$tmp/bin/govsim"
	case ":$PATH:" in
	*":$tmp/bin:"*) ;;
	*) PATH="$tmp/bin:$PATH" ;;
	esac
	export PATH
}

# dump DB: every table's rows in rowid order, created_at blanked
dump() {
	cp "$1" "$1.dump.db"
	sqlite3 "$1.dump.db" "UPDATE runs SET created_at = ''" && sqlite3 "$1.dump.db" .dump
}

# same_db A B WHAT: every table, every column but runs.created_at
same_db() {
	if ! diff -u <(dump "$1") <(dump "$2") >"$tmp/db.diff"; then
		head -40 "$tmp/db.diff"
		echo "cluster: $3: '$1' and '$2' differ" >&2
		fail=1
	fi
}

# check_list FILE: every job line the doc shows is in FILE (the real --list-jobs)
check_list() {
	local line
	while IFS= read -r line; do
		[ "$line" = "..." ] && continue
		grep -qxF -- "$line" "$1" ||
			{ echo "cluster: the doc's job line '$line' is not in --list-jobs" >&2; fail=1; }
	done < <(doc_block list)
}

# ranges N...: "2-3,6-7" for 2 3 6 7 (sorted numbers)
ranges() {
	local out="" a="" b=""
	for k in "$@"; do
		if [ -n "$b" ] && [ "$k" = $((b + 1)) ]; then
			b=$k
			continue
		fi
		[ -n "$a" ] && out="$out${out:+,}$a$([ "$a" != "$b" ] && echo "-$b")"
		a=$k
		b=$k
	done
	[ -n "$a" ] && out="$out${out:+,}$a$([ "$a" != "$b" ] && echo "-$b")"
	echo "$out"
}
