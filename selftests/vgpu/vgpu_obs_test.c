// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_obs_test.c - debugfs views and knobs, tracepoints and fdinfo
 * (F62, F64, F65) on a private device instance (vgpu7, preset "small": 4
 * SMs, 4 sub-partitions of 64 register units, 1312 shared memory units,
 * 4 priorities, default priority 2).
 */
#include <stdlib.h>
#include <sys/stat.h>

#include "vgpu_test_util.h"
#include "kselftest_harness.h"

#define DEV	7
#define DBG	"/sys/kernel/debug/vgpu/vgpu7/"
#define TR	"/sys/kernel/tracing/"

static char vgpu_buf[1 << 18];

/* The whole file in vgpu_buf; its length, or -errno. */
static int slurp(const char *path)
{
	return vgpu_test_slurp(path, vgpu_buf, sizeof(vgpu_buf));
}

static int put(const char *path, const char *s)
{
	return vgpu_test_sysfs(path, s);
}

/* Value of "key value" (debugfs) or "key:\tvalue" (fdinfo) lines. */
static long long keyval(const char *text, const char *key)
{
	return vgpu_test_keyval(text, key);
}

/* Count lines of @text starting with @prefix. */
static int lines_with(const char *text, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p = text;
	int c = 0;

	while (p && *p) {
		if (!strncmp(p, prefix, n))
			c++;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return c;
}

static __u32 submit(int fd, __u32 ch, const struct vgpu_insn *p, __u32 n,
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
	return vgpu_test_submit(fd, &d, 1) ? ~0U : d.handle;
}

#define SUBMIT(fd, ch, prog, grid) \
	submit(fd, ch, prog, sizeof(prog) / sizeof((prog)[0]), grid)

/*
 * Poll until block 0 of kernel @id is resident on SM 0 and its warps run
 * (bounded).  The block table itself is the ground truth: QUERY of a kernel
 * the controller has not taken in yet is no proof of anything.
 */
static int resident(__u32 id)
{
	char want[64];
	long i;

	snprintf(want, sizeof(want), "\n0 %u 0 2 block 4 0 4 0 ", id);
	for (i = 0; i < 1000000L; i++) {
		if (slurp(DBG "blocks/sm0") < 0)
			return 0;
		if (strstr(vgpu_buf, want))
			return 1;
	}
	return 0;
}

FIXTURE(obs) {
	int fd;
	__u32 ch;
};

FIXTURE_SETUP(obs)
{
	put("/sys/bus/vgpu/del_device", "7");
	ASSERT_EQ(0, put("/sys/bus/vgpu/new_device", "7 small"));
	self->fd = vgpu_test_open(DEV);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, vgpu_test_channel(self->fd, 2, 0, &self->ch));
}

FIXTURE_TEARDOWN(obs)
{
	close(self->fd);
	put("/sys/bus/vgpu/del_device", "7");
}

/*
 * A spinning block on SM 0, the gate closed, then a batch of three: the
 * exact rows of every view.
 */
TEST_F(obs, views_after_gated_batch)
{
	__u32 spin, h[3], i;
	char want[256];

	ASSERT_LT(0, slurp(DBG "config"));
	EXPECT_EQ(4, keyval(vgpu_buf, "num_sms"));
	EXPECT_NE(NULL, strstr(vgpu_buf, "name vgpu7\npreset small\n"));
	EXPECT_NE(NULL, strstr(vgpu_buf, "\nwindows 4096 2048 1024 512\n"));

	spin = SUBMIT(self->fd, self->ch, vgpu_prog_spin, 1);
	ASSERT_NE(~0U, spin);
	ASSERT_TRUE(resident(0));
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_CLOSE, NULL));
	for (i = 0; i < 3; i++) {
		h[i] = SUBMIT(self->fd, self->ch, vgpu_prog_alu, 2);
		ASSERT_NE(~0U, h[i]);
	}

	/*
	 * The spinning block keeps the clock going; the head of the channel
	 * is admitted to the task table within an epoch or two, then nothing
	 * changes while the gate is closed.
	 */
	for (i = 0; i < 1000000; i++) {
		ASSERT_LT(0, slurp(DBG "tasks"));
		if (strstr(vgpu_buf, "\n0 1 2 active "))
			break;
	}
	EXPECT_EQ(1, lines_with(vgpu_buf, "0 1 2 active "));
	EXPECT_EQ(31, lines_with(vgpu_buf, "") - 2);
	for (i = 1; i < 32; i++) {
		snprintf(want, sizeof(want), "%u - - free - 0\n", i);
		EXPECT_EQ(1, lines_with(vgpu_buf, want));
	}

	/* kernel table (F12): ids 0..3 in submission order */
	ASSERT_LT(0, slurp(DBG "kernels"));
	EXPECT_NE(NULL, strstr(vgpu_buf, "# 4 kernels at cycle"));
	EXPECT_EQ(1, lines_with(vgpu_buf,
				"0 0 2 2 draining 1 1 1 1 0 0 - 0 0 0 - 0 0 0 0 -\n"))
		TH_LOG("%s", vgpu_buf);
	EXPECT_EQ(1, lines_with(vgpu_buf, "1 0 2 2 active 2 2 0 0 0 0 0 "));
	EXPECT_EQ(1, lines_with(vgpu_buf, "2 0 2 2 queued 2 2 0 0 0 0 - "));
	EXPECT_EQ(1, lines_with(vgpu_buf, "3 0 2 2 queued 2 2 0 0 0 0 - "));

	/* channel FIFO (F11) */
	ASSERT_LT(0, slurp(DBG "channels"));
	EXPECT_NE(NULL, strstr(vgpu_buf, "\n0 2 0x")) TH_LOG("%s", vgpu_buf);
	EXPECT_NE(NULL, strstr(vgpu_buf, " 2 3\n")) TH_LOG("%s", vgpu_buf);

	/* SM table: SM 0 runs priority 2, the others are empty */
	ASSERT_LT(0, slurp(DBG "sm"));
	EXPECT_EQ(1, lines_with(vgpu_buf, "0 2 "));
	EXPECT_EQ(1, lines_with(vgpu_buf, "1 - "));
	EXPECT_NE(NULL, strstr(vgpu_buf, " 60 1/32 0/32 1304 60,60,60,60 0 ready 0 0 |"))
		TH_LOG("%s", vgpu_buf);

	/* block table of SM 0: 4 warps, one per sub-partition, at unit 0 */
	ASSERT_LT(0, slurp(DBG "blocks/sm0"));
	EXPECT_EQ(1, lines_with(vgpu_buf, "0 0 0 2 block 4 0 4 0 0 0 0 | 0:0 1:0 2:0 3:0\n"))
		TH_LOG("%s", vgpu_buf);
	ASSERT_LT(0, slurp(DBG "blocks/sm1"));
	EXPECT_EQ(2, lines_with(vgpu_buf, "#"));
	EXPECT_EQ(2, lines_with(vgpu_buf, ""));

	/* bitmaps: 32 regs x 32 threads = 4 units per warp; 1 KiB reserve */
	ASSERT_LT(0, slurp(DBG "bitmaps"));
	memset(want, 0, sizeof(want));
	strcpy(want, "sm0 regs0 ####");
	memset(want + 14, '.', 60);
	strcat(want, " free 60 run 60\n");
	EXPECT_NE(NULL, strstr(vgpu_buf, want)) TH_LOG("%s", want);
	memcpy(want, "sm0 regs3", 9);
	EXPECT_NE(NULL, strstr(vgpu_buf, want));
	EXPECT_NE(NULL, strstr(vgpu_buf, "sm0 smem ########.........."));
	EXPECT_NE(NULL, strstr(vgpu_buf, ". free 1304 run 1304\n"));
	EXPECT_EQ(20, lines_with(vgpu_buf, "sm"));
	strcpy(want, "sm1 regs0 ");
	memset(want + 10, '.', 64);
	strcpy(want + 74, " free 64 run 64\n");
	EXPECT_NE(NULL, strstr(vgpu_buf, want));

	/* mutexes: the block's lock words are free, its FIFO empty */
	ASSERT_LT(0, slurp(DBG "mutexes"));
	EXPECT_EQ(1, lines_with(vgpu_buf, "0 0 0 0 | 0:- "));

	ASSERT_LT(0, slurp(DBG "stats"));
	EXPECT_EQ(4, keyval(vgpu_buf, "submitted"));
	EXPECT_EQ(4, keyval(vgpu_buf, "live"));
	EXPECT_EQ(1, keyval(vgpu_buf, "blocks"));

	ASSERT_EQ(19, slurp(DBG "trace_hash"));
	EXPECT_EQ(0, strncmp(vgpu_buf, "0x", 2));

	ASSERT_LT(0, slurp(DBG "windows"));
	EXPECT_EQ(4, keyval(vgpu_buf, "num_windows"));
	EXPECT_EQ(7680, keyval(vgpu_buf, "period"));

	/* let it all go: everything finishes, the tables empty */
	ASSERT_EQ(0, vgpu_test_cancel(self->fd, spin));
	ASSERT_EQ(0, vgpu_test_gate(self->fd, VGPU_GATE_OPEN, NULL));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, h, 3, VGPU_WAIT_ALL,
				    VGPU_WAIT_FOREVER, NULL));
	ASSERT_LT(0, slurp(DBG "kernels"));
	EXPECT_NE(NULL, strstr(vgpu_buf, "# 0 kernels"));
	ASSERT_LT(0, slurp(DBG "stats"));
	EXPECT_EQ(3, keyval(vgpu_buf, "completed"));
	EXPECT_EQ(1, keyval(vgpu_buf, "cancelled"));
	EXPECT_EQ(0, keyval(vgpu_buf, "live"));
}

/* Writes to the read-only views fail; the knobs reject garbage. */
TEST_F(obs, views_read_only)
{
	/* root passes the 0400 mode; the views have no write method */
	EXPECT_EQ(EINVAL, put(DBG "kernels", "1"));
	EXPECT_EQ(EINVAL, put(DBG "hang", "maybe"));
	EXPECT_EQ(EINVAL, put(DBG "fail_alloc", "x"));
}

/* fail_alloc: the next N kernel objects fail with -ENOMEM, then fine. */
TEST_F(obs, fail_alloc)
{
	struct vgpu_submit_desc d[2];
	__u32 h;

	ASSERT_EQ(0, put(DBG "fail_alloc", "2"));
	VGPU_DESC(&d[0], self->ch, vgpu_prog_alu);
	VGPU_DESC(&d[1], self->ch, vgpu_prog_alu);
	EXPECT_EQ(ENOMEM, vgpu_test_submit(self->fd, d, 2));
	EXPECT_EQ(ENOMEM, vgpu_test_submit(self->fd, d, 1));
	ASSERT_LT(0, slurp(DBG "fail_alloc"));
	EXPECT_EQ(0, atoi(vgpu_buf));
	ASSERT_LT(0, slurp(DBG "stats"));
	EXPECT_EQ(0, keyval(vgpu_buf, "submitted"));
	h = SUBMIT(self->fd, self->ch, vgpu_prog_alu, 1);
	ASSERT_NE(~0U, h);
	EXPECT_EQ(0, vgpu_test_wait(self->fd, &h, 1, 0, VGPU_WAIT_FOREVER,
				    NULL));
}

/* fail_submit: whole batches fail with -EAGAIN, nothing half-done. */
TEST_F(obs, fail_submit)
{
	struct vgpu_submit_desc d[3];
	char path[64];
	__u32 i;

	for (i = 0; i < 3; i++)
		VGPU_DESC(&d[i], self->ch, vgpu_prog_alu);
	ASSERT_EQ(0, put(DBG "fail_submit", "1"));
	EXPECT_EQ(EAGAIN, vgpu_test_submit(self->fd, d, 3));
	ASSERT_LT(0, slurp(DBG "stats"));
	EXPECT_EQ(0, keyval(vgpu_buf, "submitted"));
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", self->fd);
	ASSERT_LT(0, slurp(path));
	EXPECT_EQ(0, keyval(vgpu_buf, "vgpu-kernels"));	/* no handle left */
	EXPECT_EQ(0, keyval(vgpu_buf, "vgpu-program-bytes"));
	for (i = 0; i < 3; i++)
		VGPU_DESC(&d[i], self->ch, vgpu_prog_alu);
	ASSERT_EQ(0, vgpu_test_submit(self->fd, d, 3));
	ASSERT_LT(0, slurp(path));
	EXPECT_EQ(3, keyval(vgpu_buf, "vgpu-kernels"));
}

/* hang: the controller stops; waiters time out; clearing resumes. */
TEST_F(obs, hang)
{
	struct vgpu_kernel_query q;
	__u32 h;

	ASSERT_EQ(0, put(DBG "hang", "1"));
	h = SUBMIT(self->fd, self->ch, vgpu_prog_alu, 1);
	ASSERT_NE(~0U, h);
	EXPECT_EQ(ETIME, vgpu_test_wait(self->fd, &h, 1, 0,
					vgpu_test_now_ns() + 200000000LL, NULL));
	ASSERT_EQ(0, vgpu_test_query(self->fd, h, 0, &q));
	EXPECT_EQ(VGPU_KSTATE_QUEUED, q.state);
	ASSERT_LT(0, slurp(DBG "stats"));
	EXPECT_EQ(0, keyval(vgpu_buf, "epochs"));
	ASSERT_LT(0, slurp(DBG "hang"));
	EXPECT_EQ(0, strcmp(vgpu_buf, "1\n"));
	ASSERT_EQ(0, put(DBG "hang", "0"));
	EXPECT_EQ(0, vgpu_test_wait(self->fd, &h, 1, 0, VGPU_WAIT_FOREVER,
				    NULL));
	/* hung again with work queued, then closed: nothing may leak */
	ASSERT_EQ(0, put(DBG "hang", "1"));
	ASSERT_NE(~0U, SUBMIT(self->fd, self->ch, vgpu_prog_long, 4));
}

/* A view open across device removal: reads fail, close frees. */
TEST(view_open_across_removal)
{
	int vfd, n;
	char c;

	put("/sys/bus/vgpu/del_device", "7");
	ASSERT_EQ(0, put("/sys/bus/vgpu/new_device", "7 small"));
	vfd = open(DBG "stats", O_RDONLY);
	ASSERT_LE(0, vfd);
	ASSERT_LT(0, read(vfd, &c, 1));
	ASSERT_EQ(0, put("/sys/bus/vgpu/del_device", "7"));
	n = read(vfd, &c, 1);
	EXPECT_TRUE(n <= 0);
	close(vfd);
	EXPECT_EQ(ENOENT, access(DBG "stats", F_OK) ? errno : 0);
}

/* fdinfo: DRM usage-stats keys, unique client ids, monotonic counters. */
TEST_F(obs, fdinfo)
{
	long long c1, t1, c2, t2, id1, id2;
	char path[64];
	__u32 h[2];
	int fd2;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", self->fd);
	ASSERT_LT(0, slurp(path));
	EXPECT_NE(NULL, strstr(vgpu_buf, "drm-driver:\tvgpu_dispatch\n"));
	EXPECT_EQ(4, keyval(vgpu_buf, "drm-engine-capacity-sm"));
	EXPECT_EQ(0, keyval(vgpu_buf, "drm-cycles-sm"));
	EXPECT_EQ(1, keyval(vgpu_buf, "vgpu-channels"));
	EXPECT_EQ(0, keyval(vgpu_buf, "vgpu-kernels"));
	EXPECT_NE(NULL, strstr(vgpu_buf, "drm-engine-sm:\t0 ns\n"));
	id1 = keyval(vgpu_buf, "drm-client-id");
	EXPECT_LT(0, id1);

	h[0] = SUBMIT(self->fd, self->ch, vgpu_prog_alu, 3);
	h[1] = SUBMIT(self->fd, self->ch, vgpu_prog_alu, 2);
	ASSERT_EQ(0, vgpu_test_wait(self->fd, h, 2, VGPU_WAIT_ALL,
				    VGPU_WAIT_FOREVER, NULL));
	ASSERT_LT(0, slurp(path));
	EXPECT_EQ(id1, keyval(vgpu_buf, "drm-client-id"));
	EXPECT_EQ(2, keyval(vgpu_buf, "vgpu-kernels"));
	EXPECT_EQ(2, keyval(vgpu_buf, "vgpu-kernels-submitted"));
	EXPECT_EQ(2, keyval(vgpu_buf, "vgpu-kernels-completed"));
	EXPECT_EQ(5, keyval(vgpu_buf, "vgpu-blocks-completed"));
	c1 = keyval(vgpu_buf, "drm-cycles-sm");
	t1 = keyval(vgpu_buf, "drm-total-cycles-sm");
	EXPECT_LT(0, c1);
	EXPECT_LT(0, keyval(vgpu_buf, "drm-engine-sm"));
	/* utilisation <= 1: cycles <= total x capacity */
	EXPECT_LE(c1, t1 * 4);

	/* another client: its own id and zero usage */
	fd2 = vgpu_test_open(DEV);
	ASSERT_LE(0, fd2);
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd2);
	ASSERT_LT(0, slurp(path));
	id2 = keyval(vgpu_buf, "drm-client-id");
	EXPECT_NE(id1, id2);
	EXPECT_EQ(0, keyval(vgpu_buf, "drm-cycles-sm"));
	close(fd2);

	/* counters never go backwards */
	h[0] = SUBMIT(self->fd, self->ch, vgpu_prog_alu, 1);
	ASSERT_EQ(0, vgpu_test_wait(self->fd, h, 1, 0, VGPU_WAIT_FOREVER,
				    NULL));
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", self->fd);
	ASSERT_LT(0, slurp(path));
	c2 = keyval(vgpu_buf, "drm-cycles-sm");
	t2 = keyval(vgpu_buf, "drm-total-cycles-sm");
	EXPECT_LT(c1, c2);
	EXPECT_LE(t1, t2);
}

/* Index of the first trace line at or after @from containing @s, or -1. */
static int find_ev(char **lines, int n, int from, const char *s)
{
	int i;

	for (i = from; i < n; i++)
		if (strstr(lines[i], s))
			return i;
	return -1;
}

/* Tracepoints through tracefs: every event of a workload, in order. */
TEST_F(obs, tracepoints)
{
	int n = 0, i, sub, d0, d1, w0, w1, c0, c1, done, hang;
	char *lines[4096], *p, *save = NULL;
	__u32 h, hch = 0;

	if (access(TR "events/vgpu/enable", W_OK))
		SKIP(return, "no tracefs");
	ASSERT_EQ(0, put(TR "events/vgpu/filter", "dev == 7"));
	/* an open with O_TRUNC empties the ring buffer */
	i = open(TR "trace", O_WRONLY | O_TRUNC);
	ASSERT_LE(0, i);
	close(i);
	ASSERT_EQ(0, put(TR "events/vgpu/enable", "1"));

	h = SUBMIT(self->fd, self->ch, vgpu_prog_alu, 2);
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &h, 1, 0, VGPU_WAIT_FOREVER,
				    NULL));
	/* and a hang: a spinning kernel on a channel with a short timeout */
	ASSERT_EQ(0, vgpu_test_channel(self->fd, 3, 1000, &hch));
	h = SUBMIT(self->fd, hch, vgpu_prog_spin, 1);
	EXPECT_EQ(0, vgpu_test_wait(self->fd, &h, 1, 0, VGPU_WAIT_FOREVER,
				    NULL));
	ASSERT_EQ(0, put(TR "events/vgpu/enable", "0"));
	put(TR "events/vgpu/filter", "0");

	ASSERT_LT(0, slurp(TR "trace"));
	for (p = strtok_r(vgpu_buf, "\n", &save); p && n < 4096;
	     p = strtok_r(NULL, "\n", &save))
		if (strstr(p, ": vgpu_"))
			lines[n++] = p;
	sub = find_ev(lines, n, 0, "vgpu_kernel_submit: dev=7 kernel=0 ");
	d0 = find_ev(lines, n, 0, "vgpu_block_dispatch: dev=7 kernel=0 block=0 ");
	d1 = find_ev(lines, n, 0, "vgpu_block_dispatch: dev=7 kernel=0 block=1 ");
	w0 = find_ev(lines, n, 0, "vgpu_warp_start: dev=7 kernel=0 block=0 warp=0 ");
	w1 = find_ev(lines, n, 0, "vgpu_warp_start: dev=7 kernel=0 block=1 warp=0 ");
	c0 = find_ev(lines, n, 0, "vgpu_block_complete: dev=7 kernel=0 block=0 ");
	c1 = find_ev(lines, n, 0, "vgpu_block_complete: dev=7 kernel=0 block=1 ");
	done = find_ev(lines, n, 0, "vgpu_kernel_complete: dev=7 kernel=0 ");
	hang = find_ev(lines, n, 0, "vgpu_hang: dev=7 kernel=1 ");
	ASSERT_LE(0, sub);
	EXPECT_NE(NULL, strstr(lines[sub], " prio=2 cycle=0"));
	EXPECT_LT(sub, d0);
	EXPECT_LT(d0, d1);
	EXPECT_LT(d0, w0);
	EXPECT_LT(d1, w1);
	EXPECT_LT(w0, c0);
	EXPECT_LT(w1, c1);
	EXPECT_LT(c0, done);
	EXPECT_LT(c1, done);
	EXPECT_LT(done, hang);
	EXPECT_NE(NULL, strstr(lines[hang], " prio=3 "));
	/* exactly one of each per block / kernel, and only device 7 */
	for (i = 0; i < n; i++)
		EXPECT_NE(NULL, strstr(lines[i], " dev=7 "));
	EXPECT_EQ(-1, find_ev(lines, n, done + 1,
			      "vgpu_kernel_complete: dev=7 kernel=0 "));
	EXPECT_EQ(-1, find_ev(lines, n, d1 + 1,
			      "vgpu_block_dispatch: dev=7 kernel=0 block=1 "));
}

/* Four warps taking turns on mutex 0: the arbiter grants it (F35). */
static const struct vgpu_insn vgpu_prog_lock[] = {
	{ .op = VGPU_OP_LOOP, .imm = VGPU_LOOP_IMM(8, 0) },
	{ .op = VGPU_OP_LOCK, .a = 0 },
	{ .op = VGPU_OP_ALU },
	{ .op = VGPU_OP_ALU },
	{ .op = VGPU_OP_UNLOCK, .a = 0 },
	{ .op = VGPU_OP_ENDLOOP },
	{ .op = VGPU_OP_EXIT },
};

/*
 * The warp-level and preemption tracepoints: on a "switch" device a
 * high-priority kernel arriving while long low-priority blocks fill every
 * SM preempts them (vgpu_preempt names the preempted kernel); then every
 * warp of a four-warp block has its vgpu_warp_start, and the contended
 * mutex gives vgpu_mutex_arbitrate events (the core passes warp-level
 * events only while such a tracepoint is enabled).
 */
TEST(tracepoints_preempt_warps_mutex)
{
	int n = 0, i, fd, sub_hi, pre, done_hi, w[4], arb;
	char *lines[4096], *p, *save = NULL, want[96];
	struct vgpu_submit_desc d;
	__u32 chl = 0, chh = 0, lo, hi, lk;

	if (access(TR "events/vgpu/enable", W_OK))
		SKIP(return, "no tracefs");
	put("/sys/bus/vgpu/del_device", "7");
	ASSERT_EQ(0, put("/sys/bus/vgpu/new_device", "7 small preempt=switch"));
	fd = vgpu_test_open(DEV);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_test_channel(fd, 3, 0, &chl));
	ASSERT_EQ(0, vgpu_test_channel(fd, 0, 0, &chh));

	ASSERT_EQ(0, put(TR "events/vgpu/filter", "dev == 7"));
	i = open(TR "trace", O_WRONLY | O_TRUNC);
	ASSERT_LE(0, i);
	close(i);
	ASSERT_EQ(0, put(TR "events/vgpu/enable", "1"));

	ASSERT_EQ(0, vgpu_test_gate(fd, VGPU_GATE_CLOSE, NULL));
	/* 1024-thread blocks: 2 per SM fill the warp slots of all 4 SMs */
	VGPU_DESC(&d, chl, vgpu_prog_long);
	d.grid = 256;
	d.threads = 1024;
	ASSERT_EQ(0, vgpu_test_submit(fd, &d, 1));
	lo = d.handle;
	VGPU_DESC(&d, chh, vgpu_prog_alu);
	d.arrival = 1000;
	ASSERT_EQ(0, vgpu_test_submit(fd, &d, 1));
	hi = d.handle;
	ASSERT_EQ(0, vgpu_test_gate(fd, VGPU_GATE_OPEN, NULL));
	ASSERT_EQ(0, vgpu_test_wait(fd, &hi, 1, 0, VGPU_WAIT_FOREVER, NULL));
	ASSERT_EQ(0, vgpu_test_cancel(fd, lo));
	lk = SUBMIT(fd, chl, vgpu_prog_lock, 1);
	ASSERT_EQ(0, vgpu_test_wait(fd, &lk, 1, 0, VGPU_WAIT_FOREVER, NULL));

	ASSERT_EQ(0, put(TR "events/vgpu/enable", "0"));
	put(TR "events/vgpu/filter", "0");
	close(fd);
	put("/sys/bus/vgpu/del_device", "7");

	ASSERT_LT(0, slurp(TR "trace"));
	for (p = strtok_r(vgpu_buf, "\n", &save); p && n < 4096;
	     p = strtok_r(NULL, "\n", &save))
		if (strstr(p, ": vgpu_"))
			lines[n++] = p;
	/* kernel ids: 0 low, 1 high, 2 the mutex kernel */
	sub_hi = find_ev(lines, n, 0, "vgpu_kernel_submit: dev=7 kernel=1 ");
	pre = find_ev(lines, n, 0, "vgpu_preempt: dev=7 kernel=0 ");
	done_hi = find_ev(lines, n, 0, "vgpu_kernel_complete: dev=7 kernel=1 ");
	ASSERT_LE(0, sub_hi);
	ASSERT_LE(0, pre);
	EXPECT_LT(sub_hi, pre);
	EXPECT_LT(pre, done_hi);
	EXPECT_NE(NULL, strstr(lines[pre], " prio=3 "));
	for (i = 0; i < 4; i++) {
		snprintf(want, sizeof(want),
			 "vgpu_warp_start: dev=7 kernel=2 block=0 warp=%d ", i);
		w[i] = find_ev(lines, n, 0, want);
		ASSERT_LE(0, w[i]);
		/* exactly once */
		EXPECT_EQ(-1, find_ev(lines, n, w[i] + 1, want));
	}
	arb = find_ev(lines, n, 0, "vgpu_mutex_arbitrate: dev=7 kernel=2 block=0 ");
	ASSERT_LE(0, arb);
	/* a grant goes to a waiting warp: never warp 0, which came first */
	EXPECT_EQ(NULL, strstr(lines[arb], " warp=0 "));
	EXPECT_LT(w[1], arb);
}

/*
 * F35, seed 003's example through the module ([0044]-[0052]): the host
 * gives each warp its task's real-time level (vgpu_submit_desc.warp_prio).
 * Two warps; warp 1 (level 0) loops 10 ALUs before LOCK 0, warp 0 (level
 * 1) takes mutex 0 first and holds it for 40 ALUs.  Warp 1's request wins
 * the arbitration against the lower-priority owner (the arbiter takes the
 * mutex from warp 0), and warp 0 gets it back after warp 1's UNLOCK: two
 * arbitrated grants, warp 1's first.  With equal levels warp 1 waits for
 * the UNLOCK: one grant, warp 1's.  The levels are checked like every
 * other field: one per warp, each below num_prios, a readable pointer.
 */
static const struct vgpu_insn vgpu_prog_seed003[] = {
	{ .op = VGPU_OP_LOOP, .a = VGPU_LOOP_SEL_WID, .b = 2,
	  .imm = VGPU_LOOP_IMM(0, 10) },
	{ .op = VGPU_OP_ALU },
	{ .op = VGPU_OP_ENDLOOP },
	{ .op = VGPU_OP_LOCK, .a = 0 },
	{ .op = VGPU_OP_LOOP, .imm = VGPU_LOOP_IMM(40, 0) },
	{ .op = VGPU_OP_ALU },
	{ .op = VGPU_OP_ENDLOOP },
	{ .op = VGPU_OP_UNLOCK, .a = 0 },
	{ .op = VGPU_OP_EXIT },
};

TEST(seed003_warp_levels_through_the_module)
{
	__u8 lv[2][2] = { { 1, 0 }, { 0, 0 } }, bad[2] = { 0, 4 };
	int n = 0, fd, r, g1, g0;
	char *lines[4096], *p, *save = NULL, want[96];
	struct vgpu_submit_desc d;
	__u32 ch = 0, h[2];

	if (access(TR "events/vgpu/enable", W_OK))
		SKIP(return, "no tracefs");
	put("/sys/bus/vgpu/del_device", "7");
	ASSERT_EQ(0, put("/sys/bus/vgpu/new_device", "7 small"));
	fd = vgpu_test_open(DEV);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_test_channel(fd, 0, 0, &ch));
	/* the checks first: count, level, pointer, scalar registers */
	VGPU_DESC(&d, ch, vgpu_prog_seed003);
	d.threads = 64;
	d.warp_prio = (uintptr_t)lv[0];
	d.num_warp_prio = 1;
	EXPECT_EQ(EINVAL, vgpu_test_submit(fd, &d, 1));
	d.num_warp_prio = 65;
	EXPECT_EQ(EINVAL, vgpu_test_submit(fd, &d, 1));
	d.num_warp_prio = 0;
	EXPECT_EQ(EINVAL, vgpu_test_submit(fd, &d, 1));
	d.num_warp_prio = 2;
	d.warp_prio = (uintptr_t)bad;
	EXPECT_EQ(EINVAL, vgpu_test_submit(fd, &d, 1));
	d.warp_prio = 8;
	EXPECT_EQ(EFAULT, vgpu_test_submit(fd, &d, 1));
	d.warp_prio = 0;
	d.num_warp_prio = 0;
	d.sregs = 64;		/* "small" has no scalar register file */
	EXPECT_EQ(E2BIG, vgpu_test_submit(fd, &d, 1));
	d.sregs = 0;

	ASSERT_EQ(0, put(TR "events/vgpu/filter", "dev == 7"));
	r = open(TR "trace", O_WRONLY | O_TRUNC);
	ASSERT_LE(0, r);
	close(r);
	ASSERT_EQ(0, put(TR "events/vgpu/enable", "1"));
	for (r = 0; r < 2; r++) {
		VGPU_DESC(&d, ch, vgpu_prog_seed003);
		d.threads = 64;
		d.warp_prio = (uintptr_t)lv[r];
		d.num_warp_prio = 2;
		ASSERT_EQ(0, vgpu_test_submit(fd, &d, 1));
		h[r] = d.handle;
		ASSERT_EQ(0, vgpu_test_wait(fd, &h[r], 1, 0, VGPU_WAIT_FOREVER,
					    NULL));
	}
	ASSERT_EQ(0, put(TR "events/vgpu/enable", "0"));
	put(TR "events/vgpu/filter", "0");
	close(fd);
	put("/sys/bus/vgpu/del_device", "7");

	ASSERT_LT(0, slurp(TR "trace"));
	for (p = strtok_r(vgpu_buf, "\n", &save); p && n < 4096;
	     p = strtok_r(NULL, "\n", &save))
		if (strstr(p, ": vgpu_mutex_arbitrate: "))
			lines[n++] = p;
	/* kernel 0: levels 1, 0 (the arbiter takes it); kernel 1: equal */
	snprintf(want, sizeof(want), "dev=7 kernel=0 block=0 warp=1 ");
	g1 = find_ev(lines, n, 0, want);
	snprintf(want, sizeof(want), "dev=7 kernel=0 block=0 warp=0 ");
	g0 = find_ev(lines, n, 0, want);
	ASSERT_LE(0, g1);
	ASSERT_LE(0, g0);
	EXPECT_LT(g1, g0);
	EXPECT_LE(0, find_ev(lines, n, 0, "dev=7 kernel=1 block=0 warp=1 "));
	EXPECT_EQ(-1, find_ev(lines, n, 0, "dev=7 kernel=1 block=0 warp=0 "));
}

/*
 * The seeds' dispatch options on new_device: the largest-run search
 * (F40-F42, seed 001 [0041]), its group and latency, the "combined"
 * weight (F25 [0283]), the throttle SMs (F26) and the scalar register file
 * (seed 001 [0042]), shown in debugfs "config"; a bad name, a grouped
 * search without a group or with one that does not divide every map it
 * runs over (seed 001 [0127]: 41 does not divide the 64 register units of
 * a sub-partition, 32 not the 16 scalar register units) is -EINVAL; a
 * kernel's scalar registers go through SUBMIT on a device with the file.
 * Under the sampled search a block of 140,000 bytes of shared memory
 * (1,102 units of 128 with the reserve; the search sees 1,024 of an empty
 * SM's 1,312) is refused at SUBMIT with -E2BIG.
 */
TEST(seed_device_options)
{
	struct vgpu_submit_desc d;
	struct vgpu_info info;
	__u32 ch = 0, h;
	int fd;

	put("/sys/bus/vgpu/del_device", "7");
	EXPECT_EQ(EINVAL, put("/sys/bus/vgpu/new_device", "7 small search=fuzzy"));
	EXPECT_EQ(EINVAL, put("/sys/bus/vgpu/new_device", "7 small search=grouped"));
	EXPECT_EQ(EINVAL, put("/sys/bus/vgpu/new_device",
			      "7 small search_latency=4"));
	EXPECT_EQ(EINVAL, put("/sys/bus/vgpu/new_device",
			      "7 small sreg_unit=64"));
	EXPECT_EQ(EINVAL, put("/sys/bus/vgpu/new_device",
			      "7 small search=grouped search_group=41"));
	EXPECT_EQ(EINVAL, put("/sys/bus/vgpu/new_device",
			      "7 small search=grouped search_group=32 sregs_per_subpart=1024 sreg_unit=64"));
	ASSERT_EQ(0, put("/sys/bus/vgpu/new_device",
			 "7 small search=grouped search_group=16 search_latency=3 combo=70 throttle_sms=2 sregs_per_subpart=1024 sreg_unit=64"));
	ASSERT_LT(0, slurp(DBG "config"));
	EXPECT_NE(NULL, strstr(vgpu_buf, "\nsearch grouped\nsearch_group 16\nsearch_latency 3\ncombo 70\n"));
	EXPECT_NE(NULL, strstr(vgpu_buf, "\nthrottle_sms 2\n"));
	EXPECT_NE(NULL, strstr(vgpu_buf, "\nsregs_per_subpart 1024\nsreg_unit 64\n"));
	fd = vgpu_test_open(DEV);
	ASSERT_LE(0, fd);
	/* GET_INFO VER1 reports the scalar file (seed 001 [0042]) */
	info = vgpu_test_info(fd);
	EXPECT_EQ(1024, info.sregs_per_subpart);
	EXPECT_EQ(64, info.sreg_unit);
	ASSERT_EQ(0, vgpu_test_channel(fd, 0, 0, &ch));
	VGPU_DESC(&d, ch, vgpu_prog_alu);
	d.sregs = 320;
	ASSERT_EQ(0, vgpu_test_submit(fd, &d, 1));
	h = d.handle;
	EXPECT_EQ(0, vgpu_test_wait(fd, &h, 1, 0, VGPU_WAIT_FOREVER, NULL));
	d.sregs = 2048;		/* more than a sub-partition's file */
	d.handle = 0;
	EXPECT_EQ(E2BIG, vgpu_test_submit(fd, &d, 1));
	close(fd);
	put("/sys/bus/vgpu/del_device", "7");
	/* a block the sampled search never finds room for */
	ASSERT_EQ(0, put("/sys/bus/vgpu/new_device", "7 small search=sampled"));
	fd = vgpu_test_open(DEV);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vgpu_test_channel(fd, 0, 0, &ch));
	VGPU_DESC(&d, ch, vgpu_prog_alu);
	d.smem = 140000;
	EXPECT_EQ(E2BIG, vgpu_test_submit(fd, &d, 1));
	d.smem = 1024 * 128 - 1024;	/* the search's run exactly */
	d.handle = 0;
	ASSERT_EQ(0, vgpu_test_submit(fd, &d, 1));
	h = d.handle;
	EXPECT_EQ(0, vgpu_test_wait(fd, &h, 1, 0, VGPU_WAIT_FOREVER, NULL));
	close(fd);
	put("/sys/bus/vgpu/del_device", "7");
}

/*
 * debugfs "sm" avail is the figure the resource policy compares (F25,
 * seed 001 [0041], [0256]-[0257]): sum a_h * r_h where r_h of the
 * registers sums each sub-partition's largest free run.  On an idle small
 * device (exact search), per SM: a0 * 4 * 64 (four sub-partitions of 64
 * units, each one run) + a1 * free warps + a2 * free shared memory units
 * + a3 * free block slots, each figure read from the same line and the
 * weights from "config".
 */
TEST(sm_avail_is_the_policy_figure)
{
	unsigned long long avail, power;
	unsigned int a[4], fw, bu, bm, ba, bam, smem, r[4], i;
	char *p;

	put("/sys/bus/vgpu/del_device", "7");
	ASSERT_EQ(0, put("/sys/bus/vgpu/new_device", "7 small"));
	ASSERT_LT(0, slurp(DBG "config"));
	p = strstr(vgpu_buf, "\nres_weight ");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(4, sscanf(p, "\nres_weight %u,%u,%u,%u", &a[0], &a[1],
			    &a[2], &a[3]));
	ASSERT_LT(0, slurp(DBG "sm"));
	p = strstr(vgpu_buf, "\n0 - ");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(12, sscanf(p, "\n0 - %llu %llu %u %u/%u %u/%u %u %u,%u,%u,%u",
			     &avail, &power, &fw, &bu, &bm, &ba, &bam, &smem,
			     &r[0], &r[1], &r[2], &r[3]));
	for (i = 0; i < 4; i++)
		EXPECT_EQ(64, r[i]);	/* 16384 registers / 256 per unit */
	EXPECT_EQ(0, bu);
	EXPECT_EQ((unsigned long long)a[0] * 4 * 64 +
		  (unsigned long long)a[1] * fw +
		  (unsigned long long)a[2] * smem +
		  (unsigned long long)a[3] * (bm - bu), avail);
	put("/sys/bus/vgpu/del_device", "7");
}

TEST_HARNESS_MAIN
