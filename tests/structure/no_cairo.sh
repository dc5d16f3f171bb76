#!/bin/sh
# no_cairo.sh - the program does not link cairo: only the plot module govsim-plot.so does
# (src/report/plot_module.h), loaded when a plot is drawn, so a command that draws nothing does
# not map cairo and its ~20 libraries at start.
# Checks: `ldd PROGRAM` lists no libcairo, and `ldd MODULE` does (the check looks where cairo
# went); the program's dynamic symbols name no cairo_ function.
# Usage: no_cairo.sh PROGRAM MODULE
bin=${1:?usage: no_cairo.sh PROGRAM MODULE}
module=${2:?usage: no_cairo.sh PROGRAM MODULE}
status=0
if ldd "$bin" | grep -q 'libcairo'; then
	echo "no_cairo: '$bin' links cairo:"
	ldd "$bin" | grep libcairo
	status=1
fi
if ! ldd "$module" | grep -q 'libcairo\.so'; then
	echo "no_cairo: '$module' does not link cairo"
	status=1
fi
if nm -D --undefined-only "$bin" | grep -q ' cairo_'; then
	echo "no_cairo: '$bin' calls cairo directly:"
	nm -D --undefined-only "$bin" | grep ' cairo_' | head -5
	status=1
fi
exit $status
