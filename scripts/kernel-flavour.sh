#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-flavour.sh FLAVOUR - the kernel a flavour names, as shell
# assignments: KDIR (headers or build tree to build the module against),
# KIMAGE (what the VM boots), KVER (its release) and MEM (guest MiB).
# Fetches or builds the kernel on first use; `stock` never installs anything
# (scripts/install-deps.sh does).  The names stay true when versions move:
#
#   stock     Debian 12's own kernel (6.1 LTS), the one linux-image-amd64
#             and linux-headers-amd64 of the machine's suite depend on
#   lts       Debian's 6.12 LTS built for Debian 12 (bookworm-backports),
#             prebuilt, unpacked into the cache (scripts/kernel-pkgs.sh)
#   rt        the same kernel's PREEMPT_RT flavour (make check-rt)
#   mainline  the newest kernel source Debian carries, built here from
#             allnoconfig + scripts/kconfig/base.config (build-kernel.sh)
#   debug     the same source + scripts/kconfig/debug.config (KASAN,
#             lockdep, UBSAN, kmemleak, failslab, KUnit: make check-debug)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
flavour=${1:-stock}

case "$flavour" in
stock)
	# linux-headers-amd64 -> linux-headers-6.1.0-N-amd64 (= version):
	# the ABI the machine's suite ships, never a 6.12 that is also there.
	kver=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null |
		sed -n 's/^linux-headers-\([^ ]*-amd64\) .*/\1/p')
	if [ -z "$kver" ]; then
		echo "kernel-flavour.sh: linux-headers-amd64 is not installed; run 'make deps'" >&2
		exit 1
	fi
	echo "KDIR=/usr/src/linux-headers-$kver"
	echo "KIMAGE=/boot/vmlinuz-$kver"
	echo "KVER=$kver"
	echo "MEM=1024"
	;;
lts)
	"$here/kernel-pkgs.sh" lts
	echo "MEM=1024"
	;;
rt)
	"$here/kernel-pkgs.sh" lts-rt
	echo "MEM=1024"
	;;
mainline|debug)
	out=$("$here/build-kernel.sh" "$flavour")
	echo "KDIR=$out"
	echo "KIMAGE=$out/arch/x86/boot/bzImage"
	echo "KVER=$(cat "$out/include/config/kernel.release")"
	[ "$flavour" = debug ] && echo "MEM=2048" || echo "MEM=1024"
	;;
*)
	echo "kernel-flavour.sh: unknown kernel flavour '$flavour' (stock, lts, rt, mainline, debug)" >&2
	exit 2
	;;
esac
