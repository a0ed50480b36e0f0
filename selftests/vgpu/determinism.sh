#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# determinism.sh - SPEC F51 across the kernel/user boundary: every workload
# of /vgpu/bin/workloads runs through the module (vgpuctl run: a fresh
# device, gated submission, free-running clock) with 1 and with 2 worker
# threads, and must print exactly what vgpu-sim printed on the host for the
# same file: the same kernel timestamps and the same trace hash.  Prints TAP.
dir=/vgpu/bin/workloads
n=0
fail=0
total=$(( $(ls $dir/*.json | wc -l) * 2 ))
echo "TAP version 13"
echo "1..$total"
for wl in $dir/*.json; do
	name=$(basename "$wl" .json)
	for w in 1 2; do
		n=$((n + 1))
		# -q: no progress; --no-alone: the shared run only (no metrics)
		if vgpuctl run -q --no-alone --workers $w "$wl" > /tmp/all.txt 2>&1 &&
		   grep -E '^(kernel|makespan|trace_hash)=' /tmp/all.txt > /tmp/got.txt &&
		   cmp -s /tmp/got.txt "$dir/$name.expected"; then
			echo "ok $n determinism.$name.workers$w"
		else
			echo "not ok $n determinism.$name.workers$w"
			diff "$dir/$name.expected" /tmp/all.txt | head -n 10 | sed 's/^/# /'
			fail=1
		fi
	done
done
exit $fail
