#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# modload.sh - load and unload vgpu_dispatch.ko twice in a row, and check the
# module parameters (F61).  Runs in the VM from /vgpu; prints TAP.
KO=/vgpu/vgpu_dispatch.ko
n=0
fail=0
t() {
	n=$((n + 1))
	if "$@" > /dev/null 2>&1; then
		echo "ok $n $desc"
	else
		echo "not ok $n $desc"
		fail=1
	fi
}
loaded() { grep -q '^vgpu_dispatch ' /proc/modules; }
not() { ! "$@"; }

echo "TAP version 13"
echo "1..11"
rmmod vgpu_dispatch > /dev/null 2>&1
desc="modload.unloaded"; t not loaded
for round in 1 2; do
	desc="modload.insmod_round$round"; t insmod $KO
	desc="modload.devnode_round$round"; t test -c /dev/vgpu0
	desc="modload.rmmod_round$round"; t rmmod vgpu_dispatch
done
desc="modload.num_devices_3"; t sh -c "insmod $KO num_devices=3 && test -c /dev/vgpu2 && ! test -e /dev/vgpu3 && rmmod vgpu_dispatch"
desc="modload.num_devices_too_many"; t sh -c "! insmod $KO num_devices=17 && ! grep -q '^vgpu_dispatch ' /proc/modules"
desc="modload.bad_preset"; t sh -c "! insmod $KO preset=bogus && ! grep -q '^vgpu_dispatch ' /proc/modules"
desc="modload.busy_while_open"; t sh -c "insmod $KO && exec 3</dev/vgpu0 && ! rmmod vgpu_dispatch"
# leave it loaded for the following suites
rmmod vgpu_dispatch > /dev/null 2>&1
insmod $KO
exit $fail
