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
	echo "kernel-src.sh: /usr/src/linux-source-6.1.tar.xz missing; run scripts/install-deps.sh" >&2
	exit 1
fi
dst=$cache/linux-source-6.1
stamp=$dst/.vgpu-unpacked
if [ ! -f "$stamp" ] || [ "$tarball" -nt "$stamp" ]; then
	mkdir -p "$cache"
	rm -rf "$dst" "$dst.tmp"
	mkdir -p "$dst.tmp"
	echo "kernel-src.sh: unpacking $tarball into $dst" >&2
	tar -xJf "$tarball" -C "$dst.tmp" --strip-components=1
	touch "$dst.tmp/.vgpu-unpacked"
	mv "$dst.tmp" "$dst"
fi
echo "$dst"
