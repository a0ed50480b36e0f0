/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_drv.h - host glue of vgpu-dispatch: device instances and open files.
 *
 * DOC: object model
 *
 * A &struct vgpu_device is one emulated GPU: a misc device /dev/vgpuN with its
 * own configuration (&struct vgpu_config, SPEC F01-F03).  Every open file is a
 * &struct vgpu_file that holds a reference on its device, so a device removed
 * while files are open stays allocated, marked dead, until the last file
 * closes; calls on such files fail with -ENODEV.
 *
 * Lock order (outer first):
 *   vgpu_devices_lock (vgpu_bus.c: list of instances)
 *     vgpu_device.lock
 */
#ifndef VGPU_DRV_H
#define VGPU_DRV_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "config.h"

#define VGPU_MAX_DEVICES	16
#define VGPU_NAME_MAX		15

/**
 * struct vgpu_device - one emulated GPU instance
 * @misc: the misc device /dev/vgpu<index>
 * @node: entry in the device list of vgpu_bus.c; protected by
 *	vgpu_devices_lock
 * @ref: references: the device list holds one, every open file one
 * @lock: protects @dead
 * @dead: set once the instance is being removed; protected by @lock
 * @index: N of /dev/vgpuN, immutable
 * @name: "vgpu<index>", immutable
 * @cfg: configuration, immutable after creation
 */
struct vgpu_device {
	struct miscdevice misc;
	struct list_head node;
	struct kref ref;
	struct mutex lock; /* protects @dead */
	bool dead;
	u32 index;
	char name[16];
	struct vgpu_config cfg;
};

/**
 * struct vgpu_file - per open file state
 * @vdev: the device this file was opened on; the file holds a reference
 */
struct vgpu_file {
	struct vgpu_device *vdev;
};

int vgpu_device_create(u32 index, const char *preset, struct vgpu_device **out);
void vgpu_device_destroy(struct vgpu_device *vdev);
void vgpu_device_put(struct vgpu_device *vdev);
bool vgpu_device_alive(struct vgpu_device *vdev);

int vgpu_bus_init(void);
void vgpu_bus_fini(void);
int vgpu_bus_add_device(u32 index, const char *preset);
int vgpu_bus_del_device(u32 index);

long vgpu_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

#endif /* VGPU_DRV_H */
