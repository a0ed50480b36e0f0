// SPDX-License-Identifier: GPL-2.0
/*
 * What the controller sees of an SM's resources (seed 001 [0041],
 * embodiment 9, [0256]-[0257]).
 *
 * - The scalar register file is a contiguously allocated resource like
 *   the registers: a warp takes one run of it in its sub-partition.  The
 *   search of a submission (vgpu_gpu_search_fits_empty()), the match of a
 *   block against an SM's runs and path (c) see its largest run in the
 *   device's search mode.
 * - r_h of the registers (vgpu_gpu_sm_free(), the "resource" SM choice's
 *   figure) sums the largest runs of every sub-partition: [0256] counts a
 *   resource's remaining units from its total, [0257] takes the largest
 *   run for a contiguous one, and each sub-partition's file is a map of
 *   its own.  Load on any sub-partition shows; an empty SM's figure is
 *   &vgpu_gpu.free_max.  With a scalar file a sub-partition counts at most
 *   its scalar run as the same share of its register map.
 *
 * Figures of the "small" preset: 4 sub-partitions of 16,384 registers in
 * units of 256 (64 units), warps of 32 threads: r registers a thread are
 * r / 8 units a warp.
 */
#include <stdint.h>
#include <string.h>

#include "vgpu_test.h"
#include "vgpu_test_gpu.h"
#include "check.h"

#define VGPU_SPIN	"SPIN\nEXIT\n"
#define VGPU_SHORT	"LOOP 10\nALU\nENDLOOP\nEXIT\n"
#define VGPU_LONG	"LOOP 2000\nALU\nENDLOOP\nEXIT\n"

static struct vgpu_tg T;

/* Small, with a scalar file of @sregs a sub-partition in units of 64. */
static void cfg_sregs(struct vgpu_config *cfg, u32 sregs)
{
	vgpu_config_preset(cfg, "small");
	cfg->sregs_per_subpart = sregs;
	cfg->sreg_unit = 64;
}

static void dev(const struct vgpu_config *cfg, u32 search, const u32 *w,
		const char *policy)
{
	struct vgpu_gpu_params p;
	struct vgpu_config c;

	if (!cfg) {
		vgpu_config_preset(&c, "small");
		cfg = &c;
	}
	vgpu_gpu_params_default(&p, cfg);
	p.num_windows = 0;
	p.search = search;
	if (w)
		memcpy(p.res_weight, w, sizeof(p.res_weight));
	if (policy)
		snprintf(p.policy, sizeof(p.policy), "%s", policy);
	if (vgpu_tg_init(&T, cfg, &p))
		abort();
}

/* The check and the core agree, and both give @want. */
#define AGREE(k, want) do {						\
	int c_ = vgpu_gpu_kernel_check(&T.g.cfg, &T.g.p, (k));		\
	int s_ = vgpu_gpu_submit(&T.g, (k));				\
	EXPECT_EQ((want), c_);						\
	EXPECT_EQ((want), s_);						\
} while (0)

/*
 * A scalar file of 1,536 registers (24 units of 64): the sampled search
 * sees runs of 16 units at most (F42).  A warp of 1,280 scalar registers
 * (20 units) fits an empty sub-partition, the sampled search never finds
 * it: -E2BIG at submission (it used to be taken and never placed);
 * 1,024 (16 units) is taken and runs.  The exact search takes both.
 */
TEST(sampled_refuses_scalar_registers_it_never_finds)
{
	struct vgpu_gpu_kernel *k;
	struct vgpu_config cfg;
	const char *bad;

	cfg_sregs(&cfg, 1536);
	ASSERT_EQ(0, vgpu_config_validate(&cfg, &bad));
	dev(&cfg, VGPU_SEARCH_SAMPLED, NULL, NULL);
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, VGPU_SHORT);
	k->args.sregs = 1280;
	AGREE(k, -E2BIG);
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, VGPU_SHORT);
	k->args.sregs = 1024;
	AGREE(k, 0);
	EXPECT_TRUE(vgpu_tg_run(&T, 100000));
	vgpu_tg_fini(&T);
	dev(&cfg, VGPU_SEARCH_EXACT, NULL, NULL);
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, VGPU_SHORT);
	k->args.sregs = 1280;
	AGREE(k, 0);
	EXPECT_TRUE(vgpu_tg_run(&T, 100000));
	vgpu_tg_fini(&T);
}

/*
 * The match against an SM's runs sees the scalar file: on SM 0 a block A
 * of 4 warps (one a sub-partition) holds 640 scalar registers a warp (10
 * units) for 2,000 loops, leaving a run of 14 units in every
 * sub-partition, 8 for the sampled search.  B (one warp, 768 = 12 units,
 * SM 0 only) fits now by the exact search (dispatched at its arrival,
 * 64); the sampled search sees no room until A ends (it used to place B
 * at 64 all the same).
 */
TEST(sampled_matches_the_scalar_run)
{
	struct vgpu_gpu_kernel *a, *b;
	struct vgpu_config cfg;
	u32 mode;

	cfg_sregs(&cfg, 1536);
	for (mode = 0; mode < 2; mode++) {
		dev(&cfg, mode ? VGPU_SEARCH_SAMPLED : VGPU_SEARCH_EXACT,
		    NULL, NULL);
		a = vgpu_tg_kernel(&T, 0, 0, 1, 128, 0, VGPU_LONG);
		a->args.sregs = 640;
		a->args.affinity[0] = 1;
		b = vgpu_tg_kernel(&T, 1, 0, 1, 32, 64, VGPU_SHORT);
		b->args.sregs = 768;
		b->args.affinity[0] = 1;
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
		vgpu_tg_until(&T, 128);
		vgpu_gpu_sm_runs(&T.g, 0);
		EXPECT_EQ(mode ? 8 : 14, T.g.sm[0].run_sregs);
		ASSERT_TRUE(vgpu_tg_run(&T, 1000000));
		if (mode) {
			EXPECT_GE(b->t.dispatch, a->t.end);
		} else {
			EXPECT_EQ(64, b->t.dispatch);
		}
		vgpu_tg_fini(&T);
	}
}

/*
 * r_h of the registers sums the sub-partitions' largest runs (weights:
 * registers only).  An empty SM: 4 x 64 = 256 = free_max.  One warp of 64
 * registers a thread (8 units) on SM 0: 56 + 3 x 64 = 248 (the best
 * sub-partition alone said 64, as if the SM were empty).  With a scalar
 * file of 1,024 (16 units) and the warp holding 512 scalar registers (8
 * units): sub-partition 0 has 8 of 16 scalar units, half its map, so it
 * counts min(56, 32) = 32: 32 + 192 = 224.  vgpu_policy_weighted_free()
 * (every free unit) likewise caps the registers by the scalar share.
 */
TEST(free_sums_every_subpartition)
{
	static const u32 regs_only[VGPU_RES_NUM] = { 1, 0, 0, 0 };
	struct vgpu_gpu_kernel *k;
	struct vgpu_config cfg;
	u32 s;

	for (s = 0; s < 2; s++) {
		cfg_sregs(&cfg, s ? 1024 : 0);
		if (!s)
			cfg.sreg_unit = 0;
		dev(&cfg, VGPU_SEARCH_EXACT, regs_only, NULL);
		EXPECT_EQ(256, T.g.free_max);
		k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, VGPU_SPIN);
		k->args.regs = 64;
		k->args.sregs = s ? 512 : 0;
		k->args.affinity[0] = 1;
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
		vgpu_tg_until(&T, 128);
		EXPECT_EQ(s ? 224 : 248, vgpu_gpu_sm_free(&T.g, 0));
		EXPECT_EQ(256, vgpu_gpu_sm_free(&T.g, 1));
		/*
		 * a policy's count of free units: 248 registers, 56 of 64
		 * scalar units (224 of 256 as a share)
		 */
		EXPECT_EQ(s ? 224 : 248,
			  vgpu_policy_weighted_free(vgpu_gpu_sm_res(&T.g, 0),
						    regs_only));
		vgpu_gpu_cancel(&T.g, k);
		ASSERT_TRUE(vgpu_tg_run(&T, 100000));
		vgpu_tg_fini(&T);
	}
}

/*
 * The resource policy sees the load on every sub-partition (weights:
 * registers only).  SM 0 holds two warps of 256 registers a thread (32
 * units each, sub-partitions 0 and 1): 32 + 32 + 64 + 64 = 192.  SM 1
 * holds one warp of 192 (24 units): 40 + 3 x 64 = 232.  Their best
 * sub-partitions tie at 64 (SM 0 won the tie); by the sums a block for
 * SMs 0 and 1 goes to SM 1.
 */
TEST(resource_choice_sees_every_subpartition)
{
	static const u32 regs_only[VGPU_RES_NUM] = { 1, 0, 0, 0 };
	struct vgpu_gpu_kernel *a, *b, *c;
	const struct vgpu_event *ev;

	dev(NULL, VGPU_SEARCH_EXACT, regs_only, "resource");
	a = vgpu_tg_kernel(&T, 0, 0, 1, 64, 0, VGPU_SPIN);
	a->args.regs = 255;
	a->args.affinity[0] = 1;
	b = vgpu_tg_kernel(&T, 1, 0, 1, 32, 0, VGPU_SPIN);
	b->args.regs = 192;
	b->args.affinity[0] = 2;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
	vgpu_tg_until(&T, 128);
	EXPECT_EQ(192, vgpu_gpu_sm_free(&T.g, 0));
	EXPECT_EQ(232, vgpu_gpu_sm_free(&T.g, 1));
	c = vgpu_tg_kernel(&T, 2, 0, 1, 32, T.g.now, VGPU_SHORT);
	c->args.affinity[0] = 3;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, c));
	vgpu_tg_until(&T, T.g.now + 256);
	ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, c->args.id, 0);
	ASSERT_TRUE(ev != NULL);
	EXPECT_EQ(1, ev->sm);
	vgpu_gpu_cancel(&T.g, a);
	vgpu_gpu_cancel(&T.g, b);
	ASSERT_TRUE(vgpu_tg_run(&T, 1000000));
	vgpu_tg_fini(&T);
}

/*
 * Path (c) sees the scalar file (switch mode, one SM, a scalar file of 24
 * units a sub-partition).  L1 (priority 2) holds 10 units in each
 * sub-partition (units 0-9), L2 (priority 3) 2 more (10-11): a run of 12.
 * H (priority 1, one warp of 13 units) arrives at 128.  Switching out L2
 * (lowest priority first) leaves 14: H fits exactly, so the exact search
 * switches one block out; the sampled search sees 8 there and switches L1
 * out too (24 units, sampled 16).  Four save records, so that switching
 * out never stops for want of one.
 */
static u64 path_c_sregs(u32 search)
{
	struct vgpu_gpu_kernel *l1, *l2, *h;
	struct vgpu_gpu_params p;
	struct vgpu_config cfg;
	u64 pre;

	cfg_sregs(&cfg, 1536);
	cfg.num_sms = 1;
	vgpu_gpu_params_default(&p, &cfg);
	p.num_windows = 0;
	p.preempt = VGPU_PREEMPT_SWITCH;
	p.save_slots = 4;
	p.search = search;
	if (vgpu_tg_init(&T, &cfg, &p))
		abort();
	l1 = vgpu_tg_kernel(&T, 0, 2, 1, 128, 0, VGPU_SPIN);
	l1->args.sregs = 640;
	l2 = vgpu_tg_kernel(&T, 1, 3, 1, 128, 64, VGPU_SPIN);
	l2->args.sregs = 128;
	h = vgpu_tg_kernel(&T, 2, 1, 1, 32, 128, VGPU_SHORT);
	h->args.sregs = 832;
	if (vgpu_gpu_submit(&T.g, l1) || vgpu_gpu_submit(&T.g, l2) ||
	    vgpu_gpu_submit(&T.g, h))
		abort();
	vgpu_tg_until(&T, 1024);
	pre = h->t.dispatch == 128 ? T.g.stats.preemptions : ~0ULL;
	vgpu_gpu_cancel(&T.g, l1);
	vgpu_gpu_cancel(&T.g, l2);
	if (!vgpu_tg_run(&T, 1000000))
		abort();
	vgpu_tg_fini(&T);
	return pre;
}

TEST(path_c_sees_the_scalar_run)
{
	EXPECT_EQ(1, path_c_sregs(VGPU_SEARCH_EXACT));
	EXPECT_EQ(2, path_c_sregs(VGPU_SEARCH_SAMPLED));
}

VGPU_TEST_SUITE(resource_view,
	VGPU_CASE(sampled_refuses_scalar_registers_it_never_finds)
	VGPU_CASE(sampled_matches_the_scalar_run)
	VGPU_CASE(path_c_sees_the_scalar_run)
	VGPU_CASE(free_sums_every_subpartition)
	VGPU_CASE(resource_choice_sees_every_subpartition))
