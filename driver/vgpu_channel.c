// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_channel.c - per-file object tables and channels (SPEC F11, F60).
 *
 * Every object a file creates lives in one of its xarrays under a handle
 * that is only meaningful to that file; release() tears them all down.
 */
#include <linux/capability.h>
#include <linux/slab.h>

#include "vgpu_drv.h"

/**
 * vgpu_file_init() - initialise the state of a new open file
 * @vf: the file state
 * @vdev: its device; the caller passes on a reference it holds
 *
 * Return: 0.
 */
int vgpu_file_init(struct vgpu_file *vf, struct vgpu_device *vdev)
{
	vf->vdev = vdev;
	vf->tenant = atomic_inc_return(&vdev->next_tenant);
	mutex_init(&vf->lock);
	xa_init_flags(&vf->channels, XA_FLAGS_ALLOC1);
	xa_init_flags(&vf->kernels, XA_FLAGS_ALLOC1);
	atomic_set(&vf->nr_done, 0);
	return 0;
}

static void vgpu_channel_free(struct vgpu_file *vf, struct vgpu_channel *ch)
{
	struct vgpu_device *vdev = vf->vdev;

	lockdep_assert_held(&vf->lock);
	vgpu_kernels_cancel_channel(vf, ch);
	vgpu_sched_channel_remove(&vdev->sched, ch->core_ch);
	vf->nr_channels--;
	mutex_lock(&vdev->lock);
	vdev->nr_channels--;
	mutex_unlock(&vdev->lock);
	kfree(ch);
}

/**
 * vgpu_file_fini() - cancel and free everything an open file owns
 * @vf: the file state (the device reference is the caller's to drop)
 */
void vgpu_file_fini(struct vgpu_file *vf)
{
	struct vgpu_channel *ch;
	unsigned long handle;
	u64 cycle;

	mutex_lock(&vf->lock);
	if (vf->gate_held) {
		vgpu_sched_gate(&vf->vdev->sched, false, &cycle);
		vf->gate_held = false;
	}
	vgpu_kernels_release_all(vf);
	xa_for_each(&vf->channels, handle, ch) {
		xa_erase(&vf->channels, handle);
		vgpu_channel_free(vf, ch);
	}
	mutex_unlock(&vf->lock);
	xa_destroy(&vf->kernels);
	xa_destroy(&vf->channels);
	mutex_destroy(&vf->lock);
}

/**
 * vgpu_channel_create() - create a channel owned by @vf
 * @vf: the owning file
 * @prio: priority, below vgpu_device.default_prio only with CAP_SYS_NICE
 * @timeout: hang timeout in virtual cycles, 0 for the device default
 * @handle: the new channel's handle on success
 *
 * Return: 0; -EINVAL for a priority or timeout out of range; -EPERM for a
 * privileged priority without CAP_SYS_NICE; -ENOSPC when the file or the
 * device has reached its channel limit; -ENOMEM.
 */
int vgpu_channel_create(struct vgpu_file *vf, u32 prio, u64 timeout,
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

/**
 * vgpu_channel_destroy() - destroy a channel of @vf
 * @vf: the owning file
 * @handle: the channel's handle
 *
 * Kernels of the channel that have not finished are cancelled; their
 * handles stay valid until released.
 *
 * Return: 0, or -ENOENT if @vf has no channel @handle.
 */
int vgpu_channel_destroy(struct vgpu_file *vf, u32 handle)
{
	struct vgpu_channel *ch;

	mutex_lock(&vf->lock);
	ch = xa_erase(&vf->channels, handle);
	if (ch)
		vgpu_channel_free(vf, ch);
	mutex_unlock(&vf->lock);
	return ch ? 0 : -ENOENT;
}
