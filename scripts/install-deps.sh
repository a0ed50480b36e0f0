#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# install-deps.sh - install (idempotently) every Debian package of the
# machine's own suite that the build, the tests, the kernels and the demo
# need.  Fast no-op when all are present; otherwise runs apt-get update once
# and installs what is missing.  Kernels of other suites (6.12, its RT
# flavour, the newest source) are never installed: scripts/kernel-pkgs.sh
# unpacks them into the cache.
set -eu

PKGS="
linux-headers-amd64 linux-image-amd64 linux-source-6.1
qemu-system-x86 busybox-static cpio
libnl-3-dev libnl-genl-3-dev libnl-utils libjson-c-dev libsqlite3-dev sqlite3
sparse bc flex bison libelf-dev libssl-dev rsync
clang libclang-rt-14-dev dkms python3 gcc-multilib
gnuplot-nox python3-sphinx dwarves
"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
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
