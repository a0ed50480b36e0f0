#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vgpu-sim bench bitmap, scale and completion: output format only (F32,
# F40-F42, F50, F51).  The ratios and speed-ups are benchmarks on the -O2
# build (Documentation/performance.rst), not timed tests.  Run from the
# repository root; prints TAP.
set -u
SIM=${VGPU_SIM:-build/vgpu-sim-asan}
. "$(dirname "$0")/tap.sh"

echo "1..14"
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
# vgpu-sim bench scale: the cost curve and the speed-up (format only)
out=$("$SIM" bench scale --quick 2>&1)
rc=$?
[ $rc -eq 0 ] && ok "bench scale runs" || nok "bench scale runs (rc $rc): $out"
miss=
for s in 4 132 1024 4096; do
	for b in 100 1000 10000; do
		echo "$out" | grep -Eq "^cost sms=$s blocks=$b ns_per_block=[0-9]+\.[0-9] ns_per_decision=[0-9]+\.[0-9] decisions=[0-9]+$" ||
			miss="$miss [$s SMs, $b blocks]"
	done
done
[ -z "$miss" ] && ok "bench scale: a cost line per SM count and block count" ||
	nok "bench scale: cost lines missing:$miss"
echo "$out" | grep -Eq '^cost per block largest/smallest = [0-9]+\.[0-9]{2}$' &&
	[ "$(echo "$out" | grep -Ec '^parallel (h100 sms=132|1024sm sms=1024) threads=[12] blocks=[0-9]+ seconds=[0-9.]+ dispatch_share=[0-9]\.[0-9]{3} trace_hash=0x[0-9a-f]{16}$')" -eq 12 ] &&
	ok "bench scale: the flatness ratio and twelve parallel runs" ||
	nok "bench scale: flatness ratio or parallel runs"
if [ "$(echo "$out" | tail -n 2 | sed -E 's/[0-9]+\.[0-9]{2}$/X/')" = "speedup h100 2/1 threads = X
speedup 1024sm 2/1 threads = X" ]; then
	ok "bench scale: the last two lines are the speed-ups"
else
	nok "bench scale: the last two lines are the speed-ups"
fi
# vgpu-sim bench completion: both hosts agree (it exits 1 otherwise);
# the ratio is a figure, not a test
out=$("$SIM" bench completion --epochs 20 2>&1)
rc=$?
[ $rc -eq 0 ] && ok "bench completion runs, both hosts agree" ||
	nok "bench completion runs, both hosts agree (rc $rc): $out"
[ "$(echo "$out" | grep -Ec '^(poll|callback) ns_per_epoch=[0-9]+ completions=[0-9]+ events=[0-9]+ trace_hash=0x[0-9a-f]{16}$')" -eq 2 ] &&
	echo "$out" | tail -n 1 | grep -Eq '^poll/callback = [0-9]+\.[0-9]{2}$' &&
	ok "bench completion: a line per host and the ratio" ||
	nok "bench completion: a line per host and the ratio"
"$SIM" bench completion --epochs 0 >/dev/null 2>&1
[ $? -eq 2 ] && ok "bench completion --epochs 0: exit 2" ||
	nok "bench completion --epochs 0: exit 2"
"$SIM" bench nosuch >/dev/null 2>&1
[ $? -eq 2 ] && ok "unknown benchmark: exit 2" || nok "unknown benchmark: exit 2"
"$SIM" bench >/dev/null 2>&1
[ $? -eq 2 ] && ok "bench without a word: exit 2" || nok "bench without a word: exit 2"
exit $fail
