// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_fn_test.c - functional kernels through the module (seed 004;
 * Documentation/isa.rst, "Functional instructions"): a vector add in
 * float32 on buffer objects, checked against the host's own float
 * additions (the module computes binary32 in integer code, the host on its
 * FPU: the results must be bit for bit the same), with several blocks
 * per SM and a higher-priority kernel switching some of them out; a
 * global atomic histogram; each fault a bad program makes is the kernel's
 * QUERY error, an endless loop ends at its instruction budget, and no
 * fault overwrote a guard of the functional memory (a KASAN kernel has
 * them); release() with a functional kernel running.
 *
 * The module is loaded with one device of preset "small" (warps of 32).
 */
#include <sys/mman.h>

#include "vgpu_test_util.h"
#include "kselftest_harness.h"

#define PAGE	4096UL
#define N	4000	/* elements of the vector add (not a block multiple) */

#define I(o, ra, rb, rc, im) \
	((struct vgpu_insn){ .op = (o), .a = (ra), .b = (rb), .c = (rc), \
			     .imm = (im) })

/* c[i] = a[i] + b[i] for i < n: slots a, b, c, n (constant). */
static const struct vgpu_insn prog_vadd[] = {
	I(VGPU_OP_S2R, 0, VGPU_SR_CTAID, 0, 0),
	I(VGPU_OP_S2R, 1, VGPU_SR_NTID, 0, 0),
	I(VGPU_OP_S2R, 2, VGPU_SR_TID, 0, 0),
	I(VGPU_OP_IMAD, 3, 0, 1, 2),			/* i */
	I(VGPU_OP_MOVI, 4, 0, 0, 0),
	I(VGPU_OP_LDC, 5, 3, 4, 0),			/* n */
	I(VGPU_OP_ISETP, 0, 3, 5, VGPU_COND_GE),
	I(VGPU_OP_BRP, 0, 0, 0, 14 | 14 << 16),		/* i >= n: EXIT */
	I(VGPU_OP_MOVI, 6, 0, 0, 2),
	I(VGPU_OP_SHL, 7, 3, 6, 0),			/* i * 4 */
	I(VGPU_OP_LDG, 8, 0, 7, 0),
	I(VGPU_OP_LDG, 9, 1, 7, 0),
	I(VGPU_OP_FADD, 10, 8, 9, 0),
	I(VGPU_OP_STG, 10, 2, 7, 0),
	I(VGPU_OP_EXIT, 0, 0, 0, 0),
};

/* hist[v & 15]++ for every v of slot 0 (n words): global atomics. */
static const struct vgpu_insn prog_hist[] = {
	I(VGPU_OP_S2R, 0, VGPU_SR_CTAID, 0, 0),
	I(VGPU_OP_S2R, 1, VGPU_SR_NTID, 0, 0),
	I(VGPU_OP_S2R, 2, VGPU_SR_TID, 0, 0),
	I(VGPU_OP_IMAD, 3, 0, 1, 2),
	I(VGPU_OP_MOVI, 4, 0, 0, 2),
	I(VGPU_OP_SHL, 5, 3, 4, 0),
	I(VGPU_OP_LDG, 6, 0, 5, 0),
	I(VGPU_OP_MOVI, 7, 0, 0, 15),
	I(VGPU_OP_AND, 6, 6, 7, 0),
	I(VGPU_OP_SHL, 6, 6, 4, 0),
	I(VGPU_OP_MOVI, 8, 0, 0, 1),
	I(VGPU_OP_ATOMG, 9, 1, 6, VGPU_ATOM_IMM(8, VGPU_ATOM_ADD, 0)),
	I(VGPU_OP_EXIT, 0, 0, 0, 0),
};

/* A load at byte @off of slot @slot, then EXIT. */
#define PROG_LOAD(name, op, slot, off)				\
static const struct vgpu_insn name[] = {			\
	I(VGPU_OP_MOVI, 0, 0, 0, (off)),			\
	I((op), 1, (slot), 0, 0),				\
	I(VGPU_OP_EXIT, 0, 0, 0, 0),				\
}

PROG_LOAD(prog_oob, VGPU_OP_LDG, 0, PAGE);
PROG_LOAD(prog_unnamed, VGPU_OP_LDG, 5, 0);
PROG_LOAD(prog_misaligned, VGPU_OP_LDG, 0, 2);
PROG_LOAD(prog_ldc_plain, VGPU_OP_LDC, 0, 0);

/* A store to the read-only slot 1. */
static const struct vgpu_insn prog_rofs[] = {
	I(VGPU_OP_MOVI, 0, 0, 0, 0),
	I(VGPU_OP_STG, 0, 1, 0, 0),
	I(VGPU_OP_EXIT, 0, 0, 0, 0),
};

/* Half of each warp reaches a BAR. */
static const struct vgpu_insn prog_divbar[] = {
	I(VGPU_OP_S2R, 0, VGPU_SR_LANE, 0, 0),
	I(VGPU_OP_MOVI, 1, 0, 0, 16),
	I(VGPU_OP_ISETP, 0, 0, 1, VGPU_COND_LT),
	I(VGPU_OP_BRP, 0, 1, 0, 5 | 5 << 16),
	I(VGPU_OP_BAR, 0, 0, 0, 0),
	I(VGPU_OP_EXIT, 0, 0, 0, 0),
};

/* A loop that never ends: its budget or the hang timeout stops it. */
static const struct vgpu_insn prog_forever[] = {
	I(VGPU_OP_IADDI, 0, 0, 0, 1),
	I(VGPU_OP_JMP, 0, 0, 0, 0),
	I(VGPU_OP_EXIT, 0, 0, 0, 0),
};

static const struct vgpu_insn prog_long[] = {
	I(VGPU_OP_LOOP, VGPU_LOOP_SEL_NONE, 0, 0, VGPU_LOOP_IMM(2000, 0)),
	I(VGPU_OP_ALU, 0, 0, 0, 0),
	I(VGPU_OP_BAR, 0, 0, 0, 0),
	I(VGPU_OP_ENDLOOP, 0, 0, 0, 0),
	I(VGPU_OP_EXIT, 0, 0, 0, 0),
};

FIXTURE(fn) {
	int fd;
	__u32 ch;
	__u32 hi;
};

FIXTURE_SETUP(fn)
{
	struct vgpu_info info;

	self->fd = vgpu_test_open(0);
	ASSERT_LE(0, self->fd);
	info = vgpu_test_info(self->fd);
	if (!(info.caps & VGPU_CAP_FUNCTIONAL))
		SKIP(return, "no VGPU_CAP_FUNCTIONAL");
	ASSERT_EQ(0, vgpu_test_channel(self->fd, 3, 0, &self->ch));
	ASSERT_EQ(0, vgpu_test_channel(self->fd, 0, 0, &self->hi));
}

FIXTURE_TEARDOWN(fn)
{
	close(self->fd);
}

/* A buffer of @size bytes mapped at *p; its handle. */
static __u32 buffer(struct __test_metadata *_metadata, int fd, __u64 size,
		    __u32 flags, void **p)
{
	struct vgpu_bo_create c;

	memset(&c, 0, sizeof(c));
	c.size = size;
	c.flags = flags;
	if (ioctl(fd, VGPU_IOCTL_BO_CREATE, &c)) {
		TH_LOG("BO_CREATE: %s", strerror(errno));
		return 0;
	}
	*p = mmap(NULL, (size + PAGE - 1) & ~(PAGE - 1),
		  PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)c.mmap_offset);
	if (*p == MAP_FAILED)
		*p = NULL;
	return c.handle;
}

/* A functional descriptor: @grid blocks of @threads running @prog. */
static void fdesc(struct vgpu_submit_desc *d, __u32 ch, __u32 grid,
		  __u32 threads, const struct vgpu_insn *prog, __u32 n,
		  const __u32 *bufs, __u32 nbufs)
{
	memset(d, 0, sizeof(*d));
	d->channel = ch;
	d->grid = grid;
	d->threads = threads;
	d->regs = 16;
	d->smem = 256;
	d->program = (uintptr_t)prog;
	d->num_insns = n;
	d->buffers = (uintptr_t)bufs;
	d->num_buffers = nbufs;
}

/* Submit @d, wait for it, return its QUERY error (or a test errno). */
static int run(int fd, struct vgpu_submit_desc *d)
{
	struct vgpu_kernel_query q;
	int ret = vgpu_test_submit(fd, d, 1);

	if (ret)
		return 1000 + ret;
	ret = vgpu_test_wait(fd, &d->handle, 1, 0, VGPU_WAIT_FOREVER, NULL);
	if (ret)
		return 2000 + ret;
	ret = vgpu_test_query(fd, d->handle, VGPU_QUERY_RELEASE, &q);
	return ret ? 3000 + ret : q.error;
}

TEST_F(fn, vector_add_matches_the_host)
{
	struct vgpu_submit_desc d[2];
	__u32 h[4];
	float *a, *b, *c;
	__u32 *n, i, bad = 0;
	struct vgpu_kernel_query q;

	h[0] = buffer(_metadata, self->fd, N * 4, VGPU_BO_READ_ONLY, (void **)&a);
	h[1] = buffer(_metadata, self->fd, N * 4, VGPU_BO_READ_ONLY, (void **)&b);
	h[2] = buffer(_metadata, self->fd, N * 4, 0, (void **)&c);
	h[3] = buffer(_metadata, self->fd, 4, VGPU_BO_CONSTANT, (void **)&n);
	ASSERT_TRUE(a && b && c && n);
	for (i = 0; i < N; i++) {
		a[i] = (float)i * 0.37f - 300.0f;
		b[i] = 1.0f / (float)(i + 3);
		c[i] = -1.0f;
	}
	*n = N - 7;
	/* 32 blocks of 128: several per SM; a priority-0 kernel cuts in */
	fdesc(&d[0], self->ch, 32, 128, prog_vadd, ARRAY_SIZE(prog_vadd), h, 4);
	VGPU_DESC(&d[1], self->hi, prog_long);
	d[1].grid = 4;
	d[1].threads = 1024;
	d[1].regs = 64;
	d[1].arrival = 100;
	ASSERT_EQ(0, vgpu_test_submit(self->fd, d, 2));
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &d[0].handle, 1, 0,
				    VGPU_WAIT_FOREVER, NULL));
	ASSERT_EQ(0, vgpu_test_query(self->fd, d[0].handle, 0, &q));
	EXPECT_EQ(VGPU_KSTATE_DONE, q.state);
	EXPECT_EQ(0, q.error);
	for (i = 0; i < N; i++) {
		float want = i < N - 7 ? a[i] + b[i] : -1.0f;

		if (memcmp(&want, &c[i], sizeof(want)))
			bad++;
	}
	EXPECT_EQ(0, bad);
	ASSERT_EQ(0, vgpu_test_wait(self->fd, &d[1].handle, 1, 0,
				    VGPU_WAIT_FOREVER, NULL));
}

TEST_F(fn, histogram_with_global_atomics)
{
	struct vgpu_submit_desc d;
	__u32 h[2], *in, *hist, want[16] = { 0 }, i;

	h[0] = buffer(_metadata, self->fd, 2048 * 4, VGPU_BO_READ_ONLY,
		      (void **)&in);
	h[1] = buffer(_metadata, self->fd, 16 * 4, 0, (void **)&hist);
	ASSERT_TRUE(in && hist);
	for (i = 0; i < 2048; i++) {
		in[i] = i * 2654435761U >> 7;
		want[in[i] & 15]++;
	}
	fdesc(&d, self->ch, 16, 128, prog_hist, ARRAY_SIZE(prog_hist), h, 2);
	EXPECT_EQ(0, run(self->fd, &d));
	EXPECT_EQ(0, memcmp(want, hist, sizeof(want)));
}

TEST_F(fn, each_fault_is_the_kernels_error)
{
	struct vgpu_submit_desc d;
	void *p0, *p1;
	__u32 h[2];

	h[0] = buffer(_metadata, self->fd, PAGE, 0, &p0);
	h[1] = buffer(_metadata, self->fd, PAGE, VGPU_BO_READ_ONLY, &p1);
	ASSERT_TRUE(p0 && p1);
#define BAD(prog, err) do {						\
	fdesc(&d, self->ch, 1, 64, prog, ARRAY_SIZE(prog), h, 2);	\
	EXPECT_EQ(-(err), run(self->fd, &d)) TH_LOG(#prog);		\
} while (0)
	BAD(prog_oob, EFAULT);
	BAD(prog_unnamed, EBADF);
	BAD(prog_misaligned, EILSEQ);
	BAD(prog_ldc_plain, EBADF);
	BAD(prog_rofs, EROFS);
	BAD(prog_divbar, EDEADLK);
#undef BAD
	/* the buffers the failed kernels named may go now */
	EXPECT_EQ(0, ioctl(self->fd, VGPU_IOCTL_BO_DESTROY,
			   &(struct vgpu_bo_destroy){ .handle = h[0] }));
}

/* Is this a KASAN kernel (the debug kernel of make check-debug)? */
static bool kasan_kernel(void)
{
	char line[256];
	bool yes = false;
	FILE *f = fopen("/proc/kallsyms", "r");

	while (f && !yes && fgets(line, sizeof(line), f))
		yes = strstr(line, " kasan_report\n") ||
		      strstr(line, " __kasan_report\n");
	if (f)
		fclose(f);
	return yes;
}

/*
 * Faults touch nothing else: after an access past the end of shared
 * memory, of private memory and of a buffer, and a budget exhausted, the
 * guards between the regions of the device's functional memory (64 bytes
 * each on a KASAN kernel, none elsewhere) are intact (debugfs stats).
 */
TEST_F(fn, faults_leave_the_guards_intact)
{
	static const struct vgpu_insn prog_smem_end[] = {
		I(VGPU_OP_MOVI, 0, 0, 0, 256),
		I(VGPU_OP_STS, 0, 0, 0, 0),		/* smem is 256 bytes */
		I(VGPU_OP_EXIT, 0, 0, 0, 0),
	};
	static const struct vgpu_insn prog_priv_end[] = {
		I(VGPU_OP_MOVI, 0, 0, 0, 64),
		I(VGPU_OP_STL, 0, 0, 0, 0),		/* 64 bytes a lane */
		I(VGPU_OP_EXIT, 0, 0, 0, 0),
	};
	static const struct vgpu_insn prog_buf_end[] = {
		I(VGPU_OP_MOVI, 0, 0, 0, PAGE),
		I(VGPU_OP_STG, 0, 0, 0, 0),
		I(VGPU_OP_EXIT, 0, 0, 0, 0),
	};
	char st[8192];
	struct vgpu_submit_desc d;
	long long faults;
	void *p0;
	__u32 h;

	h = buffer(_metadata, self->fd, PAGE, 0, &p0);
	ASSERT_NE(NULL, p0);
	if (vgpu_test_slurp("/sys/kernel/debug/vgpu/vgpu0/stats", st,
			    sizeof(st)) < 0)
		SKIP(return, "no debugfs");
	faults = vgpu_test_keyval(st, "faults");
	fdesc(&d, self->ch, 2, 64, prog_smem_end, ARRAY_SIZE(prog_smem_end),
	      &h, 1);
	d.smem = 256;
	EXPECT_EQ(-EFAULT, run(self->fd, &d));
	fdesc(&d, self->ch, 2, 64, prog_priv_end, ARRAY_SIZE(prog_priv_end),
	      &h, 1);
	d.private_bytes = 64;
	EXPECT_EQ(-EFAULT, run(self->fd, &d));
	fdesc(&d, self->ch, 2, 64, prog_buf_end, ARRAY_SIZE(prog_buf_end),
	      &h, 1);
	EXPECT_EQ(-EFAULT, run(self->fd, &d));
	fdesc(&d, self->ch, 1, 32, prog_forever, ARRAY_SIZE(prog_forever),
	      NULL, 0);
	d.insn_budget = 100;
	EXPECT_EQ(-EXFULL, run(self->fd, &d));
	ASSERT_LT(0, vgpu_test_slurp("/sys/kernel/debug/vgpu/vgpu0/stats", st,
				     sizeof(st)));
	EXPECT_LE(faults + 4, vgpu_test_keyval(st, "faults"));
	EXPECT_LT(0, vgpu_test_keyval(st, "fn_memory"));
	EXPECT_EQ(kasan_kernel() ? 64 : 0, vgpu_test_keyval(st, "guard_bytes"));
	EXPECT_EQ(0, vgpu_test_keyval(st, "guards_broken"));
}

TEST_F(fn, endless_loop_hits_the_hang_timeout)
{
	struct vgpu_submit_desc d;
	__u32 ch = 0;

	ASSERT_EQ(0, vgpu_test_channel(self->fd, 3, 20000, &ch));
	fdesc(&d, ch, 1, 32, prog_forever, ARRAY_SIZE(prog_forever), NULL, 0);
	EXPECT_EQ(-ETIMEDOUT, run(self->fd, &d));
}

TEST_F(fn, submit_refuses_what_the_core_would)
{
	struct vgpu_submit_desc d;

	/* r10 of a kernel with 8 registers */
	fdesc(&d, self->ch, 1, 32, prog_vadd, ARRAY_SIZE(prog_vadd), NULL, 0);
	d.regs = 8;
	EXPECT_EQ(EINVAL, vgpu_test_submit(self->fd, &d, 1));
	/* private memory for a program of the base ISA */
	VGPU_DESC(&d, self->ch, prog_long);
	d.private_bytes = 64;
	EXPECT_EQ(EINVAL, vgpu_test_submit(self->fd, &d, 1));
}

TEST(release_with_a_functional_kernel_running)
{
	struct vgpu_submit_desc d;
	__u32 ch = 0;
	int fd = vgpu_test_open(0);

	ASSERT_LE(0, fd);
	if (!(vgpu_test_info(fd).caps & VGPU_CAP_FUNCTIONAL))
		SKIP(return, "no VGPU_CAP_FUNCTIONAL");
	ASSERT_EQ(0, vgpu_test_channel(fd, 3, 0, &ch));
	fdesc(&d, ch, 4, 64, prog_forever, ARRAY_SIZE(prog_forever), NULL, 0);
	ASSERT_EQ(0, vgpu_test_submit(fd, &d, 1));
	EXPECT_EQ(0, close(fd));
}

TEST_HARNESS_MAIN
