// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_main.c - module entry points of vgpu-dispatch.
 *
 * vgpu-dispatch emulates a GPU's work-dispatch hardware and firmware (see
 * Documentation/index.rst).  At load time it creates @num_devices instances
 * with the configuration preset @preset; more are created and removed at
 * runtime through /sys/bus/vgpu (vgpu_bus.c).
 */
#include <linux/module.h>
#include <linux/slab.h>

#include "vgpu_drv.h"

static unsigned int vgpu_num_devices = 1;
module_param_named(num_devices, vgpu_num_devices, uint, 0444);
MODULE_PARM_DESC(num_devices, "Device instances created at load time (0-16, default 1)");

static char *vgpu_preset = "small";
module_param_named(preset, vgpu_preset, charp, 0444);
MODULE_PARM_DESC(preset, "Preset of those instances: small, a100, h100 (default small); options as for new_device may follow, separated by spaces");

static int __init vgpu_init(void)
{
	struct vgpu_dev_opts *opts;
	unsigned int i;
	char *line;
	int ret;

	if (vgpu_num_devices > VGPU_MAX_DEVICES) {
		pr_err("vgpu_dispatch: num_devices=%u exceeds %u\n",
		       vgpu_num_devices, VGPU_MAX_DEVICES);
		return -EINVAL;
	}

	opts = kzalloc(sizeof(*opts), GFP_KERNEL);
	line = kstrdup(vgpu_preset, GFP_KERNEL);
	ret = -ENOMEM;
	if (!opts || !line)
		goto err_alloc;
	ret = vgpu_dev_opts_parse(opts, line);
	if (ret) {
		pr_err("vgpu_dispatch: invalid preset/options '%s'\n", vgpu_preset);
		goto err_alloc;
	}

	ret = vgpu_jobs_init();
	if (ret)
		goto err_alloc;
	vgpu_debugfs_init();	/* debugfs failures are not errors */
	ret = vgpu_netlink_init();
	if (ret)
		goto err_debugfs;
	ret = vgpu_bus_init();
	if (ret)
		goto err_netlink;

	for (i = 0; i < vgpu_num_devices; i++) {
		ret = vgpu_bus_add_device(i, opts);
		if (ret) {
			pr_err("vgpu_dispatch: cannot create vgpu%u (preset '%s'): %d\n",
			       i, vgpu_preset, ret);
			goto err_devices;
		}
	}
	pr_info("vgpu_dispatch: %u device(s), preset %s\n", vgpu_num_devices,
		vgpu_preset);
	kfree(line);
	kfree(opts);
	return 0;

err_devices:
	vgpu_bus_fini();
err_netlink:
	vgpu_netlink_exit();
err_debugfs:
	vgpu_debugfs_exit();
	vgpu_jobs_exit();
err_alloc:
	kfree(line);
	kfree(opts);
	return ret;
}

static void __exit vgpu_exit(void)
{
	vgpu_bus_fini();
	vgpu_netlink_exit();
	vgpu_debugfs_exit();
	vgpu_jobs_exit();
	vgpu_fence_exit();
}

module_init(vgpu_init);
module_exit(vgpu_exit);

MODULE_DESCRIPTION("Emulated GPU work-dispatch hardware and firmware");
MODULE_AUTHOR("vgpu-dispatch developers");
MODULE_LICENSE("GPL");
