#!/bin/sh
# run.sh PYTHON ARGS... - runs PYTHON ARGS, or exits 77 (skipped) when PYTHON lacks pandas or
# pytest (tools/setup.sh installs Debian's python3-pandas and python3-pytest).
py=$1
if ! "$py" -c 'import pandas, pytest' 2>/dev/null; then
	echo "skipped: $py has no pandas or pytest (tools/setup.sh installs them)"
	exit 77
fi
exec "$@"
