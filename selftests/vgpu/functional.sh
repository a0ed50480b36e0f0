#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# functional.sh - functional workloads through the module (seed 004):
# vgpuctl run makes a buffer object per buffer of the workload, maps and
# fills it, names the buffers at SUBMIT and checks what the kernels
# computed.  Each example of examples/functional/ (copied with its .vasm
# sources to /vgpu/bin/workloads/functional) under drain, warp and switch
# preemption with 1 and 2 workers must print what vgpu-sim printed on the
# host (kernel lines, makespan, trace hash, "buffer NAME: ok" lines); bad
# programs (a loop past its instruction budget among them) fail their
# kernel with the documented errno.  Buffers of a
# timing-only workload are made, filled and checked first; the rest is
# skipped when the module lacks VGPU_CAP_FUNCTIONAL (GET_INFO).  Runs from /vgpu with the
# module loaded (device 0); prints TAP.
dir=/vgpu/bin/workloads/functional
n=0
fail=0
T=$(mktemp -d)
echo "TAP version 13"
ok() { n=$((n + 1)); echo "ok $n functional.$1"; }
nok() {
	n=$((n + 1)); fail=1; echo "not ok $n functional.$1"
	head -n 20 "$T/out" | sed 's/^/# /'
}
caps=$(vgpuctl info 2>/dev/null | sed -n 's/^caps: *//p')
# Buffers without a functional kernel (VGPU_CAP_BUFFERS): vgpuctl run
# makes, maps and fills them and checks their initial contents after the
# run; a wrong expectation is a MISMATCH and exit status 1.
cat > "$T/bufs.json" <<EOF
{ "buffers": [
    { "name": "x", "words": 1030, "init": { "lcg": { "seed": 0 } },
      "expect": { "values": [3960563, 4673577, 13749494] } },
    { "name": "y", "size": 8, "type": "i32", "flags": ["constant"],
      "init": { "constant": -5 }, "expect": { "values": [-5, -5] } } ],
  "kernels": [ { "name": "k", "grid": 2, "threads": 64,
    "program": ["ALU", "EXIT"] } ] }
EOF
vgpuctl run -q --no-alone "$T/bufs.json" > "$T/out" 2>&1
if [ $? -eq 0 ] && grep -q '^buffer x: ok$' "$T/out" &&
   grep -q '^buffer y: ok$' "$T/out"; then
	ok buffers_filled_and_checked
else
	nok buffers_filled_and_checked
fi
sed 's/3960563/3960564/' "$T/bufs.json" > "$T/bufs2.json"
vgpuctl run -q --no-alone "$T/bufs2.json" > "$T/out" 2>&1
if [ $? -eq 1 ] && grep -q '^buffer x: MISMATCH at word 0: got 3960563 want 3960564 (1 of 3 words differ)$' "$T/out"; then
	ok buffers_mismatch
else
	nok buffers_mismatch
fi
vgpuctl compare -q --no-alone --policy rr --policy avail "$T/bufs2.json" \
	> "$T/out" 2>&1
if [ $? -eq 1 ] && grep -Eq '^buffers +MISMATCH +MISMATCH$' "$T/out"; then
	ok compare_buffers_row
else
	nok compare_buffers_row
fi
if [ -z "$caps" ] || [ $((caps & (1 << 15))) -eq 0 ]; then
	echo "# SKIP the rest: the module lacks VGPU_CAP_FUNCTIONAL (caps ${caps:-?})"
	rm -rf "$T"
	echo "1..$n"
	exit $fail
fi
for wl in "$dir"/functional/*.json; do
	name=$(basename "$wl" .json)
	for m in drain warp switch; do
		for w in 1 2; do
			if vgpuctl run -q --no-alone --workers $w --preempt $m \
				"$wl" > "$T/out" 2>&1 &&
			   grep -E '^(kernel|makespan=|trace_hash=|buffer )' \
				"$T/out" > "$T/got" &&
			   cmp -s "$T/got" "$dir/functional/$name.$m.expected"; then
				ok "$name.$m.workers$w"
			else
				diff "$dir/functional/$name.$m.expected" "$T/got" \
					> "$T/diff"
				cat "$T/diff" >> "$T/out"
				nok "$name.$m.workers$w"
			fi
		done
	done
done
# A one-block kernel of 64 threads running $1 on buf (64 words), ro
# (read-only), cst (constant) with instruction budget $5 (default none): it
# fails with errno name $2, number $3.
bad() {
	cat > "$T/bad.json" <<EOF
{ "buffers": [
    { "name": "buf", "words": 64, "type": "u32", "init": "iota" },
    { "name": "ro", "words": 64, "type": "u32", "flags": ["read_only"] },
    { "name": "cst", "words": 64, "type": "u32", "flags": ["constant"] } ],
  "kernels": [ { "name": "bad", "grid": 1, "threads": 64, "regs": 16,
    "smem": 256, "buffers": ["buf", "ro", "cst"], "insn_budget": ${5:-0},
    "program": [".functional", $1] } ] }
EOF
	vgpuctl run -q --no-alone "$T/bad.json" > "$T/out" 2>&1
	if grep -q "^kernel=bad .*end=failed error=-$3\$" "$T/out" &&
	   grep -q "^kernel bad: failed: $2 (" "$T/out"; then
		ok "bad.$4"
	else
		nok "bad.$4"
	fi
}
bad '"MOVI r0, 256", "LDG r1, [s0 + r0]", "EXIT"' EFAULT 14 out_of_bounds
bad '"MOVI r0, 0", "LDG r1, [s5 + r0]", "EXIT"' EBADF 9 unnamed_slot
bad '"MOVI r0, 2", "LDG r1, [s0 + r0]", "EXIT"' EILSEQ 84 misaligned
bad '"MOVI r0, 0", "STG [s1 + r0], r0", "EXIT"' EROFS 30 read_only
bad '"S2R r0, %lane", "MOVI r1, 16", "ISETP p0, r0, r1, lt", "BRP !p0, out, out", "BAR", "out:", "EXIT"' \
	EDEADLK 35 divergent_barrier
bad '"loop:", "JMP loop", "EXIT"' EXFULL 54 budget_exhausted 1000
rm -rf "$T"
echo "1..$n"
exit $fail
