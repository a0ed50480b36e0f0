// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_info_test.c - GET_INFO and the ioctl dispatch rules of /dev/vgpuN
 * (F60; Documentation/uapi.rst).
 *
 * Runs in the VM with the module loaded with its defaults (one device,
 * preset "small").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/vgpu_dispatch.h>

#include "kselftest_harness.h"

#define VGPU_DEV "/dev/vgpu0"

/* ioctl number of GET_INFO with another argument size */
#define VGPU_GET_INFO_SIZED(sz) \
	_IOC(_IOC_READ | _IOC_WRITE, VGPU_IOCTL_BASE, 0x00, (sz))

static int vgpu_ioctl_errno(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

FIXTURE(dev) {
	int fd;
};

FIXTURE_SETUP(dev)
{
	self->fd = open(VGPU_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", VGPU_DEV, strerror(errno));
}

FIXTURE_TEARDOWN(dev)
{
	close(self->fd);
}

/* Every byte of a struct vgpu_info that carries no information is zero. */
static int vgpu_info_pads_zero(const struct vgpu_info *info)
{
	size_t len = strnlen((const char *)info->config.name, VGPU_NAME_LEN);
	size_t i;

	if (info->pad || info->pad2 || info->pad3 || info->flags)
		return 0;
	for (i = len; i < VGPU_NAME_LEN; i++)
		if (info->config.name[i])
			return 0;
	return 1;
}

TEST_F(dev, get_info)
{
	struct vgpu_info info;

	memset(&info, 0, sizeof(info));
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_GET_INFO, &info));
	EXPECT_EQ(VGPU_VERSION_MAJOR, info.version_major);
	EXPECT_EQ(VGPU_VERSION_MINOR, info.version_minor);
	EXPECT_EQ(VGPU_VERSION_PATCH, info.version_patch);
	EXPECT_EQ(sizeof(info), info.struct_size);
	EXPECT_NE(0, info.caps & VGPU_CAP_GET_INFO);
	EXPECT_EQ(0, info.caps & ~VGPU_CAP_ALL);
	EXPECT_EQ(0, info.dev_index);
	/* preset "small" (F03): 4 SMs with the CC 8.0 per-SM limits */
	EXPECT_EQ(VGPU_PRESET_SMALL, info.config.preset);
	EXPECT_STREQ("small", (char *)info.config.name);
	EXPECT_EQ(4, info.config.num_sms);
	EXPECT_EQ(4, info.config.subparts);
	EXPECT_EQ(16384, info.config.regs_per_subpart);
	EXPECT_EQ(256, info.config.reg_unit);
	EXPECT_EQ(64, info.config.max_warps_per_sm);
	EXPECT_EQ(32, info.config.max_blocks_per_sm);
	EXPECT_EQ(164 * 1024, info.config.smem_per_sm);
	EXPECT_EQ(128, info.config.smem_unit);
	EXPECT_EQ(1024, info.config.smem_reserve);
	EXPECT_EQ(32, info.config.warp_size);
	EXPECT_EQ(4, info.config.num_prios);
	EXPECT_EQ(2, info.default_prio);
	EXPECT_EQ(64, info.max_channels_per_file);
	EXPECT_EQ(256, info.max_channels);
	EXPECT_TRUE(vgpu_info_pads_zero(&info));
}

/* Output is the same every time: nothing uninitialised leaks out. */
TEST_F(dev, get_info_stable)
{
	struct vgpu_info a, b;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_GET_INFO, &a));
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_GET_INFO, &b));
	EXPECT_EQ(0, memcmp(&a, &b, sizeof(a)));
}

TEST_F(dev, invalid_flags)
{
	struct vgpu_info info;

	memset(&info, 0, sizeof(info));
	info.flags = 1;
	EXPECT_EQ(EINVAL, vgpu_ioctl_errno(self->fd, VGPU_IOCTL_GET_INFO, &info));
	info.flags = 1u << 31;
	EXPECT_EQ(EINVAL, vgpu_ioctl_errno(self->fd, VGPU_IOCTL_GET_INFO, &info));
}

TEST_F(dev, nonzero_pad)
{
	struct vgpu_info info;

	memset(&info, 0, sizeof(info));
	info.pad = 1;
	EXPECT_EQ(EINVAL, vgpu_ioctl_errno(self->fd, VGPU_IOCTL_GET_INFO, &info));
	info.pad = 0;
	info.pad2 = 0x80000000u;
	EXPECT_EQ(EINVAL, vgpu_ioctl_errno(self->fd, VGPU_IOCTL_GET_INFO, &info));
	info.pad2 = 0;
	info.pad3 = 1;
	EXPECT_EQ(EINVAL, vgpu_ioctl_errno(self->fd, VGPU_IOCTL_GET_INFO, &info));
}

TEST_F(dev, bad_pointer)
{
	void *unmapped;

	EXPECT_EQ(EFAULT, vgpu_ioctl_errno(self->fd, VGPU_IOCTL_GET_INFO, NULL));
	unmapped = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, unmapped);
	EXPECT_EQ(EFAULT, vgpu_ioctl_errno(self->fd, VGPU_IOCTL_GET_INFO, unmapped));
	munmap(unmapped, 4096);
}

/* A read-only page: the copy-in succeeds, the copy-out must fail. */
TEST_F(dev, readonly_pointer)
{
	void *ro;

	ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	EXPECT_EQ(EFAULT, vgpu_ioctl_errno(self->fd, VGPU_IOCTL_GET_INFO, ro));
	munmap(ro, 4096);
}

TEST_F(dev, unknown_ioctl)
{
	struct vgpu_info info;

	memset(&info, 0, sizeof(info));
	/* unknown number */
	EXPECT_EQ(ENOTTY, vgpu_ioctl_errno(self->fd,
		_IOWR(VGPU_IOCTL_BASE, 0x7f, struct vgpu_info), &info));
	/* right number, wrong type */
	EXPECT_EQ(ENOTTY, vgpu_ioctl_errno(self->fd,
		_IOWR('W', 0x00, struct vgpu_info), &info));
	/* right number, wrong direction */
	EXPECT_EQ(ENOTTY, vgpu_ioctl_errno(self->fd,
		_IOR(VGPU_IOCTL_BASE, 0x00, struct vgpu_info), &info));
	EXPECT_EQ(ENOTTY, vgpu_ioctl_errno(self->fd,
		_IO(VGPU_IOCTL_BASE, 0x00), NULL));
	/* a generic tty ioctl */
	EXPECT_EQ(ENOTTY, vgpu_ioctl_errno(self->fd, TCGETS, &info));
}

/* Extension rule: shorter than the first published size is invalid. */
TEST_F(dev, short_size)
{
	struct vgpu_info info;

	memset(&info, 0, sizeof(info));
	EXPECT_EQ(EINVAL, vgpu_ioctl_errno(self->fd,
		VGPU_GET_INFO_SIZED(VGPU_INFO_SIZE_VER0 - 8), &info));
	EXPECT_EQ(EINVAL, vgpu_ioctl_errno(self->fd, VGPU_GET_INFO_SIZED(0),
					   &info));
}

/* Extension rule: a caller built against version 0 of the struct works. */
TEST_F(dev, older_struct_ver0)
{
	struct {
		struct vgpu_info info;
		uint8_t canary[8];
	} buf;
	uint8_t *raw = (uint8_t *)&buf;
	size_t i;

	memset(&buf, 0, sizeof(buf));
	memset(raw + VGPU_INFO_SIZE_VER0, 0xa5, sizeof(buf) - VGPU_INFO_SIZE_VER0);
	ASSERT_EQ(0, ioctl(self->fd, VGPU_GET_INFO_SIZED(VGPU_INFO_SIZE_VER0), &buf));
	EXPECT_EQ(4, buf.info.config.num_sms);
	/* nothing written past the caller's size */
	for (i = VGPU_INFO_SIZE_VER0; i < sizeof(buf); i++)
		ASSERT_EQ(0xa5, raw[i]);
}

/* Extension rule: a newer, longer struct with a zero tail works... */
TEST_F(dev, longer_struct_zero_tail)
{
	struct {
		struct vgpu_info info;
		uint8_t tail[64];
	} big;
	size_t i;

	memset(&big, 0, sizeof(big));
	ASSERT_EQ(0, ioctl(self->fd, VGPU_GET_INFO_SIZED(sizeof(big)), &big));
	EXPECT_EQ(4, big.info.config.num_sms);
	EXPECT_EQ(sizeof(big.info), big.info.struct_size);
	for (i = 0; i < sizeof(big.tail); i++)
		ASSERT_EQ(0, big.tail[i]);
}

/* ...and one with bytes this module does not know gets -E2BIG. */
TEST_F(dev, longer_struct_nonzero_tail)
{
	struct {
		struct vgpu_info info;
		uint8_t tail[64];
	} big;

	memset(&big, 0, sizeof(big));
	big.tail[63] = 1;
	EXPECT_EQ(E2BIG, vgpu_ioctl_errno(self->fd,
		VGPU_GET_INFO_SIZED(sizeof(big)), &big));
}

/* Every open file works on its own. */
TEST(many_opens)
{
	struct vgpu_info info;
	int fds[64];
	int i;

	for (i = 0; i < 64; i++) {
		fds[i] = open(VGPU_DEV, O_RDWR | O_CLOEXEC);
		ASSERT_LE(0, fds[i]);
	}
	for (i = 0; i < 64; i++) {
		memset(&info, 0, sizeof(info));
		EXPECT_EQ(0, ioctl(fds[i], VGPU_IOCTL_GET_INFO, &info));
		close(fds[i]);
	}
}

TEST_HARNESS_MAIN
