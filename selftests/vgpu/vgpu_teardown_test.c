// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_teardown_test.c - tearing down a lot of work does not stop the
 * other users of the device.
 *
 * Closing a file with 4,096 queued kernels, or cancelling a queue kernel
 * with 8,192 pushes in flight, used to do all of it under the scheduler's
 * lock.  Now the lock is dropped every VGPU_SCHED_BATCH kernels and push
 * records are freed without it.  The device counts the most kernels a
 * teardown cancelled in one hold of the lock (debugfs teardown_max): the
 * test asserts it stays at VGPU_SCHED_BATCH (16) where it was 4,096.
 * Meanwhile another file watches a level that only the teardown changes,
 * read under the same lock (GET_INFO's live_kernels, debugfs
 * push_records): a level in between shows it got the lock during the
 * teardown.  That, and the wall-clock figures, are printed, not asserted:
 * whether the other thread runs at all during a 10 ms teardown is the
 * host's to decide (two guests on two cores starve it).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/vgpu_dispatch.h>

#include "kselftest_harness.h"
#include "vgpu_test_util.h"

#define DEV		14
#define STATS		"/sys/kernel/debug/vgpu/vgpu14/stats"
#define NKERNELS	4096	/* VGPU_DEF_KERNELS_PER_FILE */
#define NPUSHES		8192	/* VGPU_DEF_QUEUED */
#define FAR		(1ULL << 31)	/* below the default max_arrival */
#define ROUNDS		5	/* the first one unobserved */

static long long push_records(void);
static long long stats_val(const char *key);

/* The other file: reads a level in a loop, counts levels in between. */
struct other {
	int fd;
	bool debugfs;		/* push_records, else live_kernels */
	long long full;		/* the level before the teardown */
	atomic_int stop;
	atomic_int started;
	int err;
	unsigned int reads;
	unsigned int between;	/* reads strictly between 0 and @full */
	__s64 worst_ns;		/* longest read */
};

static long long other_level(struct other *o)
{
	struct vgpu_info info;
	if (o->debugfs)
		return push_records();
	memset(&info, 0, sizeof(info));
	if (ioctl(o->fd, VGPU_IOCTL_GET_INFO, &info))
		return -1;
	return info.live_kernels;
}

static void *other_loop(void *arg)
{
	struct other *o = arg;
	long long v;
	__s64 t;

	atomic_store(&o->started, 1);
	while (!atomic_load(&o->stop)) {
		t = vgpu_test_now_ns();
		v = other_level(o);
		t = vgpu_test_now_ns() - t;
		if (v < 0) {
			o->err = errno ? errno : EIO;
			break;
		}
		o->reads++;
		if (t > o->worst_ns)
			o->worst_ns = t;
		if (v > 0 && v < o->full)
			o->between++;
	}
	return NULL;
}

static int other_start(struct other *o, pthread_t *thr, bool debugfs,
		       long long full)
{
	memset(o, 0, sizeof(*o));
	o->debugfs = debugfs;
	o->full = full;
	o->fd = vgpu_test_open(DEV);
	if (o->fd < 0 || pthread_create(thr, NULL, other_loop, o))
		return -1;
	while (!atomic_load(&o->started))
		sched_yield();
	return 0;
}

static void other_stop(struct other *o, pthread_t thr)
{
	atomic_store(&o->stop, 1);
	pthread_join(thr, NULL);
	close(o->fd);
}

/* A line of the device's debugfs stats, or -1. */
static long long stats_val(const char *key)
{
	char buf[8192];

	if (vgpu_test_slurp(STATS, buf, sizeof(buf)) < 0)
		return -1;
	return vgpu_test_keyval(buf, key);
}

/* debugfs push_records of the device: the push records allocated. */
static long long push_records(void)
{
	return stats_val("push_records");
}

/*
 * Until the controller handed all @n kernels to the core (debugfs live),
 * at most a few seconds: the teardown then cancels them in the core.
 */
static int wait_linked(long long n)
{
	char buf[8192];
	int i;

	for (i = 0; i < 100000; i++) {
		if (vgpu_test_slurp(STATS, buf, sizeof(buf)) < 0)
			return -1;
		if (vgpu_test_keyval(buf, "live") == n)
			return 0;
		sched_yield();
	}
	return -1;
}

static int new_device(void)
{
	return vgpu_test_new_device(DEV, "");
}

static void del_device(void)
{
	vgpu_test_sysfs("/sys/bus/vgpu/del_device", "14");
}

/*
 * A file closing with 4,096 queued kernels.  Each batch boundary is a
 * chance for the other file, not a certainty (the mutex is not fair): a
 * few rounds make missing them all unlikely, while a teardown under one
 * hold misses them all in every round.
 */
TEST(close_many_kernels)
{
	struct vgpu_submit_desc d[VGPU_MAX_SUBMIT];
	static struct other o;
	unsigned int between = 0;
	__s64 t0, t1;
	pthread_t thr;
	__u32 ch[8] = { 0 };
	int fd, gate, i, j, round;

	ASSERT_EQ(0, new_device());
	/* the clock stays still: nothing runs, nothing arrives */
	gate = vgpu_test_open(DEV);
	ASSERT_LE(0, gate);
	ASSERT_EQ(0, vgpu_test_gate(gate, VGPU_GATE_CLOSE, NULL));
	for (round = 0; round < ROUNDS; round++) {
		fd = vgpu_test_open(DEV);
		ASSERT_LE(0, fd);
		for (i = 0; i < 8; i++)
			ASSERT_EQ(0, vgpu_test_channel(fd, 2, 0, &ch[i]));
		/* 4,096 kernels arriving late: queued until the file goes */
		for (i = 0; i < NKERNELS / VGPU_MAX_SUBMIT; i++) {
			for (j = 0; j < VGPU_MAX_SUBMIT; j++) {
				VGPU_DESC(&d[j], ch[j % 8], vgpu_prog_alu);
				d[j].arrival = FAR;
			}
			ASSERT_EQ(0, vgpu_test_submit(fd, d,
						      VGPU_MAX_SUBMIT));
		}
		ASSERT_EQ(NKERNELS, vgpu_test_info(fd).live_kernels);
		ASSERT_EQ(0, wait_linked(NKERNELS));

		/* round 0 alone: what the close costs its caller */
		if (!round) {
			t0 = vgpu_test_now_ns();
			close(fd);
			t1 = vgpu_test_now_ns();
			TH_LOG("close alone: %lld us",
			       (long long)(t1 - t0) / 1000);
			continue;
		}
		ASSERT_EQ(0, other_start(&o, &thr, false, NKERNELS));
		t0 = vgpu_test_now_ns();
		close(fd);
		t1 = vgpu_test_now_ns();
		other_stop(&o, thr);
		ASSERT_EQ(0, o.err);
		TH_LOG("close: %lld us; other file: %u reads, %u in between, longest %lld us",
		       (long long)(t1 - t0) / 1000, o.reads, o.between,
		       (long long)o.worst_ns / 1000);
		between += o.between;
		EXPECT_EQ(0, vgpu_test_info(gate).live_kernels);
		/* never more than a batch under one hold of the lock */
		EXPECT_LT(0, stats_val("teardown_max"));
		EXPECT_GE(16, stats_val("teardown_max"));
	}
	TH_LOG("levels in between seen by the other file: %u", between);
	close(gate);
	del_device();
}

TEST(cancel_many_pushes)
{
	struct vgpu_submit_desc d;
	struct vgpu_queue_push p;
	struct vgpu_kernel_query q;
	static struct other o;
	__s64 t0, t1;
	pthread_t thr;
	__u32 ch = 0;
	int fd, i;

	ASSERT_EQ(0, new_device());
	fd = vgpu_test_open(DEV);
	ASSERT_LE(0, fd);
	/* the clock stays still: no push arrives */
	ASSERT_EQ(0, vgpu_test_gate(fd, VGPU_GATE_CLOSE, NULL));
	ASSERT_EQ(0, vgpu_test_channel(fd, 2, 0, &ch));
	VGPU_QDESC(&d, ch, vgpu_prog_alu, 1, NPUSHES + 1, 100);
	ASSERT_EQ(0, vgpu_test_submit(fd, &d, 1));
	/* 8,192 pushes of one item each, none arrived */
	for (i = 0; i < NPUSHES; i++) {
		memset(&p, 0, sizeof(p));
		p.handle = d.handle;
		p.items = 1;
		p.arrival = FAR + i;
		ASSERT_EQ(0, vgpu_test_errno(ioctl(fd, VGPU_IOCTL_QUEUE_PUSH,
						   &p)));
	}
	/* the device's push limit is reached: nothing is lost on the way */
	memset(&p, 0, sizeof(p));
	p.handle = d.handle;
	p.items = 1;
	p.arrival = FAR;
	EXPECT_EQ(EAGAIN, vgpu_test_errno(ioctl(fd, VGPU_IOCTL_QUEUE_PUSH,
						&p)));

	EXPECT_EQ(NPUSHES, push_records());

	ASSERT_EQ(0, other_start(&o, &thr, true, NPUSHES));
	t0 = vgpu_test_now_ns();
	EXPECT_EQ(0, vgpu_test_cancel(fd, d.handle));
	t1 = vgpu_test_now_ns();
	other_stop(&o, thr);
	ASSERT_EQ(0, o.err);
	TH_LOG("cancel: %lld us; other file: %u reads, %u in between, longest %lld us",
	       (long long)(t1 - t0) / 1000, o.reads, o.between,
	       (long long)o.worst_ns / 1000);

	ASSERT_EQ(0, vgpu_test_query(fd, d.handle, 0, &q));
	EXPECT_EQ(VGPU_KSTATE_CANCELLED, q.state);
	EXPECT_EQ(ECANCELED, -q.error);
	EXPECT_EQ(0, push_records());
	/* every push record was freed: the device's whole budget is back */
	VGPU_QDESC(&d, ch, vgpu_prog_alu, 1, NPUSHES, 100);
	ASSERT_EQ(0, vgpu_test_submit(fd, &d, 1));
	for (i = 0; i < NPUSHES; i++) {
		memset(&p, 0, sizeof(p));
		p.handle = d.handle;
		p.items = 1;
		p.arrival = FAR;
		ASSERT_EQ(0, vgpu_test_errno(ioctl(fd, VGPU_IOCTL_QUEUE_PUSH,
						   &p)));
	}
	close(fd);
	del_device();
}

TEST_HARNESS_MAIN
