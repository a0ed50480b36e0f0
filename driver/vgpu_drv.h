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
 * Objects created through a file (channels, later kernels) belong to it:
 * they live in the file's handle tables and release() cancels and frees
 * them.  A handle of another file is -ENOENT.
 *
 * Lock order (outer first):
 *   vgpu_devices_lock (vgpu_bus.c: list of instances)
 *     vgpu_file.lock
 *       vgpu_device.lock
 */
#ifndef VGPU_DRV_H
#define VGPU_DRV_H

#include <linux/bits.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include "config.h"

#define VGPU_MAX_DEVICES	16
#define VGPU_NAME_MAX		15

/* Default limits of a device instance (struct vgpu_limits). */
#define VGPU_DEF_CHANNELS_PER_FILE	64
#define VGPU_DEF_CHANNELS		1024
#define VGPU_DEF_TIMEOUT_CYCLES		BIT_ULL(32)
#define VGPU_MAX_TIMEOUT_CYCLES		BIT_ULL(48)

/**
 * struct vgpu_limits - per-file and per-device limits of an instance
 * @channels_per_file: channels one open file may own (-ENOSPC beyond)
 * @channels: channels the device may have in all (-ENOSPC beyond)
 * @default_timeout: hang timeout in virtual cycles for channels created
 *	with timeout_cycles 0 (SPEC F53)
 */
struct vgpu_limits {
	u32 channels_per_file;
	u32 channels;
	u64 default_timeout;
};

/**
 * struct vgpu_device - one emulated GPU instance
 * @misc: the misc device /dev/vgpu<index>
 * @node: entry in the device list of vgpu_bus.c; protected by
 *	vgpu_devices_lock
 * @ref: references: the device list holds one, every open file one
 * @lock: protects @dead and @nr_channels
 * @dead: set once the instance is being removed; protected by @lock
 * @index: N of /dev/vgpuN, immutable
 * @name: "vgpu<index>", immutable
 * @cfg: configuration, immutable after creation
 * @limits: limits, immutable after creation
 * @default_prio: highest priority usable without CAP_SYS_NICE, immutable
 * @nr_channels: channels of all files; protected by @lock
 */
struct vgpu_device {
	struct miscdevice misc;
	struct list_head node;
	struct kref ref;
	struct mutex lock; /* protects @dead, @nr_channels */
	bool dead;
	u32 index;
	char name[16];
	struct vgpu_config cfg;
	struct vgpu_limits limits;
	u32 default_prio;
	u32 nr_channels;
};

/**
 * struct vgpu_file - per open file state
 * @vdev: the device this file was opened on; the file holds a reference
 * @lock: serialises creation and destruction of this file's objects
 * @channels: channel handle -> &struct vgpu_channel; updated under @lock
 * @nr_channels: entries in @channels; protected by @lock
 */
struct vgpu_file {
	struct vgpu_device *vdev;
	struct mutex lock; /* protects @nr_channels, @channels updates */
	struct xarray channels;
	u32 nr_channels;
};

/**
 * struct vgpu_channel - a FIFO of kernels owned by one open file (SPEC F11)
 * @handle: handle in the owner's table, immutable
 * @prio: priority, 0 is the highest, immutable
 * @timeout: hang timeout of its kernels in virtual cycles, immutable
 */
struct vgpu_channel {
	u32 handle;
	u32 prio;
	u64 timeout;
};

int vgpu_device_create(u32 index, const char *preset, struct vgpu_device **out);
void vgpu_device_destroy(struct vgpu_device *vdev);
void vgpu_device_put(struct vgpu_device *vdev);
bool vgpu_device_alive(struct vgpu_device *vdev);

int vgpu_bus_init(void);
void vgpu_bus_fini(void);
int vgpu_bus_add_device(u32 index, const char *preset);
int vgpu_bus_del_device(u32 index);

int vgpu_file_init(struct vgpu_file *vf, struct vgpu_device *vdev);
void vgpu_file_fini(struct vgpu_file *vf);
int vgpu_channel_create(struct vgpu_file *vf, u32 prio, u64 timeout,
			u32 *handle);
int vgpu_channel_destroy(struct vgpu_file *vf, u32 handle);

long vgpu_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

#endif /* VGPU_DRV_H */
