#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vgpu-sim compare: one column per policy, each the same run as
# vgpu-sim run under that policy (its trace hash and makespan), example
# policies loaded from build/policies/NAME.so, one trace per policy with
# --trace-dir, usage errors.  Run from the repository root; prints TAP.
set -u
SIM=${VGPU_SIM:-build/vgpu-sim-asan}
. "$(dirname "$0")/tap.sh"
WL=examples/fairness-mix.json
FIFO=build/policies/fifo.so

"$SIM" compare "$WL" --policy rr --policy "$FIFO" --trace-dir "$TMP" \
	> "$TMP/cmp.txt" 2> "$TMP/cmp.err"
check "compare runs rr and fifo.so" "[ \$? -eq 0 ]"
sed 's/^/# /' "$TMP/cmp.txt"
col() { awk -v r="$1" -v c="$2" '$1 == r { print $(c + 1) }' "$TMP/cmp.txt"; }
check "header names the policies" \
	"[ \"\$(col policy 1) \$(col policy 2)\" = 'rr fifo' ]"
for p in rr "$FIFO"; do
	c=1
	[ "$p" = rr ] || c=2
	"$SIM" run "$WL" --policy "$p" > "$TMP/run.txt"
	h=$(sed -n 's/^trace_hash=0x//p' "$TMP/run.txt")
	m=$(sed -n 's/^makespan=//p' "$TMP/run.txt")
	check "column $c: trace hash of vgpu-sim run --policy $p" \
		"[ '$h' = \"\$(col trace_hash $c)\" ]"
	check "column $c: makespan of vgpu-sim run --policy $p" \
		"[ '$m' = \"\$(col makespan $c)\" ]"
done
check "the policies differ on this workload" \
	"[ \"\$(col trace_hash 1)\" != \"\$(col trace_hash 2)\" ]"
check "a deadline_misses row" "grep -q '^deadline_misses ' $TMP/cmp.txt"
check "one turnaround row per kernel" \
	"[ \$(grep -c '^turnaround ' $TMP/cmp.txt) -eq 5 ]"
check "--trace-dir: one trace per policy" \
	"[ -s $TMP/rr.json ] && [ -s $TMP/fifo.json ]"

"$SIM" compare "$WL" > /dev/null 2>&1
check "no policy: usage error (2)" "[ \$? -eq 2 ]"
"$SIM" compare "$WL" --policy nope > /dev/null 2>&1
check "unknown policy: usage error (2)" "[ \$? -eq 2 ]"
"$SIM" compare "$WL" --policy ./missing.so > /dev/null 2>&1
check "missing object: usage error (2)" "[ \$? -eq 2 ]"
echo "1..$n"
exit $fail
