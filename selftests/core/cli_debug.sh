#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vgpu-sim debug (seed 004's debugger, Documentation/workloads.rst,
# "Debugging a functional kernel") on examples/functional/reduce.json
# (examples/vasm/reduce.vasm) and small programs written here.  Without
# commands it prints what vgpu-sim run prints; a breakpoint in the
# reduction's loop stops there, as often as the warps test the loop
# (4 blocks x 8 warps x 9 tests) under every preemption mode; a step
# advances the stopped warp's pc by one on straight-line code; the
# registers after S2R, IMAD and MOVI, the shared memory after the first
# BAR, a buffer's words and a private memory hold what a hand
# calculation from the input generator says; a divergent branch shows its
# inactive lanes and predicate; breakpoints and steps leave the trace hash
# and the results as they were; a bad command or argument is one line and
# the session goes on; the exit status is run's.  Run from the repository
# root; prints TAP.
set -u
SIM=${VGPU_SIM:-build/vgpu-sim-asan}
. "$(dirname "$0")/tap.sh"
W=examples/functional/reduce.json

# dbg NAME [OPTIONS...]: the commands on stdin, output in $TMP/NAME.txt,
# exit status in $TMP/NAME.rc
dbg() {
	name=$1
	shift
	"$SIM" debug "$@" > "$TMP/$name.txt" 2> "$TMP/$name.err"
	echo $? > "$TMP/$name.rc"
}
rc() { cat "$TMP/$1.rc"; }
# the Nth stop line of a session: "[breakpoint B, ]sm S ctx C: kernel ..."
stop() { grep -E '^(breakpoint [0-9]+, )?sm [0-9]+ ctx [0-9]+: ' "$TMP/$1.txt" | sed -n "$2p"; }
# a field of a stop line: block, warp, pc, sm, ctx
sfield() { echo "$1" | sed -E "s/.* $2 ([0-9]+).*/\\1/"; }
# the words x >> 8 of the lcg x = x * 1664525 + 1013904223 (mod 2^32)
# from seed $1, words $2 to $3 - 1, as 8 hex digits, one a line
lcg() {
	x=$1
	i=0
	while [ $i -lt $3 ]; do
		x=$(( (x * 1664525 + 1013904223) & 0xffffffff ))
		[ $i -ge $2 ] && printf '%08x\n' $((x >> 8))
		i=$((i + 1))
	done
}

echo "1..39"

# --- no commands: vgpu-sim run's output, byte for byte -----------------
"$SIM" run "$W" > "$TMP/run.txt"
dbg empty "$W" < /dev/null
check "no commands: the output of vgpu-sim run, exit status 0" \
	"[ \$(rc empty) -eq 0 ] && cmp -s $TMP/run.txt $TMP/empty.txt"

# --- a breakpoint in the loop --------------------------------------------
dbg loop "$W" <<EOF
break 13 reduce
continue
pc
info breakpoints
quit
EOF
s1=$(stop loop 1)
check "break 13: stops at pc 13 of reduce ($s1)" \
	"echo '$s1' | grep -Eq '^breakpoint 1, sm [0-9]+ ctx [0-9]+: kernel reduce block [0-9]+ warp [0-9]+ pc 13: ISETP p1, r9, r12, eq\$'"
check "pc: the same warp at the same pc" \
	"[ \"\$(stop loop 2)\" = \"\${s1#breakpoint 1, }\" ]"
check "info breakpoints: one hit" \
	"grep -q '^1   break pc 13 of reduce: 1 hits\$' $TMP/loop.txt"
check "quit: no more stops, the run's summary and results" \
	"[ \$(stop loop 3 | wc -l) -eq 0 ] && [ \$(rc loop) -eq 0 ] && grep -q '^buffer sums: ok\$' $TMP/loop.txt && grep -q '^buffer total: ok\$' $TMP/loop.txt"

# every warp tests the loop 9 times (s = 128, 64, ..., 1, then 0): 288
# stops in every mode, and the same run as without the debugger
for m in drain warp switch; do
	"$SIM" run "$W" --preempt $m > "$TMP/run-$m.txt"
	{ echo "break 13"; i=0; while [ $i -lt 300 ]; do echo c; i=$((i + 1)); done; } |
		dbg all-$m "$W" --preempt $m
	hits=$(grep -c "^breakpoint 1, .* pc 13: " "$TMP/all-$m.txt")
	check "$m: 288 stops at the loop's test (got $hits)" "[ $hits -eq 288 ]"
	check "$m: the same trace hash and results as run" \
		"[ \$(rc all-$m) -eq 0 ] && grep -v '^breakpoint' $TMP/all-$m.txt | cmp -s - $TMP/run-$m.txt"
done

# --- step -------------------------------------------------------------
dbg step "$W" <<EOF
break 4 reduce
continue
step
step 3
pc
EOF
s1=$(stop step 1)
s2=$(stop step 2)
s3=$(stop step 3)
w="sm $(sfield "$s1" sm) ctx $(sfield "$s1" ctx): kernel reduce block $(sfield "$s1" block) warp $(sfield "$s1" warp)"
check "step: the same warp, pc 4 -> 5 ($s2)" \
	"[ \"\$s2\" = '$w pc 5: SHL r5, r3, r4' ]"
check "step 3: pc 5 -> 8" "[ \"\$s3\" = '$w pc 8: STS [r6], r7' ]"
check "pc: where step 3 stopped" "[ \"\$(stop step 4)\" = \"\$s3\" ]"

# --- registers: the fifth warp to stop at pc 5 --------------------------
dbg regs "$W" <<EOF
break 5 reduce
c
c
c
c
c
regs r0-r4
regs r3
EOF
s=$(stop regs 5)
b=$(sfield "$s" block)
wp=$(sfield "$s" warp)
# lane l: r0 = tid = warp * 32 + l (S2R), r3 = block * 256 + tid (IMAD),
# r4 = 2 (MOVI)
sed -n '/^lane  r0 /,/^(lanes/p' "$TMP/regs.txt" | sed -n '2,33p' > "$TMP/grid.txt"
l=0
bad=0
while [ $l -lt 32 ]; do
	want=$(printf '%4u  %08x %08x %08x %08x %08x' $l $((wp * 32 + l)) $b 256 \
		$((b * 256 + wp * 32 + l)) 2)
	[ "$(sed -n "$((l + 1))p" "$TMP/grid.txt")" = "$want" ] || bad=$((bad + 1))
	l=$((l + 1))
done
check "regs r0-r4 of block $b warp $wp: tid, ctaid, ntid, the global index, 2 in every lane" \
	"[ $bad -eq 0 ] && [ \$(wc -l < $TMP/grid.txt) -eq 32 ]"
l=7
check "regs r3: lane 7 as hex, int and float" \
	"grep -Eq '^   7  0x$(printf %08x $((b * 256 + wp * 32 + l))) $((b * 256 + wp * 32 + l)) ' $TMP/regs.txt"

# --- warps and warp -----------------------------------------------------
printf 'break 1\nc\nwarps\n' | dbg warps "$W"
check "warps: the 8 warps of block 0, the current one marked" \
	"[ \$(grep -Ec '^[ *] sm 0 ctx [0-9]+: kernel reduce block 0 warp [0-7] ready pc 1 active 0xffffffff live 0xffffffff\$' $TMP/warps.txt) -eq 8 ] && [ \$(grep -c '^\* sm 0 ctx ' $TMP/warps.txt) -eq 1 ]"
ctx=$(sed -nE 's/^  sm 0 ctx ([0-9]+): kernel reduce block 0 warp 6 .*/\1/p' "$TMP/warps.txt")
printf 'break 1\nc\nwarp 0 %s\nregs r0\n' "$ctx" | dbg warp "$W"
check "warp 0 $ctx: warp 6 selected, its r0 is 6 * 32 + lane" \
	"grep -q '^sm 0 ctx $ctx: kernel reduce block 0 warp 6 pc 1: ' $TMP/warp.txt && grep -Eq '^  31  0x000000df 223 ' $TMP/warp.txt"

# --- shared memory after the first BAR: the block's 256 inputs ---------
{ echo "break 10 reduce"; i=0; while [ $i -lt 9 ]; do echo c; i=$((i + 1)); done; echo smem; } |
	dbg smem "$W"
s=$(stop smem 9)
b=$(sfield "$s" block)
sed -n '/^shared memory of block/,$p' "$TMP/smem.txt" | grep '^0x' |
	sed 's/^0x[0-9a-f]*://' | tr -s ' ' '\n' | grep . > "$TMP/smem.words"
lcg 35 $((b * 256)) $((b * 256 + 256)) > "$TMP/smem.want"
check "smem after the first BAR (block $b): in[$((b * 256))..$((b * 256 + 255))] (lcg seed 35)" \
	"[ \$(wc -l < $TMP/smem.want) -eq 256 ] && cmp -s $TMP/smem.want $TMP/smem.words"
printf 'break 10 reduce\nc\nsmem 1020 4\nsmem 8 8\n' | dbg smem2 "$W"
w255=$(lcg 35 255 256)
w23=$(lcg 35 2 4 | tr '\n' ' ')
check "smem OFF LEN: words 255 and 2..3 of block 0" \
	"grep -q '^0x03fc: $w255\$' $TMP/smem2.txt && grep -q '^0x0008: ${w23% }\$' $TMP/smem2.txt"

# --- buffers: the initialiser's words, before and during the run ------
printf 'buffer in 0 16\nbreak 1\nc\nbuffer in 1024 8\nbuffer 0 1024 8\n' | dbg buf "$W"
sed -n '/its initial contents/,/^breakpoint/p' "$TMP/buf.txt" | grep '^0x' | cut -d' ' -f2 > "$TMP/buf0"
lcg 35 0 4 | sed 's/^/0x/' > "$TMP/buf0.want"
check "buffer in 0 16 before the run: its initial contents, words 0..3" \
	"cmp -s $TMP/buf0.want $TMP/buf0"
w256=$(lcg 35 256 257)
check "buffer in / buffer 0 (slot s0) during the run: word 256, the epoch's stores noted" \
	"[ \$(grep -c '^0x0400: 0x$w256 $((0x$w256)) ' $TMP/buf.txt) -eq 2 ] && [ \$(grep -c 'reach it at the epoch.s boundary' $TMP/buf.txt) -eq 2 ]"

# --- watchpoints: a buffer word at the epoch boundary, a shared word ---
sum() { t=0; for x in $(lcg 35 $1 $2); do t=$(( (t + 0x$x) & 0xffffffff )); done; printf '0x%08x' $t; }
{ echo "watch buffer sums 0"; echo "watch buffer total 0"; echo "break 10 reduce"
  echo c; echo "watch smem 0"; echo "delete 3"; i=0
  while [ $i -lt 30 ]; do echo c; i=$((i + 1)); done; } | dbg watch "$W" --preempt switch
s0=$(sum 0 256)
check "watch buffer sums 0: one change, to the sum of block 0's inputs ($s0)" \
	"[ \"\$(grep '^watchpoint 1: ' $TMP/watch.txt | sed -n '2,\$p')\" = 'watchpoint 1: buffer sums 0x0000: 0x00000000 -> $s0' ]"
tot=$(sum 0 1024)
check "watch buffer total 0: its last change is to the sum of the 1024 inputs ($tot)" \
	"grep '^watchpoint 2: buffer total 0x0000: ' $TMP/watch.txt | tail -n 1 | grep -q -- '-> $tot\$'"
w0=$(lcg 35 0 1)
w128=$(lcg 35 128 129)
s1=$(printf '0x%08x' $(( (0x$w0 + 0x$w128) & 0xffffffff )))
check "watch smem 0 of block 0: 8 changes, in[0] -> in[0] + in[128] first, the block's sum last" \
	"[ \$(grep -c '^watchpoint 4: smem of reduce block 0 0x0000: ' $TMP/watch.txt) -eq 8 ] && grep -q '^watchpoint 4: smem of reduce block 0 0x0000: 0x$w0 -> $s1\$' $TMP/watch.txt && grep '^watchpoint 4: ' $TMP/watch.txt | tail -n 1 | grep -q -- '-> $s0\$'"
check "watchpoints leave the run as it was" \
	"[ \$(rc watch) -eq 0 ] && [ \"\$(field trace_hash $TMP/watch.txt)\" = \"\$(field trace_hash $TMP/run-switch.txt)\" ]"
printf 'watch smem 0\nwatch buffer in 2\nwatch buffer in 4096\nwatch frob\nwatch buffer nosuch 0\n' | dbg badwatch "$W"
check "bad watches: one line each" \
	"[ \$(grep -c . $TMP/badwatch.txt) -eq \$((5 + \$(grep -c . $TMP/run.txt))) ] && grep -q '^watch: 2 is no word' $TMP/badwatch.txt && grep -q '^watch: 4096 is no word' $TMP/badwatch.txt && grep -q '^usage: watch buffer' $TMP/badwatch.txt"

# --- divergence, predicates, private memory ---------------------------
cat > "$TMP/div.json" <<'EOF'
{ "buffers": [ { "name": "out", "words": 32 } ],
  "kernels": [ { "name": "div", "grid": 1, "threads": 32, "regs": 8,
    "private": 8, "buffers": ["out"],
    "program": [".functional", "S2R r0, %tid", "MOVI r1, 4",
      "ISETP p0, r0, r1, lt", "BRP !p0, skip, skip", "MOVI r2, 7",
      "STL [r1], r0", "skip:", "SHL r3, r0, r1", "EXIT"] } ] }
EOF
dbg div "$TMP/div.json" <<EOF
break 4
c
preds
regs r2
step 2
preds
regs r2
priv 3
priv 9
step 5
EOF
check "a divergent branch: lanes 0-3 active, p0 0x0000000f" \
	"grep -q '^active 0x0000000f live 0xffffffff' $TMP/div.txt && grep -q '^p0 0x0000000f\$' $TMP/div.txt"
check "regs r2 marks lanes 4-31 inactive ('-'), 0-3 active" \
	"[ \$(grep -Ec '^ +([4-9]|[12][0-9]|3[01])- 0x00000000 ' $TMP/div.txt) -eq 28 ] && [ \$(grep -Ec '^ +[0-3]  0x00000000 ' $TMP/div.txt) -eq 4 ]"
check "step 2: reconverged at pc 6, r2 = 7 in lanes 0-3 only" \
	"grep -q '^sm 0 ctx 0: kernel div block 0 warp 0 pc 6: SHL r3, r0, r1\$' $TMP/div.txt && grep -q '^active 0xffffffff live 0xffffffff' $TMP/div.txt && [ \$(grep -Ec '^ +[0-3]  0x00000007 7 ' $TMP/div.txt) -eq 4 ] && [ \$(grep -Ec '^ +([4-9]|[12][0-9]|3[01])  0x00000000 ' $TMP/div.txt) -eq 28 ]"
check "priv: lane 3 stored its tid at byte 4, lane 9 nothing" \
	"grep -q '^lane 3  00000000 00000003\$' $TMP/div.txt && grep -q '^lane 9  00000000 00000000\$' $TMP/div.txt"
check "step past the warp's EXIT: said, and the run ends" \
	"grep -q '^the warp exits before the step ends' $TMP/div.txt && [ \$(rc div) -eq 0 ] && grep -q '^trace_hash=' $TMP/div.txt"

# --- disasm -------------------------------------------------------------
printf 'break 14\ndisasm 13 2\n' | dbg dis "$W"
check "disasm 13 2: the two instructions, the breakpoint marked" \
	"[ \"\$(grep -E '^ +b? +1[34]  ' $TMP/dis.txt | tr -s ' ')\" = \"\$(printf ' 13 ISETP p1, r9, r12, eq\n b 14 BRP p1, 26, 26')\" ]"

# --- breakpoints and steps do not change the run ------------------------
"$SIM" run "$W" --preempt switch --pack sm > "$TMP/hash.run"
{ echo "break 20 reduce"; echo "break 9"; i=0
  while [ $i -lt 40 ]; do echo c; echo step 3; echo warps; echo regs; echo smem; i=$((i + 1)); done; } |
	dbg hash "$W" --preempt switch --pack sm
check "switch, pack sm: the same trace hash with breakpoints and steps ($(field trace_hash $TMP/hash.run))" \
	"[ -n \"\$(field trace_hash $TMP/hash.run)\" ] && [ \"\$(field trace_hash $TMP/hash.run)\" = \"\$(field trace_hash $TMP/hash.txt)\" ] && [ \$(grep -c '^breakpoint [12], ' $TMP/hash.txt) -ge 20 ]"

# --- bad commands: one line each, the session goes on -------------------
dbg bad "$W" <<EOF
frobnicate
break
break x
break 999
break 33 reduce
break 0 intruder
break 0 nosuch
delete 7
regs
step
warp 0 0
buffer nosuch 0 4
buffer in 2 4
buffer in 4092 8
break 13
c
regs r99
regs r3-r1
smem 0 8 9
smem 0 6
warp 99 0
warp 0 999
step 0
priv
info foo
quit
EOF
nbad=14
check "14 bad commands before the run: one line each" \
	"[ \"\$(sed -n '$((nbad + 1))p' $TMP/bad.txt)\" = 'breakpoint 1 at pc 13' ] && [ \$(sed -n '1,${nbad}p' $TMP/bad.txt | grep -c .) -eq $nbad ]"
check "the messages say what is wrong" \
	"grep -q \"^unknown command 'frobnicate'\" $TMP/bad.txt && grep -q '^break: pc 999 is past the end of every functional program (33 instructions)\$' $TMP/bad.txt && grep -q '^break: pc 33 is past the end of reduce' $TMP/bad.txt && grep -q '^kernel intruder is not functional' $TMP/bad.txt && grep -q \"^no kernel named 'nosuch'\" $TMP/bad.txt && grep -q '^the run has not started' $TMP/bad.txt && grep -q '^buffer: bytes 4092..4100 are past the end (4096 bytes)\$' $TMP/bad.txt && grep -q '^buffer: OFF and LEN are bytes of whole 32-bit words' $TMP/bad.txt"
a=$(grep -n '^breakpoint 1, ' "$TMP/bad.txt" | cut -d: -f1)
check "9 bad commands at a stop: one line each; quit runs to the end" \
	"[ \$(sed -n '$((a + 1)),$((a + 9))p' $TMP/bad.txt | grep -Ec '^(regs|smem|warp|step|usage|the kernel)') -eq 9 ] && [ \"\$(sed -n '$((a + 10))p' $TMP/bad.txt)\" = \"\$(head -n 1 $TMP/run.txt)\" ] && [ \$(rc bad) -eq 0 ]"

# --- exit status and usage ----------------------------------------------
cat > "$TMP/wrong.json" <<'EOF'
{ "buffers": [ { "name": "out", "words": 32,
    "expect": { "values": [1, 2] } } ],
  "kernels": [ { "name": "k", "grid": 1, "threads": 32,
    "buffers": ["out"],
    "program": [".functional", "S2R r0, %tid", "MOVI r1, 2",
      "SHL r2, r0, r1", "STG [s0 + r2], r0", "EXIT"] } ] }
EOF
"$SIM" run "$TMP/wrong.json" > "$TMP/wrong.run"
echo $? > "$TMP/wrong.run.rc"
printf 'break 3\nc\nregs r2\nc\n' | dbg wrong "$TMP/wrong.json"
check "a wrong result: exit status 1 and the MISMATCH line, as run" \
	"[ \$(rc wrong) -eq 1 ] && [ \$(cat $TMP/wrong.run.rc) -eq 1 ] && grep -q '^buffer out: MISMATCH at word 0: got 0 want 1' $TMP/wrong.txt && grep -Eq '^  31  0x0000007c 124 ' $TMP/wrong.txt"
dbg nofile < /dev/null
dbg timing examples/standard-mix.json < /dev/null
check "usage: no file is status 2; a workload without functional kernels is refused" \
	"[ \$(rc nofile) -eq 2 ] && [ \$(rc timing) -eq 1 ] && grep -q 'no functional kernel to debug' $TMP/timing.err"

echo "# $n tests"
exit $fail
