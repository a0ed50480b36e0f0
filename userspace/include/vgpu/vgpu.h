/* SPDX-License-Identifier: LGPL-2.1 OR GPL-2.0 */
/*
 * vgpu.h - libvgpu, the C library of vgpu-dispatch (SPEC F66).
 *
 * Every function returns 0 (or a non-negative value) on success and a
 * negative errno on failure; vgpu_strerror() turns it into a message.
 */
#ifndef VGPU_VGPU_H
#define VGPU_VGPU_H

#include <linux/vgpu_dispatch.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct vgpu_dev - an open /dev/vgpuN
 * @fd: the file descriptor
 * @index: N
 */
struct vgpu_dev {
	int fd;
	unsigned int index;
};

int vgpu_ioctl(int fd, unsigned long cmd, void *arg);
int vgpu_dev_open(unsigned int index, struct vgpu_dev *dev);
void vgpu_dev_close(struct vgpu_dev *dev);
int vgpu_get_info(struct vgpu_dev *dev, struct vgpu_info *info);
const char *vgpu_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif /* VGPU_VGPU_H */
