// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of libvgpu's device-independent parts (F66): errors as
 * negative errnos with messages, the ioctl wrappers' error paths on
 * descriptors that are not devices, deadlines, poll, the netlink name
 * tables.  Everything that needs the module is tested in the VM
 * (selftests/vgpu/vgpuctl.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "vgpu_test_only.h"
#undef ARRAY_SIZE
#include <vgpu/vgpu.h>

/* the core's name table, which libvgpu's netlink names must equal */
#include "vgpu_os.h"
#include "gpu.h"
#include "names.h"

_Static_assert(VGPU_PREEMPT_MODE_DRAIN == VGPU_PREEMPT_DRAIN &&
	       VGPU_PREEMPT_MODE_WARP == VGPU_PREEMPT_WARP &&
	       VGPU_PREEMPT_MODE_SWITCH == VGPU_PREEMPT_SWITCH,
	       "enum vgpu_preempt_mode is the core's VGPU_PREEMPT_*");

TEST(strerror_messages)
{
	EXPECT_NE(NULL, strstr(vgpul_strerror(-ENOENT), "modprobe vgpu_dispatch"));
	EXPECT_NE(NULL, strstr(vgpul_strerror(-EPERM), "CAP_NET_ADMIN"));
	EXPECT_NE(NULL, strstr(vgpul_strerror(-EPERM), "CAP_SYS_NICE"));
	EXPECT_NE(NULL, strstr(vgpul_strerror(-EPROTONOSUPPORT), "module"));
	EXPECT_STREQ(strerror(EINVAL), vgpul_strerror(-EINVAL));
	EXPECT_STREQ("wait timed out", vgpul_strerror(-ETIME));
	EXPECT_NE(NULL, strstr(vgpul_strerror(-EAGAIN), "queue"));
	EXPECT_NE(NULL, strstr(vgpul_strerror(-ENOSPC), "release finished"));
	/* the errors of a failed kernel (QUERY, F15) */
	EXPECT_NE(NULL, strstr(vgpul_strerror(-ELOOP), "VGPU_MAX_DEPTH"));
	EXPECT_NE(NULL, strstr(vgpul_strerror(-EDQUOT), "child budget"));
}

TEST(open_missing_device)
{
	struct vgpu_dev dev = { .fd = -1 };

	/* indexes stop at 15: /dev/vgpu99 never exists */
	EXPECT_EQ(-ENOENT, vgpul_dev_open(99, &dev));
	EXPECT_EQ(0, vgpul_dev_exists(99));
	EXPECT_EQ(-1, dev.fd);
}

/* Every wrapper returns -errno of the failed ioctl, here on a pipe. */
TEST(wrappers_on_a_non_device)
{
	struct vgpu_kernel_query q;
	struct vgpu_submit_desc d;
	struct vgpu_info info;
	struct vgpu_dev dev;
	uint32_t h = 0, handle = 1;
	uint64_t cyc = 0;
	int p[2];

	ASSERT_EQ(0, pipe(p));
	dev.fd = p[0];
	dev.index = 0;
	EXPECT_EQ(-ENOTTY, vgpul_get_info(&dev, &info));
	EXPECT_EQ(-ENOTTY, vgpul_channel_create(&dev, 0, 0, &h));
	EXPECT_EQ(0, h);
	EXPECT_EQ(-ENOTTY, vgpul_channel_destroy(&dev, 1));
	memset(&d, 0, sizeof(d));
	EXPECT_EQ(-ENOTTY, vgpul_submit(&dev, &d));
	EXPECT_EQ(-ENOTTY, vgpul_submit_batch(&dev, &d, 1));
	EXPECT_EQ(-ENOTTY, vgpul_wait(&dev, &handle, 1, VGPU_WAIT_ALL,
				     vgpul_deadline_ns(0), NULL));
	EXPECT_EQ(-ENOTTY, vgpul_query(&dev, 1, 0, &q));
	EXPECT_EQ(1, q.handle);
	EXPECT_EQ(-ENOTTY, vgpul_cancel(&dev, 1));
	EXPECT_EQ(-ENOTTY, vgpul_gate(&dev, VGPU_GATE_CLOSE, &cyc));
	vgpul_dev_close(&dev);
	EXPECT_EQ(-1, dev.fd);
	EXPECT_EQ(-EBADF, vgpul_ioctl(p[0], VGPU_IOCTL_GET_INFO, &info));
	close(p[1]);
}

TEST(poll_helper)
{
	struct vgpu_dev dev;
	int p[2];

	ASSERT_EQ(0, pipe(p));
	dev.fd = p[0];
	EXPECT_EQ(0, vgpul_poll(&dev, 0));
	ASSERT_EQ(1, write(p[1], "x", 1));
	EXPECT_EQ(1, vgpul_poll(&dev, -1));
	close(p[0]);
	close(p[1]);
	dev.fd = p[0];
	EXPECT_EQ(-EBADF, vgpul_poll(&dev, 0));
}

TEST(deadlines)
{
	struct timespec ts;
	int64_t now, d;

	EXPECT_EQ(VGPU_WAIT_FOREVER, vgpul_deadline_ns(-1));
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
	d = vgpul_deadline_ns(5000000000LL);
	EXPECT_GE(d, now + 5000000000LL);
	EXPECT_LT(d, now + 6000000000LL);
}

TEST(netlink_names)
{
	unsigned int i;

	for (i = VGPU_PREEMPT_MODE_DRAIN; i <= VGPU_PREEMPT_MODE_SWITCH; i++)
		EXPECT_EQ((int)i, vgpul_nl_preempt_parse(vgpul_nl_preempt_name(i)));
	EXPECT_EQ(-EINVAL, vgpul_nl_preempt_parse("never"));
	EXPECT_STREQ("?", vgpul_nl_preempt_name(3));
	EXPECT_EQ(-EINVAL, vgpul_nl_preempt_parse(NULL));
	/* libvgpu's own table spells the modes as the core does */
	for (i = VGPU_PREEMPT_MODE_DRAIN; i <= VGPU_PREEMPT_MODE_SWITCH; i++)
		EXPECT_STREQ(vgpu_mode_name(VGPU_MODE_PREEMPT, i),
			     vgpul_nl_preempt_name(i));
	EXPECT_STREQ("dispatch", vgpul_nl_event_name(VGPU_EVENT_DISPATCH));
	EXPECT_STREQ("hang", vgpul_nl_event_name(VGPU_EVENT_HANG));
	EXPECT_STREQ("?", vgpul_nl_event_name(0));
	EXPECT_STREQ("?", vgpul_nl_event_name(99));
	for (i = VGPU_A_STATS_ID; i <= VGPU_A_STATS_MAX; i++)
		EXPECT_NE(NULL, vgpul_nl_stat_name(i));
	EXPECT_STREQ("events_dropped",
		     vgpul_nl_stat_name(VGPU_A_STATS_EVENTS_DROPPED));
	EXPECT_EQ(NULL, vgpul_nl_stat_name(VGPU_A_STATS_MAX + 1));
}

TEST(dev_add_options_too_long)
{
	char opts[600];

	memset(opts, 'x', sizeof(opts) - 1);
	opts[sizeof(opts) - 1] = 0;
	EXPECT_EQ(-E2BIG, vgpul_dev_add(3, opts));
}

VGPU_TEST_MAIN
