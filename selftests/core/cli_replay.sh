#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vgpu-sim replay and bench replay: a recording replayed
# as a stream gives the trace hash of `vgpu-sim run` on it (kernels
# submitted just before they arrive change nothing the device sees), two
# tenants with --priority and --offset too (and run's per-tenant sums); the
# blocks of a gen-trace --mix short recording by hand (its kernels' grids
# 8, 8, 128, 64, 172, 8 over and over); memory bounded by the kernels in
# flight, not the recording's length (peak RSS of 2,000 and 10,000
# launches, Nsight and Kineto, on the -O2 build); the Kineto reader's
# errors and its start-order window; the progress bar only on a terminal;
# the bench's lines (format only: timings are benchmarks,
# Documentation/performance.rst).  Run from the repository root; prints
# TAP.
set -u
SIM=${VGPU_SIM:-build/vgpu-sim-asan}
OPT=${VGPU_SIM_OPT:-build/vgpu-sim}
D=selftests/core/import
. "$(dirname "$0")/tap.sh"
hash_of() { sed -n 's/^trace_hash=//p' "$1"; }

sqlite3 "$TMP/nsys.sqlite" < "$D/nsys-small.sql"
for f in "$D/kineto-small.json" "$TMP/nsys.sqlite" "$D/accelsim"; do
	b=$(basename "$f")
	"$SIM" run "$f" > "$TMP/$b.run" 2>/dev/null
	"$SIM" replay "$f" > "$TMP/$b.rp" 2> "$TMP/$b.err"
	rc=$?
	"$SIM" import "$f" -o "$TMP/$b.wl.json" > "$TMP/$b.imp" 2>/dev/null
	check "replay $b: exit 0, the import's summary line, run's trace hash" \
		"[ $rc -eq 0 ] && [ -n \"\$(hash_of $TMP/$b.run)\" ] && [ \"\$(hash_of $TMP/$b.run)\" = \"\$(hash_of $TMP/$b.rp)\" ] && head -n 1 $TMP/$b.rp | cmp -s - $TMP/$b.imp"
done
check "the kernel that fits no SM is reported on stderr, as by import" \
	"grep -q 'skipped:' $TMP/nsys.sqlite.err"

if command -v python3 > /dev/null; then
	# 60 short kernels: 10 x (8 + 8 + 128 + 64 + 172 + 8) = 3,880 blocks
	scripts/gen-trace --format nsys --mix short --kernels 60 -o "$TMP/s.sqlite" > /dev/null &&
	scripts/gen-trace --format kineto --mix short --kernels 60 -o "$TMP/s.json" > /dev/null
	"$SIM" replay "$TMP/s.sqlite" > "$TMP/s1" 2>&1
	"$SIM" replay "$TMP/s.json" > "$TMP/s2" 2>&1
	"$SIM" run "$TMP/s.json" > "$TMP/s3" 2>&1
	check "short mix: 60 kernels, 3,880 blocks, all completed, one at a time in flight at most 2" \
		"grep -qx 'completed=60 failed=0 blocks=3880' $TMP/s1 && grep -qx 'completed=60 failed=0 blocks=3880' $TMP/s2 && grep -Eqx 'in_flight_max=[12]' $TMP/s1"
	check "short mix: nsys and kineto replays and run: one trace hash" \
		"[ \"\$(hash_of $TMP/s1)\" = \"\$(hash_of $TMP/s2)\" ] && [ \"\$(hash_of $TMP/s2)\" = \"\$(hash_of $TMP/s3)\" ]"
	"$SIM" replay --threads 2 "$TMP/s.sqlite" > "$TMP/s4" 2>&1
	check "short mix: --threads 2, the same trace hash (F51)" \
		"[ -n \"\$(hash_of $TMP/s4)\" ] && [ \"\$(hash_of $TMP/s1)\" = \"\$(hash_of $TMP/s4)\" ]"
	# two tenants (another process, faster kernels), shaped
	scripts/gen-trace --format kineto --mix short --kernels 30 --pid 12 \
		--seed 5 --dur-scale 0.5 -o "$TMP/t.json" > /dev/null
	"$SIM" import "$TMP/s.sqlite" "$TMP/t.json" --priority 1=2 \
		--offset 0=3000 -o "$TMP/st.wl.json" > /dev/null 2>&1
	"$SIM" run "$TMP/st.wl.json" > "$TMP/st.run" 2>&1
	"$SIM" replay --priority 1=2 --offset 0=3000 "$TMP/s.sqlite" "$TMP/t.json" > "$TMP/st.rp" 2>&1
	t0=$(sed -n 's/^tenant=0 kernels=60 busy=[0-9]* shared=\([0-9]*\) .*/\1/p' "$TMP/st.run")
	t1=$(sed -n 's/^tenant=1 kernels=30 busy=[0-9]* shared=\([0-9]*\) .*/\1/p' "$TMP/st.run")
	check "two tenants: run's trace hash and per-tenant turnaround sums (run's shared=)" \
		"[ -n \"\$(hash_of $TMP/st.rp)\" ] && [ \"\$(hash_of $TMP/st.run)\" = \"\$(hash_of $TMP/st.rp)\" ] && grep -qx 'tenant=0 kernels=60 turnaround=$t0' $TMP/st.rp && grep -qx 'tenant=1 kernels=30 turnaround=$t1' $TMP/st.rp && grep -qx 'kernels=90 mapped=90 skipped=0 clamped=0 channels=2 tenants=2' $TMP/st.rp"
	head -c $(($(wc -c < "$TMP/s.sqlite") / 2)) "$TMP/s.sqlite" > "$TMP/half.sqlite"
	"$SIM" replay "$TMP/half.sqlite" > /dev/null 2> "$TMP/half.err"
	check "nsys cut in half: exit 1, SQLite's message with the file named" \
		"[ \$? -eq 1 ] && grep -q '^vgpu-sim replay: $TMP/half.sqlite: (file): (sqlite): ' $TMP/half.err"

	# Bounded memory: 8,000 launches more may not cost 8,000 kernels'
	# memory (a kernel held whole is >= 2.3 KB: recorded, workload and
	# device descriptors, 18 MB for 8,000; JSON trees more).  Allowed:
	# 6 MB (SQLite's sorter and page cache are bounded by their own
	# limits, not by the rows).
	for fmt in nsys kineto; do
		for k in 2000 10000; do
			scripts/gen-trace --format $fmt --mix short --kernels $k \
				--dur-scale 0.05 -o "$TMP/m$k.$fmt" > /dev/null
			"$OPT" bench replay "$TMP/m$k.$fmt" > "$TMP/m$k.$fmt.out" 2>&1
		done
		a=$(sed -n 's/^peak rss kb = //p' "$TMP/m2000.$fmt.out")
		b=$(sed -n 's/^peak rss kb = //p' "$TMP/m10000.$fmt.out")
		echo "# $fmt: peak RSS ${a:-?} kB for 2,000 launches, ${b:-?} kB for 10,000"
		check "$fmt: 10,000 launches replay in the memory of 2,000 (+6 MB at most)" \
			"grep -q '^replay kernels=10000 ' $TMP/m10000.$fmt.out && [ -n '$a' ] && [ -n '$b' ] && [ $b -le \$(($a + 6144)) ]"
	done

	# A trace listing its kernels backwards: beyond the window of 4,096
	python3 - "$TMP/rev.json" <<'PY'
import json, sys
ev = [{"ph": "X", "cat": "kernel", "name": "k", "ts": 5000 - i, "dur": 1,
       "args": {"grid": [1, 1, 1], "block": [32, 1, 1], "stream": 7,
                "registers per thread": 32, "shared memory": 0}}
      for i in range(5000)]
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
	"$SIM" replay "$TMP/rev.json" > /dev/null 2> "$TMP/rev.err"
	check "kineto: 5,000 kernels in reverse order: exit 1, the event and ts named" \
		"[ \$? -eq 1 ] && grep -q 'rev.json: traceEvents\[4096\]: ts: starts before a kernel already replayed' $TMP/rev.err"
	# within the window: sorted as the whole-document reader sorts
	python3 - "$D/kineto-small.json" "$TMP/back.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["traceEvents"].reverse()
json.dump(d, open(sys.argv[2], "w"))
PY
	"$SIM" replay "$TMP/back.json" > "$TMP/back.out" 2>&1
	check "kineto: events listed backwards (within the window) replay as run orders them" \
		"[ \"\$(hash_of $TMP/back.out)\" = \"\$(hash_of $TMP/kineto-small.json.run)\" ]"
else
	ok "# SKIP python3 missing"
fi

# A truncated trace is an error naming the file, never a crash
size=$(wc -c < "$D/kineto-small.json")
bad=
for cut in $(seq 0 53 $((size - 2))); do
	head -c "$cut" "$D/kineto-small.json" > "$TMP/cut.json"
	"$SIM" replay --format kineto "$TMP/cut.json" > /dev/null 2> "$TMP/cut.err"
	rc=$?
	[ $rc -eq 1 ] && grep -q "^vgpu-sim replay: $TMP/cut.json: " "$TMP/cut.err" ||
		bad="$bad $cut:$rc"
done
check "kineto cut at every 53rd byte: exit 1 with the file named (bad:${bad:- none})" "[ -z '$bad' ]"
printf '{"traceEvents": [], "x": [1,' > "$TMP/t1.json"
"$SIM" replay "$TMP/t1.json" > /dev/null 2> "$TMP/t1.err"
check "kineto: syntax error after the events: its line and column (28 bytes: 1:29)" \
	"[ \$? -eq 1 ] && grep -q 't1.json: 1:29: (syntax): unexpected end of data' $TMP/t1.err"
printf '{"traceEvents": [], "traceEvents": []}' > "$TMP/t2.json"
"$SIM" replay "$TMP/t2.json" > /dev/null 2> "$TMP/t2.err"
check "kineto: traceEvents twice: an error" \
	"[ \$? -eq 1 ] && grep -q 't2.json: (top): traceEvents: given twice' $TMP/t2.err"
printf '{"other": {"traceEvents": [1]}}' > "$TMP/t3.json"
"$SIM" replay "$TMP/t3.json" > /dev/null 2> "$TMP/t3.err"
check "kineto: no top-level traceEvents: missing" \
	"[ \$? -eq 1 ] && grep -q 't3.json: (top): traceEvents: missing' $TMP/t3.err"
printf '{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 1, "args": {"grid": [1, 1], "block": [32, 1, 1], "stream": 0, "registers per thread": 8, "shared memory": 0}}]}' > "$TMP/t4.json"
"$SIM" replay "$TMP/t4.json" > /dev/null 2> "$TMP/t4.err"
check "kineto: a bad field: the event and the field named" \
	"[ \$? -eq 1 ] && grep -q 't4.json: traceEvents\[0\]: args.grid: expected \[x, y, z\]' $TMP/t4.err"
printf '{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 1, "dur": 5}]}' > "$TMP/t5.json"
"$SIM" replay "$D/kineto-small.json" "$TMP/t5.json" > /dev/null 2> "$TMP/t5.err"
check "a recording without kernels: exit 1, the file named" \
	"[ \$? -eq 1 ] && grep -qx 'vgpu-sim replay: $TMP/t5.json: (file): (kernels): no kernel launches recorded' $TMP/t5.err"
"$SIM" replay "$TMP/none.sqlite" > /dev/null 2> "$TMP/none.err"
check "a missing file: exit 1" "[ \$? -eq 1 ] && [ -s $TMP/none.err ]"
"$SIM" replay > /dev/null 2>&1
check "no recording: usage error" "[ \$? -eq 2 ]"
"$SIM" replay --channels 0 "$D/kineto-small.json" > /dev/null 2>&1
check "--channels 0: usage error" "[ \$? -eq 2 ]"

# The progress bar: on stderr when it is a terminal, never otherwise
"$SIM" replay "$D/kineto-small.json" > "$TMP/p.out" 2> "$TMP/p.err"
check "stderr not a terminal: no progress bar" \
	"[ \$? -eq 0 ] && ! grep -q 'replay \[' $TMP/p.err && ! grep -q 'replay \[' $TMP/p.out"
"$SIM" replay --progress "$D/kineto-small.json" > "$TMP/p2.out" 2> "$TMP/p2.err"
check "--progress: the bar ends full, on its own line" \
	"grep -q 'replay \[#*\] 100% kernels=3 in_flight=0' $TMP/p2.err && [ \"\$(tail -c 1 $TMP/p2.err | od -An -c | tr -d ' ')\" = '\\n' ]"
if command -v script > /dev/null; then
	script -qec "$SIM replay $D/kineto-small.json" /dev/null > "$TMP/p3.out" 2>&1 < /dev/null
	check "on a terminal: the bar" "grep -q 'replay \[#*\] 100%' $TMP/p3.out"
	script -qec "$SIM replay --no-progress $D/kineto-small.json" /dev/null > "$TMP/p4.out" 2>&1 < /dev/null
	check "on a terminal with --no-progress: none" \
		"grep -q '^trace_hash=' $TMP/p4.out && ! grep -q 'replay \[' $TMP/p4.out"
else
	ok "# SKIP script(1) missing"
	ok "# SKIP script(1) missing"
fi

# vgpu-sim bench replay: its lines (format only)
out=$("$SIM" bench replay --kernels 30 2>&1)
rc=$?
check "bench replay: exit 0, 30 kernels of 1,940 blocks" \
	"[ $rc -eq 0 ] && echo \"\$out\" | grep -Eq '^replay kernels=30 blocks=1940 cycles=[0-9]+ seconds=[0-9]+\.[0-9]{3} trace_hash=0x[0-9a-f]{16}$'"
check "bench replay: startup, cached startup, one calibration" \
	"echo \"\$out\" | grep -Eqx 'startup ms = [0-9]+\.[0-9]{2}' && echo \"\$out\" | grep -Eqx 'startup cached ms = [0-9]+\.[0-9]{2}' && echo \"\$out\" | grep -qx 'calibrations = 1'"
check "bench replay: the last line is the blocks per second" \
	"[ \"\$(echo \"\$out\" | tail -n 1 | sed -E 's/[0-9]+$/X/')\" = 'replay blocks/s = X' ]"
"$SIM" bench replay --kernels 0 > /dev/null 2>&1
check "bench replay --kernels 0: exit 2" "[ \$? -eq 2 ]"

echo "1..$n"
exit $fail
