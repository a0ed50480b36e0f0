#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Functional workloads in vgpu-sim (seed 004, Documentation/workloads.rst,
# "Buffers"): each example of examples/functional/ under drain, warp and
# switch preemption with 1 and 2 threads computes what the host reference
# computes ("buffer NAME: ok" for every expectation), and gives one trace
# hash and one output per mode whatever the threads; under switch the
# intruders switch blocks out (a "preempted" slice in the trace), the
# filler makes vector_add's blocks split; ThreadSanitizer finds no race
# with 3 threads.  The init generators give the words computed by hand;
# compare has a buffers row; bench functional's format.  A wrong
# expectation is a MISMATCH and exit status 1; bad programs (out of
# bounds, an unnamed slot, misaligned, a store to a read-only buffer, a
# divergent barrier, a loop past its instruction budget) fail their kernel
# with the documented errno (one within its budget completes); bad
# files get an error naming the field.  Run from the repository root;
# prints TAP.
set -u
SIM=${VGPU_SIM:-build/vgpu-sim-asan}
. "$(dirname "$0")/tap.sh"
EX=examples/functional

for e in vector_add reduce matmul histogram scan; do
	for m in drain warp switch; do
		for t in 1 2; do
			"$SIM" run "$EX/$e.json" --preempt $m --threads $t \
				--trace "$TMP/$e-$m-$t.json" > "$TMP/$e-$m-$t.txt" 2>&1
			echo $? > "$TMP/$e-$m-$t.rc"
		done
		out="$TMP/$e-$m-1.txt"
		nexp=$(grep -c '^buffer ' "$out")
		check "$e, $m: exit 0, every expectation ok ($nexp)" \
			"[ \$(cat $TMP/$e-$m-1.rc) -eq 0 ] && [ $nexp -ge 1 ] && [ \$(grep -c '^buffer .*: ok\$' $out) -eq $nexp ]"
		check "$e, $m: 2 threads print the same (hash $(field trace_hash "$out"))" \
			"[ \$(cat $TMP/$e-$m-2.rc) -eq 0 ] && cmp -s $out $TMP/$e-$m-2.txt && cmp -s $TMP/$e-$m-1.json $TMP/$e-$m-2.json"
	done
	[ $e = vector_add ] ||
	check "$e: the intruder makes a different run per mode" \
		"[ \"\$(field trace_hash $TMP/$e-drain-1.txt)\" != \"\$(field trace_hash $TMP/$e-switch-1.txt)\" ]"
done
# the filler leaves room for warps only: the blocks of vector_add split
# (F24), more residencies than its 8 blocks
check "vector_add: its blocks were split" \
	"[ \$(grep -o '\"name\":\"vector_add\"' $TMP/vector_add-drain-1.json | wc -l) -gt 8 ]"
# the intruders switch blocks of the examples out (F23 (c)), and the
# results above held
for e in reduce matmul histogram scan; do
	check "$e, switch: blocks were switched out" \
		"grep -q '\"end\":\"preempted\"' $TMP/$e-switch-1.json"
done
# the optimised build computes the same
if [ -x build/vgpu-sim ]; then
	build/vgpu-sim run "$EX/matmul.json" --preempt switch > "$TMP/opt.txt"
	check "matmul: the optimised build prints the same as $SIM" \
		"cmp -s $TMP/opt.txt $TMP/matmul-switch-1.txt"
fi

# The generators as Documentation/workloads.rst defines them, against
# words computed by hand: lcg x = x * 1664525 + 1013904223, r = x >> 8.
cat > "$TMP/gen.json" <<EOF
{ "buffers": [
    { "name": "lcg", "words": 8, "init": { "lcg": { "seed": 0 } },
      "expect": { "values": [3960563, 4673577, 13749494] } },
    { "name": "lcg2", "words": 8, "type": "i32",
      "init": { "lcg": { "seed": 0, "mod": 1000, "scale": 3, "offset": -7 } },
      "expect": { "values": [1682, 1724, 1475] } },
    { "name": "aff", "words": 3, "type": "f32",
      "init": { "affine": { "start": -1.5, "step": 0.1 } },
      "expect": { "values": [-1.5, -1.4, -1.3] } },
    { "name": "iota", "words": 3, "init": "iota",
      "expect": { "values": [0, 1, 2] } },
    { "name": "cst", "words": 2, "type": "i32", "init": { "constant": -5 },
      "expect": { "values": [-5, -5] } },
    { "name": "vals", "words": 4, "init": { "values": [7, 8] },
      "expect": { "values": [7, 8, 0, 0] } } ],
  "kernels": [ { "name": "k", "grid": 1, "threads": 32,
    "program": [".functional", "MOVI r0, 1", "EXIT"] } ] }
EOF
"$SIM" run "$TMP/gen.json" > "$TMP/gen.txt" 2>&1
check "generators: every buffer as computed by hand" \
	"[ $? -eq 0 ] && [ \$(grep -c '^buffer .*: ok\$' $TMP/gen.txt) -eq 6 ]"

# vgpu-sim bench functional: output format only (performance.rst)
"$SIM" bench functional --repeat 2 > "$TMP/bench.txt" 2>&1
check "bench functional: runs, machine line first" \
	"[ $? -eq 0 ] && head -n 1 $TMP/bench.txt | grep -q '^machine: .*, [0-9]* CPUs online; 1 thread\$'"
check "bench functional: CPU-time figure, wall-time figure last" \
	"grep -Eq '^M lane-operations/s of CPU time = [0-9]+\.[0-9]\$' $TMP/bench.txt && tail -n 1 $TMP/bench.txt | grep -Eq '^M lane-operations/s = [0-9]+\.[0-9]\$'"
"$SIM" bench functional --repeat 0 > /dev/null 2>&1
check "bench functional --repeat 0: exit 2" "[ $? -eq 2 ]"
"$SIM" bench functional --kernel intruder > "$TMP/bench.txt" 2>&1
check "bench functional of a timing-only kernel: exit 1" \
	"[ $? -eq 1 ] && grep -q 'no functional kernel' $TMP/bench.txt"

# ThreadSanitizer: the functional state of the SMs (their logs, shared
# memory, registers) is advanced by the team's threads, every epoch handed
# off (a race report fails the run)
TSAN=${VGPU_SIM_TSAN:-build/vgpu-sim-tsan}
if [ -x "$TSAN" ]; then
	for e in vector_add reduce histogram; do
		VGPU_SIM_TEAM_MIN_BUSY=0 "$TSAN" run "$EX/$e.json" --threads 3 \
			--preempt switch > "$TMP/tsan.txt" 2>&1
		check "$e under ThreadSanitizer, 3 threads: no race, the same output" \
			"[ $? -eq 0 ] && ! grep -q 'ThreadSanitizer' $TMP/tsan.txt && cmp -s $TMP/tsan.txt $TMP/$e-switch-1.txt"
	done
fi

# vgpu-sim exec has no buffers: a functional program is sent to run
"$SIM" exec examples/vasm/vector_add.vasm > "$TMP/exec.txt" 2>&1
check "exec of a functional program: exit 1, run it from a workload" \
	"[ $? -eq 1 ] && grep -q 'a functional program computes on buffers: run it from a workload' $TMP/exec.txt"

# A wrong expectation: MISMATCH, the first differing word, exit 1.
sed 's/"segment": 256/"segment": 512/' "$EX/scan.json" > "$TMP/scan-bad.json"
sed -i 's|\.\./vasm/|'"$PWD"'/examples/vasm/|' "$TMP/scan-bad.json"
"$SIM" run "$TMP/scan-bad.json" > "$TMP/mis.txt" 2>&1
check "a wrong reference: exit 1" "[ $? -eq 1 ]"
check "a wrong reference: MISMATCH at word 256, 256 words differ" \
	"grep -q '^buffer out: MISMATCH at word 256: got [0-9]* want [0-9]* (256 of 512 words differ)\$' $TMP/mis.txt"

# vgpu-sim compare: a buffers row for a functional workload
"$SIM" compare "$EX/matmul.json" --policy rr --policy avail > "$TMP/cmp.txt" 2>&1
check "compare: a buffers row, ok under both policies" \
	"[ $? -eq 0 ] && grep -Eq '^buffers +ok +ok\$' $TMP/cmp.txt"
"$SIM" compare "$TMP/scan-bad.json" --policy rr --policy avail > "$TMP/cmp.txt" 2>&1
check "compare: MISMATCH under both, exit 1" \
	"[ $? -eq 1 ] && grep -Eq '^buffers +MISMATCH +MISMATCH\$' $TMP/cmp.txt"

# One kernel of one block of 64 threads running PROG on buf (64 words),
# ro (read-only) and cst (constant), with instruction budget $2 (default
# none): prints the run, returns its status.
bad() {
	cat > "$TMP/bad.json" <<EOF
{ "buffers": [
    { "name": "buf", "words": 64, "type": "u32", "init": "iota",
      "expect": { "values": [0, 1, 2] } },
    { "name": "ro", "words": 64, "type": "i32", "flags": ["read_only"] },
    { "name": "cst", "words": 64, "type": "u32", "flags": ["constant"] } ],
  "kernels": [ { "name": "bad", "grid": 1, "threads": 64, "regs": 16,
    "smem": 256, "buffers": ["buf", "ro", "cst"], "insn_budget": ${2:-0},
    "program": [".functional", $1] } ] }
EOF
	"$SIM" run "$TMP/bad.json" > "$TMP/bad.txt" 2>&1
}
bad '"MOVI r0, 252", "LDG r1, [s0 + r0]", "STG [s0 + r0], r1", "EXIT"'
check "a well-behaved program: exit 0, buffer ok" \
	"[ $? -eq 0 ] && grep -q '^buffer buf: ok\$' $TMP/bad.txt"
bad '"MOVI r0, 9", "MOVI r1, 0", "STG [s0 + r1 + 8], r0", "EXIT"'
check "a store to word 2 of every lane: MISMATCH (9 stored, 2 wanted), exit 1" \
	"[ $? -eq 1 ] && grep -q '^buffer buf: MISMATCH at word 2: got 9 want 2 (1 of 3 words differ)\$' $TMP/bad.txt"
expect_fault() {
	check "$1: the kernel fails with $2" \
		"grep -q '^kernel=bad .*end=failed error=-$3\$' $TMP/bad.txt && grep -q '^kernel bad: failed: $2 (' $TMP/bad.txt"
}
bad '"MOVI r0, 256", "LDG r1, [s0 + r0]", "EXIT"'
expect_fault "out of bounds" EFAULT 14
bad '"MOVI r0, 0", "LDG r1, [s5 + r0]", "EXIT"'
expect_fault "an unnamed slot" EBADF 9
bad '"MOVI r0, 2", "LDG r1, [s0 + r0]", "EXIT"'
expect_fault "misaligned" EILSEQ 84
bad '"MOVI r0, 0", "STG [s1 + r0], r0", "EXIT"'
expect_fault "a store to a read-only buffer" EROFS 30
bad '"MOVI r0, 0", "LDC r1, [s0 + r0]", "EXIT"'
expect_fault "LDC of a buffer that is not constant" EBADF 9
bad '"MOVI r0, 256", "LDS r1, [r0]", "EXIT"'
expect_fault "shared memory past the block's" EFAULT 14
bad '"S2R r0, %lane", "MOVI r1, 16", "ISETP p0, r0, r1, lt", "BRP !p0, out, out", "BAR", "out:", "EXIT"'
expect_fault "a divergent barrier" EDEADLK 35
bad '"loop:", "JMP loop", "EXIT"' 1000
expect_fault "a loop past its instruction budget" EXFULL 54
bad '"MOVI r0, 0", "MOVI r1, 10", "loop:", "IADDI r0, r0, 1", "ISETP p0, r0, r1, lt", "BRP p0, loop, done", "done:", "EXIT"' 32
check "a loop within its budget (2 + 3 * 10 instructions): exit 0" \
	"[ $? -eq 0 ] && grep -q '^kernel=bad .* end=[0-9]* turnaround=' $TMP/bad.txt"

# Bad files: the error names the file, the position and the field.
badfile() {
	printf '%s\n' "$1" > "$TMP/f.json"
	"$SIM" run "$TMP/f.json" > /dev/null 2> "$TMP/f.err"
	rc=$?
	printf '%s\n' "$3" > "$TMP/f.want"
	check "bad file ($2): exit 1, the error names the field" \
		"[ $rc -eq 1 ] && grep -qF -f $TMP/f.want $TMP/f.err"
}
K='"grid": 1, "threads": 32, "program": [".functional", "MOVI r0, 1", "EXIT"]'
badfile '{ "buffers": [ { "name": "x", "words": 4 } ], "kernels": [ { "name": "k", '"$K"', "buffers": ["y"] } ] }' \
	"unknown buffer" "kernels[0]: buffers: no buffer named 'y'"
badfile '{ "buffers": [ { "name": "x", "words": 4 } ], "kernels": [ { "name": "k", "grid": 1, "threads": 32, "program": ["ALU", "EXIT"], "buffers": ["x"] } ] }' \
	"timing-only program" "kernels[0]: buffers: only for a functional program"
badfile '{ "kernels": [ { "name": "k", '"$K"', "regs": 1, "private": 6 } ] }' \
	"private" "kernels[0]: private: a multiple of 4 bytes"
badfile '{ "kernels": [ { "name": "k", "grid": 1, "threads": 32, "regs": 4, "program": [".functional", "MOVI r9, 1", "EXIT"] } ] }' \
	"registers" "kernels[0]: regs: the program uses r9: at least 10 registers per thread"
badfile '{ "buffers": [ { "name": "x", "size": 6 } ], "kernels": [ { "name": "k", '"$K"' } ] }' \
	"size" "buffers[0]: size: a positive multiple of 4 bytes"
badfile '{ "buffers": [ { "name": "x", "words": 4, "type": "u32", "init": { "values": [1, -2] } } ], "kernels": [ { "name": "k", '"$K"' } ] }' \
	"value of the type" "buffers[0].init.values[1]: (value): not a u32 value"
badfile '{ "buffers": [ { "name": "x", "words": 4, "init": { "lcg": { "mod": 3 } } } ], "kernels": [ { "name": "k", '"$K"' } ] }' \
	"lcg without a seed" "buffers[0].init.lcg: seed: missing"
badfile '{ "buffers": [ { "name": "x", "words": 4, "expect": { "reference": "matmul", "inputs": ["x"] } } ], "kernels": [ { "name": "k", '"$K"' } ] }' \
	"reference type" "buffers[0].expect: reference: matmul gives f32 words: the buffer is u32"
badfile '{ "buffers": [ { "name": "x", "words": 4 }, { "name": "y", "words": 3, "expect": { "reference": "reduce", "inputs": ["x"] } } ], "kernels": [ { "name": "k", '"$K"' } ] }' \
	"reduce shape" "reduce: 'x' has 4 words, not a multiple of the output's 3"
badfile '{ "buffers": [ { "name": "x", "words": 4 } ], "kernels": [ { "name": "k", '"$K"', "buffers": ["x"] }, { "name": "l", "channel": 1, "tenant": 1, '"$K"', "buffers": ["x"] } ] }' \
	"a buffer of two tenants" "kernels[1]: buffers: 'x' is tenant 0's"
badfile '{ "buffers": [ { "name": "x", "words": 4, "flags": ["writable"] } ], "kernels": [ { "name": "k", '"$K"' } ] }' \
	"flag" "buffers[0]: flags: unknown flag 'writable' (read_only, constant)"
echo "1..$n"
exit $fail
