// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_ioctl.c - ioctl dispatch of /dev/vgpuN (uapi/linux/vgpu_dispatch.h)
 * and the device's own commands, GET_INFO and GATE; the commands of an
 * object live with it (CHANNEL_* in vgpu_channel.c, the kernel commands in
 * vgpu_kernel.c, BO_* in vgpu_bo.c).
 *
 * Extension rule (Documentation/uapi.rst): size-versioned structs.  The size
 * in the ioctl number is the caller's struct size; the argument is copied in
 * with copy_struct_from_user() (zero-extended when shorter, -E2BIG when a
 * longer struct carries non-zero bytes this module does not know), and out
 * truncated to the caller's size.  Handlers see a kernel copy of the size
 * this module knows and never touch user memory themselves.
 *
 * All-or-nothing (Documentation/uapi.rst): an ioctl either fails
 * with nothing changed or succeeds with its result in the caller's struct.
 * The argument of a command that copies a result back must be writable
 * before the handler runs (-EFAULT, nothing done); a copy-out that still
 * fails afterwards (another thread unmapped or write-protected the struct
 * meanwhile) is undone by the command's @undo.  A command whose effect
 * cannot be taken back once seen defers it to @commit, which runs only
 * after the result reached the caller.
 */
#include <linux/build_bug.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <linux/vgpu_dispatch.h>

#include "vgpu_drv.h"

/* uapi rule 1: every struct a multiple of 8 bytes, sizes pinned. */
#define VGPU_UAPI_SIZE(type, size)					\
	static_assert(sizeof(type) == (size) && sizeof(type) % 8 == 0)

VGPU_UAPI_SIZE(struct vgpu_dev_config, 80);
VGPU_UAPI_SIZE(struct vgpu_info, VGPU_INFO_SIZE_VER2);
VGPU_UAPI_SIZE(struct vgpu_submit_desc, VGPU_SUBMIT_DESC_SIZE_VER6);
VGPU_UAPI_SIZE(struct vgpu_template, VGPU_TEMPLATE_SIZE_VER0);
VGPU_UAPI_SIZE(struct vgpu_queue_push, VGPU_QUEUE_PUSH_SIZE_VER1);
VGPU_UAPI_SIZE(struct vgpu_submit, VGPU_SUBMIT_SIZE_VER0);
VGPU_UAPI_SIZE(struct vgpu_wait, VGPU_WAIT_SIZE_VER0);
VGPU_UAPI_SIZE(struct vgpu_kernel_query, VGPU_KERNEL_QUERY_SIZE_VER2);
VGPU_UAPI_SIZE(struct vgpu_kernel_cancel, VGPU_KERNEL_CANCEL_SIZE_VER0);
VGPU_UAPI_SIZE(struct vgpu_gate, VGPU_GATE_SIZE_VER0);
VGPU_UAPI_SIZE(struct vgpu_channel_create, VGPU_CHANNEL_CREATE_SIZE_VER0);
VGPU_UAPI_SIZE(struct vgpu_channel_destroy, VGPU_CHANNEL_DESTROY_SIZE_VER0);
VGPU_UAPI_SIZE(struct vgpu_insn, VGPU_INSN_SIZE);
VGPU_UAPI_SIZE(struct vgpu_bo_create, VGPU_BO_CREATE_SIZE_VER0);
VGPU_UAPI_SIZE(struct vgpu_bo_destroy, VGPU_BO_DESTROY_SIZE_VER0);

/* Largest argument struct of any ioctl: the on-stack argument buffer. */
#define VGPU_IOCTL_ARG_MAX	256

/**
 * struct vgpu_ioctl_desc - one ioctl of the dispatch table
 * @cmd: the ioctl number (its size field is the size this module knows)
 * @min_size: the first published size of the argument (_SIZE_VER0)
 * @fn: handler; @arg is a kernel copy of the argument, copied back on success
 *	for _IOC_READ commands
 * @commit: optional, the part of the effect that runs once the result has
 *	been copied back (or at once for a command with no result)
 * @undo: optional, takes back what a successful @fn did when the result
 *	cannot be copied back
 */
struct vgpu_ioctl_desc {
	unsigned int cmd;
	u32 min_size;
	int (*fn)(struct vgpu_file *vf, void *arg);
	void (*commit)(struct vgpu_file *vf, void *arg);
	void (*undo)(struct vgpu_file *vf, void *arg);
};

static void vgpu_config_to_uapi(const struct vgpu_config *cfg,
				struct vgpu_dev_config *out)
{
	out->num_sms = cfg->num_sms;
	out->subparts = cfg->subparts;
	out->regs_per_subpart = cfg->regs_per_subpart;
	out->reg_unit = cfg->reg_unit;
	out->warps_per_subpart = cfg->warps_per_subpart;
	out->max_warps_per_sm = cfg->max_warps_per_sm;
	out->max_blocks_per_sm = cfg->max_blocks_per_sm;
	out->max_barriers_per_sm = cfg->max_barriers_per_sm;
	out->smem_per_sm = cfg->smem_per_sm;
	out->smem_unit = cfg->smem_unit;
	out->smem_reserve = cfg->smem_reserve;
	out->smem_max_per_block = cfg->smem_max_per_block;
	out->max_threads_per_block = cfg->max_threads_per_block;
	out->warp_size = cfg->warp_size;
	out->num_prios = cfg->num_prios;
	out->preset = cfg->preset;
	strscpy_pad(out->name, cfg->name, sizeof(out->name));
}

static int vgpu_ioctl_get_info(struct vgpu_file *vf, void *arg)
{
	struct vgpu_info *info = arg;
	struct vgpu_device *vdev = vf->vdev;

	if (info->flags & ~VGPU_INFO_FLAGS_ALL)
		return -EINVAL;
	if (info->pad || info->pad2 || info->pad3 || info->pad4)
		return -EINVAL;

	/* uapi rule 6: zero every struct copied out */
	memset(info, 0, sizeof(*info));
	info->version_major = VGPU_VERSION_MAJOR;
	info->version_minor = VGPU_VERSION_MINOR;
	info->version_patch = VGPU_VERSION_PATCH;
	info->struct_size = sizeof(*info);
	info->caps = VGPU_CAP_ALL;
	/* out-fences are sync_files (vgpu_fence.c) */
	if (!IS_ENABLED(CONFIG_SYNC_FILE))
		info->caps &= ~VGPU_CAP_FENCE_OUT;
	info->dev_index = vdev->index;
	vgpu_config_to_uapi(&vdev->cfg, &info->config);
	info->default_prio = vdev->default_prio;
	info->max_channels_per_file = vdev->limits.channels_per_file;
	info->max_channels = vdev->limits.channels;
	info->max_kernels_per_file = vdev->limits.kernels_per_file;
	info->max_queued = vdev->limits.queued;
	info->max_prog_bytes_per_file = vdev->limits.prog_bytes_per_file;
	info->workers = vdev->sched.nworkers;
	info->sregs_per_subpart = vdev->cfg.sregs_per_subpart;
	info->sreg_unit = vdev->cfg.sreg_unit;
	info->max_buffers_per_file = vdev->limits.bos_per_file;
	info->max_buffer_bytes_per_file = vdev->limits.bo_bytes_per_file;
	mutex_lock(&vdev->lock);
	info->live_channels = vdev->nr_channels;
	mutex_unlock(&vdev->lock);
	mutex_lock(&vdev->sched.lock);
	info->live_kernels = atomic_read(&vdev->sched.nr_unfinished);
	info->cycle = vdev->sched.gpu->now;
	info->trace_hash = vgpu_gpu_trace_hash(vdev->sched.gpu);
	mutex_unlock(&vdev->sched.lock);
	return 0;
}

/*
 * VGPU_IOCTL_GATE (F52): 0; -EINVAL (flags, cycle, unknown op; closing
 * twice or opening a gate this file does not hold).
 */
static int vgpu_ioctl_gate(struct vgpu_file *vf, void *arg)
{
	struct vgpu_gate *gate = arg;
	bool close;
	u64 cycle;
	int ret;

	if (gate->flags || gate->cycle)
		return -EINVAL;
	if (gate->op != VGPU_GATE_CLOSE && gate->op != VGPU_GATE_OPEN)
		return -EINVAL;
	close = gate->op == VGPU_GATE_CLOSE;

	mutex_lock(&vf->lock);
	if (vf->gate_held == close) {
		ret = -EINVAL;
		goto out;
	}
	ret = vgpu_sched_gate(&vf->vdev->sched, close, &cycle);
	if (!ret) {
		vf->gate_held = close;
		gate->cycle = cycle;
	}
out:
	mutex_unlock(&vf->lock);
	return ret;
}

/*
 * Take back a GATE whose result was lost.  The gate is a count of holders,
 * so the opposite operation always succeeds; dispatch that happened while
 * it was open stays done.
 */
static void vgpu_ioctl_gate_undo(struct vgpu_file *vf, void *arg)
{
	struct vgpu_gate *gate = arg;
	bool close = gate->op == VGPU_GATE_CLOSE;
	u64 cycle;

	mutex_lock(&vf->lock);
	if (vf->gate_held == close &&
	    !vgpu_sched_gate(&vf->vdev->sched, !close, &cycle))
		vf->gate_held = !close;
	mutex_unlock(&vf->lock);
}

/*
 * Entry @ioctl (VGPU_IOCTL_@ioctl) of the table: its first published size
 * @size and handler @func, then any of .commit and .undo (as
 * DRM_IOCTL_DEF_DRV() does for DRM drivers).
 */
#define VGPU_IOCTL_DEF(ioctl, size, func, ...)				\
	[_IOC_NR(VGPU_IOCTL_##ioctl)] = {				\
		.cmd = VGPU_IOCTL_##ioctl,				\
		.min_size = size,					\
		.fn = func,						\
		__VA_ARGS__						\
	}

static const struct vgpu_ioctl_desc vgpu_ioctls[] = {
	VGPU_IOCTL_DEF(GET_INFO, VGPU_INFO_SIZE_VER0, vgpu_ioctl_get_info),
	VGPU_IOCTL_DEF(CHANNEL_CREATE, VGPU_CHANNEL_CREATE_SIZE_VER0,
		       vgpu_ioctl_channel_create,
		       .undo = vgpu_ioctl_channel_create_undo),
	VGPU_IOCTL_DEF(CHANNEL_DESTROY, VGPU_CHANNEL_DESTROY_SIZE_VER0,
		       vgpu_ioctl_channel_destroy),
	VGPU_IOCTL_DEF(SUBMIT, VGPU_SUBMIT_SIZE_VER0, vgpu_ioctl_submit),
	VGPU_IOCTL_DEF(WAIT, VGPU_WAIT_SIZE_VER0, vgpu_ioctl_wait),
	VGPU_IOCTL_DEF(QUERY, VGPU_KERNEL_QUERY_SIZE_VER0, vgpu_ioctl_query,
		       .commit = vgpu_ioctl_query_commit),
	VGPU_IOCTL_DEF(CANCEL, VGPU_KERNEL_CANCEL_SIZE_VER0, vgpu_ioctl_cancel),
	VGPU_IOCTL_DEF(GATE, VGPU_GATE_SIZE_VER0, vgpu_ioctl_gate,
		       .undo = vgpu_ioctl_gate_undo),
	VGPU_IOCTL_DEF(QUEUE_PUSH, VGPU_QUEUE_PUSH_SIZE_VER0,
		       vgpu_ioctl_queue_push),
	VGPU_IOCTL_DEF(BO_CREATE, VGPU_BO_CREATE_SIZE_VER0,
		       vgpu_ioctl_bo_create,
		       .undo = vgpu_ioctl_bo_create_undo),
	VGPU_IOCTL_DEF(BO_DESTROY, VGPU_BO_DESTROY_SIZE_VER0,
		       vgpu_ioctl_bo_destroy),
};

/**
 * vgpu_ioctl() - unlocked_ioctl of /dev/vgpuN
 * @file: the open file
 * @cmd: ioctl number
 * @arg: user pointer to the argument struct
 *
 * Return: the handler's result; -ENOTTY for an unknown command or a known
 * number with the wrong type or direction, -EINVAL for an argument shorter
 * than its first published size, -E2BIG for unknown non-zero trailing bytes,
 * -EFAULT for a bad pointer (or, for a command with a result, an argument
 * that cannot be written; nothing is done), -ENODEV once the device has
 * been removed.
 */
long vgpu_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct vgpu_file *vf = file->private_data;
	void __user *uarg = (void __user *)arg;
	const struct vgpu_ioctl_desc *desc;
	u8 buf[VGPU_IOCTL_ARG_MAX] __aligned(8);
	unsigned int nr = _IOC_NR(cmd);
	size_t usize = _IOC_SIZE(cmd);
	size_t ksize;
	int ret;

	if (_IOC_TYPE(cmd) != VGPU_IOCTL_BASE || nr >= ARRAY_SIZE(vgpu_ioctls))
		return -ENOTTY;
	desc = &vgpu_ioctls[nr];
	if (!desc->fn || _IOC_DIR(cmd) != _IOC_DIR(desc->cmd))
		return -ENOTTY;
	if (usize < desc->min_size)
		return -EINVAL;
	if (!vgpu_device_alive(vf->vdev))
		return -ENODEV;

	ksize = _IOC_SIZE(desc->cmd);
	BUILD_BUG_ON(sizeof(struct vgpu_info) > VGPU_IOCTL_ARG_MAX);
	BUILD_BUG_ON(sizeof(struct vgpu_kernel_query) > VGPU_IOCTL_ARG_MAX);
	memset(buf, 0, ksize);
	if (_IOC_DIR(cmd) & _IOC_WRITE) {
		ret = copy_struct_from_user(buf, ksize, uarg, usize);
		if (ret)
			return ret;
	}
	/*
	 * The result must be able to reach the caller before anything is
	 * done: write back the bytes just read (every _IOC_READ command is
	 * _IOWR), which probes the struct without changing it.
	 */
	if ((_IOC_DIR(cmd) & _IOC_READ) &&
	    copy_to_user(uarg, buf, min(usize, ksize)))
		return -EFAULT;

	ret = desc->fn(vf, buf);
	if (ret)
		return ret;

	if ((_IOC_DIR(cmd) & _IOC_READ) &&
	    copy_to_user(uarg, buf, min(usize, ksize))) {
		if (desc->undo)
			desc->undo(vf, buf);
		return -EFAULT;
	}
	if (desc->commit)
		desc->commit(vf, buf);
	return 0;
}
