#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# policies.sh - scheduling policies as kernel modules: each
# examples/policies/NAME.c built as vgpu_policy_NAME.ko registers NAME; a
# device can be made with it, with an SM choice of its own (a built-in's
# name, nothing else); while a device uses it the module cannot be
# unloaded; switched away from it at run time, or once the device is
# gone, it can, and the name is gone with it.  A policy whose init
# refuses a device is neither made nor switched to, and pins nothing.
# (determinism.sh runs workloads under each of them against vgpu-sim.)
# Then the misbehaving test policies of /vgpu/test-policies: under each a
# workload completes; the watchdog ejects the staller (stall) and the
# flattener (errors of its tick) with one kernel log line each, and never
# the yielder, whose yields the minimum residency spaces out.
# (vgpu_netlink_test.c: the POLICY_EXIT event, debugfs, rmmod racing it.)
# Prints TAP.
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
nok() { n=$((n + 1)); fail=1; echo "not ok $n $1"; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
DEV=9
# A workload through the module under policy $1 (vgpuctl makes the device).
run_under() {
	vgpuctl run -q --no-alone --policy "$1" \
		/vgpu/bin/workloads/standard-mix.json > /tmp/pol.txt 2>&1 && return 0
	sed 's/^/# /' /tmp/pol.txt
	return 1
}
# A workload through the module under test policy $1 in mode $2.
run_bad() {
	vgpuctl run -q --no-alone --policy "$1" --preempt "$2" \
		/vgpu/bin/workloads/standard-mix.json > /tmp/pol.txt 2>&1 && return 0
	sed 's/^/# /' /tmp/pol.txt
	return 1
}
# Lines of the kernel log saying policy $1 was ejected for reason $2.
ejected() {
	dmesg | grep -c "policy $1 ejected at cycle [0-9]*: $2"
}
echo "TAP version 13"
mods=$(ls /vgpu/policies/*.ko 2>/dev/null)
if [ -z "$mods" ]; then
	echo "1..0 # SKIP no policy modules in /vgpu/policies"
	exit 0
fi
for m in $mods; do
	mod=$(basename "$m" .ko)
	name=${mod#vgpu_policy_}
	echo "$DEV" > /sys/bus/vgpu/del_device 2>/dev/null
	check "policies.$name.unknown_before_load" \
		"! echo '$DEV small policy=$name' > /sys/bus/vgpu/new_device 2>/dev/null"
	check "policies.$name.insmod" "insmod $m"
	check "policies.$name.device_with_it" \
		"echo '$DEV small policy=$name' > /sys/bus/vgpu/new_device"
	check "policies.$name.debugfs_names_it" \
		"grep -qx 'policy $name' /sys/kernel/debug/vgpu/vgpu$DEV/config"
	# the device's own SM choice: a built-in's name, shown in debugfs
	echo "$DEV" > /sys/bus/vgpu/del_device
	check "policies.$name.sm_choice_not_a_policy" \
		"! echo '$DEV small policy=$name sm_choice=$name' > /sys/bus/vgpu/new_device 2>/dev/null"
	check "policies.$name.sm_choice_avail" \
		"echo '$DEV small policy=$name sm_choice=avail' > /sys/bus/vgpu/new_device"
	check "policies.$name.debugfs_names_the_sm_choice" \
		"grep -qx 'sm_choice avail' /sys/kernel/debug/vgpu/vgpu$DEV/config"
	check "policies.$name.pinned_while_used" "! rmmod $mod 2>/dev/null"
	# switched away at run time (netlink CONFIG_SET), the device lets go
	check "policies.$name.switch_away" \
		"vgpuctl -d $DEV config policy rr > /dev/null"
	check "policies.$name.unpinned_after_switch" "rmmod $mod"
	check "policies.$name.insmod_again" "insmod $m"
	check "policies.$name.switch_back" \
		"vgpuctl -d $DEV config policy $name > /dev/null"
	check "policies.$name.pinned_again" "! rmmod $mod 2>/dev/null"
	check "policies.$name.runs_a_workload" "run_under $name"
	echo "$DEV" > /sys/bus/vgpu/del_device
	check "policies.$name.rmmod_once_unused" "rmmod $mod"
	check "policies.$name.unknown_after_unload" \
		"! echo '$DEV small policy=$name' > /sys/bus/vgpu/new_device 2>/dev/null"
done
# A policy whose init refuses every device (selftests/vgpu/policies/
# refuse.c): no device is made with it, none is switched to it (it keeps
# its policy) and, refused, it pins nothing.
m=/vgpu/test-policies/vgpu_policy_refuse.ko
if [ -e "$m" ]; then
	echo "$DEV" > /sys/bus/vgpu/del_device 2>/dev/null
	check "policies.refuse.insmod" "insmod $m"
	check "policies.refuse.device_refused" \
		"! echo '$DEV small policy=refuse' > /sys/bus/vgpu/new_device 2>/dev/null"
	check "policies.refuse.no_device_left" \
		"[ ! -e /sys/kernel/debug/vgpu/vgpu$DEV ]"
	check "policies.refuse.device_with_rr" \
		"echo '$DEV small policy=rr' > /sys/bus/vgpu/new_device"
	check "policies.refuse.switch_refused" \
		"! vgpuctl -d $DEV config policy refuse > /dev/null 2>&1"
	check "policies.refuse.keeps_its_policy" \
		"grep -qx 'policy rr' /sys/kernel/debug/vgpu/vgpu$DEV/config"
	check "policies.refuse.runs_a_workload_after" "run_under rr"
	check "policies.refuse.not_pinned" "rmmod vgpu_policy_refuse"
	echo "$DEV" > /sys/bus/vgpu/del_device
fi
for spec in staller:switch:stall flattener:warp:errors yielder:switch:-; do
	name=${spec%%:*}
	rest=${spec#*:}
	mode=${rest%%:*}
	why=${rest#*:}
	m=/vgpu/test-policies/vgpu_policy_$name.ko
	[ -e "$m" ] || continue
	check "policies.bad.$name.insmod" "insmod $m"
	before=$(ejected "$name" "$why")
	check "policies.bad.$name.every_kernel_completes" "run_bad $name $mode"
	after=$(ejected "$name" "$why")
	if [ "$why" = - ]; then
		check "policies.bad.$name.never_ejected" \
			"[ \$(dmesg | grep -c 'policy $name ejected') -eq 0 ]"
	else
		check "policies.bad.$name.ejected_for_$why" \
			"[ $after -gt $before ]"
	fi
	check "policies.bad.$name.rmmod" "rmmod vgpu_policy_$name"
done
echo "1..$n"
exit $fail
