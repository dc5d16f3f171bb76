#!/bin/sh
# version_build.sh GOVSIM WANT...: `govsim --version` names how the program was built, each WANT
# (from the CMake configuration: the build type, PGO, the sanitizers) as a word of its build
# list, and NOT:WORD is a word it must not name. A benchmark's figures depend on the build, so
# bench.sh prints this line above its table.
set -eu
bin=$1
shift
v=$("$bin" --version)
case $v in
*"; build: "*")") ;;
*) echo "version_build: no '; build: ...)' in '$v'" >&2; exit 1 ;;
esac
build=${v#*; build: }
build=${build%)}
fail=0
for w in "$@"; do
	named=false
	case ", $build," in *", ${w#NOT:},"*) named=true ;; esac
	case $w in
	NOT:*) ! $named || { echo "version_build: '$v' names ${w#NOT:}" >&2; fail=1; } ;;
	*) $named || { echo "version_build: '$v' does not name $w" >&2; fail=1; } ;;
	esac
done
[ "$fail" = 0 ] && echo "version_build: $v"
exit "$fail"
