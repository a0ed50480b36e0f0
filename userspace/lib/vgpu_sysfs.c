// SPDX-License-Identifier: LGPL-2.1 OR GPL-2.0
/*
 * vgpu_sysfs.c - libvgpu: device instances through /sys/bus/vgpu (F61).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vgpu/vgpu.h>

#define VGPU_SYSFS_BUS	"/sys/bus/vgpu"

static int vgpu_sysfs_write(const char *file, const char *line)
{
	char path[64];
	struct stat st;
	ssize_t n;
	int fd, err = 0;

	if (stat(VGPU_SYSFS_BUS, &st))
		return -ENOENT;	/* the module is not loaded */
	snprintf(path, sizeof(path), VGPU_SYSFS_BUS "/%s", file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, line, strlen(line));
	if (n < 0)
		err = -errno;
	else if ((size_t)n != strlen(line))
		err = -EIO;
	close(fd);
	return err;
}

/**
 * vgpul_dev_add() - create device instance /dev/vgpu<index>
 * @index: 0..15
 * @options: preset and options as for new_device ("h100 policy=avail"),
 *	or NULL for the default preset
 *
 * Return: 0 or a negative errno: -ENOENT (module not loaded), -EACCES
 * (needs root), -EEXIST (index in use), -EINVAL (bad options).
 */
int vgpul_dev_add(unsigned int index, const char *options)
{
	char line[512];
	int n;

	n = snprintf(line, sizeof(line), "%u%s%s\n", index,
		     options && *options ? " " : "", options ? options : "");
	if (n < 0 || (size_t)n >= sizeof(line))
		return -E2BIG;
	return vgpu_sysfs_write("new_device", line);
}

/**
 * vgpul_dev_del() - destroy device instance /dev/vgpu<index>
 * @index: the device
 *
 * Open files keep working until closed; their calls fail with -ENODEV.
 *
 * Return: 0 or a negative errno: -ENODEV (no such device), -ENOENT (module
 * not loaded), -EACCES (needs root).
 */
int vgpul_dev_del(unsigned int index)
{
	char line[16];
	int ret;

	snprintf(line, sizeof(line), "%u\n", index);
	ret = vgpu_sysfs_write("del_device", line);
	/* the bus exists: ENOENT from the write means no such device */
	if (ret == -ENOENT && access(VGPU_SYSFS_BUS, F_OK) == 0)
		ret = -ENODEV;
	return ret;
}

/**
 * vgpul_dev_exists() - whether /dev/vgpu<index> exists
 * @index: the device
 *
 * Return: 1 or 0.
 */
int vgpul_dev_exists(unsigned int index)
{
	char path[32];

	snprintf(path, sizeof(path), "/dev/vgpu%u", index);
	return access(path, F_OK) == 0;
}
