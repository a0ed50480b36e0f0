#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# workers.sh - F50: a device has one worker per online CPU, at most one per
# SM, each thread bound to its own CPU (worker 0 is the controller thread
# vgpuN/ctl, the others vgpuN/wI).  Checked on the default device vgpu0 and
# on a one-SM device.  Runs in the VM from /vgpu; prints TAP.
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n workers.$1"; }
nok() { n=$((n + 1)); fail=1; echo "not ok $n workers.$1${2:+ # $2}"; }

# CPUs in a list like 0-1,3 (sysfs online, Cpus_allowed_list)
count_cpus() {
	echo "$1" | tr ',' '\n' | while IFS=- read -r a b; do
		[ -n "$a" ] || continue
		echo $(( ${b:-$a} - a + 1 ))
	done | awk '{ s += $1 } END { print s + 0 }'
}

# The CPU list of the thread called $1, or nothing.
thread_cpus() {
	for d in /proc/[0-9]*; do
		[ "$(cat "$d/comm" 2>/dev/null)" = "$1" ] || continue
		sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$d/status"
		return
	done
}

# check DEV SMS: worker count and binding of /dev/vgpuDEV with SMS SMs
check() {
	dev=$1
	sms=$2
	cpus=$(count_cpus "$(cat /sys/devices/system/cpu/online)")
	want=$cpus
	[ "$want" -le "$sms" ] || want=$sms
	got=$(sed -n 's/^workers //p' /sys/kernel/debug/vgpu/vgpu$dev/config)
	if [ "$got" = "$want" ]; then
		ok "vgpu${dev}_count"
	else
		nok "vgpu${dev}_count" "workers $got, want $want ($cpus CPUs, $sms SMs)"
	fi
	seen=""
	bad=""
	i=0
	while [ "$i" -lt "$want" ]; do
		if [ "$i" = 0 ]; then name="vgpu$dev/ctl"; else name="vgpu$dev/w$i"; fi
		c=$(thread_cpus "$name")
		if [ -z "$c" ] || [ "$(count_cpus "$c")" != 1 ]; then
			bad="$bad $name:${c:-none}"
		else
			case " $seen " in
			*" $c "*) bad="$bad $name:$c(twice)" ;;
			esac
			seen="$seen $c"
		fi
		i=$((i + 1))
	done
	if [ -z "$bad" ]; then
		ok "vgpu${dev}_bound"
	else
		nok "vgpu${dev}_bound" "$bad"
	fi
	# no worker beyond the count
	name="vgpu$dev/w$want"
	if [ -z "$(thread_cpus "$name")" ]; then
		ok "vgpu${dev}_no_more"
	else
		nok "vgpu${dev}_no_more" "$name exists"
	fi
}

echo "TAP version 13"
echo "1..6"
check 0 "$(sed -n 's/^num_sms //p' /sys/kernel/debug/vgpu/vgpu0/config)"
echo "9 small num_sms=1" > /sys/bus/vgpu/new_device
check 9 1
echo 9 > /sys/bus/vgpu/del_device
exit $fail
