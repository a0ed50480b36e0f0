#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# install-deps.sh - install (idempotently) every Debian package of the
# machine's own suite that the build, the tests, the kernels and the demo
# need.  Fast no-op when all are present; otherwise runs apt-get update once
# and installs what is missing.  Kernels of other suites (6.12, its RT
# flavour, the newest source) are never installed: scripts/kernel-pkgs.sh
# unpacks them into the cache.
#
# install-deps.sh --check GROUP... installs nothing: it prints one line
# naming the packages of GROUP that are missing and exits 1 (the build
# targets use it, so a plain `make` never runs apt-get).  Groups:
#   native   the userspace libraries, vgpuctl, vgpu-sim, the policy objects
#   module   the module against Debian 12's own kernel headers
#   harness  the kselftest harness of the unit tests and the VM programs
#   vm-bin   the static and 32-bit VM programs
set -eu

# native: compiler and the libraries of libvgpu and libvgpu-workload
PKGS_NATIVE="gcc libc6-dev libnl-3-dev libnl-genl-3-dev libjson-c-dev libsqlite3-dev"
PKGS_MODULE="linux-headers-amd64"
PKGS_HARNESS="linux-source-6.1"
PKGS_VMBIN="gcc-multilib"
PKGS="
$PKGS_NATIVE $PKGS_MODULE $PKGS_HARNESS $PKGS_VMBIN
linux-image-amd64
qemu-system-x86 busybox-static cpio
libnl-utils sqlite3
sparse bc flex bison libelf-dev libssl-dev rsync
clang libclang-rt-14-dev dkms python3
gnuplot-nox python3-sphinx dwarves
"

# The packages of $@ that are not installed, on one line.
vgpu_missing() {
	for p in "$@"; do
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
			printf ' %s' "$p"
		fi
	done
}

if [ "${1:-}" = "--check" ]; then
	shift
	want=""
	for g in "$@"; do
		case $g in
		native) want="$want $PKGS_NATIVE" ;;
		module) want="$want $PKGS_MODULE" ;;
		harness) want="$want $PKGS_HARNESS" ;;
		vm-bin) want="$want $PKGS_VMBIN" ;;
		*) echo "install-deps.sh: unknown group '$g'" >&2; exit 2 ;;
		esac
	done
	# shellcheck disable=SC2086
	missing=$(vgpu_missing $want)
	[ -z "$missing" ] && exit 0
	echo "vgpu-dispatch: missing Debian packages:$missing ('make deps' installs them)" >&2
	exit 1
fi

# shellcheck disable=SC2086
missing=$(vgpu_missing $PKGS)
[ -z "$missing" ] && exit 0

echo "install-deps.sh: installing:$missing" >&2
if [ "$(id -u)" != 0 ]; then
	if ! command -v sudo > /dev/null; then
		echo "install-deps.sh: missing Debian packages:$missing; run 'make deps' as root" >&2
		exit 1
	fi
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
