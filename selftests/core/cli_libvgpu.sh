#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# libvgpu packaging (F66): the soname, the exported symbols equal the
# version script's list, `make install` into a DESTDIR, and a program built
# with the installed libvgpu.pc against the shared and the static library.
# Run from the repository root after `make lib tools sim`; prints TAP.
set -u
LIB=build/lib
. "$(dirname "$0")/tap.sh"

echo "TAP version 13"
echo "1..13"
check "soname is libvgpu.so.1" \
	"readelf -d $LIB/libvgpu.so | grep -q 'Library soname: \[libvgpu.so.1\]'"
sed -n 's/^	\(vgpul_[a-z0-9_]*\);$/\1/p' userspace/lib/libvgpu.map | sort > "$TMP/want"
nm -D --defined-only $LIB/libvgpu.so | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' |
	sort > "$TMP/have"
check "exports exactly the version script ($(wc -l < "$TMP/want") functions)" \
	"cmp -s $TMP/want $TMP/have"
check "every export is in a public header (userspace/include/vgpu)" \
	"! for f in \$(cat $TMP/want); do grep -q \"\\<\$f(\" userspace/include/vgpu/*.h || echo \$f; done | grep -q ."
check "no export is named as a function of driver/ (vgpu_ioctl, ...)" \
	"[ -s $TMP/have ] && ! for f in \$(cat $TMP/have); do grep -rqw \"\$f\" driver && echo \$f; done | grep -q ."
check "public headers include only <vgpu/...>, <linux/...> and libc" \
	"! grep -h '^#include' userspace/include/vgpu/*.h | grep -v '<\\(vgpu/\\|linux/\\|std[a-z]*\\.h\\)' | grep -q ."
# the lib's quoted includes are its own headers; the core's headers are
# named in libvgpu_core.h only
lib_core_door() {
	grep -h '^#include "' $(ls userspace/lib/*.[ch] | grep -v libvgpu_core.h) |
		grep -qv '"\(libvgpu_core\|import_internal\|import_stream\|workload_internal\|cli\)\.h"' && return 1
	for h in driver/core/*.h; do
		grep -l "^#include \"$(basename "$h")\"" userspace/lib/*.c userspace/lib/*.h
	done | sort -u | grep -qvx userspace/lib/libvgpu_core.h && return 1
	grep -q '^#include "gpu.h"' userspace/lib/libvgpu_core.h
}
check "userspace/lib reaches driver/core only through libvgpu_core.h" lib_core_door
check "symbols are versioned LIBVGPU_1" \
	"nm -D --defined-only $LIB/libvgpu.so | grep -q ' vgpul_submit@@LIBVGPU_1$'"
check "make install PREFIX=/usr DESTDIR=... (pkg-config file names /usr)" \
	"make --no-print-directory -s install PREFIX=/usr DESTDIR=$TMP/root > $TMP/install.log 2>&1"
for f in usr/lib/libvgpu.so.1 usr/lib/libvgpu.a usr/lib/pkgconfig/libvgpu.pc \
	 usr/include/vgpu/vgpu.h usr/include/linux/vgpu_netlink.h usr/bin/vgpuctl \
	 usr/share/man/man1/vgpuctl.1 usr/share/man/man3/libvgpu.3; do
	[ -e "$TMP/root/$f" ] || echo "missing $f" >> "$TMP/missing"
done
check "installed files" "[ ! -e $TMP/missing ] && grep -q '^libdir=/usr/lib$' $TMP/root/usr/lib/pkgconfig/libvgpu.pc"
# Every public header on its own: the program sees the installed include
# directory only (no driver/core), loads examples/standard-mix.json (the
# small preset, policy rr, warp preemption, three kernels) and prints the
# module's new_device options for it.
cat > "$TMP/p.c" <<'PROG'
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <vgpu/vgpu.h>
#include <vgpu/vasm.h>
#include <vgpu/metrics.h>
#include <vgpu/workload.h>
#include <vgpu/import.h>
#include <vgpu/report.h>
int main(int argc, char **argv)
{
	struct vgpu_workload wl;
	struct vgpu_dev dev;
	char line[512], err[512];

	if (vgpul_dev_open(99, &dev) != -ENOENT)
		return 1;
	puts(vgpul_nl_preempt_name(VGPU_PREEMPT_MODE_SWITCH));
	if (argc > 1) {
		if (vgpul_workload_load(argv[1], &wl, err, sizeof(err)) ||
		    vgpul_workload_new_device(&wl, line, sizeof(line), err,
					      sizeof(err)))
			return 1;
		printf("kernels=%u prios=%u %s\n", wl.nkernels,
		       vgpul_workload_num_prios(&wl), line);
		vgpul_workload_free(&wl);
	}
	return strstr(vgpul_strerror(-ENOENT), "modprobe") ? 0 : 1;
}
PROG
# a second install without DESTDIR, into a prefix the compiler can use
make --no-print-directory -s install PREFIX=$TMP/pfx > "$TMP/install2.log" 2>&1
PC="env PKG_CONFIG_PATH=$TMP/pfx/lib/pkgconfig pkg-config"
check "builds and runs against the shared library" \
	"cc -o $TMP/p $TMP/p.c \$($PC --cflags --libs libvgpu) && LD_LIBRARY_PATH=$TMP/pfx/lib $TMP/p | grep -q '^switch$'"
check "every installed header compiles alone; a workload loads through them" \
	"LD_LIBRARY_PATH=$TMP/pfx/lib $TMP/p examples/standard-mix.json | grep -q '^kernels=3 prios=4 small policy=rr preempt=warp pack=auto epoch=[0-9]'"
check "the program needs libvgpu.so.1" \
	"readelf -d $TMP/p | grep -q 'NEEDED.*\[libvgpu.so.1\]'"
check "builds against the static library" \
	"cc -static -o $TMP/ps $TMP/p.c \$($PC --cflags libvgpu) $TMP/pfx/lib/libvgpu.a \$($PC --static --libs libvgpu | sed 's/-L[^ ]* //; s/-lvgpu//') 2>/dev/null && $TMP/ps | grep -q '^switch$'"
exit $fail
