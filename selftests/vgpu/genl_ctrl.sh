#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# genl_ctrl.sh - a client nobody here wrote sees the generic netlink family
# (F63): Debian's genl-ctrl-list (libnl-utils) lists "vgpu", its three
# operations with their flags and the multicast groups "events" and "locks".  Runs in
# the VM from /vgpu with the module loaded; prints TAP.
n=0
fail=0
out=$(genl-ctrl-list -d 2>&1)
fam=$(echo "$out" | sed -n '/ vgpu version 1$/,/^0x/p')
t() {
	n=$((n + 1))
	if echo "$fam" | grep -q -E "$1"; then
		echo "ok $n genl_ctrl.$2"
	else
		echo "not ok $n genl_ctrl.$2"
		echo "$out" | sed 's/^/# /'
		fail=1
	fi
}
echo "TAP version 13"
echo "1..7"
t ' vgpu version 1$' family
t 'maxattr 40$' maxattr
t 'op unknown \(0x01\) <has_doit,has_dump,has_policy>' dev_get
t 'op unknown \(0x02\) <has_doit,has_dump,has_policy>' stats_get
t 'op unknown \(0x03\) <admin_perm,has_doit,has_policy>' config_set
t 'grp events \(0x[0-9a-f]+\)' mcast_group
t 'grp locks \(0x[0-9a-f]+\)' mcast_group_locks
exit $fail
