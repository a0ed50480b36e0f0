#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The recorded trace hashes (F51): every examples/*.json and the 20 seeded
# random workloads of scripts/gen-workloads.py, under the workload's own
# preemption mode and each of drain, warp and switch, with the workload's
# own SM choice and each built-in one, must give the hash recorded in
# selftests/core/trace-hashes.txt.  A refactoring of the core (such as
# every decision an op of a policy table) must leave all of them as they
# are; a change of behaviour that means to change them says so in its
# commit and records the new ones with
#
#	VGPU_SIM=build/vgpu-sim selftests/core/cli_hashes.sh --record
#
# Run from the repository root; prints TAP (one line per workload).
set -u
mode=${1:-check}
SIM=${VGPU_SIM:-build/vgpu-sim}
REC=selftests/core/trace-hashes.txt
. "$(dirname "$0")/tap.sh"

mkdir -p "$TMP/wl"
cp examples/*.json "$TMP/wl/"
scripts/gen-workloads.py 1 20 "$TMP/wl" > /dev/null || {
	echo "not ok 1 - gen-workloads.py failed"
	exit 1
}

# One line per run: WORKLOAD MODE POLICY PACK HASH ('-': the workload's
# own).  Each run also with --pack sm (seed 000's packing, F23 (a)): when
# rr and avail began to choose an SM per block (78701f1), those hashes
# were exactly the ones recorded before.
for wl in "$TMP"/wl/*.json; do
	name=$(basename "$wl")
	for m in - drain warp switch; do
		for p in - rr avail resource power; do
			for k in - sm; do
				set --
				[ "$m" = - ] || set -- "$@" --preempt "$m"
				[ "$p" = - ] || set -- "$@" --policy "$p"
				[ "$k" = - ] || set -- "$@" --pack "$k"
				h=$("$SIM" run "$wl" "$@" 2>/dev/null |
				    sed -n 's/^trace_hash=//p')
				echo "$name $m $p $k ${h:-error}"
			done
		done
	done
done > "$TMP/now.txt"

if [ "$mode" = --record ]; then
	cp "$TMP/now.txt" "$REC"
	echo "# recorded $(wc -l < "$REC") hashes in $REC"
	exit 0
fi

n=0
fail=0
for name in $(cut -d' ' -f1 "$REC" | uniq); do
	n=$((n + 1))
	if diff -u "$(grep "^$name " "$REC" | sed 's/^/x/' > "$TMP/a"; echo "$TMP/a")" \
		"$(grep "^$name " "$TMP/now.txt" | sed 's/^/x/' > "$TMP/b"; echo "$TMP/b")" \
		> "$TMP/diff"; then
		echo "ok $n - $name: $(wc -l < "$TMP/a") recorded trace hashes"
	else
		fail=1
		echo "not ok $n - $name: trace hashes differ from $REC"
		sed 's/^/# /' "$TMP/diff"
	fi
done
# nothing recorded may go missing, nothing new may be unrecorded
n=$((n + 1))
if [ "$(cut -d' ' -f1-3 "$REC")" = "$(cut -d' ' -f1-3 "$TMP/now.txt")" ]; then
	echo "ok $n - the same $(wc -l < "$REC") runs as recorded"
else
	fail=1
	echo "not ok $n - the runs differ from those recorded in $REC"
fi
echo "1..$n"
exit $fail
