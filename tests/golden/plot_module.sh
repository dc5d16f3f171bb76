#!/bin/bash
# plot_module.sh - the plot code is a module of its own, govsim-plot.so, loaded on the first
# plot (src/report/plot_module.h): a copy of the program in a folder without the module runs
# every command that draws nothing, and a command that draws fails with exit status 1 (a
# runtime failure: README "Exit status") and a message naming the module; with the module
# beside the copy it draws the same bytes as the build's program.
#
# Checks: `trace info` and `platforms show` of the lone copy print what the build's program
# prints, and exit 0; `platforms plot` to PNG and to SVG exits 1 with the message and writes
# no file; a file of that name that is not a shared object is refused with dlopen's reason,
# exit 1; the real module copied beside the program draws PNG and SVG identical to the build's.
# The missing-module checks are skipped when the configured libdir holds an installed module
# (GOVSIM_PLOT_LIBDIR), which the program would rightly find.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init plot_module

module=$(dirname "$bin")/govsim-plot.so
[ -f "$module" ] || golden_fail "no '$module' beside '$bin'"
mkdir -p "$tmp/alone" "$tmp/ref"
cp "$bin" "$tmp/alone/govsim"
alone=$tmp/alone/govsim
trace=traces/android-8cpu/surfaceflinger.txt

# commands that draw nothing: the same output, exit 0
"$bin" trace info "$trace" >"$tmp/ref/info.txt" 2>&1
"$alone" trace info "$trace" >"$tmp/info.txt" 2>&1
golden_equal "trace info without the module: exit" "$?" 0
golden_same "trace info without the module" "$tmp/ref/info.txt" "$tmp/info.txt"
"$bin" platforms show hikey960 >"$tmp/ref/show.txt" 2>&1
"$alone" platforms show hikey960 >"$tmp/show.txt" 2>&1
golden_equal "platforms show without the module: exit" "$?" 0
golden_same "platforms show without the module" "$tmp/ref/show.txt" "$tmp/show.txt"

if [ -n "${GOVSIM_PLOT_LIBDIR:-}" ] && [ -e "$GOVSIM_PLOT_LIBDIR/govsim-plot.so" ]; then
	echo "plot_module: '$GOVSIM_PLOT_LIBDIR/govsim-plot.so' is installed: missing-module checks skipped"
else
	for ext in png svg; do
		"$alone" platforms plot hikey960 -o "$tmp/p.$ext" >"$tmp/out.txt" 2>"$tmp/err.txt"
		golden_equal "plot to $ext without the module: exit" "$?" 1
		golden_empty "plot to $ext without the module: stdout" "$tmp/out.txt"
		want="govsim: cannot draw a plot: the plot module govsim-plot.so is neither next"
		want="$want to the program ('$tmp/alone')"
		grep -qF "$want" "$tmp/err.txt" ||
			golden_fail "plot to $ext without the module: message: $(cat "$tmp/err.txt")"
		golden_check "plot to $ext without the module: no file" "$(test ! -e "$tmp/p.$ext"; echo $?)"
	done
	echo "not a shared object" >"$tmp/alone/govsim-plot.so"
	"$alone" platforms plot hikey960 -o "$tmp/p.png" >/dev/null 2>"$tmp/err.txt"
	golden_equal "a module that is not one: exit" "$?" 1
	grep -q "^govsim: '$tmp/alone/govsim-plot.so': cannot load the plot module: " "$tmp/err.txt" ||
		golden_fail "a module that is not one: message: $(cat "$tmp/err.txt")"
fi

# the module beside the copy: the same drawings as the build's program
cp "$module" "$tmp/alone/govsim-plot.so"
for ext in png svg; do
	"$bin" platforms plot hikey960 -o "$tmp/ref/p.$ext" >/dev/null 2>&1 ||
		golden_fail "the build's program: platforms plot to $ext failed"
	"$alone" platforms plot hikey960 -o "$tmp/p.$ext" >/dev/null 2>"$tmp/err.txt"
	golden_equal "plot to $ext with the module beside the copy: exit" "$?" 0
	golden_empty "plot to $ext with the module beside the copy: stderr" "$tmp/err.txt"
	cmp -s "$tmp/ref/p.$ext" "$tmp/p.$ext" ||
		golden_fail "plot to $ext with the module beside the copy differs from the build's"
done
exit $fail
