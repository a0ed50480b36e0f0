#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# determinism.sh - F51 across the kernel/user boundary: every workload
# of /vgpu/bin/workloads runs through the module (vgpuctl run: a fresh
# device, gated submission, free-running clock) with 1 and with 2 worker
# threads, and must print exactly what vgpu-sim printed on the host for the
# same file: the same kernel timestamps and the same trace hash.  A workload
# with a NAME.policy file runs under that policy (examples/policies):
# the module's, loaded from vgpu_policy_NAME.ko, against vgpu-sim's,
# loaded from build/policies/NAME.so, built from the same source.  Prints
# TAP.
dir=/vgpu/bin/workloads
# NAME.policy: the workload runs under that policy, loaded as a module
for m in /vgpu/policies/*.ko; do
	[ -e "$m" ] && insmod "$m"
done
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
		pol=
		[ -e "$dir/$name.policy" ] && pol="--policy $(cat "$dir/$name.policy")"
		if vgpuctl run -q --no-alone --workers $w $pol "$wl" > /tmp/all.txt 2>&1 &&
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
for m in /vgpu/policies/*.ko; do
	[ -e "$m" ] && rmmod "$(basename "$m" .ko)"
done
exit $fail
