#!/bin/sh
# setup.sh - install every Debian package govsim's build, tests, benchmarks and CI need.
# Idempotent; quiet on success. Run as root (or with sudo available).
#   tools/setup.sh [--lab]   --lab: also what the kernel lab records with (tools/lab/record:
#                            Debian's QEMU, iasl, busybox, rt-app, cpio, zstd)
set -eu

PACKAGES="build-essential cmake pkg-config clang libclang-rt-14-dev
libgsl-dev libsqlite3-dev sqlite3 libcsv-dev libtracecmd-dev libtraceevent-dev libtracefs-dev
zlib1g-dev libcairo2-dev libssl-dev libcmocka-dev python3 python3-pandas python3-pytest time
libprotobuf-c-dev protobuf-c-compiler libyaml-dev slurm-wlm munge parallel jq trace-cmd"
if [ "${1:-}" = --lab ]; then
	PACKAGES="$PACKAGES qemu-system-x86 acpica-tools busybox-static rt-app cpio zstd xz-utils binutils"
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	SUDO="sudo"
fi

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done

if [ -n "$missing" ]; then
	export DEBIAN_FRONTEND=noninteractive
	log=$(mktemp)
	if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends $missing; } >"$log" 2>&1; then
		cat "$log" >&2
		echo "setup.sh: failed to install:$missing" >&2
		rm -f "$log"
		exit 1
	fi
	rm -f "$log"
fi
