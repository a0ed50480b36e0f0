// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_channel_test.c - CHANNEL_CREATE / CHANNEL_DESTROY (F11, F60):
 * success paths, every errno with otherwise-valid input, ownership by the
 * open file, limits, CAP_SYS_NICE for privileged priorities.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/vgpu_dispatch.h>

#include "kselftest_harness.h"

#define VGPU_DEV "/dev/vgpu0"

static int vgpu_open(void)
{
	return open(VGPU_DEV, O_RDWR | O_CLOEXEC);
}

/* Create a channel; 0 and *handle, or the errno. */
static int ch_create(int fd, __u32 prio, __u64 timeout, __u32 *handle)
{
	struct vgpu_channel_create cc;

	memset(&cc, 0, sizeof(cc));
	cc.priority = prio;
	cc.timeout_cycles = timeout;
	if (ioctl(fd, VGPU_IOCTL_CHANNEL_CREATE, &cc))
		return errno;
	if (handle)
		*handle = cc.handle;
	return 0;
}

static int ch_destroy(int fd, __u32 handle)
{
	struct vgpu_channel_destroy cd = { .handle = handle };

	return ioctl(fd, VGPU_IOCTL_CHANNEL_DESTROY, &cd) ? errno : 0;
}

static struct vgpu_info vgpu_info_get(int fd)
{
	struct vgpu_info info;

	memset(&info, 0, sizeof(info));
	if (ioctl(fd, VGPU_IOCTL_GET_INFO, &info))
		memset(&info, 0, sizeof(info));
	return info;
}

FIXTURE(ch) {
	int fd;
	struct vgpu_info info;
};

FIXTURE_SETUP(ch)
{
	self->fd = vgpu_open();
	ASSERT_LE(0, self->fd);
	self->info = vgpu_info_get(self->fd);
	ASSERT_NE(0, self->info.caps & VGPU_CAP_CHANNELS);
	ASSERT_EQ(4, self->info.config.num_prios);
	ASSERT_EQ(2, self->info.default_prio);
}

FIXTURE_TEARDOWN(ch)
{
	close(self->fd);
}

TEST_F(ch, create_destroy)
{
	__u32 a = 0, b = 0;

	ASSERT_EQ(0, ch_create(self->fd, 2, 0, &a));
	ASSERT_EQ(0, ch_create(self->fd, 3, 1000, &b));
	EXPECT_NE(0, a);
	EXPECT_NE(0, b);
	EXPECT_NE(a, b);
	EXPECT_EQ(0, ch_destroy(self->fd, a));
	EXPECT_EQ(0, ch_destroy(self->fd, b));
}

TEST_F(ch, out_fields_zeroed)
{
	struct vgpu_channel_create cc;

	memset(&cc, 0, sizeof(cc));
	cc.priority = 3;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_CHANNEL_CREATE, &cc));
	EXPECT_EQ(0, cc.pad);
	EXPECT_EQ(0, cc.flags);
	EXPECT_EQ(3, cc.priority);
	EXPECT_EQ(0, ch_destroy(self->fd, cc.handle));
}

TEST_F(ch, invalid_flags)
{
	struct vgpu_channel_create cc;
	struct vgpu_channel_destroy cd;
	__u32 h = 0;

	memset(&cc, 0, sizeof(cc));
	cc.priority = 2;
	cc.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_CHANNEL_CREATE, &cc));
	EXPECT_EQ(EINVAL, errno);

	ASSERT_EQ(0, ch_create(self->fd, 2, 0, &h));
	cd.handle = h;
	cd.flags = 0x80000000u;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_CHANNEL_DESTROY, &cd));
	EXPECT_EQ(EINVAL, errno);
	/* the failed destroy left the channel alone */
	EXPECT_EQ(0, ch_destroy(self->fd, h));
}

TEST_F(ch, nonzero_pad)
{
	struct vgpu_channel_create cc;

	memset(&cc, 0, sizeof(cc));
	cc.priority = 2;
	cc.pad = 1;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_CHANNEL_CREATE, &cc));
	EXPECT_EQ(EINVAL, errno);
	cc.pad = 0;
	cc.handle = 5;	/* out field, must be zero on input */
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_CHANNEL_CREATE, &cc));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(ch, invalid_priority)
{
	EXPECT_EQ(EINVAL, ch_create(self->fd, 4, 0, NULL));
	EXPECT_EQ(EINVAL, ch_create(self->fd, 0xffffffffu, 0, NULL));
}

TEST_F(ch, invalid_timeout)
{
	EXPECT_EQ(EINVAL, ch_create(self->fd, 2, (1ULL << 48) + 1, NULL));
	EXPECT_EQ(EINVAL, ch_create(self->fd, 2, ~0ULL, NULL));
	EXPECT_EQ(0, ch_create(self->fd, 2, 1ULL << 48, NULL));
}

TEST_F(ch, bad_pointer)
{
	void *ro;

	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_CHANNEL_CREATE, NULL));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_CHANNEL_DESTROY, NULL));
	EXPECT_EQ(EFAULT, errno);
	/* readable but not writable: the channel must not leak */
	ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_CHANNEL_CREATE, ro));
	EXPECT_EQ(EFAULT, errno);
	munmap(ro, 4096);
}

TEST_F(ch, unknown_handle)
{
	__u32 h = 0;

	EXPECT_EQ(ENOENT, ch_destroy(self->fd, 0));
	EXPECT_EQ(ENOENT, ch_destroy(self->fd, 12345));
	EXPECT_EQ(ENOENT, ch_destroy(self->fd, 0xffffffffu));
	ASSERT_EQ(0, ch_create(self->fd, 2, 0, &h));
	EXPECT_EQ(0, ch_destroy(self->fd, h));
	EXPECT_EQ(ENOENT, ch_destroy(self->fd, h));	/* twice */
}

/* A destroyed channel's handle never names the next channel. */
TEST_F(ch, stale_handle_not_reused)
{
	__u32 first = 0, h = 0;
	int i;

	ASSERT_EQ(0, ch_create(self->fd, 2, 0, &first));
	ASSERT_EQ(0, ch_destroy(self->fd, first));
	for (i = 0; i < 100; i++) {
		ASSERT_EQ(0, ch_create(self->fd, 2, 0, &h));
		EXPECT_NE(first, h);
		/* the stale handle stays unknown while a new channel lives */
		EXPECT_EQ(ENOENT, ch_destroy(self->fd, first));
		ASSERT_EQ(0, ch_destroy(self->fd, h));
	}
}

TEST_F(ch, foreign_handle)
{
	int other = vgpu_open();
	__u32 h = 0;

	ASSERT_LE(0, other);
	ASSERT_EQ(0, ch_create(self->fd, 2, 0, &h));
	EXPECT_EQ(ENOENT, ch_destroy(other, h));
	EXPECT_EQ(0, ch_destroy(self->fd, h));
	close(other);
}

/* Priorities above the device default need CAP_SYS_NICE. */
TEST_F(ch, privileged_priority)
{
	pid_t pid;
	int status;

	EXPECT_EQ(0, ch_create(self->fd, 0, 0, NULL));	/* root may */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd = vgpu_open();

		if (fd < 0 || setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(10);
		if (ch_create(fd, 0, 0, NULL) != EPERM)
			_exit(1);
		if (ch_create(fd, 1, 0, NULL) != EPERM)
			_exit(2);
		if (ch_create(fd, 2, 0, NULL) != 0)
			_exit(3);
		if (ch_create(fd, 3, 0, NULL) != 0)
			_exit(4);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_F(ch, per_file_limit)
{
	__u32 n = self->info.max_channels_per_file, i, first = 0, h;

	ASSERT_EQ(64, n);
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, ch_create(self->fd, 3, 0, &h));
		if (!i)
			first = h;
	}
	EXPECT_EQ(ENOSPC, ch_create(self->fd, 3, 0, NULL));
	EXPECT_EQ(0, ch_destroy(self->fd, first));
	EXPECT_EQ(0, ch_create(self->fd, 3, 0, NULL));
	EXPECT_EQ(ENOSPC, ch_create(self->fd, 3, 0, NULL));
}

/*
 * The device-wide limit, and release() giving everything back: fill the
 * device from many files, check the limit, close them all and fill it again.
 */
TEST_F(ch, device_limit_and_release)
{
	__u32 total = self->info.max_channels, per = self->info.max_channels_per_file;
	int nfiles = (total + per - 1) / per + 1;
	int fds[64], round, f;

	ASSERT_EQ(256, total);
	ASSERT_LE(nfiles, 64);
	for (round = 0; round < 2; round++) {
		__u32 made = 0;

		for (f = 0; f < nfiles; f++) {
			fds[f] = vgpu_open();
			ASSERT_LE(0, fds[f]);
		}
		for (f = 0; f < nfiles; f++) {
			int err;

			while (!(err = ch_create(fds[f], 3, 0, NULL)))
				made++;
			ASSERT_EQ(ENOSPC, err);
		}
		EXPECT_EQ(total, made);
		for (f = 0; f < nfiles; f++)
			close(fds[f]);
	}
}

/* A file whose device was removed gets -ENODEV and still closes cleanly. */
TEST(removed_device)
{
	int fd, sys;
	__u32 h = 0;

	sys = open("/sys/bus/vgpu/new_device", O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, sys);
	ASSERT_EQ(2, write(sys, "3\n", 2));
	close(sys);
	fd = open("/dev/vgpu3", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ch_create(fd, 2, 0, &h));
	sys = open("/sys/bus/vgpu/del_device", O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, sys);
	ASSERT_EQ(2, write(sys, "3\n", 2));
	close(sys);
	EXPECT_EQ(ENODEV, ch_create(fd, 2, 0, NULL));
	EXPECT_EQ(ENODEV, ch_destroy(fd, h));
	close(fd);
}

TEST_HARNESS_MAIN
