#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vgpu-sim --policy FILE.so as a policy's author uses it: a policy without
# an SM choice of its own runs with the workload's (kept as the device's
# sm_choice, as vgpuctl run does for the module), so a policy that sets no
# op runs exactly as the workload itself; packing is what the policy
# states, never
# flipped because it has @select_sm (a round robin @select_sm of its own
# runs exactly as the default's; stated VGPU_POLICY_PACK_SM differs);
# compare labels objects by file, and runs two objects of the same policy
# name side by side; bench dispatch --policy prints the ratio to rr.
# The policies are built here, out of the tree, with
# the documented command.  Run from the repository root; prints TAP.
set -u
SIM=${VGPU_SIM:-build/vgpu-sim-asan}
. "$(dirname "$0")/tap.sh"
MAKE=${MAKE:-make}

mkdir -p "$TMP/p" "$TMP/a" "$TMP/b"
cat > "$TMP/p/empty.c" <<'POL'
#include "vgpu_policy.h"

static const struct vgpu_policy_ops empty_ops = { .name = "empty" };
VGPU_POLICY(empty_ops);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("no op: every decision the default's");
POL
for v in default block sm; do
	case $v in
	default) pk= ;;
	block) pk='.packing = VGPU_POLICY_PACK_BLOCK,' ;;
	sm) pk='.packing = VGPU_POLICY_PACK_SM,' ;;
	esac
	cat > "$TMP/p/rr_$v.c" <<POL
#include "vgpu_policy.h"

static u32 rr_pick(const struct vgpu_policy_ctx *ctx,
		   const struct vgpu_policy_sm *c, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (c[i].sm >= ctx->rr_next)
			return i;
	return 0;
}

static const struct vgpu_policy_ops rr_ops = {
	.name = "rr_$v", .select_sm = rr_pick, $pk
};
VGPU_POLICY(rr_ops);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("the default's round robin as an op of its own");
POL
done
$MAKE -s -C examples/policies M="$TMP/p" so > "$TMP/build.out" 2>&1
check "the test policies build out of the tree" \
	"[ \$? -eq 0 ] && [ -s $TMP/p/empty.so ] && [ -s $TMP/p/rr_sm.so ]"

hash() { "$SIM" run "$@" 2>/dev/null | sed -n 's/^trace_hash=//p'; }
# seed-mix names "combined", fairness-mix "avail", mix "rr"
for wl in seed-mix fairness-mix mix; do
	h=$(hash "examples/$wl.json")
	check "$wl: a policy of no op keeps the workload's SM choice" \
		"[ -n '$h' ] && [ \"\$(hash examples/$wl.json --policy $TMP/p/empty.so)\" = '$h' ]"
done
h=$(hash examples/seed-mix.json --policy build/policies/fifo.so)
sed 's/"combined"/"rr"/' examples/seed-mix.json > "$TMP/seed-rr.json"
check "fifo.so keeps the workload's combined: not the run under rr" \
	"[ -n '$h' ] && [ \"\$(hash $TMP/seed-rr.json --policy build/policies/fifo.so)\" != '$h' ]"
sed 's/"policy": "combined"/"policy": "rr", "sm_choice": "combined"/' \
	examples/seed-mix.json > "$TMP/seed-sm.json"
check "... but the run of a device whose sm_choice is combined" \
	"[ \"\$(hash $TMP/seed-sm.json --policy build/policies/fifo.so)\" = '$h' ]"
sed 's/"policy": "combined"/"policy": "combined", "sm_choice": "fifo"/' \
	examples/seed-mix.json > "$TMP/seed-bad.json"
"$SIM" run "$TMP/seed-bad.json" > "$TMP/bad.out" 2>&1
check "sm_choice names a built-in SM choice or is refused" \
	"[ \$? -ne 0 ] && grep -q 'sm_choice: expected rr, avail, resource, power or combined' $TMP/bad.out"

h=$(hash examples/mix.json)
check "a select_sm of its own, packing unstated: as the default (one block)" \
	"[ \"\$(hash examples/mix.json --policy $TMP/p/rr_default.so)\" = '$h' ]"
check "packing stated by block: the same" \
	"[ \"\$(hash examples/mix.json --policy $TMP/p/rr_block.so)\" = '$h' ]"
check "packing stated by SM: a different run" \
	"[ \"\$(hash examples/mix.json --policy $TMP/p/rr_sm.so)\" != '$h' ]"
check "the stated packing is what --pack auto means" \
	"[ \"\$(hash examples/mix.json --policy $TMP/p/rr_sm.so)\" = \"\$(hash examples/mix.json --policy $TMP/p/rr_block.so --pack sm)\" ]"

cp build/policies/fifo.so "$TMP/a/fifo.so"
cp build/policies/fifo.so "$TMP/b/fifo.so"
cp build/policies/fifo.so "$TMP/a/fifo2.so"
col() { awk -v r="$1" -v c="$2" '$1 == r { print $(c + 1) }' "$3"; }
"$SIM" compare examples/fairness-mix.json --policy "$TMP/a/fifo.so" \
	--policy "$TMP/a/fifo2.so" --policy rr --trace-dir "$TMP" \
	> "$TMP/c1.txt" 2>&1
check "compare: two objects of one policy name" "[ \$? -eq 0 ]"
sed 's/^/# /' "$TMP/c1.txt"
check "... labelled by file" \
	"[ \"\$(col policy 1 $TMP/c1.txt) \$(col policy 2 $TMP/c1.txt) \$(col policy 3 $TMP/c1.txt)\" = 'fifo fifo2 rr' ]"
check "... the same run twice" \
	"[ \"\$(col trace_hash 1 $TMP/c1.txt)\" = \"\$(col trace_hash 2 $TMP/c1.txt)\" ]"
check "... a trace per label" \
	"[ -s $TMP/fifo.json ] && [ -s $TMP/fifo2.json ] && [ -s $TMP/rr.json ]"
"$SIM" compare examples/fairness-mix.json --policy "$TMP/a/fifo.so" \
	--policy "$TMP/b/fifo.so" > "$TMP/c2.txt" 2>&1
check "compare: two files of one name, labelled by path" \
	"[ \$? -eq 0 ] && [ \"\$(col policy 1 $TMP/c2.txt) \$(col policy 2 $TMP/c2.txt)\" = 'fifo $TMP/b/fifo.so' ]"
# bench dispatch --policy P: P's rate, and against rr's in the same run
"$SIM" bench dispatch --seconds 10 --policy "$TMP/p/empty.so" \
	> "$TMP/bd.txt" 2>&1
check "bench dispatch --policy FILE.so: the ratio to rr" \
	"[ \$? -eq 0 ] && grep -Eq '^best_decisions_per_sec=[0-9]+ rr_best_decisions_per_sec=[0-9]+ ratio_vs_rr=[0-9]+\\.[0-9]{3}$' $TMP/bd.txt"
"$SIM" bench dispatch --seconds 10 > "$TMP/bd.txt" 2>&1
check "bench dispatch under rr: no ratio" \
	"[ \$? -eq 0 ] && ! grep -q ratio_vs_rr $TMP/bd.txt"
echo "1..$n"
exit $fail
