#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# build-kernel.sh debug|mainline - build a kernel from the newest kernel
# source Debian carries (scripts/kernel-pkgs.sh mainline) once and cache it
# outside the repository, keyed by the source version and a hash of the
# fragments, the toolchain (gcc, pahole: a module build warns when pahole
# differs from the kernel's) and BUILD_KEY, which changes when the way the
# kernel is built here changes (not for edits that leave the result alone):
#
#   mainline   allnoconfig + scripts/kconfig/base.config + mainline.config
#   debug      allnoconfig + base.config + debug.config (KASAN, lockdep,
#              UBSAN, kmemleak, failslab, KUnit, ...: `make check-debug`)
#
# Prints the build directory (usable as KDIR for the module; its
# arch/x86/boot/bzImage is what the VM boots).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache=${VGPU_CACHE:-/var/cache/vgpu-dispatch}
flavour=${1:-debug}
case "$flavour" in
mainline) frags="$here/kconfig/base.config $here/kconfig/mainline.config" ;;
debug) frags="$here/kconfig/base.config $here/kconfig/debug.config" ;;
*) echo "usage: build-kernel.sh debug|mainline" >&2; exit 2 ;;
esac
src=$("$here/kernel-pkgs.sh" mainline | sed -n 's/^KSRC=//p')
[ -n "$src" ] || exit 1
srcver=${src##*/mainline-}
# shellcheck disable=SC2086
BUILD_KEY=1
key=$({ echo "$BUILD_KEY"; cat $frags; gcc --version | head -n 1
	pahole --version 2>/dev/null || true; } | sha256sum | cut -c1-16)
out=$cache/kbuild/$flavour-$srcver-$key

# One build at a time per flavour; a second caller waits and reuses it.
mkdir -p "$cache/kbuild"
exec 9> "$cache/kbuild/.$flavour.lock"
flock 9
if [ -f "$out/.vgpu-built" ]; then
	echo "$out"
	exit 0
fi

echo "build-kernel.sh: building the $flavour kernel ($srcver) in $out (first time only, about 5 min on 2 cores)" >&2
rm -rf "$out"
mkdir -p "$out"
log=$out/build.log
# shellcheck disable=SC2086
cat $frags > "$out/fragment.config"
make -C "$src" O="$out" KCONFIG_ALLCONFIG="$out/fragment.config" allnoconfig > "$log" 2>&1

# Every option of the fragments must have survived Kconfig's dependency checks.
bad=0
grep '^CONFIG_' "$out/fragment.config" | while IFS= read -r line; do
	if ! grep -qx "$line" "$out/.config"; then
		echo "build-kernel.sh: $line did not stick in .config" >&2
		exit 1
	fi
done || bad=1
if [ "$bad" != 0 ]; then
	exit 1
fi

jobs=$(nproc)
if ! make -C "$src" O="$out" -j"$jobs" bzImage modules >> "$log" 2>&1; then
	tail -n 40 "$log" >&2
	echo "build-kernel.sh: kernel build failed, see $log" >&2
	exit 1
fi
cp "$src/.vgpu-versions" "$out/.vgpu-versions"
touch "$out/.vgpu-built"
# Older builds of this flavour are dead weight (about 500 MB each).
for old in "$cache/kbuild/$flavour"-*; do
	[ "$old" = "$out" ] || rm -rf "$old"
done
echo "$out"
