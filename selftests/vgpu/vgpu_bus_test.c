// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_bus_test.c - device instances created and removed at runtime through
 * /sys/bus/vgpu/{new,del}_device (F61), as devices on that bus bound
 * to its driver, and -ENODEV for files left open on a removed
 * instance.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/vgpu_dispatch.h>

#include "kselftest_harness.h"

#define NEW_DEVICE "/sys/bus/vgpu/new_device"
#define DEL_DEVICE "/sys/bus/vgpu/del_device"

/* Write @line to a sysfs file; 0 or the errno of write(). */
static int vgpu_sysfs_write(const char *path, const char *line)
{
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	n = write(fd, line, strlen(line));
	if (n < 0)
		err = errno;
	close(fd);
	return err;
}

static int vgpu_info_of(int fd, struct vgpu_info *info)
{
	memset(info, 0, sizeof(*info));
	return ioctl(fd, VGPU_IOCTL_GET_INFO, info) ? errno : 0;
}

static int vgpu_exists(const char *node)
{
	struct stat st;

	return stat(node, &st) == 0;
}

TEST(new_and_del)
{
	struct vgpu_info info;
	int fd;

	ASSERT_EQ(0, vgpu_sysfs_write(NEW_DEVICE, "5 h100\n"));
	ASSERT_TRUE(vgpu_exists("/dev/vgpu5"));
	fd = open("/dev/vgpu5", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_info_of(fd, &info));
	EXPECT_EQ(5, info.dev_index);
	EXPECT_EQ(VGPU_PRESET_H100, info.config.preset);
	EXPECT_EQ(132, info.config.num_sms);
	close(fd);
	ASSERT_EQ(0, vgpu_sysfs_write(DEL_DEVICE, "5\n"));
	EXPECT_FALSE(vgpu_exists("/dev/vgpu5"));
}

/*
 * An instance is a device vgpuN on the bus, bound to the driver
 * vgpu_dispatch, its misc device a child of it; all gone after del_device.
 */
TEST(instance_is_a_bus_device)
{
	char link[PATH_MAX];
	ssize_t n;

	ASSERT_EQ(0, vgpu_sysfs_write(NEW_DEVICE, "6 small"));
	EXPECT_TRUE(vgpu_exists("/sys/bus/vgpu/devices/vgpu6"));
	n = readlink("/sys/bus/vgpu/devices/vgpu6/driver", link,
		     sizeof(link) - 1);
	ASSERT_LT(0, n);
	link[n] = '\0';
	EXPECT_STREQ("vgpu_dispatch", strrchr(link, '/') + 1);
	EXPECT_TRUE(vgpu_exists("/sys/bus/vgpu/drivers/vgpu_dispatch/vgpu6"));
	EXPECT_TRUE(vgpu_exists("/sys/bus/vgpu/devices/vgpu6/misc/vgpu6"));
	ASSERT_EQ(0, vgpu_sysfs_write(DEL_DEVICE, "6"));
	EXPECT_FALSE(vgpu_exists("/sys/bus/vgpu/devices/vgpu6"));
	EXPECT_FALSE(vgpu_exists("/dev/vgpu6"));
}

/* A new_device refused for its options leaves no device on the bus. */
TEST(refused_leaves_nothing)
{
	EXPECT_EQ(EINVAL, vgpu_sysfs_write(NEW_DEVICE, "6 small policy=nosuch"));
	EXPECT_EQ(EINVAL, vgpu_sysfs_write(NEW_DEVICE, "6 small epoch=0"));
	EXPECT_FALSE(vgpu_exists("/sys/bus/vgpu/devices/vgpu6"));
	EXPECT_FALSE(vgpu_exists("/dev/vgpu6"));
	EXPECT_EQ(ENOENT, vgpu_sysfs_write(DEL_DEVICE, "6"));
}

TEST(default_preset_is_small)
{
	struct vgpu_info info;
	int fd;

	ASSERT_EQ(0, vgpu_sysfs_write(NEW_DEVICE, "6"));
	fd = open("/dev/vgpu6", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_info_of(fd, &info));
	EXPECT_EQ(VGPU_PRESET_SMALL, info.config.preset);
	EXPECT_EQ(4, info.config.num_sms);
	close(fd);
	ASSERT_EQ(0, vgpu_sysfs_write(DEL_DEVICE, "6"));
}

TEST(new_device_errors)
{
	/* the module's load-time device 0 exists */
	EXPECT_EQ(EEXIST, vgpu_sysfs_write(NEW_DEVICE, "0"));
	EXPECT_EQ(EINVAL, vgpu_sysfs_write(NEW_DEVICE, "16"));
	EXPECT_EQ(EINVAL, vgpu_sysfs_write(NEW_DEVICE, "4294967295"));
	EXPECT_EQ(EINVAL, vgpu_sysfs_write(NEW_DEVICE, "abc"));
	EXPECT_EQ(EINVAL, vgpu_sysfs_write(NEW_DEVICE, "\n"));
	EXPECT_EQ(EINVAL, vgpu_sysfs_write(NEW_DEVICE, "7 bogus"));
	EXPECT_EQ(EINVAL, vgpu_sysfs_write(NEW_DEVICE, "7 small extra"));
	EXPECT_EQ(EINVAL, vgpu_sysfs_write(NEW_DEVICE, "x7 small"));
	EXPECT_EQ(EINVAL, vgpu_sysfs_write(NEW_DEVICE, "7 averyveryverylongpresetname"));
	/* nothing was created by the failures */
	EXPECT_FALSE(vgpu_exists("/dev/vgpu7"));
}

/* Per-instance options (F61): configuration and scheduling. */
TEST(new_device_options)
{
	struct vgpu_info info;
	int fd;

	ASSERT_EQ(0, vgpu_sysfs_write(NEW_DEVICE,
		"7 small num_sms=2 policy=rr preempt=switch epoch=128 workers=1 "
		"clock=paced freq_khz=1000000 timeout=100000 windows=400,200\n"));
	fd = open("/dev/vgpu7", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_info_of(fd, &info));
	EXPECT_EQ(2, info.config.num_sms);
	EXPECT_EQ(VGPU_PRESET_CUSTOM, info.config.preset);
	EXPECT_STREQ("custom", (char *)info.config.name);
	EXPECT_EQ(1, info.workers);
	close(fd);
	ASSERT_EQ(0, vgpu_sysfs_write(DEL_DEVICE, "7"));

	/* options without a preset start from "small" */
	ASSERT_EQ(0, vgpu_sysfs_write(NEW_DEVICE, "7 preempt=drain"));
	fd = open("/dev/vgpu7", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_info_of(fd, &info));
	EXPECT_EQ(VGPU_PRESET_SMALL, info.config.preset);
	close(fd);
	ASSERT_EQ(0, vgpu_sysfs_write(DEL_DEVICE, "7"));
}

TEST(new_device_option_errors)
{
	static const char *const bad[] = {
		"7 small bogus=1",
		"7 small preempt=sometimes",
		"7 small clock=fast",
		"7 small policy=no-such-policy",
		"7 small epoch=0",
		"7 small num_sms=0",
		"7 small num_sms=100000",
		"7 small workers=100000",
		"7 small freq_khz=0",
		"7 small timeout=0",
		"7 small epoch=abc",
		"7 small =5",
		"7 small epoch",
		"7 small windows=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17",
	};
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *line = bad[i];

		EXPECT_EQ(EINVAL, vgpu_sysfs_write(NEW_DEVICE, line))
			TH_LOG("line %u", i);
	}
	EXPECT_FALSE(vgpu_exists("/dev/vgpu7"));
}

TEST(del_device_errors)
{
	EXPECT_EQ(ENOENT, vgpu_sysfs_write(DEL_DEVICE, "9"));
	EXPECT_EQ(EINVAL, vgpu_sysfs_write(DEL_DEVICE, "x"));
	EXPECT_EQ(EINVAL, vgpu_sysfs_write(DEL_DEVICE, "1 2"));
	EXPECT_EQ(EINVAL, vgpu_sysfs_write(DEL_DEVICE, "\n"));
}

/* A removed instance keeps its open files alive; they get -ENODEV. */
TEST(del_while_open)
{
	struct vgpu_info info;
	int fd, fd2;

	ASSERT_EQ(0, vgpu_sysfs_write(NEW_DEVICE, "8 a100"));
	fd = open("/dev/vgpu8", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_sysfs_write(DEL_DEVICE, "8"));
	EXPECT_FALSE(vgpu_exists("/dev/vgpu8"));
	EXPECT_EQ(ENODEV, vgpu_info_of(fd, &info));
	/* the ID is free again while the old file is still open */
	ASSERT_EQ(0, vgpu_sysfs_write(NEW_DEVICE, "8 small"));
	fd2 = open("/dev/vgpu8", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd2);
	EXPECT_EQ(0, vgpu_info_of(fd2, &info));
	EXPECT_EQ(4, info.config.num_sms);
	EXPECT_EQ(ENODEV, vgpu_info_of(fd, &info));
	close(fd);
	close(fd2);
	ASSERT_EQ(0, vgpu_sysfs_write(DEL_DEVICE, "8"));
}

static volatile bool race_stop, race_deleted;

static void *race_del(void *arg)
{
	vgpu_sysfs_write(DEL_DEVICE, "7");
	race_deleted = true;
	return NULL;
}

/* Read the instance's debugfs views until told to stop. */
static void *race_read(void *arg)
{
	char buf[4096];
	int fd;

	while (!race_stop) {
		fd = open("/sys/kernel/debug/vgpu/vgpu7/kernels", O_RDONLY);
		if (fd < 0)
			continue;
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
	}
	return NULL;
}

/*
 * del_device N racing new_device N, with a debugfs reader busy.
 * Whichever wins, an instance that exists has its debugfs directory (the
 * new one used to come up without it while the old one was being torn
 * down).
 */
TEST(del_new_race)
{
	pthread_t del, reader;
	int round, missing = 0, made = 0, ret;

	race_stop = false;
	ASSERT_EQ(0, pthread_create(&reader, NULL, race_read, NULL));
	for (round = 0; round < 20; round++) {
		ASSERT_EQ(0, vgpu_sysfs_write(NEW_DEVICE, "7 small"));
		race_deleted = false;
		ASSERT_EQ(0, pthread_create(&del, NULL, race_del, NULL));
		/* create again as soon as the index looks free */
		while ((ret = vgpu_sysfs_write(NEW_DEVICE, "7 small")) ==
		       EEXIST && !race_deleted)
			;
		if (ret == EEXIST)
			ret = vgpu_sysfs_write(NEW_DEVICE, "7 small");
		EXPECT_EQ(0, ret);
		made += !ret;
		ASSERT_EQ(0, pthread_join(del, NULL));
		if (vgpu_exists("/dev/vgpu7") &&
		    !vgpu_exists("/sys/kernel/debug/vgpu/vgpu7/kernels"))
			missing++;
		vgpu_sysfs_write(DEL_DEVICE, "7");
	}
	race_stop = true;
	ASSERT_EQ(0, pthread_join(reader, NULL));
	TH_LOG("%d of 20 rounds created the instance again", made);
	EXPECT_EQ(0, missing);
	EXPECT_FALSE(vgpu_exists("/dev/vgpu7"));
}

#define STORM_THREADS	4
#define STORM_ROUNDS	25	/* the debug kernel under TCG: 30 s */

/**
 * struct storm - what one thread of new_del_storm saw
 * @made: its new_device writes that succeeded
 * @gone: its del_device writes that succeeded
 * @other: writes that failed with anything but EEXIST / ENOENT
 */
struct storm {
	int made, gone, other;
};

/* new_device and del_device of index 3, one after the other. */
static void *storm_fn(void *arg)
{
	struct storm *st = arg;
	int i, ret;

	for (i = 0; i < STORM_ROUNDS; i++) {
		ret = vgpu_sysfs_write(NEW_DEVICE, "3 small");
		if (!ret)
			st->made++;
		else if (ret != EEXIST)
			st->other++;
		ret = vgpu_sysfs_write(DEL_DEVICE, "3");
		if (!ret)
			st->gone++;
		else if (ret != ENOENT)
			st->other++;
	}
	return NULL;
}

/*
 * new_device and del_device of one index from several threads at
 * once (4 x 25 pairs).  Creation and removal of an index are serialised under the list
 * lock, so every write either succeeds or finds the index taken (EEXIST)
 * or free (ENOENT); successes alternate, so creations minus removals is 1
 * exactly when the instance exists at the end.  A removal that dropped
 * the lock before unregistering lets a creation collide with the old
 * device's name: writes still end in EEXIST, but the kernel log shows
 * sysfs' duplicate-name call trace, which fails vm-run (seen).
 */
TEST(new_del_storm)
{
	struct storm st[STORM_THREADS] = {};
	pthread_t t[STORM_THREADS];
	int i, made = 0, gone = 0, other = 0;
	bool there;

	for (i = 0; i < STORM_THREADS; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, storm_fn, &st[i]));
	for (i = 0; i < STORM_THREADS; i++) {
		ASSERT_EQ(0, pthread_join(t[i], NULL));
		made += st[i].made;
		gone += st[i].gone;
		other += st[i].other;
	}
	there = vgpu_exists("/dev/vgpu3");
	TH_LOG("%d created, %d removed", made, gone);
	EXPECT_EQ(0, other);
	EXPECT_LE(1, made);
	EXPECT_EQ(there ? 1 : 0, made - gone);
	EXPECT_EQ(there, vgpu_exists("/sys/bus/vgpu/devices/vgpu3"));
	EXPECT_EQ(there, vgpu_exists("/sys/kernel/debug/vgpu/vgpu3"));
	if (there)
		EXPECT_EQ(0, vgpu_sysfs_write(DEL_DEVICE, "3"));
	EXPECT_FALSE(vgpu_exists("/sys/bus/vgpu/devices/vgpu3"));
}

/* Unprivileged users cannot create instances (sysfs mode 0200). */
TEST(unprivileged)
{
	pid_t pid = fork();
	int status;

	ASSERT_LE(0, pid);
	if (!pid) {
		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(2);
		_exit(vgpu_sysfs_write(NEW_DEVICE, "9") == EACCES ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_FALSE(vgpu_exists("/dev/vgpu9"));
}

TEST_HARNESS_MAIN
