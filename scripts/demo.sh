#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - `make demo`: boot Debian's 6.1 kernel in QEMU, load
# vgpu_dispatch.ko, run the standard and the fairness mix through vgpuctl
# under drain, warp and switch preemption and print their metrics side by
# side (checked against vgpu-sim), replay two recorded tenants under drain
# and switch (per-tenant metrics), show `vgpuctl top` and debugfs during a
# run, record build/demo-trace.json (netlink events, Chrome trace JSON for
# https://ui.perfetto.dev) and plot SM occupancy over time into
# build/demo-occupancy.png (gnuplot).
set -eu
cd "$(dirname "$0")/.."
B=build
LOG=$B/demo.log
make --no-print-directory vm-bin $B/vgpu-sim >/dev/null
mkdir -p $B/demo
echo "== vgpu-dispatch demo: booting the VM (QEMU, TCG; about two minutes) =="
scripts/vm-run --timeout 900 sh -c '
	W=/vgpu/bin/workloads
	echo "== module loaded: $(grep ^vgpu_dispatch /proc/modules)"
	echo "== vgpuctl dev list"; vgpuctl dev list
	echo "== vgpuctl info"; vgpuctl info
	for wl in standard-mix fairness-mix; do
		for m in drain warp switch; do
			echo "== vgpuctl run --preempt $m $wl.json" >&2
			vgpuctl run -q --preempt $m $W/$wl.json > /tmp/out || exit 1
			sed "s/^/@@r $wl $m /" /tmp/out
		done
	done
	# a replay of two recorded tenants, the shared run only
	for m in drain switch; do
		echo "== vgpuctl run --no-alone --preempt $m replay-tenants.json" >&2
		vgpuctl run -q --no-alone --preempt $m $W/replay-tenants.json > /tmp/out || exit 1
		sed "s/^/@@t $m /" /tmp/out
	done
	echo
	echo "== while the standard mix runs on /dev/vgpu15 (preempt switch):"
	vgpuctl run -q --no-alone --preempt switch $W/standard-mix.json > /dev/null &
	pid=$!
	D=/sys/kernel/debug/vgpu/vgpu15
	# wait (busy) until a kernel is running, as long as the run lasts
	while kill -0 $pid 2> /dev/null &&
	      ! grep -q " active " $D/kernels 2> /dev/null; do :; done
	echo "== vgpuctl -d 15 top -n 1"
	vgpuctl -d 15 top -n 1 -b
	for v in kernels channels windows sm; do
		echo "== $D/$v"; cat $D/$v
	done
	echo "== vgpuctl -d 15 stats"; vgpuctl -d 15 stats
	wait $pid
	echo
	echo "== vgpuctl -d 15 trace -o demo-trace.json -- vgpuctl run -q --no-alone --preempt switch standard-mix.json"
	vgpuctl -d 15 trace -o /tmp/trace.json -- \
		vgpuctl run -q --no-alone --preempt switch $W/standard-mix.json
	echo "@@trace-begin"; cat /tmp/trace.json; echo "@@trace-end"
' | tr -d '\r' > $LOG || { cat $LOG; echo "demo: the VM run failed (log: $LOG)" >&2; exit 1; }

# Everything but the metric lines and the trace, as the VM printed it.
sed -e '/^@@r /d' -e '/^@@t /d' -e '/^@@trace-begin$/,/^@@trace-end$/d' $LOG
sed -n '/^@@trace-begin$/,/^@@trace-end$/p' $LOG | sed '1d;$d' > $B/demo-trace.json

# The metrics side by side, each column checked against vgpu-sim run.
for wl in standard-mix fairness-mix; do
	for m in drain warp switch; do
		$B/vgpu-sim run --preempt $m --trace $B/demo/$wl-$m.json \
			examples/$wl.json > $B/demo/$wl-$m.sim
		sed -n "s/^@@r $wl $m //p" $LOG > $B/demo/$wl-$m.vgpuctl
		if cmp -s $B/demo/$wl-$m.sim $B/demo/$wl-$m.vgpuctl; then
			echo "@@r $wl $m agrees=yes"
		else
			echo "@@r $wl $m agrees=NO"
		fi
	done
done > $B/demo/agree
echo
echo "== metrics through the module (vgpuctl run), per preemption mode"
cat $LOG $B/demo/agree | awk '
	/^@@r / {
		split($4, kv, "=")
		v[$2 " " $3 " " kv[1]] = kv[2]
	}
	END {
		n = split("preempt_latency_max stp antt fairness makespan agrees", keys, " ")
		printf "%-20s %30s   %30s\n", "", "standard mix", "fairness mix"
		printf "%-20s", ""
		for (w = 0; w < 2; w++)
			printf " %9s %9s %9s  ", "drain", "warp", "switch"
		printf "\n"
		for (i = 1; i <= n; i++) {
			label = keys[i] == "agrees" ? "same as vgpu-sim" : keys[i]
			printf "%-20s", label
			split("standard-mix fairness-mix", wls, " ")
			for (w = 1; w <= 2; w++) {
				split("drain warp switch", ms, " ")
				for (m = 1; m <= 3; m++)
					printf " %9s", v[wls[w] " " ms[m] " " keys[i]]
				printf "  "
			}
			printf "\n"
		}
	}'
grep -q "agrees=NO" $B/demo/agree && echo "demo: vgpuctl and vgpu-sim disagree (see $B/demo/)" >&2

# The replay of two recorded tenants (scripts/make-vm-workloads: two small
# LLM steps from scripts/gen-trace, the second at priority 1 arriving 5000
# cycles later): per-tenant metrics of vgpu-sim run, whose kernel lines and
# trace hash the module's run must reproduce.
echo
echo "== replay of two recorded tenants (vgpu-sim import of a Kineto trace and an Nsight export)"
printf "%-20s %9s %9s\n" "" drain switch
for m in drain switch; do
	$B/vgpu-sim run --preempt $m $B/vm-bin/workloads/replay-tenants.json \
		> $B/demo/replay-$m.sim
	sed -n "s/^@@t $m //p" $LOG |
		grep -E '^(kernel|makespan|trace_hash)=' > $B/demo/replay-$m.vgpuctl
	grep -E '^(kernel|makespan|trace_hash)=' $B/demo/replay-$m.sim |
		cmp -s - $B/demo/replay-$m.vgpuctl && a=yes || a=NO
	echo "agrees=$a" >> $B/demo/replay-$m.sim
done
for k in "tenant=0 slowdown" "tenant=1 slowdown" tenant_stp tenant_antt \
	 tenant_fairness agrees; do
	printf "%-20s" "$(echo "$k" | sed 's/tenant=\([0-9]\) /tenant \1 /; s/agrees/same as module/')"
	for m in drain switch; do
		case $k in
		tenant=*) v=$(sed -n "s/^${k% *} .* slowdown=//p" $B/demo/replay-$m.sim) ;;
		*) v=$(sed -n "s/^$k=//p" $B/demo/replay-$m.sim) ;;
		esac
		printf " %9s" "$v"
	done
	printf "\n"
done
grep -q "agrees=NO" $B/demo/replay-*.sim && echo "demo: the module's replay differs from vgpu-sim's (see $B/demo/)" >&2

scripts/demo-plot $B/demo-occupancy.png examples/standard-mix.json \
	"standard mix, preempt drain: SM occupancy=$B/demo/standard-mix-drain.json" \
	"standard mix, preempt switch: SM occupancy=$B/demo/standard-mix-switch.json"
echo
echo "== outputs"
echo "  $B/demo-trace.json      netlink events of the switch run (open in https://ui.perfetto.dev)"
echo "  $B/demo-occupancy.png   blocks resident on the SMs over time, drain vs switch"
echo "  $LOG              everything the VM printed (serial log: $B/vm/stock/console.log)"
