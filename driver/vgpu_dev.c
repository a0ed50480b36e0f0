// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_dev.c - device instances (/dev/vgpuN) and open files.
 */
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "vgpu_drv.h"

static int vgpu_fop_open(struct inode *inode, struct file *file)
{
	/* misc_open() holds misc_mtx: the device cannot be deregistered now */
	struct vgpu_device *vdev = container_of(file->private_data,
						struct vgpu_device, misc);
	struct vgpu_file *vf;

	vf = kzalloc(sizeof(*vf), GFP_KERNEL);
	if (!vf)
		return -ENOMEM;
	kref_get(&vdev->ref);
	vgpu_file_init(vf, vdev);
	file->private_data = vf;
	return 0;
}

static int vgpu_fop_release(struct inode *inode, struct file *file)
{
	struct vgpu_file *vf = file->private_data;

	vgpu_file_fini(vf);
	vgpu_device_put(vf->vdev);
	kfree(vf);
	return 0;
}

static const struct file_operations vgpu_fops = {
	.owner		= THIS_MODULE,
	.open		= vgpu_fop_open,
	.release	= vgpu_fop_release,
	.unlocked_ioctl	= vgpu_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.llseek		= noop_llseek,
};

static void vgpu_device_free(struct kref *ref)
{
	struct vgpu_device *vdev = container_of(ref, struct vgpu_device, ref);

	mutex_destroy(&vdev->lock);
	kfree(vdev);
}

/**
 * vgpu_device_put() - drop a reference on a device instance
 * @vdev: the device
 *
 * The last reference frees it.
 */
void vgpu_device_put(struct vgpu_device *vdev)
{
	kref_put(&vdev->ref, vgpu_device_free);
}

/**
 * vgpu_device_alive() - tell whether a device instance is still registered
 * @vdev: the device
 *
 * Return: false once vgpu_device_destroy() has started on @vdev.
 */
bool vgpu_device_alive(struct vgpu_device *vdev)
{
	bool alive;

	mutex_lock(&vdev->lock);
	alive = !vdev->dead;
	mutex_unlock(&vdev->lock);
	return alive;
}

/**
 * vgpu_device_create() - create and register a device instance
 * @index: N of /dev/vgpuN
 * @preset: configuration preset name (SPEC F03)
 * @out: the new device on success
 *
 * Return: 0, -EINVAL for an unknown preset, -ENOMEM, or the error of
 * misc_register().
 */
int vgpu_device_create(u32 index, const char *preset, struct vgpu_device **out)
{
	struct vgpu_device *vdev;
	const char *bad_field;
	int ret;

	vdev = kzalloc(sizeof(*vdev), GFP_KERNEL);
	if (!vdev)
		return -ENOMEM;
	kref_init(&vdev->ref);
	mutex_init(&vdev->lock);
	INIT_LIST_HEAD(&vdev->node);
	vdev->index = index;
	snprintf(vdev->name, sizeof(vdev->name), "vgpu%u", index);

	ret = vgpu_config_preset(&vdev->cfg, preset);
	if (ret) {
		pr_debug("vgpu_dispatch: unknown preset '%s'\n", preset);
		goto err_config;
	}
	ret = vgpu_config_validate(&vdev->cfg, &bad_field);
	if (ret) {
		pr_err("vgpu_dispatch: preset '%s': invalid %s\n", preset, bad_field);
		goto err_config;
	}

	vdev->limits.channels_per_file = VGPU_DEF_CHANNELS_PER_FILE;
	vdev->limits.channels = VGPU_DEF_CHANNELS;
	vdev->limits.default_timeout = VGPU_DEF_TIMEOUT_CYCLES;
	/* the upper half of the priorities is open to everybody */
	vdev->default_prio = vdev->cfg.num_prios / 2;

	vdev->misc.minor = MISC_DYNAMIC_MINOR;
	vdev->misc.name = vdev->name;
	vdev->misc.fops = &vgpu_fops;
	vdev->misc.mode = 0666;
	ret = misc_register(&vdev->misc);
	if (ret)
		goto err_misc;

	*out = vdev;
	return 0;

err_misc:
err_config:
	vgpu_device_put(vdev);
	return ret;
}

/**
 * vgpu_device_destroy() - unregister a device instance
 * @vdev: the device
 *
 * New opens fail once this returns; files still open get -ENODEV from every
 * call, and the device is freed when the last of them closes.
 */
void vgpu_device_destroy(struct vgpu_device *vdev)
{
	mutex_lock(&vdev->lock);
	vdev->dead = true;
	mutex_unlock(&vdev->lock);
	misc_deregister(&vdev->misc);
	vgpu_device_put(vdev);
}
