// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_smoke.c - smoketest of the module (SPEC F50-F53, F60): one process
 * per CPU, several channels each, submitting random kernels with random
 * priorities for VGPU_SMOKE_SECONDS (default 60) seconds.  Every kernel must
 * complete, each process's counts must add up, and the device must be back
 * to zero live objects afterwards.  Run by scripts/vm-guest/run-suite (not a
 * *_test, so it runs once per suite, not also as a 32-bit program).
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "vgpu_test_util.h"
#include "kselftest_harness.h"

#define SMOKE_CHANNELS	3
#define SMOKE_INFLIGHT	64

static const struct vgpu_insn smoke_bar[] = {
	{ .op = VGPU_OP_LOOP, .imm = VGPU_LOOP_IMM(5, 0) },
	{ .op = VGPU_OP_ALU },
	{ .op = VGPU_OP_BAR },
	{ .op = VGPU_OP_ENDLOOP },
	{ .op = VGPU_OP_EXIT },
};

static const struct vgpu_insn smoke_lock[] = {
	{ .op = VGPU_OP_LOOP, .a = VGPU_LOOP_SEL_WID, .b = 4,
	  .imm = VGPU_LOOP_IMM(3, 2) },
	{ .op = VGPU_OP_LOCK, .a = 2 },
	{ .op = VGPU_OP_MMA },
	{ .op = VGPU_OP_UNLOCK, .a = 2 },
	{ .op = VGPU_OP_ENDLOOP },
	{ .op = VGPU_OP_EXIT },
};

/* Counts a child reports through its pipe. */
struct smoke_counts {
	unsigned long submitted;
	unsigned long completed;
	unsigned long bad;
};

static void smoke_desc(struct vgpu_submit_desc *d, __u32 ch, unsigned int *seed)
{
	memset(d, 0, sizeof(*d));
	d->channel = ch;
	d->grid = 1 + rand_r(seed) % 8;
	d->threads = 32 * (1 + rand_r(seed) % 16);
	d->regs = 16 + rand_r(seed) % 48;
	d->flags = VGPU_KERNEL_PRIORITY;
	d->priority = rand_r(seed) % 4;
	switch (rand_r(seed) % 4) {
	case 0:
		VGPU_PROG(d, smoke_bar);
		break;
	case 1:
		VGPU_PROG(d, smoke_lock);
		break;
	case 2:
		VGPU_PROG(d, vgpu_prog_empty);
		break;
	default:
		VGPU_PROG(d, vgpu_prog_alu);
		break;
	}
}

/* Release every finished kernel of @h; returns how many remain. */
static int smoke_reap(int fd, __u32 *h, int n, struct smoke_counts *c)
{
	struct vgpu_kernel_query q;
	int i, m = 0;

	for (i = 0; i < n; i++) {
		int err = vgpu_test_query(fd, h[i], VGPU_QUERY_RELEASE, &q);

		if (err == EBUSY) {
			h[m++] = h[i];
			continue;
		}
		if (err || q.state != VGPU_KSTATE_DONE || q.error)
			c->bad++;
		else
			c->completed++;
	}
	return m;
}

static void smoke_child(int out, unsigned int seed, int seconds)
{
	struct smoke_counts c = { 0 };
	__u32 ch[SMOKE_CHANNELS], h[SMOKE_INFLIGHT];
	__s64 end = vgpu_test_now_ns() + (__s64)seconds * 1000000000LL;
	struct vgpu_submit_desc d[8];
	int fd = vgpu_test_open(0), i, n = 0, batch;

	if (fd < 0)
		_exit(10);
	for (i = 0; i < SMOKE_CHANNELS; i++)
		if (vgpu_test_channel(fd, rand_r(&seed) % 4, 0, &ch[i]))
			_exit(11);
	while (vgpu_test_now_ns() < end) {
		batch = 1 + rand_r(&seed) % 8;
		if (n + batch > SMOKE_INFLIGHT)
			batch = SMOKE_INFLIGHT - n;
		for (i = 0; i < batch; i++)
			smoke_desc(&d[i], ch[rand_r(&seed) % SMOKE_CHANNELS], &seed);
		if (batch && !vgpu_test_submit(fd, d, batch)) {
			for (i = 0; i < batch; i++)
				h[n++] = d[i].handle;
			c.submitted += batch;
		}
		if (n && vgpu_test_wait(fd, h, n, 0, vgpu_test_now_ns() + 1000000000LL,
					NULL) && errno != ETIME)
			c.bad++;
		n = smoke_reap(fd, h, n, &c);
	}
	while (n) {
		if (vgpu_test_wait(fd, h, n, VGPU_WAIT_ALL, VGPU_WAIT_FOREVER, NULL))
			c.bad++;
		n = smoke_reap(fd, h, n, &c);
	}
	close(fd);
	if (write(out, &c, sizeof(c)) != sizeof(c))
		_exit(12);
	_exit(0);
}

FIXTURE(smoke) {
	int dummy;
};

FIXTURE_SETUP(smoke)
{
}

FIXTURE_TEARDOWN(smoke)
{
}

TEST_F_TIMEOUT(smoke, random_kernels, 1200)
{
	const char *env = getenv("VGPU_SMOKE_SECONDS");
	int seconds = env ? atoi(env) : 60, nproc = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long submitted = 0, completed = 0;
	struct smoke_counts c;
	struct vgpu_info info;
	int p[2], i, status, probe;
	pid_t pid;

	ASSERT_EQ(0, pipe(p));
	for (i = 0; i < nproc; i++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid)
			smoke_child(p[1], 1234 + i, seconds);
	}
	close(p[1]);
	for (i = 0; i < nproc; i++) {
		ASSERT_EQ(sizeof(c), read(p[0], &c, sizeof(c)));
		EXPECT_EQ(0, c.bad);
		EXPECT_EQ(c.submitted, c.completed);
		submitted += c.submitted;
		completed += c.completed;
	}
	for (i = 0; i < nproc; i++) {
		ASSERT_LT(0, wait(&status));
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	}
	TH_LOG("%d processes, %lu kernels submitted, %lu completed in %d s",
	       nproc, submitted, completed, seconds);
	EXPECT_LT(0, submitted);
	probe = vgpu_test_open(0);
	ASSERT_LE(0, probe);
	info = vgpu_test_info(probe);
	EXPECT_EQ(0, info.live_kernels);
	EXPECT_EQ(0, info.live_channels);
	close(probe);
}

TEST_HARNESS_MAIN
