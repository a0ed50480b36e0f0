#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kunit.sh - the core's unit tests in the kernel (in the guest, from run-suite):
# load vgpu_core_kunit.ko (selftests/core/Kbuild), whose KUnit suites
# vgpu_core_* run as it loads, and turn their KTAP in the kernel log into one
# top-level TAP line per case ("ok N kunit.SUITE.CASE"), which
# scripts/tap-summary counts, with the diagnostics of a failed case.  One
# more line checks that every suite finished and the module unloads.
# Exit status 1 if any of them failed.
# No module (a kernel without CONFIG_KUNIT=y): a comment, nothing to count.
ko=/vgpu/vgpu_core_kunit.ko
if [ ! -e "$ko" ]; then
	echo "# kunit: no vgpu_core_kunit.ko (kernel without CONFIG_KUNIT=y)"
	exit 0
fi
log=/tmp/kunit.log
# a mark in the kernel log: what follows it is ours (a line count would
# drift once the ring buffer wraps)
mark="vgpu_core_kunit: kunit.sh $$ starts"
echo "$mark" > /dev/kmsg
# insmod waits (uninterruptibly) for each case: up to KUnit's own timeout
# of a case (300 s), not the hung-task detector's 60 s of the debug kernel;
# the slowest case takes 55 to 76 s under TCG with KASAN.
ht=/proc/sys/kernel/hung_task_timeout_secs
old_ht=$(cat $ht 2>/dev/null)
[ -n "$old_ht" ] && echo 300 > $ht
insmod "$ko"
irc=$?
[ -n "$old_ht" ] && echo "$old_ht" > $ht
# the KTAP lines printed since, without dmesg's "[ time] "
dmesg | sed 's/^\[[^]]*\] \{0,1\}//' | sed -n "/^$mark\$/,\$p" > "$log"
rmmod vgpu_core_kunit 2>/dev/null
rrc=$?
awk -v irc="$irc" -v rrc="$rrc" '
/^KTAP version/ && !top { top = 1; next }
top == 1 && /^1\.\.[0-9]+$/ { plan = substr($0, 4) + 0; top = 2; next }
/^    # Subtest: / { suite = $3; diag = ""; next }
/^        # / { diag = diag "\n" substr($0, 9); next }
/^    # / && !/^    # (Subtest|module|Totals|vgpu_core_)/ {
	diag = diag "\n" substr($0, 5); next }
/^    (not )?ok [0-9]+ / {
	n++
	st = ($1 == "not") ? "not ok" : "ok"
	name = ($1 == "not") ? $4 : $3
	rest = $0
	sub(/^.*ok [0-9]+ [^ ]+/, "", rest)
	line[n] = st " " n " kunit." suite "." name rest
	if (st == "not ok") {
		line[n] = line[n] diag
		failed++
	}
	diag = ""
	next
}
/^(not )?ok [0-9]+ vgpu_core_/ { done++ }
END {
	print "TAP version 13"
	print "1.." n + 1
	for (i = 1; i <= n; i++)
		print line[i]
	ok = (irc == 0 && rrc == 0 && plan > 0 && done == plan) ? "ok" : "not ok"
	printf "%s %d kunit.suites_complete (%d of %d suites, %d cases, insmod %d, rmmod %d)\n", ok, n + 1, done, plan, n, irc, rrc
	exit ok != "ok" || failed
}' "$log"
