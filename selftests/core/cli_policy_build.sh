#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A policy built outside the tree with the documented commands
# (Documentation/policies.rst, "Building a policy"): an example copied to
# a scratch directory, built by `make -C <tree>/examples/policies M=DIR`
# (the .so without kernel headers: KDIR pointing nowhere; the .ko too when
# the machine has kernel headers and the tree's vgpu_dispatch.ko is
# built), and by cc with `pkg-config --cflags vgpu-policy` against the
# installed header set (make install-policy-dev DESTDIR=...); each .so
# runs under vgpu-sim exactly as the tree's own build of the example.
# Run from the repository root; prints TAP.
set -u
SIM=${VGPU_SIM:-build/vgpu-sim-asan}
. "$(dirname "$0")/tap.sh"
MAKE=${MAKE:-make}
WL=examples/standard-mix.json

hash_of() {
	"$SIM" run "$WL" --policy "$1" 2>/dev/null | sed -n 's/^trace_hash=//p'
}
want=$(hash_of build/policies/fifo.so)
check "the tree's fifo.so runs" "[ -n '$want' ]"

mkdir -p "$TMP/so" "$TMP/ko" "$TMP/root"
cp examples/policies/fifo.c "$TMP/so/"
$MAKE -s -C examples/policies M="$TMP/so" KDIR=/nonexistent \
	> "$TMP/so.out" 2> "$TMP/so.err"
check "make -C examples/policies M=DIR: succeeds without kernel headers" \
	"[ \$? -eq 0 ]"
check "... builds DIR/fifo.so" "[ -s $TMP/so/fifo.so ]"
check "... and says the modules were not built" \
	"grep -q 'no kernel headers' $TMP/so.err && ! ls $TMP/so/*.ko > /dev/null 2>&1"
check "... the .so runs as the tree's build" \
	"[ \"\$(hash_of $TMP/so/fifo.so)\" = '$want' ]"

$MAKE -s -C examples/policies > /dev/null 2>&1
check "make -C examples/policies without M=: an error" "[ \$? -ne 0 ]"

$MAKE -s install-policy-dev DESTDIR="$TMP/root" PREFIX=/usr > /dev/null 2>&1
check "make install-policy-dev DESTDIR=: succeeds" "[ \$? -eq 0 ]"
cflags=$(PKG_CONFIG_SYSROOT_DIR="$TMP/root" \
	PKG_CONFIG_LIBDIR="$TMP/root/usr/lib/pkgconfig" \
	pkg-config --cflags vgpu-policy 2> /dev/null | sed "s/ *$//")
check "pkg-config --cflags vgpu-policy: the installed header directory" \
	"[ '$cflags' = '-I$TMP/root/usr/include/vgpu-policy' ]"
check "... holding vgpu_policy.h" \
	"[ -f $TMP/root/usr/include/vgpu-policy/vgpu_policy.h ]"
# shellcheck disable=SC2086
(cd "$TMP/so" && ${CC:-cc} $cflags -O2 -fPIC -shared -o pc.so fifo.c) \
	> "$TMP/pc.err" 2>&1
check "cc \$(pkg-config --cflags vgpu-policy) -fPIC -shared: builds" \
	"[ \$? -eq 0 ] && [ -s $TMP/so/pc.so ]"
check "... and it runs as the tree's build" \
	"[ \"\$(hash_of $TMP/so/pc.so)\" = '$want' ]"

# the .ko: only where the module can be built (kernel headers, and the
# tree's vgpu_dispatch.ko for its Module.symvers)
kdir=/lib/modules/$(uname -r)/build
[ -d "$kdir" ] || kdir=$(scripts/kernel-flavour.sh stock 2>/dev/null |
	sed -n 's/^KDIR=//p')
if [ -n "$kdir" ] && [ -d "$kdir" ] && [ -f Module.symvers ]; then
	cp examples/policies/fifo.c "$TMP/ko/"
	$MAKE -s -C examples/policies M="$TMP/ko" > "$TMP/ko.out" 2>&1
	check "make -C examples/policies M=DIR: builds vgpu_policy_fifo.ko" \
		"[ \$? -eq 0 ] && [ -s $TMP/ko/vgpu_policy_fifo.ko ]"
	check "... which needs vgpu_dispatch" \
		"modinfo -F depends $TMP/ko/vgpu_policy_fifo.ko | grep -qx vgpu_dispatch"
else
	ok "make -C examples/policies M=DIR: vgpu_policy_fifo.ko # SKIP no kernel headers or no vgpu_dispatch.ko built"
fi
echo "1..$n"
exit $fail
