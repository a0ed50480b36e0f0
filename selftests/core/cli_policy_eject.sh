#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vgpu-sim run under the misbehaving test policies (selftests/vgpu/policies
# built as shared objects): the watchdog (driver/core/policy_watch.c)
# ejects the staller (every SM choice "wait") for stalling and the
# flattener (a tick writing priorities) for errors, never the yielder (a
# tick yielding every kernel always, switch mode); every kernel completes
# under each; the fallback is the workload's SM choice (else rr); run prints the policy's statistics and the ejection; a
# yield is "by policy" in the Chrome trace; a run without --policy prints
# no policy line.  Run from the repository root; prints TAP.
set -u
SIM=${VGPU_SIM:-build/vgpu-sim-asan}
. "$(dirname "$0")/tap.sh"

MIX=examples/standard-mix.json
POL=build/test-policies
done_re='^kernel=[^ ]+ submit=[0-9]+ start=[0-9]+ end=[0-9]+ turnaround=[0-9]+$'

"$SIM" run "$MIX" --policy "$POL/staller.so" > "$TMP/st.out" 2>&1
check "staller: the run succeeds" "[ \$? -eq 0 ]"
check "staller: every kernel completes" \
	"[ \$(grep -Ec '$done_re' $TMP/st.out) -eq 3 ]"
check "staller: ejected, no answer refused" \
	"grep -qx 'policy=staller state=ejected errors=0 yields=0 yields_refused=0 preemptions=0 ejections=1' $TMP/st.out"
# 64 boundaries of 64 cycles without progress from cycle 0
check "staller: for stalling, at the 65th boundary, rr after" \
	"grep -qx 'policy_exit=staller reason=stall cycle=4096 fallback=rr' $TMP/st.out"
# a workload of its own SM choice: the fallback is that one
sed 's/"policy": "rr"/"policy": "avail"/' "$MIX" > "$TMP/avail.json"
"$SIM" run "$TMP/avail.json" --policy "$POL/staller.so" > "$TMP/sa.out" 2>&1
check "staller on a workload of avail: avail after" \
	"[ \$? -eq 0 ] && grep -qx 'policy_exit=staller reason=stall cycle=4096 fallback=avail' $TMP/sa.out"

"$SIM" run "$MIX" --policy "$POL/flattener.so" > "$TMP/fl.out" 2>&1
check "flattener: the run succeeds" "[ \$? -eq 0 ]"
check "flattener: every kernel completes" \
	"[ \$(grep -Ec '$done_re' $TMP/fl.out) -eq 3 ]"
check "flattener: 32 writes of its tick refused" \
	"grep -q '^policy=flattener state=ejected errors=tick:32 ' $TMP/fl.out"
check "flattener: ejected for errors of its tick" \
	"grep -q '^policy_exit=flattener reason=errors op=tick cycle=[0-9]* fallback=rr$' $TMP/fl.out"

"$SIM" run "$MIX" --policy "$POL/yielder.so" --preempt switch \
	--trace "$TMP/y.json" > "$TMP/y.out" 2>&1
check "yielder: the run succeeds" "[ \$? -eq 0 ]"
check "yielder: every kernel completes" \
	"[ \$(grep -Ec '$done_re' $TMP/y.out) -eq 3 ]"
check "yielder: never ejected" \
	"grep -q '^policy=yielder state=active .* ejections=0$' $TMP/y.out && ! grep -q '^policy_exit=' $TMP/y.out"
check "yielder: yields carried out and refused" \
	"grep -Eq ' yields=[1-9][0-9]* yields_refused=[1-9][0-9]* ' $TMP/y.out"
check "yielder: the trace says a yield is by policy" \
	"grep -q '\"by\":\"policy\"' $TMP/y.json && ! grep -q '\"by\":\"kernel 4294967295\"' $TMP/y.json"

"$SIM" run "$MIX" > "$TMP/def.out" 2>&1
check "no --policy: no policy line" "! grep -q '^policy' $TMP/def.out"

echo "1..$n"
exit $fail
