#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kernel-src.sh - unpack Debian's linux-source-6.1 into the cache (once) and
# print its path.  The tree provides checkpatch.pl, kselftest_harness.h and
# the sources of the debug kernel; nothing from it is copied into this repo.
set -eu
cache=${VGPU_CACHE:-/var/cache/vgpu-dispatch}
tarball=$(ls /usr/src/linux-source-6.1.tar.xz 2>/dev/null || true)
if [ -z "$tarball" ]; then
	echo "vgpu-dispatch: missing Debian package linux-source-6.1 (the kselftest harness, checkpatch.pl; 'make deps' installs it)" >&2
	exit 1
fi
dst=$cache/linux-source-6.1
stamp=$dst/.vgpu-unpacked
if [ ! -f "$stamp" ] || [ "$tarball" -nt "$stamp" ]; then
	mkdir -p "$cache"
	# a private directory: two makes running at once must not unpack
	# into (or delete) the same one
	tmp=$(mktemp -d "$dst.tmp.XXXXXX")
	echo "kernel-src.sh: unpacking $tarball into $dst" >&2
	tar -xJf "$tarball" -C "$tmp" --strip-components=1
	touch "$tmp/.vgpu-unpacked"
	if [ -f "$stamp" ] && [ ! "$tarball" -nt "$stamp" ]; then
		rm -rf "$tmp"	# another make unpacked it meanwhile
	else
		rm -rf "$dst"
		mv -T "$tmp" "$dst"
	fi
fi
echo "$dst"
