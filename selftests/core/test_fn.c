// SPDX-License-Identifier: GPL-2.0
/*
 * Functional mode through the whole engine (seed 004; fn.h): the five
 * example programs of examples/vasm/ run as kernels of a device on real
 * buffers and their results are checked against references computed
 * here on the host, under drain, warp and switch preemption, with blocks
 * switched out and restored by a higher-priority kernel, with a kernel
 * split into single warps (F24), and with the SMs advanced in either
 * order (how they are spread over workers, F51): the results and the
 * trace hash must not change.  Bad programs fail their kernel with the
 * documented errno.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vgpu_test.h"
#include "vgpu_test_gpu.h"
#include "fn.h"

static struct vgpu_tg T;
static void *fn_mem;

/* A scenario's preemption and what else runs beside the example. */
enum fn_extra {
	FN_ALONE,	/* the example alone */
	FN_INTRUDER,	/* a priority-0 kernel arrives mid-run (F23 (c)) */
	FN_FILLER,	/* a kernel fills the SMs first: the example splits */
};

static void fn_setup(u32 preempt)
{
	struct vgpu_gpu_params p;
	size_t size;

	vgpu_tg_params_small(&p, preempt);
	p.g_max = 2;
	if (vgpu_tg_init(&T, NULL, &p))
		abort();
	size = vgpu_gpu_fn_bytes(&T.g);
	fn_mem = aligned_alloc(64, (size + 63) & ~(size_t)63);
	if (!fn_mem)
		abort();
	memset(fn_mem, 0, size);
	if (vgpu_gpu_fn_attach(&T.g, fn_mem, size))
		abort();
}

static void fn_teardown(void)
{
	vgpu_tg_fini(&T);
	free(fn_mem);
	fn_mem = NULL;
}

/* The text of examples/vasm/@name.vasm (static storage). */
static const char *fn_source(const char *name)
{
	static char buf[16384];
	char path[128];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "examples/vasm/%s.vasm", name);
	f = fopen(path, "r");
	if (!f)
		abort();
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return buf;
}

/* Epochs until every kernel finished; the SMs in order or reversed. */
static bool fn_loop(bool reverse, u64 limit)
{
	u32 i, n = T.g.cfg.num_sms;

	while (T.g.now <= limit) {
		vgpu_gpu_dispatch(&T.g);
		if (vgpu_gpu_idle(&T.g))
			return true;
		for (i = 0; i < n; i++)
			vgpu_gpu_advance_sm(&T.g, reverse ? n - 1 - i : i);
	}
	return false;
}

/*
 * A priority-0 kernel arriving at cycle 64 whose every block needs a whole
 * SM's registers and, with BAR, is never placed warp by warp: where a
 * block of a lower priority is resident, switch mode switches it out
 * (F23 (c)).
 */
static struct vgpu_gpu_kernel *fn_intruder(void)
{
	struct vgpu_gpu_kernel *o;

	o = vgpu_tg_kernel(&T, 2, 0, 4, 1024, 64,
			   "LOOP 300\nALU\nBAR\nENDLOOP\nEXIT\n");
	o->args.regs = 64;
	if (vgpu_gpu_submit(&T.g, o))
		abort();
	return o;
}

/* One example kernel: its grid, block, shared memory and slots. */
struct fn_case {
	const char *name;
	u32 grid;
	u32 threads;
	u32 smem;
	struct vgpu_lane_slot slot[VGPU_ISA_MAX_SLOTS];
	void (*reset)(void);		/* outputs back to their start */
	bool (*check)(void);		/* outputs against the reference */
};

/*
 * Run @c under @preempt with @extra, SMs in @reverse order: returns the
 * trace hash, and sets *ok when every kernel completed and the outputs
 * are right.  Counts the example's switch-outs in *saves and splits in
 * *splits.
 */
static u64 fn_scenario(const struct fn_case *c, u32 preempt,
		       enum fn_extra extra, bool reverse, bool *ok,
		       u64 *saves, u64 *splits)
{
	struct vgpu_gpu_kernel *k, *o = NULL;
	u64 hash;

	fn_setup(preempt);
	c->reset();
	if (extra == FN_FILLER) {
		/* 30 of each SM's 64 warps, twice: 4 slots left per SM */
		o = vgpu_tg_kernel(&T, 1, 0, 8, 960, 0,
				   "LOOP 400\nALU\nENDLOOP\nEXIT\n");
		if (vgpu_gpu_submit(&T.g, o))
			abort();
	}
	k = vgpu_tg_kernel(&T, 0, 3, c->grid, c->threads, 0,
			   fn_source(c->name));
	k->args.fn = true;
	k->args.regs = 32;
	k->args.smem = c->smem;
	k->args.slots = c->slot;
	if (extra == FN_FILLER) {
		k->args.arrival = 64;
		k->args.flags |= VGPU_KF_INDEPENDENT;
	}
	if (vgpu_gpu_submit(&T.g, k))
		abort();
	if (extra == FN_INTRUDER)
		o = fn_intruder();
	*ok = fn_loop(reverse, 50000000) && k->state == VGPU_KS_DONE &&
	      (!o || o->state == VGPU_KS_DONE) && c->check();
	*saves = vgpu_tg_count(&T, VGPU_GEV_PREEMPT, k->args.id);
	*splits = T.g.stats.splits;
	hash = vgpu_gpu_trace_hash(&T.g);
	fn_teardown();
	return hash;
}

/* Every scenario of one example: right results, one hash per scenario. */
static void fn_example(struct __test_metadata *_metadata,
		       const struct fn_case *c, bool splittable)
{
	static const u32 modes[] = {
		VGPU_PREEMPT_DRAIN, VGPU_PREEMPT_WARP, VGPU_PREEMPT_SWITCH,
	};
	u64 h, h2, saves, splits, total_saves = 0;
	unsigned int m, e;
	bool ok;

	for (m = 0; m < ARRAY_SIZE(modes); m++) {
		for (e = FN_ALONE; e <= FN_FILLER; e++) {
			if (e == FN_FILLER && (!splittable ||
					       modes[m] != VGPU_PREEMPT_DRAIN))
				continue;
			h = fn_scenario(c, modes[m], e, false, &ok, &saves,
					&splits);
			EXPECT_TRUE(ok) TH_LOG("%s, mode %u, extra %u", c->name,
					       modes[m], e);
			if (modes[m] == VGPU_PREEMPT_SWITCH && e == FN_INTRUDER)
				total_saves += saves;
			if (e == FN_FILLER)
				EXPECT_LT(0, splits) TH_LOG("%s: no split", c->name);
			h2 = fn_scenario(c, modes[m], e, true, &ok, &saves,
					 &splits);
			EXPECT_TRUE(ok) TH_LOG("%s, mode %u, extra %u, reversed",
					       c->name, modes[m], e);
			EXPECT_EQ(h, h2) TH_LOG("%s, mode %u, extra %u: the SM order changed the trace",
						c->name, modes[m], e);
		}
	}
	/* the intruder switched some of the example's blocks out */
	EXPECT_LT(0, total_saves) TH_LOG("%s: never switched out", c->name);
}

#define FN_SLOT(buf, flags) \
	((struct vgpu_lane_slot){ (u8 *)(buf), sizeof(buf), (flags) })

/* vector_add: c = a + b over 1000 floats, 8 blocks of 128 threads. */
static float va_a[1024], va_b[1024], va_c[1024];
static u32 va_par[4];

static void va_reset(void)
{
	unsigned int i;

	for (i = 0; i < 1024; i++) {
		va_a[i] = (float)i * 0.25f - 100.0f;
		va_b[i] = 1.0f / (float)(i + 1);
		va_c[i] = -1.0f;
	}
	va_par[0] = 1000;
}

static bool va_check(void)
{
	unsigned int i;
	float want;

	for (i = 0; i < 1024; i++) {
		/* float addition of the host: the same binary32 rounding */
		want = i < 1000 ? va_a[i] + va_b[i] : -1.0f;
		if (memcmp(&want, &va_c[i], sizeof(want)))
			return false;
	}
	return true;
}

TEST(vector_add)
{
	struct fn_case c = {
		.name = "vector_add", .grid = 8, .threads = 128,
		.reset = va_reset, .check = va_check,
	};

	c.slot[0] = FN_SLOT(va_a, VGPU_LANE_SLOT_READ_ONLY);
	c.slot[1] = FN_SLOT(va_b, VGPU_LANE_SLOT_READ_ONLY);
	c.slot[2] = FN_SLOT(va_c, 0);
	c.slot[3] = FN_SLOT(va_par, VGPU_LANE_SLOT_CONSTANT);
	fn_example(_metadata, &c, true);
}

/* reduce: per-block sums of 4 x 256 integers and their total. */
static u32 rd_in[1024], rd_out[4], rd_total[1];

static void rd_reset(void)
{
	unsigned int i;

	for (i = 0; i < 1024; i++)
		rd_in[i] = i * 2654435761U >> 12;
	memset(rd_out, 0, sizeof(rd_out));
	rd_total[0] = 0;
}

static bool rd_check(void)
{
	u32 want[4] = { 0 }, all = 0;
	unsigned int i;

	for (i = 0; i < 1024; i++) {
		want[i / 256] += rd_in[i];
		all += rd_in[i];
	}
	return !memcmp(want, rd_out, sizeof(want)) && rd_total[0] == all;
}

TEST(reduce)
{
	struct fn_case c = {
		.name = "reduce", .grid = 4, .threads = 256, .smem = 1024,
		.reset = rd_reset, .check = rd_check,
	};

	c.slot[0] = FN_SLOT(rd_in, VGPU_LANE_SLOT_READ_ONLY);
	c.slot[1] = FN_SLOT(rd_out, 0);
	c.slot[2] = FN_SLOT(rd_total, 0);
	fn_example(_metadata, &c, false);
}

/* matmul: C (48 x 32) = A (48 x 64) * B (64 x 32), 16 x 16 tiles. */
enum { MM_M = 48, MM_N = 32, MM_K = 64 };
static float mm_a[MM_M * MM_K], mm_b[MM_K * MM_N], mm_c[MM_M * MM_N];
static u32 mm_par[4];

static void mm_reset(void)
{
	unsigned int i;

	for (i = 0; i < MM_M * MM_K; i++)
		mm_a[i] = (float)((int)(i * 37 % 101) - 50) / 16.0f +
			  0.001f * (float)i;
	for (i = 0; i < MM_K * MM_N; i++)
		mm_b[i] = (float)((int)(i * 53 % 89) - 44) / 8.0f -
			  0.002f * (float)i;
	memset(mm_c, 0, sizeof(mm_c));
	mm_par[0] = MM_K;
	mm_par[1] = MM_N;
	mm_par[2] = MM_N / 16;
}

static bool mm_check(void)
{
	unsigned int i, j, k;
	float acc;

	for (i = 0; i < MM_M; i++)
		for (j = 0; j < MM_N; j++) {
			/* one rounding per step: fused multiply-add */
			acc = 0.0f;
			for (k = 0; k < MM_K; k++)
				acc = __builtin_fmaf(mm_a[i * MM_K + k],
						     mm_b[k * MM_N + j], acc);
			if (memcmp(&acc, &mm_c[i * MM_N + j], sizeof(acc)))
				return false;
		}
	return true;
}

TEST(matmul)
{
	struct fn_case c = {
		.name = "matmul", .grid = (MM_M / 16) * (MM_N / 16),
		.threads = 256, .smem = 2048,
		.reset = mm_reset, .check = mm_check,
	};

	c.slot[0] = FN_SLOT(mm_a, VGPU_LANE_SLOT_READ_ONLY);
	c.slot[1] = FN_SLOT(mm_b, VGPU_LANE_SLOT_READ_ONLY);
	c.slot[2] = FN_SLOT(mm_c, 0);
	c.slot[3] = FN_SLOT(mm_par, VGPU_LANE_SLOT_CONSTANT);
	fn_example(_metadata, &c, false);
}

/* histogram: 16 bins of 3000 values, 5 blocks of 96 threads. */
static u32 hg_in[3000], hg_hist[16], hg_par[1];

static void hg_reset(void)
{
	unsigned int i;

	for (i = 0; i < 3000; i++)
		hg_in[i] = (i * i * 7 + i / 3) ^ (i >> 2);
	memset(hg_hist, 0, sizeof(hg_hist));
	hg_par[0] = 3000;
}

static bool hg_check(void)
{
	u32 want[16] = { 0 };
	unsigned int i;

	for (i = 0; i < 3000; i++)
		want[hg_in[i] & 15]++;
	return !memcmp(want, hg_hist, sizeof(want));
}

TEST(histogram)
{
	struct fn_case c = {
		.name = "histogram", .grid = 5, .threads = 96, .smem = 64,
		.reset = hg_reset, .check = hg_check,
	};

	c.slot[0] = FN_SLOT(hg_in, VGPU_LANE_SLOT_READ_ONLY);
	c.slot[1] = FN_SLOT(hg_hist, 0);
	c.slot[2] = FN_SLOT(hg_par, VGPU_LANE_SLOT_CONSTANT);
	fn_example(_metadata, &c, false);
}

/* scan: inclusive prefix sums of 2 blocks of 256 integers. */
static u32 sc_in[512], sc_out[512];

static void sc_reset(void)
{
	unsigned int i;

	for (i = 0; i < 512; i++)
		sc_in[i] = (i * 7919) % 1000;
	memset(sc_out, 0, sizeof(sc_out));
}

static bool sc_check(void)
{
	unsigned int i;
	u32 run = 0;

	for (i = 0; i < 512; i++) {
		run = (i % 256 ? run : 0) + sc_in[i];
		if (sc_out[i] != run)
			return false;
	}
	return true;
}

TEST(scan)
{
	struct fn_case c = {
		.name = "scan", .grid = 2, .threads = 256, .smem = 2048,
		.reset = sc_reset, .check = sc_check,
	};

	c.slot[0] = FN_SLOT(sc_in, VGPU_LANE_SLOT_READ_ONLY);
	c.slot[1] = FN_SLOT(sc_out, 0);
	fn_example(_metadata, &c, false);
}

/* The instruction budget of fn_bad()'s kernel. */
static u64 fn_budget;

/* A one-block kernel of @src on the slots of @slot: its error. */
static int fn_bad(const char *src, const struct vgpu_lane_slot *slot,
		  u32 threads)
{
	struct vgpu_gpu_kernel *k;
	int err;

	fn_setup(VGPU_PREEMPT_SWITCH);
	k = vgpu_tg_kernel(&T, 0, 0, 1, threads, 0, src);
	k->args.fn = true;
	k->args.regs = 16;
	k->args.smem = 256;
	k->args.slots = slot;
	k->args.insn_budget = fn_budget;
	if (vgpu_gpu_submit(&T.g, k))
		abort();
	if (!fn_loop(false, 1000000))
		err = -ETIME;
	else
		err = k->state == VGPU_KS_FAILED ? k->error : 0;
	if (err && err != -ETIME && !T.g.stats.faults)
		err = -ENOEXEC;
	/* a fault touched no other memory: every guard is intact */
	if (T.g.stats.guards_broken || vgpu_gpu_fn_guards_check(&T.g))
		err = -EIO;
	fn_teardown();
	return err;
}

TEST(bad_programs_fail_their_kernel)
{
	static u32 buf[64], ro[64], cst[64];
	struct vgpu_lane_slot slot[VGPU_ISA_MAX_SLOTS] = {
		FN_SLOT(buf, 0),
		FN_SLOT(ro, VGPU_LANE_SLOT_READ_ONLY),
		FN_SLOT(cst, VGPU_LANE_SLOT_CONSTANT),
	};

	/* a well-behaved one completes (the harness itself works) */
	EXPECT_EQ(0, fn_bad(".functional\nMOVI r0, 252\nLDG r1, [s0 + r0]\n"
			    "STG [s0 + r0], r1\nEXIT\n", slot, 32));
	/* out of bounds: 256 is past the 64 words */
	EXPECT_EQ(-EFAULT, fn_bad(".functional\nMOVI r0, 256\n"
				  "LDG r1, [s0 + r0]\nEXIT\n", slot, 32));
	/* a store past the end, found before it is logged */
	EXPECT_EQ(-EFAULT, fn_bad(".functional\nMOVI r0, 0\n"
				  "STG [s0 + r0 + 1024], r0\nEXIT\n", slot,
				  32));
	/* slot 5 is not named */
	EXPECT_EQ(-EBADF, fn_bad(".functional\nMOVI r0, 0\n"
				 "LDG r1, [s5 + r0]\nEXIT\n", slot, 32));
	/* misaligned */
	EXPECT_EQ(-EILSEQ, fn_bad(".functional\nMOVI r0, 2\n"
				  "LDG r1, [s0 + r0]\nEXIT\n", slot, 32));
	/* a store to a read-only buffer */
	EXPECT_EQ(-EROFS, fn_bad(".functional\nMOVI r0, 0\n"
				 "STG [s1 + r0], r0\nEXIT\n", slot, 32));
	/* LDC of a buffer that is not constant */
	EXPECT_EQ(-EBADF, fn_bad(".functional\nMOVI r0, 0\n"
				 "LDC r1, [s0 + r0]\nEXIT\n", slot, 32));
	/* shared memory past the block's 256 bytes */
	EXPECT_EQ(-EFAULT, fn_bad(".functional\nMOVI r0, 256\n"
				  "LDS r1, [r0]\nEXIT\n", slot, 32));
	/* a barrier reached by half of a warp's lanes */
	EXPECT_EQ(-EDEADLK, fn_bad(".functional\nS2R r0, %lane\nMOVI r1, 16\n"
				   "ISETP p0, r0, r1, lt\nBRP !p0, out, out\n"
				   "BAR\nout:\nEXIT\n", slot, 64));
}

/*
 * The guards between the regions of the functional memory (debug and
 * sanitizer builds): intact after a run, a byte written past an SM's
 * register file or into a save record's guard is found at the next
 * boundary, counted once, and the guard filled again.
 */
TEST(guards_find_a_write_between_regions)
{
	static u32 buf[64];
	struct vgpu_lane_slot slot[VGPU_ISA_MAX_SLOTS] = { FN_SLOT(buf, 0) };
	struct vgpu_gpu_kernel *k;
	size_t words;
	u8 *save;

	ASSERT_EQ(64, VGPU_MEM_GUARD);
	fn_setup(VGPU_PREEMPT_SWITCH);
	words = (size_t)T.g.cfg.subparts * T.g.cfg.regs_per_subpart;
	EXPECT_EQ(0, vgpu_gpu_fn_guards_check(&T.g));
	T.g.fn[1].regs[words] ^= 1;		/* one past the register file */
	save = (u8 *)T.g.saved[0].s.fn +
	       round_up(vgpu_fn_save_bytes(&T.g.cfg), 8);
	save[7] = 0;				/* a save record's guard */
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0,
			   ".functional\nMOVI r0, 0\nSTG [s0 + r0], r0\nEXIT\n");
	k->args.fn = true;
	k->args.regs = 4;
	k->args.slots = slot;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_TRUE(fn_loop(false, 1000000));
	EXPECT_EQ(VGPU_KS_DONE, k->state);
	EXPECT_EQ(2, T.g.stats.guards_broken);
	EXPECT_EQ(0, vgpu_gpu_fn_guards_check(&T.g));	/* filled again */
	fn_teardown();
}

TEST(submit_checks)
{
	static u32 buf[64];
	struct vgpu_lane_slot slot[VGPU_ISA_MAX_SLOTS] = { FN_SLOT(buf, 0) };
	struct vgpu_gpu_kernel *k;
	struct vgpu_gpu_params p;

	fn_setup(VGPU_PREEMPT_SWITCH);
	/* a register beyond the kernel's registers */
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0,
			   ".functional\nMOVI r20, 1\nEXIT\n");
	k->args.fn = true;
	k->args.regs = 20;
	k->args.slots = slot;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, k));
	k->args.regs = 21;
	EXPECT_EQ(0, vgpu_gpu_submit(&T.g, k));
	/* private memory must be a multiple of 4, at most the maximum */
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0,
			   ".functional\nMOVI r0, 1\nEXIT\n");
	k->args.fn = true;
	k->args.priv_bytes = 6;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, k));
	k->args.priv_bytes = VGPU_MAX_PRIVATE_BYTES + 4;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, k));
	k->args.priv_bytes = 64;
	EXPECT_EQ(0, vgpu_gpu_submit(&T.g, k));
	/* private memory without a functional program */
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, "ALU\nEXIT\n");
	k->args.fn = true;
	k->args.priv_bytes = 64;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, k));
	/* an instruction budget without a functional program */
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, "ALU\nEXIT\n");
	k->args.fn = true;
	k->args.insn_budget = 100;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, k));
	/* a host that did not ask for functional programs */
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0,
			   ".functional\nMOVI r0, 1\nEXIT\n");
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, k));
	EXPECT_TRUE(fn_loop(false, 1000000));
	fn_teardown();

	/* a device without functional memory */
	vgpu_tg_params_small(&p, VGPU_PREEMPT_SWITCH);
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0,
			   ".functional\nMOVI r0, 1\nEXIT\n");
	k->args.fn = true;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, k));
	vgpu_tg_fini(&T);
}

/*
 * A counting loop: 2 + 3 * 10 functional
 * instructions (MOVI, MOVI, then IADDI, ISETP, BRP ten times); EXIT is
 * not one.
 */
#define FN_LOOP10 ".functional\nMOVI r0, 0\nMOVI r1, 10\n" \
		  "loop:\nIADDI r0, r0, 1\nISETP p0, r0, r1, lt\n" \
		  "BRP p0, loop, done\ndone:\nEXIT\n"

TEST(insn_budget)
{
	static u32 buf[64];
	struct vgpu_lane_slot slot[VGPU_ISA_MAX_SLOTS] = { FN_SLOT(buf, 0) };

	/* exactly enough, one too few, none */
	fn_budget = 32;
	EXPECT_EQ(0, fn_bad(FN_LOOP10, slot, 64));
	fn_budget = 31;
	EXPECT_EQ(-EXFULL, fn_bad(FN_LOOP10, slot, 64));
	fn_budget = 0;
	EXPECT_EQ(0, fn_bad(FN_LOOP10, slot, 64));
	/* a loop that never ends: the budget ends it, else the run never does */
	fn_budget = 1000;
	EXPECT_EQ(-EXFULL, fn_bad(".functional\nloop:\nJMP loop\nEXIT\n",
				  slot, 32));
	fn_budget = 0;
	EXPECT_EQ(-ETIME, fn_bad(".functional\nloop:\nJMP loop\nEXIT\n",
				 slot, 32));
}

/*
 * Each thread keeps tid * 3 in private memory and tid + 7 in a register
 * across a long wait (the intruder switches it out), then stores their
 * sum: 11 functional instructions, 3 * 2000 in the wait, 5 after.
 */
#define FN_SWITCHED_INSNS (11 + 3 * 2000 + 5)

static struct vgpu_gpu_kernel *fn_switched(const struct vgpu_lane_slot *slot,
					   u64 budget,
					   struct vgpu_gpu_kernel **o)
{
	struct vgpu_gpu_kernel *k;

	fn_setup(VGPU_PREEMPT_SWITCH);
	k = vgpu_tg_kernel(&T, 0, 3, 2, 128, 0,
			   ".functional\n"
			   "S2R r0, %ctaid\nS2R r1, %ntid\nS2R r2, %tid\n"
			   "IMAD r3, r0, r1, r2\n"
			   "MOVI r4, 3\nIMUL r5, r3, r4\nMOVI r6, 0\n"
			   "STL [r6 + 12], r5\nIADDI r7, r3, 7\n"
			   "MOVI r8, 0\nMOVI r9, 2000\n"
			   "spin:\nIADDI r8, r8, 1\nISETP p0, r8, r9, lt\n"
			   "BRP p0, spin, next\n"
			   "next:\nLDL r10, [r6 + 12]\nIADD r10, r10, r7\n"
			   "MOVI r4, 2\nSHL r11, r3, r4\n"
			   "STG [s0 + r11], r10\nEXIT\n");
	k->args.fn = true;
	k->args.regs = 16;
	k->args.priv_bytes = 16;
	k->args.slots = slot;
	k->args.insn_budget = budget;
	if (vgpu_gpu_submit(&T.g, k))
		abort();
	*o = fn_intruder();
	return k;
}

TEST(private_memory_and_registers_survive_a_switch)
{
	static u32 out[256];
	struct vgpu_lane_slot slot[VGPU_ISA_MAX_SLOTS] = { FN_SLOT(out, 0) };
	struct vgpu_gpu_kernel *k, *o;
	unsigned int i;

	k = fn_switched(slot, 0, &o);
	ASSERT_TRUE(fn_loop(false, 50000000));
	EXPECT_EQ(VGPU_KS_DONE, k->state);
	EXPECT_EQ(VGPU_KS_DONE, o->state);
	EXPECT_LT(0, vgpu_tg_count(&T, VGPU_GEV_PREEMPT, k->args.id));
	for (i = 0; i < 256; i++)
		EXPECT_EQ(i * 3 + i + 7, out[i]) TH_LOG("thread %u", i);
	fn_teardown();
}

/* A warp's count of instructions is saved with it: switched out, the
 * budget is still the whole program's.
 */
TEST(insn_budget_counts_across_a_switch)
{
	static u32 out[256];
	struct vgpu_lane_slot slot[VGPU_ISA_MAX_SLOTS] = { FN_SLOT(out, 0) };
	struct vgpu_gpu_kernel *k, *o;

	k = fn_switched(slot, FN_SWITCHED_INSNS, &o);
	ASSERT_TRUE(fn_loop(false, 50000000));
	EXPECT_EQ(VGPU_KS_DONE, k->state);
	EXPECT_LT(0, vgpu_tg_count(&T, VGPU_GEV_PREEMPT, k->args.id));
	fn_teardown();
	k = fn_switched(slot, FN_SWITCHED_INSNS - 1, &o);
	ASSERT_TRUE(fn_loop(false, 50000000));
	EXPECT_EQ(VGPU_KS_FAILED, k->state);
	EXPECT_EQ(-EXFULL, k->error);
	EXPECT_LT(0, vgpu_tg_count(&T, VGPU_GEV_PREEMPT, k->args.id));
	fn_teardown();
}

/*
 * F14: a functional queue kernel's blocks read their first item and their
 * item count.  10 items pushed at cycle 0, 4 a block, then closed: blocks
 * 0 and 1 take items 0-3 and 4-7, block 2 the last two (8 and 9).
 */
TEST(queue_blocks_read_their_items)
{
	static u32 out[16];
	struct vgpu_lane_slot slot[VGPU_ISA_MAX_SLOTS] = { FN_SLOT(out, 0) };
	static struct vgpu_gpu_push push[2];
	static const u32 want[] = { 0, 4, 4, 4, 8, 2 };
	struct vgpu_gpu_kernel *k;
	unsigned int i;

	memset(out, 0xff, sizeof(out));
	fn_setup(VGPU_PREEMPT_DRAIN);
	k = vgpu_tg_kernel(&T, 0, 0, 0, 32, 0,
			   ".functional\nS2R r0, %item\nS2R r1, %nitems\n"
			   "S2R r2, %ctaid\nMOVI r3, 3\nSHL r4, r2, r3\n"
			   "STG [s0 + r4], r0\nSTG [s0 + r4 + 4], r1\nEXIT\n");
	k->args.fn = true;
	k->args.regs = 8;
	k->args.slots = slot;
	k->args.flags = VGPU_KF_QUEUE;
	k->args.queue_n = 4;
	k->args.queue_cap = 64;
	k->args.queue_timeout = 200;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	push[0].items = 10;
	push[1].flags = VGPU_GPU_PUSH_CLOSE;
	ASSERT_EQ(0, vgpu_gpu_queue_push(&T.g, k, &push[0]));
	ASSERT_EQ(0, vgpu_gpu_queue_push(&T.g, k, &push[1]));
	ASSERT_TRUE(fn_loop(false, 1000000));
	EXPECT_EQ(VGPU_KS_DONE, k->state);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		EXPECT_EQ(want[i], out[i]) TH_LOG("word %u", i);
	EXPECT_EQ(0xffffffffU, out[6]);
	while (vgpu_gpu_push_reap(&T.g))
		;
	fn_teardown();
}

/*
 * F15: LAUNCH WAIT suspends a functional block (its data copied out while
 * the child runs) and restores it: each thread keeps g + 100 in shared
 * memory and 7 in a register across the wait, then stores their sum.
 */
TEST(suspension_keeps_a_blocks_data)
{
	static struct vgpu_gpu_kernel store[VGPU_MAX_CHILDREN];
	static struct vgpu_gpu_template tmpl[VGPU_MAX_TEMPLATES];
	static struct vgpu_vasm_prog tprog;
	static u16 tmatch[16];
	static u32 out[128];
	struct vgpu_lane_slot slot[VGPU_ISA_MAX_SLOTS] = { FN_SLOT(out, 0) };
	static const char child[] = "LOOP 500\nALU\nENDLOOP\nEXIT\n";
	struct vgpu_gpu_kernel *k;
	char err[256];
	unsigned int i;

	ASSERT_EQ(0, vgpul_vasm_assemble("child", child, strlen(child), 0,
					 &tprog, err, sizeof(err)));
	memset(tmpl, 0, sizeof(tmpl));
	tmpl[0].grid = 1;
	tmpl[0].threads = 32;
	tmpl[0].regs = 32;
	tmpl[0].prog = tprog.insns;
	tmpl[0].n_insns = tprog.n;
	tmpl[0].match = tmatch;
	memset(out, 0, sizeof(out));
	fn_setup(VGPU_PREEMPT_SWITCH);
	k = vgpu_tg_kernel(&T, 0, 1, 2, 64, 0,
			   ".functional\n"
			   "S2R r0, %tid\nS2R r1, %ctaid\nS2R r2, %ntid\n"
			   "IMAD r3, r1, r2, r0\nMOVI r4, 2\nSHL r5, r0, r4\n"
			   "IADDI r6, r3, 100\nSTS [r5], r6\nMOVI r7, 7\n"
			   "LAUNCH 0, wait\n"
			   "LDS r8, [r5]\nIADD r8, r8, r7\nSHL r9, r3, r4\n"
			   "STG [s0 + r9], r8\nEXIT\n");
	k->args.fn = true;
	k->args.regs = 16;
	k->args.smem = 256;
	k->args.slots = slot;
	k->args.tmpl = tmpl;
	k->args.n_tmpl = 1;
	k->args.child_budget = 4;
	k->args.child_store = store;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_TRUE(fn_loop(false, 1000000));
	EXPECT_EQ(VGPU_KS_DONE, k->state);
	EXPECT_EQ(2, k->child.launched);
	EXPECT_EQ(2, T.g.stats.suspensions);
	for (i = 0; i < 128; i++)
		EXPECT_EQ(i + 107, out[i]) TH_LOG("thread %u", i);
	fn_teardown();
	vgpul_vasm_free(&tprog);
}

/*
 * Only a global atomic waits for the boundary: every other functional
 * instruction costs its class's latency, as in the timing model (F04).
 * FN_LOOP10 on one warp alone: MOVI, MOVI (MOV, 2 cycles each), then ten
 * times IADDI (ALU, 4), ISETP (CMP, 2), BRP (BRA, 4): 2 * 2 + 10 * 10 =
 * 104 cycles from its first instruction to EXIT, far less than the 32
 * boundaries (2,048 cycles) it would take if each instruction waited for
 * one.
 */
TEST(alu_instructions_do_not_wait_for_the_boundary)
{
	static u32 buf[64];
	struct vgpu_lane_slot slot[VGPU_ISA_MAX_SLOTS] = { FN_SLOT(buf, 0) };
	struct vgpu_gpu_kernel *k;

	fn_setup(VGPU_PREEMPT_SWITCH);
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, FN_LOOP10);
	k->args.fn = true;
	k->args.regs = 16;
	k->args.slots = slot;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_TRUE(fn_loop(false, 1000000));
	ASSERT_EQ(VGPU_KS_DONE, k->state);
	ASSERT_NE(VGPU_GPU_NO_CYCLE, k->t.start);
	EXPECT_LE(104, k->t.end - k->t.start);
	EXPECT_GE(104 + T.g.p.timing.latency[VGPU_OP_BRA - VGPU_OP_MOV],
		  k->t.end - k->t.start);
	fn_teardown();
}

VGPU_TEST_SUITE(fn,
	VGPU_CASE(vector_add)
	VGPU_CASE(reduce)
	VGPU_CASE(matmul)
	VGPU_CASE(histogram)
	VGPU_CASE(scan)
	VGPU_CASE(bad_programs_fail_their_kernel)
	VGPU_CASE(guards_find_a_write_between_regions)
	VGPU_CASE(submit_checks)
	VGPU_CASE(insn_budget)
	VGPU_CASE(alu_instructions_do_not_wait_for_the_boundary)
	VGPU_CASE(private_memory_and_registers_survive_a_switch)
	VGPU_CASE(insn_budget_counts_across_a_switch)
	VGPU_CASE(queue_blocks_read_their_items)
	VGPU_CASE(suspension_keeps_a_blocks_data)
);
