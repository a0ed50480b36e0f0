# SPDX-License-Identifier: GPL-2.0
#
# What every selftests/core/cli_*.sh starts with, sourced after "set -u"
# and SIM: a scratch directory $TMP removed at exit, the TAP counters,
# ok/nok (one test line), check (a test line from a shell condition) and
# field (the value of a key=value line of a file).  A script prints its
# plan ("1..N") and ends with "exit $fail".
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
field() { sed -n "s/^$1=//p" "$2"; }
