/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_drv.h - host glue of vgpu-dispatch: device instances and open files.
 */

/**
 * DOC: object model
 *
 * A &struct vgpu_device is one emulated GPU: a &struct device vgpuN on the
 * bus /sys/bus/vgpu (vgpu_bus.c, the netdevsim way), bound to the driver
 * vgpu_dispatch whose probe gives it a scheduler, debugfs and a misc device
 * /dev/vgpuN, with its own configuration (&struct vgpu_config,
 * F01-F03).  The struct device's reference count is the instance's:
 * every open file, debugfs reader and netlink request holds one, so a device
 * removed while files are open stays allocated, marked dead, until the last
 * reference goes (vgpu_device_release()); calls on such files fail with
 * -ENODEV.
 *
 * Objects created through a file (channels, later kernels) belong to it:
 * they live in the file's handle tables and release() cancels and frees
 * them.  A handle of another file is -ENOENT.
 *
 * Lock order (outer first)::
 *
 *   vgpu_devices_lock (vgpu_dev.c: list of instances)
 *     vgpu_file.lock
 *       vgpu_sched.lock (vgpu_sched.h)
 *         vgpu_device.lock
 *
 * An out-fence's lock (&vgpu_fence.lock, vgpu_fence.c, a spinlock) is taken
 * by the dma-fence core when vgpu_job_fence_signal() signals it under
 * vgpu_sched.lock; it takes nothing.
 *
 * mmap() of a buffer object (vgpu_bo.c) runs under the process's mmap_lock,
 * which vgpu_file.lock nests outside of (a copy from userspace under it may
 * fault): it finds the buffer under the xa_lock of &vgpu_file.bos, never
 * vgpu_file.lock.  Freeing a buffer takes no lock.
 */
#ifndef VGPU_DRV_H
#define VGPU_DRV_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/device.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include "config.h"
#include "resource.h"
#include "vgpu_obs.h"
#include "vgpu_sched.h"

#define VGPU_MAX_DEVICES	16
#define VGPU_DEV_MAX_OPTS	32	/* words of a new_device line */

/* Default limits of a device instance (struct vgpu_limits). */
#define VGPU_DEF_CHANNELS_PER_FILE	64
#define VGPU_DEF_CHANNELS		VGPU_GPU_MAX_CHANNELS
#define VGPU_DEF_KERNELS_PER_FILE	4096
#define VGPU_DEF_QUEUED			8192
#define VGPU_DEF_PROG_BYTES_PER_FILE	(16U << 20)
#define VGPU_DEF_BOS_PER_FILE		1024
#define VGPU_DEF_BO_BYTES_PER_FILE	(256ULL << 20)
#define VGPU_DEF_TIMEOUT_CYCLES		BIT_ULL(32)
#define VGPU_MAX_TIMEOUT_CYCLES		BIT_ULL(48)
/*
 * Virtual time is shared by every user of a device: a kernel or
 * push may arrive at most max_arrival cycles after the clock (default
 * 2^32, raised up to the uapi's 2^48 by new_device's max_arrival=, which
 * only root may write), and arrivals past VGPU_CLOCK_END are clamped to it,
 * so the clock never wraps: from there epochs alone would need centuries
 * to reach 2^64.
 */
#define VGPU_DEF_MAX_ARRIVAL		BIT_ULL(32)
#define VGPU_CLOCK_END			BIT_ULL(62)

/* The cycle @delay after @now, clamped at the end of the clock's range. */
static inline u64 vgpu_clock_after(u64 now, u64 delay)
{
	return min(now + delay, VGPU_CLOCK_END);
}

/**
 * struct vgpu_limits - per-file and per-device limits of an instance
 * @channels_per_file: channels one open file may own (-ENOSPC beyond)
 * @channels: channels the device may have in all (-ENOSPC beyond)
 * @kernels_per_file: kernel handles one open file may hold, finished ones
 *	included until released, plus the child descriptors their child
 *	budgets reserve (-ENOSPC beyond)
 * @queued: unfinished kernels the device may have (-EAGAIN beyond)
 * @prog_bytes_per_file: program bytes one open file may hold (-ENOSPC)
 * @default_timeout: hang timeout in virtual cycles for channels created
 *	with timeout_cycles 0 (F53)
 * @max_arrival: latest arrival of a kernel or push in cycles after the
 *	device's clock (-EINVAL beyond; VGPU_DEF_MAX_ARRIVAL)
 * @bos_per_file: buffer objects one open file may hold (-ENOSPC beyond;
 *	module parameter max_buffers_per_file)
 * @bo_bytes_per_file: bytes of buffer objects, each rounded up to pages,
 *	one open file may hold (-ENOSPC beyond; module parameter
 *	max_buffer_bytes_per_file)
 */
struct vgpu_limits {
	u32 channels_per_file;
	u32 channels;
	u32 kernels_per_file;
	u32 queued;
	u32 prog_bytes_per_file;
	u64 default_timeout;
	u64 max_arrival;
	u32 bos_per_file;
	u64 bo_bytes_per_file;
};

/**
 * struct vgpu_dev_opts - everything a new device instance is made of
 * @cfg: configuration (preset or custom, F01-F03)
 * @sched: scheduling options (policy, preemption, windows, epoch, clock...)
 * @timeout: default hang timeout of channels in virtual cycles (F53)
 * @max_arrival: the latest arrival cycle SUBMIT accepts (new_device's
 *	max_arrival=)
 */
struct vgpu_dev_opts {
	struct vgpu_config cfg;
	struct vgpu_sched_opts sched;
	u64 timeout;
	u64 max_arrival;
};

/**
 * struct vgpu_device - one emulated GPU instance
 * @dev: the instance on the bus; its reference count keeps the whole
 *	structure (vgpu_device_get(), vgpu_device_put()), its release frees it
 * @misc: the misc device /dev/vgpu<index>, registered by probe
 * @node: entry in the device list (vgpu_devices in vgpu_dev.c); protected
 *	by vgpu_devices_lock
 * @opts: the options it was created with, immutable
 * @probe_err: why the device is not bound (vgpu_bus_add_device() returns
 *	it): the probe's error, -ENOMEM if the driver core failed before it
 * @lock: protects @nr_channels
 * @dead: set once the instance is being removed; written once with
 *	WRITE_ONCE(), read locklessly (vgpu_device_alive())
 * @index: N of /dev/vgpuN, immutable
 * @name: "vgpu<index>", immutable
 * @cfg: configuration, immutable after creation
 * @limits: limits, immutable after creation except
 *	@limits.default_timeout (netlink CONFIG_SET: WRITE_ONCE() under
 *	&vgpu_sched.lock, READ_ONCE() by readers)
 * @default_prio: highest priority usable without CAP_SYS_NICE, immutable
 * @nr_channels: channels of all files; protected by @lock
 * @next_tenant: the last tenant id handed to an open file
 *	(&vgpu_file.tenant)
 * @sched: the scheduler (core and threads)
 * @obs: observability: counters, debugfs, knobs (vgpu_obs.h)
 */
struct vgpu_device {
	struct device dev;
	struct miscdevice misc;
	struct list_head node;
	struct vgpu_dev_opts opts;
	int probe_err;
	struct mutex lock; /* protects @nr_channels */
	bool dead;
	u32 index;
	char name[16];
	struct vgpu_config cfg;
	struct vgpu_limits limits;
	u32 default_prio;
	u32 nr_channels;
	atomic_t next_tenant;
	struct vgpu_sched sched;
	struct vgpu_obs obs;
};

/**
 * struct vgpu_file - per open file state
 * @vdev: the device this file was opened on; the file holds a reference
 * @lock: serialises creation and destruction of this file's objects
 * @channels: channel handle -> &struct vgpu_channel; updated under @lock
 * @nr_channels: entries in @channels; protected by @lock
 * @next_channel: where the cyclic search for the next channel handle
 *	starts, so a destroyed channel's handle stays -ENOENT until the 31-bit
 *	handle space wraps; protected by @lock
 * @kernels: kernel handle -> &struct vgpu_job; updated under @lock
 * @nr_kernels: entries in @kernels; protected by @lock
 * @next_kernel: where the cyclic search for the next kernel handle starts,
 *	as @next_channel; protected by @lock
 * @nr_children: child descriptors its kernels reserved (their child
 *	budgets, F15), counted with @nr_kernels against kernels_per_file;
 *	protected by @lock
 * @prog_bytes: program bytes of @kernels; protected by @lock
 * @nr_done: finished kernels whose handle still exists (poll)
 * @gate_held: this file holds the gate; protected by @lock
 * @usage: what the file used, for fdinfo (vgpu_obs.h)
 * @tenant: the tenant its kernels belong to for the scheduling policy
 *	(&vgpu_gpu_kernel_args.tenant): different for every file open on the
 *	device at once (until 2^32 opens wrap); immutable
 * @bos: buffer handle -> &struct vgpu_bo; BO_CREATE inserts under its
 *	xa_lock alone, BO_DESTROY and release() erase under @lock, which
 *	SUBMIT holds to name buffers; mmap() looks up under the xa_lock
 * @next_bo: where the cyclic search for the next buffer handle starts, as
 *	@next_channel; protected by the xa_lock of @bos
 * @nr_bos: buffer objects whose memory is not freed yet, handle destroyed
 *	or not: what max_buffers_per_file bounds
 * @bo_bytes: their bytes, each rounded up to pages: what
 *	max_buffer_bytes_per_file bounds
 */
struct vgpu_file {
	struct vgpu_device *vdev;
	struct mutex lock; /* protects the counters, serialises table updates */
	struct xarray channels;
	u32 nr_channels;
	u32 next_channel;
	struct xarray kernels;
	u32 nr_kernels;
	u32 next_kernel;
	u32 nr_children;
	u64 prog_bytes;
	atomic_t nr_done;
	bool gate_held;
	struct vgpu_file_usage usage;
	u32 tenant;
	struct xarray bos;
	u32 next_bo;
	atomic_t nr_bos;
	atomic64_t bo_bytes;
};

/**
 * struct vgpu_bo - a buffer object: memory a kernel computes on (vgpu_bo.c)
 * @ref: the handle holds one reference, every mapping of it (each VMA)
 *	one, every kernel that names it one until its handle is released
 * @owner: the file that created it; it outlives the buffer (a mapping
 *	holds the file, release() drops every other reference)
 * @vaddr: the memory, vmalloc_user(): zeroed, page aligned, mappable;
 *	immutable
 * @size: bytes as created, immutable
 * @charge: @size rounded up to pages: what it counts against the owner's
 *	&vgpu_file.bo_bytes, immutable
 * @flags: VGPU_BO_*, immutable
 * @handle: handle in the owner's table, immutable
 * @active: unfinished kernels that name it (a kernel naming it twice
 *	counts twice); BO_DESTROY is -EBUSY while it is non-zero
 */
struct vgpu_bo {
	struct kref ref;
	struct vgpu_file *owner;
	void *vaddr;
	u64 size;
	u64 charge;
	u32 flags;
	u32 handle;
	atomic_t active;
};

/* The memory of @bo, for the engine: valid while a kernel names it. */
static inline void *vgpu_bo_vaddr(const struct vgpu_bo *bo)
{
	return bo->vaddr;
}

/* The size of @bo in bytes, as created (at most VGPU_MAX_BO_SIZE). */
static inline u64 vgpu_bo_size(const struct vgpu_bo *bo)
{
	return bo->size;
}

/* The VGPU_BO_* flags of @bo. */
static inline u32 vgpu_bo_flags(const struct vgpu_bo *bo)
{
	return bo->flags;
}

/**
 * struct vgpu_channel - a FIFO of kernels owned by one open file (F11)
 * @handle: handle in the owner's table, immutable
 * @prio: priority, 0 is the highest, immutable
 * @timeout: hang timeout of its kernels in virtual cycles, immutable
 * @core_ch: the core's channel number, immutable
 * @kernels: its kernels that still have a handle (&vgpu_job.ch_node);
 *	protected by the owner's &vgpu_file.lock
 */
struct vgpu_channel {
	u32 handle;
	u32 prio;
	u64 timeout;
	u32 core_ch;
	struct list_head kernels;
};

extern struct list_head vgpu_devices;
extern struct mutex vgpu_devices_lock;

static inline struct vgpu_device *to_vgpu_device(struct device *dev)
{
	return container_of(dev, struct vgpu_device, dev);
}

/* Take a reference on @vdev (it stays allocated, perhaps removed). */
static inline void vgpu_device_get(struct vgpu_device *vdev)
{
	get_device(&vdev->dev);
}

/* Drop a reference on @vdev: the last one frees it. */
static inline void vgpu_device_put(struct vgpu_device *vdev)
{
	put_device(&vdev->dev);
}

/*
 * Is @vdev still registered?  False once its removal started.  Lockless:
 * also called from wait conditions, which must not sleep.
 */
static inline bool vgpu_device_alive(struct vgpu_device *vdev)
{
	return !READ_ONCE(vdev->dead);
}

int vgpu_dev_opts_parse(struct vgpu_dev_opts *o, char *line);
struct vgpu_device *vgpu_device_alloc(u32 index,
				      const struct vgpu_dev_opts *opts);
int vgpu_device_probe(struct vgpu_device *vdev);
void vgpu_device_remove(struct vgpu_device *vdev);
struct vgpu_device *vgpu_device_find_locked(u32 index);
struct vgpu_device *vgpu_device_get_from(u32 index);
void vgpu_devices_drain(void);

int vgpu_bus_init(void);
void vgpu_bus_fini(void);
int vgpu_bus_add_device(u32 index, const struct vgpu_dev_opts *opts);
int vgpu_bus_del_device(u32 index);

int vgpu_ioctl_channel_create(struct vgpu_file *vf, void *arg);
void vgpu_ioctl_channel_create_undo(struct vgpu_file *vf, void *arg);
int vgpu_ioctl_channel_destroy(struct vgpu_file *vf, void *arg);
void vgpu_channels_release_all(struct vgpu_file *vf);

int vgpu_jobs_init(void);
void vgpu_jobs_exit(void);
void vgpu_jobs_release_all(struct vgpu_file *vf);
void vgpu_jobs_cancel_channel(struct vgpu_file *vf, struct vgpu_channel *ch);
extern const struct vgpu_sched_backend_ops vgpu_job_backend_ops;

int vgpu_ioctl_submit(struct vgpu_file *vf, void *arg);
int vgpu_ioctl_wait(struct vgpu_file *vf, void *arg);
int vgpu_ioctl_query(struct vgpu_file *vf, void *arg);
void vgpu_ioctl_query_commit(struct vgpu_file *vf, void *arg);
int vgpu_ioctl_cancel(struct vgpu_file *vf, void *arg);
int vgpu_ioctl_queue_push(struct vgpu_file *vf, void *arg);

long vgpu_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

/* out-fences of submitted kernels (vgpu_fence.c) */
struct vgpu_fence_out;
int vgpu_fence_desc_check(const struct vgpu_submit_desc *d, u32 desc_size);
int vgpu_fence_out_prepare(struct vgpu_file *vf, struct vgpu_job **jobs,
			   u32 n, u64 fenced, u8 __user *udescs,
			   u32 desc_size, struct vgpu_fence_out **out);
void vgpu_fence_out_commit(struct vgpu_fence_out *fo);
void vgpu_fence_out_abort(struct vgpu_fence_out *fo, struct vgpu_job **jobs,
			  u8 __user *udescs, u32 desc_size);
void vgpu_job_fence_signal(struct vgpu_job *job);
void vgpu_fence_exit(void);

/* buffer objects (vgpu_bo.c) */
struct vm_area_struct;
void vgpu_bo_limits_init(struct vgpu_limits *limits);
int vgpu_ioctl_bo_create(struct vgpu_file *vf, void *arg);
void vgpu_ioctl_bo_create_undo(struct vgpu_file *vf, void *arg);
int vgpu_ioctl_bo_destroy(struct vgpu_file *vf, void *arg);
int vgpu_bo_mmap(struct vgpu_file *vf, struct vm_area_struct *vma);
void vgpu_bos_release_all(struct vgpu_file *vf);
int vgpu_bo_desc_check(const struct vgpu_submit_desc *d);
int vgpu_job_bos_name(struct vgpu_file *vf, struct vgpu_job *job,
		      const struct vgpu_submit_desc *d);
void vgpu_job_bos_idle(struct vgpu_job *job);
void vgpu_job_bos_put(struct vgpu_job *job);

#endif /* VGPU_DRV_H */
