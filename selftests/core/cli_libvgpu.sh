#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Packaging of the two libraries (F66): libvgpu (the device API,
# LGPL-2.1 OR GPL-2.0, no core linked in) and libvgpu-workload (workloads,
# recordings, assembler, metrics, reports; GPL-2.0, the core linked in):
# sonames, exported symbols equal to each version script, licences,
# `make install` into a DESTDIR, and programs built with the installed
# .pc files against the shared and the static libraries.
# Run from the repository root after `make lib tools sim`; prints TAP.
set -u
LIB=build/lib
. "$(dirname "$0")/tap.sh"

# exports NAME MAP: the sorted exports of build/lib/NAME.so, and of MAP
exports() {
	sed -n 's/^	\(vgpul_[a-z0-9_]*\);$/\1/p' "$2" | sort > "$TMP/want-$1"
	nm -D --defined-only "$LIB/$1.so" |
		awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort > "$TMP/have-$1"
	[ -s "$TMP/want-$1" ] && cmp -s "$TMP/want-$1" "$TMP/have-$1"
}

echo "TAP version 13"
echo "1..18"
check "soname of libvgpu is libvgpu.so.2" \
	"readelf -d $LIB/libvgpu.so | grep -q 'Library soname: \[libvgpu.so.2\]'"
check "soname of libvgpu-workload is libvgpu-workload.so.1" \
	"readelf -d $LIB/libvgpu-workload.so | grep -q 'Library soname: \[libvgpu-workload.so.1\]'"
check "libvgpu exports exactly userspace/lib/libvgpu.map" \
	"exports libvgpu userspace/lib/libvgpu.map"
check "libvgpu-workload exports exactly userspace/libworkload/libvgpu-workload.map" \
	"exports libvgpu-workload userspace/libworkload/libvgpu-workload.map"
check "no function is exported by both" \
	"[ -z \"\$(comm -12 $TMP/have-libvgpu $TMP/have-libvgpu-workload)\" ]"
check "libvgpu's exports are in <vgpu/vgpu.h>, the others in the other public headers" \
	"! for f in \$(cat $TMP/want-libvgpu); do grep -q \"\\<\$f(\" userspace/include/vgpu/vgpu.h || echo \$f; done | grep -q . &&
	 ! for f in \$(cat $TMP/want-libvgpu-workload); do grep -q \"\\<\$f(\" \$(ls userspace/include/vgpu/*.h | grep -v /vgpu.h) || echo \$f; done | grep -q ."
check "no export is named as a function of driver/ (vgpu_ioctl, ...)" \
	"! for f in \$(cat $TMP/have-libvgpu $TMP/have-libvgpu-workload); do grep -rqw \"\$f\" driver && echo \$f; done | grep -q ."
check "public headers include only <vgpu/...>, <linux/...> and libc" \
	"! grep -h '^#include' userspace/include/vgpu/*.h | grep -v '<\\(vgpu/\\|linux/\\|std[a-z]*\\.h\\)' | grep -q ."
# libvgpu: LGPL, no core: its sources and <vgpu/vgpu.h> carry the LGPL
# tag, include no quoted header, and the library defines no core symbol
lgpl() {
	for f in userspace/lib/* userspace/include/vgpu/vgpu.h; do
		head -n 2 "$f" | grep -q 'SPDX-License-Identifier: LGPL-2.1 OR GPL-2.0' || return 1
	done
	! grep -h '^#include "' userspace/lib/*.c | grep -q . &&
		! grep -h '^#include' userspace/include/vgpu/vgpu.h | grep -v '<\(linux/\|std[a-z]*\.h\)' | grep -q . &&
		! nm $LIB/libvgpu.so | grep -q ' vgpu_gpu_\| vgpu_sm_\| vgpu_isa_'
}
check "libvgpu is LGPL-2.1 OR GPL-2.0 throughout and links nothing of the core" lgpl
# libvgpu-workload reaches the core only through workload_core.h
wl_core_door() {
	grep -h '^#include "' $(ls userspace/libworkload/*.[ch] | grep -v workload_core.h) |
		grep -qv '"\(workload_core\|import_internal\|import_stream\|recording\|workload_internal\)\.h"' && return 1
	for h in driver/core/*.h userspace/core/*.h; do
		grep -l "^#include \"$(basename "$h")\"" userspace/libworkload/*.c userspace/libworkload/*.h
	done | sort -u | grep -qvx userspace/libworkload/workload_core.h && return 1
	grep -q '^#include "gpu.h"' userspace/libworkload/workload_core.h &&
		nm $LIB/libvgpu-workload.so | grep -q ' vgpu_gpu_init$'
}
check "libvgpu-workload links the core and reaches it only through workload_core.h" wl_core_door
check "symbols are versioned LIBVGPU_2 and LIBVGPU_WORKLOAD_1" \
	"nm -D --defined-only $LIB/libvgpu.so | grep -q ' vgpul_submit@@LIBVGPU_2$' &&
	 nm -D --defined-only $LIB/libvgpu-workload.so | grep -q ' vgpul_workload_load@@LIBVGPU_WORKLOAD_1$'"
check "make install PREFIX=/usr DESTDIR=... (pkg-config files name /usr)" \
	"make --no-print-directory -s install PREFIX=/usr DESTDIR=$TMP/root > $TMP/install.log 2>&1"
for f in usr/lib/libvgpu.so.2 usr/lib/libvgpu.so.2.0.0 usr/lib/libvgpu.so \
	 usr/lib/libvgpu.a usr/lib/pkgconfig/libvgpu.pc \
	 usr/lib/libvgpu-workload.so.1 usr/lib/libvgpu-workload.so \
	 usr/lib/libvgpu-workload.a usr/lib/pkgconfig/libvgpu-workload.pc \
	 usr/include/vgpu/vgpu.h usr/include/vgpu/workload.h \
	 usr/include/linux/vgpu_netlink.h usr/bin/vgpuctl usr/bin/vgpu-sim \
	 usr/share/man/man1/vgpuctl.1 usr/share/man/man1/vgpu-sim.1 \
	 usr/share/man/man3/libvgpu.3 usr/share/man/man3/libvgpu-workload.3; do
	[ -e "$TMP/root/$f" ] || echo "missing $f" >> "$TMP/missing"
done
check "installed files" "[ ! -e $TMP/missing ] && grep -q '^libdir=/usr/lib$' $TMP/root/usr/lib/pkgconfig/libvgpu.pc &&
	grep -q '^libdir=/usr/lib$' $TMP/root/usr/lib/pkgconfig/libvgpu-workload.pc"
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
# A program of the device API alone: libvgpu is all it needs.
cat > "$TMP/d.c" <<'PROG'
#include <errno.h>
#include <stdio.h>
#include <vgpu/vgpu.h>
int main(void)
{
	struct vgpu_dev dev;

	puts(vgpul_nl_preempt_name(VGPU_PREEMPT_MODE_WARP));
	return vgpul_dev_open(99, &dev) == -ENOENT ? 0 : 1;
}
PROG
# a second install without DESTDIR, into a prefix the compiler can use
make --no-print-directory -s install PREFIX=$TMP/pfx > "$TMP/install2.log" 2>&1
PC="env PKG_CONFIG_PATH=$TMP/pfx/lib/pkgconfig pkg-config"
check "builds and runs against both shared libraries" \
	"cc -o $TMP/p $TMP/p.c \$($PC --cflags --libs libvgpu libvgpu-workload) && LD_LIBRARY_PATH=$TMP/pfx/lib $TMP/p | grep -q '^switch$'"
check "every installed header compiles alone; a workload loads through them" \
	"LD_LIBRARY_PATH=$TMP/pfx/lib $TMP/p examples/standard-mix.json | grep -q '^kernels=3 prios=4 small policy=rr preempt=warp pack=auto epoch=[0-9]'"
check "the program needs libvgpu.so.2 and libvgpu-workload.so.1" \
	"readelf -d $TMP/p | grep -q 'NEEDED.*\[libvgpu.so.2\]' && readelf -d $TMP/p | grep -q 'NEEDED.*\[libvgpu-workload.so.1\]'"
check "a device-API program links libvgpu alone (no json-c, no sqlite)" \
	"cc -o $TMP/d $TMP/d.c \$($PC --cflags --libs libvgpu) && LD_LIBRARY_PATH=$TMP/pfx/lib $TMP/d | grep -q '^warp$' &&
	 ! LD_LIBRARY_PATH=$TMP/pfx/lib ldd $TMP/d | grep -q 'json-c\|sqlite\|libvgpu-workload'"
check "builds against the static libraries" \
	"cc -static -o $TMP/ps $TMP/p.c \$($PC --cflags libvgpu libvgpu-workload) $TMP/pfx/lib/libvgpu-workload.a $TMP/pfx/lib/libvgpu.a \$($PC --static --libs libvgpu libvgpu-workload | sed 's/-L[^ ]* //; s/-lvgpu-workload//; s/-lvgpu//') 2>/dev/null && $TMP/ps | grep -q '^switch$'"
exit $fail
