// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_bus.c - device instances created and destroyed at runtime (F61).
 *
 * Like netdevsim, the module registers a bus, /sys/bus/vgpu, whose two
 * write-only attributes manage instances without reloading the module:
 *
 *   echo "ID [PRESET] [key=value ...]" > /sys/bus/vgpu/new_device
 *   echo "ID" > /sys/bus/vgpu/del_device
 *
 * The keys are those of vgpu_dev_opts_parse() (vgpu_dev.c): a custom SM
 * count, policy, preemption mode, windows, epoch, workers, clock mode,
 * timeout...
 *
 * Errors: -EINVAL (malformed line, ID >= VGPU_MAX_DEVICES, unknown preset,
 * unknown key or invalid value), -EEXIST (ID in use: an ID being removed
 * stays in use until its instance is off the bus, i.e. until del_device
 * returns), -EBUSY (the module is being unloaded), -ENOENT (no such ID on
 * del_device).  Removing an instance while files are open on it makes
 * their calls fail with -ENODEV; it is freed when the last one closes, and
 * its ID is free again as soon as del_device returns.
 *
 * Module exit (vgpu_bus_fini()) first stops new_device (-EBUSY), then
 * removes every instance, then the driver and the bus, and waits until
 * every instance is freed: no device of the bus outlives the module.
 */
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "vgpu_compat.h"
#include "vgpu_drv.h"

/*
 * Instances are devices on this bus, vgpu<N>, bound to the one driver
 * below: its probe and remove bring them up and down (vgpu_dev.c).
 */
static int vgpu_bus_probe(struct device *dev)
{
	return vgpu_device_probe(to_vgpu_device(dev));
}

static void vgpu_bus_remove(struct device *dev)
{
	vgpu_device_remove(to_vgpu_device(dev));
}

static struct bus_type vgpu_bus_type;

/* new_device accepted: from vgpu_bus_init() to vgpu_bus_fini() */
static bool vgpu_bus_enabled;	/* protected by vgpu_devices_lock */

/**
 * vgpu_bus_add_device() - create instance @index
 * @index: N of /dev/vgpuN, below VGPU_MAX_DEVICES
 * @opts: its configuration and options
 *
 * Under vgpu_devices_lock from the test of @index to the list insertion,
 * so two creations of one index cannot both get past the test, and a
 * removal of the same index waits for this one to finish.  Once module
 * exit has begun, nothing is created any more.
 *
 * Return: 0, -EINVAL (index, options), -EEXIST, -EBUSY (module exit),
 * -ENOMEM or the error of device_add() or of the probe.
 */
int vgpu_bus_add_device(u32 index, const struct vgpu_dev_opts *opts)
{
	struct vgpu_device *vdev;
	int ret;

	if (index >= VGPU_MAX_DEVICES)
		return -EINVAL;
	mutex_lock(&vgpu_devices_lock);
	if (!vgpu_bus_enabled) {
		ret = -EBUSY;
		goto out_unlock;
	}
	if (vgpu_device_find_locked(index)) {
		ret = -EEXIST;
		goto out_unlock;
	}
	vdev = vgpu_device_alloc(index, opts);
	if (IS_ERR(vdev)) {
		ret = PTR_ERR(vdev);
		goto out_unlock;
	}
	vdev->dev.bus = &vgpu_bus_type;
	ret = dev_set_name(&vdev->dev, "%s", vdev->name);
	if (ret)
		goto err_put;
	/* the probe runs in here; its failure leaves the device unbound */
	ret = device_add(&vdev->dev);
	if (ret)
		goto err_put;
	if (!vdev->dev.driver) {
		ret = vdev->probe_err;
		goto err_del;
	}
	list_add_tail(&vdev->node, &vgpu_devices);
	mutex_unlock(&vgpu_devices_lock);
	return 0;

err_del:
	device_del(&vdev->dev);
err_put:
	vgpu_device_put(vdev);
out_unlock:
	mutex_unlock(&vgpu_devices_lock);
	return ret;
}

/* Take an instance off the bus (remove, then the list's reference). */
static void vgpu_bus_unregister(struct vgpu_device *vdev)
{
	lockdep_assert_held(&vgpu_devices_lock);
	list_del_init(&vdev->node);
	device_unregister(&vdev->dev);
}

/**
 * vgpu_bus_del_device() - remove instance @index
 * @index: N of /dev/vgpuN
 *
 * The whole removal runs under vgpu_devices_lock: the index, /dev/vgpuN
 * and the debugfs directory are free again only when this returns, so a
 * new_device racing with it gets -EEXIST, never a half-made instance.
 *
 * Return: 0 or -ENOENT.
 */
int vgpu_bus_del_device(u32 index)
{
	struct vgpu_device *vdev;

	mutex_lock(&vgpu_devices_lock);
	vdev = vgpu_device_find_locked(index);
	if (vdev)
		vgpu_bus_unregister(vdev);
	mutex_unlock(&vgpu_devices_lock);
	return vdev ? 0 : -ENOENT;
}

static ssize_t new_device_store(VGPU_BUS_CONST struct bus_type *bus,
				const char *buf, size_t count)
{
	struct vgpu_dev_opts *opts;
	char *line, *rest, *id;
	u32 index;
	int ret;

	line = kstrndup(buf, count, GFP_KERNEL);
	opts = kzalloc(sizeof(*opts), GFP_KERNEL);
	ret = -ENOMEM;
	if (!line || !opts)
		goto out;
	rest = skip_spaces(line);
	id = strsep(&rest, " \t\n");
	ret = -EINVAL;
	if (!id || kstrtou32(id, 10, &index)) {
		pr_debug("vgpu_dispatch: new_device: expected \"ID [PRESET] [key=value ...]\"\n");
		goto out;
	}
	ret = vgpu_dev_opts_parse(opts, rest ? rest : id + strlen(id));
	if (!ret)
		ret = vgpu_bus_add_device(index, opts);
out:
	kfree(opts);
	kfree(line);
	return ret ? ret : count;
}
static BUS_ATTR_WO(new_device);

static ssize_t del_device_store(VGPU_BUS_CONST struct bus_type *bus,
				const char *buf, size_t count)
{
	char extra;
	u32 index;
	int ret;

	if (sscanf(buf, "%u %c", &index, &extra) != 1) {
		pr_debug("vgpu_dispatch: del_device: expected \"ID\"\n");
		return -EINVAL;
	}
	ret = vgpu_bus_del_device(index);
	return ret ? ret : count;
}
static BUS_ATTR_WO(del_device);

static struct attribute *vgpu_bus_attrs[] = {
	&bus_attr_new_device.attr,
	&bus_attr_del_device.attr,
	NULL
};
ATTRIBUTE_GROUPS(vgpu_bus);

static struct bus_type vgpu_bus_type = {
	.name		= "vgpu",
	.bus_groups	= vgpu_bus_groups,
	.probe		= vgpu_bus_probe,
	.remove		= vgpu_bus_remove,
};

static struct device_driver vgpu_bus_driver = {
	.name		= "vgpu_dispatch",
	.bus		= &vgpu_bus_type,
	.owner		= THIS_MODULE,
};

/**
 * vgpu_bus_init() - register /sys/bus/vgpu and its driver
 *
 * Return: 0 or the error of bus_register() or driver_register().
 */
int vgpu_bus_init(void)
{
	int ret;

	ret = bus_register(&vgpu_bus_type);
	if (ret)
		return ret;
	ret = driver_register(&vgpu_bus_driver);
	if (ret)
		goto err_bus_unregister;
	mutex_lock(&vgpu_devices_lock);
	vgpu_bus_enabled = true;
	mutex_unlock(&vgpu_devices_lock);
	return 0;

err_bus_unregister:
	bus_unregister(&vgpu_bus_type);
	return ret;
}

/**
 * vgpu_bus_fini() - remove every instance, unregister the driver and the bus
 *
 * Module exit (and a failed module init).  The bus files hold no module
 * reference: a new_device writer may be running, or waiting for
 * vgpu_devices_lock, until bus_unregister() removes the files (it waits
 * for writers inside them).  So creation is stopped first, under the lock,
 * and a writer that gets the lock later finds the bus disabled (-EBUSY)
 * instead of adding a device that would outlive the module.  Then every
 * instance is removed, the driver and the bus unregistered, and the
 * instances' last references awaited (vgpu_devices_drain()).
 */
void vgpu_bus_fini(void)
{
	struct vgpu_device *vdev, *tmp;

	mutex_lock(&vgpu_devices_lock);
	vgpu_bus_enabled = false;
	list_for_each_entry_safe(vdev, tmp, &vgpu_devices, node)
		vgpu_bus_unregister(vdev);
	mutex_unlock(&vgpu_devices_lock);
	driver_unregister(&vgpu_bus_driver);
	bus_unregister(&vgpu_bus_type);
	vgpu_devices_drain();
}
