// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_queue_test.c - queue kernels (F14), head insertion (F16) and
 * the state sync cost (F17) through the uapi: QUEUE_PUSH and its arrival
 * cycle, coalescing into full and partial blocks seen through QUERY,
 * close, cancel, ENOSPC, every errno of the new descriptor fields and of
 * QUEUE_PUSH with otherwise-valid input, a HEAD kernel overtaking kernels
 * of its priority, the sync cost in QUERY's timestamps and debugfs, and the
 * handshakes' latencies (assign_latency, dealloc_latency).
 *
 * Each test uses its own device instance 13 (preset "small", 64-cycle
 * epochs); the cycle counts are those vgpu-sim gives for the same
 * scenario (a one-warp block of LOOP n / ALU is resident 5n + 1 cycles).
 */
#include <stdlib.h>

#include "vgpu_test_util.h"
#include "kselftest_harness.h"

#define DEV	13
#define DBG	"/sys/kernel/debug/vgpu/vgpu13/"

#define I(o)		{ .op = VGPU_OP_##o }
#define LOOPI(base, step, mod) \
	{ .op = VGPU_OP_LOOP, .a = VGPU_LOOP_SEL_ITEMS, .b = (mod), \
	  .imm = VGPU_LOOP_IMM(base, step) }
#define LOOP(n)		{ .op = VGPU_OP_LOOP, .imm = VGPU_LOOP_IMM(n, 0) }

/* LOOP 10*items: a block of n items is resident 50n + 1 cycles */
static const struct vgpu_insn p_items[] = {
	LOOPI(0, 10, 255), I(ALU), I(ENDLOOP), I(EXIT),
};

/* LOOP 100: 501 cycles */
static const struct vgpu_insn p_501[] = {
	LOOP(100), I(ALU), I(ENDLOOP), I(EXIT),
};

static char vgpu_buf[1 << 16];

static int slurp(const char *path)
{
	return vgpu_test_slurp(path, vgpu_buf, sizeof(vgpu_buf));
}

/* Value of a "key value" line of vgpu_buf, or -1. */
static long long keyval(const char *key)
{
	return vgpu_test_keyval(vgpu_buf, key);
}

#define QDESC VGPU_QDESC

/* QUEUE_PUSH; 0 and *cycle, or the errno. */
static int push(int fd, __u32 h, __u32 items, __u32 flags, __u64 arrival,
		__u64 *cycle)
{
	struct vgpu_queue_push p;

	memset(&p, 0, sizeof(p));
	p.handle = h;
	p.items = items;
	p.flags = flags;
	p.arrival = arrival;
	if (ioctl(fd, VGPU_IOCTL_QUEUE_PUSH, &p))
		return errno;
	if (cycle)
		*cycle = p.cycle;
	return 0;
}

static int push_raw(int fd, struct vgpu_queue_push *p)
{
	return ioctl(fd, VGPU_IOCTL_QUEUE_PUSH, p) ? errno : 0;
}

static int new_device(const char *opts)
{
	return vgpu_test_new_device(DEV, opts);
}

FIXTURE(q) {
	int fd;
	__u32 ch;
};

FIXTURE_SETUP(q)
{
	ASSERT_EQ(0, new_device(""));
	self->fd = vgpu_test_open(DEV);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, vgpu_test_channel(self->fd, 2, 0, &self->ch));
}

FIXTURE_TEARDOWN(q)
{
	char line[8];

	close(self->fd);
	snprintf(line, sizeof(line), "%d", DEV);
	vgpu_test_sysfs("/sys/bus/vgpu/del_device", line);
}

TEST_F(q, capabilities)
{
	struct vgpu_info info = vgpu_test_info(self->fd);

	EXPECT_EQ(VGPU_CAP_QUEUE, info.caps & VGPU_CAP_QUEUE);
	EXPECT_EQ(VGPU_CAP_HEAD, info.caps & VGPU_CAP_HEAD);
}

/*
 * F14: 10 items, 4 per block, timeout 200, closed at 300: two full blocks
 * at the first boundary (LOOP 40: 201 cycles), the 2 left over at 256
 * (LOOP 20: 101 cycles): done at 357.  QUEUE_PUSH reports the arrival.
 */
TEST_F(q, full_blocks_then_partial_after_timeout)
{
	struct vgpu_kernel_query kq;
	struct vgpu_submit_desc d;
	__u64 t0 = 0, c = 0;

	QDESC(&d, self->ch, p_items, 4, 64, 200);
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, &t0));
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	ASSERT_EQ(0, push(self->fd, d.handle, 10, 0, 0, &c));
	EXPECT_EQ(t0, c);
	ASSERT_EQ(0, push(self->fd, d.handle, 0, VGPU_QUEUE_CLOSE, 300, &c));
	EXPECT_EQ(t0 + 300, c);
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &d.handle, 1, 0,
				    VGPU_WAIT_FOREVER, NULL));
	ASSERT_EQ(0, vgpu_test_query(self->fd, d.handle, 0, &kq));
	EXPECT_EQ(VGPU_KSTATE_DONE, kq.state);
	EXPECT_EQ(t0, kq.t_submit);
	EXPECT_EQ(t0, kq.t_dispatch);
	EXPECT_EQ(t0, kq.t_start);
	EXPECT_EQ(357, kq.t_complete - t0);
	EXPECT_EQ(3, kq.blocks_done);
	ASSERT_LT(0, slurp(DBG "stats"));
	EXPECT_EQ(10, keyval("queue_items"));
	EXPECT_EQ(3, keyval("queue_blocks"));
	EXPECT_EQ(1, keyval("queue_partial"));
	EXPECT_EQ(1, keyval("completed"));
}

/*
 * F14: a close drains at once (3 items, timeout far away, close at 100:
 * the block of 3 launches at 128 and ends at 128 + 151); a queue closed
 * without items completes at its close without starting.
 */
TEST_F(q, close_drains_and_empty_close)
{
	struct vgpu_submit_desc d[2];
	struct vgpu_kernel_query kq;
	__u64 t0 = 0;

	QDESC(&d[0], self->ch, p_items, 4, 64, 100000);
	QDESC(&d[1], self->ch, p_items, 1, 1, 5);
	d[1].channel = self->ch;
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, &t0));
	ASSERT_EQ(0, vgpu_test_submit(self->fd, d, 2));
	ASSERT_EQ(0, push(self->fd, d[0].handle, 3, 0, 0, NULL));
	ASSERT_EQ(0, push(self->fd, d[0].handle, 0, VGPU_QUEUE_CLOSE, 100,
			  NULL));
	ASSERT_EQ(0, push(self->fd, d[1].handle, 0, VGPU_QUEUE_CLOSE, 500,
			  NULL));
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, (__u32[]){ d[0].handle,
					d[1].handle }, 2, VGPU_WAIT_ALL,
				    VGPU_WAIT_FOREVER, NULL));
	ASSERT_EQ(0, vgpu_test_query(self->fd, d[0].handle, 0, &kq));
	EXPECT_EQ(VGPU_KSTATE_DONE, kq.state);
	EXPECT_EQ(128, kq.t_dispatch - t0);
	EXPECT_EQ(128 + 151, kq.t_complete - t0);
	EXPECT_EQ(1, kq.blocks_done);
	/* the second kernel of the channel waited for the first to drain */
	ASSERT_EQ(0, vgpu_test_query(self->fd, d[1].handle, 0, &kq));
	EXPECT_EQ(VGPU_KSTATE_DONE, kq.state);
	EXPECT_EQ(VGPU_NO_CYCLE, kq.t_dispatch);
	EXPECT_EQ(VGPU_NO_CYCLE, kq.t_start);
	EXPECT_EQ(500, kq.t_complete - t0);
	EXPECT_EQ(0, kq.blocks_done);
	ASSERT_LT(0, slurp(DBG "stats"));
	EXPECT_EQ(1, keyval("queue_partial"));
	EXPECT_EQ(2, keyval("completed"));
}

/*
 * F14: an open queue with nothing waiting leaves the device idle (the
 * clock stops until the next push); CANCEL discards the items waiting and
 * the pushes on their way.
 */
TEST_F(q, idle_open_queue_and_cancel)
{
	struct vgpu_kernel_query kq;
	struct vgpu_submit_desc d;
	struct vgpu_info info;
	__u64 c1;
	int i;

	QDESC(&d, self->ch, p_items, 4, 64, 100);
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	ASSERT_EQ(0, push(self->fd, d.handle, 4, 0, 0, NULL));
	for (i = 0; i < 20000; i++) {
		ASSERT_EQ(0, vgpu_test_query(self->fd, d.handle, 0, &kq));
		if (kq.blocks_done == 1)
			break;
		usleep(100);
	}
	ASSERT_EQ(1, kq.blocks_done);
	EXPECT_EQ(VGPU_KSTATE_RUNNING, kq.state);
	ASSERT_LT(0, slurp(DBG "kernels"));
	EXPECT_NE(NULL, strstr(vgpu_buf, " 0/0/0/open\n"));
	/* nothing can happen: no epoch runs, the clock stands still */
	ASSERT_LT(0, slurp(DBG "stats"));
	c1 = keyval("epochs");
	info = vgpu_test_info(self->fd);
	usleep(50000);
	ASSERT_LT(0, slurp(DBG "stats"));
	EXPECT_EQ(c1, keyval("epochs"));
	EXPECT_EQ(info.cycle, vgpu_test_info(self->fd).cycle);

	/* 3 items wait for their timeout, 5 more are on their way */
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	ASSERT_EQ(0, push(self->fd, d.handle, 3, 0, 0, NULL));
	ASSERT_EQ(0, push(self->fd, d.handle, 5, 0, 1ULL << 32, NULL));
	ASSERT_EQ(0, vgpu_test_cancel(self->fd, d.handle));
	ASSERT_EQ(0, vgpu_test_query(self->fd, d.handle, 0, &kq));
	EXPECT_EQ(VGPU_KSTATE_CANCELLED, kq.state);
	EXPECT_EQ(-ECANCELED, kq.error);
	EXPECT_EQ(1, kq.blocks_done);
	EXPECT_EQ(EINVAL, push(self->fd, d.handle, 1, 0, 0, NULL));
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
	ASSERT_LT(0, slurp(DBG "stats"));
	EXPECT_EQ(4, keyval("queue_items"));
	EXPECT_EQ(1, keyval("queue_blocks"));
	EXPECT_EQ(1, keyval("cancelled"));
	ASSERT_LT(0, slurp(DBG "kernels"));
	EXPECT_EQ(0, strncmp(vgpu_buf, "# 0 kernels", 11));
}

/* F14: queue_cap bounds the items waiting, pushes on their way included. */
TEST_F(q, enospc)
{
	struct vgpu_submit_desc d;

	QDESC(&d, self->ch, p_items, 4, 8, 100000);
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	EXPECT_EQ(0, push(self->fd, d.handle, 5, 0, 0, NULL));
	EXPECT_EQ(ENOSPC, push(self->fd, d.handle, 4, 0, 0, NULL));
	EXPECT_EQ(0, push(self->fd, d.handle, 3, 0, 1000, NULL));
	EXPECT_EQ(ENOSPC, push(self->fd, d.handle, 1, 0, 0, NULL));
	/* the close itself always fits */
	EXPECT_EQ(0, push(self->fd, d.handle, 0, VGPU_QUEUE_CLOSE, 0, NULL));
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &d.handle, 1, 0,
				    VGPU_WAIT_FOREVER, NULL));
}

/* PUSH 4: warp 0 of each block writes 4 items to its push target (F14) */
static const struct vgpu_insn p_push4[] = {
	{ .op = VGPU_OP_PUSH, .imm = 4 }, I(EXIT),
};

/* Submit the pusher of p_push4 on @ch feeding @to; its handle or ~0. */
static __u32 submit_pusher(int fd, __u32 ch, __u32 to, __u32 grid)
{
	struct vgpu_submit_desc d;

	VGPU_DESC(&d, ch, p_push4);
	d.threads = 32;
	d.grid = grid;
	d.push_to = to;
	return vgpu_test_submit(fd, &d, 1) ? ~0U : d.handle;
}

/*
 * F14 through the uapi (SUBMIT VER4, seed 002: a task continues through a
 * queue task): a queue kernel of 4 items per block with 2 push records;
 * a kernel of 2 blocks on another channel, each block's warp 0 pushing 4
 * items to it, then the queue closed at 2,000.  The 8 items make 2 full
 * blocks, no partial one; both kernels finish without error.
 */
TEST_F(q, dev_push_feeds_queue)
{
	struct vgpu_kernel_query kq;
	struct vgpu_submit_desc d;
	struct vgpu_info info = vgpu_test_info(self->fd);
	__u32 ch2 = 0, p;

	EXPECT_EQ(VGPU_CAP_DEV_PUSH, info.caps & VGPU_CAP_DEV_PUSH);
	ASSERT_EQ(0, vgpu_test_channel(self->fd, 2, 0, &ch2));
	QDESC(&d, self->ch, p_items, 4, 64, 100000);
	d.push_records = 2;
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	ASSERT_NE(~0U, p = submit_pusher(self->fd, ch2, d.handle, 2));
	ASSERT_EQ(0, push(self->fd, d.handle, 0, VGPU_QUEUE_CLOSE, 2000, NULL));
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &d.handle, 1, 0,
				    VGPU_WAIT_FOREVER, NULL));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &p, 1, 0, VGPU_WAIT_FOREVER,
				    NULL));
	ASSERT_EQ(0, vgpu_test_query(self->fd, p, 0, &kq));
	EXPECT_EQ(VGPU_KSTATE_DONE, kq.state);
	EXPECT_EQ(0, kq.error);
	ASSERT_EQ(0, vgpu_test_query(self->fd, d.handle, 0, &kq));
	EXPECT_EQ(VGPU_KSTATE_DONE, kq.state);
	EXPECT_EQ(2, kq.blocks_done);
	ASSERT_LT(0, slurp(DBG "stats"));
	EXPECT_EQ(8, keyval("queue_items"));
	EXPECT_EQ(2, keyval("queue_blocks"));
	EXPECT_EQ(0, keyval("queue_partial"));
}

/*
 * Every errno of push_to and push_records (SUBMIT VER4, F14): a PUSH
 * program without a target, a target that is not a queue kernel, a handle
 * of no kernel (-ENOENT), a target given to a program without PUSH,
 * records on an ordinary kernel or above queue_cap, a closed target; and
 * at run time, a target without records (-ENOSPC) and one closed before
 * the PUSH ran (-EPIPE) fail the pusher, QUERY says why.
 */
TEST_F(q, dev_push_errnos)
{
	struct vgpu_kernel_query kq;
	struct vgpu_submit_desc d, q0, q1;
	__u32 ch2 = 0, ch3 = 0, p, h;

	/* a queue kernel waiting for items holds its channel's head (F11) */
	ASSERT_EQ(0, vgpu_test_channel(self->fd, 2, 0, &ch2));
	ASSERT_EQ(0, vgpu_test_channel(self->fd, 2, 0, &ch3));
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	QDESC(&q0, self->ch, p_items, 4, 64, 100000);	/* no records */
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &q0, 1));
	ASSERT_EQ(0, vgpu_test_submit_at(self->fd, ch2, 0, &h));

	EXPECT_EQ(~0U, submit_pusher(self->fd, ch2, 0, 1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(~0U, submit_pusher(self->fd, ch2, h, 1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(~0U, submit_pusher(self->fd, ch2, 0x7fff0000, 1));
	EXPECT_EQ(ENOENT, errno);
	VGPU_DESC(&d, ch2, vgpu_prog_alu);
	d.push_to = q0.handle;
	EXPECT_EQ(EINVAL, vgpu_test_submit(self->fd, &d, 1) ? errno : 0);
	VGPU_DESC(&d, ch2, vgpu_prog_alu);
	d.push_records = 1;
	EXPECT_EQ(EINVAL, vgpu_test_submit(self->fd, &d, 1) ? errno : 0);
	QDESC(&d, ch2, p_items, 4, 8, 100000);
	d.push_records = 9;
	EXPECT_EQ(EINVAL, vgpu_test_submit(self->fd, &d, 1) ? errno : 0);

	/* -EPIPE: q1 is closed at once, before the pusher's PUSH runs */
	QDESC(&q1, ch3, p_items, 4, 64, 100000);
	q1.push_records = 4;
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &q1, 1));
	ASSERT_NE(~0U, p = submit_pusher(self->fd, ch2, q1.handle, 1));
	ASSERT_EQ(0, push(self->fd, q1.handle, 0, VGPU_QUEUE_CLOSE, 0, NULL));
	/* closed: no more pushers */
	EXPECT_EQ(~0U, submit_pusher(self->fd, ch2, q1.handle, 1));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &p, 1, 0, VGPU_WAIT_FOREVER,
				    NULL));
	ASSERT_EQ(0, vgpu_test_query(self->fd, p, 0, &kq));
	EXPECT_EQ(EPIPE, -kq.error);

	/* -ENOSPC: q0 has no record for a PUSH */
	ASSERT_NE(~0U, p = submit_pusher(self->fd, ch2, q0.handle, 1));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &p, 1, 0, VGPU_WAIT_FOREVER,
				    NULL));
	ASSERT_EQ(0, vgpu_test_query(self->fd, p, 0, &kq));
	EXPECT_EQ(ENOSPC, -kq.error);
	ASSERT_EQ(0, push(self->fd, q0.handle, 0, VGPU_QUEUE_CLOSE, 0, NULL));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &q0.handle, 1, 0,
				    VGPU_WAIT_FOREVER, NULL));
}

/* The arrival of a push never comes before the kernel's previous one. */
TEST_F(q, arrival_in_push_order)
{
	struct vgpu_submit_desc d;
	__u64 t0 = 0, c = 0;

	QDESC(&d, self->ch, p_items, 4, 64, 100);
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, &t0));
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	ASSERT_EQ(0, push(self->fd, d.handle, 1, 0, 700, &c));
	EXPECT_EQ(t0 + 700, c);
	ASSERT_EQ(0, push(self->fd, d.handle, 1, 0, 10, &c));
	EXPECT_EQ(t0 + 700, c);
	ASSERT_EQ(0, push(self->fd, d.handle, 1, VGPU_QUEUE_CLOSE, 900, &c));
	EXPECT_EQ(t0 + 900, c);
	ASSERT_EQ(0, vgpu_test_cancel(self->fd, d.handle));
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
}

/* Every errno of QUEUE_PUSH, each with otherwise-valid input. */
TEST_F(q, push_errnos)
{
	struct vgpu_submit_desc d, g;
	struct vgpu_queue_push p;
	unsigned char big[40];
	int other;
	__u32 och;

	QDESC(&d, self->ch, p_items, 4, 8, 100000);
	VGPU_DESC(&g, self->ch, p_items);
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &g, 1));

	memset(&p, 0, sizeof(p));
	p.handle = d.handle;
	p.items = 1;
	EXPECT_EQ(0, push_raw(self->fd, &p));
	p.cycle = 0;
	p.flags = 2;
	EXPECT_EQ(EINVAL, push_raw(self->fd, &p));		/* flags */
	p.flags = 0;
	p.pad = 1;
	EXPECT_EQ(EINVAL, push_raw(self->fd, &p));		/* pad */
	p.pad = 0;
	p.cycle = 5;
	EXPECT_EQ(EINVAL, push_raw(self->fd, &p));		/* output */
	p.cycle = 0;
	p.arrival = VGPU_MAX_QUEUE_DELAY + 1;
	EXPECT_EQ(EINVAL, push_raw(self->fd, &p));		/* arrival */
	/* the device's max_arrival, 2^32 by default */
	p.arrival = (1ULL << 32) + 1;
	EXPECT_EQ(EINVAL, push_raw(self->fd, &p));
	p.arrival = 1ULL << 32;
	EXPECT_EQ(0, push_raw(self->fd, &p));
	p.arrival = 0;
	p.cycle = 0;
	p.items = 0;
	EXPECT_EQ(EINVAL, push_raw(self->fd, &p));		/* no items */
	p.items = 9;
	EXPECT_EQ(EINVAL, push_raw(self->fd, &p));		/* > cap */
	p.items = 1;
	p.handle = g.handle;
	EXPECT_EQ(EINVAL, push_raw(self->fd, &p));		/* grid */
	p.handle = 0x7fffffff;
	EXPECT_EQ(ENOENT, push_raw(self->fd, &p));		/* no such */
	/* another file's kernel */
	other = vgpu_test_open(DEV);
	ASSERT_LE(0, other);
	ASSERT_EQ(0, vgpu_test_channel(other, 2, 0, &och));
	p.handle = d.handle;
	EXPECT_EQ(ENOENT, push_raw(other, &p));
	close(other);
	/* sizes: shorter than VER0, longer with a non-zero unknown byte */
	EXPECT_EQ(EINVAL, ioctl(self->fd, _IOC(_IOC_READ | _IOC_WRITE,
		  VGPU_IOCTL_BASE, 0x08, 16), &p) ? errno : 0);
	memset(big, 0, sizeof(big));
	memcpy(big, &p, sizeof(p));
	big[sizeof(big) - 1] = 1;
	EXPECT_EQ(E2BIG, ioctl(self->fd, _IOC(_IOC_READ | _IOC_WRITE,
		  VGPU_IOCTL_BASE, 0x08, sizeof(big)), big) ? errno : 0);
	big[sizeof(big) - 1] = 0;
	EXPECT_EQ(0, ioctl(self->fd, _IOC(_IOC_READ | _IOC_WRITE,
		  VGPU_IOCTL_BASE, 0x08, sizeof(big)), big) ? errno : 0);
	/* a VER0 caller: no arrival field, the items arrive at once */
	p.cycle = 0;
	EXPECT_EQ(0, ioctl(self->fd, _IOC(_IOC_READ | _IOC_WRITE,
		  VGPU_IOCTL_BASE, 0x08, VGPU_QUEUE_PUSH_SIZE_VER0), &p) ?
		  errno : 0);
	/* closed: nothing more, not even a second close */
	p.cycle = 0;
	p.flags = VGPU_QUEUE_CLOSE;
	EXPECT_EQ(0, push_raw(self->fd, &p));
	p.cycle = 0;
	EXPECT_EQ(EINVAL, push_raw(self->fd, &p));
	p.flags = 0;
	EXPECT_EQ(EINVAL, push_raw(self->fd, &p));
	ASSERT_EQ(0, vgpu_test_cancel(self->fd, d.handle));
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &g.handle, 1, 0,
				    VGPU_WAIT_FOREVER, NULL));
	/* finished kernels take no push */
	p.handle = d.handle;
	EXPECT_EQ(EINVAL, push_raw(self->fd, &p));
}

/* Every errno of the new descriptor fields, each with valid input. */
TEST_F(q, submit_errnos)
{
	struct vgpu_submit_desc d;
	struct vgpu_submit sub;

#define BAD(field, v) do {						\
	QDESC(&d, self->ch, p_items, 4, 8, 100);			\
	d.field = (v);							\
	EXPECT_EQ(EINVAL, vgpu_test_submit(self->fd, &d, 1));		\
} while (0)
	BAD(grid, 1);				/* a queue kernel has no grid */
	BAD(queue_n, 0);
	BAD(queue_n, VGPU_MAX_COALESCE + 1);
	BAD(queue_cap, 0);
	BAD(queue_cap, VGPU_MAX_QUEUE_ITEMS + 1);
	BAD(queue_timeout, 0);
	BAD(queue_timeout, (1ULL << 32) + 1);
	BAD(flags, VGPU_KERNEL_QUEUE | ((VGPU_KERNEL_FLAGS_ALL << 1) &
				       ~VGPU_KERNEL_FLAGS_ALL)); /* unknown flag */
	BAD(pad3, 1);
#undef BAD
#define BAD(field, v) do {						\
	VGPU_DESC(&d, self->ch, p_items);				\
	d.field = (v);							\
	EXPECT_EQ(EINVAL, vgpu_test_submit(self->fd, &d, 1));		\
} while (0)
	/* queue fields without VGPU_KERNEL_QUEUE, and no grid */
	BAD(queue_n, 4);
	BAD(queue_cap, 8);
	BAD(queue_timeout, 100);
	BAD(grid, 0);
#undef BAD
	/* a VER0 descriptor cannot describe a queue kernel */
	QDESC(&d, self->ch, p_items, 4, 8, 100);
	memset(&sub, 0, sizeof(sub));
	sub.count = 1;
	sub.desc_size = VGPU_SUBMIT_DESC_SIZE_VER0;
	sub.descs = (uintptr_t)&d;
	EXPECT_EQ(EINVAL, ioctl(self->fd, VGPU_IOCTL_SUBMIT, &sub) ? errno : 0);
	/* the valid ones */
	QDESC(&d, self->ch, p_items, VGPU_MAX_COALESCE, VGPU_MAX_QUEUE_ITEMS,
	      1ULL << 32);
	EXPECT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	EXPECT_EQ(0, vgpu_test_cancel(self->fd, d.handle));
	VGPU_DESC(&d, self->ch, p_items);
	d.flags = VGPU_KERNEL_HEAD;
	EXPECT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	EXPECT_EQ(0, vgpu_test_wait(self->fd, &d.handle, 1, 0,
				    VGPU_WAIT_FOREVER, NULL));
}

/*
 * F16: a, b and h (HEAD), one block each of 100 KiB on SM 0 (one at a
 * time, 501 cycles each), priority 2 on channels of their own: h runs
 * first, then a and b, in the order F21's seeded pick gives (they entered
 * the table at the same boundary): one at 512, the other at 1024.  In one
 * channel: h goes ahead of the kernels of the channel that have not
 * started, and a and b keep their order.
 */
TEST_F(q, head_overtakes_its_priority)
{
	struct vgpu_submit_desc d[3];
	struct vgpu_kernel_query kq;
	__u64 aff = 1, t0 = 0, ta, tb;
	__u32 ch[3], i, same;

	for (same = 0; same < 2; same++) {
		for (i = 0; i < 3; i++) {
			if (same)
				ch[i] = self->ch;
			else
				ASSERT_EQ(0, vgpu_test_channel(self->fd, 2, 0,
							       &ch[i]));
			VGPU_DESC(&d[i], ch[i], p_501);
			d[i].threads = 32;
			d[i].smem = 100 * 1024;
			d[i].affinity = (uintptr_t)&aff;
			d[i].affinity_bits = 64;
		}
		d[2].flags = VGPU_KERNEL_HEAD;
		ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, &t0));
		ASSERT_EQ(0, vgpu_test_submit(self->fd, d, 3));
		ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
		ASSERT_EQ(0, vgpu_test_wait(self->fd, (__u32[]){ d[0].handle,
						d[1].handle, d[2].handle }, 3,
					    VGPU_WAIT_ALL, VGPU_WAIT_FOREVER,
					    NULL));
		ASSERT_EQ(0, vgpu_test_query(self->fd, d[2].handle, 0, &kq));
		EXPECT_EQ(0, kq.t_dispatch - t0);
		ASSERT_EQ(0, vgpu_test_query(self->fd, d[0].handle, 0, &kq));
		ta = kq.t_dispatch - t0;
		ASSERT_EQ(0, vgpu_test_query(self->fd, d[1].handle, 0, &kq));
		tb = kq.t_dispatch - t0;
		if (same) {
			EXPECT_EQ(512, ta);
			EXPECT_EQ(1024, tb);
		} else {
			EXPECT_EQ(512 + 1024, ta + tb);
			EXPECT_EQ(512, ta < tb ? ta : tb);
		}
	}
}

/*
 * F23 (a) / F25 packing, new_device's pack= key: 8 one-warp
 * blocks of one kernel on the small preset's 4 SMs.  pack=auto under rr
 * (seed 002: an SM per block) puts two on each SM; pack=sm (seed 000:
 * min(undispatched, fit) on the chosen SM) puts all 8 on SM 0.  Counted
 * in debugfs stats' per-SM blocks.
 */
TEST(pack_modes)
{
	static const char *const opts[] = { " pack=auto", " pack=sm" };
	struct vgpu_submit_desc d;
	unsigned int sm, n, want;
	const char *l;
	char line[8], name[8];
	__u32 ch = 0;
	int fd, i;

	ASSERT_EQ(EINVAL, new_device(" pack=bogus"));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, new_device(opts[i]));
		ASSERT_LT(0, slurp(DBG "config"));
		EXPECT_NE(NULL, strstr(vgpu_buf, i ? "\npack sm\n" :
						       "\npack auto\n"));
		fd = vgpu_test_open(DEV);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, vgpu_test_channel(fd, 2, 0, &ch));
		VGPU_DESC(&d, ch, p_501);
		d.threads = 32;
		d.grid = 8;
		ASSERT_EQ(0, vgpu_test_submit(fd, &d, 1));
		ASSERT_EQ(0, vgpu_test_wait(fd, &d.handle, 1, VGPU_WAIT_ALL,
					    VGPU_WAIT_FOREVER, NULL));
		ASSERT_LT(0, slurp(DBG "stats"));
		for (sm = 0; sm < 4; sm++) {
			snprintf(name, sizeof(name), "\nsm%u ", sm);
			l = strstr(vgpu_buf, name);
			ASSERT_NE(NULL, l);
			ASSERT_EQ(1, sscanf(l + strlen(name), "%u", &n));
			want = i ? (sm ? 0 : 8) : 2;
			EXPECT_EQ(want, n);
		}
		close(fd);
		snprintf(line, sizeof(line), "%d", DEV);
		ASSERT_EQ(0, vgpu_test_sysfs("/sys/bus/vgpu/del_device", line));
	}
}

/*
 * F17 on a device with sync_cost=100, SM 0 only: a's block starts 100
 * cycles after its dispatch (the SM held no state), c's two sequential
 * blocks sync once (the second is the same kernel again), b syncs again:
 * three syncs on SM 0, seen in debugfs, and the starts in QUERY.
 */
TEST(sync_cost)
{
	struct vgpu_submit_desc d[3];
	struct vgpu_kernel_query kq;
	__u64 aff = 1, t0 = 0;
	__u32 ch = 0, i;
	char line[8], want[64];
	int fd;

	ASSERT_EQ(EINVAL, new_device(" sync_cost=256"));
	ASSERT_EQ(0, new_device(" sync_cost=100"));
	fd = vgpu_test_open(DEV);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_test_channel(fd, 2, 0, &ch));
	for (i = 0; i < 3; i++) {
		VGPU_DESC(&d[i], ch, p_501);
		d[i].threads = 32;
		d[i].affinity = (uintptr_t)&aff;
		d[i].affinity_bits = 64;
	}
	d[1].grid = 2;
	d[1].flags = VGPU_KERNEL_SEQUENTIAL;
	d[1].arrival = 1000;
	d[2].arrival = 3000;
	ASSERT_EQ(0, vgpu_test_gate(fd, VGPU_GATE_CLOSE, &t0));
	ASSERT_EQ(0, vgpu_test_submit(fd, d, 3));
	ASSERT_EQ(0, vgpu_test_gate(fd, VGPU_GATE_OPEN, NULL));
	ASSERT_EQ(0, vgpu_test_wait(fd, (__u32[]){ d[0].handle, d[1].handle,
				    d[2].handle }, 3, VGPU_WAIT_ALL,
				    VGPU_WAIT_FOREVER, NULL));
	ASSERT_EQ(0, vgpu_test_query(fd, d[0].handle, 0, &kq));
	EXPECT_EQ(100, kq.t_start - kq.t_dispatch);
	EXPECT_EQ(601, kq.t_complete - t0);
	ASSERT_EQ(0, vgpu_test_query(fd, d[1].handle, 0, &kq));
	EXPECT_EQ(1024, kq.t_dispatch - t0);
	EXPECT_EQ(1124, kq.t_start - t0);
	/* the second block starts at its dispatch (1664): no sync */
	EXPECT_EQ(1664 + 501, kq.t_complete - t0);
	ASSERT_EQ(0, vgpu_test_query(fd, d[2].handle, 0, &kq));
	EXPECT_EQ(3108, kq.t_start - t0);
	ASSERT_LT(0, slurp(DBG "stats"));
	EXPECT_EQ(3, keyval("syncs"));
	ASSERT_LT(0, slurp(DBG "config"));
	EXPECT_EQ(100, keyval("sync_cost"));
	/* the SM view: SM 0 holds b's state since 3008 + 100 */
	ASSERT_LT(0, slurp(DBG "sm"));
	/* acknowledged long since: READY (F17) */
	snprintf(want, sizeof(want), " %u ready %llu 3 |", 2U,
		 (unsigned long long)(t0 + 3108));
	EXPECT_NE(NULL, strstr(vgpu_buf, want));
	close(fd);
	snprintf(line, sizeof(line), "%d", DEV);
	vgpu_test_sysfs("/sys/bus/vgpu/del_device", line);
}

/* Line of vgpu_buf from @from on that contains @s, or NULL. */
static const char *find_line(const char *from, const char *s)
{
	const char *p = strstr(from, s), *b;

	if (!p)
		return NULL;
	for (b = p; b > vgpu_buf && b[-1] != '\n'; b--)
		;
	return b;
}

/* "key=" value on the line at @line, or -1. */
static long long line_val(const char *line, const char *key)
{
	const char *e = strchr(line, '\n'), *p = strstr(line, key);

	if (!p || (e && p > e))
		return -1;
	return strtoll(p + strlen(key), NULL, 0);
}

#define TR	"/sys/kernel/tracing/"

/*
 * The F14 and F17 tracepoints: the scenario of
 * full_blocks_then_partial_after_timeout on a device with sync_cost=100.
 * vgpu_queue_push for the 10 items (arg 0) at t0 and for the close (arg 1)
 * at t0 + 300; vgpu_queue_block for two full blocks (arg 0) at t0 and the
 * partial one of 2 items after the timeout (arg 1) at t0 + 256;
 * vgpu_state_sync for block 0 on an SM that held no kernel, ready 100
 * cycles later.
 */
TEST(tracepoints)
{
	struct vgpu_submit_desc d;
	const char *l;
	char want[96];
	__u64 t0 = 0;
	__u32 ch = 0;
	int fd;

	if (access(TR "events/vgpu/enable", W_OK))
		SKIP(return, "no tracefs");
	ASSERT_EQ(0, new_device(" sync_cost=100"));
	snprintf(want, sizeof(want), "dev == %d", DEV);
	ASSERT_EQ(0, vgpu_test_sysfs(TR "events/vgpu/filter", want));
	fd = open(TR "trace", O_WRONLY | O_TRUNC);	/* empties the buffer */
	ASSERT_LE(0, fd);
	close(fd);
	fd = vgpu_test_open(DEV);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_test_channel(fd, 2, 0, &ch));
	ASSERT_EQ(0, vgpu_test_sysfs(TR "events/vgpu/vgpu_queue_push/enable", "1"));
	ASSERT_EQ(0, vgpu_test_sysfs(TR "events/vgpu/vgpu_queue_block/enable", "1"));
	ASSERT_EQ(0, vgpu_test_sysfs(TR "events/vgpu/vgpu_state_sync/enable", "1"));

	QDESC(&d, ch, p_items, 4, 64, 200);
	ASSERT_EQ(0, vgpu_test_gate(fd, VGPU_GATE_CLOSE, &t0));
	ASSERT_EQ(0, vgpu_test_submit(fd, &d, 1));
	ASSERT_EQ(0, push(fd, d.handle, 10, 0, 0, NULL));
	ASSERT_EQ(0, push(fd, d.handle, 0, VGPU_QUEUE_CLOSE, 300, NULL));
	ASSERT_EQ(0, vgpu_test_gate(fd, VGPU_GATE_OPEN, NULL));
	ASSERT_EQ(0, vgpu_test_wait(fd, &d.handle, 1, 0, VGPU_WAIT_FOREVER,
				    NULL));
	vgpu_test_sysfs(TR "events/vgpu/enable", "0");
	vgpu_test_sysfs(TR "events/vgpu/filter", "0");
	close(fd);
	ASSERT_LT(0, slurp(TR "trace"));

	snprintf(want, sizeof(want), "vgpu_queue_push: dev=%d kernel=0 ", DEV);
	l = find_line(vgpu_buf, want);
	ASSERT_NE(NULL, l);
	EXPECT_EQ(10, line_val(l, " items="));
	EXPECT_EQ(0, line_val(l, " arg="));
	EXPECT_EQ(t0, line_val(l, " cycle="));
	l = find_line(strchr(l, '\n'), want);
	ASSERT_NE(NULL, l);
	EXPECT_EQ(0, line_val(l, " items="));
	EXPECT_EQ(1, line_val(l, " arg="));
	EXPECT_EQ(t0 + 300, line_val(l, " cycle="));

	snprintf(want, sizeof(want), "vgpu_queue_block: dev=%d kernel=0 block=", DEV);
	l = find_line(vgpu_buf, want);
	ASSERT_NE(NULL, l);
	EXPECT_EQ(4, line_val(l, " items="));
	EXPECT_EQ(0, line_val(l, " arg="));
	EXPECT_EQ(t0, line_val(l, " cycle="));
	l = find_line(strchr(l, '\n'), want);
	ASSERT_NE(NULL, l);
	EXPECT_EQ(4, line_val(l, " items="));
	EXPECT_EQ(0, line_val(l, " arg="));
	l = find_line(strchr(l, '\n'), want);
	ASSERT_NE(NULL, l);
	EXPECT_EQ(2, line_val(l, " block="));
	EXPECT_EQ(2, line_val(l, " items="));
	EXPECT_EQ(1, line_val(l, " arg="));
	EXPECT_EQ(t0 + 256, line_val(l, " cycle="));
	EXPECT_EQ(NULL, find_line(strchr(l, '\n'), want));

	snprintf(want, sizeof(want), "vgpu_state_sync: dev=%d ", DEV);
	l = find_line(vgpu_buf, want);
	ASSERT_NE(NULL, l);
	EXPECT_EQ(0, line_val(l, " kernel="));
	EXPECT_EQ(0, line_val(l, " block="));
	EXPECT_EQ(t0, line_val(l, " cycle="));
	EXPECT_EQ(t0 + 100, line_val(l, " ready="));
	EXPECT_LE(0, line_val(l, " sm="));
	snprintf(want, sizeof(want), "%d", DEV);
	vgpu_test_sysfs("/sys/bus/vgpu/del_device", want);
}

/*
 * Seed 002's handshakes (F13, F17): assign_latency and dealloc_latency are
 * bounded like sync_cost (EINVAL past 255).  On a device with
 * assign_latency=60 sync_cost=40 dealloc_latency=100, SM 0 only, the
 * kernel's block, dispatched at t0, assigns SM 0 (vgpu_sm_assign until
 * t0 + 60), whose state is in place at t0 + 100 (vgpu_state_sync): the
 * block starts then.  Its slot's deallocation request (made at t0, its
 * last block went out) is acknowledged at t0 + 100, and the slot is free
 * at the boundary t0 + 128 (vgpu_task_dealloc).  The sm file shows the SM
 * table's state: ready since t0 + 100, one sync; the config file both
 * latencies.
 */
TEST(handshake_latencies)
{
	struct vgpu_submit_desc d;
	struct vgpu_kernel_query kq;
	bool tr = !access(TR "events/vgpu/enable", W_OK);
	__u64 aff = 1, t0 = 0;
	__u32 ch = 0;
	char want[96];
	const char *l;
	int fd;

	ASSERT_EQ(EINVAL, new_device(" assign_latency=256"));
	ASSERT_EQ(EINVAL, new_device(" dealloc_latency=256"));
	ASSERT_EQ(0, new_device(" assign_latency=60 sync_cost=40 dealloc_latency=100"));
	if (tr) {
		snprintf(want, sizeof(want), "dev == %d", DEV);
		ASSERT_EQ(0, vgpu_test_sysfs(TR "events/vgpu/filter", want));
		fd = open(TR "trace", O_WRONLY | O_TRUNC);
		ASSERT_LE(0, fd);
		close(fd);
		ASSERT_EQ(0, vgpu_test_sysfs(TR "events/vgpu/vgpu_sm_assign/enable", "1"));
		ASSERT_EQ(0, vgpu_test_sysfs(TR "events/vgpu/vgpu_task_dealloc/enable", "1"));
		ASSERT_EQ(0, vgpu_test_sysfs(TR "events/vgpu/vgpu_state_sync/enable", "1"));
	}
	fd = vgpu_test_open(DEV);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_test_channel(fd, 2, 0, &ch));
	VGPU_DESC(&d, ch, p_501);
	d.threads = 32;
	d.affinity = (uintptr_t)&aff;
	d.affinity_bits = 64;
	ASSERT_EQ(0, vgpu_test_gate(fd, VGPU_GATE_CLOSE, &t0));
	ASSERT_EQ(0, vgpu_test_submit(fd, &d, 1));
	ASSERT_EQ(0, vgpu_test_gate(fd, VGPU_GATE_OPEN, NULL));
	ASSERT_EQ(0, vgpu_test_wait(fd, &d.handle, 1, VGPU_WAIT_ALL,
				    VGPU_WAIT_FOREVER, NULL));
	ASSERT_EQ(0, vgpu_test_query(fd, d.handle, 0, &kq));
	EXPECT_EQ(t0, kq.t_dispatch);
	EXPECT_EQ(t0 + 100, kq.t_start);
	ASSERT_LT(0, slurp(DBG "config"));
	EXPECT_EQ(60, keyval("assign_latency"));
	EXPECT_EQ(100, keyval("dealloc_latency"));
	EXPECT_EQ(40, keyval("sync_cost"));
	ASSERT_LT(0, slurp(DBG "sm"));
	snprintf(want, sizeof(want), " 0 ready %llu 1 |",
		 (unsigned long long)(t0 + 100));
	EXPECT_NE(NULL, strstr(vgpu_buf, want)) TH_LOG("%s", vgpu_buf);
	close(fd);
	if (tr) {
		vgpu_test_sysfs(TR "events/vgpu/enable", "0");
		vgpu_test_sysfs(TR "events/vgpu/filter", "0");
		ASSERT_LT(0, slurp(TR "trace"));
		snprintf(want, sizeof(want), "vgpu_sm_assign: dev=%d sm=0 ", DEV);
		l = find_line(vgpu_buf, want);
		ASSERT_NE(NULL, l);
		EXPECT_EQ(0, line_val(l, " kernel="));
		EXPECT_EQ(0, line_val(l, " block="));
		EXPECT_EQ(4294967295LL, line_val(l, " from="));
		EXPECT_EQ(t0, line_val(l, " cycle="));
		EXPECT_EQ(t0 + 60, line_val(l, " until="));
		snprintf(want, sizeof(want), "vgpu_state_sync: dev=%d sm=0 ", DEV);
		l = find_line(vgpu_buf, want);
		ASSERT_NE(NULL, l);
		EXPECT_EQ(t0 + 100, line_val(l, " ready="));
		snprintf(want, sizeof(want), "vgpu_task_dealloc: dev=%d ", DEV);
		l = find_line(vgpu_buf, want);
		ASSERT_NE(NULL, l);
		EXPECT_EQ(0, line_val(l, " kernel="));
		EXPECT_EQ(0, line_val(l, " slot="));
		EXPECT_EQ(t0, line_val(l, " requested="));
		EXPECT_EQ(t0 + 128, line_val(l, " cycle="));
	}
	snprintf(want, sizeof(want), "%d", DEV);
	vgpu_test_sysfs("/sys/bus/vgpu/del_device", want);
}

TEST_HARNESS_MAIN
