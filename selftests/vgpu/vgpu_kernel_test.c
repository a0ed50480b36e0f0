// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_kernel_test.c - SUBMIT, WAIT, QUERY, CANCEL, GATE and poll()
 * (F10-F11, F20, F23, F52, F53, F60): success paths, every errno with
 * otherwise-valid input, and the mechanisms' scenarios through the real
 * uapi.
 *
 * The module is loaded with one device of preset "small" (4 SMs, 4
 * priorities, default priority 2).
 */
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "vgpu_test_util.h"
#include "kselftest_harness.h"

FIXTURE(k) {
	int fd;
	__u32 ch;	/* priority 2 */
};

FIXTURE_SETUP(k)
{
	struct vgpu_info info;

	self->fd = vgpu_test_open(0);
	ASSERT_LE(0, self->fd);
	info = vgpu_test_info(self->fd);
	ASSERT_EQ(VGPU_CAP_KERNELS, info.caps & VGPU_CAP_KERNELS);
	ASSERT_EQ(0, vgpu_test_channel(self->fd, 2, 0, &self->ch));
}

FIXTURE_TEARDOWN(k)
{
	close(self->fd);
}

/* Submit one kernel of @p on @ch; returns its handle (0 on failure). */
static __u32 submit1(int fd, __u32 ch, const struct vgpu_insn *p, __u32 n,
		     __u32 grid)
{
	struct vgpu_submit_desc d;

	memset(&d, 0, sizeof(d));
	d.channel = ch;
	d.grid = grid;
	d.threads = 128;
	d.regs = 32;
	d.program = (uintptr_t)p;
	d.num_insns = n;
	return vgpu_test_submit(fd, &d, 1) ? 0 : d.handle;
}

#define SUBMIT(fd, ch, prog, grid) \
	submit1(fd, ch, prog, sizeof(prog) / sizeof((prog)[0]), grid)

TEST_F(k, submit_wait_query_release)
{
	struct vgpu_kernel_query q;
	struct vgpu_submit_desc d;
	__u32 first = 99;

	VGPU_DESC(&d, self->ch, vgpu_prog_alu);
	d.grid = 8;
	d.user_data = 0x1234567890abcdefULL;
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	ASSERT_NE(0, d.handle);
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &d.handle, 1, 0,
				    VGPU_WAIT_FOREVER, &first));
	EXPECT_EQ(0, first);
	ASSERT_EQ(0, vgpu_test_query(self->fd, d.handle, 0, &q));
	EXPECT_EQ(VGPU_KSTATE_DONE, q.state);
	EXPECT_EQ(0, q.error);
	EXPECT_EQ(8, q.blocks_done);
	EXPECT_EQ(0x1234567890abcdefULL, q.user_data);
	EXPECT_NE(VGPU_NO_CYCLE, q.t_dispatch);
	EXPECT_NE(VGPU_NO_CYCLE, q.t_complete);
	EXPECT_LE(q.t_submit, q.t_dispatch);
	/* 100 ALU instructions at least take 100 cycles */
	EXPECT_LE(q.t_dispatch + 100, q.t_complete);
	/* release, then the handle is gone */
	ASSERT_EQ(0, vgpu_test_query(self->fd, d.handle, VGPU_QUERY_RELEASE, &q));
	EXPECT_EQ(ENOENT, vgpu_test_query(self->fd, d.handle, 0, &q));
}

/* A released kernel's handle never names the next kernel. */
TEST_F(k, stale_handle_not_reused)
{
	struct vgpu_kernel_query q;
	__u32 first, h;
	int i;

	first = SUBMIT(self->fd, self->ch, vgpu_prog_alu, 1);
	ASSERT_NE(0, first);
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &first, 1, 0, VGPU_WAIT_FOREVER,
				    NULL));
	ASSERT_EQ(0, vgpu_test_query(self->fd, first, VGPU_QUERY_RELEASE, &q));
	for (i = 0; i < 20; i++) {
		h = SUBMIT(self->fd, self->ch, vgpu_prog_alu, 1);
		ASSERT_NE(0, h);
		EXPECT_NE(first, h);
		EXPECT_EQ(ENOENT, vgpu_test_query(self->fd, first, 0, &q));
		ASSERT_EQ(0, vgpu_test_wait(self->fd, &h, 1, 0,
					    VGPU_WAIT_FOREVER, NULL));
		ASSERT_EQ(0, vgpu_test_query(self->fd, h, VGPU_QUERY_RELEASE,
					     &q));
	}
}

TEST_F(k, batch)
{
	struct vgpu_submit_desc d[3];
	__u32 h[3];
	int i;

	for (i = 0; i < 3; i++)
		VGPU_DESC(&d[i], self->ch, vgpu_prog_alu);
	ASSERT_EQ(0, vgpu_test_submit(self->fd, d, 3));
	for (i = 0; i < 3; i++)
		h[i] = d[i].handle;
	EXPECT_NE(h[0], h[1]);
	EXPECT_NE(h[1], h[2]);
	EXPECT_NE(0, h[0]);
	ASSERT_EQ(0, vgpu_test_wait(self->fd, h, 3, VGPU_WAIT_ALL,
				    VGPU_WAIT_FOREVER, NULL));
}

/* All or nothing: one bad descriptor and nothing is submitted. */
TEST_F(k, batch_all_or_nothing)
{
	struct vgpu_submit_desc d[3];
	struct vgpu_info before, after;
	int i;

	for (i = 0; i < 3; i++)
		VGPU_DESC(&d[i], self->ch, vgpu_prog_spin);
	d[2].channel = 0xdead;
	before = vgpu_test_info(self->fd);
	EXPECT_EQ(ENOENT, vgpu_test_submit(self->fd, d, 3));
	after = vgpu_test_info(self->fd);
	EXPECT_EQ(before.live_kernels, after.live_kernels);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(0, d[i].handle);
}

TEST_F(k, submit_invalid_args)
{
	struct vgpu_submit_desc d;
	struct vgpu_submit sub;

	VGPU_DESC(&d, self->ch, vgpu_prog_alu);
	memset(&sub, 0, sizeof(sub));
	sub.count = 1;
	sub.desc_size = sizeof(d);
	sub.descs = (uintptr_t)&d;

	sub.flags = 1;
	EXPECT_EQ(EINVAL, vgpu_test_errno(ioctl(self->fd, VGPU_IOCTL_SUBMIT, &sub)));
	sub.flags = 0;
	sub.pad = 1;
	EXPECT_EQ(EINVAL, vgpu_test_errno(ioctl(self->fd, VGPU_IOCTL_SUBMIT, &sub)));
	sub.pad = 0;
	sub.count = 0;
	EXPECT_EQ(EINVAL, vgpu_test_errno(ioctl(self->fd, VGPU_IOCTL_SUBMIT, &sub)));
	sub.count = VGPU_MAX_SUBMIT + 1;
	EXPECT_EQ(EINVAL, vgpu_test_errno(ioctl(self->fd, VGPU_IOCTL_SUBMIT, &sub)));
	sub.count = 1;
	sub.desc_size = VGPU_SUBMIT_DESC_SIZE_VER0 - 8;
	EXPECT_EQ(EINVAL, vgpu_test_errno(ioctl(self->fd, VGPU_IOCTL_SUBMIT, &sub)));
	sub.desc_size = sizeof(d) + 4;
	EXPECT_EQ(EINVAL, vgpu_test_errno(ioctl(self->fd, VGPU_IOCTL_SUBMIT, &sub)));
	sub.desc_size = 8192;
	EXPECT_EQ(EINVAL, vgpu_test_errno(ioctl(self->fd, VGPU_IOCTL_SUBMIT, &sub)));
	sub.desc_size = sizeof(d);
	sub.descs = 0;
	EXPECT_EQ(EFAULT, vgpu_test_errno(ioctl(self->fd, VGPU_IOCTL_SUBMIT, &sub)));
	/* and the valid one still works */
	sub.descs = (uintptr_t)&d;
	EXPECT_EQ(0, vgpu_test_errno(ioctl(self->fd, VGPU_IOCTL_SUBMIT, &sub)));
}

/* Each descriptor field out of range, everything else valid. */
TEST_F(k, desc_invalid_fields)
{
	static const struct vgpu_insn no_exit[] = { { .op = VGPU_OP_ALU } };
	struct vgpu_submit_desc d;
	__u64 aff[2] = { 1, 0 }, wide[VGPU_MAX_AFFINITY_BITS / 64] = { 0 };

#define BAD(errno_, stmt) do {						\
		VGPU_DESC(&d, self->ch, vgpu_prog_alu);			\
		stmt;							\
		EXPECT_EQ(errno_, vgpu_test_submit(self->fd, &d, 1))	\
			TH_LOG("%s", #stmt);				\
	} while (0)

	BAD(EINVAL, d.flags = 1u << 31);
	BAD(EINVAL, d.priority = 1);			/* without the flag */
	BAD(EINVAL, (d.flags = VGPU_KERNEL_PRIORITY, d.priority = 4));
	BAD(EINVAL, d.pad2 = 1);
	BAD(EINVAL, d.handle = 7);
	BAD(EINVAL, d.grid = 0);
	BAD(EINVAL, d.grid = VGPU_MAX_GRID + 1);
	BAD(EINVAL, d.threads = 0);
	BAD(EINVAL, d.threads = 1025);
	BAD(EINVAL, d.regs = 0);
	BAD(EINVAL, d.regs = 256);
	BAD(EINVAL, d.smem = 1 << 20);
	BAD(EINVAL, d.deadline = VGPU_MAX_DEADLINE + 1);
	BAD(EINVAL, d.num_insns = 0);
	BAD(EINVAL, d.num_insns = VGPU_ISA_MAX_INSNS + 1);
	BAD(EINVAL, d.affinity = (uintptr_t)aff);	/* bits missing */
	BAD(EINVAL, d.affinity_bits = 64);		/* pointer missing */
	BAD(EINVAL, (d.affinity = (uintptr_t)aff, d.affinity_bits = 96));
	BAD(EINVAL, (d.affinity = (uintptr_t)wide,
		     d.affinity_bits = VGPU_MAX_AFFINITY_BITS + 64));
	BAD(EINVAL, (aff[0] = 0, d.affinity = (uintptr_t)aff,
		     d.affinity_bits = 64));		/* no SM at all */
	/* the widest mask, its one bit past the device's SMs: none either */
	wide[VGPU_MAX_AFFINITY_BITS / 64 - 1] = 1ULL << 63;
	BAD(EINVAL, (d.affinity = (uintptr_t)wide,
		     d.affinity_bits = VGPU_MAX_AFFINITY_BITS));
	BAD(EINVAL, d.arrival = ~0ULL);
	BAD(EINVAL, VGPU_PROG(&d, no_exit));		/* validator */
	BAD(EFAULT, d.program = 0);
	BAD(EFAULT, (d.affinity = 8, d.affinity_bits = 64));
	BAD(ENOENT, d.channel = 0);
	BAD(ENOENT, d.channel = 12345);
	/* a block that no SM can ever hold: 1024 threads x 255 registers */
	BAD(E2BIG, (d.threads = 1024, d.regs = 255));
	/* ... and the widest mask naming SM 0 is taken */
	wide[0] = 1;
	BAD(0, (d.affinity = (uintptr_t)wide,
		d.affinity_bits = VGPU_MAX_AFFINITY_BITS));
#undef BAD
}

/* F10: a kernel may carry its own priority; privileged ones need CAP_SYS_NICE. */
TEST_F(k, kernel_priority)
{
	struct vgpu_submit_desc d;
	pid_t pid;
	int status;

	VGPU_DESC(&d, self->ch, vgpu_prog_alu);
	d.flags = VGPU_KERNEL_PRIORITY;
	d.priority = 0;
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));	/* root may */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(10);
		VGPU_DESC(&d, self->ch, vgpu_prog_alu);
		d.flags = VGPU_KERNEL_PRIORITY;
		d.priority = 1;
		if (vgpu_test_submit(self->fd, &d, 1) != EPERM)
			_exit(1);
		VGPU_DESC(&d, self->ch, vgpu_prog_alu);
		d.flags = VGPU_KERNEL_PRIORITY;
		d.priority = 3;
		_exit(vgpu_test_submit(self->fd, &d, 1) ? 2 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* Extension rule for array elements: unknown trailing bytes must be 0. */
TEST_F(k, desc_size_versioning)
{
	struct {
		struct vgpu_submit_desc d;
		__u64 ext;
	} big;
	struct vgpu_submit sub;

	VGPU_DESC(&big.d, self->ch, vgpu_prog_alu);
	big.ext = 0;
	memset(&sub, 0, sizeof(sub));
	sub.count = 1;
	sub.desc_size = sizeof(big);
	sub.descs = (uintptr_t)&big;
	ASSERT_EQ(0, vgpu_test_errno(ioctl(self->fd, VGPU_IOCTL_SUBMIT, &sub)));
	EXPECT_NE(0, big.d.handle);
	VGPU_DESC(&big.d, self->ch, vgpu_prog_alu);
	big.ext = 1;
	EXPECT_EQ(E2BIG, vgpu_test_errno(ioctl(self->fd, VGPU_IOCTL_SUBMIT, &sub)));
	/* a caller built before the deadline field (VER1) still submits */
	VGPU_DESC(&big.d, self->ch, vgpu_prog_alu);
	big.d.deadline = 1;	/* beyond its size: not read */
	sub.desc_size = VGPU_SUBMIT_DESC_SIZE_VER1;
	ASSERT_EQ(0, vgpu_test_errno(ioctl(self->fd, VGPU_IOCTL_SUBMIT, &sub)));
	EXPECT_NE(0, big.d.handle);
}

/*
 * A kernel completing after its deadline is counted once in the
 * device's deadline_misses; one that meets its deadline is not.  The
 * 100-iteration loop cannot end within one cycle of its arrival, and
 * ends long before 2^40.
 */
TEST_F(k, deadline_misses_counted)
{
	struct vgpu_kernel_query q;
	struct vgpu_submit_desc d[2];
	char buf[8192];
	long long before;
	__u32 h[2];

	ASSERT_LT(0, vgpu_test_slurp("/sys/kernel/debug/vgpu/vgpu0/stats",
				     buf, sizeof(buf)));
	before = vgpu_test_keyval(buf, "deadline_misses");
	ASSERT_LE(0, before);
	VGPU_DESC(&d[0], self->ch, vgpu_prog_alu);
	d[0].deadline = 1;
	VGPU_DESC(&d[1], self->ch, vgpu_prog_alu);
	d[1].deadline = 1ULL << 40;
	ASSERT_EQ(0, vgpu_test_submit(self->fd, d, 2));
	h[0] = d[0].handle;
	h[1] = d[1].handle;
	ASSERT_EQ(0, vgpu_test_wait(self->fd, h, 2, VGPU_WAIT_ALL,
				    VGPU_WAIT_FOREVER, NULL));
	ASSERT_LT(0, vgpu_test_slurp("/sys/kernel/debug/vgpu/vgpu0/stats",
				     buf, sizeof(buf)));
	EXPECT_EQ(before + 1, vgpu_test_keyval(buf, "deadline_misses"));
	/* QUERY (VER2) tells each kernel its own */
	ASSERT_EQ(0, vgpu_test_query(self->fd, h[0], 0, &q));
	EXPECT_EQ(q.t_submit + 1, q.t_deadline);
	EXPECT_EQ(VGPU_KSTATUS_DEADLINE_MISSED, q.status);
	ASSERT_EQ(0, vgpu_test_query(self->fd, h[1], 0, &q));
	EXPECT_EQ(q.t_submit + (1ULL << 40), q.t_deadline);
	EXPECT_EQ(0, q.status);
	/* a kernel without a deadline has none */
	VGPU_DESC(&d[0], self->ch, vgpu_prog_alu);
	ASSERT_EQ(0, vgpu_test_submit(self->fd, d, 1));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &d[0].handle, 1, VGPU_WAIT_ALL,
				    VGPU_WAIT_FOREVER, NULL));
	ASSERT_EQ(0, vgpu_test_query(self->fd, d[0].handle, 0, &q));
	EXPECT_EQ(VGPU_NO_CYCLE, q.t_deadline);
	EXPECT_EQ(0, q.status);
	/* output fields must be zero on input */
	memset(&q, 0, sizeof(q));
	q.handle = d[0].handle;
	q.status = VGPU_KSTATUS_DEADLINE_MISSED;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_QUERY, &q));
	EXPECT_EQ(EINVAL, errno);
	memset(&q, 0, sizeof(q));
	q.handle = d[0].handle;
	q.pad = 1;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_QUERY, &q));
	EXPECT_EQ(EINVAL, errno);
}

/*
 * F26 throttle mode through the module (seed 002 steps 412-454, 413): a
 * THROTTLE kernel is not left waiting for a mode nobody sets.  Submitted
 * behind the gate with an ordinary kernel, it runs first (the mode goes
 * on when the SMs are empty), the ordinary one after it (the mode goes
 * off once it is done), and debugfs shows the mode off again.
 */
TEST_F(k, throttle_kernel_runs)
{
	struct vgpu_submit_desc d[2];
	struct vgpu_kernel_query q[2];
	char buf[8192];
	__u32 h[2], i, ch2 = 0;

	ASSERT_EQ(0, vgpu_test_channel(self->fd, 2, 0, &ch2));
	/* the ordinary kernel first: it would go first without the mode */
	VGPU_DESC(&d[1], ch2, vgpu_prog_alu);
	VGPU_DESC(&d[0], self->ch, vgpu_prog_alu);
	d[0].flags |= VGPU_KERNEL_THROTTLE;
	d[0].grid = 2;
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d[1], 1));
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d[0], 1));
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
	h[0] = d[0].handle;
	h[1] = d[1].handle;
	ASSERT_EQ(0, vgpu_test_wait(self->fd, h, 2, VGPU_WAIT_ALL,
				    VGPU_WAIT_FOREVER, NULL));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, vgpu_test_query(self->fd, h[i], 0, &q[i]));
		EXPECT_EQ(VGPU_KSTATE_DONE, q[i].state);
	}
	EXPECT_LE(q[0].t_complete, q[1].t_dispatch);
	ASSERT_LT(0, vgpu_test_slurp("/sys/kernel/debug/vgpu/vgpu0/config",
				     buf, sizeof(buf)));
	EXPECT_EQ(0, vgpu_test_keyval(buf, "throttle"));
	EXPECT_EQ(0, vgpu_test_keyval(buf, "throttle_share"));
}

/* Submit @n kernels of @p on @ch in batches; 0 or the first errno. */
static int submit_many(int fd, __u32 ch, const struct vgpu_insn *p, __u32 len,
		       __u32 n)
{
	struct vgpu_submit_desc d[VGPU_MAX_SUBMIT];
	__u32 i, b;
	int err;

	while (n) {
		b = n < VGPU_MAX_SUBMIT ? n : VGPU_MAX_SUBMIT;
		for (i = 0; i < b; i++) {
			VGPU_DESC(&d[i], ch, vgpu_prog_alu);
			d[i].program = (uintptr_t)p;
			d[i].num_insns = len;
		}
		err = vgpu_test_submit(fd, d, b);
		if (err)
			return err;
		n -= b;
	}
	return 0;
}

/*
 * The file's kernel table (64 entries at first, doubled when full): 100
 * kernels, every other one released, then 200 more, which grow the table
 * twice and land on entries both taken and free.  Every handle names its
 * own kernel (user_data), later handles are larger, released ones stay
 * -ENOENT.
 */
#define TBL_FIRST	100
#define TBL_MORE	200
TEST(handle_table_growth)
{
	__u32 h[TBL_FIRST + TBL_MORE], ch = 0, i, j;
	struct vgpu_kernel_query q;
	struct vgpu_submit_desc d;
	int fd;

	fd = vgpu_test_open(0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_test_channel(fd, 2, 0, &ch));
	ASSERT_EQ(0, vgpu_test_gate(fd, VGPU_GATE_CLOSE, NULL));
	for (i = 0; i < TBL_FIRST + TBL_MORE; i++) {
		if (i == TBL_FIRST) {
			/* the first ones finish; every even one is released */
			ASSERT_EQ(0, vgpu_test_gate(fd, VGPU_GATE_OPEN, NULL));
			ASSERT_EQ(0, vgpu_test_wait(fd, h, TBL_FIRST,
						    VGPU_WAIT_ALL,
						    VGPU_WAIT_FOREVER, NULL));
			for (j = 0; j < TBL_FIRST; j += 2)
				ASSERT_EQ(0, vgpu_test_query(fd, h[j],
							     VGPU_QUERY_RELEASE,
							     &q));
			ASSERT_EQ(0, vgpu_test_gate(fd, VGPU_GATE_CLOSE, NULL));
		}
		VGPU_DESC(&d, ch, vgpu_prog_empty);
		d.user_data = 0x5eed0000ULL + i;
		ASSERT_EQ(0, vgpu_test_submit(fd, &d, 1));
		h[i] = d.handle;
		ASSERT_NE(0, h[i]);
		if (i)
			ASSERT_LT(h[i - 1], h[i]);
	}
	for (i = 0; i < TBL_FIRST + TBL_MORE; i++) {
		if (i < TBL_FIRST && !(i % 2)) {
			EXPECT_EQ(ENOENT, vgpu_test_query(fd, h[i], 0, &q));
			continue;
		}
		ASSERT_EQ(0, vgpu_test_query(fd, h[i], 0, &q));
		EXPECT_EQ(0x5eed0000ULL + i, q.user_data);
	}
	ASSERT_EQ(0, vgpu_test_gate(fd, VGPU_GATE_OPEN, NULL));
	for (i = 1; i < TBL_FIRST + TBL_MORE; i += i < TBL_FIRST ? 2 : 1) {
		ASSERT_EQ(0, vgpu_test_wait(fd, &h[i], 1, 0, VGPU_WAIT_FOREVER,
					    NULL));
		ASSERT_EQ(0, vgpu_test_query(fd, h[i], VGPU_QUERY_RELEASE, &q));
		EXPECT_EQ(0x5eed0000ULL + i, q.user_data);
		EXPECT_EQ(ENOENT, vgpu_test_query(fd, h[i], 0, &q));
	}
	close(fd);
}

/* Limits: kernel handles per file (ENOSPC), queued kernels per device (EAGAIN). */
TEST(limits_kernels)
{
	int fd[3], i;
	__u32 ch[3];
	struct vgpu_info info;

	for (i = 0; i < 3; i++) {
		fd[i] = vgpu_test_open(0);
		ASSERT_LE(0, fd[i]);
		ASSERT_EQ(0, vgpu_test_channel(fd[i], 2, 0, &ch[i]));
	}
	info = vgpu_test_info(fd[0]);
	ASSERT_EQ(4096, info.max_kernels_per_file);
	ASSERT_EQ(8192, info.max_queued);
	/* held by the gate, nothing finishes: every kernel stays queued */
	ASSERT_EQ(0, vgpu_test_gate(fd[0], VGPU_GATE_CLOSE, NULL));
	ASSERT_EQ(0, submit_many(fd[0], ch[0], vgpu_prog_alu, 4, 4096));
	EXPECT_EQ(ENOSPC, submit_many(fd[0], ch[0], vgpu_prog_alu, 4, 1));
	ASSERT_EQ(0, submit_many(fd[1], ch[1], vgpu_prog_alu, 4, 4096));
	/* the device holds 8192 unfinished kernels now */
	EXPECT_EQ(EAGAIN, submit_many(fd[2], ch[2], vgpu_prog_alu, 4, 1));
	info = vgpu_test_info(fd[2]);
	EXPECT_EQ(8192, info.live_kernels);
	/* closing a file frees its share: room again */
	close(fd[1]);
	EXPECT_EQ(0, submit_many(fd[2], ch[2], vgpu_prog_alu, 4, 1));
	close(fd[0]);
	close(fd[2]);
}

/* Limit: program bytes per file (ENOSPC). */
TEST(limits_program_bytes)
{
	static struct vgpu_insn big[VGPU_ISA_MAX_INSNS];
	struct vgpu_info info;
	__u32 ch = 0, n;
	int fd, i;

	for (i = 0; i < VGPU_ISA_MAX_INSNS - 1; i++)
		big[i].op = VGPU_OP_ALU;
	big[VGPU_ISA_MAX_INSNS - 1].op = VGPU_OP_EXIT;
	fd = vgpu_test_open(0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_test_channel(fd, 2, 0, &ch));
	info = vgpu_test_info(fd);
	n = info.max_prog_bytes_per_file / sizeof(big);
	ASSERT_EQ(512, n);
	ASSERT_EQ(0, vgpu_test_gate(fd, VGPU_GATE_CLOSE, NULL));
	ASSERT_EQ(0, submit_many(fd, ch, big, VGPU_ISA_MAX_INSNS, n));
	EXPECT_EQ(ENOSPC, submit_many(fd, ch, big, VGPU_ISA_MAX_INSNS, 1));
	/* a one-instruction program still fits in the handle limit, not bytes */
	EXPECT_EQ(ENOSPC, submit_many(fd, ch, vgpu_prog_empty, 1, 1));
	close(fd);
}

TEST_F(k, foreign_handles)
{
	int other = vgpu_test_open(0);
	struct vgpu_kernel_query q;
	struct vgpu_submit_desc d;
	__u32 h;

	ASSERT_LE(0, other);
	h = SUBMIT(self->fd, self->ch, vgpu_prog_alu, 1);
	ASSERT_NE(0, h);
	/* the channel of another file */
	VGPU_DESC(&d, self->ch, vgpu_prog_alu);
	EXPECT_EQ(ENOENT, vgpu_test_submit(other, &d, 1));
	/* the kernel of another file */
	EXPECT_EQ(ENOENT, vgpu_test_wait(other, &h, 1, 0, VGPU_WAIT_FOREVER, NULL));
	EXPECT_EQ(ENOENT, vgpu_test_query(other, h, 0, &q));
	EXPECT_EQ(ENOENT, vgpu_test_cancel(other, h));
	close(other);
	EXPECT_EQ(0, vgpu_test_wait(self->fd, &h, 1, 0, VGPU_WAIT_FOREVER, NULL));
}

TEST_F(k, wait_invalid_args)
{
	struct vgpu_wait w;
	__u32 h = SUBMIT(self->fd, self->ch, vgpu_prog_alu, 1);
	__u32 bogus = h + 1000;

	ASSERT_NE(0, h);
#define WBAD(errno_, stmt) do {						\
		memset(&w, 0, sizeof(w));				\
		w.count = 1;						\
		w.handles = (uintptr_t)&h;				\
		w.timeout_ns = VGPU_WAIT_FOREVER;			\
		stmt;							\
		EXPECT_EQ(errno_, vgpu_test_errno(ioctl(self->fd,	\
			VGPU_IOCTL_WAIT, &w))) TH_LOG("%s", #stmt);	\
	} while (0)
	WBAD(EINVAL, w.flags = 2);
	WBAD(EINVAL, w.pad = 1);
	WBAD(EINVAL, w.first = 1);
	WBAD(EINVAL, w.count = 0);
	WBAD(EINVAL, w.count = VGPU_MAX_WAIT + 1);
	WBAD(EFAULT, w.handles = 0);
	WBAD(EFAULT, w.handles = 16);
	WBAD(ENOENT, w.handles = (uintptr_t)&bogus);
	WBAD(0, (void)0);
#undef WBAD
}

TEST_F(k, wait_timeout)
{
	__u32 h = SUBMIT(self->fd, self->ch, vgpu_prog_spin, 1);

	ASSERT_NE(0, h);
	/* a time in the past polls */
	EXPECT_EQ(ETIME, vgpu_test_wait(self->fd, &h, 1, 0, 0, NULL));
	EXPECT_EQ(ETIME, vgpu_test_wait(self->fd, &h, 1, 0,
					vgpu_test_now_ns() - 1000, NULL));
	/* far in the past: deadline minus now must not wrap to a long sleep */
	EXPECT_EQ(ETIME, vgpu_test_wait(self->fd, &h, 1, 0, -1, NULL));
	EXPECT_EQ(ETIME, vgpu_test_wait(self->fd, &h, 1, 0, INT64_MIN, NULL));
	/* absolute CLOCK_MONOTONIC deadline 20 ms ahead */
	EXPECT_EQ(ETIME, vgpu_test_wait(self->fd, &h, 1, 0,
					vgpu_test_now_ns() + 20000000, NULL));
	EXPECT_EQ(0, vgpu_test_cancel(self->fd, h));
	EXPECT_EQ(0, vgpu_test_wait(self->fd, &h, 1, 0, 0, NULL));
}

static void vgpu_on_alarm(int sig)
{
}

/* A signal interrupts an endless wait (-ERESTARTSYS, seen as EINTR). */
TEST_F(k, wait_interrupted)
{
	struct sigaction sa;
	__u32 h = SUBMIT(self->fd, self->ch, vgpu_prog_spin, 1);

	ASSERT_NE(0, h);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = vgpu_on_alarm;	/* no SA_RESTART */
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	alarm(1);
	EXPECT_EQ(EINTR, vgpu_test_wait(self->fd, &h, 1, 0, VGPU_WAIT_FOREVER,
					NULL));
	EXPECT_EQ(0, vgpu_test_cancel(self->fd, h));
}

TEST_F(k, wait_any_and_all)
{
	__u32 h[2], first = 9;

	h[0] = SUBMIT(self->fd, self->ch, vgpu_prog_spin, 1);
	h[1] = SUBMIT(self->fd, self->ch, vgpu_prog_alu, 1);
	ASSERT_NE(0, h[0]);
	ASSERT_NE(0, h[1]);
	/* both on one channel: FIFO, so cancel the spinner to let h[1] run */
	EXPECT_EQ(0, vgpu_test_cancel(self->fd, h[0]));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, h, 2, 0, VGPU_WAIT_FOREVER, &first));
	EXPECT_EQ(0, first);
	ASSERT_EQ(0, vgpu_test_wait(self->fd, h, 2, VGPU_WAIT_ALL,
				    VGPU_WAIT_FOREVER, &first));
}

TEST_F(k, query_invalid_args)
{
	struct vgpu_kernel_query q;
	__u32 h = SUBMIT(self->fd, self->ch, vgpu_prog_spin, 1);

	ASSERT_NE(0, h);
	memset(&q, 0, sizeof(q));
	q.handle = h;
	q.flags = 2;
	EXPECT_EQ(EINVAL, vgpu_test_errno(ioctl(self->fd, VGPU_IOCTL_QUERY, &q)));
	memset(&q, 0, sizeof(q));
	q.handle = h;
	q.user_data = 1;	/* output field */
	EXPECT_EQ(EINVAL, vgpu_test_errno(ioctl(self->fd, VGPU_IOCTL_QUERY, &q)));
	EXPECT_EQ(ENOENT, vgpu_test_query(self->fd, h + 77, 0, &q));
	EXPECT_EQ(EFAULT, vgpu_test_errno(ioctl(self->fd, VGPU_IOCTL_QUERY, NULL)));
	/* an unfinished kernel cannot be released */
	EXPECT_EQ(EBUSY, vgpu_test_query(self->fd, h, VGPU_QUERY_RELEASE, &q));
	EXPECT_EQ(0, vgpu_test_query(self->fd, h, 0, &q));
	EXPECT_NE(VGPU_KSTATE_DONE, q.state);
	EXPECT_EQ(0, vgpu_test_cancel(self->fd, h));
}

TEST_F(k, cancel)
{
	struct vgpu_kernel_query q;
	struct vgpu_kernel_cancel c;
	__u32 h = SUBMIT(self->fd, self->ch, vgpu_prog_spin, 4);

	ASSERT_NE(0, h);
	memset(&c, 0, sizeof(c));
	c.handle = h;
	c.flags = 1;
	EXPECT_EQ(EINVAL, vgpu_test_errno(ioctl(self->fd, VGPU_IOCTL_CANCEL, &c)));
	EXPECT_EQ(ENOENT, vgpu_test_cancel(self->fd, h + 5));
	EXPECT_EQ(0, vgpu_test_cancel(self->fd, h));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &h, 1, 0, VGPU_WAIT_FOREVER, NULL));
	ASSERT_EQ(0, vgpu_test_query(self->fd, h, 0, &q));
	EXPECT_EQ(VGPU_KSTATE_CANCELLED, q.state);
	EXPECT_EQ(-ECANCELED, q.error);
	/* cancelling a finished kernel is a no-op */
	EXPECT_EQ(0, vgpu_test_cancel(self->fd, h));
}

TEST_F(k, gate_errors)
{
	struct vgpu_gate g;

	memset(&g, 0, sizeof(g));
	g.op = 0;
	EXPECT_EQ(EINVAL, vgpu_test_errno(ioctl(self->fd, VGPU_IOCTL_GATE, &g)));
	g.op = 3;
	EXPECT_EQ(EINVAL, vgpu_test_errno(ioctl(self->fd, VGPU_IOCTL_GATE, &g)));
	g.op = VGPU_GATE_CLOSE;
	g.flags = 1;
	EXPECT_EQ(EINVAL, vgpu_test_errno(ioctl(self->fd, VGPU_IOCTL_GATE, &g)));
	g.flags = 0;
	g.cycle = 1;
	EXPECT_EQ(EINVAL, vgpu_test_errno(ioctl(self->fd, VGPU_IOCTL_GATE, &g)));
	/* open without holding, close twice */
	EXPECT_EQ(EINVAL, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
	EXPECT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	EXPECT_EQ(EINVAL, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	EXPECT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
}

/* F52: nothing is dispatched while the gate is held; the clock stands. */
TEST_F(k, gate_holds_dispatch)
{
	struct vgpu_kernel_query q;
	__u64 c0 = 0, c1 = 1;
	__u32 h[2];

	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, &c0));
	h[0] = SUBMIT(self->fd, self->ch, vgpu_prog_alu, 2);
	h[1] = SUBMIT(self->fd, self->ch, vgpu_prog_alu, 2);
	ASSERT_NE(0, h[1]);
	EXPECT_EQ(ETIME, vgpu_test_wait(self->fd, h, 2, 0,
					vgpu_test_now_ns() + 50000000, NULL));
	ASSERT_EQ(0, vgpu_test_query(self->fd, h[0], 0, &q));
	EXPECT_EQ(VGPU_NO_CYCLE, q.t_dispatch);
	EXPECT_EQ(VGPU_KSTATE_QUEUED, q.state);
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, &c1));
	EXPECT_EQ(c0, c1);
	ASSERT_EQ(0, vgpu_test_wait(self->fd, h, 2, VGPU_WAIT_ALL,
				    VGPU_WAIT_FOREVER, NULL));
	/* both arrived at the held clock */
	ASSERT_EQ(0, vgpu_test_query(self->fd, h[1], 0, &q));
	EXPECT_EQ(c0, q.t_submit);
}

/* F11: kernels of one channel start in submission order. */
TEST_F(k, fifo_within_channel)
{
	struct vgpu_kernel_query q[4];
	__u32 h[4];
	int i;

	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	for (i = 0; i < 4; i++) {
		h[i] = SUBMIT(self->fd, self->ch, vgpu_prog_alu, 16);
		ASSERT_NE(0, h[i]);
	}
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, h, 4, VGPU_WAIT_ALL,
				    VGPU_WAIT_FOREVER, NULL));
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, vgpu_test_query(self->fd, h[i], 0, &q[i]));
	for (i = 1; i < 4; i++)
		EXPECT_LE(q[i - 1].t_dispatch, q[i].t_dispatch);
}

/* F20/F12: of two kernels arriving together the higher priority goes first. */
TEST_F(k, priority_across_channels)
{
	struct vgpu_kernel_query ql, qh;
	__u32 hi, lo, chl = 0, chh = 0;

	ASSERT_EQ(0, vgpu_test_channel(self->fd, 3, 0, &chl));
	ASSERT_EQ(0, vgpu_test_channel(self->fd, 0, 0, &chh));	/* root */
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	/* the low-priority one is submitted first and can fill every SM */
	lo = SUBMIT(self->fd, chl, vgpu_prog_long, 256);
	hi = SUBMIT(self->fd, chh, vgpu_prog_alu, 4);
	ASSERT_NE(0, lo);
	ASSERT_NE(0, hi);
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &hi, 1, 0, VGPU_WAIT_FOREVER, NULL));
	ASSERT_EQ(0, vgpu_test_query(self->fd, hi, 0, &qh));
	ASSERT_EQ(0, vgpu_test_query(self->fd, lo, 0, &ql));
	EXPECT_LE(qh.t_dispatch, ql.t_dispatch);
	/* and it finished long before the big low-priority kernel */
	EXPECT_EQ(VGPU_NO_CYCLE, ql.t_complete);
	EXPECT_EQ(0, vgpu_test_cancel(self->fd, lo));
}

/*
 * Preemption (F23 path c): on a device in "switch" mode, a high-priority
 * kernel arriving while long low-priority blocks fill every warp slot
 * starts at once (the low blocks are switched out and come back later),
 * and finishes long before the low-priority kernel.  In "drain" mode the
 * same kernel waits for a whole wave of low-priority blocks.
 */
static void preempt_scenario(struct __test_metadata *_metadata,
			     const char *mode, struct vgpu_kernel_query *qh,
			     struct vgpu_kernel_query *ql)
{
	char line[64];
	struct vgpu_submit_desc d;
	__u32 chl = 0, chh = 0, lo;
	int fd;

	snprintf(line, sizeof(line), "5 small preempt=%s", mode);
	ASSERT_EQ(0, vgpu_test_sysfs("/sys/bus/vgpu/new_device", line));
	fd = vgpu_test_open(5);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_test_channel(fd, 3, 0, &chl));
	ASSERT_EQ(0, vgpu_test_channel(fd, 0, 0, &chh));
	ASSERT_EQ(0, vgpu_test_gate(fd, VGPU_GATE_CLOSE, NULL));
	/* 1024-thread blocks: 2 per SM fill the warp slots of all 4 SMs */
	VGPU_DESC(&d, chl, vgpu_prog_long);
	d.grid = 256;
	d.threads = 1024;
	ASSERT_EQ(0, vgpu_test_submit(fd, &d, 1));
	lo = d.handle;
	/* the high-priority kernel arrives 1000 cycles later */
	VGPU_DESC(&d, chh, vgpu_prog_alu);
	d.arrival = 1000;
	ASSERT_EQ(0, vgpu_test_submit(fd, &d, 1));
	ASSERT_EQ(0, vgpu_test_gate(fd, VGPU_GATE_OPEN, NULL));
	ASSERT_EQ(0, vgpu_test_wait(fd, &d.handle, 1, 0, VGPU_WAIT_FOREVER, NULL));
	ASSERT_EQ(0, vgpu_test_query(fd, d.handle, 0, qh));
	ASSERT_EQ(0, vgpu_test_query(fd, lo, 0, ql));
	close(fd);	/* cancels the low-priority kernel */
	ASSERT_EQ(0, vgpu_test_sysfs("/sys/bus/vgpu/del_device", "5"));
}

TEST(preemption_of_low_by_high)
{
	struct vgpu_kernel_query qh, ql, dh, dl;

	preempt_scenario(_metadata, "switch", &qh, &ql);
	preempt_scenario(_metadata, "drain", &dh, &dl);
	/* the low-priority kernel was running before and is still running */
	EXPECT_EQ(VGPU_KSTATE_RUNNING, ql.state);
	EXPECT_EQ(VGPU_NO_CYCLE, ql.t_complete);
	EXPECT_LT(ql.t_dispatch, qh.t_submit);
	EXPECT_EQ(VGPU_KSTATE_DONE, qh.state);
	EXPECT_NE(0, ql.preemptions);
	/* switch: done within a few thousand cycles of its arrival... */
	EXPECT_LT(qh.t_complete - qh.t_submit, 5000);
	/* ...drain: only after a whole wave of low-priority blocks */
	EXPECT_GT(dh.t_complete - dh.t_submit, 10 * (qh.t_complete - qh.t_submit));
	EXPECT_EQ(0, dl.preemptions);
}

/* F53: SPIN past the channel's timeout is cancelled; only its channel. */
TEST_F(k, hang_cancels_only_its_channel)
{
	struct vgpu_kernel_query q;
	__u32 hung_ch = 0, h, ok;

	ASSERT_EQ(0, vgpu_test_channel(self->fd, 2, 20000, &hung_ch));
	h = SUBMIT(self->fd, hung_ch, vgpu_prog_spin, 1);
	ok = SUBMIT(self->fd, self->ch, vgpu_prog_alu, 8);
	ASSERT_NE(0, h);
	ASSERT_NE(0, ok);
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &h, 1, 0, VGPU_WAIT_FOREVER, NULL));
	ASSERT_EQ(0, vgpu_test_query(self->fd, h, 0, &q));
	EXPECT_EQ(VGPU_KSTATE_CANCELLED, q.state);
	EXPECT_EQ(-ETIMEDOUT, q.error);
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &ok, 1, 0, VGPU_WAIT_FOREVER, NULL));
	ASSERT_EQ(0, vgpu_test_query(self->fd, ok, 0, &q));
	EXPECT_EQ(VGPU_KSTATE_DONE, q.state);
	EXPECT_EQ(0, q.error);
}

/*
 * F52: a paced device maps virtual cycles to wall time.  At 1 kHz the long
 * kernel (over 50,000 cycles) cannot be done 200 ms later, and the clock
 * has moved by about 200 cycles, far below what a free-running device
 * reaches; the free-running default device finishes the same kernel.
 */
TEST(paced_clock)
{
	struct vgpu_kernel_query q;
	struct vgpu_info info;
	__u32 ch = 0, h;
	int fd;

	ASSERT_EQ(0, vgpu_test_sysfs("/sys/bus/vgpu/new_device",
				     "6 small clock=paced freq_khz=1"));
	fd = vgpu_test_open(6);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_test_channel(fd, 2, 0, &ch));
	h = SUBMIT(fd, ch, vgpu_prog_long, 1);
	ASSERT_NE(0, h);
	EXPECT_EQ(ETIME, vgpu_test_wait(fd, &h, 1, 0,
					vgpu_test_now_ns() + 200000000LL, NULL));
	ASSERT_EQ(0, vgpu_test_query(fd, h, 0, &q));
	EXPECT_EQ(VGPU_NO_CYCLE, q.t_complete);
	info = vgpu_test_info(fd);
	EXPECT_LT(info.cycle, 20000);
	close(fd);
	ASSERT_EQ(0, vgpu_test_sysfs("/sys/bus/vgpu/del_device", "6"));

	fd = vgpu_test_open(0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_test_channel(fd, 2, 0, &ch));
	h = SUBMIT(fd, ch, vgpu_prog_long, 1);
	ASSERT_NE(0, h);
	ASSERT_EQ(0, vgpu_test_wait(fd, &h, 1, 0, VGPU_WAIT_FOREVER, NULL));
	ASSERT_EQ(0, vgpu_test_query(fd, h, 0, &q));
	EXPECT_EQ(VGPU_KSTATE_DONE, q.state);
	EXPECT_LT(50000, q.t_complete - q.t_start);
	close(fd);
}

TEST_F(k, poll_reports_completion)
{
	struct pollfd p = { .fd = self->fd, .events = POLLIN };
	struct vgpu_kernel_query q;
	__u32 h;

	EXPECT_EQ(0, poll(&p, 1, 0));
	h = SUBMIT(self->fd, self->ch, vgpu_prog_alu, 1);
	ASSERT_NE(0, h);
	ASSERT_EQ(1, poll(&p, 1, -1));
	EXPECT_TRUE(p.revents & POLLIN);
	ASSERT_EQ(0, vgpu_test_query(self->fd, h, VGPU_QUERY_RELEASE, &q));
	EXPECT_EQ(VGPU_KSTATE_DONE, q.state);
	EXPECT_EQ(0, poll(&p, 1, 0));
}

/*
 * Nobody waits or polls: the controller, whose wake-up SUBMIT defers with
 * the free-running clock, still runs the kernel (F60).  The deadline only
 * bounds a failure.
 */
TEST_F(k, completes_with_nobody_waiting)
{
	__s64 deadline = vgpu_test_now_ns() + 10 * 1000000000LL;
	struct vgpu_kernel_query q;
	__u32 h;

	h = SUBMIT(self->fd, self->ch, vgpu_prog_alu, 4);
	ASSERT_NE(0, h);
	do {
		ASSERT_EQ(0, vgpu_test_query(self->fd, h, 0, &q));
	} while (q.state != VGPU_KSTATE_DONE &&
		 vgpu_test_now_ns() < deadline);
	EXPECT_EQ(VGPU_KSTATE_DONE, q.state);
	EXPECT_EQ(4, q.blocks_done);
}

/* Closing the file cancels and frees everything it owns. */
TEST(close_frees_everything)
{
	struct vgpu_info before, after;
	int fd = vgpu_test_open(0), probe = vgpu_test_open(0);
	__u32 ch = 0, i;

	ASSERT_LE(0, fd);
	ASSERT_LE(0, probe);
	before = vgpu_test_info(probe);
	ASSERT_EQ(0, vgpu_test_channel(fd, 3, 0, &ch));
	for (i = 0; i < 16; i++)
		ASSERT_NE(0, SUBMIT(fd, ch, vgpu_prog_spin, 4));
	after = vgpu_test_info(probe);
	EXPECT_EQ(before.live_kernels + 16, after.live_kernels);
	EXPECT_EQ(before.live_channels + 1, after.live_channels);
	close(fd);
	after = vgpu_test_info(probe);
	EXPECT_EQ(before.live_kernels, after.live_kernels);
	EXPECT_EQ(before.live_channels, after.live_channels);
	close(probe);
}

/* kill -9 of a process blocked in WAIT leaves nothing behind. */
TEST(kill_9_leaves_nothing)
{
	struct vgpu_info before, after;
	int probe = vgpu_test_open(0), status, pipefd[2];
	pid_t pid;
	char c;

	ASSERT_LE(0, probe);
	ASSERT_EQ(0, pipe(pipefd));
	before = vgpu_test_info(probe);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd = vgpu_test_open(0);
		__u32 ch = 0, h = 0, i;

		if (fd < 0 || vgpu_test_channel(fd, 2, 0, &ch))
			_exit(1);
		for (i = 0; i < 8; i++)
			h = SUBMIT(fd, ch, vgpu_prog_spin, 2);
		if (write(pipefd[1], "x", 1) != 1)
			_exit(2);
		vgpu_test_wait(fd, &h, 1, 0, VGPU_WAIT_FOREVER, NULL);
		_exit(3);
	}
	ASSERT_EQ(1, read(pipefd[0], &c, 1));
	after = vgpu_test_info(probe);
	EXPECT_EQ(before.live_kernels + 8, after.live_kernels);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	after = vgpu_test_info(probe);
	EXPECT_EQ(before.live_kernels, after.live_kernels);
	EXPECT_EQ(before.live_channels, after.live_channels);
	close(probe);
	close(pipefd[0]);
	close(pipefd[1]);
}

/* Removing the device wakes a waiter with ENODEV. */
TEST(removed_device_wakes_waiter)
{
	int fd, status;
	__u32 ch = 0, h;
	pid_t pid;

	ASSERT_EQ(0, vgpu_test_sysfs("/sys/bus/vgpu/new_device", "4"));
	fd = vgpu_test_open(4);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_test_channel(fd, 2, 0, &ch));
	h = SUBMIT(fd, ch, vgpu_prog_spin, 1);
	ASSERT_NE(0, h);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		/*
		 * Remove the device, most likely while the parent sleeps in
		 * WAIT; earlier or later the parent sees ENODEV all the same.
		 */
		usleep(100000);
		_exit(vgpu_test_sysfs("/sys/bus/vgpu/del_device", "4"));
	}
	EXPECT_EQ(ENODEV, vgpu_test_wait(fd, &h, 1, 0, VGPU_WAIT_FOREVER, NULL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(ENODEV, vgpu_test_cancel(fd, h));
	close(fd);
}

TEST_HARNESS_MAIN
