#!/bin/sh
# private_refs.sh - the repository cites nothing a user of it does not have.
#
# Invariant: code comments, tests, tools, models, docs and READMEs explain a rule in their own
# words, or point at a file in the repository (docs/*.md, models/*.sql, a source file) or at
# the kernel's or another project's own sources (file, function, release or commit). They never
# point at design notes or fact sheets kept outside the repository: no "shared/" path, no
# DESIGN.md or "DESIGN §n", no "facts/..." file or "facts §n", no fact-sheet names and no
# section sign other than a standard's (e.g. "RFC 3629 §4").
# Does not check: binary files (fuzz corpora, traces), or the program's output (golden
# no_private_refs.sh runs every --help and kernels show for that).
# Usage: private_refs.sh SOURCE_DIR
src=${1:?usage: private_refs.sh SOURCE_DIR}
cd "$src" || exit 2
export LC_ALL=C
pat='(^|[^A-Za-z])facts/|shared/|DESIGN(\.md| *§)|facts? *§|facts? sheet|the sheet|§|(kernel-v5\.9|eas-v5\.9|kernel-profiles|platforms|perfetto|wattson)\.md'
paths="src include tools tests models docs examples cmake traces/README.md README.md CMakeLists.txt"
found=$(for p in $paths; do [ -e "$p" ] && echo "$p"; done |
	xargs grep -rnIE "$pat" 2>/dev/null |
	grep -vE '^tests/structure/private_refs\.sh:|^tests/golden/no_private_refs\.sh:' |
	grep -vE 'RFC [0-9]+ §[0-9]')
if [ -n "$found" ]; then
	echo "private_refs: references to documents outside the repository (say it here, or cite a"
	echo "file in the repository or the kernel's own source):"
	echo "$found"
	exit 1
fi
exit 0
