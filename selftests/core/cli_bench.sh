#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vgpu-sim bench bitmap: output format only (F32, F40-F42).  The ratios
# are a benchmark on the -O2 build (Documentation/performance.rst), not a
# timed test.  Run from the repository root; prints TAP.
set -u
SIM=${VGPU_SIM:-build/vgpu-sim-asan}
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; }

echo "1..7"
out=$("$SIM" bench bitmap --queries 2000 2>&1)
rc=$?
[ $rc -eq 0 ] && ok "bench bitmap runs" || nok "bench bitmap runs (rc $rc)"
# every figure line: "<label> <ns> ns/query"
miss=
for l in naive ctz exact grouped sampled 'fit naive' 'fit ctz' 'fit exact' \
	 'fit xk' 'wide naive' 'wide ctz' 'wide exact' 'wide fit naive' \
	 'wide fit ctz' 'wide fit exact' 'wide fit xk'; do
	echo "$out" | grep -Eq "^$l +[0-9]+\.[0-9] ns/query" || miss="$miss [$l]"
done
[ -z "$miss" ] && ok "ns/query for every search, 128 and 2048 bits" ||
	nok "ns/query missing for$miss"
miss=
for l in 'wide ratio naive/exact' 'wide ratio ctz/exact' \
	 'fit ratio naive/exact' 'fit ratio ctz/exact'; do
	echo "$out" | grep -Eq "^$l = [0-9]+\.[0-9]$" || miss="$miss [$l]"
done
[ -z "$miss" ] && ok "wide and first-fit ratios" || nok "ratios missing:$miss"
if [ "$(echo "$out" | tail -n 2 | sed -E 's/[0-9]+\.[0-9]$/X/')" = "ratio naive/exact = X
ratio ctz/exact = X" ]; then
	ok "last two lines are the 128-bit ratios"
else
	nok "last two lines are the 128-bit ratios"
fi
"$SIM" bench bitmap --queries 0 >/dev/null 2>&1
[ $? -eq 2 ] && ok "--queries 0: exit 2" || nok "--queries 0: exit 2"
"$SIM" bench nosuch >/dev/null 2>&1
[ $? -eq 2 ] && ok "unknown benchmark: exit 2" || nok "unknown benchmark: exit 2"
"$SIM" bench >/dev/null 2>&1
[ $? -eq 2 ] && ok "bench without a word: exit 2" || nok "bench without a word: exit 2"
exit $fail
