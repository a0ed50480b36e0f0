// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_bus.c - device instances created and destroyed at runtime (SPEC F61).
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
 * unknown key or invalid value),
 * -EEXIST (ID in use), -ENOENT (no such ID on del_device).  Removing an
 * instance while files are open on it makes their calls fail with -ENODEV;
 * it is freed when the last one closes.
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

static LIST_HEAD(vgpu_devices);
/*
 * Protects vgpu_devices and serialises instance creation and removal: held
 * across the whole of vgpu_device_create() and vgpu_device_destroy(), so an
 * index is free again only once nothing of its instance is left.
 */
static DEFINE_MUTEX(vgpu_devices_lock);

static struct vgpu_device *vgpu_bus_find_locked(u32 index)
{
	struct vgpu_device *vdev;

	lockdep_assert_held(&vgpu_devices_lock);
	list_for_each_entry(vdev, &vgpu_devices, node)
		if (vdev->index == index)
			return vdev;
	return NULL;
}

/**
 * vgpu_bus_add_device() - create instance @index
 * @index: N of /dev/vgpuN, below VGPU_MAX_DEVICES
 * @opts: its configuration and options
 *
 * Return: 0, -EINVAL, -EEXIST or the error of vgpu_device_create().
 */
int vgpu_bus_add_device(u32 index, const struct vgpu_dev_opts *opts)
{
	struct vgpu_device *vdev;
	int ret;

	if (index >= VGPU_MAX_DEVICES)
		return -EINVAL;
	mutex_lock(&vgpu_devices_lock);
	if (vgpu_bus_find_locked(index)) {
		ret = -EEXIST;
		goto out_unlock;
	}
	ret = vgpu_device_create(index, opts, &vdev);
	if (ret)
		goto out_unlock;
	list_add_tail(&vdev->node, &vgpu_devices);
out_unlock:
	mutex_unlock(&vgpu_devices_lock);
	return ret;
}

/**
 * vgpu_bus_del_device() - remove instance @index
 * @index: N of /dev/vgpuN
 *
 * Return: 0 or -ENOENT.
 */
int vgpu_bus_del_device(u32 index)
{
	struct vgpu_device *vdev;

	/*
	 * Destroy under the lock: the index, /dev/vgpuN and the debugfs
	 * directory are free again only when this returns, so a new_device
	 * racing with us gets -EEXIST instead of a half-made instance
	 * (issue 16: it used to come up without its debugfs directory).
	 */
	mutex_lock(&vgpu_devices_lock);
	vdev = vgpu_bus_find_locked(index);
	if (vdev) {
		list_del_init(&vdev->node);
		vgpu_device_destroy(vdev);
	}
	mutex_unlock(&vgpu_devices_lock);
	return vdev ? 0 : -ENOENT;
}

/**
 * vgpu_bus_get_from() - the instance with the lowest index >= @index
 * @index: where to start
 *
 * For netlink (vgpu_netlink.c): lookups and dumps that resume from a cursor.
 *
 * Return: the device with a reference held (vgpu_device_put()), or NULL.
 */
struct vgpu_device *vgpu_bus_get_from(u32 index)
{
	struct vgpu_device *vdev, *best = NULL;

	mutex_lock(&vgpu_devices_lock);
	list_for_each_entry(vdev, &vgpu_devices, node)
		if (vdev->index >= index && (!best || vdev->index < best->index))
			best = vdev;
	if (best)
		kref_get(&best->ref);
	mutex_unlock(&vgpu_devices_lock);
	return best;
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
};

/**
 * vgpu_bus_init() - register /sys/bus/vgpu
 *
 * Return: 0 or the error of bus_register().
 */
int vgpu_bus_init(void)
{
	return bus_register(&vgpu_bus_type);
}

/**
 * vgpu_bus_fini() - unregister /sys/bus/vgpu and remove every instance
 */
void vgpu_bus_fini(void)
{
	struct vgpu_device *vdev, *tmp;
	LIST_HEAD(doomed);

	/* no new_device / del_device can run once this returns */
	bus_unregister(&vgpu_bus_type);

	mutex_lock(&vgpu_devices_lock);
	list_splice_init(&vgpu_devices, &doomed);
	mutex_unlock(&vgpu_devices_lock);
	list_for_each_entry_safe(vdev, tmp, &doomed, node) {
		list_del_init(&vdev->node);
		vgpu_device_destroy(vdev);
	}
}
