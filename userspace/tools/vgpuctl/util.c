// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - what every vgpuctl command shares: option reading, the error
 * messages of a failed open of /dev/vgpuN, of GET_INFO, of netlink and of
 * /sys/bus/vgpu, the terminal test and the stop flag of
 * trace and top.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vgpuctl.h"

unsigned int vgpuctl_index;		/* -d N */
bool vgpuctl_index_set;
volatile sig_atomic_t vgpuctl_stop;

void vgpuctl_on_signal(int sig)
{
	vgpuctl_stop = 1;
}

int vgpuctl_getopt(int argc, char **argv, const char *shortopts,
		   const struct option *opts, int *status)
{
	int c;

	if (!*status) {
		optind = 1;
		*status = -1;
	}
	c = getopt_long(argc, argv, shortopts, opts, NULL);
	if (c == 'h') {
		vgpuctl_cmd_usage(stdout, argv[0]);
		*status = 0;
		return 0;
	}
	if (c == '?' || c == ':') {
		vgpuctl_cmd_usage(stderr, argv[0]);
		*status = 2;
		return 0;
	}
	return c;
}

int vgpuctl_get_info(const char *cmd, const char *what,
		     struct vgpu_info *info)
{
	struct vgpu_dev dev;
	int ret;

	if (vgpuctl_open_or_complain(cmd, &dev))
		return 1;
	ret = vgpul_get_info(&dev, info);
	vgpul_dev_close(&dev);
	if (ret) {
		fprintf(stderr, "vgpuctl %s: %s: %s\n", cmd, what,
			vgpul_strerror(ret));
		return 1;
	}
	return 0;
}

/* An error message for a failed open of /dev/vgpuN. */
void vgpuctl_open_error(const char *cmd, unsigned int index, int err)
{
	if (err == -ENOENT)
		fprintf(stderr, "vgpuctl %s: /dev/vgpu%u does not exist: %s\n",
			cmd, index,
			access("/sys/bus/vgpu", F_OK) ?
			"the module is not loaded (sudo modprobe vgpu_dispatch, or insmod driver/vgpu_dispatch.ko)" :
			"no such device instance (vgpuctl dev list; vgpuctl dev add N)");
	else if (err == -EACCES || err == -EPERM)
		fprintf(stderr, "vgpuctl %s: /dev/vgpu%u: permission denied (run as root or get read-write access to the node)\n",
			cmd, index);
	else
		fprintf(stderr, "vgpuctl %s: /dev/vgpu%u: %s\n", cmd, index,
			vgpul_strerror(err));
}

int vgpuctl_open_or_complain(const char *cmd, struct vgpu_dev *dev)
{
	int ret = vgpul_dev_open(vgpuctl_index, dev);

	if (ret)
		vgpuctl_open_error(cmd, vgpuctl_index, ret);
	return ret;
}

int vgpuctl_nl_or_complain(const char *cmd, struct vgpu_nl **nl)
{
	int ret = vgpul_nl_open(nl);

	if (ret == -EPROTONOSUPPORT)
		fprintf(stderr, "vgpuctl %s: no generic netlink family \"vgpu\": the module is not loaded (sudo modprobe vgpu_dispatch, or insmod driver/vgpu_dispatch.ko)\n",
			cmd);
	else if (ret)
		fprintf(stderr, "vgpuctl %s: netlink: %s\n", cmd,
			vgpul_strerror(ret));
	return ret;
}

void vgpuctl_nl_error(const char *cmd, const char *what, unsigned int dev,
		      int err)
{
	if (err == -ENODEV)
		fprintf(stderr, "vgpuctl %s: no device %u (vgpuctl dev list)\n",
			cmd, dev);
	else if (err == -EPERM)
		fprintf(stderr, "vgpuctl %s: %s: permission denied: needs CAP_NET_ADMIN (run as root)\n",
			cmd, what);
	else
		fprintf(stderr, "vgpuctl %s: %s on device %u: %s\n", cmd, what,
			dev, vgpul_strerror(err));
}

void vgpuctl_dev_error(const char *cmd, const char *file, int err)
{
	if (err == -ENOENT)
		fprintf(stderr, "vgpuctl %s: /sys/bus/vgpu does not exist: the module is not loaded (sudo modprobe vgpu_dispatch)\n",
			cmd);
	else if (err == -EACCES || err == -EPERM)
		fprintf(stderr, "vgpuctl %s: /sys/bus/vgpu/%s: permission denied (device instances need root)\n",
			cmd, file);
	else if (err == -EEXIST)
		fprintf(stderr, "vgpuctl %s: the device index is in use (vgpuctl dev list)\n",
			cmd);
	else if (err == -ENODEV)
		fprintf(stderr, "vgpuctl %s: no such device instance (vgpuctl dev list)\n",
			cmd);
	else
		fprintf(stderr, "vgpuctl %s: /sys/bus/vgpu/%s: %s%s\n", cmd,
			file, vgpul_strerror(err),
			err == -EINVAL ? " (bad index, preset or option; see Documentation/uapi.rst)" : "");
}

/* Redraw / progress only on a terminal that can take escape sequences. */
bool vgpuctl_fancy_tty(int fd)
{
	const char *term = getenv("TERM");

	return isatty(fd) && term && *term && strcmp(term, "dumb");
}
