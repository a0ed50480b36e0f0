// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_child_test.c - child kernels through the uapi (F15): templates
 * and child budgets in SUBMIT, LAUNCH with and without WAIT, the depth and
 * budget limits seen by QUERY (VGPU_KSTATE_FAILED, -ELOOP, -EDQUOT), every
 * errno of the new descriptor fields with otherwise-valid input, the child
 * budget charged to the file's limit, the kernel table and counters in
 * debugfs, and close / kill -9 with children in flight.
 *
 * Each test uses its own device instance 12 (preset "small", 64-cycle
 * epochs, switch cost 64: the cycle counts are those of
 * selftests/core/test_child.c, which explains them).
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "vgpu_test_util.h"
#include "kselftest_harness.h"

#define DEV	12
#define DBG	"/sys/kernel/debug/vgpu/vgpu12/"

#define I(o)		{ .op = VGPU_OP_##o }
#define LOOP(n)		{ .op = VGPU_OP_LOOP, .imm = VGPU_LOOP_IMM(n, 0) }
#define LAUNCH(t)	{ .op = VGPU_OP_LAUNCH, .a = (t) }
#define LAUNCHW(t)	{ .op = VGPU_OP_LAUNCH, .a = (t), .b = VGPU_LAUNCH_WAIT }

/* ALU, LAUNCH 0 wait, ALU: ends 645 cycles after it arrives (C_LONG). */
static const struct vgpu_insn p_wait[] = {
	I(ALU), LAUNCHW(0), I(ALU), I(EXIT),
};

/* LAUNCH 0, then a 100-iteration loop: the child runs at the same time. */
static const struct vgpu_insn p_nowait[] = {
	LAUNCH(0), LOOP(100), I(ALU), I(ENDLOOP), I(EXIT),
};

/* 501 cycles of ALU */
static const struct vgpu_insn c_long[] = {
	LOOP(100), I(ALU), I(ENDLOOP), I(EXIT),
};

static const struct vgpu_insn c_spin[] = { I(SPIN), I(EXIT) };
static const struct vgpu_insn self_wait[] = { LAUNCHW(0), I(EXIT) };
static const struct vgpu_insn self_twice[] = {
	LAUNCH(0), LAUNCH(0), LOOP(10), I(ALU), I(ENDLOOP), I(EXIT),
};
static const struct vgpu_insn launch1[] = { LAUNCH(1), I(EXIT) };
static const struct vgpu_insn wait1[] = { LAUNCHW(1), LAUNCH(1), I(EXIT) };
static const struct vgpu_insn no_exit[] = { I(ALU) };

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

/* Poll the kernel table until it holds @n kernels (bounded); 1 if so. */
static int table_holds(int n)
{
	char want[32];
	long i;

	snprintf(want, sizeof(want), "# %d kernels", n);
	for (i = 0; i < 200000L; i++) {
		if (slurp(DBG "kernels") < 0)
			return 0;
		if (!strncmp(vgpu_buf, want, strlen(want)))
			return 1;
		usleep(100);
	}
	return 0;
}

#define TMPL(t, p) do {						\
	memset((t), 0, sizeof(*(t)));				\
	(t)->grid = 1;						\
	(t)->threads = 32;					\
	(t)->regs = 32;						\
	(t)->program = (uintptr_t)(p);				\
	(t)->num_insns = sizeof(p) / sizeof((p)[0]);		\
} while (0)

/* A descriptor of one 32-thread block of @p with templates @t[0..n-1]. */
#define TREE(d, ch, p, t, n, budget) do {			\
	VGPU_DESC(d, ch, p);					\
	(d)->threads = 32;					\
	(d)->templates = (uintptr_t)(t);			\
	(d)->num_templates = (n);				\
	(d)->template_size = sizeof(struct vgpu_template);	\
	(d)->child_budget = (budget);				\
} while (0)

FIXTURE(child) {
	int fd;
	__u32 ch;
};

FIXTURE_SETUP(child)
{
	char line[16];

	snprintf(line, sizeof(line), "%d", DEV);
	vgpu_test_sysfs("/sys/bus/vgpu/del_device", line);
	snprintf(line, sizeof(line), "%d small", DEV);
	ASSERT_EQ(0, vgpu_test_sysfs("/sys/bus/vgpu/new_device", line));
	self->fd = vgpu_test_open(DEV);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, vgpu_test_channel(self->fd, 2, 0, &self->ch));
}

FIXTURE_TEARDOWN(child)
{
	char line[8];

	close(self->fd);
	snprintf(line, sizeof(line), "%d", DEV);
	vgpu_test_sysfs("/sys/bus/vgpu/del_device", line);
}

/* Submit @d (gated, so that it arrives on a boundary) and wait for it. */
static int run1(int fd, struct vgpu_submit_desc *d,
		struct vgpu_kernel_query *q)
{
	int err;

	err = vgpu_test_gate(fd, VGPU_GATE_CLOSE, NULL);
	if (!err)
		err = vgpu_test_submit(fd, d, 1);
	if (!vgpu_test_gate(fd, VGPU_GATE_OPEN, NULL) && !err)
		err = vgpu_test_wait(fd, &d->handle, 1, 0, VGPU_WAIT_FOREVER,
				     NULL);
	return err ? err : vgpu_test_query(fd, d->handle, 0, q);
}

TEST_F(child, capability)
{
	struct vgpu_info info = vgpu_test_info(self->fd);

	EXPECT_EQ(VGPU_CAP_CHILD, info.caps & VGPU_CAP_CHILD);
}

/*
 * LAUNCH WAIT: the child runs while the parent's block is switched out and
 * the block resumes after it: done 645 cycles after arrival (core:
 * wait_child_runs_before_parent_resumes).
 */
TEST_F(child, wait_child_runs_before_parent_resumes)
{
	struct vgpu_kernel_query q;
	struct vgpu_submit_desc d;
	struct vgpu_template t;

	TMPL(&t, c_long);
	TREE(&d, self->ch, p_wait, &t, 1, 4);
	ASSERT_EQ(0, run1(self->fd, &d, &q));
	EXPECT_EQ(VGPU_KSTATE_DONE, q.state);
	EXPECT_EQ(0, q.error);
	EXPECT_EQ(1, q.blocks_done);
	EXPECT_EQ(q.t_submit, q.t_dispatch);
	EXPECT_EQ(q.t_submit, q.t_start);
	EXPECT_EQ(645, q.t_complete - q.t_submit);
	ASSERT_LT(0, slurp(DBG "stats"));
	EXPECT_EQ(1, keyval("children"));
	EXPECT_EQ(1, keyval("suspensions"));
	EXPECT_EQ(1, keyval("resumes"));
	EXPECT_EQ(0, keyval("failed"));
}

/* Without WAIT the child runs alongside; the parent ends at its child's end. */
TEST_F(child, nowait_child_runs_concurrently)
{
	struct vgpu_kernel_query q;
	struct vgpu_submit_desc d;
	struct vgpu_template t;

	TMPL(&t, c_long);
	TREE(&d, self->ch, p_nowait, &t, 1, 1);
	ASSERT_EQ(0, run1(self->fd, &d, &q));
	EXPECT_EQ(VGPU_KSTATE_DONE, q.state);
	/* its own block ends at 502, the child at 565 */
	EXPECT_EQ(565, q.t_complete - q.t_submit);
	ASSERT_LT(0, slurp(DBG "stats"));
	EXPECT_EQ(0, keyval("suspensions"));
}

/*
 * The suspended block's 100 KiB of SM 0 serve another kernel meanwhile:
 * X (higher priority, SM 0 only, arriving 32 cycles later) runs at 64
 * while the parent waits for its child (core:
 * suspended_block_releases_its_resources).
 */
TEST_F(child, suspended_block_releases_its_resources)
{
	struct vgpu_submit_desc d[2];
	struct vgpu_kernel_query q;
	struct vgpu_template t;
	__u64 aff = 1, t0;
	__u32 ch1 = 0;

	ASSERT_EQ(0, vgpu_test_channel(self->fd, 1, 0, &ch1));
	TMPL(&t, c_long);
	TREE(&d[0], self->ch, p_wait, &t, 1, 1);
	d[0].smem = 100 * 1024;
	d[0].affinity = (uintptr_t)&aff;
	d[0].affinity_bits = 64;
	VGPU_DESC(&d[1], ch1, vgpu_prog_alu);
	d[1].threads = 32;
	d[1].smem = 100 * 1024;
	d[1].affinity = (uintptr_t)&aff;
	d[1].affinity_bits = 64;
	d[1].arrival = 32;
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	ASSERT_EQ(0, vgpu_test_submit(self->fd, d, 2));
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, (__u32[]){ d[0].handle,
					d[1].handle }, 2, VGPU_WAIT_ALL,
				    VGPU_WAIT_FOREVER, NULL));
	ASSERT_EQ(0, vgpu_test_query(self->fd, d[0].handle, 0, &q));
	t0 = q.t_submit;
	EXPECT_EQ(645, q.t_complete - t0);
	ASSERT_EQ(0, vgpu_test_query(self->fd, d[1].handle, 0, &q));
	EXPECT_EQ(64, q.t_dispatch - t0);
	/* LOOP 100 of ALU: 501 cycles */
	EXPECT_EQ(64 + 501, q.t_complete - t0);
}

/*
 * A template that launches itself with WAIT: the kernel at depth
 * VGPU_MAX_DEPTH fails with ELOOP and so does the submitted kernel; the
 * device holds nothing afterwards.
 */
TEST_F(child, depth_limit_fails_with_eloop)
{
	struct vgpu_kernel_query q;
	struct vgpu_submit_desc d;
	struct vgpu_template t;

	TMPL(&t, self_wait);
	TREE(&d, self->ch, self_wait, &t, 1, 100);
	ASSERT_EQ(0, run1(self->fd, &d, &q));
	EXPECT_EQ(VGPU_KSTATE_FAILED, q.state);
	EXPECT_EQ(-ELOOP, q.error);
	EXPECT_NE(VGPU_NO_CYCLE, q.t_complete);
	EXPECT_EQ(0, q.blocks_done);
	ASSERT_LT(0, slurp(DBG "stats"));
	EXPECT_EQ(VGPU_MAX_DEPTH, keyval("children"));
	EXPECT_EQ(1, keyval("failed"));
	EXPECT_EQ(0, keyval("completed"));
	EXPECT_TRUE(table_holds(0));
	/* a failed kernel's handle is released like any finished one */
	EXPECT_EQ(0, vgpu_test_query(self->fd, d.handle, VGPU_QUERY_RELEASE,
				     &q));
	EXPECT_EQ(VGPU_KSTATE_FAILED, q.state);
	EXPECT_EQ(ENOENT, vgpu_test_query(self->fd, d.handle, 0, &q));
}

/* The child budget bounds the whole tree: the sixth LAUNCH fails it. */
TEST_F(child, budget_limit_fails_with_edquot)
{
	struct vgpu_kernel_query q;
	struct vgpu_submit_desc d;
	struct vgpu_template t;

	TMPL(&t, self_twice);
	TREE(&d, self->ch, self_twice, &t, 1, 5);
	ASSERT_EQ(0, run1(self->fd, &d, &q));
	EXPECT_EQ(VGPU_KSTATE_FAILED, q.state);
	EXPECT_EQ(-EDQUOT, q.error);
	ASSERT_LT(0, slurp(DBG "stats"));
	EXPECT_EQ(5, keyval("children"));
	/* budget 0: the kernel's own LAUNCH */
	TMPL(&t, c_long);
	TREE(&d, self->ch, p_wait, &t, 1, 0);
	ASSERT_EQ(0, run1(self->fd, &d, &q));
	EXPECT_EQ(VGPU_KSTATE_FAILED, q.state);
	EXPECT_EQ(-EDQUOT, q.error);
	ASSERT_LT(0, slurp(DBG "stats"));
	EXPECT_EQ(5, keyval("children"));
	EXPECT_EQ(2, keyval("failed"));
	EXPECT_TRUE(table_holds(0));
}

/* Every new field, each wrong on its own in an otherwise valid SUBMIT. */
TEST_F(child, descriptor_errnos)
{
	struct {
		struct vgpu_template t;
		__u64 ext;
	} big;
	static struct vgpu_template t[VGPU_MAX_TEMPLATES + 1];
	struct vgpu_submit_desc d;
	int i;

#define GOOD(n) do {							\
		for (i = 0; i < VGPU_MAX_TEMPLATES + 1; i++)		\
			TMPL(&t[i], c_long);				\
		TREE(&d, self->ch, p_wait, t, n, 4);			\
	} while (0)
#define BAD(errno_, stmt) do {						\
		GOOD(1);						\
		stmt;							\
		EXPECT_EQ(errno_, vgpu_test_submit(self->fd, &d, 1))	\
			TH_LOG("%s", #stmt);				\
	} while (0)

	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	GOOD(1);
	EXPECT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	GOOD(VGPU_MAX_TEMPLATES);
	EXPECT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	/* templates pointer */
	BAD(EFAULT, d.templates = 8);
	BAD(EFAULT, d.templates = 0);
	/* (a program without LAUNCH: only the field is wrong) */
	BAD(EINVAL, (d.program = (uintptr_t)c_long, d.num_insns = 4,
		     d.num_templates = 0));
	BAD(EINVAL, (d.program = (uintptr_t)c_long, d.num_insns = 4,
		     d.num_templates = 0, d.templates = 0));	/* size */
	/* num_templates */
	BAD(EINVAL, d.num_templates = VGPU_MAX_TEMPLATES + 1);
	BAD(EINVAL, d.num_templates = ~0U);
	/* template_size */
	BAD(EINVAL, d.template_size = 0);
	BAD(EINVAL, d.template_size = VGPU_TEMPLATE_SIZE_VER0 - 8);
	BAD(EINVAL, d.template_size = VGPU_TEMPLATE_SIZE_VER0 + 4);
	BAD(EINVAL, d.template_size = 8192);
	/* child_budget */
	BAD(EINVAL, d.child_budget = VGPU_MAX_CHILDREN + 1);
	BAD(EINVAL, d.child_budget = ~0U);
	/* the template itself */
	BAD(EINVAL, t[0].flags = VGPU_KERNEL_THROTTLE);
	BAD(EINVAL, t[0].flags = VGPU_KERNEL_PRIORITY);
	BAD(EINVAL, t[0].flags = 1u << 31);
	BAD(EINVAL, t[0].grid = 0);
	BAD(EINVAL, t[0].grid = VGPU_MAX_GRID + 1);
	BAD(EINVAL, t[0].threads = 0);
	BAD(EINVAL, t[0].threads = 1025);
	BAD(EINVAL, t[0].regs = 0);
	BAD(EINVAL, t[0].regs = 256);
	BAD(EINVAL, t[0].smem = 1 << 20);
	BAD(EINVAL, t[0].num_insns = 0);
	BAD(EINVAL, t[0].num_insns = VGPU_ISA_MAX_INSNS + 1);
	BAD(EINVAL, (t[0].program = (uintptr_t)no_exit, t[0].num_insns = 1));
	BAD(EFAULT, t[0].program = 0);
	BAD(E2BIG, (t[0].threads = 1024, t[0].regs = 255));
	/* LAUNCH of a template that does not exist */
	BAD(EINVAL, VGPU_PROG(&d, launch1));
	BAD(EINVAL, (t[0].program = (uintptr_t)launch1, t[0].num_insns = 2));
	/* no LAUNCH in an independent kernel or template (F24 split) */
	BAD(EINVAL, d.flags = VGPU_KERNEL_INDEPENDENT);
	BAD(EINVAL, (t[0].flags = VGPU_KERNEL_INDEPENDENT,
		     t[0].program = (uintptr_t)self_wait, t[0].num_insns = 2));
	/* an independent template without LAUNCH is fine */
	GOOD(1);
	t[0].flags = VGPU_KERNEL_INDEPENDENT | VGPU_KERNEL_SEQUENTIAL;
	EXPECT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	/* size-versioned templates: zero trailing bytes are fine */
	TMPL(&big.t, c_long);
	big.ext = 0;
	TREE(&d, self->ch, p_wait, &big, 1, 1);
	d.template_size = sizeof(big);
	EXPECT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	TREE(&d, self->ch, p_wait, &big, 1, 1);
	d.template_size = sizeof(big);
	big.ext = 1;
	EXPECT_EQ(E2BIG, vgpu_test_submit(self->fd, &d, 1));
	EXPECT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
#undef BAD
#undef GOOD
}

/* A child budget reserves its descriptors against kernels_per_file. */
TEST_F(child, budget_charged_to_the_file)
{
	struct vgpu_submit_desc d;
	struct vgpu_template t;
	struct vgpu_info info = vgpu_test_info(self->fd);
	int i;

	ASSERT_EQ(4096, info.max_kernels_per_file);
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	TMPL(&t, c_long);
	for (i = 0; i < 3; i++) {
		TREE(&d, self->ch, p_wait, &t, 1, VGPU_MAX_CHILDREN);
		ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	}
	/* 3 x (1 + 1024) = 3075: one more budget of 1024 does not fit */
	TREE(&d, self->ch, p_wait, &t, 1, VGPU_MAX_CHILDREN);
	EXPECT_EQ(ENOSPC, vgpu_test_submit(self->fd, &d, 1));
	TREE(&d, self->ch, p_wait, &t, 1, 1020);
	EXPECT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	TREE(&d, self->ch, p_wait, &t, 1, 0);
	EXPECT_EQ(ENOSPC, vgpu_test_submit(self->fd, &d, 1));
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
}

/*
 * The kernel table shows children with their parent and depth, the
 * parent its suspended block; CANCEL of the parent stops the whole tree.
 */
TEST_F(child, debugfs_and_cancel)
{
	struct vgpu_kernel_query q;
	struct vgpu_submit_desc d;
	struct vgpu_template t;
	char want[128];
	unsigned int pid = 0;

	TMPL(&t, c_spin);
	TREE(&d, self->ch, p_wait, &t, 1, 1);
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	ASSERT_TRUE(table_holds(2));
	ASSERT_EQ(1, sscanf(strchr(vgpu_buf, '\n') + 1, "#%*[^\n]\n%u", &pid));
	/* the child: parent, depth 1 */
	snprintf(want, sizeof(want), " %u 1 0 0 0 -\n", pid);
	EXPECT_NE(NULL, strstr(vgpu_buf, "\n2147483648 "));
	EXPECT_NE(NULL, strstr(vgpu_buf, want)) TH_LOG("%s", vgpu_buf);
	/* the parent: no parent, depth 0, one child, one suspended block */
	EXPECT_NE(NULL, strstr(vgpu_buf, " - 0 1 1 0 -\n")) TH_LOG("%s", vgpu_buf);
	ASSERT_EQ(0, vgpu_test_cancel(self->fd, d.handle));
	ASSERT_EQ(0, vgpu_test_query(self->fd, d.handle, 0, &q));
	EXPECT_EQ(VGPU_KSTATE_CANCELLED, q.state);
	EXPECT_EQ(-ECANCELED, q.error);
	EXPECT_TRUE(table_holds(0));
}

/* Closing the file with a tree in flight frees everything. */
TEST_F(child, close_with_children_in_flight)
{
	struct vgpu_submit_desc d;
	struct vgpu_template t[2];
	struct vgpu_info before, after;
	int probe = vgpu_test_open(DEV);

	ASSERT_LE(0, probe);
	before = vgpu_test_info(probe);
	TMPL(&t[0], wait1);
	TMPL(&t[1], c_spin);
	TREE(&d, self->ch, p_wait, t, 2, 16);
	d.grid = 3;
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	/* the kernel, 3 children waiting for 3 spinning grandchildren */
	ASSERT_TRUE(table_holds(7));
	close(self->fd);
	self->fd = -1;
	EXPECT_TRUE(table_holds(0));
	after = vgpu_test_info(probe);
	EXPECT_EQ(before.live_kernels, after.live_kernels);
	EXPECT_EQ(before.live_channels - 1, after.live_channels);
	close(probe);
}

/* kill -9 of a process blocked in WAIT on a tree leaves nothing behind. */
TEST_F(child, kill_9_with_children_in_flight)
{
	int status, pipefd[2];
	pid_t pid;
	char c;

	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct vgpu_submit_desc d;
		struct vgpu_template t;
		int fd = vgpu_test_open(DEV);
		__u32 ch = 0;

		if (fd < 0 || vgpu_test_channel(fd, 2, 0, &ch))
			_exit(1);
		TMPL(&t, c_spin);
		TREE(&d, ch, p_wait, &t, 1, 4);
		d.grid = 4;
		if (vgpu_test_submit(fd, &d, 1) ||
		    write(pipefd[1], "x", 1) != 1)
			_exit(2);
		vgpu_test_wait(fd, &d.handle, 1, 0, VGPU_WAIT_FOREVER, NULL);
		_exit(3);
	}
	ASSERT_EQ(1, read(pipefd[0], &c, 1));
	ASSERT_TRUE(table_holds(5));
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_TRUE(table_holds(0));
	ASSERT_LT(0, slurp(DBG "stats"));
	EXPECT_EQ(4, keyval("children"));
	EXPECT_EQ(1, keyval("cancelled"));
	close(pipefd[0]);
	close(pipefd[1]);
}

TEST_HARNESS_MAIN
