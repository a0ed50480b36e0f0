#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# build-debug-kernel.sh - build the debug kernel of `make check-debug`
# (linux-source-6.1, allnoconfig + scripts/kconfig/debug.config) once and
# cache it outside the repository, keyed by a hash of the fragment and of this
# script.  Prints the build directory (usable as KDIR for the module; its
# arch/x86/boot/bzImage is what the VM boots).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache=${VGPU_CACHE:-/var/cache/vgpu-dispatch}
src=$("$here/kernel-src.sh")
frag=$here/kconfig/debug.config
key=$(cat "$frag" "$0" | sha256sum | cut -c1-16)
out=$cache/debug-kernel-$key

if [ -f "$out/.vgpu-built" ]; then
	echo "$out"
	exit 0
fi

echo "build-debug-kernel.sh: building debug kernel in $out (first time only, ~10 min)" >&2
rm -rf "$out"
mkdir -p "$out"
log=$out/build.log
make -C "$src" O="$out" KCONFIG_ALLCONFIG="$frag" allnoconfig > "$log" 2>&1

# Every option of the fragment must have survived Kconfig's dependency checks.
bad=0
grep '^CONFIG_' "$frag" | while IFS= read -r line; do
	if ! grep -qx "$line" "$out/.config"; then
		echo "build-debug-kernel.sh: $line did not stick in .config" >&2
		exit 1
	fi
done || bad=1
if [ "$bad" != 0 ]; then
	exit 1
fi

jobs=$(nproc)
if ! make -C "$src" O="$out" -j"$jobs" bzImage modules >> "$log" 2>&1; then
	tail -n 40 "$log" >&2
	echo "build-debug-kernel.sh: kernel build failed, see $log" >&2
	exit 1
fi
touch "$out/.vgpu-built"
echo "$out"
