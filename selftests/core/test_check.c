// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_gpu_kernel_check(): the module's SUBMIT calls it instead
 * of repeating the core's checks, so it must refuse exactly what
 * vgpu_gpu_submit() refuses, with the same error.  Every case states its
 * expected result from the spec and the "small" preset (4 SMs, 4
 * sub-partitions of 16384 registers in units of 256, 1024 threads and
 * 163 KiB of shared memory per block, 1024 bytes reserved per block, 164
 * KiB per SM), and both functions must give it.
 */
#include <stdint.h>
#include <string.h>

#include "vgpu_test.h"
#include "vgpu_test_gpu.h"
#include "check.h"
#include "kernel.h"

static struct vgpu_tg T;
static struct vgpu_gpu_template TMPL[2];
static struct vgpu_gpu_kernel CHILDREN[4];
static bool LIVE;

/* A fresh device and a valid one-block kernel of @src on channel 0. */
static struct vgpu_gpu_kernel *fresh(const char *src)
{
	if (LIVE)
		vgpu_tg_fini(&T);
	if (vgpu_tg_init(&T, NULL, NULL))
		abort();
	LIVE = true;
	return vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, src);
}

/* The check and the core agree, and both give @want. */
#define AGREE(k, want) VGPU_TG_AGREE(&T, (k), (want))

/* A kernel of one valid template, which the caller then breaks. */
static struct vgpu_gpu_kernel *with_tmpl(void)
{
	struct vgpu_gpu_kernel *k = fresh("EXIT\n");

	vgpu_tg_template(&T, &TMPL[0], "EXIT\n");
	k->args.n_tmpl = 1;
	k->args.tmpl = TMPL;
	return k;
}

FIXTURE(check) { int unused; };
FIXTURE_SETUP(check) { LIVE = false; }
FIXTURE_TEARDOWN(check)
{
	if (LIVE)
		vgpu_tg_fini(&T);
	LIVE = false;
}

TEST_F(check, valid)
{
	AGREE(fresh("EXIT\n"), 0);
}

TEST_F(check, fields)
{
	struct vgpu_gpu_kernel *k;

	k = fresh("EXIT\n");
	k->args.flags = BIT(31);			/* no such flag */
	AGREE(k, -EINVAL);
	k = fresh("EXIT\n");
	k->args.prio = 4;				/* 4 priorities: 0..3 */
	AGREE(k, -EINVAL);
	k = fresh("EXIT\n");
	k->args.threads = 0;
	AGREE(k, -EINVAL);
	k = fresh("EXIT\n");
	k->args.deadline = VGPU_GPU_MAX_DEADLINE + 1;
	AGREE(k, -EINVAL);
	k = fresh("EXIT\n");
	k->args.deadline = VGPU_GPU_MAX_DEADLINE;
	AGREE(k, 0);
	k = fresh("EXIT\n");
	k->args.grid = 0;				/* F10: a grid kernel has blocks */
	AGREE(k, -EINVAL);
	k = fresh("EXIT\n");
	k->args.child_budget = 1;			/* without its storage */
	AGREE(k, -EINVAL);
	k = fresh("EXIT\n");
	k->args.child_budget = 4;
	k->args.child_store = CHILDREN;
	AGREE(k, 0);
}

/* F14: a queue kernel has its queue fields and no grid. */
TEST_F(check, queue)
{
	struct vgpu_gpu_kernel *k;

	k = fresh("EXIT\n");
	k->args.flags = VGPU_KF_QUEUE;
	k->args.grid = 0;
	k->args.queue_n = 1;
	k->args.queue_cap = 8;
	k->args.queue_timeout = 100;
	AGREE(k, 0);
	k = fresh("EXIT\n");
	k->args.flags = VGPU_KF_QUEUE;		/* and a grid */
	k->args.queue_n = 1;
	k->args.queue_cap = 8;
	k->args.queue_timeout = 100;
	AGREE(k, -EINVAL);
	k = fresh("EXIT\n");
	k->args.queue_n = 1;				/* queue fields, no queue */
	AGREE(k, -EINVAL);
}

/* F24, F15: an independent kernel has no BAR; LAUNCH names a template. */
TEST_F(check, program)
{
	struct vgpu_gpu_kernel *k;

	k = fresh("BAR\nEXIT\n");
	AGREE(k, 0);
	k = fresh("BAR\nEXIT\n");
	k->args.flags = VGPU_KF_INDEPENDENT;
	AGREE(k, -EINVAL);
	k = fresh("LAUNCH 0\nEXIT\n");		/* no template 0 */
	k->args.child_budget = 1;
	k->args.child_store = CHILDREN;
	AGREE(k, -EINVAL);
	k = fresh("LAUNCH 0\nEXIT\n");
	vgpu_tg_template(&T, &TMPL[0], "EXIT\n");
	k->args.n_tmpl = 1;
	k->args.tmpl = TMPL;
	k->args.child_budget = 1;
	k->args.child_store = CHILDREN;
	AGREE(k, 0);
}

/*
 * vgpu_gpu_submit() builds the kernel's descriptor from the check's
 * summary and shape (vgpu_gpu_kernel_check_sum()) and links the program
 * without a second scan: the descriptor is the one vgpu_kernel_desc_init()
 * makes, for programs with and without BAR, nested loops, scalar
 * registers and shared memory.
 */
TEST_F(check, submit_desc_is_desc_init)
{
	static const char *const src[] = {
		"EXIT\n",
		"BAR\nEXIT\n",
		"LOOP 3\nALU\nLOOP 2\nBAR\nENDLOOP\nENDLOOP\nEXIT\n",
		"LOOP 4\nLOAD\nENDLOOP\nALU\nEXIT\n",
	};
	struct vgpu_kernel_desc ref;
	struct vgpu_gpu_kernel *k;
	static u16 match[VGPU_ISA_MAX_INSNS];
	u32 i, j;

	for (i = 0; i < 2 * ARRAY_SIZE(src); i++) {
		k = fresh(src[i % ARRAY_SIZE(src)]);
		k->args.threads = 96 + 32 * i;
		k->args.regs = 16 + 8 * i;
		k->args.smem = 1000 * i;
		k->args.sregs = i >= ARRAY_SIZE(src) && T.g.cfg.sregs_per_subpart ?
			   T.g.cfg.sreg_unit + 1 : 0;
		memset(k->args.match, 0xa5, k->args.n_insns * sizeof(k->args.match[0]));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
		memset(&ref, 0, sizeof(ref));
		ref.id = k->args.id;
		ref.prio = k->args.prio;
		ref.grid = k->args.grid;
		ref.threads = k->args.threads;
		ref.regs_per_thread = k->args.regs;
		ref.smem_bytes = k->args.smem;
		ref.sregs = k->args.sregs;
		ASSERT_EQ(0, vgpu_kernel_desc_init(&ref, &T.g.cfg, k->args.prog,
						   k->args.n_insns, match));
		EXPECT_EQ(0, memcmp(&ref.sum, &k->desc.sum, sizeof(ref.sum)));
		EXPECT_EQ(0, memcmp(&ref.shape, &k->desc.shape,
				    sizeof(ref.shape)));
		EXPECT_EQ(ref.sum.uses_bar, k->desc.shape.barriers);
		EXPECT_EQ(k->args.prog, k->desc.prog);
		EXPECT_EQ(k->args.match, k->desc.match);
		EXPECT_EQ(k->args.n_insns, k->desc.n_insns);
		for (j = 0; j < k->args.n_insns; j++)
			EXPECT_EQ(match[j], k->args.match[j]);
	}
}

/*
 * F02, F31: 1024 threads are 32 warps, 8 per sub-partition; at 64
 * registers a warp takes 8 units of 256 and 8 warps the 64 units of a
 * sub-partition; at 65, 9 units each no longer fit.  163 KiB of shared
 * memory and the 1 KiB reserve are the 164 KiB of an SM.
 */
TEST_F(check, block_fits_an_empty_sm)
{
	struct vgpu_gpu_kernel *k;

	k = fresh("EXIT\n");
	k->args.threads = 1024;
	k->args.regs = 64;
	AGREE(k, 0);
	k = fresh("EXIT\n");
	k->args.threads = 1024;
	k->args.regs = 65;
	AGREE(k, -E2BIG);
	k = fresh("EXIT\n");
	k->args.threads = 1056;			/* above 1024 per block */
	AGREE(k, -E2BIG);
	k = fresh("EXIT\n");
	k->args.smem = 163 * 1024;
	AGREE(k, 0);
	k = fresh("EXIT\n");
	k->args.smem = 163 * 1024 + 1;
	AGREE(k, -E2BIG);
}

/* F35: one level per warp (64 threads: 2 warps), each below 4 levels. */
TEST_F(check, warp_levels)
{
	struct vgpu_gpu_kernel *k;

	k = fresh("EXIT\n");
	k->args.threads = 64;
	k->args.n_warp_prio = 2;
	k->args.warp_prio[0] = 3;
	AGREE(k, 0);
	k = fresh("EXIT\n");
	k->args.threads = 64;
	k->args.n_warp_prio = 1;
	AGREE(k, -EINVAL);
	k = fresh("EXIT\n");
	k->args.threads = 64;
	k->args.n_warp_prio = 2;
	k->args.warp_prio[1] = 4;
	AGREE(k, -EINVAL);
}

/* F14: a program with PUSH has a target, and only such a program. */
TEST_F(check, push_target)
{
	struct vgpu_gpu_kernel *k;

	k = fresh("PUSH 3\nEXIT\n");
	AGREE(k, -EINVAL);
	k = fresh("EXIT\n");
	k->args.push_to = &CHILDREN[0];
	AGREE(k, -EINVAL);
}

/* F25: an affinity mask must name one of the 4 SMs; none set is all. */
TEST_F(check, affinity)
{
	struct vgpu_gpu_kernel *k;

	k = fresh("EXIT\n");
	k->args.affinity[0] = BIT_ULL(3);
	AGREE(k, 0);
	k = fresh("EXIT\n");
	k->args.affinity[0] = BIT_ULL(4);		/* SM 4 does not exist */
	AGREE(k, -EINVAL);
	k = fresh("EXIT\n");
	k->args.affinity[1] = 1;			/* SM 64 neither */
	AGREE(k, -EINVAL);
}

/* F15: each template is checked as a kernel of its own. */
TEST_F(check, templates)
{
	struct vgpu_gpu_kernel *k;

	k = fresh("EXIT\n");
	vgpu_tg_template(&T, &TMPL[0], "EXIT\n");
	TMPL[0].grid = 0;
	k->args.n_tmpl = 1;
	k->args.tmpl = TMPL;
	AGREE(k, -EINVAL);
	k = fresh("EXIT\n");
	vgpu_tg_template(&T, &TMPL[0], "EXIT\n");
	TMPL[0].flags = VGPU_KF_QUEUE;		/* not a template's flag */
	k->args.n_tmpl = 1;
	k->args.tmpl = TMPL;
	AGREE(k, -EINVAL);
	k = fresh("EXIT\n");
	vgpu_tg_template(&T, &TMPL[0], "EXIT\n");
	TMPL[0].threads = 1024;
	TMPL[0].regs = 65;
	k->args.n_tmpl = 1;
	k->args.tmpl = TMPL;
	AGREE(k, -E2BIG);
	k = fresh("EXIT\n");
	vgpu_tg_template(&T, &TMPL[0], "LAUNCH 1\nEXIT\n");	/* names the second one */
	vgpu_tg_template(&T, &TMPL[1], "EXIT\n");
	k->args.n_tmpl = 2;
	k->args.tmpl = TMPL;
	AGREE(k, 0);
	k = fresh("EXIT\n");
	vgpu_tg_template(&T, &TMPL[0], "LAUNCH 1\nEXIT\n");	/* a template it lacks */
	k->args.n_tmpl = 1;
	k->args.tmpl = TMPL;
	AGREE(k, -EINVAL);
}

/*
 * A template (F15) is refused with -EINVAL for each missing field alone:
 * no blocks, no threads, no program, an empty program, no links; the
 * unbroken one is accepted.
 */
TEST_F(check, template_fields_one_at_a_time)
{
	struct vgpu_gpu_kernel *k;

	AGREE(with_tmpl(), 0);
	k = with_tmpl();
	TMPL[0].grid = 0;
	AGREE(k, -EINVAL);
	k = with_tmpl();
	TMPL[0].threads = 0;
	AGREE(k, -EINVAL);
	k = with_tmpl();
	TMPL[0].prog = NULL;
	AGREE(k, -EINVAL);
	k = with_tmpl();
	TMPL[0].n_insns = 0;
	AGREE(k, -EINVAL);
	k = with_tmpl();
	TMPL[0].match = NULL;
	AGREE(k, -EINVAL);
}

/*
 * vgpu_kernel_desc_init() (the core's door for vgpu-sim exec and the
 * templates) refuses an empty grid and a priority out of range, each
 * alone, with -EINVAL (its kernel-doc).
 */
TEST_F(check, desc_init_grid_and_prio_each_alone)
{
	VGPU_TEST_BIG struct vgpu_kernel_desc d;
	struct vgpu_gpu_kernel *k = fresh("EXIT\n");
	u16 match[4];

	memset(&d, 0, sizeof(d));
	d.grid = 1;
	d.threads = 32;
	d.regs_per_thread = 32;
	EXPECT_EQ(0, vgpu_kernel_desc_init(&d, &T.g.cfg, k->args.prog,
					   k->args.n_insns, match));
	d.grid = 0;
	EXPECT_EQ(-EINVAL, vgpu_kernel_desc_init(&d, &T.g.cfg, k->args.prog,
						 k->args.n_insns, match));
	d.grid = 1;
	d.prio = VGPU_MAX_PRIOS;
	EXPECT_EQ(-EINVAL, vgpu_kernel_desc_init(&d, &T.g.cfg, k->args.prog,
						 k->args.n_insns, match));
	d.prio = VGPU_MAX_PRIOS - 1;
	EXPECT_EQ(0, vgpu_kernel_desc_init(&d, &T.g.cfg, k->args.prog,
					   k->args.n_insns, match));
}

/*
 * vgpu_block_fits_empty() (what every check asks, from the sizes) answers
 * what the maps of an empty SM answer, vgpu_sm_res_block_fits(): on every
 * preset and on "small" with a scalar file of 1024 registers in units of
 * 64, for blocks around every warp count, every register count, shared
 * memory units and barriers around an SM's (set in the shape directly: a
 * block's limits keep them below), with and without scalar registers.
 * Both answers occur thousands of times.
 */
TEST_F(check, fits_empty_is_the_maps)
{
	static const char *const presets[] = { "small", "a100", "h100",
					       "small" };
	static const u32 threads[] = {
		1, 31, 32, 33, 63, 64, 65, 96, 127, 128, 129, 160, 255, 256,
		257, 384, 511, 512, 513, 640, 768, 896, 1023, 1024,
	};
	static const u32 sregs[] = { 0, 1, 64, 65, 128, 256, 512, 1024 };
	static struct vgpu_sm_res empty;
	u32 c, t, r, m, b, x, i, j, n, nx, fit = 0, nofit = 0, units;
	struct vgpu_block_shape shape;
	struct vgpu_config cfg;
	u32 smem[5], bars[4];
	const char *bad;
	bool want;

	for (c = 0; c < ARRAY_SIZE(presets); c++) {
		ASSERT_EQ(0, vgpu_config_preset(&cfg, presets[c]));
		if (c == 3) {
			cfg.sregs_per_subpart = 1024;
			cfg.sreg_unit = 64;
		}
		ASSERT_EQ(0, vgpu_config_validate(&cfg, &bad));
		vgpu_sm_res_init(&empty, &cfg);
		units = vgpu_config_smem_units(&cfg);
		smem[0] = 0;
		smem[1] = 1;
		smem[2] = units - 1;
		smem[3] = units;
		smem[4] = units + 1;
		bars[0] = 0;
		bars[1] = 1;
		bars[2] = cfg.max_barriers_per_sm;
		bars[3] = cfg.max_barriers_per_sm + 1;
		/* every combination: index i, digit by digit */
		nx = c == 3 ? ARRAY_SIZE(sregs) : 1;
		n = ARRAY_SIZE(threads) * VGPU_MAX_REGS_PER_THREAD *
		    ARRAY_SIZE(smem) * ARRAY_SIZE(bars) * nx;
		for (i = 0; i < n; i++) {
			t = i % ARRAY_SIZE(threads);
			r = 1 + i / ARRAY_SIZE(threads) %
				VGPU_MAX_REGS_PER_THREAD;
			j = i / ARRAY_SIZE(threads) / VGPU_MAX_REGS_PER_THREAD;
			m = j % ARRAY_SIZE(smem);
			b = j / ARRAY_SIZE(smem) % ARRAY_SIZE(bars);
			x = j / ARRAY_SIZE(smem) / ARRAY_SIZE(bars);
			if (vgpu_block_shape_init(&shape, &cfg, threads[t], r,
						  0, 0, NULL) ||
			    vgpu_block_shape_set_sregs(&shape, &cfg, sregs[x]))
				continue;
			shape.smem_units = smem[m];
			shape.barriers = bars[b];
			want = vgpu_sm_res_block_fits(&empty, &shape);
			ASSERT_EQ(want, vgpu_block_fits_empty(&cfg, &shape));
			if (want)
				fit++;
			else
				nofit++;
		}
	}
	EXPECT_LT(10000, fit);
	EXPECT_LT(10000, nofit);
}

/*
 * vgpu_gpu_kernel_prepare(): the check of vgpu_gpu_kernel_check(), kept in
 * the kernel, so that vgpu_gpu_submit() does not make it again (the
 * module's SUBMIT prepares, the controller submits at the next boundary).
 * A kernel that fails it is not prepared and the core still refuses it;
 * the descriptor a prepared kernel gets is the one an unprepared gets.
 */
TEST_F(check, prepare_once)
{
	struct vgpu_kernel_desc ref;
	struct vgpu_gpu_kernel *k;

	/* valid: prepared, submitted, the mark consumed */
	k = fresh("LOOP 3\nBAR\nENDLOOP\nEXIT\n");
	k->args.threads = 96;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ref = k->desc;
	k = fresh("LOOP 3\nBAR\nENDLOOP\nEXIT\n");
	k->args.threads = 96;
	ASSERT_EQ(0, vgpu_gpu_kernel_prepare(&T.g.cfg, &T.g.p, k));
	EXPECT_TRUE(k->prepared);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	EXPECT_FALSE(k->prepared);
	EXPECT_EQ(0, memcmp(&ref.sum, &k->desc.sum, sizeof(ref.sum)));
	EXPECT_EQ(0, memcmp(&ref.shape, &k->desc.shape, sizeof(ref.shape)));

	/* invalid: refused by both, not prepared */
	k = fresh("EXIT\n");
	k->args.threads = 2048;	/* more than a block may have */
	EXPECT_EQ(-E2BIG, vgpu_gpu_kernel_prepare(&T.g.cfg, &T.g.p, k));
	EXPECT_FALSE(k->prepared);
	EXPECT_EQ(-E2BIG, vgpu_gpu_submit(&T.g, k));

	/*
	 * Prepared, then a checked field broken: the core does not look
	 * again (the host's fields must not change in between), which is
	 * what makes the check once.
	 */
	k = fresh("EXIT\n");
	ASSERT_EQ(0, vgpu_gpu_kernel_prepare(&T.g.cfg, &T.g.p, k));
	k->args.flags |= VGPU_KF_ALL + 1;
	EXPECT_EQ(0, vgpu_gpu_submit(&T.g, k));
	/* a refused submission leaves nothing prepared either */
	k = fresh("EXIT\n");
	ASSERT_EQ(0, vgpu_gpu_kernel_prepare(&T.g.cfg, &T.g.p, k));
	k->args.channel = 99;
	EXPECT_EQ(-ENOENT, vgpu_gpu_submit(&T.g, k));
	EXPECT_FALSE(k->prepared);
}

VGPU_TEST_SUITE(check,
	VGPU_CASE_F(check, valid)
	VGPU_CASE_F(check, fields)
	VGPU_CASE_F(check, queue)
	VGPU_CASE_F(check, program)
	VGPU_CASE_F(check, submit_desc_is_desc_init)
	VGPU_CASE_F(check, block_fits_an_empty_sm)
	VGPU_CASE_F(check, fits_empty_is_the_maps)
	VGPU_CASE_F(check, warp_levels)
	VGPU_CASE_F(check, push_target)
	VGPU_CASE_F(check, affinity)
	VGPU_CASE_F(check, templates)
	VGPU_CASE_F(check, template_fields_one_at_a_time)
	VGPU_CASE_F(check, desc_init_grid_and_prio_each_alone)
	VGPU_CASE_F(check, prepare_once))
