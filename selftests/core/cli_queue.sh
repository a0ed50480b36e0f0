#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vgpu-sim run with queue kernels (F14), head insertion (F16) and the state
# sync cost (F17): examples/queue-mix.json, the Perfetto trace's sync
# slices and queue track, exact coalescing cycles, the handshakes' latencies
# (assign_latency, dealloc_latency) and the workload errors of the new
# fields.  Run from the repository root; prints TAP.
set -u
SIM=${VGPU_SIM:-build/vgpu-sim-asan}
. "$(dirname "$0")/tap.sh"
start() { sed -n "s/^kernel=$1 submit=[0-9]* start=\([0-9-]*\) .*/\1/p" "$2"; }

MIX=examples/queue-mix.json
"$SIM" run "$MIX" --trace "$TMP/t.json" > "$TMP/mix.out" 2> "$TMP/mix.err"
check "queue-mix runs" "[ \$? -eq 0 ] && [ \$(grep -c '^kernel=' $TMP/mix.out) -eq 5 ]"
end() { sed -n "s/^kernel=$1 submit=[0-9]* start=[0-9-]* end=\([0-9-]*\) .*/\1/p" "$2"; }
check "the head kernel goes before the one that arrived with it (F16)" \
	"[ \$(start urgent $TMP/mix.out) -le \$(start late $TMP/mix.out) ] &&
	 [ \$(end urgent $TMP/mix.out) -lt \$(end late $TMP/mix.out) ]"
check "the work queue ends at its close (4000), after its last block" \
	"grep -q '^kernel=work submit=100 start=[0-9]* end=4000 ' $TMP/mix.out"
"$SIM" run "$MIX" > "$TMP/again.out" 2>&1
check "same workload, same trace hash (F51)" "cmp -s $TMP/mix.out $TMP/again.out"
sed 's/"sync_cost": 40/"sync_cost": 0/' "$MIX" > "$TMP/nosync.json"
"$SIM" run "$TMP/nosync.json" --trace "$TMP/n.json" > "$TMP/nosync.out" 2>&1
check "sync_cost changes the run" \
	"[ \"\$(grep trace_hash $TMP/mix.out)\" != \"\$(grep trace_hash $TMP/nosync.out)\" ]"
if command -v python3 > /dev/null; then
	check "trace: 40-cycle sync slices on SM tracks, a queues track with pushes and coalesced blocks" \
		"python3 -c '
import json
ev = json.load(open(\"$TMP/t.json\"))[\"traceEvents\"]
names = [e[\"args\"][\"name\"] for e in ev if e[\"name\"] == \"thread_name\"]
assert names[-1] == \"queues\", names
sync = [e for e in ev if e[\"name\"] == \"sync\"]
assert sync and all(e[\"dur\"] == 40 and e[\"tid\"] < 4 for e in sync)
assert sync[0][\"args\"][\"from\"] == \"(none)\"
push = [e for e in ev if e[\"name\"] == \"push\"]
assert len(push) == 7 and sum(p[\"args\"][\"close\"] for p in push) == 2, push
co = [e for e in ev if e[\"name\"] == \"coalesce\"]
assert {c[\"args\"][\"why\"] for c in co} == {\"full\", \"timeout\", \"close\"}
w = [c for c in co if c[\"args\"][\"kernel\"] == \"work\"]
assert sum(c[\"args\"][\"items\"] for c in w) == 20, w
b = [c for c in co if c[\"args\"][\"kernel\"] == \"burst\"]
assert [c[\"args\"][\"items\"] for c in b] == [2, 2, 2, 1], b
'"
	check "trace without sync cost has no sync slice" \
		"python3 -c '
import json
ev = json.load(open(\"$TMP/n.json\"))[\"traceEvents\"]
assert not [e for e in ev if e[\"name\"] == \"sync\"]
'"
fi

# F17, seed 002 step 434: the assignment ahead of the state sync.  Both
# latencies at 0 are the device without them (same hash); an assignment
# of 30 cycles gives each sync slice an "assign" slice of 30 at its start,
# the handshake (the engine's sync) 70 cycles in all.
sed 's/"sync_cost": 40/"sync_cost": 40, "assign_latency": 0, "dealloc_latency": 0/' \
	"$MIX" > "$TMP/hs0.json"
"$SIM" run "$TMP/hs0.json" > "$TMP/hs0.out" 2>&1
check "assign_latency and dealloc_latency 0: the same run as without them" \
	"cmp -s $TMP/mix.out $TMP/hs0.out"
sed 's/"sync_cost": 40/"sync_cost": 40, "assign_latency": 30/' "$MIX" > "$TMP/hs.json"
"$SIM" run "$TMP/hs.json" --trace "$TMP/hs.trace" > "$TMP/hs.out" 2>&1
check "assign_latency changes the run" \
	"[ \$? -eq 0 ] && [ \"\$(grep trace_hash $TMP/mix.out)\" != \"\$(grep trace_hash $TMP/hs.out)\" ]"
if command -v python3 > /dev/null; then
	check "trace: an assign slice of 30 at the start of each sync slice of 70" \
		"python3 -c '
import json
ev = json.load(open(\"$TMP/hs.trace\"))[\"traceEvents\"]
sync = [e for e in ev if e[\"name\"] == \"sync\"]
asg = [e for e in ev if e[\"name\"] == \"assign\"]
assert sync and all(e[\"dur\"] == 70 for e in sync), sync
assert len(asg) == len(sync) and all(e[\"dur\"] == 30 for e in asg), asg
assert sorted((e[\"tid\"], e[\"ts\"]) for e in asg) == sorted((e[\"tid\"], e[\"ts\"]) for e in sync)
'"
fi
sed 's/"sync_cost": 40/"sync_cost": 40, "dealloc_latency": 200/' "$MIX" > "$TMP/dl.json"
"$SIM" run "$TMP/dl.json" > "$TMP/dl.out" 2>&1
check "dealloc_latency changes the run" \
	"[ \$? -eq 0 ] && [ \"\$(grep trace_hash $TMP/mix.out)\" != \"\$(grep trace_hash $TMP/dl.out)\" ]"

# Exact coalescing: 10 items, 4 per block, timeout 200: blocks at 0, 0, 256.
cat > "$TMP/q.json" <<'WL'
{ "device": { "windows": [] },
  "kernels": [ { "name": "q", "threads": 32,
    "queue": { "n": 4, "timeout": 200,
               "push": [ {"at": 0, "items": 10}, {"at": 3000, "close": true} ] },
    "program": ["LOOP 10*items", "ALU", "ENDLOOP", "EXIT"] } ] }
WL
"$SIM" run "$TMP/q.json" --trace "$TMP/q.trace" > "$TMP/q.out" 2>&1
check "a queue kernel ends at its close" \
	"grep -q '^kernel=q submit=0 start=0 end=3000 turnaround=3000$' $TMP/q.out"
if command -v python3 > /dev/null; then
	check "two full blocks at 0, the partial one at 256" \
		"python3 -c '
import json
ev = json.load(open(\"$TMP/q.trace\"))[\"traceEvents\"]
co = [(e[\"ts\"], e[\"args\"][\"items\"], e[\"args\"][\"why\"]) for e in ev if e[\"name\"] == \"coalesce\"]
assert co == [(0, 4, \"full\"), (0, 4, \"full\"), (256, 2, \"timeout\")], co
'"
fi

# A queue closed without items completes at the close and never started.
cat > "$TMP/e.json" <<'WL'
{ "kernels": [ { "name": "e", "threads": 32, "arrival": 10,
    "queue": { "n": 1, "timeout": 5, "push": [ {"at": 500, "close": true} ] },
    "program": "EXIT" } ] }
WL
"$SIM" run "$TMP/e.json" > "$TMP/e.out" 2>&1
check "an empty queue ends at its close with start=-1" \
	"grep -q '^kernel=e submit=10 start=-1 end=500 turnaround=490$' $TMP/e.out"

# Errors: file, path, field.
bad() {
	printf '%s\n' "$2" > "$TMP/bad.json"
	"$SIM" run "$TMP/bad.json" > /dev/null 2> "$TMP/bad.err"
	check "$1" "[ \$? -eq 1 ] && grep -q \"$3\" $TMP/bad.err"
}
K='"name": "q", "threads": 32, "program": "EXIT"'
bad "a queue kernel has no grid" \
	"{ \"kernels\": [ { $K, \"grid\": 2, \"queue\": {\"n\": 1, \"timeout\": 5, \"push\": [{\"close\": true}]} } ] }" \
	'kernels\[0\]: grid: a queue kernel has no grid'
bad "a queue must be closed" \
	"{ \"kernels\": [ { $K, \"queue\": {\"n\": 1, \"timeout\": 5, \"push\": [{\"items\": 3}]} } ] }" \
	'kernels\[0\]: queue: never closed'
bad "only the last push closes" \
	"{ \"kernels\": [ { $K, \"queue\": {\"n\": 1, \"timeout\": 5, \"push\": [{\"close\": true}, {\"items\": 1}]} } ] }" \
	'kernels\[0\].queue.push\[0\]: close: only the last push'
bad "items up to cap" \
	"{ \"kernels\": [ { $K, \"queue\": {\"n\": 1, \"cap\": 4, \"timeout\": 5, \"push\": [{\"items\": 5, \"close\": true}]} } ] }" \
	'kernels\[0\].queue.push\[0\]: items: expected an integer in 0..4'
bad "pushes not yet arrived count against cap" \
	"{ \"kernels\": [ { $K, \"queue\": {\"n\": 1, \"cap\": 4, \"timeout\": 5, \"push\": [{\"items\": 3}, {\"at\": 9000, \"items\": 3, \"close\": true}]} } ] }" \
	'queue.push\[1\]: more than queue.cap items would wait'
bad "n is 1..128" \
	"{ \"kernels\": [ { $K, \"queue\": {\"n\": 129, \"timeout\": 5} } ] }" \
	'kernels\[0\].queue: n: expected an integer in 0..128'
bad "timeout is required" \
	"{ \"kernels\": [ { $K, \"queue\": {\"n\": 2} } ] }" \
	'kernels\[0\].queue: timeout: missing'
bad "unknown queue field" \
	"{ \"kernels\": [ { $K, \"queue\": {\"n\": 2, \"timeout\": 3, \"size\": 1} } ] }" \
	'kernels\[0\].queue: size: unknown field'
bad "sync_cost is at most 255" \
	"{ \"device\": {\"sync_cost\": 256}, \"kernels\": [ { $K, \"grid\": 1 } ] }" \
	'device: sync_cost: expected an integer in 0..255'
bad "assign_latency is at most 255" \
	"{ \"device\": {\"assign_latency\": 256}, \"kernels\": [ { $K, \"grid\": 1 } ] }" \
	'device: assign_latency: expected an integer in 0..255'
bad "dealloc_latency is at most 255" \
	"{ \"device\": {\"dealloc_latency\": 256}, \"kernels\": [ { $K, \"grid\": 1 } ] }" \
	'device: dealloc_latency: expected an integer in 0..255'
bad "head is not a template flag" \
	"{ \"kernels\": [ { $K, \"grid\": 1, \"templates\": [{\"grid\": 1, \"threads\": 32, \"flags\": [\"head\"], \"program\": \"EXIT\"}] } ] }" \
	'templates\[0\]: flags: a template may be independent or sequential only'

# F14: PUSH instructions feed an earlier queue kernel ("push_to"); four
# producer blocks push 3 items each at once: 12 items, three full blocks
cat > "$TMP/push.json" <<'EOF'
{ "device": {"preset": "small"},
  "kernels": [
    {"name": "q", "channel": 0, "threads": 32,
     "queue": {"n": 4, "timeout": 200, "records": 8,
	       "push": [{"at": 5000, "close": true}]},
     "program": ["LOOP 10*items", "ALU", "ENDLOOP", "EXIT"]},
    {"name": "producer", "channel": 1, "grid": 4, "threads": 32,
     "push_to": "q", "program": ["PUSH 3", "LOOP 10", "ALU", "ENDLOOP", "EXIT"]}
  ] }
EOF
"$SIM" run "$TMP/push.json" > "$TMP/push.out" 2>&1
check "PUSH feeds the queue: the producer completes, the queue at its close" \
	"grep -q '^kernel=producer submit=0 start=0 end=[0-9]* ' $TMP/push.out &&
	 grep -q '^kernel=q submit=0 start=64 end=5000 ' $TMP/push.out"
sed 's/"records": 8,/"records": 2,/' "$TMP/push.json" > "$TMP/push2.json"
"$SIM" run "$TMP/push2.json" > "$TMP/push2.out" 2>&1
check "PUSH beyond the queue's records fails the producer (-ENOSPC)" \
	"grep -q '^kernel=producer .*end=failed error=-28' $TMP/push2.out"
bad "push_to names an earlier queue kernel" \
	'{ "kernels": [ { "name": "p", "grid": 1, "threads": 32, "push_to": "q", "program": ["PUSH 1", "EXIT"] } ] }' \
	"kernels\[0\]: push_to: 'q' is not an earlier queue kernel"
bad "a PUSH needs a push_to" \
	'{ "kernels": [ { "name": "p", "grid": 1, "threads": 32, "program": ["PUSH 1", "EXIT"] } ] }' \
	'kernels\[0\] (p): rejected by the controller'
bad "records at most the queue's cap" \
	"{ \"kernels\": [ { $K, \"queue\": {\"n\": 1, \"cap\": 4, \"records\": 5, \"timeout\": 5, \"push\": [{\"close\": true}]} } ] }" \
	'kernels\[0\].queue: records: expected an integer in 0..4'

echo "1..$n"
exit $fail
