// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_vtime_test.c - virtual time is shared by every user of a device:
 * arrivals are bounded relative to the clock, a far arrival neither stalls
 * a paced device for the others nor counts against their hang timeouts,
 * and the clock ends at VGPU_CLOCK_END (2^62) instead of wrapping.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/vgpu_dispatch.h>

#include "kselftest_harness.h"
#include "vgpu_test_util.h"

#define DEV		10
#define CLOCK_END	(1ULL << 62)

static int new_device(const char *opts)
{
	return vgpu_test_new_device(DEV, opts);
}

static void del_device(void)
{
	char line[8];

	snprintf(line, sizeof(line), "%d", DEV);
	vgpu_test_sysfs("/sys/bus/vgpu/del_device", line);
}

/* Drop to nobody (the device is shared with other users). */
static int become_nobody(void)
{
	return setresgid(65534, 65534, 65534) ||
	       setresuid(65534, 65534, 65534);
}

/* Arrivals beyond the device's max_arrival are EINVAL; root raises it. */
TEST(arrival_limit)
{
	struct vgpu_queue_push p;
	struct vgpu_submit_desc d;
	__u32 ch = 0, h = 0;
	int fd;

	ASSERT_EQ(0, new_device(""));
	fd = vgpu_test_open(DEV);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_test_channel(fd, 2, 0, &ch));
	ASSERT_EQ(0, vgpu_test_gate(fd, VGPU_GATE_CLOSE, NULL));
	EXPECT_EQ(EINVAL, vgpu_test_submit_at(fd, ch, (1ULL << 32) + 1, &h));
	ASSERT_EQ(0, vgpu_test_submit_at(fd, ch, 1ULL << 32, &h));
	EXPECT_EQ(0, vgpu_test_cancel(fd, h));
	/* the same bound for QUEUE_PUSH */
	VGPU_QDESC(&d, ch, vgpu_prog_alu, 1, 8, 100);
	ASSERT_EQ(0, vgpu_test_submit(fd, &d, 1));
	memset(&p, 0, sizeof(p));
	p.handle = d.handle;
	p.items = 1;
	p.arrival = (1ULL << 32) + 1;
	EXPECT_EQ(EINVAL, vgpu_test_errno(ioctl(fd, VGPU_IOCTL_QUEUE_PUSH, &p)));
	p.arrival = 1ULL << 32;
	EXPECT_EQ(0, vgpu_test_errno(ioctl(fd, VGPU_IOCTL_QUEUE_PUSH, &p)));
	EXPECT_EQ(0, vgpu_test_cancel(fd, d.handle));
	ASSERT_EQ(0, vgpu_test_gate(fd, VGPU_GATE_OPEN, NULL));
	close(fd);

	ASSERT_EQ(0, new_device(" max_arrival=1099511627776"));	/* 2^40 */
	fd = vgpu_test_open(DEV);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_test_channel(fd, 2, 0, &ch));
	ASSERT_EQ(0, vgpu_test_gate(fd, VGPU_GATE_CLOSE, NULL));
	ASSERT_EQ(0, vgpu_test_submit_at(fd, ch, 1ULL << 40, &h));
	EXPECT_EQ(EINVAL, vgpu_test_submit_at(fd, ch, (1ULL << 40) + 1, &h));
	ASSERT_EQ(0, vgpu_test_gate(fd, VGPU_GATE_OPEN, NULL));
	close(fd);
	/* never past the uapi's 2^48 */
	EXPECT_EQ(EINVAL, new_device(" max_arrival=281474976710657"));
	del_device();
}

/*
 * Defect 2: a far arrival by another user makes the idle clock skip; that
 * skipped time is no time root's dispatched, idle queue kernel could have
 * run, so its hang timeout (100,000 cycles) must not fire.
 */
TEST(skipped_time_is_not_charged)
{
	static const struct vgpu_insn p_item[] = {
		{ .op = VGPU_OP_ALU },
		{ .op = VGPU_OP_EXIT },
	};
	struct vgpu_kernel_query q;
	struct vgpu_submit_desc d;
	struct vgpu_queue_push p;
	__u32 ch = 0;
	int fd, i, status;
	pid_t pid;

	ASSERT_EQ(0, new_device(""));
	fd = vgpu_test_open(DEV);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_test_channel(fd, 2, 100000, &ch));
	VGPU_QDESC(&d, ch, p_item, 1, 8, 100);
	ASSERT_EQ(0, vgpu_test_submit(fd, &d, 1));
	memset(&p, 0, sizeof(p));
	p.handle = d.handle;
	p.items = 1;
	ASSERT_EQ(0, vgpu_test_errno(ioctl(fd, VGPU_IOCTL_QUEUE_PUSH, &p)));
	/* its one block done: dispatched, open, idle */
	for (i = 0; i < 20000; i++) {
		ASSERT_EQ(0, vgpu_test_query(fd, d.handle, 0, &q));
		if (q.blocks_done == 1)
			break;
		usleep(100);
	}
	ASSERT_EQ(1, q.blocks_done);

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		__u32 och = 0, h = 0;
		int ofd;

		if (become_nobody())
			_exit(10);
		ofd = vgpu_test_open(DEV);
		if (ofd < 0 || vgpu_test_channel(ofd, 2, 0, &och))
			_exit(11);
		if (vgpu_test_submit_at(ofd, och, 10000000, &h))
			_exit(12);
		_exit(vgpu_test_wait(ofd, &h, 1, 0, VGPU_WAIT_FOREVER, NULL) ?
		      13 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	/* the clock went past 10,000,000; root's kernel is still fine */
	EXPECT_LT(10000000, vgpu_test_info(fd).cycle);
	ASSERT_EQ(0, vgpu_test_query(fd, d.handle, 0, &q));
	EXPECT_EQ(VGPU_KSTATE_RUNNING, q.state);
	EXPECT_EQ(0, q.error);
	EXPECT_EQ(0, vgpu_test_cancel(fd, d.handle));
	close(fd);
	del_device();
}

/*
 * Defect 1: on a paced device (1 MHz), nobody's kernel arriving 2^32
 * cycles later (over an hour) must not hold back root's kernel arriving
 * now: it completes well within a minute.
 */
TEST(paced_far_arrival_stalls_nobody)
{
	__u32 ch = 0, h = 0;
	int fd, status, sync[2];
	char c = 0;
	pid_t pid;

	ASSERT_EQ(0, new_device(" clock=paced freq_khz=1000"));
	ASSERT_EQ(0, pipe(sync));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		__u32 och = 0, oh = 0;
		int ofd;

		close(sync[0]);
		if (become_nobody())
			_exit(10);
		ofd = vgpu_test_open(DEV);
		if (ofd < 0 || vgpu_test_channel(ofd, 2, 0, &och) ||
		    vgpu_test_submit_at(ofd, och, 1ULL << 32, &oh))
			_exit(11);
		/* submitted; the kernel lives as long as this file */
		if (write(sync[1], "s", 1) != 1)
			_exit(12);
		pause();
		_exit(0);
	}
	close(sync[1]);
	ASSERT_EQ(1, read(sync[0], &c, 1));
	close(sync[0]);

	fd = vgpu_test_open(DEV);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_test_channel(fd, 2, 0, &ch));
	ASSERT_EQ(0, vgpu_test_submit_at(fd, ch, 0, &h));
	/* a liveness bound, not a speed assertion: it takes milliseconds */
	EXPECT_EQ(0, vgpu_test_wait(fd, &h, 1, 0,
				    vgpu_test_now_ns() + 60000000000LL, NULL));
	EXPECT_GT(1ULL << 32, vgpu_test_info(fd).cycle);
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	close(fd);
	del_device();
}

/* Only for its timeout: 16,400 kernels take minutes on the debug kernel. */
FIXTURE(vt) {
	int unused;
};

FIXTURE_SETUP(vt)
{
}

FIXTURE_TEARDOWN(vt)
{
}

/*
 * Defect 3: 16,400 kernels each arriving 2^48 cycles after the clock
 * would wrap a 64-bit clock; arrivals stop at 2^62 instead, in order, and
 * every kernel still runs.
 */
TEST_F_TIMEOUT(vt, clock_ends_instead_of_wrapping, 900)
{
	struct vgpu_kernel_query q;
	__u64 last = 0;
	__u32 ch = 0, h = 0;
	int fd, i, bad = 0;

	ASSERT_EQ(0, new_device(" max_arrival=281474976710656"));
	fd = vgpu_test_open(DEV);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_test_channel(fd, 2, 0, &ch));
	for (i = 0; i < 16400; i++) {
		ASSERT_EQ(0, vgpu_test_submit_at(fd, ch, 1ULL << 48, &h));
		ASSERT_EQ(0, vgpu_test_wait(fd, &h, 1, 0, VGPU_WAIT_FOREVER,
					    NULL));
		ASSERT_EQ(0, vgpu_test_query(fd, h, VGPU_QUERY_RELEASE, &q));
		if (q.state != VGPU_KSTATE_DONE || q.t_submit < last ||
		    q.t_submit > CLOCK_END || q.t_dispatch < q.t_submit ||
		    q.t_complete < q.t_dispatch)
			bad++;
		last = q.t_submit;
	}
	EXPECT_EQ(0, bad);
	EXPECT_EQ(CLOCK_END, last);
	EXPECT_LE(CLOCK_END, vgpu_test_info(fd).cycle);
	close(fd);
	del_device();
}

TEST_HARNESS_MAIN
