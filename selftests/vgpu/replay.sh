#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# replay.sh - recordings replayed through the module:
# each /vgpu/bin/workloads/replay/NAME.json (a recording, or the unshaped
# import of two recordings, one tenant each) runs through vgpuctl run with
# the options of NAME.args (--priority TENANT=P, --offset TENANT=CYCLES),
# each tenant on an open file of its own, and must print every line
# vgpu-sim run printed on the host for the same file and options
# (NAME.expected): the kernel lines, the summary with STP, ANTT and
# fairness from the alone runs, the trace hash and the tenant lines.  All
# but preempt_latency_max: the uapi shows kernels, not SMs, so vgpuctl
# counts a kernel's latency by the kernel-level rule of vgpuctl(1)
# (Documentation/man/vgpuctl.1, run), vgpu-sim by the per-SM one.
# Prints TAP.
dir=/vgpu/bin/workloads/replay
n=0
fail=0
echo "TAP version 13"
echo "1..$(ls $dir/*.json | wc -l)"
for wl in $dir/*.json; do
	name=$(basename "$wl" .json)
	n=$((n + 1))
	# shellcheck disable=SC2046
	if vgpuctl run -q $(cat "$dir/$name.args") "$wl" > /tmp/replay.out 2>&1 &&
	   grep -v '^preempt_latency_max=' /tmp/replay.out > /tmp/replay.txt &&
	   grep -v '^preempt_latency_max=' "$dir/$name.expected" > /tmp/replay.want &&
	   [ "$(grep -c '^tenant=' /tmp/replay.txt)" -eq "$(cat "$dir/$name.tenants")" ] &&
	   cmp -s /tmp/replay.txt /tmp/replay.want; then
		echo "ok $n replay.$name"
	else
		echo "not ok $n replay.$name"
		diff /tmp/replay.want /tmp/replay.out | head -n 20 | sed 's/^/# /'
		fail=1
	fi
done
exit $fail
