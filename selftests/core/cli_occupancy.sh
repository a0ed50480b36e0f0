#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vgpu-sim occupancy: output format and NVIDIA's public examples (F03).
# Run from the repository root; prints TAP.
set -u
SIM=${VGPU_SIM:-build/vgpu-sim-asan}
. "$(dirname "$0")/tap.sh"

# expect NAME EXPECTED-STDOUT ARGS...
expect() {
	name=$1 want=$2
	shift 2
	got=$("$SIM" occupancy "$@" 2>/dev/null)
	rc=$?
	if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then
		ok "$name"
	else
		echo "# want '$want' got '$got' rc $rc"
		nok "$name"
	fi
}

# expect_usage NAME ARGS...: exit status 2 and a message on stderr
expect_usage() {
	name=$1
	shift
	err=$("$SIM" occupancy "$@" 2>&1 >/dev/null)
	rc=$?
	if [ $rc -eq 2 ] && [ -n "$err" ]; then
		ok "$name"
	else
		echo "# rc $rc stderr '$err'"
		nok "$name"
	fi
}

echo "1..25"
for p in a100 h100; do
	expect "$p 128x37 -> 12 (regs)" "blocks=12 warps=48 limit=regs" \
		--preset $p --threads 128 --regs 37 --smem 0
	expect "$p 320x37 -> 4" "blocks=4 warps=40 limit=regs" \
		--preset $p --threads 320 --regs 37 --smem 0
done
expect "a100 224x92 -> 2" "blocks=2 warps=14 limit=regs" \
	--preset a100 --threads 224 --regs 92 --smem 0
expect "a100 256x41 -> 5" "blocks=5 warps=40 limit=regs" \
	--preset a100 --threads 256 --regs 41 --smem 0
expect "a100 256x43 -> 5" "blocks=5 warps=40 limit=regs" \
	--preset a100 --threads 256 --regs 43 --smem 0
expect "two binding limiters joined by +" "blocks=8 warps=64 limit=warps+regs" \
	--preset a100 --threads 256 --regs 32 --smem 0
expect "block slots" "blocks=32 warps=32 limit=blocks" \
	--preset a100 --threads 32 --regs 16 --smem 0
expect "a100 smem 48 KiB" "blocks=3 warps=12 limit=smem" \
	--preset a100 --threads 128 --regs 16 --smem 49152
expect "h100 smem 48 KiB" "blocks=4 warps=16 limit=smem" \
	--preset h100 --threads 128 --regs 16 --smem 49152
expect "all four at once" "blocks=32 warps=64 limit=warps+regs+smem+blocks" \
	--preset h100 --threads 64 --regs 32 --smem 6272
expect "too many threads: cannot run" "blocks=0 warps=0 limit=warps" \
	--preset a100 --threads 1025 --regs 16 --smem 0
expect "too many regs: cannot run" "blocks=0 warps=0 limit=regs" \
	--preset a100 --threads 32 --regs 256 --smem 0
expect "too much smem: cannot run" "blocks=0 warps=0 limit=smem" \
	--preset a100 --threads 32 --regs 16 --smem 166913
expect "formula agrees" "blocks=2 warps=14 limit=regs" \
	--preset a100 --threads 224 --regs 92 --smem 0 --formula
S="--sregs-per-subpart 1024 --sreg-unit 64"
expect "scalar file binds (seed 001 [0042])" "blocks=3 warps=12 limit=sregs" \
	--preset h100 --threads 128 --regs 32 --sregs 320 $S
expect "scalar file binds, formula" "blocks=3 warps=12 limit=sregs" \
	--preset h100 --threads 128 --regs 32 --sregs 320 $S --formula
expect "scalar registers on a device without the file" \
	"blocks=0 warps=0 limit=sregs" --preset h100 --threads 128 --regs 32 --sregs 4
expect_usage "scalar unit not a power of two" --preset h100 --threads 1 \
	--regs 1 --sregs-per-subpart 1024 --sreg-unit 48
expect_usage "unknown preset" --preset b200 --threads 1 --regs 1
expect_usage "missing --threads" --preset a100 --regs 1
expect_usage "bad number" --preset a100 --threads 12x --regs 1
expect_usage "zero threads" --preset a100 --threads 0 --regs 1
expect_usage "unknown option" --preset a100 --threads 1 --regs 1 --bogus
exit $fail
