#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vgpuctl.sh - every vgpuctl command in the VM (F66, F67): help,
# info, stats (JSON parsed by vgpu_jsoncheck), config, dev add/del/list,
# run (its lines equal vgpu-sim run's, metrics included), trace (the
# Chrome JSON parsed, its kernel slices counted against the run), top, and
# the error messages.  Runs from /vgpu with the module loaded (device 0,
# preset small); prints TAP.
n=0
fail=0
T=$(mktemp -d)
WL=/vgpu/bin/workloads
ok() { n=$((n + 1)); echo "ok $n vgpuctl.$1"; }
nok() {
	n=$((n + 1)); fail=1; echo "not ok $n vgpuctl.$1"
	[ -f "$T/out" ] && sed 's/^/# /' "$T/out"
}
# check NAME CMD...: CMD's exit status
check() { name=$1; shift; if "$@"; then ok "$name"; else nok "$name"; fi; }
has() { grep -q -e "$1" "$T/out"; }
field() { sed -n "s/^$1=//p" "$2"; }

echo "TAP version 13"
echo "1..43"

vgpuctl --help > "$T/out" 2>&1
check help has '^usage: vgpuctl'
for c in info stats config dev run compare trace top; do
	vgpuctl "$c" --help > "$T/out" 2>&1 && has "^usage: vgpuctl \[-d N\] $c"
	check "help_$c" test $? = 0
done
vgpuctl frobnicate > "$T/out" 2>&1
check unknown_command test $? = 2

vgpuctl info > "$T/out" 2>&1
check info has '^device:     /dev/vgpu0$'
vgpuctl -d 9 info > "$T/out" 2>&1
check info_missing_device has 'does not exist: no such device instance'

vgpuctl stats -j > "$T/stats.json" 2> "$T/out"
vgpu_jsoncheck stats "$T/stats.json" > "$T/out" 2>&1
check stats_json_parses has '^devs=1$'
check stats_json_shape has '^dev=0 name=vgpu0 sms=4 prios=4 channels=0 '
vgpuctl stats > "$T/out" 2>&1
check stats_text has '^dev 0: vgpu0$'

vgpuctl config preempt switch windows 2048,1024 > "$T/out" 2>&1
check config_set has '^  preempt       switch$'
check config_windows has '^  windows       2048,1024$'
vgpuctl config sync-cost 40 > "$T/out" 2>&1
check config_sync_cost has '^  sync-cost     40$'
vgpuctl config pack sm search grouped search-group 8 search-latency 1 \
	throttle-sms 2 combo 70 > "$T/out" 2>&1
check config_dispatch_options has '^  search        grouped group 8, latency 1$'
check config_pack_throttle sh -c "grep -q '^  pack          sm$' $T/out &&
	grep -q '^  throttle-sms  2$' $T/out && grep -q '^  combo         70$' $T/out"
vgpuctl config search sampled > "$T/out" 2>&1
check config_search_group_refused has 'rejected a value'
# F43: the time-multiplexed search through CONFIG_SET and back
vgpuctl config search mux search-group 0 search-latency 2 > "$T/out" 2>&1
check config_search_mux has '^  search        mux, latency 2$'
vgpuctl config pack auto search exact search-group 0 search-latency 0 \
	throttle-sms 1 combo 50 > /dev/null 2>&1
vgpuctl config preempt warp windows 4096,2048,1024,512 sync-cost 0 > /dev/null 2>&1
vgpuctl config policy nope > "$T/out" 2>&1
check config_bad_policy has "unknown policy 'nope'"
if su -s /bin/sh nobody -c true 2> /dev/null; then
	su -s /bin/sh nobody -c "/vgpu/bin/vgpuctl config preempt drain" > "$T/out" 2>&1
	check config_needs_cap_net_admin has 'needs CAP_NET_ADMIN'
else
	ok "config_needs_cap_net_admin # SKIP no user nobody in the guest"
fi

vgpuctl dev add 5 h100 policy=avail > "$T/out" 2>&1
check dev_add test -c /dev/vgpu5
vgpuctl dev list > "$T/out" 2>&1
check dev_list has '^vgpu5 vgpu5 preset=h100 sms=132 policy=avail'
vgpuctl dev add 5 > "$T/out" 2>&1
check dev_add_exists has 'index is in use'
vgpuctl dev del 5 > "$T/out" 2>&1
check dev_del test ! -e /dev/vgpu5
vgpuctl dev del 5 > "$T/out" 2>&1
check dev_del_missing has 'no such device instance'

# run: the same lines as vgpu-sim run, every metric included (F67)
for m in drain switch; do
	vgpuctl run -q --preempt $m "$WL/standard-mix.json" > "$T/run-$m" 2> "$T/out"
	vgpu-sim run --preempt $m "$WL/standard-mix.json" > "$T/sim-$m" 2>&1
	cp "$T/run-$m" "$T/out"
	check "run_equals_sim_$m" cmp -s "$T/run-$m" "$T/sim-$m"
done

# compare: each policy's column equals vgpu-sim compare's
rows='^(policy|makespan|stp|antt|fairness|preempt_latency_max|trace_hash|turnaround) '
vgpuctl compare -q --policy rr --policy avail "$WL/standard-mix.json" 2> "$T/out" |
	grep -E "$rows" | tr -s ' ' > "$T/cmp-mod"
vgpu-sim compare --policy rr --policy avail "$WL/standard-mix.json" 2>&1 |
	grep -E "$rows" | tr -s ' ' > "$T/cmp-sim"
cp "$T/cmp-mod" "$T/out"
check compare_equals_sim eval '[ -s "$T/cmp-mod" ] && cmp -s "$T/cmp-mod" "$T/cmp-sim"'
check run_metric_lines test "$(grep -c -E '^(stp|antt|fairness|preempt_latency_max)=' "$T/run-drain")" = 4

# trace: one kernel slice per kernel of the run, every block dispatched
vgpuctl -d 15 trace -o "$T/t.json" -- \
	vgpuctl run -q --no-alone "$WL/fairness-mix.json" > "$T/run" 2> "$T/trace.err"
check trace_exit test $? = 0
vgpu_jsoncheck trace "$T/t.json" > "$T/out" 2>&1
check trace_parses test $? = 0
kernels=$(grep -c '^kernel=.*turnaround=' "$T/run")
check trace_slices has "^slices=$kernels .* kernels=$kernels$"
cp "$T/trace.err" "$T/out"
check trace_nothing_lost has ', 0 lost, 0 overruns'

# trace --locks: the arbiter's grants (F35) of a mutex workload arrive on
# the "locks" group through libvgpu: 4 warps of a block take lock 0 four
# times each; each acquisition after the first of a round waits, so there
# are grants, as many instants as the summary counts, none lost
cat > "$T/mutex.json" <<'EOF2'
{ "device": { "preset": "small" },
  "kernels": [ { "name": "m", "grid": 2, "threads": 128,
    "program": ["LOOP 4", "LOCK 0", "LOAD", "ALU", "UNLOCK 0", "ENDLOOP",
                "EXIT"] } ] }
EOF2
vgpuctl -d 15 trace --locks -o "$T/l.json" -- \
	vgpuctl run -q --no-alone "$T/mutex.json" > "$T/run" 2> "$T/locks.err"
check trace_locks_exit test $? = 0
vgpu_jsoncheck trace "$T/l.json" > "$T/out" 2>&1
check trace_locks_parses test $? = 0
grants=$(grep -o '"cat":"lock"' "$T/l.json" | wc -l)
cp "$T/locks.err" "$T/out"
check trace_locks_grants eval '[ "$grants" -gt 0 ] && has "^vgpuctl trace: $grants lock grants, 0 lost$"'
vgpuctl -d 15 trace -o "$T/n.json" -- \
	vgpuctl run -q --no-alone "$T/mutex.json" > "$T/run" 2> "$T/out"
check trace_no_locks_unasked eval '! grep -q "\"cat\":\"lock\"" "$T/n.json"'

vgpuctl top -n 2 -i 10 -b > "$T/out" 2>&1
check top_twice test "$(grep -c '^vgpuctl top - /dev/vgpu0' "$T/out")" = 2
check top_sms test "$(grep -c -E '^ +[0-3] +[0-9]+/32 ' "$T/out")" = 8

rm -rf "$T"
exit $fail
