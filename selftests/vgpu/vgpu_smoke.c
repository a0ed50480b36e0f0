// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_smoke.c - smoketest of the module (F50-F53, F60): one process
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
/* harness timeout: room for make soak's 30 minutes and the final drain */
#define SMOKE_TIMEOUT	4200

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
	__u32 bad_state;	/* the first kernel that did not complete */
	__s32 bad_error;
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
		if (err || q.state != VGPU_KSTATE_DONE || q.error) {
			if (!c->bad++) {
				c->bad_state = err ? ~0U : q.state;
				c->bad_error = err ? -err : q.error;
			}
		} else
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

TEST_F_TIMEOUT(smoke, random_kernels, SMOKE_TIMEOUT)
{
	const char *env = getenv("VGPU_SMOKE_SECONDS");
	int seconds = env ? atoi(env) : 60, nproc = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long submitted = 0, completed = 0;
	struct smoke_counts c;
	struct vgpu_info info;
	int p[2], i, status, probe;
	pid_t pid;

	ASSERT_GE(SMOKE_TIMEOUT - 600, seconds)
		TH_LOG("VGPU_SMOKE_SECONDS=%d is over the harness timeout", seconds);
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
		if (c.bad)
			TH_LOG("%lu bad; the first ended in state %u, error %d",
			       c.bad, c.bad_state, c.bad_error);
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

/*
 * Fault injection (Documentation/testing.rst "Fault injection").
 *
 * failslab: the same random submitters as random_kernels, plus a process
 * that creates and deletes device FI_DEV, run with /proc/self/make-it-fail
 * set and failslab's task filter on, so that 10 % of the slab allocations
 * made on behalf of these processes -- in practice the module's own, in
 * open(), CHANNEL_CREATE, SUBMIT, WAIT and new_device, plus the kernel
 * code they call (xarray, kthread_create, misc_register, sysfs) -- fail.
 * The first submitter also arms the debugfs knobs fail_alloc and
 * fail_submit of /dev/vgpu0 now and then, only when it reads them at 0: a
 * write sets a knob (it does not add), so arming one that still holds
 * units, or two processes arming at once, would lose units and the count
 * of those consumed would be wrong.  Each call must succeed or fail with
 * ENOMEM or an errno uapi.rst documents for it in this situation; every
 * submitted kernel must complete; afterwards, with the faults off, the
 * device is back to zero live objects and works (a submit and wait, a
 * new device).  kmemleak is checked by scripts/vm-run.
 *
 * fail_nth: every allocation of open(), CHANNEL_CREATE, SUBMIT, a long
 * WAIT, new_device and del_device is failed in turn through
 * /proc/thread-self/fail-nth (the first, then the second, ... until the
 * call makes fewer allocations than that); each call must then fail
 * with ENOMEM and leave nothing behind, or succeed.
 */
#define FI_FAILSLAB	"/sys/kernel/debug/failslab/"
#define FI_KNOBS	"/sys/kernel/debug/vgpu/vgpu0/"
#define FI_DEV		11
#define FI_TIMES	1000000000L
#define FI_PERCENT	10

enum { FI_OPEN, FI_CHANNEL, FI_SUBMIT, FI_WAIT, FI_QUERY, FI_NEWDEV,
       FI_DELDEV, FI_KNOB, FI_NOPS };

static const char * const fi_op_names[FI_NOPS] = {
	"open", "channel_create", "submit", "wait", "query", "new_device",
	"del_device", "knob_write",
};

/* Counts a fault-injection child reports through its pipe. */
struct fi_counts {
	unsigned long calls[FI_NOPS];
	unsigned long ok[FI_NOPS];
	unsigned long enomem[FI_NOPS];
	unsigned long eagain;		/* SUBMIT: fail_submit or queue full */
	unsigned long etime;		/* WAIT with a deadline */
	unsigned long ebusy;		/* QUERY_RELEASE of a running kernel */
	unsigned long armed[2];		/* fail_alloc, fail_submit units */
	unsigned long submitted, completed, bad;
	int bad_op, bad_err;		/* the first unexpected result */
	__u32 bad_state;		/* the first kernel that did not */
	__s32 bad_kerr;			/* complete: its state and error */
};

/* Read a small debugfs / proc file as a number; -1 if unreadable. */
static long fi_read_long(const char *path)
{
	char buf[32] = "";
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? strtol(buf, NULL, 10) : -1;
}

/*
 * Write a string at offset 0 of a file opened beforehand (opening it under
 * faults could fail); write() where the file cannot seek (debugfs
 * attributes).  0 or the errno.
 */
static int fi_put(int fd, const char *s)
{
	ssize_t n = pwrite(fd, s, strlen(s), 0);

	if (n < 0 && errno == ESPIPE)
		n = write(fd, s, strlen(s));
	return n == (ssize_t)strlen(s) ? 0 : errno;
}

/* Record one result of @op: @err must be 0, ENOMEM or in @also (0-ended). */
static int fi_note(struct fi_counts *c, int op, int err, const int *also)
{
	c->calls[op]++;
	if (!err) {
		c->ok[op]++;
		return 0;
	}
	if (err == ENOMEM) {
		c->enomem[op]++;
		return err;
	}
	for (; also && *also; also++)
		if (err == *also)
			return err;
	if (!c->bad_err) {
		c->bad_op = op;
		c->bad_err = err;
	}
	c->bad++;
	return err;
}

static const int fi_submit_errs[] = { EAGAIN, 0 };
static const int fi_wait_errs[] = { ETIME, 0 };
static const int fi_query_errs[] = { EBUSY, 0 };

static int fi_reap(int fd, __u32 *h, int n, struct fi_counts *c)
{
	struct vgpu_kernel_query q;
	int i, m = 0, err;

	for (i = 0; i < n; i++) {
		err = fi_note(c, FI_QUERY,
			      vgpu_test_query(fd, h[i], VGPU_QUERY_RELEASE, &q),
			      fi_query_errs);
		if (err == EBUSY) {
			c->ebusy++;
			h[m++] = h[i];
		} else if (!err && q.state == VGPU_KSTATE_DONE && !q.error) {
			c->completed++;
		} else if (!err) {
			if (!c->bad++) {
				c->bad_state = q.state;
				c->bad_kerr = q.error;
			}
		} else {
			h[m++] = h[i];	/* ENOMEM cannot happen; bad counted */
		}
	}
	return m;
}

/* Child: smoke_child under faults; @arms: arming the knobs of /dev/vgpu0. */
static void fi_submitter(int out, unsigned int seed, int seconds, bool arms)
{
	static const char *const knob_path[2] = {
		FI_KNOBS "fail_alloc", FI_KNOBS "fail_submit",
	};
	int mif = open("/proc/self/make-it-fail", O_WRONLY | O_CLOEXEC);
	struct fi_counts c = { 0 };
	__u32 ch[SMOKE_CHANNELS], h[SMOKE_INFLIGHT];
	__s64 end = vgpu_test_now_ns() + (__s64)seconds * 1000000000LL;
	int knob[2] = { open(knob_path[0], O_WRONLY | O_CLOEXEC),
			open(knob_path[1], O_WRONLY | O_CLOEXEC) };
	struct vgpu_submit_desc d[8];
	int fd = -1, i, n = 0, batch, err, k;
	char num[8];

	if (mif < 0 || knob[0] < 0 || knob[1] < 0 || fi_put(mif, "1"))
		_exit(10);
	while (fd < 0 && !c.bad) {
		fd = vgpu_test_open(0);
		fi_note(&c, FI_OPEN, fd < 0 ? errno : 0, NULL);
	}
	for (i = 0; i < SMOKE_CHANNELS && !c.bad; )
		if (!fi_note(&c, FI_CHANNEL,
			     vgpu_test_channel(fd, rand_r(&seed) % 4, 0, &ch[i]),
			     NULL))
			i++;
	while (vgpu_test_now_ns() < end && !c.bad) {
		if (arms && !(rand_r(&seed) % 16)) {
			k = rand_r(&seed) % 2;
			snprintf(num, sizeof(num), "%d", 1 + rand_r(&seed) % 2);
			if (fi_read_long(knob_path[k]) == 0 &&
			    !fi_note(&c, FI_KNOB, fi_put(knob[k], num), NULL))
				c.armed[k] += atoi(num);
		}
		batch = 1 + rand_r(&seed) % 8;
		if (n + batch > SMOKE_INFLIGHT)
			batch = SMOKE_INFLIGHT - n;
		for (i = 0; i < batch; i++)
			smoke_desc(&d[i], ch[rand_r(&seed) % SMOKE_CHANNELS], &seed);
		err = batch ? fi_note(&c, FI_SUBMIT, vgpu_test_submit(fd, d, batch),
				      fi_submit_errs) : -1;
		if (!err) {
			for (i = 0; i < batch; i++)
				h[n++] = d[i].handle;
			c.submitted += batch;
		} else if (err == EAGAIN) {
			c.eagain++;
		}
		if (n && fi_note(&c, FI_WAIT,
				 vgpu_test_wait(fd, h, n, 0, vgpu_test_now_ns() +
						1000000000LL, NULL),
				 fi_wait_errs) == ETIME)
			c.etime++;
		n = fi_reap(fd, h, n, &c);
	}
	while (n && !c.bad) {
		fi_note(&c, FI_WAIT, vgpu_test_wait(fd, h, n, VGPU_WAIT_ALL,
						    VGPU_WAIT_FOREVER, NULL),
			NULL);
		n = fi_reap(fd, h, n, &c);
	}
	if (fi_put(mif, "0"))
		_exit(13);
	if (fd >= 0)
		close(fd);
	if (write(out, &c, sizeof(c)) != sizeof(c))
		_exit(12);
	_exit(0);
}

/* Child: create and delete /dev/vgpu<FI_DEV> under faults. */
static void fi_churn(int out, int seconds)
{
	int mif = open("/proc/self/make-it-fail", O_WRONLY | O_CLOEXEC);
	struct fi_counts c = { 0 };
	__s64 end = vgpu_test_now_ns() + (__s64)seconds * 1000000000LL;
	int nd = open("/sys/bus/vgpu/new_device", O_WRONLY | O_CLOEXEC);
	int dd = open("/sys/bus/vgpu/del_device", O_WRONLY | O_CLOEXEC);
	static const int del_errs[] = { 0 };
	char id[16];

	snprintf(id, sizeof(id), "%d", FI_DEV);
	if (mif < 0 || nd < 0 || dd < 0 || fi_put(mif, "1"))
		_exit(10);
	while (vgpu_test_now_ns() < end && !c.bad) {
		if (fi_note(&c, FI_NEWDEV, fi_put(nd, id), NULL))
			continue;
		/* created: deleting it may only fail for lack of memory */
		while (fi_note(&c, FI_DELDEV, fi_put(dd, id), del_errs) == ENOMEM)
			;
	}
	if (fi_put(mif, "0"))
		_exit(13);
	if (write(out, &c, sizeof(c)) != sizeof(c))
		_exit(12);
	_exit(0);
}

static int fi_config(const char *file, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), FI_FAILSLAB "%s", file);
	return vgpu_test_sysfs(path, val);
}

/* Faults off: a normal open, channel, submit, wait and query succeed. */
static int fi_usable(struct __test_metadata *_metadata)
{
	struct vgpu_kernel_query q;
	struct vgpu_submit_desc d;
	int fd = vgpu_test_open(0);
	__u32 ch = 0;

	if (fd < 0)
		return errno;
	EXPECT_EQ(0, vgpu_test_channel(fd, 1, 0, &ch));
	VGPU_DESC(&d, ch, smoke_lock);
	d.grid = 4;
	EXPECT_EQ(0, vgpu_test_submit(fd, &d, 1));
	EXPECT_EQ(0, vgpu_test_wait(fd, &d.handle, 1, 0, VGPU_WAIT_FOREVER, NULL));
	EXPECT_EQ(0, vgpu_test_query(fd, d.handle, VGPU_QUERY_RELEASE, &q));
	EXPECT_EQ(VGPU_KSTATE_DONE, q.state);
	EXPECT_EQ(0, q.error);
	close(fd);
	return 0;
}

FIXTURE(faults) {
	int dummy;
};

FIXTURE_SETUP(faults)
{
}

FIXTURE_TEARDOWN(faults)
{
	/* whatever happened, leave the kernel without injected faults */
	fi_config("probability", "0");
	fi_config("ignore-gfp-wait", "Y");
	fi_config("task-filter", "N");
}

TEST_F_TIMEOUT(faults, failslab, SMOKE_TIMEOUT)
{
	const char *env = getenv("VGPU_SMOKE_FAULT_SECONDS");
	int seconds = env ? atoi(env) : 20, nproc = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long injected, consumed, arms[2] = { 0, 0 }, submit_fails, calls = 0;
	struct fi_counts c, sum = { 0 };
	int p[2], i, op, status, probe;
	long times_left, knob_left[2];
	struct vgpu_info info;
	char id[16];
	pid_t pid;

	if (access(FI_FAILSLAB "probability", W_OK))
		SKIP(return, "no failslab (CONFIG_FAILSLAB, debug kernel only)");
	ASSERT_GE(SMOKE_TIMEOUT - 600, seconds);
	snprintf(id, sizeof(id), "%ld", FI_TIMES);
	ASSERT_EQ(0, fi_config("task-filter", "Y"));
	ASSERT_EQ(0, fi_config("ignore-gfp-wait", "N"));
	ASSERT_EQ(0, fi_config("cache-filter", "N"));
	ASSERT_EQ(0, fi_config("verbose", "0"));	/* no stack dumps */
	ASSERT_EQ(0, fi_config("interval", "1"));
	ASSERT_EQ(0, fi_config("space", "0"));
	ASSERT_EQ(0, fi_config("times", id));
	snprintf(id, sizeof(id), "%d", FI_PERCENT);
	ASSERT_EQ(0, fi_config("probability", id));

	ASSERT_EQ(0, pipe(p));
	for (i = 0; i <= nproc; i++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid && i < nproc)
			fi_submitter(p[1], 4321 + i, seconds, !i);
		if (!pid)
			fi_churn(p[1], seconds);
	}
	close(p[1]);
	for (i = 0; i <= nproc; i++) {
		ASSERT_EQ(sizeof(c), read(p[0], &c, sizeof(c)));
		if (c.bad_err)
			TH_LOG("%s: unexpected result %s (%lu such)",
			       fi_op_names[c.bad_op], strerror(c.bad_err), c.bad);
		else if (c.bad)
			TH_LOG("a kernel ended in state %u, error %d (%lu such)",
			       c.bad_state, c.bad_kerr, c.bad);
		EXPECT_EQ(0, c.bad);
		EXPECT_EQ(c.submitted, c.completed);
		for (op = 0; op < FI_NOPS; op++) {
			sum.calls[op] += c.calls[op];
			sum.ok[op] += c.ok[op];
			sum.enomem[op] += c.enomem[op];
		}
		sum.eagain += c.eagain;
		sum.etime += c.etime;
		sum.ebusy += c.ebusy;
		sum.submitted += c.submitted;
		arms[0] += c.armed[0];
		arms[1] += c.armed[1];
	}
	for (i = 0; i <= nproc; i++) {
		ASSERT_LT(0, wait(&status));
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	}
	/* faults off before anything else allocates */
	ASSERT_EQ(0, fi_config("probability", "0"));
	times_left = fi_read_long(FI_FAILSLAB "times");
	ASSERT_EQ(0, fi_config("ignore-gfp-wait", "Y"));
	ASSERT_EQ(0, fi_config("task-filter", "N"));
	knob_left[0] = fi_read_long(FI_KNOBS "fail_alloc");
	knob_left[1] = fi_read_long(FI_KNOBS "fail_submit");
	EXPECT_EQ(0, vgpu_test_sysfs(FI_KNOBS "fail_alloc", "0"));
	EXPECT_EQ(0, vgpu_test_sysfs(FI_KNOBS "fail_submit", "0"));

	injected = FI_TIMES - times_left;
	consumed = arms[0] - knob_left[0] + arms[1] - knob_left[1];
	for (op = 0; op < FI_NOPS; op++) {
		TH_LOG("%-14s %8lu calls, %7lu ok, %6lu ENOMEM", fi_op_names[op],
		       sum.calls[op], sum.ok[op], sum.enomem[op]);
		calls += sum.calls[op];
	}
	TH_LOG("%lu calls, %lu faults injected by failslab, %lu by the knobs; "
	       "EAGAIN %lu, ETIME %lu, EBUSY %lu; %lu kernels completed",
	       calls, injected, consumed, sum.eagain, sum.etime,
	       sum.ebusy, sum.submitted);
	EXPECT_LT(0, injected);
	EXPECT_LT(0, sum.submitted);
	/* each knob unit consumed failed one SUBMIT (ENOMEM or EAGAIN) */
	submit_fails = sum.enomem[FI_SUBMIT] + sum.eagain;
	EXPECT_LE(consumed, submit_fails);

	/* nothing left behind, and the device and the bus still work */
	probe = vgpu_test_open(0);
	ASSERT_LE(0, probe);
	info = vgpu_test_info(probe);
	EXPECT_EQ(0, info.live_kernels);
	EXPECT_EQ(0, info.live_channels);
	close(probe);
	EXPECT_EQ(0, fi_usable(_metadata));
	snprintf(id, sizeof(id), "%d", FI_DEV);
	EXPECT_EQ(ENOENT, vgpu_test_sysfs("/sys/bus/vgpu/del_device", id));
	EXPECT_EQ(0, vgpu_test_sysfs("/sys/bus/vgpu/new_device", id));
	EXPECT_EQ(0, vgpu_test_sysfs("/sys/bus/vgpu/del_device", id));
}

/*
 * The fail_nth walk: a call (0 or its errno) and what undoes its success,
 * run once fail-nth is back to 0.
 */
struct fi_nth {
	int fd;
	__u32 ch;
	int fd2;		/* a fresh file, empty handle tables */
	__u32 ch2;		/* a channel of @fd2 */
	__u32 h[16];		/* WAIT's handles (of @fd) */
	int newfd;		/* open()'s result */
	__u32 newch;		/* CHANNEL_CREATE's result */
	struct vgpu_submit_desc d[4];	/* SUBMIT's kernels */
};

static int fi_call_open(struct fi_nth *t)
{
	t->newfd = vgpu_test_open(0);
	return t->newfd < 0 ? errno : 0;
}

static int fi_undo_open(struct fi_nth *t)
{
	return close(t->newfd);
}

/* On a fresh file: the first handle needs a new node in its xarray. */
static int fi_call_channel(struct fi_nth *t)
{
	return vgpu_test_channel(t->fd2, 2, 0, &t->newch);
}

static int fi_undo_channel(struct fi_nth *t)
{
	struct vgpu_channel_destroy cd = { .handle = t->newch };

	return ioctl(t->fd2, VGPU_IOCTL_CHANNEL_DESTROY, &cd) ? errno : 0;
}

static int fi_call_submit(struct fi_nth *t)
{
	int i;

	for (i = 0; i < 4; i++) {
		VGPU_DESC(&t->d[i], t->ch2, smoke_bar);
		t->d[i].grid = 2;
	}
	return vgpu_test_submit(t->fd2, t->d, 4);
}

static int fi_undo_submit(struct fi_nth *t)
{
	struct vgpu_kernel_query q;
	int i, err = 0;

	for (i = 0; i < 4 && !err; i++)
		err = vgpu_test_wait(t->fd2, &t->d[i].handle, 1, 0,
				     VGPU_WAIT_FOREVER, NULL) ?:
		      vgpu_test_query(t->fd2, t->d[i].handle, VGPU_QUERY_RELEASE, &q);
	return err;
}

static int fi_call_wait(struct fi_nth *t)
{
	return vgpu_test_wait(t->fd, t->h, 16, VGPU_WAIT_ALL, VGPU_WAIT_FOREVER,
			      NULL);
}

static int fi_call_newdev(struct fi_nth *t)
{
	return vgpu_test_sysfs("/sys/bus/vgpu/new_device", "11");
}

static int fi_call_deldev(struct fi_nth *t)
{
	return vgpu_test_sysfs("/sys/bus/vgpu/del_device", "11");
}

TEST_F_TIMEOUT(faults, fail_nth, 600)
{
	static const struct {
		const char *name;
		int (*call)(struct fi_nth *t);
		int (*undo)(struct fi_nth *t);	/* after a success */
		bool newdev;	/* device FI_DEV must exist before the call */
	} calls[] = {
		{ "open", fi_call_open, fi_undo_open, false },
		{ "channel_create", fi_call_channel, fi_undo_channel, false },
		{ "submit", fi_call_submit, fi_undo_submit, false },
		{ "wait", fi_call_wait, NULL, false },
		{ "new_device", fi_call_newdev, fi_call_deldev, false },
		{ "del_device", fi_call_deldev, NULL, true },
	};
	struct vgpu_info before, after;
	struct vgpu_submit_desc d[16];
	struct vgpu_kernel_query q;
	struct fi_nth t = { 0 };
	unsigned long total = 0;
	int nth_fd, i, nth, err;
	char buf[16];
	long left = -1;

	if (access("/proc/thread-self/fail-nth", W_OK) ||
	    access(FI_FAILSLAB "ignore-gfp-wait", W_OK))
		SKIP(return, "no fail-nth / failslab (debug kernel only)");
	ASSERT_EQ(0, fi_config("probability", "0"));
	ASSERT_EQ(0, fi_config("verbose", "0"));
	ASSERT_EQ(0, fi_config("ignore-gfp-wait", "N"));
	t.fd = vgpu_test_open(0);
	ASSERT_LE(0, t.fd);
	ASSERT_EQ(0, vgpu_test_channel(t.fd, 1, 0, &t.ch));
	for (i = 0; i < 16; i++)
		VGPU_DESC(&d[i], t.ch, vgpu_prog_alu);
	ASSERT_EQ(0, vgpu_test_submit(t.fd, d, 16));
	for (i = 0; i < 16; i++)
		t.h[i] = d[i].handle;
	/* finished, so that live_kernels only counts the walk's kernels */
	ASSERT_EQ(0, fi_call_wait(&t));
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, nth_fd);

	for (i = 0; i < ARRAY_SIZE(calls); i++) {
		for (nth = 1; nth < 10000; nth++) {
			if (calls[i].newdev)
				ASSERT_EQ(0, fi_call_newdev(&t));
			t.fd2 = vgpu_test_open(0);
			ASSERT_LE(0, t.fd2);
			if (calls[i].call != fi_call_channel)	/* its first */
				ASSERT_EQ(0, vgpu_test_channel(t.fd2, 1, 0, &t.ch2));
			before = vgpu_test_info(t.fd);
			snprintf(buf, sizeof(buf), "%d", nth);
			ASSERT_EQ(0, fi_put(nth_fd, buf));
			err = calls[i].call(&t);
			memset(buf, 0, sizeof(buf));
			ASSERT_LT(0, pread(nth_fd, buf, sizeof(buf) - 1, 0));
			left = strtol(buf, NULL, 10);
			ASSERT_EQ(0, fi_put(nth_fd, "0"));
			after = vgpu_test_info(t.fd);
			if (err && err != ENOMEM)
				TH_LOG("%s, allocation %d failed: %s",
				       calls[i].name, nth, strerror(err));
			ASSERT_TRUE(!err || err == ENOMEM);
			if (err) {	/* a failed call leaves nothing behind */
				EXPECT_EQ(before.live_channels, after.live_channels);
				EXPECT_EQ(before.live_kernels, after.live_kernels);
				if (calls[i].newdev)	/* still there */
					ASSERT_EQ(0, fi_call_deldev(&t));
			} else if (calls[i].undo) {
				ASSERT_EQ(0, calls[i].undo(&t));
			}
			close(t.fd2);
			if (left)	/* fewer than nth allocations: done */
				break;
			total++;
		}
		TH_LOG("%-14s %d allocations failed in turn", calls[i].name, nth - 1);
		EXPECT_NE(0, left);
	}
	TH_LOG("%lu calls with one allocation failed", total);
	ASSERT_EQ(0, fi_config("ignore-gfp-wait", "Y"));
	close(nth_fd);
	for (i = 0; i < 16; i++)
		EXPECT_EQ(0, vgpu_test_query(t.fd, t.h[i], VGPU_QUERY_RELEASE, &q));
	close(t.fd);
	EXPECT_EQ(0, fi_usable(_metadata));
}

TEST_HARNESS_MAIN
