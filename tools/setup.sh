#!/bin/sh
# setup.sh - install the Debian packages govsim needs, no more than the job asks for.
# Idempotent; quiet on success. Run as root (or with sudo available).
#   tools/setup.sh            what building govsim needs (the README's first command: the
#                             compiler, CMake, the libraries, cmocka for the default configure)
#   tools/setup.sh --test     also what the test suite runs (ctest: sqlite3, python3, jq, time,
#                             trace-cmd, strace)
#   tools/setup.sh --lab      also what CI and the kernel lab need: clang and its libFuzzer
#                             runtime (tools/fuzz.sh), Slurm, munge and GNU parallel
#                             (tests/cluster), and what tools/lab/record records with
#                             (Debian's QEMU, iasl, busybox, rt-app, cpio, zstd); implies --test
#   tools/setup.sh --lab-chroot  also mmdebstrap, with which tools/lab/build-pelt-tp builds the
#                             lab's PELT module for a kernel whose compiler is newer than the
#                             host's (Debian's 7.2: gcc 16) in a chroot of that kernel's suite;
#                             an opt-in, not part of CI; implies --lab
#   tools/setup.sh --print [FLAGS]  print the packages FLAGS would install, install nothing
# The clang runtime package is the one of the installed clang's major version
# (libclang-rt-N-dev), found once clang is there.
set -eu

BUILD="build-essential cmake pkg-config libgsl-dev libsqlite3-dev libcsv-dev libtracecmd-dev
libtraceevent-dev zlib1g-dev libcairo2-dev libssl-dev libprotobuf-c-dev protobuf-c-compiler
libcmocka-dev libyaml-dev libjansson-dev"
TEST="sqlite3 python3 python3-pandas python3-pytest jq time trace-cmd libtracefs-dev strace"
LAB="clang slurm-wlm munge parallel qemu-system-x86 acpica-tools busybox-static rt-app cpio zstd
xz-utils binutils"
LAB_CHROOT="mmdebstrap"

print=0 test=0 lab=0 lab_chroot=0
for a in "$@"; do
	case "$a" in
	--print) print=1 ;;
	--test) test=1 ;;
	--lab) test=1 lab=1 ;;
	--lab-chroot) test=1 lab=1 lab_chroot=1 ;;
	*)
		echo "setup.sh: unknown option '$a' (--test, --lab, --lab-chroot, --print)" >&2
		exit 2
		;;
	esac
done
PACKAGES=$BUILD
[ $test = 0 ] || PACKAGES="$PACKAGES $TEST"
[ $lab = 0 ] || PACKAGES="$PACKAGES $LAB"
[ $lab_chroot = 0 ] || PACKAGES="$PACKAGES $LAB_CHROOT"

# libclang-rt-N-dev for the clang installed (nothing when there is none yet)
clang_rt() {
	v=$(clang --version 2>/dev/null | sed -n 's/.*clang version \([0-9][0-9]*\).*/\1/p' | head -n 1)
	[ -z "$v" ] || echo "libclang-rt-$v-dev"
}

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	SUDO="sudo"
fi

# install the packages of $* that are missing
install() {
	missing=""
	for p in "$@"; do
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
			missing="$missing $p"
		fi
	done
	[ -n "$missing" ] || return 0
	export DEBIAN_FRONTEND=noninteractive
	log=$(mktemp)
	if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends $missing; } >"$log" 2>&1; then
		cat "$log" >&2
		echo "setup.sh: failed to install:$missing" >&2
		rm -f "$log"
		exit 1
	fi
	rm -f "$log"
}

if [ $print = 1 ]; then
	# shellcheck disable=SC2086
	echo $PACKAGES $([ $lab = 0 ] || clang_rt)
	exit 0
fi
# shellcheck disable=SC2086
install $PACKAGES
if [ $lab = 1 ]; then
	rt=$(clang_rt)
	[ -n "$rt" ] || { echo "setup.sh: clang is installed but says no version" >&2; exit 1; }
	install "$rt"
fi
