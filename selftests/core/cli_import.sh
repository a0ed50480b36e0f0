#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vgpu-sim import and recordings given to vgpu-sim run / compare
# (F68): the three formats through the command line, the workload file
# it writes runs like the recording itself (same lines, same trace hash),
# skipped kernels reported and counted, tenants with --priority/--offset,
# usage and file errors.  Run from the repository root; prints TAP.
set -u
SIM=${VGPU_SIM:-build/vgpu-sim-asan}
D=selftests/core/import
. "$(dirname "$0")/tap.sh"

sqlite3 "$TMP/nsys.sqlite" < "$D/nsys-small.sql"
check "the .sql script makes an nsys export" "[ -s $TMP/nsys.sqlite ]"

for f in "$D/kineto-small.json" "$TMP/nsys.sqlite" "$D/accelsim"; do
	b=$(basename "$f")
	"$SIM" import "$f" -o "$TMP/$b.wl.json" > "$TMP/$b.sum" 2> "$TMP/$b.err"
	check "import $b: exit 0, a summary line" \
		"[ \$? -eq 0 ] && grep -Eq '^kernels=[0-9]+ mapped=[0-9]+ skipped=[0-9]+ clamped=0 channels=[0-9]+ tenants=1$' $TMP/$b.sum"
	"$SIM" run "$TMP/$b.wl.json" > "$TMP/$b.wl.out" 2>&1
	"$SIM" run "$f" > "$TMP/$b.rec.out" 2> "$TMP/$b.rec.err"
	check "run $b: the recording and its workload file give the same lines and hash" \
		"grep -q '^trace_hash=0x' $TMP/$b.rec.out && cmp -s $TMP/$b.wl.out $TMP/$b.rec.out"
done
check "kineto: 3 kernels on 2 channels" \
	"grep -q '^kernels=3 mapped=3 skipped=0 clamped=0 channels=2 tenants=1$' $TMP/kineto-small.json.sum"
check "nsys: the 256-register kernel skipped and counted" \
	"grep -q '^kernels=5 mapped=4 skipped=1 clamped=0 channels=3 tenants=1$' $TMP/nsys.sqlite.sum"
check "nsys: the skipped kernel reported with its row and reason" \
	"grep -q 'nsys.sqlite: row 4 (too_many_registers): skipped: registers: 256 per thread (at most 255)' $TMP/nsys.sqlite.err"
check "vgpu-sim run reports the skipped kernel too" \
	"grep -q 'row 4 (too_many_registers): skipped' $TMP/nsys.sqlite.rec.err"
check "accelsim: 2 kernels on 2 streams" \
	"grep -q '^kernels=2 mapped=2 skipped=0 clamped=0 channels=2 tenants=1$' $TMP/accelsim.sum"

# arrival = (start - first start) x 1980 MHz (h100): 2.5 us -> 4950
check "kineto arrivals in cycles of the h100 clock" \
	"grep -q '^kernel=void_at::native::vectorized_elementwise_kernel<#1 submit=4950 ' $TMP/kineto-small.json.rec.out && grep -q '^kernel=softmax_warp_forward#2 submit=59400 ' $TMP/kineto-small.json.rec.out"
"$SIM" import --preset a100 --clock 1000 "$D/kineto-small.json" -o - > "$TMP/clk.json" 2>/dev/null
check "--preset and --clock" \
	"grep -q '\"preset\": \"a100\"' $TMP/clk.json && grep -q '\"arrival\": 2500,' $TMP/clk.json && grep -q '\"arrival\": 30000,' $TMP/clk.json"

# One 50 us kernel alone: 99000 cycles on h100, within 10 %
cat > "$TMP/one.json" <<'EOT'
{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "gemm", "ts": 100.0, "dur": 50.0,
  "args": {"stream": 7, "grid": [66, 4, 1], "block": [256, 1, 1],
           "registers per thread": 96, "shared memory": 65536}}]}
EOT
t=$("$SIM" run "$TMP/one.json" | sed -n 's/^kernel=gemm#0 submit=0 start=[0-9]* end=[0-9]* turnaround=//p')
echo "# 50 us on h100: $t cycles (99000 wanted)"
check "a recorded 50 us kernel lasts 50 us x 1980 MHz within 10 %" \
	"[ -n '$t' ] && [ $t -ge 89100 ] && [ $t -le 108900 ]"

# Tenants: one recording each, with priorities and offsets
"$SIM" import "$D/kineto-small.json" "$D/accelsim" --priority 1=2 --offset 1=7000 \
	-o "$TMP/ten.json" > "$TMP/ten.sum" 2>&1
check "two recordings: two tenants, four channels" \
	"grep -q 'kernels=5 mapped=5 skipped=0 clamped=0 channels=4 tenants=2' $TMP/ten.sum"
check "tenant 1 has its priority and offset" \
	"[ \$(grep -c '\"tenant\": 1, \"priority\": 2, \"arrival\": 7000,' $TMP/ten.json) -eq 2 ] && [ \$(grep -c '\"tenant\": 0, \"priority\": 0,' $TMP/ten.json) -eq 3 ]"
"$SIM" run "$TMP/ten.json" > "$TMP/ten.out" 2>&1
check "the tenants' workload runs" "[ \$? -eq 0 ] && [ \$(grep -c '^kernel=' $TMP/ten.out) -eq 5 ]"
# The same shaping on run (--priority, --offset): the unshaped import run with
# --priority 1=2 --offset 1=7000 is the shaped import run; tenant 1 (the
# Accel-Sim trace, untimed) arrives at its offset.
"$SIM" import "$D/kineto-small.json" "$D/accelsim" -o "$TMP/ten0.json" > /dev/null 2>&1
"$SIM" run "$TMP/ten0.json" > "$TMP/ten0.out" 2>&1
"$SIM" run "$TMP/ten0.json" --priority 1=2 --offset 1=7000 > "$TMP/ten1.out" 2>&1
check "run --priority 1=2 --offset 1=7000: the lines of the shaped import" \
	"[ \$? -eq 0 ] && cmp -s $TMP/ten.out $TMP/ten1.out && ! cmp -s $TMP/ten0.out $TMP/ten1.out"
check "run --offset 1=7000: tenant 1's two kernels arrive at 7000" \
	"[ \$(grep -c '^kernel=[^ ]* submit=7000 ' $TMP/ten1.out) -eq 2 ] && [ \$(grep -c '^kernel=[^ ]* submit=7000 ' $TMP/ten0.out) -eq 0 ]"
"$SIM" run "$D/kineto-small.json" --offset 0=1000 > "$TMP/rec1.out" 2>&1
check "run RECORDING --offset 0=1000: its first kernel arrives at 1000" \
	"[ \$? -eq 0 ] && head -n 1 $TMP/rec1.out | grep -q '^kernel=[^ ]* submit=1000 '"
for bad in "--priority 2=1" "--priority 1=4" "--priority x=1" "--offset 1=-5" "--offset 0=281474976710657"; do
	"$SIM" run "$TMP/ten0.json" $bad > "$TMP/bad.out" 2>&1
	check "run $bad: usage error naming it" \
		"[ \$? -eq 2 ] && grep -q \"bad ${bad%% *} '${bad#* }'\" $TMP/bad.out"
done
# The per-tenant report (F67 over tenants).  Two identical tenants that
# each fill the small preset exactly (8 blocks of 32 warps: 2 per SM, one
# wave) arriving together take two waves: slowdown 2 each, STP 1, ANTT 2,
# fairness 1 (within the epoch rounding); apart, slowdown 1 and STP 2.
mk2() {
	printf '{ "device": {"preset": "small"}, "kernels": [\n'
	printf ' {"name": "a", "channel": 0, "tenant": 0, "grid": 8, "threads": 1024, "program": ["LOOP 400", "LOAD", "LOAD", "ENDLOOP", "EXIT"]},\n'
	printf ' {"name": "b", "channel": 1, "tenant": 1, "arrival": %s, "grid": 8, "threads": 1024, "program": ["LOOP 400", "LOAD", "LOAD", "ENDLOOP", "EXIT"]}%s ] }\n' "$1" "$2"
}
mk2 0 "" > "$TMP/t2.json"
mk2 100032 ', {"name": "c", "channel": 0, "tenant": 0, "arrival": 200064, "grid": 4, "threads": 64, "program": ["LOOP 50", "ALU", "ENDLOOP", "EXIT"]}' > "$TMP/t2apart.json"
"$SIM" run "$TMP/t2.json" > "$TMP/t2.out" 2>&1
"$SIM" run "$TMP/t2apart.json" > "$TMP/t2apart.out" 2>&1
sd() { sed -n "s/^tenant=$1 .* slowdown=//p" "$2"; }
check "tenant lines follow the summary, one per tenant" \
	"[ \"\$(sed -n '8,13s/=.*//p' $TMP/t2.out | tr '\n' ' ')\" = 'trace_hash tenant tenant tenant_stp tenant_antt tenant_fairness ' ]"
echo "# together: slowdown $(sd 0 $TMP/t2.out) $(sd 1 $TMP/t2.out); apart: $(sd 0 $TMP/t2apart.out) $(sd 1 $TMP/t2apart.out)"
check "two tenants filling the device together: slowdown about 2 each" \
	"awk -v a=$(sd 0 $TMP/t2.out) -v b=$(sd 1 $TMP/t2.out) 'BEGIN { exit !(a >= 1.9 && a <= 2.1 && b >= 1.9 && b <= 2.1) }'"
check "together: tenant STP about 1, fairness about 1" \
	"awk -F= '/^tenant_stp=/ { s = \$2 } /^tenant_fairness=/ { f = \$2 } END { exit !(s >= 0.95 && s <= 1.05 && f >= 0.95) }' $TMP/t2.out"
check "apart: slowdown 1, STP 2, ANTT 1, fairness 1" \
	"[ '$(sd 0 $TMP/t2apart.out)' = 1.000 ] && [ '$(sd 1 $TMP/t2apart.out)' = 1.000 ] && grep -q '^tenant_stp=2.000$' $TMP/t2apart.out && grep -q '^tenant_antt=1.000$' $TMP/t2apart.out && grep -q '^tenant_fairness=1.000$' $TMP/t2apart.out"
busy=$(sed -n 's/^tenant=1 kernels=1 busy=\([0-9]*\) .*/\1/p' "$TMP/t2apart.out")
be=$(sed -n 's/^kernel=b submit=[0-9]* start=\([0-9]*\) end=\([0-9]*\) .*/\2-\1/p' "$TMP/t2apart.out")
check "busy is the time its kernels ran" "[ -n '$busy' ] && [ -n '$be' ] && [ $busy -eq \$(($be)) ]"
busy=$(sed -n 's/^tenant=0 kernels=2 busy=\([0-9]*\) .*/\1/p' "$TMP/t2apart.out")
ae=$(sed -n 's/^kernel=[ac] submit=[0-9]* start=\([0-9]*\) end=\([0-9]*\) .*/+\2-\1/p' "$TMP/t2apart.out" | tr -d '\n')
check "busy of two kernels apart is the sum of their times" \
	"[ -n '$busy' ] && [ -n '$ae' ] && [ $busy -eq \$((0$ae)) ]"
"$SIM" run examples/standard-mix.json > "$TMP/one.out" 2>&1
check "no tenant lines for one tenant" "! grep -q '^tenant' $TMP/one.out"
"$SIM" compare "$D/kineto-small.json" --policy rr --policy avail > "$TMP/cmp.out" 2>&1
check "vgpu-sim compare takes a recording" \
	"[ \$? -eq 0 ] && grep -q '^turnaround softmax_warp_forward#2' $TMP/cmp.out"

# scripts/gen-trace: an LLM step of 2 layers, a 32-token prompt and 2
# decode steps: 2 x 11 + 3 prefill kernels, 2 x (2 x 12 + 3) decode ones.
G="--layers 2 --hidden 512 --ffn 1376 --heads 8 --vocab 1000 --batch 2 --prompt 32 --decode 2"
if command -v python3 > /dev/null; then
	scripts/gen-trace --format nsys $G -o "$TMP/llm.sqlite" > "$TMP/g1" &&
	scripts/gen-trace --format kineto $G -o "$TMP/llm.json" > "$TMP/g2"
	check "gen-trace writes 79 kernels in both formats" \
		"grep -qx kernels=79 $TMP/g1 && grep -qx kernels=79 $TMP/g2"
	"$SIM" import "$TMP/llm.sqlite" -o "$TMP/llm1.wl.json" > "$TMP/i1" 2>&1
	"$SIM" import "$TMP/llm.json" -o "$TMP/llm2.wl.json" > "$TMP/i2" 2>&1
	check "both import whole: 79 mapped, none skipped or clamped, one stream" \
		"grep -qx 'kernels=79 mapped=79 skipped=0 clamped=0 channels=1 tenants=1' $TMP/i1 && grep -qx 'kernels=79 mapped=79 skipped=0 clamped=0 channels=1 tenants=1' $TMP/i2"
	sed 's/"name": "[^"]*", //' "$TMP/llm1.wl.json" > "$TMP/n1"
	sed 's/"name": "[^"]*", //' "$TMP/llm2.wl.json" > "$TMP/n2"
	check "the nsys and kineto recordings of one step map alike (names aside)" \
		"cmp -s $TMP/n1 $TMP/n2"
	"$SIM" run "$TMP/llm.json" > "$TMP/llm.out" 2>&1
	check "the LLM step replays" \
		"[ \$? -eq 0 ] && [ \$(grep -c '^kernel=' $TMP/llm.out) -eq 79 ]"
else
	ok "# SKIP python3 missing"
fi

# Usage errors: exit 2
"$SIM" import "$D/kineto-small.json" > /dev/null 2>&1
check "no -o: usage error" "[ \$? -eq 2 ]"
"$SIM" import -o "$TMP/x.json" > /dev/null 2>&1
check "no recording: usage error" "[ \$? -eq 2 ]"
"$SIM" import --format pdf "$D/kineto-small.json" -o "$TMP/x.json" > /dev/null 2>&1
check "unknown --format: usage error" "[ \$? -eq 2 ]"
"$SIM" import --priority 1=1 "$D/kineto-small.json" -o "$TMP/x.json" > /dev/null 2>&1
check "--priority of a tenant that does not exist: usage error" "[ \$? -eq 2 ]"
"$SIM" import --priority 0=9 "$D/kineto-small.json" -o "$TMP/x.json" > /dev/null 2>&1
check "--priority out of range: usage error" "[ \$? -eq 2 ]"
"$SIM" import --offset 0=x "$D/kineto-small.json" -o "$TMP/x.json" > /dev/null 2>&1
check "bad --offset: usage error" "[ \$? -eq 2 ]"
"$SIM" import --preset b200 "$D/kineto-small.json" -o "$TMP/x.json" > /dev/null 2>&1
check "unknown --preset: usage error" "[ \$? -eq 2 ]"

# File errors: exit 1, the file, the record and the field
"$SIM" import --format kineto "$TMP/nsys.sqlite" -o "$TMP/x.json" > /dev/null 2> "$TMP/e1"
check "an nsys export read as kineto: syntax error" \
	"[ \$? -eq 1 ] && grep -q 'nsys.sqlite: 1:1: (syntax): ' $TMP/e1"
sed 's/"stream": 13, //' "$D/kineto-small.json" > "$TMP/nostream.json"
"$SIM" run "$TMP/nostream.json" > /dev/null 2> "$TMP/e2"
check "vgpu-sim run of a recording without a required field" \
	"[ \$? -eq 1 ] && grep -q 'nostream.json: traceEvents\[3\]: args.stream: missing' $TMP/e2"
head -c 3000 "$TMP/nsys.sqlite" > "$TMP/trunc.sqlite"
"$SIM" import "$TMP/trunc.sqlite" -o "$TMP/x.json" > /dev/null 2> "$TMP/e3"
check "a truncated nsys export: an error, no crash" \
	"[ \$? -eq 1 ] && grep -q 'trunc.sqlite: ' $TMP/e3"
"$SIM" import "$TMP/missing.sqlite" -o "$TMP/x.json" > /dev/null 2> "$TMP/e4"
check "a missing file" "[ \$? -eq 1 ] && grep -q 'missing.sqlite: No such file' $TMP/e4"
"$SIM" import "$D/kineto-small.json" -o "$TMP/no/such/dir.json" > /dev/null 2> "$TMP/e5"
check "an unwritable output" "[ \$? -eq 1 ] && grep -q 'dir.json: No such file' $TMP/e5"

echo "1..$n"
exit $fail
