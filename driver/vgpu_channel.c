// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_channel.c - channels (F11, F60) and their ioctls,
 * CHANNEL_CREATE and CHANNEL_DESTROY.
 *
 * Every object a file creates lives in one of its xarrays under a handle
 * that is only meaningful to that file; release() tears them all down
 * (vgpu_dev.c).
 */
#include <linux/capability.h>
#include <linux/slab.h>

#include "vgpu_drv.h"

static void vgpu_channel_free(struct vgpu_file *vf, struct vgpu_channel *ch)
{
	struct vgpu_device *vdev = vf->vdev;

	lockdep_assert_held(&vf->lock);
	vgpu_jobs_cancel_channel(vf, ch);
	vgpu_sched_channel_remove(&vdev->sched, ch->core_ch);
	vf->nr_channels--;
	mutex_lock(&vdev->lock);
	vdev->nr_channels--;
	mutex_unlock(&vdev->lock);
	kfree(ch);
}

/**
 * vgpu_channels_release_all() - free every channel of a file
 * @vf: the file, locked, being released; its kernels are gone
 *	(vgpu_jobs_release_all())
 */
void vgpu_channels_release_all(struct vgpu_file *vf)
{
	struct vgpu_channel *ch;
	unsigned long handle;

	lockdep_assert_held(&vf->lock);
	xa_for_each(&vf->channels, handle, ch) {
		xa_erase(&vf->channels, handle);
		vgpu_channel_free(vf, ch);
	}
}

/*
 * Create a channel owned by @vf with priority @prio (below the device's
 * default_prio only with CAP_SYS_NICE) and hang timeout @timeout (0: the
 * device's default).  0; -EINVAL for a priority or timeout out of range;
 * -EPERM for a privileged priority without CAP_SYS_NICE; -ENOSPC when the
 * file or the device has reached its channel limit; -ENOMEM.
 */
static int vgpu_channel_create(struct vgpu_file *vf, u32 prio, u64 timeout,
			       u32 *handle)
{
	struct vgpu_device *vdev = vf->vdev;
	struct vgpu_channel *ch;
	bool room;
	u32 id;
	int ret;

	if (prio >= vdev->cfg.num_prios || timeout > VGPU_MAX_TIMEOUT_CYCLES)
		return -EINVAL;
	if (prio < vdev->default_prio && !capable(CAP_SYS_NICE))
		return -EPERM;

	ch = kzalloc(sizeof(*ch), GFP_KERNEL);
	if (!ch)
		return -ENOMEM;
	ch->prio = prio;
	ch->timeout = timeout ? timeout : READ_ONCE(vdev->limits.default_timeout);
	INIT_LIST_HEAD(&ch->kernels);

	mutex_lock(&vf->lock);
	ret = -ENOSPC;
	if (vf->nr_channels >= vdev->limits.channels_per_file)
		goto err_limit;
	mutex_lock(&vdev->lock);
	room = vdev->nr_channels < vdev->limits.channels;
	if (room)
		vdev->nr_channels++;
	mutex_unlock(&vdev->lock);
	if (!room)
		goto err_limit;

	ret = vgpu_sched_channel_add(&vdev->sched, prio, &ch->core_ch);
	if (ret)
		goto err_core;
	/* cyclic: a stale handle must not name a new channel (1: wrapped) */
	ret = xa_alloc_cyclic(&vf->channels, &id, ch, xa_limit_31b,
			      &vf->next_channel, GFP_KERNEL);
	if (ret < 0)
		goto err_xa;
	ch->handle = id;
	vf->nr_channels++;
	mutex_unlock(&vf->lock);
	*handle = id;
	return 0;

err_xa:
	vgpu_sched_channel_remove(&vdev->sched, ch->core_ch);
err_core:
	mutex_lock(&vdev->lock);
	vdev->nr_channels--;
	mutex_unlock(&vdev->lock);
	if (ret == -EBUSY)
		ret = -ENOSPC;
err_limit:
	mutex_unlock(&vf->lock);
	kfree(ch);
	return ret;
}

/*
 * Destroy channel @handle of @vf: 0, or -ENOENT.  Kernels of the channel
 * that have not finished are cancelled; their handles stay valid until
 * released.
 */
static int vgpu_channel_destroy(struct vgpu_file *vf, u32 handle)
{
	struct vgpu_channel *ch;

	mutex_lock(&vf->lock);
	ch = xa_erase(&vf->channels, handle);
	if (ch)
		vgpu_channel_free(vf, ch);
	mutex_unlock(&vf->lock);
	return ch ? 0 : -ENOENT;
}

/**
 * vgpu_ioctl_channel_create() - VGPU_IOCTL_CHANNEL_CREATE (F11)
 * @vf: the file
 * @arg: struct vgpu_channel_create
 *
 * Return: 0 with the handle in @arg; -EINVAL (flags, pad, handle, priority
 * or timeout); -EPERM; -ENOSPC; -ENOMEM.
 */
int vgpu_ioctl_channel_create(struct vgpu_file *vf, void *arg)
{
	struct vgpu_channel_create *cc = arg;
	u32 handle;
	int ret;

	if (cc->flags & ~VGPU_CHANNEL_FLAGS_ALL)
		return -EINVAL;
	if (cc->pad || cc->handle)
		return -EINVAL;
	ret = vgpu_channel_create(vf, cc->priority, cc->timeout_cycles, &handle);
	if (ret)
		return ret;
	cc->handle = handle;
	return 0;
}

/**
 * vgpu_ioctl_channel_create_undo() - take back a CHANNEL_CREATE whose
 * result was lost
 * @vf: the file
 * @arg: struct vgpu_channel_create of the successful create
 *
 * The handle never reached the caller: the channel never existed.
 */
void vgpu_ioctl_channel_create_undo(struct vgpu_file *vf, void *arg)
{
	struct vgpu_channel_create *cc = arg;

	vgpu_channel_destroy(vf, cc->handle);
}

/**
 * vgpu_ioctl_channel_destroy() - VGPU_IOCTL_CHANNEL_DESTROY
 * @vf: the file
 * @arg: struct vgpu_channel_destroy
 *
 * Return: 0; -EINVAL (flags); -ENOENT (not a channel of this file).
 */
int vgpu_ioctl_channel_destroy(struct vgpu_file *vf, void *arg)
{
	struct vgpu_channel_destroy *cd = arg;

	if (cd->flags)
		return -EINVAL;
	return vgpu_channel_destroy(vf, cd->handle);
}
