#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Child kernels (F15) in workload files and vgpu-sim run: the kernel
# lines of examples/child-mix.json (a tree that completes, a recursion
# stopped by the depth limit, one stopped by its child budget), the same
# results with --trace, children in the Perfetto trace (slices named after
# their tree, launch markers, suspended slices), and the errors of
# templates and LAUNCH in workload files.  Run from the repository root;
# prints TAP.
set -u
SIM=${VGPU_SIM:-build/vgpu-sim-asan}
. "$(dirname "$0")/tap.sh"

MIX=examples/child-mix.json
"$SIM" run "$MIX" > "$TMP/run.out" 2> "$TMP/run.err"
check "child mix runs" "[ \$? -eq 0 ]"
check "the tree completes, after its children" \
	"grep -Eq '^kernel=tree submit=200 start=[0-9]+ end=[0-9]+ turnaround=[0-9]+$' $TMP/run.out"
check "a self-launching template fails with ELOOP (depth limit)" \
	"grep -Eq '^kernel=runaway submit=400 start=[0-9]+ end=failed error=-40$' $TMP/run.out"
check "a LAUNCH beyond the child budget fails with EDQUOT" \
	"grep -Eq '^kernel=greedy submit=600 start=[0-9]+ end=failed error=-122$' $TMP/run.out"
"$SIM" run "$MIX" --trace "$TMP/t.json" > "$TMP/tr.out" 2>&1
check "--trace does not change the results" "cmp -s $TMP/tr.out $TMP/run.out"
if command -v python3 > /dev/null; then
	check "children in the Perfetto trace: named slices, launch markers, suspensions" \
		"python3 -c '
import json, sys
ev = json.load(open(\"$TMP/t.json\"))[\"traceEvents\"]
slices = [e for e in ev if e.get(\"ph\") == \"X\"]
names = set(e[\"name\"] for e in slices)
launch = [e for e in ev if e.get(\"name\") == \"launch\"]
susp = [e for e in slices if e[\"args\"][\"end\"] == \"suspended\"]
failed = [e for e in slices if e[\"args\"][\"end\"] == \"failed\"]
deep = [e for e in launch if e[\"args\"][\"depth\"] == 8]
sys.exit(not ({\"tree\", \"tree/t0\", \"tree/t0/t1\", \"runaway/t0/t0\"} <= names and
	      len([e for e in launch if e[\"args\"][\"child\"] == \"tree/t0\"]) == 4 and
	      len([e for e in launch if e[\"args\"][\"child\"] == \"tree/t0/t1\"]) == 8 and
	      susp and failed and len(deep) == 1))'"
else
	ok "# SKIP python3 missing"
fi

# Errors name the file, the position and the field.
wl() { printf '{ "kernels": [ {"name": "a", "grid": 1, "threads": 32, %s} ] }\n' "$1" > "$TMP/$2.json"; }
wl '"program": ["LAUNCH 1", "EXIT"], "child_budget": 1, "templates": [ {"grid": 1, "threads": 32, "program": "EXIT"} ]' b1
"$SIM" run "$TMP/b1.json" > /dev/null 2> "$TMP/e1"
check "LAUNCH of a template that does not exist" \
	"[ \$? -eq 1 ] && grep -q 'kernels\[0\]: program: line 1: LAUNCH 1: only 1 template$' $TMP/e1"
wl '"program": ["LAUNCH 0", "EXIT"], "templates": [ {"grid": 1, "threads": 32, "program": ["LAUNCH 2", "EXIT"]} ]' b2
"$SIM" run "$TMP/b2.json" > /dev/null 2> "$TMP/e2"
check "a template's LAUNCH names the same array" \
	"[ \$? -eq 1 ] && grep -q 'kernels\[0\].templates\[0\]: program: line 1: LAUNCH 2: only 1 template$' $TMP/e2"
wl '"program": "EXIT", "templates": [ {"grid": 1, "threads": 32, "flags": ["throttle"], "program": "EXIT"} ]' b3
"$SIM" run "$TMP/b3.json" > /dev/null 2> "$TMP/e3"
check "template flags: independent or sequential only" \
	"[ \$? -eq 1 ] && grep -q 'kernels\[0\].templates\[0\]: flags: a template may be' $TMP/e3"
wl '"program": "EXIT", "child_budget": 1025' b4
"$SIM" run "$TMP/b4.json" > /dev/null 2> "$TMP/e4"
check "child budget at most VGPU_MAX_CHILDREN" \
	"[ \$? -eq 1 ] && grep -q 'kernels\[0\]: child_budget: expected an integer in 0..1024' $TMP/e4"
wl '"flags": ["independent"], "program": ["LAUNCH 0", "EXIT"], "templates": [ {"grid": 1, "threads": 32, "program": "EXIT"} ]' b5
"$SIM" run "$TMP/b5.json" > /dev/null 2> "$TMP/e5"
check "no LAUNCH in an independent kernel" \
	"[ \$? -eq 1 ] && grep -q 'kernels\[0\]: program: line 1: LAUNCH in an independent kernel' $TMP/e5"
wl '"program": ["LOOP 2*(1+wid%2)", "LAUNCH 0, wait", "ENDLOOP", "EXIT"], "templates": [ {"grid": 1, "threads": 32, "program": "EXIT"} ]' b6
"$SIM" run "$TMP/b6.json" > /dev/null 2> "$TMP/e6"
check "LAUNCH WAIT in a warp-dependent loop: the validator's rule" \
	"[ \$? -eq 1 ] && grep -q 'instruction 1 (LAUNCH 0, wait): invalid LAUNCH' $TMP/e6"
wl '"program": ["LAUNCH 0, later", "EXIT"]' b7
"$SIM" run "$TMP/b7.json" > /dev/null 2> "$TMP/e7"
check "unknown LAUNCH flag" \
	"[ \$? -eq 1 ] && grep -q \"unknown LAUNCH flag 'later' (wait)\" $TMP/e7"
wl '"program": "EXIT", "templates": [ {"grid": 1, "program": "EXIT"} ]' b8
"$SIM" run "$TMP/b8.json" > /dev/null 2> "$TMP/e8"
check "a template needs threads" \
	"[ \$? -eq 1 ] && grep -q 'kernels\[0\].templates\[0\]: threads: missing' $TMP/e8"

echo "1..$n"
exit $fail
