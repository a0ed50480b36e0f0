#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# install-deps.sh [rt] - install (idempotently) every Debian package the
# build, the tests, the debug kernel and the demo need.  Fast no-op when all
# are present; otherwise runs apt-get update once and installs what is
# missing.  With "rt": only the PREEMPT_RT kernel and its headers, which
# `make check-rt` needs (scripts/vm-run --kernel rt calls this lazily).
set -eu

PKGS="
linux-headers-amd64 linux-image-amd64 linux-source-6.1
qemu-system-x86 busybox-static cpio
libnl-3-dev libnl-genl-3-dev libnl-utils libjson-c-dev
sparse bc flex bison libelf-dev libssl-dev rsync
clang libclang-rt-14-dev dkms python3 gcc-multilib
gnuplot-nox python3-sphinx
"
if [ "${1:-}" = rt ]; then
	PKGS="linux-image-rt-amd64 linux-headers-rt-amd64"
fi

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

echo "install-deps.sh: installing:$missing" >&2
if [ "$(id -u)" != 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
