#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh - the output format of vgpu_bench (make bench-module; F60),
# not its timings: a short run with two rounds prints every
# figure and ratio.  Runs in the VM from /vgpu; prints TAP.
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n bench.$1"; }
nok() { n=$((n + 1)); fail=1; echo "not ok $n bench.$1${2:+ # $2}"; }

out=$(vgpu_bench 256 2 2>&1)
rc=$?
[ $rc -eq 0 ] && ok runs || nok runs "exit $rc: $(echo "$out" | tail -n 1)"
[ "$(echo "$out" | grep -Ec '^round [12]: get_info_ns=[0-9]+ submit_ns=[0-9]+ submit_wait_ns=[0-9]+ batch64_ns=[0-9]+ ratios [0-9]+\.[0-9]{2} [0-9]+\.[0-9]{2}$')" -eq 2 ] &&
	ok rounds || nok rounds
miss=
for l in get_info_ns submit_ns submit_wait_ns batch64_ns_per_kernel; do
	echo "$out" | grep -Eq "^$l=[0-9]+$" || miss="$miss $l"
done
[ -z "$miss" ] && ok medians || nok medians "missing:$miss"
echo "$out" | grep -Eq '^ratio submit/get_info = [0-9]+\.[0-9]{2} \(median\)$' &&
	echo "$out" | grep -Eq '^ratio submit_wait/get_info = [0-9]+\.[0-9]{2} \(median\)$' &&
	ok ratios || nok ratios
echo "$out" | tail -n 1 | grep -Eq '^batch64 kernels/s = [0-9]+ \(median\)$' &&
	ok batch_kernels_per_s || nok batch_kernels_per_s
# the module's workers across CPUs: one kernel, one round
out=$(vgpu_bench --workers 1 1 2>&1)
rc=$?
[ $rc -eq 0 ] && ok workers_runs || nok workers_runs "exit $rc: $(echo "$out" | tail -n 1)"
echo "$out" | grep -Eq '^round 1: workers1_ns=[0-9]+ workers2_ns=[0-9]+ speedup [0-9]+\.[0-9]{2}$' &&
	ok workers_round || nok workers_round
echo "$out" | tail -n 1 | grep -Eq '^speedup module 2/1 workers = [0-9]+\.[0-9]{2} \(median; target >= 1\.7\)$' &&
	ok workers_speedup || nok workers_speedup
[ ! -e /dev/vgpu5 ] && ok workers_device_gone || nok workers_device_gone
vgpu_bench --workers 0 >/dev/null 2>&1
[ $? -eq 2 ] && ok workers_usage || nok workers_usage
echo "1..$n"
exit $fail
