/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * vgpu_dispatch.h - userspace API of the vgpu-dispatch module.
 *
 * This is the only header shared by the kernel module, libvgpu, the tools and
 * the tests.  See Documentation/uapi.rst for every ioctl, field and errno.
 *
 * Rules (Documentation/process/botching-up-ioctls.rst):
 *  - only __u8..__u64 / __s8..__s64, explicit padding, every struct a multiple
 *    of 8 bytes (checked by static_assert at the end of this file);
 *  - user pointers travel as __u64;
 *  - every flags field is checked against its _ALL mask and every pad or
 *    reserved field must be zero, else -EINVAL;
 *
 * Extension rule (the one rule for the whole uapi): size-versioned structs.
 * The size encoded in the ioctl number is the size of the argument struct the
 * caller was built against.  New fields are only ever appended.  The kernel
 * accepts any size from the first published size (VGPU_*_SIZE_VER0) up to
 * what it knows; a shorter struct is zero-extended, a longer one must have
 * zeros in every byte the kernel does not know (else -E2BIG).  Output is
 * copied back truncated to the caller's size.  The ioctl numbers below never
 * change meaning; a struct behind an existing number only grows at the end.
 */
#ifndef _UAPI_LINUX_VGPU_DISPATCH_H
#define _UAPI_LINUX_VGPU_DISPATCH_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define VGPU_IOCTL_BASE		'V'

/* Version of this interface, reported by VGPU_IOCTL_GET_INFO. */
#define VGPU_VERSION_MAJOR	0
#define VGPU_VERSION_MINOR	1
#define VGPU_VERSION_PATCH	0

/* Capabilities (struct vgpu_info.caps). */
#define VGPU_CAP_GET_INFO	(1ULL << 0)
#define VGPU_CAP_ALL		(VGPU_CAP_GET_INFO)

/* Presets (struct vgpu_dev_config.preset), SPEC F03. */
#define VGPU_PRESET_CUSTOM	0
#define VGPU_PRESET_SMALL	1
#define VGPU_PRESET_A100	2
#define VGPU_PRESET_H100	3

#define VGPU_NAME_LEN		16

/**
 * struct vgpu_dev_config - configuration of one device instance (SPEC F01-F03)
 * @num_sms: number of streaming multiprocessors
 * @subparts: sub-partitions per SM
 * @regs_per_subpart: registers per sub-partition
 * @reg_unit: register allocation unit (registers per warp are rounded up to it)
 * @warps_per_subpart: warp slots per sub-partition
 * @max_warps_per_sm: warp slots per SM
 * @max_blocks_per_sm: block slots per SM
 * @max_barriers_per_sm: hardware barriers per SM
 * @smem_per_sm: shared memory per SM in bytes
 * @smem_unit: shared memory allocation unit in bytes
 * @smem_reserve: shared memory reserved per resident block in bytes
 * @smem_max_per_block: largest static+dynamic shared memory per block in bytes
 * @max_threads_per_block: largest block in threads
 * @warp_size: threads per warp
 * @num_prios: priority levels (0 is the highest)
 * @preset: VGPU_PRESET_* this configuration came from
 * @name: preset or instance name, NUL-terminated
 */
struct vgpu_dev_config {
	__u32 num_sms;
	__u32 subparts;
	__u32 regs_per_subpart;
	__u32 reg_unit;
	__u32 warps_per_subpart;
	__u32 max_warps_per_sm;
	__u32 max_blocks_per_sm;
	__u32 max_barriers_per_sm;
	__u32 smem_per_sm;
	__u32 smem_unit;
	__u32 smem_reserve;
	__u32 smem_max_per_block;
	__u32 max_threads_per_block;
	__u32 warp_size;
	__u32 num_prios;
	__u32 preset;
	__u8 name[VGPU_NAME_LEN];
};

/* struct vgpu_info.flags: none defined yet. */
#define VGPU_INFO_FLAGS_ALL	0

/**
 * struct vgpu_info - argument of VGPU_IOCTL_GET_INFO
 * @flags: in: VGPU_INFO_FLAGS_*, must be a subset of VGPU_INFO_FLAGS_ALL
 * @pad: in: must be zero
 * @version_major: out: VGPU_VERSION_MAJOR of the running module
 * @version_minor: out: VGPU_VERSION_MINOR of the running module
 * @version_patch: out: VGPU_VERSION_PATCH of the running module
 * @struct_size: out: size of struct vgpu_info the module knows
 * @caps: out: VGPU_CAP_* supported by the module
 * @dev_index: out: N of /dev/vgpuN
 * @pad2: out: zero
 * @config: out: the device configuration
 */
struct vgpu_info {
	__u32 flags;
	__u32 pad;
	__u32 version_major;
	__u32 version_minor;
	__u32 version_patch;
	__u32 struct_size;
	__u64 caps;
	__u32 dev_index;
	__u32 pad2;
	struct vgpu_dev_config config;
};

#define VGPU_INFO_SIZE_VER0	120

#define VGPU_IOCTL_GET_INFO	_IOWR(VGPU_IOCTL_BASE, 0x00, struct vgpu_info)

#endif /* _UAPI_LINUX_VGPU_DISPATCH_H */
