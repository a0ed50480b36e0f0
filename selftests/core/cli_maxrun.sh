#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vgpu-sim maxrun: modes, --need, mux fields and malformed input (F40-F43).
# Run from the repository root; prints TAP.
set -u
SIM=${VGPU_SIM:-build/vgpu-sim-asan}
. "$(dirname "$0")/tap.sh"

# expect NAME INPUT EXPECTED-STDOUT ARGS...
expect() {
	name=$1 in=$2 want=$3
	shift 3
	got=$(printf "$in" | "$SIM" maxrun "$@" 2>/dev/null)
	rc=$?
	if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then
		ok "$name"
	else
		echo "# want '$want' got '$got' rc $rc"
		nok "$name"
	fi
}

# expect_err NAME INPUT STDERR-PATTERN ARGS...: exit 2, stderr matches
expect_err() {
	name=$1 in=$2 pat=$3
	shift 3
	err=$(printf "$in" | "$SIM" maxrun "$@" 2>&1 >/dev/null)
	rc=$?
	if [ $rc -eq 2 ] && echo "$err" | grep -q -- "$pat"; then
		ok "$name"
	else
		echo "# rc $rc stderr '$err'"
		nok "$name"
	fi
}

nl='
'
echo "1..24"
expect "exact, several lines" 'ff\n0xF0F\nffffffffffffffffffffffffffffffff\n0\n' \
	"8${nl}4${nl}128${nl}0" --width 128 --mode exact
expect "exact is the default mode" '7\n' "3" --width 8
expect "bit 0 is the least significant" '1\n8000000000000000\n' "1${nl}1" \
	--width 64
expect "run across the word border" 'ff000000000000000\n' "8" \
	--width 128
expect "run across 64-bit words" '3ffffffffffffffffc\n' "68" --width 72
expect "width 256 all free" \
	'ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff\n' \
	"256" --width 256
expect "wide width 1824" '1\n' "1" --width 1824
expect "--need fit/nofit" 'ff\nf7\n' "fit${nl}nofit" --width 8 --need 5
expect "grouped:Z multiple of n/z" 'ff\n7f\nf0f\n' "8${nl}4${nl}4" \
	--width 16 --mode grouped:4
expect "grouped seed 001 style need" '1e\nf0\n' "nofit${nl}fit" \
	--width 128 --mode grouped:32 --need 4
expect "sampled default powers of two" '7f\nff\n' "4${nl}8" \
	--width 16 --mode sampled
expect "sampled shift list" '1f\n3f\n' "4${nl}6" \
	--width 16 --mode sampled:2,4,6,8
expect "sampled --skip-primes" '1f\n' "4" \
	--width 16 --mode sampled:1,2,3,4,5 --skip-primes
expect "mux fields from the LSB up" '3ff00000000000003ff\n' "10 10" \
	--width 128 --mode mux:64,48
expect "mux runs do not cross fields" 'ffffffffffffffffffffffffffff\n' "64 48" \
	--width 112 --mode mux:64,48
expect "mux three fields" 'f0f\n' "4 0 4" --width 12 --mode mux:4,4,4
expect "mux --need" 'f0f\n' "fit nofit fit" --width 12 --mode mux:4,4,4 \
	--need 3
expect_err "malformed input names the line" 'ff\nzz\n' "line 2" --width 8
expect_err "value wider than --width" '1ff\n' "line 1" --width 8
expect_err "empty line" 'ff\n\n' "line 2" --width 8
expect_err "missing --width" 'ff\n' "width" --mode exact
expect_err "grouped Z not dividing width" 'ff\n' "grouped" --width 10 --mode grouped:4
expect_err "bad shift list" 'ff\n' "shift" --width 8 --mode sampled:4,2
expect_err "unknown mode" 'ff\n' "mode" --width 8 --mode fuzzy
exit $fail
