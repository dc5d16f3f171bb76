#!/bin/sh
# layers_link.sh - the build's layer checks (cmake/layers.cmake) fail on a forbidden call.
#
# tests/structure/layer_probe.c calls store_check() through a forward declaration. Linked by
# govsim_layer_check() as part of power/ (which may use core/ only) it must fail with an
# undefined reference to store_check; linked as part of report/ (which may use store/) it must
# link, so the failure comes from the layer, not from the probe.
# Usage: layers_link.sh BUILD_DIR
set -u
build=$1
out=$(mktemp)
trap 'rm -f "$out"' EXIT

if cmake --build "$build" --target layer_probe_in_power >"$out" 2>&1; then
	echo "layers_link: power/ calling store/ linked: the layer check did not refuse it" >&2
	cat "$out" >&2
	exit 1
fi
if ! grep -q "undefined reference to .store_check" "$out"; then
	echo "layers_link: the forbidden link failed, but not on store_check:" >&2
	cat "$out" >&2
	exit 1
fi
if ! cmake --build "$build" --target layer_probe_in_report >"$out" 2>&1; then
	echo "layers_link: report/ calling store/ (allowed) did not link:" >&2
	cat "$out" >&2
	exit 1
fi
echo "layers_link: power/ -> store/ refused by the link, report/ -> store/ linked"
