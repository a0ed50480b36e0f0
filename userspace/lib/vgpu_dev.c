// SPDX-License-Identifier: LGPL-2.1 OR GPL-2.0
/*
 * vgpu_dev.c - libvgpu: device access and ioctl wrappers (F66).
 */
/* buffers' mmap offsets exceed a 32-bit off_t (vgpul_bo_map()) */
#define _FILE_OFFSET_BITS 64

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/sync_file.h>
#include <time.h>
#include <unistd.h>

#include <vgpu/vgpu.h>

/**
 * vgpul_ioctl() - ioctl() that restarts on EINTR and EAGAIN (like drmIoctl)
 * @fd: device file descriptor
 * @cmd: ioctl number
 * @arg: argument
 *
 * Return: the ioctl's non-negative result or a negative errno.
 */
int vgpul_ioctl(int fd, unsigned long cmd, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, cmd, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret == -1 ? -errno : ret;
}

/* ioctl() restarting on EINTR only: SUBMIT's EAGAIN means "queue full". */
static int vgpu_ioctl_eintr(int fd, unsigned long cmd, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, cmd, arg);
	} while (ret == -1 && errno == EINTR);
	return ret == -1 ? -errno : ret;
}

/**
 * vgpul_dev_open() - open /dev/vgpu<index>
 * @index: device index
 * @dev: filled on success
 *
 * Return: 0 or a negative errno (-ENOENT: no such device, is the module
 * loaded?).
 */
int vgpul_dev_open(unsigned int index, struct vgpu_dev *dev)
{
	char path[32];
	int fd;

	snprintf(path, sizeof(path), "/dev/vgpu%u", index);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	dev->fd = fd;
	dev->index = index;
	return 0;
}

/**
 * vgpul_dev_close() - close a device opened by vgpul_dev_open()
 * @dev: the device; everything its file owns is cancelled and freed
 */
void vgpul_dev_close(struct vgpu_dev *dev)
{
	if (dev->fd >= 0)
		close(dev->fd);
	dev->fd = -1;
}

/**
 * vgpul_get_info() - VGPU_IOCTL_GET_INFO
 * @dev: the device
 * @info: filled with version, capabilities and configuration
 *
 * Return: 0 or a negative errno.
 */
int vgpul_get_info(struct vgpu_dev *dev, struct vgpu_info *info)
{
	memset(info, 0, sizeof(*info));
	return vgpul_ioctl(dev->fd, VGPU_IOCTL_GET_INFO, info);
}

/**
 * vgpul_strerror() - human-readable message for a libvgpu error
 * @err: a negative errno returned by libvgpu
 *
 * Return: a static string.
 */
const char *vgpul_strerror(int err)
{
	switch (-err) {
	case ENOENT:
		return "no such device or object (is the module loaded? try: sudo modprobe vgpu_dispatch)";
	case EACCES:
		return "permission denied on the device node";
	case EPERM:
		return "operation not permitted (a high channel priority needs CAP_SYS_NICE, netlink CONFIG_SET needs CAP_NET_ADMIN, device instances need root)";
	case EPROTONOSUPPORT:
		return "no generic netlink family \"vgpu\" (is the module loaded? try: sudo modprobe vgpu_dispatch)";
	case ENODEV:
		return "the device has been removed";
	case ETIME:
		return "wait timed out";
	case ENOTTY:
		return "the module does not know this ioctl (a module and a program of different uapi major versions? Before 1.0 the ioctl type was 'V': rebuild against uapi/linux/vgpu_dispatch.h 1.0)";
	case EMFILE:
		return "no free file descriptor for an out-fence (RLIMIT_NOFILE)";
	case EAGAIN:
		return "the device's queue of unfinished kernels or of pushes not yet arrived is full (wait for completions and retry)";
	case ENOSPC:
		return "this file's kernel handles (child budgets included) or program bytes are at their limit (release finished kernels), or a queue kernel's queue_cap would be exceeded";
	case ELOOP:
		return "a LAUNCH went deeper than VGPU_MAX_DEPTH child kernels";
	case EDQUOT:
		return "a LAUNCH went beyond the submitted kernel's child budget";
	default:
		return strerror(-err);
	}
}

/**
 * vgpul_channel_create() - VGPU_IOCTL_CHANNEL_CREATE
 * @dev: the device
 * @priority: 0 (highest) .. num_prios - 1
 * @timeout_cycles: hang timeout of the channel's kernels, 0 = default
 * @handle: the new channel's handle
 *
 * Return: 0 or a negative errno (-EPERM: a priority above default_prio
 * needs CAP_SYS_NICE).
 */
int vgpul_channel_create(struct vgpu_dev *dev, unsigned int priority,
			uint64_t timeout_cycles, uint32_t *handle)
{
	struct vgpu_channel_create cc;
	int ret;

	memset(&cc, 0, sizeof(cc));
	cc.priority = priority;
	cc.timeout_cycles = timeout_cycles;
	ret = vgpul_ioctl(dev->fd, VGPU_IOCTL_CHANNEL_CREATE, &cc);
	if (!ret)
		*handle = cc.handle;
	return ret;
}

/**
 * vgpul_channel_destroy() - VGPU_IOCTL_CHANNEL_DESTROY
 * @dev: the device
 * @handle: a channel of this file; its unfinished kernels are cancelled
 *
 * Return: 0 or a negative errno.
 */
int vgpul_channel_destroy(struct vgpu_dev *dev, uint32_t handle)
{
	struct vgpu_channel_destroy cd = { .handle = handle };

	return vgpul_ioctl(dev->fd, VGPU_IOCTL_CHANNEL_DESTROY, &cd);
}

/**
 * vgpul_submit_batch() - VGPU_IOCTL_SUBMIT of several kernels
 * @dev: the device
 * @descs: @count descriptors; each handle field must be zero and is set
 * @count: 1..VGPU_MAX_SUBMIT
 *
 * All or nothing: on error no kernel was submitted.  Unlike vgpul_ioctl()
 * this does not retry on EAGAIN: the device's queue of unfinished kernels
 * is full, and retrying at once would spin (forever with the gate closed).
 *
 * Return: 0, -EAGAIN (queue full: wait for completions and retry), or
 * another negative errno.
 */
int vgpul_submit_batch(struct vgpu_dev *dev, struct vgpu_submit_desc *descs,
		      unsigned int count)
{
	struct vgpu_submit sub;

	memset(&sub, 0, sizeof(sub));
	sub.count = count;
	sub.desc_size = sizeof(*descs);
	sub.descs = (uintptr_t)descs;
	return vgpu_ioctl_eintr(dev->fd, VGPU_IOCTL_SUBMIT, &sub);
}

/**
 * vgpul_submit() - VGPU_IOCTL_SUBMIT of one kernel
 * @dev: the device
 * @desc: the kernel; its handle field is set on success
 *
 * Return: 0 or a negative errno.
 */
int vgpul_submit(struct vgpu_dev *dev, struct vgpu_submit_desc *desc)
{
	return vgpul_submit_batch(dev, desc, 1);
}

/**
 * vgpul_deadline_ns() - absolute CLOCK_MONOTONIC time for vgpul_wait()
 * @rel_ns: nanoseconds from now; negative selects VGPU_WAIT_FOREVER
 *
 * Return: the deadline in ns.
 */
int64_t vgpul_deadline_ns(int64_t rel_ns)
{
	struct timespec ts;

	if (rel_ns < 0)
		return VGPU_WAIT_FOREVER;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec + rel_ns;
}

/**
 * vgpul_wait() - VGPU_IOCTL_WAIT
 * @dev: the device
 * @handles: @count kernel handles
 * @count: 1..VGPU_MAX_WAIT
 * @flags: VGPU_WAIT_ALL or 0 (any)
 * @deadline_ns: absolute CLOCK_MONOTONIC deadline (vgpul_deadline_ns()) or
 *	VGPU_WAIT_FOREVER
 * @first: if not NULL, the index of the lowest finished kernel
 *
 * Interrupted by a signal the wait restarts with the same deadline.
 *
 * Return: 0, -ETIME at the deadline, or another negative errno.
 */
int vgpul_wait(struct vgpu_dev *dev, const uint32_t *handles,
	      unsigned int count, unsigned int flags, int64_t deadline_ns,
	      unsigned int *first)
{
	struct vgpu_wait w;
	int ret;

	memset(&w, 0, sizeof(w));
	w.flags = flags;
	w.count = count;
	w.handles = (uintptr_t)handles;
	w.timeout_ns = deadline_ns;
	ret = vgpul_ioctl(dev->fd, VGPU_IOCTL_WAIT, &w);
	if (!ret && first)
		*first = w.first;
	return ret;
}

/**
 * vgpul_query() - VGPU_IOCTL_QUERY
 * @dev: the device
 * @handle: a kernel handle of this file
 * @flags: VGPU_QUERY_RELEASE to free the handle of a finished kernel
 * @q: state and virtual timestamps
 *
 * Return: 0 or a negative errno.
 */
int vgpul_query(struct vgpu_dev *dev, uint32_t handle, unsigned int flags,
	       struct vgpu_kernel_query *q)
{
	memset(q, 0, sizeof(*q));
	q->handle = handle;
	q->flags = flags;
	return vgpul_ioctl(dev->fd, VGPU_IOCTL_QUERY, q);
}

/**
 * vgpul_cancel() - VGPU_IOCTL_CANCEL
 * @dev: the device
 * @handle: a kernel handle of this file (finished: no-op)
 *
 * Return: 0 or a negative errno.
 */
int vgpul_cancel(struct vgpu_dev *dev, uint32_t handle)
{
	struct vgpu_kernel_cancel c = { .handle = handle };

	return vgpul_ioctl(dev->fd, VGPU_IOCTL_CANCEL, &c);
}

/**
 * vgpul_queue_push() - VGPU_IOCTL_QUEUE_PUSH: work items for a queue kernel
 * @dev: the device
 * @handle: a VGPU_KERNEL_QUEUE kernel of this file
 * @items: items to append (0 with VGPU_QUEUE_CLOSE only closes)
 * @flags: 0 or VGPU_QUEUE_CLOSE (no items after these)
 * @arrival: cycles after the device clock (with the gate closed, after the
 *	clock the gate holds) at which the items arrive
 * @cycle: if not NULL, the cycle at which they arrive
 *
 * Like vgpul_submit(), this does not retry on EAGAIN (the device's push
 * records are at their limit: wait for items to launch and retry).
 *
 * Return: 0 or a negative errno: -ENOSPC (more than queue_cap items would
 * wait, pushes not yet arrived included), -EINVAL (not a queue kernel,
 * closed, finished, bad flags), -ENOENT, -EAGAIN.
 */
int vgpul_queue_push(struct vgpu_dev *dev, uint32_t handle, uint32_t items,
		    unsigned int flags, uint64_t arrival, uint64_t *cycle)
{
	struct vgpu_queue_push p;
	int ret;

	memset(&p, 0, sizeof(p));
	p.handle = handle;
	p.items = items;
	p.flags = flags;
	p.arrival = arrival;
	ret = vgpu_ioctl_eintr(dev->fd, VGPU_IOCTL_QUEUE_PUSH, &p);
	if (!ret && cycle)
		*cycle = p.cycle;
	return ret;
}

/**
 * vgpul_gate() - VGPU_IOCTL_GATE
 * @dev: the device
 * @op: VGPU_GATE_CLOSE or VGPU_GATE_OPEN
 * @cycle: if not NULL, the device clock after the operation
 *
 * Return: 0 or a negative errno.
 */
int vgpul_gate(struct vgpu_dev *dev, unsigned int op, uint64_t *cycle)
{
	struct vgpu_gate g = { .op = op };
	int ret;

	ret = vgpul_ioctl(dev->fd, VGPU_IOCTL_GATE, &g);
	if (!ret && cycle)
		*cycle = g.cycle;
	return ret;
}

/*
 * poll() one fd for POLLIN, again after a signal: 1 with @revents set, 0 on
 * timeout, or a negative errno.
 */
static int vgpul_poll_in(int fd, int timeout_ms, short *revents)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int ret;

	do {
		ret = poll(&p, 1, timeout_ms);
	} while (ret < 0 && errno == EINTR);
	if (ret < 0)
		return -errno;
	*revents = p.revents;
	return ret;
}

/**
 * vgpul_poll() - wait until poll() reports a completion on the device
 * @dev: the device
 * @timeout_ms: as for poll(), -1 without a limit
 *
 * Return: 1 when a kernel of this file has finished, 0 on timeout, or a
 * negative errno.
 */
int vgpul_poll(struct vgpu_dev *dev, int timeout_ms)
{
	short revents;
	int ret = vgpul_poll_in(dev->fd, timeout_ms, &revents);

	if (ret < 0)
		return ret;
	if (ret && (revents & (POLLERR | POLLHUP | POLLNVAL)))
		return revents & POLLNVAL ? -EBADF : -ENODEV;
	return ret ? 1 : 0;
}

/**
 * vgpul_poll_devs() - wait until a kernel of any of several devices finished
 * @devs: the open devices (each a file of its own)
 * @count: how many, 1..1024
 * @timeout_ms: as for poll(), -1 without a limit
 * @ready: @count flags, set to 1 for each device whose file has a finished
 *	kernel it has not released, else 0
 *
 * Return: the number of such devices, 0 on timeout, or a negative errno
 * (-ENODEV: a device was removed; -EINVAL: @count).
 */
int vgpul_poll_devs(struct vgpu_dev *devs, unsigned int count, int timeout_ms,
		    unsigned char *ready)
{
	struct pollfd p[1024];
	unsigned int i;
	int ret;

	if (!count || count > 1024)
		return -EINVAL;
	for (i = 0; i < count; i++) {
		p[i].fd = devs[i].fd;
		p[i].events = POLLIN;
		p[i].revents = 0;
	}
	do {
		ret = poll(p, count, timeout_ms);
	} while (ret < 0 && errno == EINTR);
	if (ret < 0)
		return -errno;
	for (i = 0; i < count; i++) {
		if (p[i].revents & (POLLERR | POLLHUP | POLLNVAL))
			return p[i].revents & POLLNVAL ? -EBADF : -ENODEV;
		ready[i] = !!(p[i].revents & POLLIN);
	}
	return ret;
}

/**
 * vgpul_submit_fence() - VGPU_IOCTL_SUBMIT of one kernel with an out-fence
 * @dev: the device
 * @desc: the kernel; VGPU_KERNEL_FENCE_OUT is added to its flags, and its
 *	handle and fence_fd are filled on success
 * @fence_fd: the sync_file's file descriptor (close-on-exec) on success;
 *	the caller closes it
 *
 * Return: 0 or a negative errno (-EINVAL or -EOPNOTSUPP from a module
 * without VGPU_CAP_FENCE_OUT; -EMFILE: no free file descriptor).
 */
int vgpul_submit_fence(struct vgpu_dev *dev, struct vgpu_submit_desc *desc,
		       int *fence_fd)
{
	int ret;

	desc->flags |= VGPU_KERNEL_FENCE_OUT;
	desc->fence_fd = 0;
	ret = vgpul_submit(dev, desc);
	if (!ret)
		*fence_fd = desc->fence_fd;
	return ret;
}

/**
 * vgpul_fence_status() - the state of an out-fence (SYNC_IOC_FILE_INFO)
 * @fence_fd: a sync_file's file descriptor
 *
 * Return: 1 when its kernel completed, 0 while it has not finished, or
 * the negative error it finished with (-ECANCELED, -ETIMEDOUT, -ELOOP...,
 * as VGPU_IOCTL_QUERY's error); another negative errno if @fence_fd is not
 * a sync_file.
 */
int vgpul_fence_status(int fence_fd)
{
	struct sync_file_info info;
	int ret;

	memset(&info, 0, sizeof(info));
	ret = vgpu_ioctl_eintr(fence_fd, SYNC_IOC_FILE_INFO, &info);
	return ret ? ret : info.status;
}

/**
 * vgpul_fence_wait() - wait for an out-fence
 * @fence_fd: a sync_file's file descriptor
 * @timeout_ms: as for poll(), -1 without a limit
 *
 * Return: 0 when its kernel completed, the negative error it finished
 * with (as vgpul_fence_status()), -ETIME on timeout, or another negative
 * errno.
 */
int vgpul_fence_wait(int fence_fd, int timeout_ms)
{
	short revents;
	int ret = vgpul_poll_in(fence_fd, timeout_ms, &revents);

	if (ret < 0)
		return ret;
	if (!ret)
		return -ETIME;
	if (revents & POLLNVAL)
		return -EBADF;
	ret = vgpul_fence_status(fence_fd);
	return ret == 1 ? 0 : ret < 0 ? ret : -EIO;
}

/**
 * vgpul_bo_create() - VGPU_IOCTL_BO_CREATE: a buffer object
 * @dev: the device
 * @size: bytes, 1..VGPU_MAX_BO_SIZE; the memory is zeroed
 * @flags: VGPU_BO_READ_ONLY, VGPU_BO_CONSTANT (for kernels; the process
 *	may always write its mapping)
 * @handle: the buffer's handle, to name it in vgpu_submit_desc.buffers
 * @mmap_offset: if not NULL, the offset that maps it (vgpul_bo_map())
 *
 * Return: 0 or a negative errno (-ENOSPC: the file's buffers or buffer
 * bytes are at their limit, see vgpu_info; -ENOTTY: a module without
 * VGPU_CAP_BUFFERS).
 */
int vgpul_bo_create(struct vgpu_dev *dev, uint64_t size, unsigned int flags,
		    uint32_t *handle, uint64_t *mmap_offset)
{
	struct vgpu_bo_create c;
	int ret;

	memset(&c, 0, sizeof(c));
	c.size = size;
	c.flags = flags;
	ret = vgpul_ioctl(dev->fd, VGPU_IOCTL_BO_CREATE, &c);
	if (ret)
		return ret;
	*handle = c.handle;
	if (mmap_offset)
		*mmap_offset = c.mmap_offset;
	return 0;
}

/**
 * vgpul_bo_destroy() - VGPU_IOCTL_BO_DESTROY
 * @dev: the device
 * @handle: a buffer of this file; mappings of it stay valid until unmapped
 *
 * Return: 0 or a negative errno (-EBUSY: an unfinished kernel names it).
 */
int vgpul_bo_destroy(struct vgpu_dev *dev, uint32_t handle)
{
	struct vgpu_bo_destroy d = { .handle = handle };

	return vgpul_ioctl(dev->fd, VGPU_IOCTL_BO_DESTROY, &d);
}

/**
 * vgpul_bo_map() - map a buffer object read-write (MAP_SHARED)
 * @dev: the device
 * @mmap_offset: the buffer's, from vgpul_bo_create()
 * @size: bytes to map from its start, at most its size rounded up to pages
 * @addr: the mapping on success
 *
 * The mapping holds the buffer (and the device file) until
 * vgpul_bo_unmap(), after vgpul_bo_destroy() and vgpul_dev_close() too.
 *
 * Return: 0 or a negative errno (-EINVAL: not a buffer of this file, or
 * @size too large).
 */
int vgpul_bo_map(struct vgpu_dev *dev, uint64_t mmap_offset, size_t size,
		 void **addr)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, dev->fd,
		       (off_t)mmap_offset);

	if (p == MAP_FAILED)
		return -errno;
	*addr = p;
	return 0;
}

/**
 * vgpul_bo_unmap() - undo vgpul_bo_map()
 * @addr: the mapping
 * @size: the size it was mapped with
 *
 * Return: 0 or a negative errno.
 */
int vgpul_bo_unmap(void *addr, size_t size)
{
	return munmap(addr, size) ? -errno : 0;
}
