// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_fn_debugfs_test.c - the debugfs views of functional warps (seed
 * 004's debugger, Documentation/debugfs.rst "fn_warps" and "fn_block") on
 * a private device instance (vgpu8, preset "small": 4 SMs, at most 32
 * blocks an SM).
 *
 * Two blocks of 48 threads (a full warp and one of 16 lanes) store known
 * values in registers, predicates, private and shared memory, then spin
 * on a flag in a buffer; the test reads the views while they spin, then
 * sets the flag through the mapping and reads them again.  Every expected value is
 * computed by hand from the program below.  Then a kernel that loops on
 * data runs twice on a fresh device, the second time with a thread
 * reading both files all along: the trace hash is the same.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>

#include "vgpu_test_util.h"
#include "kselftest_harness.h"

#define DEV	8
#define DBG	"/sys/kernel/debug/vgpu/vgpu8/"
#define PAGE	4096UL
#define THREADS	48
#define LOOP_PC	13	/* first instruction of the spin loop */
#define EXIT_PC	16

#define I(o, ra, rb, rc, im) \
	((struct vgpu_insn){ .op = (o), .a = (ra), .b = (rb), .c = (rc), \
			     .imm = (im) })

/*
 * r0 = tid, r1 = ctaid, r5 = smem[tid] = 1000 * ctaid + tid; private
 * words 0 and 4 = r5 and tid; p1 = every live lane, p2 = tid < 40; then
 * loop while the word at s0 is 0 (p0).
 */
static const struct vgpu_insn prog_wait[] = {
	I(VGPU_OP_S2R, 0, VGPU_SR_TID, 0, 0),
	I(VGPU_OP_S2R, 1, VGPU_SR_CTAID, 0, 0),
	I(VGPU_OP_MOVI, 2, 0, 0, 2),
	I(VGPU_OP_SHL, 3, 0, 2, 0),			/* tid * 4 */
	I(VGPU_OP_MOVI, 6, 0, 0, 1000),
	I(VGPU_OP_IMAD, 5, 1, 6, 0),			/* ctaid * 1000 + tid */
	I(VGPU_OP_STS, 5, 0, 3, 0),
	I(VGPU_OP_MOVI, 7, 0, 0, 0),
	I(VGPU_OP_STL, 5, 0, 7, 0),
	I(VGPU_OP_STL, 0, 0, 7, 4),
	I(VGPU_OP_MOVI, 9, 0, 0, 40),
	I(VGPU_OP_ISETP, 1, 0, 0, VGPU_COND_EQ),
	I(VGPU_OP_ISETP, 2, 0, 9, VGPU_COND_LT),
	I(VGPU_OP_LDG, 8, 0, 7, 0),			/* LOOP_PC */
	I(VGPU_OP_ISETP, 0, 8, 7, VGPU_COND_EQ),
	I(VGPU_OP_BRP, 0, 0, 0, LOOP_PC | EXIT_PC << 16),
	I(VGPU_OP_EXIT, 0, 0, 0, 0),			/* EXIT_PC */
};

/* r1 counts to 10000 in every lane, then shared word tid = r1 + tid. */
static const struct vgpu_insn prog_count[] = {
	I(VGPU_OP_S2R, 0, VGPU_SR_TID, 0, 0),
	I(VGPU_OP_MOVI, 2, 0, 0, 10000),
	I(VGPU_OP_IADDI, 1, 1, 0, 1),			/* 2: r1++ */
	I(VGPU_OP_ISETP, 0, 1, 2, VGPU_COND_LT),
	I(VGPU_OP_BRP, 0, 0, 0, 2 | 5 << 16),
	I(VGPU_OP_MOVI, 3, 0, 0, 2),			/* 5 */
	I(VGPU_OP_SHL, 4, 0, 3, 0),
	I(VGPU_OP_IADD, 5, 1, 0, 0),
	I(VGPU_OP_STS, 5, 0, 4, 0),
	I(VGPU_OP_EXIT, 0, 0, 0, 0),
};

static char text[1 << 20];

/*
 * One line of fn_warps: sm slot kernel block warp state pc live active
 * depth | p0 .. p7.
 */
struct warp_line {
	unsigned int sm, slot, kernel, block, warp, pc, live, active, depth;
	unsigned int pred[8];
	char state[16];
};

/* The data lines of fn_warps in @w (at most @max); how many, or -1. */
static int warp_lines(struct warp_line *w, int max)
{
	const char *p = text;
	int n = 0;

	if (vgpu_test_slurp(DBG "fn_warps", text, sizeof(text)) < 0)
		return -1;
	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (*p == '#' || *p == '\n')
			continue;
		if (n == max)
			return -1;
		if (sscanf(p, "%u %u %u %u %u %15s %u %x %x %u | %x %x %x %x %x %x %x %x",
			   &w[n].sm, &w[n].slot, &w[n].kernel, &w[n].block,
			   &w[n].warp, w[n].state, &w[n].pc, &w[n].live,
			   &w[n].active, &w[n].depth, &w[n].pred[0],
			   &w[n].pred[1], &w[n].pred[2], &w[n].pred[3],
			   &w[n].pred[4], &w[n].pred[5], &w[n].pred[6],
			   &w[n].pred[7]) != 18)
			return -1;
		n++;
	}
	return n;
}

/* The whole of open file @fd, read from its start, in text. */
static int read_fd(int fd)
{
	int n = 0, r;

	if (lseek(fd, 0, SEEK_SET))
		return -errno;
	while ((r = read(fd, text + n, sizeof(text) - 1 - n)) > 0)
		n += r;
	if (r < 0)
		return -errno;
	text[n] = '\0';
	return n;
}

static int write_str(int fd, const char *s)
{
	return write(fd, s, strlen(s)) == (ssize_t)strlen(s) ? 0 : errno;
}

/* The 32 words after "\n@name " in text; 0 if found. */
static int row(const char *from, const char *name, unsigned int *v)
{
	char key[16];
	const char *p;
	int i, k;

	snprintf(key, sizeof(key), "\n%s ", name);
	p = strstr(from, key);
	if (!p)
		return -1;
	p += strlen(key);
	for (i = 0; i < 32; i++) {
		if (sscanf(p, "%x%n", &v[i], &k) != 1)
			return -1;
		p += k;
	}
	return 0;
}

FIXTURE(fndbg) {
	int fd;
	__u32 ch;
};

FIXTURE_SETUP(fndbg)
{
	ASSERT_EQ(0, vgpu_test_new_device(DEV, ""));
	self->fd = vgpu_test_open(DEV);
	ASSERT_LE(0, self->fd);
	if (!(vgpu_test_info(self->fd).caps & VGPU_CAP_FUNCTIONAL))
		SKIP(return, "no VGPU_CAP_FUNCTIONAL");
	/* a hang timeout far beyond the test: the flag ends the kernel */
	ASSERT_EQ(0, vgpu_test_channel(self->fd, 3, 1ULL << 40, &self->ch));
}

FIXTURE_TEARDOWN(fndbg)
{
	close(self->fd);
	vgpu_test_sysfs("/sys/bus/vgpu/del_device", "8");
}

/* A device that never ran a functional kernel has nothing to show. */
TEST_F(fndbg, no_functional_memory)
{
	struct vgpu_submit_desc d;
	int f;

	/* a timing-only kernel runs to completion first */
	VGPU_DESC(&d, self->ch, vgpu_prog_alu);
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &d.handle, 1, 0,
				    VGPU_WAIT_FOREVER, NULL));
	ASSERT_LT(0, vgpu_test_slurp(DBG "fn_warps", text, sizeof(text)));
	EXPECT_STREQ("no functional memory\n", text);
	f = open(DBG "fn_block", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, f);
	ASSERT_LT(0, read_fd(f));
	EXPECT_STREQ("no functional memory\n", text);
	/* a well-formed choice of a slot without a functional block */
	EXPECT_EQ(ENOENT, write_str(f, "0 0"));
	EXPECT_EQ(EINVAL, write_str(f, "0"));
	close(f);
}

TEST_F(fndbg, spinning_blocks)
{
	struct warp_line w[8];
	struct vgpu_submit_desc d;
	struct vgpu_kernel_query q;
	unsigned int v[32], i, l, b, wid, seen = 0, sm1 = 0, slot1 = 0;
	__u32 *flag;
	struct vgpu_bo_create c;
	char line[64];
	const char *warp_text;
	__u32 h;
	int n = 0, f;
	long tries;

	/* no kernel yet: no functional memory */
	ASSERT_LT(0, vgpu_test_slurp(DBG "fn_warps", text, sizeof(text)));
	EXPECT_STREQ("no functional memory\n", text);

	/* kernel 0 of the device: timing only, done before the other */
	VGPU_DESC(&d, self->ch, vgpu_prog_alu);
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &d.handle, 1, 0,
				    VGPU_WAIT_FOREVER, NULL));

	memset(&c, 0, sizeof(c));
	c.size = PAGE;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_BO_CREATE, &c));
	flag = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		    (off_t)c.mmap_offset);
	ASSERT_NE(MAP_FAILED, (void *)flag);
	h = c.handle;

	/* kernel 1: two blocks of 48 threads */
	memset(&d, 0, sizeof(d));
	d.channel = self->ch;
	d.grid = 2;
	d.threads = THREADS;
	d.regs = 16;
	d.smem = 256;
	d.private_bytes = 8;
	d.program = (uintptr_t)prog_wait;
	d.num_insns = ARRAY_SIZE(prog_wait);
	d.buffers = (uintptr_t)&h;
	d.num_buffers = 1;
	ASSERT_EQ(0, vgpu_test_submit(self->fd, &d, 1));

	/* bounded: until its four warps are in the loop */
	for (tries = 0; tries < 200000; tries++) {
		n = warp_lines(w, 8);
		ASSERT_LE(0, n);
		for (i = 0, seen = 0; i < n; i++)
			if (w[i].pc >= LOOP_PC && w[i].pc < EXIT_PC)
				seen++;
		if (seen == 4)
			break;
	}
	ASSERT_EQ(4, n) TH_LOG("%s", text);
	ASSERT_EQ(4, seen) TH_LOG("%s", text);
	for (i = 0; i < 4; i++) {
		unsigned int live = w[i].warp ? 0xffff : 0xffffffff;

		EXPECT_EQ(1, w[i].kernel);
		EXPECT_GT(2, w[i].block);
		EXPECT_GT(2, w[i].warp);
		EXPECT_STREQ("ready", w[i].state);
		EXPECT_EQ(live, w[i].live) TH_LOG("block %u warp %u",
						  w[i].block, w[i].warp);
		EXPECT_EQ(live, w[i].active);
		EXPECT_EQ(1, w[i].depth);	/* the warp's own frame */
		/* p0 is set by the loop's compare once it ran */
		EXPECT_TRUE(w[i].pred[0] == 0 || w[i].pred[0] == live);
		EXPECT_EQ(live, w[i].pred[1]);
		EXPECT_EQ(w[i].warp ? 0xffu : 0xffffffffu, w[i].pred[2]);
		for (l = 3; l < 8; l++)
			EXPECT_EQ(0, w[i].pred[l]);
		/* the two warps of one block share its SM and slot */
		if (w[i].block == 1) {
			seen |= 16 << w[i].warp;
			sm1 = w[i].sm;
			slot1 = w[i].slot;
		}
	}
	ASSERT_EQ(4 | 16 | 32, seen);
	for (i = 0; i < 4; i++)
		if (w[i].block == 1) {
			EXPECT_EQ(sm1, w[i].sm);
			EXPECT_EQ(slot1, w[i].slot);
		}

	f = open(DBG "fn_block", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, f);
	ASSERT_LT(0, read_fd(f));
	EXPECT_STREQ("# no block chosen: write \"SM SLOT\"\n", text);

	/* every malformed or impossible choice is -EINVAL */
	EXPECT_EQ(EINVAL, write_str(f, ""));
	EXPECT_EQ(EINVAL, write_str(f, "x"));
	EXPECT_EQ(EINVAL, write_str(f, "1"));
	EXPECT_EQ(EINVAL, write_str(f, "0 0 0"));
	EXPECT_EQ(EINVAL, write_str(f, "0 x"));
	EXPECT_EQ(EINVAL, write_str(f, "-1 0"));
	EXPECT_EQ(EINVAL, write_str(f, "0 -1"));
	EXPECT_EQ(EINVAL, write_str(f, "4 0"));		/* 4 SMs */
	EXPECT_EQ(EINVAL, write_str(f, "0 32"));	/* 32 slots */
	EXPECT_EQ(EINVAL, write_str(f, "4294967296 0"));
	EXPECT_EQ(EINVAL, write_str(f, "0                               0"));
	/* a slot of the device that holds no block */
	snprintf(line, sizeof(line), "%u 31", sm1);
	EXPECT_EQ(ENOENT, write_str(f, line));
	ASSERT_LT(0, read_fd(f));
	EXPECT_STREQ("# no block chosen: write \"SM SLOT\"\n", text);

	snprintf(line, sizeof(line), "%u %u\n", sm1, slot1);
	ASSERT_EQ(0, write_str(f, line));
	ASSERT_LT(0, read_fd(f));
	snprintf(line, sizeof(line), "# sm %u slot %u kernel 1 block 1 warps 2 smem 256 ",
		 sm1, slot1);
	EXPECT_EQ(0, strncmp(text, line, strlen(line))) TH_LOG("%s", text);
	for (wid = 0; wid < 2; wid++) {
		unsigned int live = wid ? 0xffff : 0xffffffff;

		snprintf(line, sizeof(line), "\nwarp %u state ready pc ", wid);
		warp_text = strstr(text, line);
		ASSERT_NE(NULL, warp_text) TH_LOG("%s", text);
		snprintf(line, sizeof(line), " live %08x active %08x depth 1\n",
			 live, live);
		EXPECT_NE(NULL, strstr(warp_text, line));
		/*
		 * r0 = tid, r1 = ctaid, r5 = 1000 + tid, private words 0
		 * and 4 = 1000 + tid and tid; lanes past 48: 0
		 */
		for (b = 0; b < 5; b++) {
			static const char *const rows[] = {
				"r0", "r1", "r5", "priv+0", "priv+4"
			};

			ASSERT_EQ(0, row(warp_text, rows[b], v))
				TH_LOG("%s", rows[b]);
			for (l = 0; l < 32; l++) {
				unsigned int tid = 32 * wid + l;
				unsigned int want = b == 0 || b == 4 ? tid :
						    b == 1 ? 1 : 1000 + tid;

				if (tid >= THREADS)
					want = 0;
				EXPECT_EQ(want, v[l]) TH_LOG("warp %u %s lane %u",
							     wid, rows[b], l);
			}
		}
	}
	/* smem: 1000 + i in the 48 words stored, zero after */
	warp_text = strstr(text, "\nsmem 256\n");
	ASSERT_NE(NULL, warp_text) TH_LOG("%s", text);
	for (i = 0; i < 64; i += 8) {
		unsigned int x[8], off;

		snprintf(line, sizeof(line), "\n%06x:", i * 4);
		warp_text = strstr(warp_text, line);
		ASSERT_NE(NULL, warp_text) TH_LOG("%s", line);
		ASSERT_EQ(9, sscanf(warp_text + 1, "%x: %x %x %x %x %x %x %x %x",
				    &off, &x[0], &x[1], &x[2], &x[3], &x[4],
				    &x[5], &x[6], &x[7]));
		for (l = 0; l < 8; l++)
			EXPECT_EQ(i + l < THREADS ? 1000 + i + l : 0, x[l]);
	}
	/* a bad write keeps the choice */
	EXPECT_EQ(EINVAL, write_str(f, "0 x"));
	ASSERT_LT(0, read_fd(f));
	EXPECT_NE(NULL, strstr(text, " kernel 1 block 1 warps 2 "));

	/* the flag ends the kernel; the block is gone */
	*flag = 1;
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &d.handle, 1, 0,
				    VGPU_WAIT_FOREVER, NULL));
	ASSERT_EQ(0, vgpu_test_query(self->fd, d.handle, 0, &q));
	EXPECT_EQ(VGPU_KSTATE_DONE, q.state);
	EXPECT_EQ(0, q.error);
	ASSERT_LT(0, read_fd(f));
	snprintf(line, sizeof(line), "sm %u slot %u: kernel 1 block 1 is gone\n",
		 sm1, slot1);
	EXPECT_STREQ(line, text);
	snprintf(line, sizeof(line), "%u %u", sm1, slot1);
	EXPECT_EQ(ENOENT, write_str(f, line));
	close(f);
	EXPECT_EQ(0, warp_lines(w, 8)) TH_LOG("%s", text);
	munmap((void *)flag, PAGE);
}

/* Open files of a destroyed device: EIO, and their release is clean. */
TEST(files_outlive_their_device)
{
	char buf[64];
	int w, b;

	ASSERT_EQ(0, vgpu_test_new_device(DEV, ""));
	w = open(DBG "fn_warps", O_RDONLY | O_CLOEXEC);
	b = open(DBG "fn_block", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, w);
	ASSERT_LE(0, b);
	ASSERT_EQ(0, vgpu_test_sysfs("/sys/bus/vgpu/del_device", "8"));
	EXPECT_EQ(-1, read(w, buf, sizeof(buf)));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(-1, read(b, buf, sizeof(buf)));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(EIO, write_str(b, "0 0"));
	EXPECT_EQ(0, close(w));
	EXPECT_EQ(0, close(b));
}

static atomic_int reading, warps_seen, blocks_seen;

/* Read fn_warps and fn_block (the first block it lists) until told. */
static void *reader(void *arg)
{
	static char buf[1 << 20];
	unsigned int sm, slot;
	char line[32];
	const char *p;
	int f = open(DBG "fn_block", O_RDWR | O_CLOEXEC), chosen = 0;

	while (atomic_load(&reading)) {
		if (vgpu_test_slurp(DBG "fn_warps", buf, sizeof(buf)) <= 0)
			continue;
		p = strstr(buf, " p7\n");	/* the end of the header */
		if (!p || !p[4])
			continue;		/* no warp */
		p += 3;
		atomic_fetch_add(&warps_seen, 1);
		if (!chosen && sscanf(p + 1, "%u %u", &sm, &slot) == 2) {
			snprintf(line, sizeof(line), "%u %u", sm, slot);
			chosen = write(f, line, strlen(line)) > 0;
		}
		if (chosen && lseek(f, 0, SEEK_SET) == 0 &&
		    read(f, buf, sizeof(buf) - 1) > 0 && !strncmp(buf, "# sm ", 5))
			atomic_fetch_add(&blocks_seen, 1);
	}
	close(f);
	return arg;
}

/* A fresh vgpu8, prog_count gated in, run to the end: its trace hash. */
static unsigned long long count_run(struct __test_metadata *_metadata,
				    int with_reader)
{
	struct vgpu_submit_desc d;
	pthread_t t;
	__u32 ch = 0;
	int fd;

	if (vgpu_test_new_device(DEV, ""))
		return 0;
	fd = vgpu_test_open(DEV);
	if (fd < 0 || vgpu_test_channel(fd, 3, 0, &ch) ||
	    vgpu_test_gate(fd, VGPU_GATE_CLOSE, NULL))
		return 0;
	memset(&d, 0, sizeof(d));
	d.channel = ch;
	d.grid = 8;
	d.threads = 64;
	d.regs = 8;
	d.smem = 256;
	d.program = (uintptr_t)prog_count;
	d.num_insns = ARRAY_SIZE(prog_count);
	if (vgpu_test_submit(fd, &d, 1))
		return 0;
	atomic_store(&reading, 1);
	if (with_reader && pthread_create(&t, NULL, reader, NULL))
		return 0;
	if (vgpu_test_gate(fd, VGPU_GATE_OPEN, NULL) ||
	    vgpu_test_wait(fd, &d.handle, 1, 0, VGPU_WAIT_FOREVER, NULL))
		return 0;
	atomic_store(&reading, 0);
	if (with_reader)
		pthread_join(t, NULL);
	if (vgpu_test_slurp(DBG "trace_hash", text, sizeof(text)) <= 0)
		return 0;
	close(fd);
	return strtoull(text, NULL, 0);
}

TEST(reads_leave_the_trace_hash_alone)
{
	unsigned long long plain, read;
	int fd = vgpu_test_open(0);

	ASSERT_LE(0, fd);
	if (!(vgpu_test_info(fd).caps & VGPU_CAP_FUNCTIONAL))
		SKIP(return, "no VGPU_CAP_FUNCTIONAL");
	close(fd);
	plain = count_run(_metadata, 0);
	read = count_run(_metadata, 1);
	vgpu_test_sysfs("/sys/bus/vgpu/del_device", "8");
	ASSERT_NE(0, plain);
	EXPECT_EQ(plain, read);
	/* the reader saw the warps, and a block's data, while they ran */
	EXPECT_LT(0, atomic_load(&warps_seen));
	EXPECT_LT(0, atomic_load(&blocks_seen));
	TH_LOG("hash 0x%016llx, %d reads of fn_warps with warps, %d of fn_block",
	       plain, atomic_load(&warps_seen), atomic_load(&blocks_seen));
}

TEST_HARNESS_MAIN
