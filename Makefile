# SPDX-License-Identifier: GPL-2.0
#
# vgpu-dispatch top-level Makefile.
#
#   make               module (against KDIR) + libvgpu + tools + vgpu-sim
#   make check         every test: core unit tests, checkpatch, sparse, VM suite
#   make check-debug   the VM suite on the debug kernel (KASAN, lockdep, ...)
#   make demo          the main job: boot the VM, load the module, run the demo
#
# The module is built by kbuild (Kbuild, driver/Kbuild).  Everything else is
# built into build/, never next to kbuild objects.

BUILD		:= build
VGPU_CACHE	?= /var/cache/vgpu-dispatch
export VGPU_CACHE

# Kernel to build the module against (for `make` / `make install`): the
# running kernel's build tree, else Debian 12's own headers (the `stock`
# flavour of scripts/kernel-flavour.sh: linux-headers-amd64's 6.1, never a
# 6.12 that happens to be installed beside it).
STOCK_KDIR ?= $(shell scripts/kernel-flavour.sh stock 2>/dev/null | sed -n 's/^KDIR=//p')
KDIR ?= $(shell if [ -d /lib/modules/$$(uname -r)/build ]; then \
	echo /lib/modules/$$(uname -r)/build; else echo "$(STOCK_KDIR)"; fi)
# linux-source-6.1, unpacked into the cache on demand (checkpatch, harness).
KSRC = $(VGPU_CACHE)/linux-source-6.1

CC		?= cc
CLANG		?= clang
PKG_CONFIG	?= pkg-config

# ---------------------------------------------------------------------------
# Native builds of driver/core (unit tests, vgpu-sim) and userspace.
# ---------------------------------------------------------------------------
CORE_SRCS	:= $(wildcard driver/core/*.c)
CORE_HDRS	:= $(wildcard driver/core/*.h) uapi/linux/vgpu_dispatch.h \
		   userspace/shim/vgpu_os_user.h
LIB_SRCS	:= $(wildcard userspace/lib/*.c)
LIB_HDRS	:= $(wildcard userspace/lib/*.h userspace/include/vgpu/*.h)
SIM_SRCS	:= $(wildcard userspace/sim/*.c)
SIM_HDRS	:= $(wildcard userspace/sim/*.h)
CTL_SRCS	:= $(wildcard userspace/tools/vgpuctl/*.c)
CTL_HDRS	:= $(wildcard userspace/tools/vgpuctl/*.h)
CORE_TEST_SRCS	:= $(wildcard selftests/core/test_*.c)

# libnl-3 / libnl-genl-3 (libvgpu's netlink part, userspace/lib/vgpu_nl.c).
NL_CFLAGS	:= -I/usr/include/libnl3
NL_LIBS		:= -lnl-genl-3 -lnl-3
NATIVE_INC	:= -Iuserspace/shim -Idriver/core -Iuapi -Iuserspace/include \
		   -Iuserspace/lib $(NL_CFLAGS)
NATIVE_WARN	:= -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare \
		   -Wno-missing-field-initializers
NATIVE_CFLAGS	:= -std=gnu11 -g $(NATIVE_WARN) $(NATIVE_INC) -D_GNU_SOURCE
OPT_CFLAGS	:= $(NATIVE_CFLAGS) -O2
SAN_FLAGS	:= -fsanitize=address,undefined -fno-sanitize-recover=all \
		   -fno-omit-frame-pointer
ASAN_CFLAGS	:= $(NATIVE_CFLAGS) -O1 $(SAN_FLAGS)
HARNESS_INC	= -I$(KSRC)/tools/testing/selftests

OPT_CORE_OBJS	:= $(patsubst driver/core/%.c,$(BUILD)/opt/core/%.o,$(CORE_SRCS))
ASAN_CORE_OBJS	:= $(patsubst driver/core/%.c,$(BUILD)/asan/core/%.o,$(CORE_SRCS))
OPT_LIB_OBJS	:= $(patsubst userspace/lib/%.c,$(BUILD)/opt/lib/%.o,$(LIB_SRCS))
ASAN_LIB_OBJS	:= $(patsubst userspace/lib/%.c,$(BUILD)/asan/lib/%.o,$(LIB_SRCS))
OPT_SIM_OBJS	:= $(patsubst userspace/sim/%.c,$(BUILD)/opt/sim/%.o,$(SIM_SRCS))
OPT_CTL_OBJS	:= $(patsubst userspace/tools/vgpuctl/%.c,$(BUILD)/opt/ctl/%.o,$(CTL_SRCS))
ASAN_SIM_OBJS	:= $(patsubst userspace/sim/%.c,$(BUILD)/asan/sim/%.o,$(SIM_SRCS))
CORE_TESTS	:= $(patsubst selftests/core/%.c,$(BUILD)/asan/selftests/core/%,$(CORE_TEST_SRCS))

NATIVE_LIBS	:= -ljson-c -lsqlite3 $(NL_LIBS) -lm -pthread

.PHONY: all module native sim policies core-tests deps ksrc check check-core vm-bin tools \
	checkpatch sparse layering check-vm check-debug debug-kernel demo clean netlink-spec \
	install modules_install vm-shell check-vm-lts check-dkms bench-module lib check-fuzz-module syzkaller-desc mutate htmldocs \
	soak check-rt

# On a fresh machine `make` installs what it needs first (as make check does).
all: deps
	@$(MAKE) --no-print-directory module native

native: sim tools lib

deps:
	@scripts/install-deps.sh

ksrc: deps
	@scripts/kernel-src.sh >/dev/null

# Objects: $(call vgpu_obj_rule,FLAVOUR/PART,SOURCE DIR,CFLAGS,HEADERS)
define vgpu_obj_rule
$(BUILD)/$(1)/%.o: $(2)/%.c $(4)
	@mkdir -p $$(@D)
	$$(CC) $(3) -c -o $$@ $$<
endef
$(eval $(call vgpu_obj_rule,opt/core,driver/core,$$(OPT_CFLAGS),$(CORE_HDRS)))
$(eval $(call vgpu_obj_rule,asan/core,driver/core,$$(ASAN_CFLAGS),$(CORE_HDRS)))
$(eval $(call vgpu_obj_rule,pic/core,driver/core,$$(OPT_CFLAGS) -fPIC,$(CORE_HDRS)))
$(eval $(call vgpu_obj_rule,opt/lib,userspace/lib,$$(OPT_CFLAGS) -fPIC,\
	$(CORE_HDRS) $(LIB_HDRS)))
$(eval $(call vgpu_obj_rule,asan/lib,userspace/lib,$$(ASAN_CFLAGS),\
	$(CORE_HDRS) $(LIB_HDRS)))
$(eval $(call vgpu_obj_rule,opt/sim,userspace/sim,$$(OPT_CFLAGS),\
	$(CORE_HDRS) $(LIB_HDRS) $(SIM_HDRS)))
$(eval $(call vgpu_obj_rule,asan/sim,userspace/sim,$$(ASAN_CFLAGS),\
	$(CORE_HDRS) $(LIB_HDRS) $(SIM_HDRS)))
$(eval $(call vgpu_obj_rule,opt/ctl,userspace/tools/vgpuctl,$$(OPT_CFLAGS),\
	$(CORE_HDRS) $(LIB_HDRS) $(CTL_HDRS)))

# vgpu-sim: optimised (benchmarks, demo) and sanitised (tests).
$(BUILD)/vgpu-sim: $(OPT_SIM_OBJS) $(OPT_LIB_OBJS) $(OPT_CORE_OBJS)
	$(CC) $(OPT_CFLAGS) -o $@ $^ $(NATIVE_LIBS)

$(BUILD)/vgpu-sim-asan: $(ASAN_SIM_OBJS) $(ASAN_LIB_OBJS) $(ASAN_CORE_OBJS)
	$(CC) $(ASAN_CFLAGS) -o $@ $^ $(NATIVE_LIBS)

# ThreadSanitizer build for vgpu-sim run --threads (selftests/core/cli_threads.sh).
$(BUILD)/vgpu-sim-tsan: $(SIM_SRCS) $(LIB_SRCS) $(CORE_SRCS) $(CORE_HDRS) \
		$(LIB_HDRS) $(SIM_HDRS)
	$(CC) $(NATIVE_CFLAGS) -O1 -fsanitize=thread -o $@ $(SIM_SRCS) \
		$(LIB_SRCS) $(CORE_SRCS) $(NATIVE_LIBS)

sim: $(BUILD)/vgpu-sim $(BUILD)/vgpu-sim-asan $(BUILD)/vgpu-sim-tsan

# Scheduling policies (issue 17): each examples/policies/NAME.c is a shared
# object for vgpu-sim here and a kernel module vgpu_policy_NAME.ko built
# with vgpu_dispatch.ko (examples/policies/Kbuild).
POLICY_SRCS	:= $(filter-out %.mod.c,$(wildcard examples/policies/*.c))
POLICY_SOS	:= $(patsubst examples/policies/%.c,$(BUILD)/policies/%.so,$(POLICY_SRCS))

$(BUILD)/policies/%.so: examples/policies/%.c driver/vgpu_policy.h $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(OPT_CFLAGS) -Idriver -fPIC -shared -o $@ $<

policies: $(POLICY_SOS) module

# Native unit tests of driver/core: kselftest_harness.h from linux-source-6.1.
$(BUILD)/asan/selftests/core/%: selftests/core/%.c $(ASAN_LIB_OBJS) $(ASAN_CORE_OBJS) \
		$(CORE_HDRS) $(LIB_HDRS) $(wildcard selftests/core/*.h) | ksrc
	@mkdir -p $(@D)
	$(CC) $(ASAN_CFLAGS) $(HARNESS_INC) -Iselftests/core -o $@ $< \
		$(ASAN_LIB_OBJS) $(ASAN_CORE_OBJS) $(NATIVE_LIBS)

core-tests: $(CORE_TESTS)

# Static programs for the VM (selftests/vgpu/*_test.c, kselftest harness).
VM_TEST_SRCS	:= $(wildcard selftests/vgpu/*_test.c)
VM_TESTS	:= $(patsubst selftests/vgpu/%.c,$(BUILD)/vm-bin/%,$(VM_TEST_SRCS))
VM_CFLAGS	:= -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter \
		   -Wno-sign-compare -Wno-clobbered -Iuapi -Iuserspace/include \
		   -D_GNU_SOURCE

# Per-test extra flags: VM_TEST_CFLAGS_<name>, VM_TEST_LIBS_<name>; tests in
# VM_TESTS_NO32 have no 32-bit build (Debian ships no 32-bit static libnl).
VM_TEST_CFLAGS_vgpu_netlink_test := -I/usr/include/libnl3
VM_TEST_LIBS_vgpu_netlink_test := -lnl-genl-3 -lnl-3
VM_TESTS_NO32	:= vgpu_netlink_test

$(BUILD)/vm-bin/%: selftests/vgpu/%.c uapi/linux/vgpu_dispatch.h \
		$(wildcard uapi/linux/*.h selftests/vgpu/*.h) | ksrc
	@mkdir -p $(@D)
	$(CC) $(VM_CFLAGS) $(VM_TEST_CFLAGS_$*) $(HARNESS_INC) -Iselftests/vgpu \
		-static -pthread -o $@ $< $(VM_TEST_LIBS_$*)

# Tools for the VM: the host's objects, linked statically (the guest has
# no libc).
$(BUILD)/vm-bin/vgpuctl: $(OPT_CTL_OBJS) $(OPT_LIB_OBJS) $(OPT_CORE_OBJS)
	@mkdir -p $(@D)
	$(CC) $(OPT_CFLAGS) -static -o $@ $^ $(NATIVE_LIBS)

$(BUILD)/vm-bin/vgpu-sim: $(OPT_SIM_OBJS) $(OPT_LIB_OBJS) $(OPT_CORE_OBJS)
	@mkdir -p $(@D)
	$(CC) $(OPT_CFLAGS) -static -o $@ $^ $(NATIVE_LIBS)

# JSON checker for selftests/vgpu/vgpuctl.sh (the guest has no python).
$(BUILD)/vm-bin/vgpu_jsoncheck: selftests/vgpu/vgpu_jsoncheck.c
	@mkdir -p $(@D)
	$(CC) $(VM_CFLAGS) -static -o $@ $< -ljson-c

VM_TOOLS	:= $(BUILD)/vm-bin/vgpuctl $(if $(SIM_SRCS),$(BUILD)/vm-bin/vgpu-sim) \
		   $(BUILD)/vm-bin/vgpu_jsoncheck

# Programs run once per suite (smoketest) or by hand (benchmark).
VM_PROGS	:= $(BUILD)/vm-bin/vgpu_smoke $(BUILD)/vm-bin/vgpu_bench \
		   $(BUILD)/vm-bin/vgpu_fuzz $(BUILD)/vm-bin/vgpu_nlfuzz \
		   $(BUILD)/vm-bin/vgpu_lifecycle $(BUILD)/vm-bin/vgpu_hostile

$(VM_PROGS): $(BUILD)/vm-bin/%: selftests/vgpu/%.c uapi/linux/vgpu_dispatch.h \
		$(wildcard selftests/vgpu/*.h) | ksrc
	@mkdir -p $(@D)
	$(CC) $(VM_CFLAGS) $(HARNESS_INC) -Iselftests/vgpu -static -pthread -o $@ $<

# The same tests as 32-bit programs: the compat ioctl path (uapi rule 6).
VM_TESTS32	:= $(addsuffix 32,$(filter-out \
		   $(addprefix $(BUILD)/vm-bin/,$(VM_TESTS_NO32)),$(VM_TESTS)))

$(BUILD)/vm-bin/%_test32: selftests/vgpu/%_test.c uapi/linux/vgpu_dispatch.h \
		$(wildcard selftests/vgpu/*.h) | ksrc
	@mkdir -p $(@D)
	$(CC) -m32 $(VM_CFLAGS) -Wno-pointer-to-int-cast $(HARNESS_INC) \
		-Iselftests/vgpu -static -pthread -o $@ $<

# Workloads and vgpu-sim's output for them (selftests/vgpu/determinism.sh).
$(BUILD)/vm-bin/workloads/.stamp: $(BUILD)/vgpu-sim scripts/make-vm-workloads \
		scripts/gen-workloads.py scripts/gen-trace $(wildcard examples/*.json) $(POLICY_SOS)
	@scripts/make-vm-workloads $(BUILD)/vm-bin/workloads
	@touch $@

vm-bin: $(VM_TESTS) $(VM_TESTS32) $(VM_PROGS) $(VM_TOOLS) \
	$(BUILD)/vm-bin/workloads/.stamp

# Host tools.
$(BUILD)/vgpuctl: $(OPT_CTL_OBJS) $(OPT_LIB_OBJS) $(OPT_CORE_OBJS)
	$(CC) $(OPT_CFLAGS) -o $@ $^ $(NATIVE_LIBS)

tools: $(BUILD)/vgpuctl

# ---------------------------------------------------------------------------
# libvgpu: libvgpu.so.1 (soname, export list userspace/lib/libvgpu.map),
# libvgpu.a, libvgpu.pc; `make install PREFIX=... DESTDIR=...` installs them
# with the public headers, vgpuctl, vgpu-sim and the man pages.
# ---------------------------------------------------------------------------
LIBVGPU_VERSION	:= 1.0.0
LIBVGPU_SONAME	:= libvgpu.so.1
PIC_CORE_OBJS	:= $(patsubst driver/core/%.c,$(BUILD)/pic/core/%.o,$(CORE_SRCS))
LIBVGPU_OBJS	:= $(OPT_LIB_OBJS) $(PIC_CORE_OBJS)
PREFIX		?= /usr/local
LIBDIR		?= $(PREFIX)/lib
INCLUDEDIR	?= $(PREFIX)/include
BINDIR		?= $(PREFIX)/bin
MANDIR		?= $(PREFIX)/share/man
DESTDIR		?=

$(BUILD)/lib/libvgpu.so.$(LIBVGPU_VERSION): $(LIBVGPU_OBJS) \
		userspace/lib/libvgpu.map
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,$(LIBVGPU_SONAME) \
		-Wl,--version-script=userspace/lib/libvgpu.map -Wl,-z,defs \
		-o $@ $(LIBVGPU_OBJS) $(NATIVE_LIBS)
	ln -sf libvgpu.so.$(LIBVGPU_VERSION) $(BUILD)/lib/$(LIBVGPU_SONAME)
	ln -sf $(LIBVGPU_SONAME) $(BUILD)/lib/libvgpu.so

$(BUILD)/lib/libvgpu.a: $(LIBVGPU_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

# libvgpu.pc for the directories in force: $(call vgpu_pc,OUT)
vgpu_pc = sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e 's|@VERSION@|$(LIBVGPU_VERSION)|' userspace/lib/libvgpu.pc.in > $(1)

$(BUILD)/lib/libvgpu.pc: userspace/lib/libvgpu.pc.in
	@mkdir -p $(@D)
	$(call vgpu_pc,$@)

lib: $(BUILD)/lib/libvgpu.so.$(LIBVGPU_VERSION) $(BUILD)/lib/libvgpu.a \
	$(BUILD)/lib/libvgpu.pc

install: lib tools sim
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)/vgpu \
		$(DESTDIR)$(INCLUDEDIR)/linux $(DESTDIR)$(BINDIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3
	install -m 0755 $(BUILD)/lib/libvgpu.so.$(LIBVGPU_VERSION) \
		$(DESTDIR)$(LIBDIR)/
	ln -sf libvgpu.so.$(LIBVGPU_VERSION) \
		$(DESTDIR)$(LIBDIR)/$(LIBVGPU_SONAME)
	ln -sf $(LIBVGPU_SONAME) $(DESTDIR)$(LIBDIR)/libvgpu.so
	install -m 0644 $(BUILD)/lib/libvgpu.a $(DESTDIR)$(LIBDIR)/
	$(call vgpu_pc,$(DESTDIR)$(LIBDIR)/pkgconfig/libvgpu.pc)
	install -m 0644 $(wildcard userspace/include/vgpu/*.h) \
		$(DESTDIR)$(INCLUDEDIR)/vgpu/
	install -m 0644 uapi/linux/vgpu_dispatch.h uapi/linux/vgpu_netlink.h \
		$(DESTDIR)$(INCLUDEDIR)/linux/
	install -m 0755 $(BUILD)/vgpuctl $(BUILD)/vgpu-sim $(DESTDIR)$(BINDIR)/
	install -m 0644 Documentation/man/vgpuctl.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 Documentation/man/libvgpu.3 $(DESTDIR)$(MANDIR)/man3/

# ---------------------------------------------------------------------------
# The module.
# ---------------------------------------------------------------------------
module:
	@[ -n "$(KDIR)" ] && [ -d "$(KDIR)" ] || { echo "vgpu-dispatch: no kernel headers to build the module against: run 'make deps' or pass KDIR=<kernel build tree>" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

modules_install: module
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install

# ---------------------------------------------------------------------------
# Tests.  Every suite writes TAP into $(BUILD)/results/; scripts/tap-summary
# prints the closing "N passed, N failed" line and sets the exit status.
# ---------------------------------------------------------------------------
RESULTS := $(BUILD)/results

check-core: deps core-tests sim lib tools $(POLICY_SOS)
	@scripts/run-core-tests $(RESULTS) $(CORE_TESTS)

# checkpatch.pl types to ignore, each with the reason kernel macros force it.
# None needed so far; keep it that way unless a macro leaves no choice.
CHECKPATCH_IGNORE :=
export CHECKPATCH_IGNORE
# Per file.  driver/vgpu_compat.h is the one place an out-of-tree module
# compares LINUX_VERSION_CODE (issue 15): LINUX_VERSION_CODE is the warning
# against doing so, CONSTANT_COMPARISON takes LINUX_VERSION_CODE for a
# constant on the left of >= and <.
# selftests/core/vgpu_test.h is the kselftest harness's interface over
# KUnit (issue 19): a check is a for statement that runs an optional
# TH_LOG() and bails out (MACRO_WITH_FLOW_CONTROL), a case list entry ends
# in a comma (COMPLEX_MACRO), fixture names are pasted into several
# identifiers (MACRO_ARG_REUSE), and the suite is a declaration ending in
# kunit_test_suite(...); (TRAILING_SEMICOLON).
CHECKPATCH_IGNORE_FILES := driver/vgpu_compat.h:LINUX_VERSION_CODE,CONSTANT_COMPARISON \
	selftests/core/vgpu_test.h:MACRO_WITH_FLOW_CONTROL,COMPLEX_MACRO,MACRO_ARG_REUSE,TRAILING_SEMICOLON
export CHECKPATCH_IGNORE_FILES

checkpatch: ksrc
	@scripts/run-checkpatch $(RESULTS)

# Documentation/netlink/specs/vgpu.yaml against uapi/linux/vgpu_netlink.h.
netlink-spec: deps
	@scripts/check-netlink-spec $(RESULTS)

# No call cycle or upward call among driver/*.c (issue 19).
layering:
	@mkdir -p $(RESULTS)
	@{ echo "TAP version 13"; echo "1..1"; \
	   if out=$$(scripts/check-layering); then \
		echo "ok 1 layering: driver/*.c call no file above them"; \
	   else echo "$$out" | sed 's/^/# /'; \
		echo "not ok 1 layering: driver/*.c call no file above them"; fi; \
	 } > $(RESULTS)/layering.tap
	@echo "  CHECK   layering: $$(tail -1 $(RESULTS)/layering.tap)"
	@! grep -q '^not ok' $(RESULTS)/layering.tap || { grep '^#' $(RESULTS)/layering.tap; exit 1; }

# selftests/syzkaller/vgpu.txt against the uapi headers (issue 9).
# Mutation testing of driver/core (issue 18): scripts/mutate, about a
# minute per mutant; not part of make check.  Results: build/mutate.txt.
mutate: deps
	@scripts/mutate $(if $(MUTANTS),--count $(MUTANTS))

syzkaller-desc:
	@scripts/check-syzkaller $(RESULTS) > /dev/null || \
		{ scripts/check-syzkaller | grep -A3 '^not ok'; exit 1; }

sparse: deps
	@scripts/run-sparse $(RESULTS) $(STOCK_KDIR)

# The VM suite on Debian 12's 6.1 (stock) and on Debian's 6.12 LTS (lts,
# fetched into the cache from bookworm-backports on first use).
check-vm: deps ksrc
	@scripts/run-vm-suite stock $(RESULTS)

check-vm-lts: deps ksrc
	@scripts/run-vm-suite lts $(RESULTS)

# dkms.conf: `dkms build` against both kernels' headers (private DKMS tree).
check-dkms: deps
	@scripts/check-dkms $(RESULTS) stock lts

check:
	@rm -rf $(RESULTS)
	@mkdir -p $(RESULTS)
	@for step in check-core checkpatch sparse layering netlink-spec syzkaller-desc check-dkms check-vm check-vm-lts; do \
		$(MAKE) --no-print-directory $$step || \
		echo "not ok 1 make $$step exited non-zero" > $(RESULTS)/step-$$step.tap; \
	done
	@scripts/tap-summary $(RESULTS)

# The debug kernel, built from the newest kernel source Debian carries.
debug-kernel: deps
	@scripts/build-kernel.sh debug > /dev/null

check-debug: debug-kernel ksrc
	@rm -rf $(RESULTS)-debug
	@mkdir -p $(RESULTS)-debug
	@$(MAKE) --no-print-directory vm-bin && scripts/run-vm-suite debug $(RESULTS)-debug || \
		echo "not ok 1 check-debug run failed" > $(RESULTS)-debug/step-check-debug.tap
	@scripts/tap-summary $(RESULTS)-debug

# The in-VM suite on Debian's 6.12 PREEMPT_RT kernel (PREEMPT_RT is mainline
# since 6.12; bookworm-backports' -rt-amd64 image and headers, fetched into
# the cache on first use).  TAP in build/results-rt/.  Not in CI.
check-rt: deps ksrc
	@rm -rf $(RESULTS)-rt
	@mkdir -p $(RESULTS)-rt
	@scripts/run-vm-suite rt $(RESULTS)-rt || true
	@scripts/tap-summary $(RESULTS)-rt

demo: deps ksrc
	@scripts/demo.sh

# Documentation/*.rst as HTML (Debian's python3-sphinx); warnings are errors.
htmldocs: deps
	sphinx-build -W -q -b html -d $(BUILD)/htmldocs/.doctrees Documentation \
		$(BUILD)/htmldocs

# The long hardening runs alone (issue 9, Documentation/testing.rst
# "Hardening"; not in CI, see there): FUZZ_CALLS, NLFUZZ_MSGS,
# LIFECYCLE_ROUNDS, HOSTILE_SECONDS (default 1,000,000 / 200,000 / 200 /
# 300: vgpu_hostile, issue 16); TAP in
# build/results-fuzz-module/.
FUZZ_CALLS	?= 1000000
NLFUZZ_MSGS	?= 200000
LIFECYCLE_ROUNDS ?= 200
HOSTILE_SECONDS	?= 300
export FUZZ_CALLS NLFUZZ_MSGS LIFECYCLE_ROUNDS HOSTILE_SECONDS

check-fuzz-module: debug-kernel ksrc
	@rm -rf $(RESULTS)-fuzz-module
	@mkdir -p $(RESULTS)-fuzz-module
	@$(MAKE) --no-print-directory vm-bin && scripts/run-hardening $(RESULTS)-fuzz-module || \
		echo "not ok 1 check-fuzz-module hardening runs failed" > $(RESULTS)-fuzz-module/step-hardening.tap
	@scripts/tap-summary $(RESULTS)-fuzz-module

# Soak (issue 9): the smoketest (selftests/vgpu/vgpu_smoke.c) for
# SOAK_SECONDS (default 30 minutes) on the debug kernel, then the kernel log
# and kmemleak checks of vm-run; TAP in build/results-soak/.  Not in CI.
SOAK_SECONDS	?= 1800

soak: debug-kernel ksrc
	@rm -rf $(RESULTS)-soak
	@mkdir -p $(RESULTS)-soak
	@$(MAKE) --no-print-directory $(BUILD)/vm-bin/vgpu_smoke && \
		scripts/vm-run --kernel debug --timeout $$(($(SOAK_SECONDS) + 1800)) \
		env VGPU_SMOKE_SECONDS=$(SOAK_SECONDS) vgpu_smoke \
		> $(RESULTS)-soak/soak.tap 2>&1; \
		rc=$$?; cat $(RESULTS)-soak/soak.tap; \
		[ $$rc = 0 ] || echo "not ok 1 soak vm-run exited $$rc (see build/vm/debug$(VGPU_VM_TAG)/console.log)" \
		>> $(RESULTS)-soak/soak.tap
	@scripts/tap-summary $(RESULTS)-soak

# Cost of SUBMIT and SUBMIT+WAIT against GET_INFO, in the VM (figures).
bench-module: deps ksrc
	@$(MAKE) --no-print-directory vm-bin
	@scripts/vm-run --timeout 600 sh -c 'vgpu_bench 5000 && vgpu_bench --workers'

# Interactive shell in the VM with the module loaded (for developers).
vm-shell: deps
	@scripts/vm-run --interactive

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
	rm -rf $(BUILD)

# Fuzzing harnesses (libFuzzer via clang), see selftests/fuzz/.
-include selftests/fuzz/fuzz.mk
