#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vgpu-sim run --threads N (F50, F51): the SMs of each epoch advance on N
# threads, and nothing the run prints may depend on N.  Every
# examples/*.json under its own preemption mode with N = 1, 2, 3 and 4 and
# under each of drain, warp and switch with N = 1 and 2, and five seeded
# random workloads of scripts/gen-workloads.py, must give the trace hash
# recorded for it in
# selftests/core/trace-hashes.txt (recorded single-threaded), and the whole
# output (per-kernel times, metrics) and the Chrome trace must be the same
# bytes for every N.  The ASan and ThreadSanitizer builds run the examples
# with 3 threads too (a race report fails the run).  Every run has 60
# seconds (a run takes well under one, sanitised a few): a team that never
# ends an epoch fails the test instead of hanging it.  Run from the
# repository root; prints TAP.
set -u
# every epoch handed off to the helpers, however few SMs are busy
export VGPU_SIM_TEAM_MIN_BUSY=0
SIM=${VGPU_SIM:-build/vgpu-sim}
LIMIT=60
ASAN=${VGPU_SIM_ASAN:-build/vgpu-sim-asan}
TSAN=${VGPU_SIM_TSAN:-build/vgpu-sim-tsan}
REC=selftests/core/trace-hashes.txt
. "$(dirname "$0")/tap.sh"

mkdir -p "$TMP/wl"
cp examples/*.json "$TMP/wl/"
scripts/gen-workloads.py 1 5 "$TMP/wl" > /dev/null || {
	echo "not ok 1 - gen-workloads.py failed"
	exit 1
}

# own mode: 1, 2, 3 and 4 threads; the other modes: 1 and 2
for wl in "$TMP"/wl/*.json; do
	name=$(basename "$wl")
	case $name in
	random-1-[0-4].json) modes=- ;;
	random-*) continue ;;
	*) modes="- drain warp switch" ;;
	esac
	bad=
	runs=0
	for m in $modes; do
		set --
		threads="1 2"
		[ "$m" = - ] && threads="1 2 3 4"
		[ "$m" = - ] || set -- --preempt "$m"
		want=$(grep "^$name $m - - " "$REC" | cut -d' ' -f5)
		[ -n "$want" ] || { bad="$bad [$m: nothing recorded]"; continue; }
		for t in $threads; do
			timeout $LIMIT "$SIM" run "$wl" "$@" --threads $t \
				> "$TMP/out.$t" 2>&1
			runs=$((runs + 1))
			h=$(sed -n 's/^trace_hash=//p' "$TMP/out.$t")
			[ "$h" = "$want" ] || bad="$bad [$m, $t threads: ${h:-error}]"
			cmp -s "$TMP/out.1" "$TMP/out.$t" ||
				bad="$bad [$m, $t threads: output differs]"
		done
	done
	[ -z "$bad" ] && ok "$name: $runs runs on 1-4 threads, the recorded hash" ||
		nok "$name:$bad"
done

# the Chrome trace: every event, in order
wl=examples/child-mix.json
timeout $LIMIT "$SIM" run "$wl" --trace "$TMP/t1.json" > /dev/null 2>&1
timeout $LIMIT "$SIM" run "$wl" --threads 4 --trace "$TMP/t4.json" \
	> /dev/null 2>&1
[ -s "$TMP/t1.json" ] && cmp -s "$TMP/t1.json" "$TMP/t4.json" &&
	ok "child-mix.json: the same Chrome trace with 4 threads" ||
	nok "child-mix.json: Chrome traces differ with 4 threads"

# ThreadSanitizer: no data race between the helpers and the controller
export TSAN_OPTIONS=halt_on_error=1
for san in "$ASAN" "$TSAN"; do
	bad=
	for wl in examples/*.json; do
		a=$(timeout $LIMIT "$san" run "$wl" --threads 3 2>&1) ||
			bad="$bad [$wl: $(echo "$a" | grep -m1 -E 'ThreadSanitizer|ERROR' || echo "$a" | tail -n 1)]"
		[ "$a" = "$("$SIM" run "$wl" 2>&1)" ] || bad="$bad [$wl: differs]"
	done
	[ -z "$bad" ] && ok "$san, 3 threads: every example as with one" ||
		nok "$san:$bad"
done

for arg in 0 257 x ''; do
	"$SIM" run examples/mix.json --threads "$arg" > /dev/null 2>&1
	rc=$?
	[ $rc -eq 2 ] && ok "--threads '$arg': usage error" ||
		nok "--threads '$arg': exit $rc, not 2"
done
echo "1..$n"
exit $fail
