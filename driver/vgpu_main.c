// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_main.c - module entry points of vgpu-dispatch.
 *
 * vgpu-dispatch emulates a GPU's work-dispatch hardware and firmware (see
 * Documentation/design.rst).  At load time it creates @num_devices instances
 * with the configuration preset @preset.
 */
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>

#include "vgpu_drv.h"

static unsigned int vgpu_num_devices = 1;
module_param_named(num_devices, vgpu_num_devices, uint, 0444);
MODULE_PARM_DESC(num_devices, "Device instances created at load time (0-16, default 1)");

static char *vgpu_preset = "small";
module_param_named(preset, vgpu_preset, charp, 0444);
MODULE_PARM_DESC(preset, "Configuration preset of those instances: small, a100, h100 (default small)");

static LIST_HEAD(vgpu_devices);
static DEFINE_MUTEX(vgpu_devices_lock);

static void vgpu_devices_destroy_all(void)
{
	struct vgpu_device *vdev, *tmp;

	mutex_lock(&vgpu_devices_lock);
	list_for_each_entry_safe(vdev, tmp, &vgpu_devices, node) {
		list_del(&vdev->node);
		vgpu_device_destroy(vdev);
	}
	mutex_unlock(&vgpu_devices_lock);
}

static int __init vgpu_init(void)
{
	struct vgpu_device *vdev;
	unsigned int i;
	int ret;

	if (vgpu_num_devices > VGPU_MAX_DEVICES) {
		pr_err("vgpu_dispatch: num_devices=%u exceeds %u\n",
		       vgpu_num_devices, VGPU_MAX_DEVICES);
		return -EINVAL;
	}

	for (i = 0; i < vgpu_num_devices; i++) {
		ret = vgpu_device_create(i, vgpu_preset, &vdev);
		if (ret)
			goto err_create;
		mutex_lock(&vgpu_devices_lock);
		list_add_tail(&vdev->node, &vgpu_devices);
		mutex_unlock(&vgpu_devices_lock);
	}
	pr_info("vgpu_dispatch: %u device(s), preset %s\n", vgpu_num_devices,
		vgpu_preset);
	return 0;

err_create:
	vgpu_devices_destroy_all();
	return ret;
}

static void __exit vgpu_exit(void)
{
	vgpu_devices_destroy_all();
}

module_init(vgpu_init);
module_exit(vgpu_exit);

MODULE_DESCRIPTION("Emulated GPU work-dispatch hardware and firmware");
MODULE_AUTHOR("vgpu-dispatch developers");
MODULE_LICENSE("GPL");
