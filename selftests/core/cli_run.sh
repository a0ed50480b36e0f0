#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vgpu-sim run: output format, the standard mix under the three preemption
# modes (F23), determinism (F51), the Chrome trace, workload errors naming
# file, position and field.  Run from the repository root; prints TAP.
set -u
SIM=${VGPU_SIM:-build/vgpu-sim-asan}
. "$(dirname "$0")/tap.sh"

MIX=examples/standard-mix.json
for m in drain warp switch; do
	"$SIM" run "$MIX" --preempt "$m" > "$TMP/$m.out" 2> "$TMP/$m.err"
	check "standard mix runs with --preempt $m" "[ \$? -eq 0 ]"
done

# Output contract: kernel lines, then the six summary lines, in order.
want='^kernel=[^ ]+ submit=[0-9]+ start=[0-9]+ end=[0-9]+ turnaround=[0-9]+$'
check "one kernel= line per kernel" \
	"[ \$(grep -Ec '$want' $TMP/warp.out) -eq 3 ]"
check "summary lines in order" \
	"[ \"\$(sed -n '4,9s/=.*//p' $TMP/warp.out | tr '\n' ' ')\" = 'makespan stp antt fairness preempt_latency_max trace_hash ' ]"
check "trace_hash has 16 hex digits" \
	"grep -Eq '^trace_hash=0x[0-9a-f]{16}$' $TMP/warp.out"
check "stp/antt/fairness have 3 decimals" \
	"[ \$(grep -Ec '^(stp|antt|fairness)=[0-9]+\.[0-9]{3}$' $TMP/warp.out) -eq 3 ]"

d=$(field preempt_latency_max "$TMP/drain.out")
w=$(field preempt_latency_max "$TMP/warp.out")
s=$(field preempt_latency_max "$TMP/switch.out")
echo "# preempt_latency_max drain=$d warp=$w switch=$s"
check "warp preemption latency at least 10x lower than drain" \
	"[ $d -gt 0 ] && [ \$((w * 10)) -le $d ]"
check "switch preemption latency at least 10x lower than drain" \
	"[ $d -gt 0 ] && [ \$((s * 10)) -le $d ]"
check "the high-priority kernel arrived on a busy device" \
	"grep -q '^kernel=high submit=6000 ' $TMP/warp.out"

"$SIM" run "$MIX" --preempt warp > "$TMP/again.out" 2>&1
check "same workload, same trace hash (F51)" \
	"cmp -s $TMP/warp.out $TMP/again.out"
check "modes give different traces" \
	"[ \"\$(field trace_hash $TMP/warp.out)\" != \"\$(field trace_hash $TMP/switch.out)\" ]"

"$SIM" run "$MIX" --preempt switch --trace "$TMP/t.json" > "$TMP/tr.out" 2>&1
check "--trace does not change the results" "cmp -s $TMP/tr.out $TMP/switch.out"
if command -v python3 > /dev/null; then
	check "--trace writes Chrome trace JSON: SM tracks, slices, preempt marker" \
		"python3 -c '
import json, sys
d = json.load(open(\"$TMP/t.json\"))
ev = d[\"traceEvents\"]
tracks = [e for e in ev if e.get(\"name\") == \"thread_name\"]
slices = [e for e in ev if e.get(\"ph\") == \"X\"]
pre = [e for e in ev if e.get(\"name\") == \"preempt\"]
names = set(e[\"name\"] for e in slices)
sys.exit(not (len(tracks) == 4 and len(slices) >= 28 and pre and
	      names == {\"low-a\", \"low-b\", \"high\"}))'"
else
	ok "# SKIP python3 missing"
fi

for f in examples/*.json; do
	"$SIM" run "$f" > "$TMP/ex.out" 2>&1
	check "example $f runs" "[ \$? -eq 0 ] && grep -q '^trace_hash=' $TMP/ex.out"
done
for p in rr avail resource power; do
	"$SIM" run examples/fairness-mix.json --policy "$p" > "$TMP/p.out" 2>&1
	check "--policy $p" "[ \$? -eq 0 ] && [ \$(grep -c '^kernel=' $TMP/p.out) -eq 5 ]"
done

# Errors name the file, the position and the field.
printf '{ "kernels": [ {"name": "a", "grid": 0, "threads": 32, "program": "EXIT"} ] }\n' > "$TMP/b1.json"
"$SIM" run "$TMP/b1.json" > /dev/null 2> "$TMP/e1"
check "bad value: exit 1, file, path and field" \
	"[ \$? -eq 1 ] && grep -q 'b1.json: kernels\[0\]: grid: must be >= 1' $TMP/e1"
printf '{ "device": {"preset": "small"},\n  "kernels": [ {"name": "a" "grid": 1} ] }\n' > "$TMP/b2.json"
"$SIM" run "$TMP/b2.json" > /dev/null 2> "$TMP/e2"
check "syntax error: line and column" \
	"[ \$? -eq 1 ] && grep -q 'b2.json: 2:[0-9]*: (syntax): ' $TMP/e2"
printf '{ "device": {"preset": "small", "preempt": "maybe"}, "kernels": [] }\n' > "$TMP/b3.json"
"$SIM" run "$TMP/b3.json" > /dev/null 2> "$TMP/e3"
check "bad device field" \
	"[ \$? -eq 1 ] && grep -q 'b3.json: device: preempt: unknown mode' $TMP/e3"
printf '{ "kernels": [ {"name": "a", "channel": 1, "tenant": 2, "grid": 1, "threads": 32, "program": "EXIT"}, {"name": "b", "channel": 1, "tenant": 3, "grid": 1, "threads": 32, "program": "EXIT"} ] }\n' > "$TMP/b3t.json"
"$SIM" run "$TMP/b3t.json" > /dev/null 2> "$TMP/e3t"
check "a channel has one tenant" \
	"[ \$? -eq 1 ] && grep -q 'b3t.json: kernels\[1\]: tenant: channel 1 is tenant 2.s (kernels\[0\])' $TMP/e3t"
printf '{ "kernels": [ {"name": "a", "tenant": 256, "grid": 1, "threads": 32, "program": "EXIT"} ] }\n' > "$TMP/b3u.json"
"$SIM" run "$TMP/b3u.json" > /dev/null 2> "$TMP/e3u"
check "tenant out of range" \
	"[ \$? -eq 1 ] && grep -q 'b3u.json: kernels\[0\]: tenant' $TMP/e3u"
printf '{ "device": {"pack": "all"}, "kernels": [] }\n' > "$TMP/b3p.json"
"$SIM" run "$TMP/b3p.json" > /dev/null 2> "$TMP/e3p"
check "bad device pack" \
	"[ \$? -eq 1 ] && grep -q 'b3p.json: device: pack: unknown mode .all. (auto, block, sm)' $TMP/e3p"
"$SIM" run "$MIX" --pack all > /dev/null 2>&1
check "bad --pack is a usage error" "[ \$? -eq 2 ]"
# F25: under rr, pack=auto is pack=block; the workload's key and the option agree
h1=$("$SIM" run "$MIX" --pack block | sed -n 's/^trace_hash=//p')
h2=$("$SIM" run "$MIX" | sed -n 's/^trace_hash=//p')
sed 's/"preempt": "warp"/"preempt": "warp", "pack": "sm"/' "$MIX" > "$TMP/packsm.json"
h3=$("$SIM" run "$TMP/packsm.json" | sed -n 's/^trace_hash=//p')
h4=$("$SIM" run "$MIX" --pack sm | sed -n 's/^trace_hash=//p')
check "pack auto = block under rr; the device key = --pack" \
	"[ -n '$h1' ] && [ '$h1' = '$h2' ] && [ -n '$h3' ] && [ '$h3' = '$h4' ] && [ '$h3' != '$h1' ]"
# F35: per-warp levels from the host (seed 003)
printf '{ "kernels": [ {"name": "a", "grid": 1, "threads": 64, "warp_prio": [1, 0], "program": ["LOCK 0", "ALU", "UNLOCK 0", "EXIT"]} ] }\n' > "$TMP/wp.json"
"$SIM" run "$TMP/wp.json" > /dev/null 2>&1
check "warp_prio: one level per warp runs" "[ \$? -eq 0 ]"
printf '{ "kernels": [ {"name": "a", "grid": 1, "threads": 64, "warp_prio": [1], "program": "EXIT"} ] }\n' > "$TMP/b3w.json"
"$SIM" run "$TMP/b3w.json" > /dev/null 2> "$TMP/e3w"
check "warp_prio: a level for every warp" \
	"[ \$? -eq 1 ] && grep -q 'b3w.json: kernels\[0\]: warp_prio: one level per warp: 1 given for blocks of 2 warps' $TMP/e3w"
printf '{ "kernels": [ {"name": "a", "grid": 1, "threads": 64, "warp_prio": [1, 4], "program": "EXIT"} ] }\n' > "$TMP/b3x.json"
"$SIM" run "$TMP/b3x.json" > /dev/null 2> "$TMP/e3x"
check "warp_prio: levels below num_prios" \
	"[ \$? -eq 1 ] && grep -q 'b3x.json: kernels\[0\]: warp_prio: expected an integer in 0..3' $TMP/e3x"
# F01/F02, seed 001 [0042]: a scalar register file as an option of the device
printf '{ "device": {"preset": "small", "config": {"sregs_per_subpart": 1024, "sreg_unit": 64}}, "kernels": [ {"name": "a", "grid": 12, "threads": 128, "sregs": 320, "affinity": [0], "program": ["LOOP 100", "ALU", "ENDLOOP", "EXIT"]} ] }\n' > "$TMP/sr.json"
sed 's/"sregs": 320/"sregs": 0/' "$TMP/sr.json" > "$TMP/sr0.json"
e1=$("$SIM" run "$TMP/sr.json" | sed -n 's/^kernel=a .* end=\([0-9]*\) .*/\1/p')
e0=$("$SIM" run "$TMP/sr0.json" | sed -n 's/^kernel=a .* end=\([0-9]*\) .*/\1/p')
check "scalar registers bound the blocks on an SM: a later end" \
	"[ -n '$e1' ] && [ -n '$e0' ] && [ '$e1' -gt '$e0' ]"
sed 's/"config": {"sregs_per_subpart": 1024, "sreg_unit": 64}/"config": {}/' "$TMP/sr.json" > "$TMP/b3r.json"
"$SIM" run "$TMP/b3r.json" > /dev/null 2> "$TMP/e3r"
check "scalar registers without a scalar file" \
	"[ \$? -eq 1 ] && grep -q 'b3r.json: kernels\[0\] (a): a block never fits an SM' $TMP/e3r"
# F40-F42: the largest-run search mode, its group and its latency
printf '{ "device": {"search": "fuzzy"}, "kernels": [] }\n' > "$TMP/b3s.json"
"$SIM" run "$TMP/b3s.json" > /dev/null 2> "$TMP/e3s"
check "bad device search" \
	"[ \$? -eq 1 ] && grep -q 'b3s.json: device: search: unknown mode .fuzzy. (exact, grouped, sampled, mux)' $TMP/e3s"
printf '{ "device": {"search": "grouped"}, "kernels": [ {"name": "a", "grid": 1, "threads": 32, "program": "EXIT"} ] }\n' > "$TMP/b3g.json"
"$SIM" run "$TMP/b3g.json" > /dev/null 2> "$TMP/e3g"
check "grouped search without a group size" \
	"[ \$? -eq 1 ] && grep -q 'b3g.json: device: search_group: the grouped search needs a group of 1 or more units' $TMP/e3g"
# seed 001 [0127]: the group divides every map the search runs over
printf '{ "device": {"search": "grouped", "search_group": 41}, "kernels": [ {"name": "a", "grid": 1, "threads": 32, "program": "EXIT"} ] }\n' > "$TMP/b3d.json"
"$SIM" run "$TMP/b3d.json" > /dev/null 2> "$TMP/e3d"
check "a search group that does not divide the register map" \
	"[ \$? -eq 1 ] && grep -q 'b3d.json: device: search_group: 41 does not divide the register map of a sub-partition (64 units)' $TMP/e3d"
printf '{ "device": {"search": "grouped", "search_group": 32, "config": {"sregs_per_subpart": 1024, "sreg_unit": 64}}, "kernels": [ {"name": "a", "grid": 1, "threads": 32, "program": "EXIT"} ] }\n' > "$TMP/b3e.json"
"$SIM" run "$TMP/b3e.json" > /dev/null 2> "$TMP/e3e"
check "a search group that does not divide the scalar register map" \
	"[ \$? -eq 1 ] && grep -q 'b3e.json: device: search_group: 32 does not divide the scalar register map of a sub-partition (16 units)' $TMP/e3e"
printf '{ "device": {"search_group": 8}, "kernels": [ {"name": "a", "grid": 1, "threads": 32, "program": "EXIT"} ] }\n' > "$TMP/b3f.json"
"$SIM" run "$TMP/b3f.json" > /dev/null 2> "$TMP/e3f"
check "a search group without the grouped search" \
	"[ \$? -eq 1 ] && grep -q 'b3f.json: device: search_group: only with \"search\": \"grouped\"' $TMP/e3f"
# a block the sampled search never finds room for (runs of 1024 of 1312 units)
printf '{ "device": {"search": "sampled"}, "kernels": [ {"name": "a", "grid": 1, "threads": 32, "smem": 140000, "program": "EXIT"} ] }\n' > "$TMP/b3h.json"
"$SIM" run "$TMP/b3h.json" > /dev/null 2> "$TMP/e3h"
check "a block the sampled search never places, refused at load" \
	"[ \$? -eq 1 ] && grep -q 'b3h.json: kernels\[0\]: smem: 140000 bytes (1102 units of 128 with the block.s reserve) never fit the sampled search.s largest run on an empty SM (1024 of 1312 units)' $TMP/e3h"
sed 's/"sampled"/"exact"/' "$TMP/b3h.json" > "$TMP/b3i.json"
"$SIM" run "$TMP/b3i.json" > /dev/null 2> "$TMP/e3i"
check "the same block under the exact search runs" "[ \$? -eq 0 ]"
# scalar registers too: a file of 24 units of 64, sampled sees 16
printf '{ "device": {"search": "sampled", "config": {"sregs_per_subpart": 1536, "sreg_unit": 64}}, "kernels": [ {"name": "a", "grid": 1, "threads": 32, "sregs": 1280, "program": "EXIT"} ] }\n' > "$TMP/b3j.json"
"$SIM" run "$TMP/b3j.json" > /dev/null 2> "$TMP/e3j"
check "scalar registers the sampled search never places, refused at load" \
	"[ \$? -eq 1 ] && grep -q 'b3j.json: kernels\[0\]: sregs: 1280 a warp (20 units) never fit the sampled search.s largest run on an empty sub-partition.s scalar file (16 of 24 units)' $TMP/e3j"
# F43: the mux search places as the exact one, its latency per period
sed 's/"sampled"/"mux"/' "$TMP/b3h.json" > "$TMP/b3m.json"
"$SIM" run "$TMP/b3m.json" > /dev/null 2> "$TMP/e3m"
check "the block under the mux search runs" "[ \$? -eq 0 ]"
sed 's/"preempt": "warp"/"preempt": "warp", "search": "mux"/' "$MIX" > "$TMP/mux.json"
hm=$("$SIM" run "$TMP/mux.json" | sed -n 's/^trace_hash=//p')
sed 's/"preempt": "warp"/"preempt": "warp", "search": "mux", "search_latency": 2/' "$MIX" > "$TMP/mux2.json"
hm2=$("$SIM" run "$TMP/mux2.json" | sed -n 's/^trace_hash=//p')
check "the mux search: the exact search's trace, another with a latency" \
	"[ -n '$hm' ] && [ '$hm' = '$h2' ] && [ -n '$hm2' ] && [ '$hm2' != '$h2' ]"
printf '{ "device": {"search_latency": 4}, "kernels": [] }\n' > "$TMP/b3l.json"
"$SIM" run "$TMP/b3l.json" > /dev/null 2> "$TMP/e3l"
check "search latency above 3" \
	"[ \$? -eq 1 ] && grep -q 'b3l.json: device: search_latency: expected an integer in 0..3' $TMP/e3l"
sed 's/"preempt": "warp"/"preempt": "warp", "search": "grouped", "search_group": 16, "search_latency": 3/' "$MIX" > "$TMP/grouped.json"
h5=$("$SIM" run "$TMP/grouped.json" | sed -n 's/^trace_hash=//p')
check "a grouped search with a latency runs, and differently" \
	"[ -n '$h5' ] && [ '$h5' != '$h2' ]"
# F21's random pick: the device's seed (default 1) makes the run; the
# standard mix's low kernels on two channels tie for it
hd=$("$SIM" run "$MIX" | sed -n 's/^trace_hash=//p')
sed 's/"preempt": "warp"/"preempt": "warp", "seed": 1/' "$MIX" > "$TMP/seed1.json"
sed 's/"preempt": "warp"/"preempt": "warp", "seed": 2/' "$MIX" > "$TMP/seed2.json"
h6=$("$SIM" run "$TMP/seed1.json" | sed -n 's/^trace_hash=//p')
h7=$("$SIM" run "$TMP/seed2.json" | sed -n 's/^trace_hash=//p')
check "seed 1 is the default, seed 2 picks otherwise" \
	"[ -n '$hd' ] && [ '$h6' = '$hd' ] && [ -n '$h7' ] && [ '$h7' != '$hd' ]"
printf '{ "device": {"seed": 4294967296}, "kernels": [] }\n' > "$TMP/b3r.json"
"$SIM" run "$TMP/b3r.json" > /dev/null 2> "$TMP/e3r"
check "a seed above 2^32 - 1" \
	"[ \$? -eq 1 ] && grep -q 'b3r.json: device: seed: expected an integer in 0..4294967295' $TMP/e3r"
printf '{ "kernels": [ {"name": "a", "grid": 1, "threads": 32, "program": ["LOOP 3", "EXIT"]} ] }\n' > "$TMP/b4.json"
"$SIM" run "$TMP/b4.json" > /dev/null 2> "$TMP/e4"
check "bad program: names the kernel and the instruction" \
	"[ \$? -eq 1 ] && grep -q 'kernels\[0\]: program: .*instruction 0 (LOOP 3)' $TMP/e4"
# a workload's device: libvgpu.so.1's affinity masks name 1024 SMs
printf '{ "device": {"config": {"num_sms": 1025}}, "kernels": [] }\n' > "$TMP/b3s.json"
"$SIM" run "$TMP/b3s.json" > /dev/null 2> "$TMP/e3s"
check "a workload device of more than 1024 SMs" \
	"[ \$? -eq 1 ] && grep -q 'b3s.json: device.config: num_sms: at most 1024 SMs in a workload' $TMP/e3s"
printf '{ "device": {"config": {"num_sms": 1024}}, "kernels": [ %s ] }\n' \
	'{"name": "a", "grid": 2, "threads": 32, "program": "EXIT", "affinity": [1023]}' \
	> "$TMP/b3t.json"
"$SIM" run "$TMP/b3t.json" > /dev/null 2> "$TMP/e3t"
check "a workload device of 1024 SMs, pinned to the last" "[ \$? -eq 0 ]"
printf '{ "kernels": [ {"name": "a", "grid": 1, "threads": 32, "program": "EXIT", "colour": 1} ] }\n' > "$TMP/b5.json"
"$SIM" run "$TMP/b5.json" > /dev/null 2> "$TMP/e5"
check "unknown field" \
	"[ \$? -eq 1 ] && grep -q 'kernels\[0\]: colour: unknown field' $TMP/e5"
"$SIM" run "$MIX" --preempt sometimes > /dev/null 2>&1
check "bad --preempt is a usage error" "[ \$? -eq 2 ]"
"$SIM" run "$MIX" --policy nope > /dev/null 2>&1
check "bad --policy is a usage error" "[ \$? -eq 2 ]"
"$SIM" run > /dev/null 2>&1
check "no file is a usage error" "[ \$? -eq 2 ]"
"$SIM" run "$TMP/none.json" > /dev/null 2> "$TMP/e6"
check "missing file" "[ \$? -eq 1 ] && grep -q 'none.json: No such file' $TMP/e6"

# vgpu-sim bench dispatch: output contract (figures: performance.rst).
"$SIM" bench dispatch --seconds 20 > "$TMP/bd.out" 2>&1
check "bench dispatch reports decisions/s and the 1024/128 ratio" \
	"[ \$? -eq 0 ] && grep -Eq '^decisions_per_sec=[0-9]+ ' $TMP/bd.out && grep -Eq '^cost_ratio_1024_vs_128=[0-9.]+$' $TMP/bd.out"

# throttle mode uses SM 0 only here: a throttle kernel confined to SM 3
printf '{ "device": {"throttle_sms": 1}, "kernels": [ {"name": "t", "grid": 1, "threads": 32, "flags": ["throttle"], "affinity": [3], "program": "EXIT"} ] }\n' > "$TMP/b7.json"
"$SIM" run "$TMP/b7.json" > /dev/null 2> "$TMP/e7"
check "a kernel that can never run is reported, not spun on" \
	"[ \$? -eq 1 ] && grep -q 'stuck at cycle' $TMP/e7"
# F26: a throttle kernel runs (the mode switch, seed 002), then the others
printf '{ "device": {"throttle_sms": 1}, "kernels": [ {"name": "t", "grid": 2, "threads": 32, "flags": ["throttle"], "program": "EXIT"}, {"name": "n", "channel": 1, "grid": 1, "threads": 32, "program": "EXIT"} ] }\n' > "$TMP/b9.json"
"$SIM" run "$TMP/b9.json" > "$TMP/o9" 2>&1
check "a throttle kernel runs, then the others" \
	"[ \$? -eq 0 ] && grep -q '^kernel=t ' $TMP/o9 && grep -q '^kernel=n ' $TMP/o9"

echo "1..$n"
exit $fail
