# SPDX-License-Identifier: GPL-2.0
#
# vgpu-dispatch top-level Makefile.
#
#   make               module (against KDIR), both libraries, vgpuctl, vgpu-sim
#   make native        the userspace half only (no kernel headers needed)
#   make check         every test: core unit tests, checkpatch, sparse, VM suite
#   make check-debug   the VM suite on the debug kernel (KASAN, lockdep, ...)
#   make demo          the main job: boot the VM, load the module, run the demo
#   make deps          install every Debian package the above need
#
# Build targets never install anything: a missing package is named in one
# line with the hint to run `make deps`.  The test targets and the demo run
# `make deps` first, so the README's two commands work on a fresh machine.
#
# The module is built by kbuild (Kbuild, driver/Kbuild).  Everything else is
# built into build/, never next to kbuild objects: userspace/userspace.mk
# (the core natively, the libraries, the tools, install), selftests/
# selftests.mk (unit tests, VM programs), selftests/fuzz/fuzz.mk (fuzzing).

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

# WERROR=1 turns every compiler and linker warning of our own code into an
# error (the module, the native code, the VM programs).  `make check` and
# `make check-debug` set it (CI); a plain build leaves it off, so a newer
# compiler's new warning never breaks a packager's build.
WERROR		?= 0
export WERROR
ifeq ($(WERROR),1)
WERROR_CFLAGS	:= -Werror
LINK_WERROR	:= -Wl,--fatal-warnings
endif

# libnl-3 / libnl-genl-3 (libvgpu's netlink part, userspace/lib/vgpu_nl.c).
NL_CFLAGS	:= -I/usr/include/libnl3
NL_LIBS		:= -lnl-genl-3 -lnl-3
NATIVE_WARN	:= -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare \
		   -Wno-missing-field-initializers
NATIVE_CFLAGS	:= -std=gnu11 -g $(NATIVE_WARN) $(WERROR_CFLAGS) -D_GNU_SOURCE
OPT_CFLAGS	:= $(NATIVE_CFLAGS) -O2
SAN_FLAGS	:= -fsanitize=address,undefined -fno-sanitize-recover=all \
		   -fno-omit-frame-pointer
ASAN_CFLAGS	:= $(NATIVE_CFLAGS) -O1 $(SAN_FLAGS)

.PHONY: all module native sim policies core-tests deps ksrc check check-core vm-bin tools \
	checkpatch sparse layering check-vm check-debug debug-kernel demo clean netlink-spec docs \
	install install-policy-dev policy-dev modules_install vm-shell check-vm-lts check-dkms bench-module lib check-fuzz-module syzkaller-desc mutate htmldocs \
	soak check-rt need-native need-vm-bin

all: native module

# Install every package (root or sudo).
deps:
	@scripts/install-deps.sh

# What the build targets check instead (one line and exit 1 when missing).
need-native:
	@scripts/install-deps.sh --check native

need-vm-bin:
	@scripts/install-deps.sh --check native harness vm-bin

# linux-source-6.1 unpacked into the cache (the kselftest harness,
# checkpatch.pl); says `make deps` when the package is missing.
ksrc:
	@scripts/kernel-src.sh >/dev/null

include userspace/userspace.mk

# Scheduling policies: each examples/policies/NAME.c is a shared object for
# vgpu-sim here and a kernel module vgpu_policy_NAME.ko built with
# vgpu_dispatch.ko (examples/policies/Kbuild).  Without kernel headers only
# the shared objects are built.
POLICY_SRCS	:= $(filter-out %.mod.c,$(wildcard examples/policies/*.c))
POLICY_SOS	:= $(patsubst examples/policies/%.c,$(BUILD)/policies/%.so,$(POLICY_SRCS))

$(BUILD)/policies/%.so: examples/policies/%.c driver/vgpu_policy.h $(CORE_HDRS) | need-native
	@mkdir -p $(@D)
	$(CC) $(OPT_CFLAGS) $(CORE_INC) -Idriver -fPIC -shared $(LINK_WERROR) -o $@ $<

# The misbehaving test policies (selftests/vgpu/policies) as shared objects
# too, for vgpu-sim --policy FILE.so (selftests/core/cli_policy_eject.sh).
TEST_POLICY_SRCS := $(filter-out %.mod.c,$(wildcard selftests/vgpu/policies/*.c))
TEST_POLICY_SOS	:= $(patsubst selftests/vgpu/policies/%.c,$(BUILD)/test-policies/%.so,$(TEST_POLICY_SRCS))

$(BUILD)/test-policies/%.so: selftests/vgpu/policies/%.c driver/vgpu_policy.h $(CORE_HDRS) | need-native
	@mkdir -p $(@D)
	$(CC) $(OPT_CFLAGS) $(CORE_INC) -Idriver -fPIC -shared $(LINK_WERROR) -o $@ $<

# The header set a policy is built against outside the tree: what
# driver/vgpu_policy.h includes, flattened into one directory (a uapi
# header under linux/), and vgpu-policy.pc naming it.  `make install` puts
# them under $(INCLUDEDIR)/vgpu-policy and $(LIBDIR)/pkgconfig, so that
#   cc $$(pkg-config --cflags vgpu-policy) -O2 -fPIC -shared -o P.so P.c
# builds a policy with no kernel headers (Documentation/policies.rst,
# "Building a policy"; examples/policies/Makefile builds one against the
# tree itself, both ways).
POLICY_DEV	:= $(BUILD)/policy-dev
POLICY_VERSION	:= $(LIBWL_VERSION)

$(POLICY_DEV)/include/vgpu_policy.h: driver/vgpu_policy.h $(CORE_HDRS) | need-native
	@rm -rf $(POLICY_DEV)/include
	@mkdir -p $(POLICY_DEV)/include
	@for h in $$($(CC) -MM $(CORE_INC) -Idriver -x c driver/vgpu_policy.h | \
		sed -e 's/^[^:]*://' -e 's/\\$$//'); do \
		case $$h in \
		uapi/linux/*) mkdir -p $(POLICY_DEV)/include/linux; \
			cp $$h $(POLICY_DEV)/include/linux/ ;; \
		*) cp $$h $(POLICY_DEV)/include/ ;; \
		esac; \
	done

policy-dev: $(POLICY_DEV)/include/vgpu_policy.h

install-policy-dev: policy-dev
	install -d $(DESTDIR)$(INCLUDEDIR)/vgpu-policy $(DESTDIR)$(LIBDIR)/pkgconfig
	(cd $(POLICY_DEV)/include && find . -name '*.h') | while read -r h; do \
		install -D -m 0644 $(POLICY_DEV)/include/$$h \
			$(DESTDIR)$(INCLUDEDIR)/vgpu-policy/$$h || exit 1; \
	done
	$(call vgpu_pc,examples/policies/vgpu-policy.pc.in,$(POLICY_VERSION),$(DESTDIR)$(LIBDIR)/pkgconfig/vgpu-policy.pc)

install: install-policy-dev

policies: $(POLICY_SOS)
	@if [ -n "$(KDIR)" ] && [ -d "$(KDIR)" ]; then \
		$(MAKE) --no-print-directory module; \
	else \
		echo "vgpu-dispatch: no kernel headers: built the vgpu-sim objects only, not the policy modules ('make deps' installs linux-headers-amd64, or pass KDIR=)" >&2; \
	fi

include selftests/selftests.mk

# ---------------------------------------------------------------------------
# The module.
# ---------------------------------------------------------------------------
module:
	@[ -n "$(KDIR)" ] && [ -d "$(KDIR)" ] || { echo "vgpu-dispatch: no kernel headers to build the module against: run 'make deps' or pass KDIR=<kernel build tree>" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(if $(WERROR_CFLAGS),KCFLAGS=-Werror) modules

modules_install: module
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install

# ---------------------------------------------------------------------------
# Tests.  Every suite writes TAP into $(BUILD)/results/; scripts/tap-summary
# prints the closing "N passed, N failed" line and sets the exit status.
# ---------------------------------------------------------------------------
RESULTS := $(BUILD)/results

# T=SUITE[.TEST] runs one suite (test_bmap or bmap, cli_run) or one test of
# a unit-test suite (bmap.run_naive, the name the harness prints).
check-core: deps core-tests sim lib tools $(POLICY_SOS) $(TEST_POLICY_SOS)
	@scripts/run-core-tests $(if $(T),--only '$(T)') $(RESULTS) $(CORE_TESTS)

# checkpatch.pl types to ignore, each with the reason kernel macros force it.
# None needed so far; keep it that way unless a macro leaves no choice.
CHECKPATCH_IGNORE :=
export CHECKPATCH_IGNORE
# Per file.  driver/vgpu_compat.h is the one place an out-of-tree module
# compares LINUX_VERSION_CODE: LINUX_VERSION_CODE is the warning
# against doing so, CONSTANT_COMPARISON takes LINUX_VERSION_CODE for a
# constant on the left of >= and <.
# selftests/core/vgpu_test.h is the kselftest harness's interface over
# KUnit: a check is a for statement that runs an optional
# TH_LOG() and bails out (MACRO_WITH_FLOW_CONTROL), a case list entry ends
# in a comma (COMPLEX_MACRO), fixture names are pasted into several
# identifiers (MACRO_ARG_REUSE), and the suite is a declaration ending in
# kunit_test_suite(...); (TRAILING_SEMICOLON).
# driver/core/policy.h: vgpu_policy_for_each_kernel() names its cursor in
# each clause of its for statement, as list_for_each_entry() does
# (MACRO_ARG_REUSE).  driver/vgpu_policy.c exports the policy view, which
# the core defines (policy_view.c) and cannot export itself: the KUnit
# module holds a second copy of the core (EXPORT_SYMBOL).
CHECKPATCH_IGNORE_FILES := driver/vgpu_compat.h:LINUX_VERSION_CODE,CONSTANT_COMPARISON \
	selftests/core/vgpu_test.h:MACRO_WITH_FLOW_CONTROL,COMPLEX_MACRO,MACRO_ARG_REUSE,TRAILING_SEMICOLON \
	driver/core/policy.h:MACRO_ARG_REUSE driver/vgpu_policy.c:EXPORT_SYMBOL
export CHECKPATCH_IGNORE_FILES

checkpatch: ksrc
	@scripts/run-checkpatch $(RESULTS)

# Documentation/netlink/specs/vgpu.yaml against uapi/linux/vgpu_netlink.h.
netlink-spec: deps
	@scripts/check-netlink-spec $(RESULTS)

# Every F-number and seed paragraph the tree cites resolves in
# Documentation/mechanisms.rst; the HTML docs and their kernel-doc build
# without a warning.
docs: deps ksrc
	@mkdir -p $(RESULTS)
	@{ echo "TAP version 13"; echo "1..2"; \
	   if out=$$(scripts/check-doc-refs 2>&1); then echo "ok 1 doc-refs"; \
	   else echo "$$out" | sed 's/^/# /'; echo "not ok 1 doc-refs"; fi; \
	   if out=$$($(MAKE) --no-print-directory htmldocs 2>&1); then \
		echo "ok 2 htmldocs without a warning"; \
	   else echo "$$out" | tail -20 | sed 's/^/# /'; \
		echo "not ok 2 htmldocs without a warning"; fi; \
	 } > $(RESULTS)/docs.tap
	@echo "  CHECK   docs: $$(grep -c '^ok' $(RESULTS)/docs.tap)/2"
	@! grep -q '^not ok' $(RESULTS)/docs.tap || { grep '^#' $(RESULTS)/docs.tap; exit 1; }

# No call cycle or upward call among driver/*.c.
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

# Mutation testing of driver/core: scripts/mutate (MUTANTS=N, default 60;
# SEED=S, default a fresh one, printed; JOBS=J, default the CPUs); not part
# of make check.  Starts from build/ when the tree is HEAD, so run it after
# make check-core.  Results: build/mutate.txt.
mutate: deps
	@scripts/mutate $(if $(MUTANTS),--count $(MUTANTS)) \
		$(if $(SEED),--seed $(SEED)) $(if $(JOBS),--jobs $(JOBS))

# selftests/syzkaller/vgpu.txt against the uapi headers.
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

# CI: every warning of our code is an error (WERROR above).
check check-debug: WERROR := 1

check:
	@rm -rf $(RESULTS)
	@mkdir -p $(RESULTS)
	@for step in check-core checkpatch sparse layering netlink-spec docs syzkaller-desc check-dkms check-vm check-vm-lts; do \
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

# The long hardening runs alone (Documentation/testing.rst
# "Hardening"; not in CI, see there): FUZZ_CALLS, NLFUZZ_MSGS,
# LIFECYCLE_ROUNDS, HOSTILE_SECONDS (default 1,000,000 / 200,000 / 200 /
# 300: vgpu_hostile); TAP in
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

# Soak: the smoketest (selftests/vgpu/vgpu_smoke.c) for
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
