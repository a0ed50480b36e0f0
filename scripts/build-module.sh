#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# build-module.sh KDIR OUTDIR - build vgpu_dispatch.ko against KDIR in a copy
# of the sources under OUTDIR (so builds for several kernels coexist and the
# work tree stays clean).  Prints the path of the .ko.
set -eu
kdir=$1
mkdir -p "$2"
out=$(cd "$2" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
# Copy by content (-c), and rebuild from scratch when anything changed:
# kbuild trusts mtimes, and sources edited while a build runs (several
# developers share a tree) must never leave a stale object behind.
changed=$(rsync -rlc --delete --itemize-changes \
	--exclude='*.o' --exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' \
	--exclude='.*.cmd' --exclude='modules.order' --exclude='Module.symvers' \
	--include='/Kbuild' --include='/driver/***' --include='/uapi/***' \
	--include='/examples/' --include='/examples/policies/***' \
	--include='/selftests/' --include='/selftests/vgpu/' \
	--include='/selftests/vgpu/policies/***' \
	--include='/selftests/core/' --include='/selftests/core/Kbuild' \
	--include='/selftests/core/*.[ch]' --include='/selftests/core/kunit/***' \
	--include='/userspace/' --include='/userspace/include/***' \
	--include='/userspace/core/***' \
	--include='/userspace/libworkload/' \
	--include='/userspace/libworkload/vasm.c' \
	--include='/userspace/libworkload/workload_core.h' \
	--exclude='*' "$top/" "$out/src/")
if [ -n "$changed" ] || [ ! -f "$out/driver/vgpu_dispatch.ko" ]; then
	find "$out" -path "$out/src" -prune -o -type f -print | xargs -r rm -f
	cp -a "$out/src/." "$out/"
fi
log=$out/build.log
if ! make -C "$kdir" M="$out" W=1 modules > "$log" 2>&1; then
	cat "$log" >&2
	echo "build-module.sh: module build against $kdir failed" >&2
	exit 1
fi
# Warnings are errors for us: show them and fail (VGPU_ALLOW_WARNINGS=1
# lets a developer try a work in progress in the VM anyway).
if grep -E 'warning:|error:' "$log" >&2 && [ -z "${VGPU_ALLOW_WARNINGS:-}" ]; then
	echo "build-module.sh: compiler warnings in module build ($log)" >&2
	exit 1
fi
echo "$out/driver/vgpu_dispatch.ko"
