// SPDX-License-Identifier: GPL-2.0
/*
 * Edges the other suites leave open, each found by a mutant of the core
 * that they let through (scripts/mutate, Documentation/testing.rst): the
 * bounds of the core's loops and checks at the value where they bind (the
 * submission's edges are in test_check.c).  Expectations are
 * the spec's and the "small" preset's (4 SMs, 4 sub-partitions, 1024
 * threads a block).
 */
#include <stdint.h>
#include <string.h>

#include "vgpu_test.h"
#include "vgpu_test_gpu.h"
#include "check.h"
#include "gpu_internal.h"
#include "isa.h"
#include "kernel.h"
#include "resource.h"

static struct vgpu_tg T;
static bool LIVE;

FIXTURE(edges) { int unused; };
FIXTURE_SETUP(edges) { LIVE = false; }
FIXTURE_TEARDOWN(edges)
{
	if (LIVE)
		vgpu_tg_fini(&T);
	LIVE = false;
}

/*
 * The block level of F23 (c) (vgpu_gpu_block_level_fits()) needs a block
 * slot, the block's barriers and a run of shared memory, each on its own:
 * an SM short of any one of them refuses, with the other two free.
 */
TEST(block_level_needs_each_resource)
{
	VGPU_TEST_BIG struct vgpu_sm_res res;
	VGPU_TEST_BIG struct vgpu_gpu g;	/* only its exact search is read */
	struct vgpu_block_shape sh;
	struct vgpu_config cfg;

	memset(&g, 0, sizeof(g));
	g.p.search = VGPU_SEARCH_EXACT;
	vgpu_config_preset(&cfg, "small");
	vgpu_sm_res_init(&res, &cfg);
	ASSERT_EQ(0, vgpu_block_shape_init(&sh, &cfg, 32, 32, 4096, 1, NULL));
	ASSERT_EQ(1, sh.barriers);
	ASSERT_LT(0, sh.smem_units);
	EXPECT_TRUE(vgpu_gpu_block_level_fits(&g, &res, &sh));
	res.barriers_used = res.max_barriers;
	EXPECT_FALSE(vgpu_gpu_block_level_fits(&g, &res, &sh));
	res.barriers_used = res.max_barriers - 1;
	EXPECT_TRUE(vgpu_gpu_block_level_fits(&g, &res, &sh));
	res.barriers_used = 0;
	res.blocks_used = res.max_blocks;
	EXPECT_FALSE(vgpu_gpu_block_level_fits(&g, &res, &sh));
	res.blocks_used = res.max_blocks - 1;
	EXPECT_TRUE(vgpu_gpu_block_level_fits(&g, &res, &sh));
	res.blocks_used = 0;
	memset(res.smem, 0, sizeof(res.smem));
	EXPECT_FALSE(vgpu_gpu_block_level_fits(&g, &res, &sh));
	vgpu_sm_res_fini(&res);
}

/*
 * The largest count of a LOOP over a block's work items (F14):
 * base + step * (mod - 1), the index being below the block's items and so
 * at most VGPU_MAX_COALESCE (uapi: count = base + step * (index % mod)).
 */
TEST(loop_max_over_work_items)
{
	struct vgpu_insn in;

	memset(&in, 0, sizeof(in));
	in.op = VGPU_OP_LOOP;
	in.a = VGPU_LOOP_SEL_ITEMS;
	in.imm = VGPU_LOOP_IMM(1, 2);
	in.b = 4;
	EXPECT_EQ(1 + 2 * 3, vgpu_isa_loop_max(&in));
	in.b = 1;
	EXPECT_EQ(1, vgpu_isa_loop_max(&in));
	in.b = VGPU_MAX_COALESCE + 1;
	EXPECT_EQ(1 + 2 * VGPU_MAX_COALESCE, vgpu_isa_loop_max(&in));
	in.b = 255;
	EXPECT_EQ(1 + 2 * VGPU_MAX_COALESCE, vgpu_isa_loop_max(&in));
}

/*
 * F22's windows (vgpu_gpu_params_validate(), bad = "windows"): each one
 * longer than 0 and at most VGPU_GPU_MAX_EPOCH cycles, none longer than
 * the one before (decreasing, equal allowed); each bound at its edge.
 */
TEST(window_lengths)
{
	VGPU_TEST_BIG struct vgpu_gpu_params p;
	struct vgpu_config cfg;
	const char *bad;

	ASSERT_EQ(0, vgpu_config_preset(&cfg, "small"));
	vgpu_gpu_params_default(&p, &cfg);
	p.num_windows = 2;
	p.window[0] = VGPU_GPU_MAX_EPOCH;
	p.window[1] = VGPU_GPU_MAX_EPOCH;
	bad = NULL;
	EXPECT_EQ(0, vgpu_gpu_params_validate(&p, &cfg, &bad));
	EXPECT_EQ(NULL, bad);
	p.window[0] = VGPU_GPU_MAX_EPOCH + 1;
	EXPECT_EQ(-EINVAL, vgpu_gpu_params_validate(&p, &cfg, &bad));
	EXPECT_STREQ("windows", bad);
	p.window[0] = 256;
	p.window[1] = 256;
	bad = NULL;
	EXPECT_EQ(0, vgpu_gpu_params_validate(&p, &cfg, &bad));
	p.window[1] = 257;
	EXPECT_EQ(-EINVAL, vgpu_gpu_params_validate(&p, &cfg, &bad));
	EXPECT_STREQ("windows", bad);
	p.window[1] = 0;
	bad = NULL;
	EXPECT_EQ(-EINVAL, vgpu_gpu_params_validate(&p, &cfg, &bad));
	EXPECT_STREQ("windows", bad);
	p.window[0] = 0;
	p.window[1] = 0;
	p.num_windows = 1;
	bad = NULL;
	EXPECT_EQ(-EINVAL, vgpu_gpu_params_validate(&p, &cfg, &bad));
	EXPECT_STREQ("windows", bad);
}

/*
 * vgpu_gpu_syncs() sums &vgpu_sm_stats.syncs over the device's SMs, and
 * only theirs (F17): one sync on each of the 4 SMs of "small" reads 4.
 */
TEST_F(edges, syncs_sum_every_sm)
{
	u32 i;

	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	LIVE = true;
	EXPECT_EQ(0, vgpu_gpu_syncs(&T.g));
	for (i = 0; i < T.g.cfg.num_sms; i++)
		T.g.sm[i].sm.stats.syncs = 1;
	EXPECT_EQ(4, vgpu_gpu_syncs(&T.g));
}

/*
 * F13: a task table of exactly 64 slots (one whole word of its bitmaps)
 * takes 64 kernels, one per channel, at the first boundary; 65 slots take
 * the 65th too (the second word's single slot).
 */
TEST_F(edges, task_table_of_whole_words)
{
	static const u32 slots[] = { 64, 65 };
	static struct vgpu_gpu_kernel k[65];
	struct vgpu_gpu_kernel *one;
	struct vgpu_gpu_params p;
	u32 i, n, in;

	for (n = 0; n < ARRAY_SIZE(slots); n++) {
		vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
		p.task_slots = slots[n];
		p.max_channels = 65;
		ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
		LIVE = true;
		/* one program; a descriptor per channel */
		one = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0,
				     "LOOP 1000\nALU\nENDLOOP\nEXIT\n");
		for (i = 0; i < slots[n]; i++) {
			if (i >= 8)
				ASSERT_EQ(0, vgpu_gpu_channel_add(&T.g, i, 0));
			k[i] = *one;
			k[i].args.id = 100 + i;
			k[i].args.channel = i;
			ASSERT_EQ(0, vgpu_gpu_submit(&T.g, &k[i]));
		}
		vgpu_gpu_dispatch(&T.g);
		in = 0;
		for (i = 0; i < slots[n]; i++)
			in += k[i].state == VGPU_KS_ACTIVE ||
			      k[i].state == VGPU_KS_DRAINING;
		EXPECT_EQ(slots[n], in);
		EXPECT_TRUE(vgpu_tg_run(&T, 1000000));
		vgpu_tg_fini(&T);
		LIVE = false;
	}
}

/*
 * F11: a kernel names a channel of the device that was added: the last
 * one (max_channels - 1) once added is taken; one past the channels, or
 * one not added, is -ENOENT.
 */
TEST_F(edges, submit_channel_bound)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *k;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.max_channels = 16;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	LIVE = true;
	k = vgpu_tg_kernel(&T, 15, 0, 1, 32, 0, "EXIT\n");
	EXPECT_EQ(-ENOENT, vgpu_gpu_submit(&T.g, k));
	k = vgpu_tg_kernel(&T, 16, 0, 1, 32, 0, "EXIT\n");
	EXPECT_EQ(-ENOENT, vgpu_gpu_submit(&T.g, k));
	ASSERT_EQ(0, vgpu_gpu_channel_add(&T.g, 15, 0));
	k = vgpu_tg_kernel(&T, 15, 0, 1, 32, 0, "EXIT\n");
	EXPECT_EQ(0, vgpu_gpu_submit(&T.g, k));
	EXPECT_TRUE(vgpu_tg_run(&T, 100000));
}

VGPU_TEST_SUITE(edges,
	VGPU_CASE(block_level_needs_each_resource)
	VGPU_CASE(loop_max_over_work_items)
	VGPU_CASE(window_lengths)
	VGPU_CASE_F(edges, syncs_sum_every_sm)
	VGPU_CASE_F(edges, task_table_of_whole_words)
	VGPU_CASE_F(edges, submit_channel_bound))
