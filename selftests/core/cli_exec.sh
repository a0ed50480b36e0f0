#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vgpu-sim exec: output format and run-to-run determinism of the trace
# hash (F51); bench exec output format.  Run from the repository root;
# prints TAP.
set -u
SIM=${VGPU_SIM:-build/vgpu-sim-asan}
. "$(dirname "$0")/tap.sh"

echo "1..9"
fmt='^cycles=[0-9]+ warps=[0-9]+ trace_hash=0x[0-9a-f]{16}$'
a=$("$SIM" exec examples/vasm/barrier.vasm --blocks 5 2>&1)
[ $? -eq 0 ] && echo "$a" | grep -Eq "$fmt" && [ "$(echo "$a" | wc -l)" -eq 1 ] &&
	ok "exec prints exactly one line: $a" || nok "exec output: $a"
b=$("$SIM" exec examples/vasm/barrier.vasm --blocks 5 --trace "$TMP/t" 2>&1)
[ "$a" = "$b" ] && ok "two runs (one traced) give the same hash" ||
	nok "two runs differ: $a / $b"
[ -s "$TMP/t" ] && grep -q ' block_done ' "$TMP/t" && ok "trace written" ||
	nok "trace written"
echo "$a" | grep -q ' warps=20 ' && ok "5 blocks x 4 warps ran" || nok "warps: $a"
c=$("$SIM" exec examples/vasm/mutex.vasm --blocks 3 --threads 256 --preset h100 --prio 2 --prio-wid-mod 3 2>&1)
d=$("$SIM" exec examples/vasm/mutex.vasm --blocks 3 --threads 256 --preset h100 --prio 2 --prio-wid-mod 3 2>&1)
echo "$c" | grep -Eq "$fmt" && [ "$c" = "$d" ] && ok "mutex kernel deterministic" ||
	nok "mutex kernel: $c / $d"
e=$("$SIM" exec examples/vasm/spin.vasm --max-cycles 5000 2>&1)
echo "$e" | grep -Eq '^cycles=5000 warps=[0-9]+ trace_hash=0x[0-9a-f]{16}$' &&
	ok "SPIN stops at --max-cycles: $e" || nok "SPIN: $e"
printf 'ALU\nMOV\nEXIT\n' > "$TMP/tiny.vasm"
f=$("$SIM" exec "$TMP/tiny.vasm" --threads 32 2>&1)
echo "$f" | grep -q '^cycles=7 warps=1 ' && ok "tiny program: $f" || nok "tiny: $f"
printf 'LOCK 99\nEXIT\n' > "$TMP/bad.vasm"
"$SIM" exec "$TMP/bad.vasm" > "$TMP/out" 2>&1
[ $? -eq 1 ] && grep -q 'bad.vasm:1:' "$TMP/out" && ok "invalid program: exit 1 with the line" ||
	nok "invalid program: $(cat "$TMP/out")"
g=$("$SIM" bench exec --iters 50 --blocks 4 --short-blocks 200 2>&1)
echo "$g" | grep -Eq '^short M warp-instructions/s = [0-9]+\.[0-9]$' &&
	echo "$g" | grep -Eq '^short blocks/s = [0-9]+$' &&
	echo "$g" | tail -n 1 | grep -Eq '^M warp-instructions/s = [0-9]+\.[0-9]$' &&
	ok "bench exec format" || nok "bench exec: $g"
exit $fail
