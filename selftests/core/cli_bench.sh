#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vgpu-sim bench bitmap: output format only (F40-F42).  The >= 10x figure
# is a benchmark on the -O2 build (Documentation/performance.rst), not a
# timed test.  Run from the repository root; prints TAP.
set -u
SIM=${VGPU_SIM:-build/vgpu-sim-asan}
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; }

echo "1..5"
out=$("$SIM" bench bitmap --queries 2000 2>&1)
rc=$?
[ $rc -eq 0 ] && ok "bench bitmap runs" || nok "bench bitmap runs (rc $rc)"
if echo "$out" | grep -Eq '^naive +[0-9.]+ ns/query' &&
   echo "$out" | grep -Eq '^exact +[0-9.]+ ns/query' &&
   echo "$out" | grep -Eq '^grouped +[0-9.]+ ns/query' &&
   echo "$out" | grep -Eq '^sampled +[0-9.]+ ns/query'; then
	ok "ns/query for naive, exact, grouped, sampled"
else
	nok "ns/query for naive, exact, grouped, sampled"
fi
if echo "$out" | tail -n 1 | grep -Eq '^ratio naive/exact = [0-9]+\.[0-9]+$'; then
	ok "last line is the ratio"
else
	nok "last line is the ratio"
fi
"$SIM" bench nosuch >/dev/null 2>&1
[ $? -eq 2 ] && ok "unknown benchmark: exit 2" || nok "unknown benchmark: exit 2"
"$SIM" bench >/dev/null 2>&1
[ $? -eq 2 ] && ok "bench without a word: exit 2" || nok "bench without a word: exit 2"
exit $fail
