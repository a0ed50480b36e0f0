# SPDX-License-Identifier: GPL-2.0
#
# Test programs, included by the top-level Makefile: the native unit tests
# of the core and the libraries (selftests/core/, ASan/UBSan) and the
# static programs of the VM suite (selftests/vgpu/, $(BUILD)/vm-bin/).  Both
# use the kselftest harness of linux-source-6.1 (make ksrc).

HARNESS_INC	= -I$(KSRC)/tools/testing/selftests

# Native unit tests: one program per selftests/core/test_NAME.c.
CORE_TEST_SRCS	:= $(wildcard selftests/core/test_*.c)
CORE_TESTS	:= $(patsubst selftests/core/%.c,$(BUILD)/asan/selftests/core/%,$(CORE_TEST_SRCS))

$(BUILD)/asan/selftests/core/%: selftests/core/%.c $(ASAN_ALL_OBJS) \
		$(CORE_HDRS) $(CLI_HDRS) $(wildcard selftests/core/*.h) | ksrc need-vm-bin
	@mkdir -p $(@D)
	$(CC) $(ASAN_CFLAGS) $(CLI_INC) $(LIB_INC) $(HARNESS_INC) \
		-Iselftests/core $(LINK_WERROR) $(POLICY_EXPORTS) -o $@ $< \
		$(ASAN_ALL_OBJS) \
		$(TOOL_LIBS)

core-tests: $(CORE_TESTS)

# Static programs for the VM (selftests/vgpu/*_test.c, kselftest harness).
VM_TEST_SRCS	:= $(wildcard selftests/vgpu/*_test.c)
VM_TESTS	:= $(patsubst selftests/vgpu/%.c,$(BUILD)/vm-bin/%,$(VM_TEST_SRCS))
VM_CFLAGS	:= -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter \
		   -Wno-sign-compare -Wno-clobbered -Iuapi -Iuserspace/include \
		   -D_GNU_SOURCE $(WERROR_CFLAGS)
VM_HDRS		:= uapi/linux/vgpu_dispatch.h $(wildcard uapi/linux/*.h selftests/vgpu/*.h)

# Per-test extra flags: VM_TEST_CFLAGS_<name>, VM_TEST_LIBS_<name>; tests in
# VM_TESTS_NO32 have no 32-bit build (Debian ships no 32-bit static libnl).
VM_TEST_CFLAGS_vgpu_netlink_test := $(NL_CFLAGS)
VM_TEST_LIBS_vgpu_netlink_test := $(STATIC_LDFLAGS) $(NL_LIBS)
VM_TESTS_NO32	:= vgpu_netlink_test

$(BUILD)/vm-bin/%: selftests/vgpu/%.c $(VM_HDRS) $(STATIC_STUB) | ksrc need-vm-bin
	@mkdir -p $(@D)
	$(CC) $(VM_CFLAGS) $(VM_TEST_CFLAGS_$*) $(HARNESS_INC) -Iselftests/vgpu \
		$(LINK_WERROR) -static -pthread -o $@ $< $(VM_TEST_LIBS_$*)

# JSON checker for selftests/vgpu/vgpuctl.sh (the guest has no python).
$(BUILD)/vm-bin/vgpu_jsoncheck: selftests/vgpu/vgpu_jsoncheck.c
	@mkdir -p $(@D)
	$(CC) $(VM_CFLAGS) $(LINK_WERROR) -static -o $@ $< -ljson-c

VM_TOOLS	:= $(BUILD)/vm-bin/vgpuctl $(BUILD)/vm-bin/vgpu-sim \
		   $(BUILD)/vm-bin/vgpu_jsoncheck

# Programs run once per suite (smoketest) or by hand (benchmark).
VM_PROGS	:= $(BUILD)/vm-bin/vgpu_smoke $(BUILD)/vm-bin/vgpu_bench \
		   $(BUILD)/vm-bin/vgpu_fuzz $(BUILD)/vm-bin/vgpu_nlfuzz \
		   $(BUILD)/vm-bin/vgpu_lifecycle $(BUILD)/vm-bin/vgpu_hostile

$(VM_PROGS): $(BUILD)/vm-bin/%: selftests/vgpu/%.c $(VM_HDRS) | ksrc need-vm-bin
	@mkdir -p $(@D)
	$(CC) $(VM_CFLAGS) $(HARNESS_INC) -Iselftests/vgpu $(LINK_WERROR) \
		-static -pthread -o $@ $<

# The same tests as 32-bit programs: the compat ioctl path (uapi rule 6).
VM_TESTS32	:= $(addsuffix 32,$(filter-out \
		   $(addprefix $(BUILD)/vm-bin/,$(VM_TESTS_NO32)),$(VM_TESTS)))

$(BUILD)/vm-bin/%_test32: selftests/vgpu/%_test.c $(VM_HDRS) | ksrc need-vm-bin
	@mkdir -p $(@D)
	$(CC) -m32 $(VM_CFLAGS) -Wno-pointer-to-int-cast $(HARNESS_INC) \
		-Iselftests/vgpu $(LINK_WERROR) -static -pthread -o $@ $<

# Workloads and vgpu-sim's output for them (selftests/vgpu/determinism.sh).
$(BUILD)/vm-bin/workloads/.stamp: $(BUILD)/vgpu-sim scripts/make-vm-workloads \
		scripts/gen-workloads.py scripts/gen-trace $(wildcard examples/*.json) \
		$(wildcard examples/functional/*.json examples/vasm/*.vasm) \
		$(POLICY_SOS)
	@scripts/make-vm-workloads $(BUILD)/vm-bin/workloads
	@touch $@

vm-bin: $(VM_TESTS) $(VM_TESTS32) $(VM_PROGS) $(VM_TOOLS) \
	$(BUILD)/vm-bin/workloads/.stamp
