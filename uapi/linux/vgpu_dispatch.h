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

#include <linux/const.h>
#include <linux/ioctl.h>
#include <linux/types.h>

/*
 * The ioctl type of every command: 0xD5, sequence numbers 0x00-0x3f, a
 * block no driver of the kernel's Documentation/userspace-api/ioctl/
 * ioctl-number.rst uses (Documentation/uapi.rst, "The ioctl type").
 * Versions before 1.0 used 'V', which V4L2 and the VT driver share.
 */
#define VGPU_IOCTL_BASE		0xD5

/*
 * Version of this interface, reported by VGPU_IOCTL_GET_INFO.  1.0 moved
 * every command to VGPU_IOCTL_BASE 0xD5: binaries built against an earlier
 * version get -ENOTTY from every command and must be rebuilt.
 */
#define VGPU_VERSION_MAJOR	1
#define VGPU_VERSION_MINOR	0
#define VGPU_VERSION_PATCH	0

/* Capabilities (struct vgpu_info.caps). */
#define VGPU_CAP_GET_INFO	_BITULL(0)
#define VGPU_CAP_CHANNELS	_BITULL(1)	/* CHANNEL_CREATE / _DESTROY */
#define VGPU_CAP_KERNELS	_BITULL(2)	/* SUBMIT, WAIT, QUERY, CANCEL */
#define VGPU_CAP_GATE		_BITULL(3)	/* GATE */
#define VGPU_CAP_POLL		_BITULL(4)	/* poll() reports completions */
#define VGPU_CAP_QUEUE		_BITULL(5)	/* queue kernels, QUEUE_PUSH (F14) */
#define VGPU_CAP_CHILD		_BITULL(6)	/* LAUNCH and templates (F15) */
#define VGPU_CAP_HEAD		_BITULL(7)	/* VGPU_KERNEL_HEAD (F16) */
#define VGPU_CAP_DEADLINE	_BITULL(8)	/* vgpu_submit_desc.deadline */
#define VGPU_CAP_MMA_SIZE	_BITULL(9)	/* MMA operand a (F25) */
#define VGPU_CAP_WARP_PRIO	_BITULL(10)	/* vgpu_submit_desc.warp_prio */
#define VGPU_CAP_SREGS		_BITULL(11)	/* vgpu_submit_desc.sregs */
#define VGPU_CAP_DEV_PUSH	_BITULL(12)	/* vgpu_submit_desc.push_to */
#define VGPU_CAP_FENCE_OUT	_BITULL(13)	/* VGPU_KERNEL_FENCE_OUT */
#define VGPU_CAP_BUFFERS	_BITULL(14)	/* BO_CREATE, BO_DESTROY, mmap() */
/* functional instructions on buffers (Documentation/isa.rst, seed 004) */
#define VGPU_CAP_FUNCTIONAL	_BITULL(15)
#define VGPU_CAP_ALL		(VGPU_CAP_GET_INFO | VGPU_CAP_CHANNELS | \
				 VGPU_CAP_KERNELS | VGPU_CAP_GATE | \
				 VGPU_CAP_POLL | VGPU_CAP_QUEUE | \
				 VGPU_CAP_CHILD | VGPU_CAP_HEAD | \
				 VGPU_CAP_DEADLINE | VGPU_CAP_MMA_SIZE | \
				 VGPU_CAP_WARP_PRIO | VGPU_CAP_SREGS | \
				 VGPU_CAP_DEV_PUSH | VGPU_CAP_FENCE_OUT | \
				 VGPU_CAP_BUFFERS | VGPU_CAP_FUNCTIONAL)

/* Presets (struct vgpu_dev_config.preset), F03. */
#define VGPU_PRESET_CUSTOM	0
#define VGPU_PRESET_SMALL	1
#define VGPU_PRESET_A100	2
#define VGPU_PRESET_H100	3

#define VGPU_NAME_LEN		16

/**
 * struct vgpu_dev_config - configuration of one device instance (F01-F03)
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
 * @default_prio: out: the highest channel priority (numerically the lowest
 *	value) a caller without CAP_SYS_NICE may use
 * @max_channels_per_file: out: channels one open file may own
 * @max_channels: out: channels the device may have
 * @pad3: out: zero
 * @max_kernels_per_file: out: kernel handles one open file may hold
 * @max_queued: out: unfinished kernels the device may hold
 * @max_prog_bytes_per_file: out: program bytes one open file may hold
 * @workers: out: worker threads of the device (F50)
 * @live_channels: out: channels of every file right now
 * @live_kernels: out: unfinished kernels right now
 * @cycle: out: the device's virtual clock (F51)
 * @trace_hash: out: 64-bit hash of every scheduling event so far; the same
 *	configuration and submissions give the same hash here and in vgpu-sim
 *
 * Fields after @config were appended after version 0 of the struct
 * (VGPU_INFO_SIZE_VER0); see the extension rule above.
 *
 * Appended in VGPU_INFO_SIZE_VER1 (zero on a module that predates them):
 *
 * @sregs_per_subpart: out: scalar registers per sub-partition, the second
 *	register file of seed 001 [0042] (new_device sregs_per_subpart); 0
 *	without one (vgpu_submit_desc.sregs is then -E2BIG)
 * @sreg_unit: out: its allocation unit (a warp's scalar registers are
 *	rounded up to it); 0 without a scalar file
 *
 * Appended in VGPU_INFO_SIZE_VER2 (buffer objects, VGPU_CAP_BUFFERS):
 *
 * @max_buffers_per_file: out: buffer objects one open file may hold
 * @pad4: in: must be zero; out: zero
 * @max_buffer_bytes_per_file: out: bytes of buffer objects one open file
 *	may hold, each buffer's size rounded up to whole pages
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
	__u32 default_prio;
	__u32 max_channels_per_file;
	__u32 max_channels;
	__u32 pad3;
	__u32 max_kernels_per_file;
	__u32 max_queued;
	__u32 max_prog_bytes_per_file;
	__u32 workers;
	__u32 live_channels;
	__u32 live_kernels;
	__u64 cycle;
	__u64 trace_hash;
	/* VGPU_INFO_SIZE_VER1 */
	__u32 sregs_per_subpart;
	__u32 sreg_unit;
	/* VGPU_INFO_SIZE_VER2 */
	__u32 max_buffers_per_file;
	__u32 pad4;
	__u64 max_buffer_bytes_per_file;
};

#define VGPU_INFO_SIZE_VER0	120
#define VGPU_INFO_SIZE_VER1	184
#define VGPU_INFO_SIZE_VER2	200

/* struct vgpu_channel_create.flags: none defined yet. */
#define VGPU_CHANNEL_FLAGS_ALL	0

/**
 * struct vgpu_channel_create - argument of VGPU_IOCTL_CHANNEL_CREATE
 * @flags: in: VGPU_CHANNEL_FLAGS_*, a subset of VGPU_CHANNEL_FLAGS_ALL
 * @priority: in: 0 (highest) .. num_prios - 1; a value below
 *	vgpu_info.default_prio needs CAP_SYS_NICE
 * @timeout_cycles: in: hang timeout of the channel's kernels in virtual
 *	cycles (F53); 0 selects the device default
 * @handle: out: the channel's handle, valid in this open file only, never 0;
 *	must be zero on input
 * @pad: in: must be zero
 *
 * A channel is a FIFO of kernels (F11); kernels of one channel start in
 * submission order.  It belongs to the open file that created it.
 */
struct vgpu_channel_create {
	__u32 flags;
	__u32 priority;
	__u64 timeout_cycles;
	__u32 handle;
	__u32 pad;
};

#define VGPU_CHANNEL_CREATE_SIZE_VER0	24

/**
 * struct vgpu_channel_destroy - argument of VGPU_IOCTL_CHANNEL_DESTROY
 * @handle: in: a channel handle of this open file
 * @flags: in: must be zero
 *
 * Kernels still queued or running on the channel are cancelled.
 */
struct vgpu_channel_destroy {
	__u32 handle;
	__u32 flags;
};

#define VGPU_CHANNEL_DESTROY_SIZE_VER0	8

/* Kernel flags (struct vgpu_submit_desc.flags, F10, F24, F26). */
#define VGPU_KERNEL_INDEPENDENT	_BITUL(0)	/* warps may be split (F24) */
#define VGPU_KERNEL_SEQUENTIAL	_BITUL(1)	/* one block in flight (F26) */
#define VGPU_KERNEL_THROTTLE	_BITUL(2)	/* throttle mode only (F26) */
#define VGPU_KERNEL_PRIORITY	_BITUL(3)	/* use .priority, not the channel's */
#define VGPU_KERNEL_HEAD	_BITUL(4)	/* head of its priority level (F16) */
#define VGPU_KERNEL_QUEUE	_BITUL(5)	/* work-item queue, no grid (F14) */
#define VGPU_KERNEL_FENCE_OUT	_BITUL(6)	/* a sync_file in .fence_fd */
#define VGPU_KERNEL_FLAGS_ALL	(VGPU_KERNEL_INDEPENDENT | \
				 VGPU_KERNEL_SEQUENTIAL | \
				 VGPU_KERNEL_THROTTLE | \
				 VGPU_KERNEL_PRIORITY | \
				 VGPU_KERNEL_HEAD | \
				 VGPU_KERNEL_QUEUE | \
				 VGPU_KERNEL_FENCE_OUT)
/* Flags a child template (struct vgpu_template.flags) may carry. */
#define VGPU_TEMPLATE_FLAGS_ALL	(VGPU_KERNEL_INDEPENDENT | \
				 VGPU_KERNEL_SEQUENTIAL)

#define VGPU_MAX_GRID		_BITUL(20)	/* blocks of one kernel */
#define VGPU_MAX_SUBMIT		64		/* kernels of one SUBMIT */
#define VGPU_MAX_WAIT		256		/* handles of one WAIT */
#define VGPU_MAX_COALESCE	128		/* work items per block (F14) */
#define VGPU_MAX_QUEUE_ITEMS	_BITUL(20)	/* waiting items of a queue (F14) */
#define VGPU_MAX_TEMPLATES	8		/* child templates per kernel (F15) */
#define VGPU_MAX_CHILDREN	1024		/* child budget of a kernel (F15) */
#define VGPU_MAX_DEADLINE	_BITULL(48)	/* relative deadline */
#define VGPU_MAX_DEPTH		8		/* nesting of child kernels (F15) */
#define VGPU_MAX_AFFINITY_BITS	4096		/* SMs of a device, an affinity mask */

/**
 * struct vgpu_template - a child kernel a LAUNCH may start (F15)
 * @grid: in: blocks, 1..VGPU_MAX_GRID
 * @threads: in: threads per block, as struct vgpu_submit_desc
 * @regs: in: registers per thread, as struct vgpu_submit_desc
 * @smem: in: shared memory per block, as struct vgpu_submit_desc
 * @flags: in: a subset of VGPU_TEMPLATE_FLAGS_ALL
 * @num_insns: in: program length, 1..VGPU_ISA_MAX_INSNS
 * @program: in: user pointer to num_insns struct vgpu_insn; passes the same
 *	validator as every program
 *
 * A child runs at its parent's priority, enters the task table directly (no
 * channel) and may itself LAUNCH from the same template array.
 * Size-versioned like struct vgpu_submit_desc (see .template_size).
 */
struct vgpu_template {
	__u32 grid;
	__u32 threads;
	__u32 regs;
	__u32 smem;
	__u32 flags;
	__u32 num_insns;
	__u64 program;
};

#define VGPU_TEMPLATE_SIZE_VER0	32

/**
 * struct vgpu_submit_desc - one kernel of a submission (F10)
 * @channel: in: channel handle of this file; the kernel starts after the
 *	channel's earlier kernels (F11) and has the channel's priority unless
 *	VGPU_KERNEL_PRIORITY is set
 * @flags: in: VGPU_KERNEL_*, a subset of VGPU_KERNEL_FLAGS_ALL
 * @grid: in: blocks, 1..VGPU_MAX_GRID
 * @threads: in: threads per block, 1..vgpu_dev_config.max_threads_per_block
 * @regs: in: registers per thread, 1..255
 * @smem: in: shared memory per block in bytes,
 *	0..vgpu_dev_config.smem_max_per_block
 * @quota: in: launch quota: blocks launched before yielding to kernels of
 *	equal priority (F26); 0 = none
 * @num_insns: in: program length, 1..VGPU_ISA_MAX_INSNS
 * @program: in: user pointer to num_insns struct vgpu_insn
 * @affinity: in: user pointer to an SM bitmap of @affinity_bits bits (bit i
 *	= SM i may run the kernel), or 0 for every SM (F26)
 * @affinity_bits: in: 0 when @affinity is 0, else a multiple of 64 covering
 *	every SM (at least num_sms rounded up to 64, at most
 *	VGPU_MAX_AFFINITY_BITS)
 * @priority: in: with VGPU_KERNEL_PRIORITY the kernel's priority (F10),
 *	0 .. num_prios - 1, below vgpu_info.default_prio only with CAP_SYS_NICE;
 *	else must be zero
 * @arrival: in: arrival in virtual cycles after the submission (0 = at once),
 *	at most the device's max_arrival (2^32 unless its new_device line
 *	raised it, up to 2^48); with the gate closed, after the device clock
 *	the gate holds.  Arrivals past cycle 2^62, where the clock's range
 *	ends, are clamped to it.
 * @user_data: in: opaque value reported back by QUERY
 * @handle: out: the kernel's handle in this file; must be zero on input
 * @pad2: in: must be zero
 *
 * Appended in VGPU_SUBMIT_DESC_SIZE_VER1 (all zero = a VER0 kernel):
 *
 * @queue_n: in: with VGPU_KERNEL_QUEUE, work items per block (the
 *	coalescing N of F14), 1..VGPU_MAX_COALESCE; else zero.  A queue kernel
 *	has @grid zero: its blocks are launched from items pushed with
 *	VGPU_IOCTL_QUEUE_PUSH
 * @queue_cap: in: with VGPU_KERNEL_QUEUE, most items that may wait,
 *	1..VGPU_MAX_QUEUE_ITEMS; else zero
 * @queue_timeout: in: with VGPU_KERNEL_QUEUE, cycles after which fewer
 *	than @queue_n waiting items launch a partial block, 1..2^32; else zero
 * @templates: in: user pointer to @num_templates child templates, or 0
 * @num_templates: in: 0..VGPU_MAX_TEMPLATES; a LAUNCH of a template index
 *	>= @num_templates in any program of the submission is -EINVAL
 * @template_size: in: size of one template as the caller knows it
 *	(>= VGPU_TEMPLATE_SIZE_VER0, multiple of 8), zero when @num_templates
 *	is zero
 * @child_budget: in: children the kernel and all its descendants may
 *	launch together, 0..VGPU_MAX_CHILDREN (F15)
 * @pad3: in: must be zero
 *
 * Appended in VGPU_SUBMIT_DESC_SIZE_VER2 (zero = no deadline):
 *
 * @deadline: in: relative deadline in virtual cycles after the kernel's
 *	arrival, 0..VGPU_MAX_DEADLINE (0: none).  A kernel that completes
 *	after it counts as a deadline miss (statistics ``deadline_misses``);
 *	a scheduling policy may order kernels by it (the edf example).
 *	Not for child or queue kernels' items: theirs is their tree's.
 *
 * Appended in VGPU_SUBMIT_DESC_SIZE_VER3 (all zero = as before):
 *
 * @warp_prio: in: user pointer to @num_warp_prio __u8 levels, one per warp
 *	of a block, or 0 (VGPU_CAP_WARP_PRIO; F35, seed 003: the host sets
 *	each warp's competition priority from its task's real-time level):
 *	warp w competes for mutexes at the kernel's priority + level w
 *	(capped at the lowest); each level < vgpu_dev_config.num_prios
 * @num_warp_prio: in: 0, or the warps of a block (ceil(threads /
 *	warp_size)); other counts are -EINVAL
 * @sregs: in: scalar registers per warp, 0 for none (VGPU_CAP_SREGS; seed
 *	001 [0042]): one contiguous run in the scalar register file of the
 *	warp's sub-partition; -E2BIG on a device without one (new_device
 *	sregs_per_subpart) or where a block never fits
 *
 * Appended in VGPU_SUBMIT_DESC_SIZE_VER4 (all zero = as before):
 *
 * @push_to: in: handle of a queue kernel (VGPU_KERNEL_QUEUE) of this file,
 *	submitted by an earlier SUBMIT, that the PUSH instructions of this
 *	kernel's program feed (VGPU_CAP_DEV_PUSH; F14, seed 002: a task
 *	continues through a queue task); 0 for a program without PUSH.  PUSH
 *	without @push_to or @push_to without PUSH: -EINVAL; a handle not of
 *	this file: -ENOENT; not a queue kernel, finished or closed: -EINVAL.
 *	A PUSH executed after the target finished or was closed fails the
 *	kernel with -EPIPE, one the target has no record or room for with
 *	-ENOSPC (VGPU_IOCTL_QUERY's error)
 * @push_records: in: with VGPU_KERNEL_QUEUE, PUSH instructions whose items
 *	may wait in it at once, 0..@queue_cap (records the queue kernel owns,
 *	charged to the file's program bytes); else zero
 *
 * Appended in VGPU_SUBMIT_DESC_SIZE_VER5 (zero = no fence):
 *
 * @fence_fd: out: with VGPU_KERNEL_FENCE_OUT (VGPU_CAP_FENCE_OUT), a new
 *	file descriptor (O_CLOEXEC) of a sync_file whose fence signals when
 *	the kernel finishes: status 1 when it completed, an error (the
 *	QUERY's) when it was cancelled, timed out or failed; untouched
 *	without the flag.  Must be zero on input.  The flag with a
 *	descriptor shorter than VER5: -EINVAL
 * @pad4: in: must be zero
 *
 * Appended in VGPU_SUBMIT_DESC_SIZE_VER6 (all zero = no buffers; buffer
 * objects, VGPU_CAP_BUFFERS):
 *
 * @buffers: in: user pointer to @num_buffers __u32 buffer handles of this
 *	file, or 0: handle i is bound to buffer slot i of the kernel, the
 *	only buffers its program can reach; the kernel holds each of them
 *	until it finishes (VGPU_IOCTL_BO_DESTROY is -EBUSY meanwhile).  A
 *	handle may appear in several slots.  A handle not of this file:
 *	-ENOENT
 * @num_buffers: in: 0..VGPU_MAX_BUFFER_SLOTS; a pointer without a count
 *	or a count without a pointer: -EINVAL
 * @private_bytes: in: private memory per thread in bytes for functional
 *	programs, a multiple of 4, 0..VGPU_MAX_PRIVATE_BYTES
 * @insn_budget: in: functional instructions each warp of a functional
 *	program may execute (the warp that would execute one more fails the
 *	kernel with -EXFULL), 0 for no budget beyond the hang timeout; not 0
 *	for a program without functional instructions: -EINVAL
 */
struct vgpu_submit_desc {
	__u32 channel;
	__u32 flags;
	__u32 grid;
	__u32 threads;
	__u32 regs;
	__u32 smem;
	__u32 quota;
	__u32 num_insns;
	__u64 program;
	__u64 affinity;
	__u32 affinity_bits;
	__u32 priority;
	__u64 arrival;
	__u64 user_data;
	__u32 handle;
	__u32 pad2;
	/* VGPU_SUBMIT_DESC_SIZE_VER1 */
	__u32 queue_n;
	__u32 queue_cap;
	__u64 queue_timeout;
	__u64 templates;
	__u32 num_templates;
	__u32 template_size;
	__u32 child_budget;
	__u32 pad3;
	/* VGPU_SUBMIT_DESC_SIZE_VER2 */
	__u64 deadline;
	/* VGPU_SUBMIT_DESC_SIZE_VER3 */
	__u64 warp_prio;
	__u32 num_warp_prio;
	__u32 sregs;
	/* VGPU_SUBMIT_DESC_SIZE_VER4 */
	__u32 push_to;
	__u32 push_records;
	/* VGPU_SUBMIT_DESC_SIZE_VER5 */
	__s32 fence_fd;
	__u32 pad4;
	/* VGPU_SUBMIT_DESC_SIZE_VER6 */
	__u64 buffers;
	__u32 num_buffers;
	__u32 private_bytes;
	__u64 insn_budget;
};

#define VGPU_SUBMIT_DESC_SIZE_VER0	80
#define VGPU_SUBMIT_DESC_SIZE_VER1	120
#define VGPU_SUBMIT_DESC_SIZE_VER2	128
#define VGPU_SUBMIT_DESC_SIZE_VER3	144
#define VGPU_SUBMIT_DESC_SIZE_VER4	152
#define VGPU_SUBMIT_DESC_SIZE_VER5	160
#define VGPU_SUBMIT_DESC_SIZE_VER6	184

/* struct vgpu_submit.flags: none defined yet. */
#define VGPU_SUBMIT_FLAGS_ALL	0

/**
 * struct vgpu_submit - argument of VGPU_IOCTL_SUBMIT
 * @flags: in: VGPU_SUBMIT_*, a subset of VGPU_SUBMIT_FLAGS_ALL
 * @count: in: kernels, 1..VGPU_MAX_SUBMIT
 * @desc_size: in: size of one descriptor as the caller knows it
 *	(size-versioned array elements, >= VGPU_SUBMIT_DESC_SIZE_VER0,
 *	multiple of 8)
 * @pad: in: must be zero
 * @descs: in: user pointer to @count descriptors; each descriptor's handle
 *	is written back on success
 *
 * All or nothing: either every kernel is submitted and every handle written
 * back, or none is and the error names no kernel.
 */
struct vgpu_submit {
	__u32 flags;
	__u32 count;
	__u32 desc_size;
	__u32 pad;
	__u64 descs;
};

#define VGPU_SUBMIT_SIZE_VER0	24

/* struct vgpu_wait.flags */
#define VGPU_WAIT_ALL		_BITUL(0)	/* every handle, not any one */
#define VGPU_WAIT_FLAGS_ALL	(VGPU_WAIT_ALL)

/* struct vgpu_wait.timeout_ns: wait without a time limit */
#define VGPU_WAIT_FOREVER	0x7fffffffffffffffLL

/**
 * struct vgpu_wait - argument of VGPU_IOCTL_WAIT
 * @flags: in: VGPU_WAIT_*, a subset of VGPU_WAIT_FLAGS_ALL
 * @count: in: handles, 1..VGPU_MAX_WAIT
 * @handles: in: user pointer to @count __u32 kernel handles of this file
 * @timeout_ns: in: absolute CLOCK_MONOTONIC time in ns at which to give up
 *	(-ETIME); a time in the past polls; VGPU_WAIT_FOREVER waits without a
 *	limit
 * @first: out: index in @handles of a finished kernel (the lowest one)
 * @pad: in: must be zero
 *
 * Returns when any (or, with VGPU_WAIT_ALL, every) kernel has finished:
 * completed, cancelled or failed.  Interrupted by a signal: -ERESTARTSYS.
 */
struct vgpu_wait {
	__u32 flags;
	__u32 count;
	__u64 handles;
	__s64 timeout_ns;
	__u32 first;
	__u32 pad;
};

#define VGPU_WAIT_SIZE_VER0	32

/* Kernel states (struct vgpu_kernel_query.state). */
#define VGPU_KSTATE_QUEUED	1	/* waiting in its channel */
#define VGPU_KSTATE_RUNNING	2	/* admitted to the task table */
#define VGPU_KSTATE_DONE	3	/* every block completed */
#define VGPU_KSTATE_CANCELLED	4	/* cancelled; error says why */
#define VGPU_KSTATE_FAILED	5	/* failed (F15 limits); error says why */

/* A virtual timestamp that has not happened yet. */
#define VGPU_NO_CYCLE		0xffffffffffffffffULL

/* struct vgpu_kernel_query.flags */
#define VGPU_QUERY_RELEASE	_BITUL(0)	/* free a finished kernel's handle */
#define VGPU_QUERY_FLAGS_ALL	(VGPU_QUERY_RELEASE)

/* struct vgpu_kernel_query.status */
#define VGPU_KSTATUS_DEADLINE_MISSED	_BITUL(0)	/* done after t_deadline */

/**
 * struct vgpu_kernel_query - argument of VGPU_IOCTL_QUERY
 * @handle: in: kernel handle of this file
 * @flags: in: VGPU_QUERY_*; with VGPU_QUERY_RELEASE the handle is freed
 *	after a successful query of a finished kernel (-EBUSY if unfinished)
 * @state: out: VGPU_KSTATE_*
 * @error: out: 0, or why the kernel did not complete: -ECANCELED
 *	(CANCEL, channel destroyed), -ETIMEDOUT (hang timeout, F53), -ELOOP
 *	(a LAUNCH beyond VGPU_MAX_DEPTH, F15), -EDQUOT (a LAUNCH beyond the
 *	child budget, F15); a functional instruction's fault (VGPU_CAP_FUNCTIONAL):
 *	-EFAULT (out of bounds), -EBADF (a slot not named, LDC of a buffer
 *	not constant), -EILSEQ (misaligned), -EROFS (a store or atomic to a
 *	read-only or constant buffer), -EDEADLK (a BAR reached by only some
 *	of a warp's lanes), -EOVERFLOW (reconvergence stack), -EINVAL (a
 *	register beyond the kernel's), -EXFULL (a warp reached the
 *	kernel's insn_budget)
 * @t_submit: out: virtual cycle of arrival
 * @t_dispatch: out: first dispatch, or VGPU_NO_CYCLE
 * @t_complete: out: completion, or VGPU_NO_CYCLE
 * @blocks_done: out: blocks completed
 * @preemptions: out: times one of its blocks was preempted
 * @user_data: out: as submitted
 * @t_start: out: first warp start, or VGPU_NO_CYCLE
 *
 * Appended in VGPU_KERNEL_QUERY_SIZE_VER2 (deadlines):
 * @t_deadline: out: its absolute deadline, @t_submit plus the relative
 *	deadline it was submitted with, or VGPU_NO_CYCLE without one
 * @status: out: VGPU_KSTATUS_*: VGPU_KSTATUS_DEADLINE_MISSED once it
 *	completed after @t_deadline
 * @pad: out: zero
 */
struct vgpu_kernel_query {
	__u32 handle;
	__u32 flags;
	__u32 state;
	__s32 error;
	__u64 t_submit;
	__u64 t_dispatch;
	__u64 t_complete;
	__u64 blocks_done;
	__u64 preemptions;
	__u64 user_data;
	/* VGPU_KERNEL_QUERY_SIZE_VER1 */
	__u64 t_start;
	/* VGPU_KERNEL_QUERY_SIZE_VER2 */
	__u64 t_deadline;
	__u32 status;
	__u32 pad;
};

#define VGPU_KERNEL_QUERY_SIZE_VER0	64
#define VGPU_KERNEL_QUERY_SIZE_VER1	72
#define VGPU_KERNEL_QUERY_SIZE_VER2	88

/**
 * struct vgpu_kernel_cancel - argument of VGPU_IOCTL_CANCEL
 * @handle: in: kernel handle of this file
 * @flags: in: must be zero
 *
 * Cancelling a finished kernel is a no-op that succeeds.
 */
struct vgpu_kernel_cancel {
	__u32 handle;
	__u32 flags;
};

#define VGPU_KERNEL_CANCEL_SIZE_VER0	8

/* struct vgpu_gate.op (F52) */
#define VGPU_GATE_CLOSE		1	/* hold dispatch of new blocks */
#define VGPU_GATE_OPEN		2	/* release this file's hold */

/**
 * struct vgpu_gate - argument of VGPU_IOCTL_GATE
 * @op: in: VGPU_GATE_*
 * @flags: in: must be zero
 * @cycle: out: the device's virtual clock after the operation
 *
 * The gate is closed while any file holds it (a file holds it at most
 * once); closing a file releases its hold.  While it is closed no new block
 * is dispatched; blocks already on the SMs run on, and the virtual clock
 * only moves while they do.  Kernels submitted meanwhile wait and arrive
 * relative to the clock, so a harness can submit a whole scenario on an
 * idle device and release it at once (reproducible batches).
 */
struct vgpu_gate {
	__u32 op;
	__u32 flags;
	__u64 cycle;
};

#define VGPU_GATE_SIZE_VER0	16

#define VGPU_IOCTL_GET_INFO	_IOWR(VGPU_IOCTL_BASE, 0x00, struct vgpu_info)
#define VGPU_IOCTL_CHANNEL_CREATE \
	_IOWR(VGPU_IOCTL_BASE, 0x01, struct vgpu_channel_create)
#define VGPU_IOCTL_CHANNEL_DESTROY \
	_IOW(VGPU_IOCTL_BASE, 0x02, struct vgpu_channel_destroy)
#define VGPU_IOCTL_SUBMIT	_IOWR(VGPU_IOCTL_BASE, 0x03, struct vgpu_submit)
#define VGPU_IOCTL_WAIT		_IOWR(VGPU_IOCTL_BASE, 0x04, struct vgpu_wait)
#define VGPU_IOCTL_QUERY	_IOWR(VGPU_IOCTL_BASE, 0x05, struct vgpu_kernel_query)
#define VGPU_IOCTL_CANCEL	_IOW(VGPU_IOCTL_BASE, 0x06, struct vgpu_kernel_cancel)
/* struct vgpu_queue_push.flags */
#define VGPU_QUEUE_CLOSE	_BITUL(0)	/* no items after these (F14) */
#define VGPU_QUEUE_FLAGS_ALL	(VGPU_QUEUE_CLOSE)

/**
 * struct vgpu_queue_push - argument of VGPU_IOCTL_QUEUE_PUSH (F14)
 * @handle: in: handle of a VGPU_KERNEL_QUEUE kernel of this file
 * @flags: in: VGPU_QUEUE_*, a subset of VGPU_QUEUE_FLAGS_ALL
 * @items: in: work items to append, 0..queue_cap (0 with VGPU_QUEUE_CLOSE
 *	only closes)
 * @pad: in: must be zero
 * @cycle: out: virtual cycle at which the items arrive
 *
 * Appended in VGPU_QUEUE_PUSH_SIZE_VER1 (zero = a VER0 push):
 *
 * @arrival: in: arrival in virtual cycles after the push (0 = at once),
 *	0..VGPU_MAX_QUEUE_DELAY and at most the device's max_arrival; with
 *	the gate closed, after the device clock the gate holds (as struct
 *	vgpu_submit_desc.arrival, clamped as it is)
 *
 * The items arrive at cycle = device clock + @arrival, raised to the
 * arrival of the kernel's previous push if that is later (the items of one
 * kernel arrive in push order), and are handed to the controller at the
 * first epoch boundary at or after it.  A block launches for every
 * queue_n waiting items, or with fewer once queue_timeout cycles have
 * passed since the oldest of them arrived.  After VGPU_QUEUE_CLOSE the
 * waiting items launch without waiting for the timeout and the kernel
 * completes when they are done.  Items pushed but not yet arrived count as
 * waiting for queue_cap.
 * Errors: -ENOENT (not a kernel of this file), -EINVAL (not a queue kernel,
 * closed or finished, bad flags or pad, @items > queue_cap or zero without
 * VGPU_QUEUE_CLOSE, @arrival too large), -ENOSPC (more than queue_cap items
 * would wait), -EAGAIN (the device's queue of pushes not yet arrived is
 * full), -E2BIG (unknown non-zero bytes).  CANCEL discards the waiting
 * items.
 */
struct vgpu_queue_push {
	__u32 handle;
	__u32 flags;
	__u32 items;
	__u32 pad;
	__u64 cycle;
	/* VGPU_QUEUE_PUSH_SIZE_VER1 */
	__u64 arrival;
};

#define VGPU_QUEUE_PUSH_SIZE_VER0	24
#define VGPU_QUEUE_PUSH_SIZE_VER1	32
#define VGPU_MAX_QUEUE_DELAY		_BITULL(48)	/* push arrival */

#define VGPU_IOCTL_GATE		_IOWR(VGPU_IOCTL_BASE, 0x07, struct vgpu_gate)
#define VGPU_IOCTL_QUEUE_PUSH \
	_IOWR(VGPU_IOCTL_BASE, 0x08, struct vgpu_queue_push)

/*
 * ===========================================================================
 * Buffer objects (VGPU_CAP_BUFFERS)
 *
 * Memory a functional kernel computes on: created with a size, mapped into
 * the process with mmap() of the device file at the buffer's mmap_offset
 * (MAP_SHARED, at most the buffer's size rounded up to pages), named by a
 * kernel at SUBMIT (struct vgpu_submit_desc.buffers).  A buffer belongs to
 * the open file that created it; its memory is zeroed at creation and
 * lives until its handle is destroyed, no mapping of it is left and no
 * kernel handle naming it remains.  Documentation/uapi.rst, "Buffer
 * objects".
 * ===========================================================================
 */

/* struct vgpu_bo_create.flags */
#define VGPU_BO_READ_ONLY	_BITUL(0)	/* kernels load, never store */
#define VGPU_BO_CONSTANT	_BITUL(1)	/* constant memory (LDC); implies
						 * VGPU_BO_READ_ONLY for kernels
						 */
#define VGPU_BO_FLAGS_ALL	(VGPU_BO_READ_ONLY | VGPU_BO_CONSTANT)

#define VGPU_MAX_BO_SIZE	_BITULL(28)	/* bytes of one buffer (256 MiB) */
#define VGPU_MAX_BUFFER_SLOTS	16		/* buffers one kernel names */
#define VGPU_MAX_PRIVATE_BYTES	1024		/* private memory per thread */

/**
 * struct vgpu_bo_create - argument of VGPU_IOCTL_BO_CREATE
 * @size: in: bytes, 1..VGPU_MAX_BO_SIZE
 * @flags: in: VGPU_BO_*, a subset of VGPU_BO_FLAGS_ALL
 * @handle: out: the buffer's handle in this file, 1..65535, never 0; must
 *	be zero on input
 * @mmap_offset: out: the offset to give mmap() of the device file to map
 *	the buffer: opaque, page aligned, below 2^44 (a 32-bit process
 *	reaches it with mmap64()); must be zero on input
 *
 * The memory is zeroed.  The buffer counts against the file's limits
 * (struct vgpu_info.max_buffers_per_file, .max_buffer_bytes_per_file, its
 * size rounded up to pages) until its memory is freed.
 * Errors: -EINVAL (flags, @handle or @mmap_offset non-zero, @size 0 or
 * above VGPU_MAX_BO_SIZE), -ENOSPC (the file's buffers or buffer bytes at
 * their limit), -ENOMEM.
 */
struct vgpu_bo_create {
	__u64 size;
	__u32 flags;
	__u32 handle;
	__u64 mmap_offset;
};

#define VGPU_BO_CREATE_SIZE_VER0	24

/**
 * struct vgpu_bo_destroy - argument of VGPU_IOCTL_BO_DESTROY
 * @handle: in: a buffer handle of this file
 * @flags: in: must be zero
 *
 * Removes the handle: the buffer can no longer be mapped or named.  Its
 * memory stays valid for the mappings that still exist and for the
 * kernel handles that named it, and is freed when the last of them goes.
 * Errors: -EINVAL (flags), -ENOENT (not a buffer of this file, or
 * destroyed), -EBUSY (a kernel that names it has not finished: wait for
 * it, or cancel it, and destroy again).
 */
struct vgpu_bo_destroy {
	__u32 handle;
	__u32 flags;
};

#define VGPU_BO_DESTROY_SIZE_VER0	8

#define VGPU_IOCTL_BO_CREATE \
	_IOWR(VGPU_IOCTL_BASE, 0x09, struct vgpu_bo_create)
#define VGPU_IOCTL_BO_DESTROY \
	_IOW(VGPU_IOCTL_BASE, 0x0a, struct vgpu_bo_destroy)

/* ====================== end of buffer objects ============================ */

/*
 * ===========================================================================
 * Virtual ISA (F04)
 *
 * A program is an array of 1..VGPU_ISA_MAX_INSNS fixed-size instructions
 * (struct vgpu_insn, VGPU_INSN_SIZE bytes each) of ISA version
 * VGPU_ISA_VERSION.  Every program passes the validator of the core
 * (driver/core/isa.c) before it can run; a violation is -EINVAL and is
 * described by a rule code VGPU_ISA_ERR_* plus the index of the offending
 * instruction.  Documentation/isa.rst describes the semantics and the .vasm
 * text syntax.
 *
 * Control flow is structured: the only jumps are LOOP/ENDLOOP, properly
 * nested at most VGPU_ISA_MAX_NEST deep; EXIT is the last instruction and
 * appears nowhere else.  BRA is a timed instruction class ("jump") with no
 * target.  So every warp reaches EXIT after a bounded number of
 * instructions (at most VGPU_ISA_MAX_DYN_INSNS) unless it executes SPIN.
 * The one exception are the branches of functional programs (BRP, JMP,
 * below), which may loop on data and exclude LOOP, LOCK, LAUNCH and SPIN.
 *
 * Opcode space: 0x00 is invalid (zeroed memory is never a program),
 * 0x01-0x1f timed classes (0x01-0x07 used, the class index is
 * opcode - VGPU_OP_MOV), 0x20-0x3f control (0x20-0x28 used), 0x40-0x7f
 * functional instructions (below), 0x80-0xff reserved for later
 * extensions.  Every operand field an opcode does not use is reserved and
 * must be zero.
 * ===========================================================================
 */

#define VGPU_ISA_VERSION	1

#define VGPU_INSN_SIZE		8

#define VGPU_ISA_MAX_INSNS	4096	/* instructions per program */
#define VGPU_ISA_MAX_NEST	8	/* LOOP nesting depth */
#define VGPU_ISA_MAX_LOOP_COUNT	65535	/* iterations of one LOOP, any index */
#define VGPU_ISA_MAX_LOOP_MOD	255	/* largest modulus of a LOOP selector */
#define VGPU_ISA_MAX_MUTEX	16	/* mutex ids are 0..VGPU_ISA_MAX_MUTEX-1 */
/* Worst-case instructions one warp executes (SPIN excepted): 2^32. */
#define VGPU_ISA_MAX_DYN_INSNS	0x100000000ULL

/* Timed instruction classes (F04); each has a latency and a power weight. */
#define VGPU_OP_MOV		0x01	/* data transfer */
#define VGPU_OP_LOAD		0x02	/* memory load */
#define VGPU_OP_STORE		0x03	/* memory store */
#define VGPU_OP_MMA		0x04	/* matrix multiply-accumulate; a: size */
#define VGPU_OP_CMP		0x05	/* compare */
#define VGPU_OP_BRA		0x06	/* jump (timing only, no target) */
#define VGPU_OP_ALU		0x07	/* arithmetic / logic */
#define VGPU_ISA_NUM_CLASSES	7	/* class index = opcode - VGPU_OP_MOV */

/*
 * MMA's operand a is the log2 of its size in base tiles (seed 001 [0270]:
 * matrix instructions are told apart by the size of the matrix): an MMA of
 * a = s multiplies 2^s base tiles and counts 2^s times in the SM's power
 * window (F25).  Programs that use a != 0 need VGPU_CAP_MMA_SIZE.
 */
#define VGPU_MMA_SIZE_MAX	3

/* Control instructions (F04). */
#define VGPU_OP_LOOP		0x20	/* a: sel, b: mod, imm: base | step << 16 */
#define VGPU_OP_ENDLOOP		0x21	/* end of the innermost LOOP body */
#define VGPU_OP_BAR		0x22	/* block barrier (F34) */
#define VGPU_OP_LOCK		0x23	/* a: mutex id (F35) */
#define VGPU_OP_UNLOCK		0x24	/* a: mutex id (F35) */
#define VGPU_OP_SPIN		0x25	/* run until the kernel is cancelled (F53) */
#define VGPU_OP_EXIT		0x26	/* end of the warp; last instruction */
#define VGPU_OP_LAUNCH		0x27	/* a: template, b: VGPU_LAUNCH_* (F15) */
#define VGPU_OP_PUSH		0x28	/* imm: work items to the push target */

/*
 * PUSH (F14, seed 002: "there may be several TMDs writing work items to a
 * queue TMD") acts once per block, like LAUNCH: when warp 0 of the block
 * executes it, imm work items (1..VGPU_MAX_QUEUE_ITEMS) go to the queue
 * kernel the submission named as its push target (VGPU_CAP_PUSH); they
 * arrive at the next epoch boundary.  A kernel whose target is gone or
 * cannot take them fails.
 */

/*
 * LAUNCH (F15) acts once per block: when warp 0 of the block executes it, a
 * child kernel from template a of the submission starts; the other warps
 * pass it like a one-cycle instruction.  With VGPU_LAUNCH_WAIT every warp of
 * the block stops at it (a barrier) and the block is suspended, its
 * resources released, until the child completes; a block that may suspend
 * is only ever fully resident, like one that uses BAR.
 */
#define VGPU_LAUNCH_WAIT	0x01	/* suspend the block until the child ends */
#define VGPU_LAUNCH_FLAGS_ALL	(VGPU_LAUNCH_WAIT)

/* LOOP selectors (struct vgpu_insn.a of VGPU_OP_LOOP). */
#define VGPU_LOOP_SEL_NONE	0	/* count = base */
#define VGPU_LOOP_SEL_WID	1	/* index = warp index within its block */
#define VGPU_LOOP_SEL_BID	2	/* index = block index within its grid */
#define VGPU_LOOP_SEL_ITEMS	3	/* index = work items of the block (F14);
					 * 0 in a grid kernel
					 */

/*
 * LOOP count: count = base + step * (index % mod), where index is selected
 * by sel, base = imm & 0xffff and step = imm >> 16.  With
 * VGPU_LOOP_SEL_NONE, mod and step must be zero; otherwise 1 <= mod <=
 * VGPU_ISA_MAX_LOOP_MOD.  The largest count, base + step * (mod - 1), must
 * not exceed VGPU_ISA_MAX_LOOP_COUNT.  A count of 0 skips the body.
 * Example: "LOOP 10*(1+wid%4)" is sel WID, mod 4, base 10, step 10.
 */
#define VGPU_LOOP_IMM(base, step) \
	((__u32)(((__u32)(step) & 0xffff) << 16 | ((__u32)(base) & 0xffff)))
#define VGPU_LOOP_BASE(imm)	((__u32)(imm) & 0xffff)
#define VGPU_LOOP_STEP(imm)	((__u32)(imm) >> 16)

/**
 * struct vgpu_insn - one instruction of the virtual ISA (F04)
 * @op: opcode, VGPU_OP_*
 * @a: operand A: LOOP selector (VGPU_LOOP_SEL_*), LOCK/UNLOCK mutex id
 *     (< VGPU_ISA_MAX_MUTEX), LAUNCH template (< VGPU_MAX_TEMPLATES), MMA
 *     size (<= VGPU_MMA_SIZE_MAX), a functional instruction's destination
 *     (or BRP's predicate); zero for every other opcode
 * @b: operand B: LOOP modulus, LAUNCH flags (VGPU_LAUNCH_*), a functional
 *     instruction's first source, special register, slot or BRP negation;
 *     zero for every other opcode
 * @c: a functional instruction's second source or address register;
 *     reserved, must be zero, for every other opcode
 * @imm: immediate: LOOP base and step (VGPU_LOOP_IMM()), PUSH items, a
 *     functional instruction's immediate, offset, third register,
 *     condition or packed operands; zero for every other opcode
 *
 * Little-endian host order, like every uapi struct.  Size VGPU_INSN_SIZE.
 */
struct vgpu_insn {
	__u8 op;
	__u8 a;
	__u8 b;
	__u8 c;
	__u32 imm;
};

/*
 * Validator rule codes: why a program was rejected.  The rejected
 * instruction's index accompanies the code (for VGPU_ISA_ERR_LENGTH it is
 * 0 for an empty program and VGPU_ISA_MAX_INSNS for a too long one).
 */
#define VGPU_ISA_OK			0
#define VGPU_ISA_ERR_LENGTH		1	/* 0 or > MAX_INSNS insns */
#define VGPU_ISA_ERR_OPCODE		2	/* unknown opcode */
#define VGPU_ISA_ERR_RESERVED		3	/* unused field not zero */
#define VGPU_ISA_ERR_OPERAND		4	/* bad LOOP selector/modulus */
#define VGPU_ISA_ERR_LOOP_COUNT		5	/* count > MAX_LOOP_COUNT */
#define VGPU_ISA_ERR_NESTING		6	/* LOOP deeper than MAX_NEST */
#define VGPU_ISA_ERR_ENDLOOP		7	/* ENDLOOP without LOOP */
#define VGPU_ISA_ERR_UNCLOSED		8	/* LOOP without ENDLOOP */
#define VGPU_ISA_ERR_MUTEX_ID		9	/* mutex id >= MAX_MUTEX */
#define VGPU_ISA_ERR_LOCK_HELD		10	/* LOCK m while holding m */
#define VGPU_ISA_ERR_NOT_HELD		11	/* UNLOCK m without m */
#define VGPU_ISA_ERR_LOCK_LOOP		12	/* loop body not lock-neutral */
#define VGPU_ISA_ERR_LOCK_EXIT		13	/* EXIT while holding a lock */
#define VGPU_ISA_ERR_BAR_LOCK		14	/* BAR while holding a lock */
#define VGPU_ISA_ERR_BAR_DIVERGENT	15	/* BAR in a wid-dependent loop */
#define VGPU_ISA_ERR_EXIT_POS		16	/* EXIT before the end */
#define VGPU_ISA_ERR_NO_EXIT		17	/* last insn is not EXIT */
#define VGPU_ISA_ERR_DYN_COUNT		18	/* > MAX_DYN_INSNS executed */
#define VGPU_ISA_ERR_LAUNCH		19	/* bad LAUNCH template or flags,
						 * LAUNCH WAIT under a lock or
						 * in a wid-dependent loop
						 */
#define VGPU_ISA_ERR_PUSH		20	/* PUSH of 0 or too many items */
/* functional programs (VGPU_OP_FUNC_FIRST..VGPU_OP_FUNC_LAST) only: */
#define VGPU_ISA_ERR_REGISTER		21	/* register above r254 */
#define VGPU_ISA_ERR_PREDICATE		22	/* predicate above p7 */
#define VGPU_ISA_ERR_SREG		23	/* unknown special register */
#define VGPU_ISA_ERR_SLOT		24	/* buffer slot >= MAX_SLOTS */
#define VGPU_ISA_ERR_MODIFIER		25	/* bad compare condition,
						 * PLOP or atomic operation,
						 * BRP negation flag
						 */
#define VGPU_ISA_ERR_TARGET		26	/* branch target or join >= n */
#define VGPU_ISA_ERR_BRANCH_MIX		27	/* BRP/JMP with LOOP, ENDLOOP,
						 * LOCK, UNLOCK, LAUNCH, SPIN,
						 * PUSH or a timed class
						 */
#define VGPU_ISA_ERR_MAX		27

/*
 * Functional instructions (seed 004): warps that compute on real data.
 *
 * A warp has VGPU_ISA_LANES lanes; each lane has 32-bit registers r0..r254
 * (VGPU_ISA_NUM_REGS; a program's highest register must be below the
 * kernel's registers per thread) and the warp has VGPU_ISA_NUM_PREDS
 * predicates p0..p7, a bit per lane each.  Operands: a is the destination
 * (register, or predicate of a compare), b and c the sources, imm an
 * immediate or a third operand as noted.  Memory accesses are 4 bytes,
 * 4-aligned, at address r[c] + imm (a 64-bit sum) of a buffer slot
 * (0..VGPU_ISA_MAX_SLOTS-1, the i-th buffer the submission names), of the
 * block's shared memory or of the lane's private memory.  Each opcode
 * belongs to a timed class (its latency and power weight): the comment
 * names it.  Only programs validated in functional mode may use them;
 * Documentation/isa.rst has the semantics, faults and memory model.
 */
#define VGPU_OP_FUNC_FIRST	0x40
#define VGPU_OP_FUNC_LAST	0x7f

#define VGPU_ISA_LANES		32	/* lanes of a functional warp */
#define VGPU_ISA_NUM_REGS	255	/* r0..r254; 255 is invalid */
#define VGPU_ISA_NUM_PREDS	8	/* p0..p7 */
/* buffer slots of a kernel; equal to the buffers a submission may name */
#define VGPU_ISA_MAX_SLOTS	16

/* MOV class */
#define VGPU_OP_MOVI		0x40	/* a = imm */
#define VGPU_OP_MOVR		0x41	/* a = b ("MOV rd, rs") */
#define VGPU_OP_S2R		0x42	/* a = special register b (VGPU_SR_*) */
#define VGPU_OP_SELP		0x43	/* a = p[imm] ? b : c */
/* ALU class, integer (two's complement, wrapping) */
#define VGPU_OP_IADD		0x48	/* a = b + c */
#define VGPU_OP_ISUB		0x49	/* a = b - c */
#define VGPU_OP_IMUL		0x4a	/* a = low 32 bits of b * c */
#define VGPU_OP_IMAD		0x4b	/* a = b * c + r[imm] */
#define VGPU_OP_IMIN		0x4c	/* a = min(b, c), signed */
#define VGPU_OP_IMAX		0x4d	/* a = max(b, c), signed */
#define VGPU_OP_AND		0x4e	/* a = b & c */
#define VGPU_OP_OR		0x4f	/* a = b | c */
#define VGPU_OP_XOR		0x50	/* a = b ^ c */
#define VGPU_OP_SHL		0x51	/* a = b << (c & 31) */
#define VGPU_OP_SHR		0x52	/* a = b >> (c & 31), logical */
#define VGPU_OP_SRA		0x53	/* a = b >> (c & 31), arithmetic */
#define VGPU_OP_IADDI		0x54	/* a = b + imm */
#define VGPU_OP_UDIV		0x55	/* a = b / c, unsigned; /0: all ones */
#define VGPU_OP_UREM		0x56	/* a = b % c, unsigned; %0: b */
/* ALU class, IEEE-754 binary32, round to nearest even */
#define VGPU_OP_FADD		0x58	/* a = b + c */
#define VGPU_OP_FSUB		0x59	/* a = b - c */
#define VGPU_OP_FMUL		0x5a	/* a = b * c */
#define VGPU_OP_FFMA		0x5b	/* a = b * c + r[imm], one rounding */
#define VGPU_OP_FMIN		0x5c	/* a = min(b, c); a NaN yields the other */
#define VGPU_OP_FMAX		0x5d	/* a = max(b, c); a NaN yields the other */
#define VGPU_OP_I2F		0x5e	/* a = (float)(signed)b */
#define VGPU_OP_F2I		0x5f	/* a = (signed)b toward 0, saturating */
/* CMP class: predicate a of the active lanes */
#define VGPU_OP_ISETP		0x60	/* p[a] = b cond c, signed; imm: cond */
#define VGPU_OP_USETP		0x61	/* p[a] = b cond c, unsigned */
#define VGPU_OP_FSETP		0x62	/* p[a] = b cond c, float */
#define VGPU_OP_PLOP		0x63	/* p[a] = p[b] op p[c]; imm: op */
/* LOAD and STORE classes: [slot b + r[c] + imm] */
#define VGPU_OP_LDG		0x68	/* a = global [b: slot] (LOAD) */
#define VGPU_OP_STG		0x69	/* global [b: slot] = a (STORE) */
#define VGPU_OP_LDS		0x6a	/* a = shared (LOAD); b = 0 */
#define VGPU_OP_STS		0x6b	/* shared = a (STORE); b = 0 */
#define VGPU_OP_LDC		0x6c	/* a = constant [b: slot] (LOAD) */
#define VGPU_OP_LDL		0x6d	/* a = private (LOAD); b = 0 */
#define VGPU_OP_STL		0x6e	/* private = a (STORE); b = 0 */
#define VGPU_OP_ATOMG		0x6f	/* global atomic at [b: slot] + r[c] */
#define VGPU_OP_ATOMS		0x70	/* shared atomic at r[c]; b = 0 */
/* BRA class */
#define VGPU_OP_BRP		0x78	/* branch on p[a] (b = 1: on !p[a]) */
#define VGPU_OP_JMP		0x79	/* jump to imm */

/* Special registers (S2R operand b). */
#define VGPU_SR_LANE		0	/* lane index in the warp */
#define VGPU_SR_WARP		1	/* warp index in the block */
#define VGPU_SR_TID		2	/* thread index in the block */
#define VGPU_SR_NTID		3	/* threads of the block */
#define VGPU_SR_CTAID		4	/* block index in the grid */
#define VGPU_SR_NCTAID		5	/* blocks of the grid */
#define VGPU_SR_ITEM		6	/* first work item of the block (F14) */
#define VGPU_SR_NITEMS		7	/* work items of the block (F14) */
#define VGPU_SR_MAX		7

/* Compare conditions (imm of ISETP, USETP, FSETP). */
#define VGPU_COND_EQ		0
#define VGPU_COND_NE		1
#define VGPU_COND_LT		2
#define VGPU_COND_LE		3
#define VGPU_COND_GT		4
#define VGPU_COND_GE		5
#define VGPU_COND_MAX		5

/* Predicate operations (imm of PLOP). */
#define VGPU_PLOP_AND		0	/* p[b] & p[c] */
#define VGPU_PLOP_OR		1	/* p[b] | p[c] */
#define VGPU_PLOP_XOR		2	/* p[b] ^ p[c] */
#define VGPU_PLOP_ANDNOT	3	/* p[b] & ~p[c] */
#define VGPU_PLOP_MAX		3

/*
 * Atomics (ATOMG, ATOMS): imm = vreg | op << 8 | creg << 16, bits 24-31
 * zero; the old value goes to register a; the new one is op(old, r[vreg]);
 * CAS stores r[vreg] if old == r[creg] (creg is 0 for the other ops).
 */
#define VGPU_ATOM_ADD		0
#define VGPU_ATOM_MIN		1	/* signed */
#define VGPU_ATOM_MAX		2	/* signed */
#define VGPU_ATOM_EXCH		3
#define VGPU_ATOM_CAS		4
#define VGPU_ATOM_OP_MAX	4
#define VGPU_ATOM_IMM(vreg, op, creg) \
	((__u32)(((__u32)(vreg) & 0xff) | ((__u32)(op) & 0xff) << 8 | \
		 ((__u32)(creg) & 0xff) << 16))
#define VGPU_ATOM_VREG(imm)	((__u32)(imm) & 0xff)
#define VGPU_ATOM_OP(imm)	(((__u32)(imm) >> 8) & 0xff)
#define VGPU_ATOM_CREG(imm)	(((__u32)(imm) >> 16) & 0xff)

/*
 * BRP: imm = target | join << 16, both below the program length; the
 * lanes that take the branch and those that do not meet again at join.
 */
#define VGPU_BRP_IMM(target, join) \
	((__u32)(((__u32)(target) & 0xffff) | ((__u32)(join) & 0xffff) << 16))
#define VGPU_BRP_TARGET(imm)	((__u32)(imm) & 0xffff)
#define VGPU_BRP_JOIN(imm)	((__u32)(imm) >> 16)

/* ========================= end of Virtual ISA ============================ */

#endif /* _UAPI_LINUX_VGPU_DISPATCH_H */
