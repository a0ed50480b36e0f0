// SPDX-License-Identifier: LGPL-2.1 OR GPL-2.0
/*
 * vgpu_dev.c - libvgpu: device access and ioctl wrappers (SPEC F66).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <vgpu/vgpu.h>

/**
 * vgpu_ioctl() - ioctl() that restarts on EINTR and EAGAIN (like drmIoctl)
 * @fd: device file descriptor
 * @cmd: ioctl number
 * @arg: argument
 *
 * Return: the ioctl's non-negative result or a negative errno.
 */
int vgpu_ioctl(int fd, unsigned long cmd, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, cmd, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret == -1 ? -errno : ret;
}

/**
 * vgpu_dev_open() - open /dev/vgpu<index>
 * @index: device index
 * @dev: filled on success
 *
 * Return: 0 or a negative errno (-ENOENT: no such device, is the module
 * loaded?).
 */
int vgpu_dev_open(unsigned int index, struct vgpu_dev *dev)
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
 * vgpu_dev_close() - close a device opened by vgpu_dev_open()
 * @dev: the device; everything its file owns is cancelled and freed
 */
void vgpu_dev_close(struct vgpu_dev *dev)
{
	if (dev->fd >= 0)
		close(dev->fd);
	dev->fd = -1;
}

/**
 * vgpu_get_info() - VGPU_IOCTL_GET_INFO
 * @dev: the device
 * @info: filled with version, capabilities and configuration
 *
 * Return: 0 or a negative errno.
 */
int vgpu_get_info(struct vgpu_dev *dev, struct vgpu_info *info)
{
	memset(info, 0, sizeof(*info));
	return vgpu_ioctl(dev->fd, VGPU_IOCTL_GET_INFO, info);
}

/**
 * vgpu_strerror() - human-readable message for a libvgpu error
 * @err: a negative errno returned by libvgpu
 *
 * Return: a static string.
 */
const char *vgpu_strerror(int err)
{
	switch (-err) {
	case ENOENT:
		return "no such device or object (is the module loaded? try: sudo modprobe vgpu_dispatch)";
	case EACCES:
		return "permission denied on the device node";
	case EPERM:
		return "operation not permitted (needs CAP_SYS_NICE or CAP_NET_ADMIN)";
	case ENODEV:
		return "the device has been removed";
	case ETIME:
		return "wait timed out";
	default:
		return strerror(-err);
	}
}
