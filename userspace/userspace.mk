# SPDX-License-Identifier: GPL-2.0
#
# Userspace, included by the top-level Makefile: the scheduling core built
# natively, the two libraries, vgpuctl, vgpu-sim and `make install`.
#
#   libvgpu           userspace/lib/: the device API (ioctls, netlink, sysfs);
#                     LGPL-2.1 OR GPL-2.0; links no core; libvgpu.so.2
#   libvgpu-workload  userspace/libworkload/: workloads, recordings, the
#                     .vasm assembler, metrics and reports, with the core
#                     (driver/core, userspace/core) linked in; GPL-2.0;
#                     libvgpu-workload.so.1
#   vgpuctl, vgpu-sim userspace/tools/vgpuctl/, userspace/sim/, sharing
#                     userspace/cli/; linked with the objects of both
#                     libraries (they use internals neither exports)
#
# Objects go to $(BUILD)/<flavour>/<part>/: opt (-O2), pic (-O2 -fPIC, the
# shared libraries) and asan (ASan/UBSan, the unit tests).

CORE_SRCS	:= $(wildcard driver/core/*.c)
UCORE_SRCS	:= $(wildcard userspace/core/*.c)
CORE_HDRS	:= $(wildcard driver/core/*.h userspace/core/*.h) \
		   uapi/linux/vgpu_dispatch.h userspace/shim/vgpu_os_user.h
LIB_SRCS	:= $(wildcard userspace/lib/*.c)
WL_SRCS		:= $(wildcard userspace/libworkload/*.c)
CLI_SRCS	:= $(filter-out userspace/cli/static.c,$(wildcard userspace/cli/*.c))
PUB_HDRS	:= $(wildcard userspace/include/vgpu/*.h) \
		   uapi/linux/vgpu_dispatch.h uapi/linux/vgpu_netlink.h
WL_HDRS		:= $(PUB_HDRS) $(wildcard userspace/libworkload/*.h)
CLI_HDRS	:= $(WL_HDRS) $(wildcard userspace/cli/*.h)
SIM_SRCS	:= $(wildcard userspace/sim/*.c)
SIM_HDRS	:= $(wildcard userspace/sim/*.h)
CTL_SRCS	:= $(wildcard userspace/tools/vgpuctl/*.c)
CTL_HDRS	:= $(wildcard userspace/tools/vgpuctl/*.h)

# Include paths per part: libvgpu sees the uapi and its own header only (it
# must not reach the GPL core); the rest see the core through the shim.
LIB_INC		:= -Iuapi -Iuserspace/include $(NL_CFLAGS)
CORE_INC	:= -Iuserspace/shim -Idriver/core -Iuserspace/core -Iuapi \
		   -Iuserspace/include
WL_INC		:= $(CORE_INC) -Iuserspace/libworkload
CLI_INC		:= $(WL_INC) -Iuserspace/cli $(NL_CFLAGS)

# $(call vgpu_objs,FLAVOUR,PART,SOURCE DIR,SOURCES)
vgpu_objs = $(patsubst $(3)/%.c,$(BUILD)/$(1)/$(2)/%.o,$(4))

OPT_CORE_OBJS	:= $(call vgpu_objs,opt,core,driver/core,$(CORE_SRCS)) \
		   $(call vgpu_objs,opt,ucore,userspace/core,$(UCORE_SRCS))
PIC_CORE_OBJS	:= $(call vgpu_objs,pic,core,driver/core,$(CORE_SRCS)) \
		   $(call vgpu_objs,pic,ucore,userspace/core,$(UCORE_SRCS))
ASAN_CORE_OBJS	:= $(call vgpu_objs,asan,core,driver/core,$(CORE_SRCS)) \
		   $(call vgpu_objs,asan,ucore,userspace/core,$(UCORE_SRCS))
PIC_LIB_OBJS	:= $(call vgpu_objs,pic,lib,userspace/lib,$(LIB_SRCS))
ASAN_LIB_OBJS	:= $(call vgpu_objs,asan,lib,userspace/lib,$(LIB_SRCS))
PIC_WL_OBJS	:= $(call vgpu_objs,pic,libworkload,userspace/libworkload,$(WL_SRCS))
ASAN_WL_OBJS	:= $(call vgpu_objs,asan,libworkload,userspace/libworkload,$(WL_SRCS))
OPT_CLI_OBJS	:= $(call vgpu_objs,opt,cli,userspace/cli,$(CLI_SRCS))
ASAN_CLI_OBJS	:= $(call vgpu_objs,asan,cli,userspace/cli,$(CLI_SRCS))
OPT_SIM_OBJS	:= $(call vgpu_objs,opt,sim,userspace/sim,$(SIM_SRCS))
ASAN_SIM_OBJS	:= $(call vgpu_objs,asan,sim,userspace/sim,$(SIM_SRCS))
OPT_CTL_OBJS	:= $(call vgpu_objs,opt,ctl,userspace/tools/vgpuctl,$(CTL_SRCS))

# What the unit tests link: both libraries, the shared CLI code, the core.
ASAN_ALL_OBJS	:= $(ASAN_CLI_OBJS) $(ASAN_LIB_OBJS) $(ASAN_WL_OBJS) $(ASAN_CORE_OBJS)

LIB_LIBS	:= $(NL_LIBS)
WL_LIBS		:= -ljson-c -lsqlite3 -lm
TOOL_LIBS	:= $(WL_LIBS) $(NL_LIBS) -pthread

# Objects: $(call vgpu_obj_rule,FLAVOUR/PART,SOURCE DIR,CFLAGS,HEADERS)
define vgpu_obj_rule
$(BUILD)/$(1)/%.o: $(2)/%.c $(4) | need-native
	@mkdir -p $$(@D)
	$$(CC) $(3) -c -o $$@ $$<
endef
$(eval $(call vgpu_obj_rule,opt/core,driver/core,$$(OPT_CFLAGS) $(CORE_INC),$(CORE_HDRS)))
$(eval $(call vgpu_obj_rule,opt/ucore,userspace/core,$$(OPT_CFLAGS) $(CORE_INC),$(CORE_HDRS)))
$(eval $(call vgpu_obj_rule,pic/core,driver/core,$$(OPT_CFLAGS) -fPIC $(CORE_INC),$(CORE_HDRS)))
$(eval $(call vgpu_obj_rule,pic/ucore,userspace/core,$$(OPT_CFLAGS) -fPIC $(CORE_INC),$(CORE_HDRS)))
$(eval $(call vgpu_obj_rule,asan/core,driver/core,$$(ASAN_CFLAGS) $(CORE_INC),$(CORE_HDRS)))
$(eval $(call vgpu_obj_rule,asan/ucore,userspace/core,$$(ASAN_CFLAGS) $(CORE_INC),$(CORE_HDRS)))
$(eval $(call vgpu_obj_rule,pic/lib,userspace/lib,$$(OPT_CFLAGS) -fPIC $(LIB_INC),$(PUB_HDRS)))
$(eval $(call vgpu_obj_rule,asan/lib,userspace/lib,$$(ASAN_CFLAGS) $(LIB_INC),$(PUB_HDRS)))
$(eval $(call vgpu_obj_rule,pic/libworkload,userspace/libworkload,$$(OPT_CFLAGS) -fPIC $(WL_INC),\
	$(CORE_HDRS) $(WL_HDRS)))
$(eval $(call vgpu_obj_rule,asan/libworkload,userspace/libworkload,$$(ASAN_CFLAGS) $(WL_INC),\
	$(CORE_HDRS) $(WL_HDRS)))
$(eval $(call vgpu_obj_rule,opt/cli,userspace/cli,$$(OPT_CFLAGS) $(CLI_INC),$(CLI_HDRS)))
$(eval $(call vgpu_obj_rule,asan/cli,userspace/cli,$$(ASAN_CFLAGS) $(CLI_INC),$(CLI_HDRS)))
$(eval $(call vgpu_obj_rule,opt/sim,userspace/sim,$$(OPT_CFLAGS) $(CLI_INC),\
	$(CORE_HDRS) $(CLI_HDRS) $(SIM_HDRS)))
$(eval $(call vgpu_obj_rule,asan/sim,userspace/sim,$$(ASAN_CFLAGS) $(CLI_INC),\
	$(CORE_HDRS) $(CLI_HDRS) $(SIM_HDRS)))
$(eval $(call vgpu_obj_rule,opt/ctl,userspace/tools/vgpuctl,$$(OPT_CFLAGS) $(CLI_INC),\
	$(CORE_HDRS) $(CLI_HDRS) $(CTL_HDRS)))

# ---------------------------------------------------------------------------
# The libraries: $(BUILD)/lib/NAME.so.VERSION (soname NAME.so.MAJOR, export
# list userspace/<dir>/NAME.map), NAME.a, NAME.pc.
# ---------------------------------------------------------------------------
LIBVGPU_VERSION	:= 2.0.0
LIBWL_VERSION	:= 1.1.0
PREFIX		?= /usr/local
LIBDIR		?= $(PREFIX)/lib
INCLUDEDIR	?= $(PREFIX)/include
BINDIR		?= $(PREFIX)/bin
MANDIR		?= $(PREFIX)/share/man
DESTDIR		?=

# $(call vgpu_lib_rules,NAME,VERSION,SOURCE DIR,OBJECTS,LIBS)
define vgpu_lib_rules
$(BUILD)/lib/$(1).so.$(2): $(4) $(3)/$(1).map
	@mkdir -p $$(@D)
	$$(CC) -shared -Wl,-soname,$(1).so.$(firstword $(subst ., ,$(2))) \
		-Wl,--version-script=$(3)/$(1).map -Wl,-z,defs $$(LINK_WERROR) \
		-o $$@ $(4) $(5)
	ln -sf $(1).so.$(2) $(BUILD)/lib/$(1).so.$(firstword $(subst ., ,$(2)))
	ln -sf $(1).so.$(firstword $(subst ., ,$(2))) $(BUILD)/lib/$(1).so

$(BUILD)/lib/$(1).a: $(4)
	@mkdir -p $$(@D)
	rm -f $$@
	ar rcs $$@ $(4)

$(BUILD)/lib/$(1).pc: $(3)/$(1).pc.in
	@mkdir -p $$(@D)
	$$(call vgpu_pc,$(3)/$(1).pc.in,$(2),$$@)
endef

# NAME.pc for the directories in force: $(call vgpu_pc,IN,VERSION,OUT)
vgpu_pc = sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(2)|' $(1) > $(3)

$(eval $(call vgpu_lib_rules,libvgpu,$(LIBVGPU_VERSION),userspace/lib,$(PIC_LIB_OBJS),$(LIB_LIBS)))
$(eval $(call vgpu_lib_rules,libvgpu-workload,$(LIBWL_VERSION),userspace/libworkload,\
	$(PIC_WL_OBJS) $(PIC_CORE_OBJS),$(WL_LIBS)))

LIB_OUTS	:= $(foreach l,libvgpu.so.$(LIBVGPU_VERSION) \
		   libvgpu-workload.so.$(LIBWL_VERSION) libvgpu.a \
		   libvgpu-workload.a libvgpu.pc libvgpu-workload.pc,$(BUILD)/lib/$(l))

lib: $(LIB_OUTS)

# ---------------------------------------------------------------------------
# The tools: optimised (benchmarks, demo), sanitised (tests), ThreadSanitizer
# (selftests/core/cli_threads.sh), and static for the VM (the guest has no
# libc; userspace/cli/static.c stands in for what static glibc cannot do
# there: name service lookups and dlopen()).
# ---------------------------------------------------------------------------
SIM_OBJS_OPT	:= $(OPT_SIM_OBJS) $(OPT_CLI_OBJS) $(PIC_WL_OBJS) $(OPT_CORE_OBJS)
CTL_OBJS_OPT	:= $(OPT_CTL_OBJS) $(OPT_CLI_OBJS) $(PIC_LIB_OBJS) \
		   $(PIC_WL_OBJS) $(OPT_CORE_OBJS)
STATIC_STUB	:= $(BUILD)/opt/static/static.o
STATIC_WRAP	:= getaddrinfo getprotobyname getprotobynumber dlopen dlsym \
		   dlerror dlclose
STATIC_LDFLAGS	:= -static $(STATIC_STUB) \
		   $(foreach f,$(STATIC_WRAP),-Wl,--wrap=$(f))

$(STATIC_STUB): userspace/cli/static.c | need-native
	@mkdir -p $(@D)
	$(CC) $(OPT_CFLAGS) -c -o $@ $<

# vgpu-sim (and each unit test, selftests.mk) exports the policy view
# (driver/core/policy.h, vgpu_policy_*) to the policy objects it loads
# (--policy FILE.so), as vgpu_dispatch.ko exports it to policy modules.
POLICY_EXPORTS	:= -Wl,--export-dynamic-symbol='vgpu_policy_*'

$(BUILD)/vgpu-sim: $(SIM_OBJS_OPT)
	$(CC) $(OPT_CFLAGS) $(LINK_WERROR) $(POLICY_EXPORTS) -o $@ $^ $(WL_LIBS) -pthread

$(BUILD)/vgpu-sim-asan: $(ASAN_SIM_OBJS) $(ASAN_CLI_OBJS) $(ASAN_WL_OBJS) $(ASAN_CORE_OBJS)
	$(CC) $(ASAN_CFLAGS) $(LINK_WERROR) $(POLICY_EXPORTS) -o $@ $^ $(WL_LIBS) -pthread

$(BUILD)/vgpu-sim-tsan: $(SIM_SRCS) $(CLI_SRCS) $(WL_SRCS) $(CORE_SRCS) \
		$(UCORE_SRCS) $(CORE_HDRS) $(CLI_HDRS) $(SIM_HDRS) | need-native
	$(CC) $(NATIVE_CFLAGS) $(CLI_INC) -O1 -fsanitize=thread $(LINK_WERROR) \
		$(POLICY_EXPORTS) -o $@ $(SIM_SRCS) $(CLI_SRCS) $(WL_SRCS) $(CORE_SRCS) \
		$(UCORE_SRCS) $(WL_LIBS) -pthread

$(BUILD)/vgpuctl: $(CTL_OBJS_OPT)
	$(CC) $(OPT_CFLAGS) $(LINK_WERROR) -o $@ $^ $(TOOL_LIBS)

$(BUILD)/vm-bin/vgpuctl: $(CTL_OBJS_OPT) $(STATIC_STUB)
	@mkdir -p $(@D)
	$(CC) $(OPT_CFLAGS) $(LINK_WERROR) -o $@ $(CTL_OBJS_OPT) \
		$(STATIC_LDFLAGS) $(TOOL_LIBS)

$(BUILD)/vm-bin/vgpu-sim: $(SIM_OBJS_OPT) $(STATIC_STUB)
	@mkdir -p $(@D)
	$(CC) $(OPT_CFLAGS) $(LINK_WERROR) -o $@ $(SIM_OBJS_OPT) \
		$(STATIC_LDFLAGS) $(WL_LIBS) -pthread

sim: $(BUILD)/vgpu-sim $(BUILD)/vgpu-sim-asan $(BUILD)/vgpu-sim-tsan

tools: $(BUILD)/vgpuctl

native: sim tools lib

# ---------------------------------------------------------------------------
# make install PREFIX=... [DESTDIR=...]: both libraries (shared, static,
# .pc), the public headers, vgpuctl, vgpu-sim and the man pages.
# ---------------------------------------------------------------------------
# $(call vgpu_install_lib,NAME,VERSION,SOURCE DIR)
define vgpu_install_lib
	install -m 0755 $(BUILD)/lib/$(1).so.$(2) $(DESTDIR)$(LIBDIR)/
	ln -sf $(1).so.$(2) $(DESTDIR)$(LIBDIR)/$(1).so.$(firstword $(subst ., ,$(2)))
	ln -sf $(1).so.$(firstword $(subst ., ,$(2))) $(DESTDIR)$(LIBDIR)/$(1).so
	install -m 0644 $(BUILD)/lib/$(1).a $(DESTDIR)$(LIBDIR)/
	$(call vgpu_pc,$(3)/$(1).pc.in,$(2),$(DESTDIR)$(LIBDIR)/pkgconfig/$(1).pc)
endef

install: lib $(BUILD)/vgpuctl $(BUILD)/vgpu-sim
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)/vgpu \
		$(DESTDIR)$(INCLUDEDIR)/linux $(DESTDIR)$(BINDIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3
	$(call vgpu_install_lib,libvgpu,$(LIBVGPU_VERSION),userspace/lib)
	$(call vgpu_install_lib,libvgpu-workload,$(LIBWL_VERSION),userspace/libworkload)
	install -m 0644 $(wildcard userspace/include/vgpu/*.h) \
		$(DESTDIR)$(INCLUDEDIR)/vgpu/
	install -m 0644 uapi/linux/vgpu_dispatch.h uapi/linux/vgpu_netlink.h \
		$(DESTDIR)$(INCLUDEDIR)/linux/
	install -m 0755 $(BUILD)/vgpuctl $(BUILD)/vgpu-sim $(DESTDIR)$(BINDIR)/
	install -m 0644 Documentation/man/vgpuctl.1 Documentation/man/vgpu-sim.1 \
		$(DESTDIR)$(MANDIR)/man1/
	install -m 0644 Documentation/man/libvgpu.3 \
		Documentation/man/libvgpu-workload.3 $(DESTDIR)$(MANDIR)/man3/
