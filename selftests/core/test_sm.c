// SPDX-License-Identifier: GPL-2.0
/*
 * SM controller tests (F30, F33, F23, F25, F53): exact cycles of tiny
 * programs under the default timing table, round-robin among equal
 * priorities, priority order of issue and of warp starts (a newly arrived
 * higher-priority block overtakes), warp-by-warp placement, resource
 * accounting back to empty, SPIN + cancel, power window and calibration.
 */
#include "vgpu_test.h"
#include "vgpu_test_engine.h"
#include "vgpu_test_rand.h"

#define K(i)	(100 + (i))	/* kernel id of te->k[i] */

FIXTURE(sm) {
	struct vgpu_test_engine *te;
};

FIXTURE_SETUP(sm)
{
	self->te = vgpu_te_new();
	ASSERT_NE(NULL, self->te);
}

FIXTURE_TEARDOWN(sm)
{
	vgpu_te_free(self->te);
}

static u64 vgpu_ev_cycle(struct vgpu_test_engine *te, u32 type, u32 kernel,
			 u32 block, u32 warp)
{
	int i = vgpu_te_find(te, type, kernel, block, warp, 0);

	return i < 0 ? ~0ULL : te->ev[i].cycle;
}

/* Default table: ALU 4, MOV 2, control 1; one warp issues at 0, 4, 6. */
TEST_F(sm, exact_cycles_tiny_program)
{
	struct vgpu_test_engine *te = self->te;

	ASSERT_EQ(0, vgpu_te_init(te));
	ASSERT_EQ(0, vgpu_te_kernel(te, "ALU\nMOV\nEXIT\n", 32, 0, 1));
	ASSERT_EQ(1, vgpu_te_kernel(te, "LOOP 3\nALU\nENDLOOP\nEXIT\n", 32, 0, 1));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 0, 0, VGPU_PLACE_BLOCK));
	vgpu_te_run_idle(te, 1000);
	EXPECT_EQ(0, vgpu_ev_cycle(te, VGPU_EV_WARP_START, K(0), 0, 0));
	EXPECT_EQ(6, vgpu_ev_cycle(te, VGPU_EV_WARP_EXIT, K(0), 0, 0));
	EXPECT_EQ(6, te->sm.stats.last_done);
	EXPECT_EQ(3, te->sm.stats.issued);
	/* LOOP@0, ALU@1, ENDLOOP@5, ALU@6, ENDLOOP@10, ALU@11, ENDLOOP@15 */
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[1], 0, 0, VGPU_PLACE_BLOCK));
	vgpu_te_run_idle(te, 1000);
	EXPECT_EQ(7, vgpu_ev_cycle(te, VGPU_EV_WARP_START, K(1), 0, 0));
	EXPECT_EQ(7 + 16, vgpu_ev_cycle(te, VGPU_EV_WARP_EXIT, K(1), 0, 0));
	EXPECT_EQ(3 + 8, te->sm.stats.issued);
	EXPECT_EQ(3 + 1, te->sm.stats.cls[VGPU_OP_ALU - VGPU_OP_MOV]);
	EXPECT_TRUE(vgpu_te_res_empty(te));
}

/*
 * Round-robin among equal priorities: warps 0 and 4 of a 5-warp block
 * share sub-partition 0; with ALU latency 1 they alternate issue slots.
 * Warp 4 starts one cycle later (one start per sub-partition per cycle).
 */
TEST_F(sm, round_robin_equal_priority)
{
	struct vgpu_test_engine *te = self->te;

	te->timing.latency[VGPU_OP_ALU - VGPU_OP_MOV] = 1;
	ASSERT_EQ(0, vgpu_te_init(te));
	ASSERT_EQ(0, vgpu_te_kernel(te, "ALU\nALU\nALU\nEXIT\n", 5 * 32, 0, 1));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 0, 0, VGPU_PLACE_BLOCK));
	vgpu_te_run_idle(te, 1000);
	EXPECT_EQ(0, vgpu_ev_cycle(te, VGPU_EV_WARP_START, K(0), 0, 0));
	EXPECT_EQ(1, vgpu_ev_cycle(te, VGPU_EV_WARP_START, K(0), 0, 4));
	/* sp0 issues: w0 c0, w0 c1, w4 c2, w0 c3, w4 c4, w0 EXIT c5, ... */
	EXPECT_EQ(5, vgpu_ev_cycle(te, VGPU_EV_WARP_EXIT, K(0), 0, 0));
	EXPECT_EQ(7, vgpu_ev_cycle(te, VGPU_EV_WARP_EXIT, K(0), 0, 4));
	/* sub-partitions 1..3 hold one warp each: ALU c0..c2, EXIT c3 */
	EXPECT_EQ(3, vgpu_ev_cycle(te, VGPU_EV_WARP_EXIT, K(0), 0, 1));
	EXPECT_EQ(3, vgpu_ev_cycle(te, VGPU_EV_WARP_EXIT, K(0), 0, 3));
	EXPECT_TRUE(vgpu_te_res_empty(te));
}

/* Higher priority issues first: B (prio 0) monopolises its sub-partitions. */
TEST_F(sm, higher_priority_issues_first)
{
	struct vgpu_test_engine *te = self->te;
	const char *prog = "ALU\nALU\nALU\nALU\nEXIT\n";

	te->timing.latency[VGPU_OP_ALU - VGPU_OP_MOV] = 1;
	ASSERT_EQ(0, vgpu_te_init(te));
	ASSERT_EQ(0, vgpu_te_kernel(te, prog, 128, 1, 1));
	ASSERT_EQ(1, vgpu_te_kernel(te, prog, 128, 0, 1));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 0, 1, VGPU_PLACE_BLOCK));
	EXPECT_EQ(1, vgpu_sm_run(&te->sm, 1, 0));	/* A: ALU at 0 */
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[1], 0, 0, VGPU_PLACE_BLOCK));
	vgpu_te_run_idle(te, 1000);
	/* B starts at 1, ALU 1..4, EXIT 5; A waits, then ALU 6..8, EXIT 9 */
	EXPECT_EQ(1, vgpu_ev_cycle(te, VGPU_EV_WARP_START, K(1), 0, 2));
	EXPECT_EQ(5, vgpu_ev_cycle(te, VGPU_EV_WARP_EXIT, K(1), 0, 2));
	EXPECT_EQ(9, vgpu_ev_cycle(te, VGPU_EV_WARP_EXIT, K(0), 0, 2));
	EXPECT_TRUE(vgpu_te_res_empty(te));
}

/*
 * F30: a newly arrived higher-priority block overtakes the unstarted warps
 * of a lower-priority one; equal priorities keep their arrival order.
 */
TEST_F(sm, higher_priority_block_overtakes)
{
	struct vgpu_test_engine *te = self->te;
	const char *prog = "ALU\nEXIT\n";
	u32 w;

	ASSERT_EQ(0, vgpu_te_init(te));
	ASSERT_EQ(0, vgpu_te_kernel(te, prog, 12 * 32, 2, 1));	/* A */
	ASSERT_EQ(1, vgpu_te_kernel(te, prog, 4 * 32, 0, 2));	/* B */
	ASSERT_EQ(2, vgpu_te_kernel(te, prog, 4 * 32, 2, 1));	/* C */
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 0, 2, VGPU_PLACE_BLOCK));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[2], 0, 2, VGPU_PLACE_BLOCK));
	EXPECT_EQ(1, vgpu_sm_run(&te->sm, 1, 0));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[1], 0, 0, VGPU_PLACE_BLOCK));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[1], 1, 0, VGPU_PLACE_BLOCK));
	EXPECT_EQ(0, te->sm.top_prio);
	vgpu_te_run_idle(te, 1000);
	for (w = 0; w < 4; w++) {
		EXPECT_EQ(0, vgpu_ev_cycle(te, VGPU_EV_WARP_START, K(0), 0, w));
		EXPECT_EQ(1, vgpu_ev_cycle(te, VGPU_EV_WARP_START, K(1), 0, w));
		EXPECT_EQ(2, vgpu_ev_cycle(te, VGPU_EV_WARP_START, K(1), 1, w));
		EXPECT_EQ(3, vgpu_ev_cycle(te, VGPU_EV_WARP_START, K(0), 0, 4 + w));
		EXPECT_EQ(4, vgpu_ev_cycle(te, VGPU_EV_WARP_START, K(0), 0, 8 + w));
		EXPECT_EQ(5, vgpu_ev_cycle(te, VGPU_EV_WARP_START, K(2), 0, w));
	}
	EXPECT_TRUE(vgpu_te_res_empty(te));
	EXPECT_EQ(VGPU_PRIO_NONE, te->sm.top_prio);
}

/* F23 b: warps start as resources free; BAR kernels refuse that mode. */
TEST_F(sm, warp_mode_starts_as_resources_free)
{
	struct vgpu_test_engine *te = self->te;
	u32 w;

	ASSERT_EQ(0, vgpu_te_init(te));
	ASSERT_EQ(0, vgpu_te_kernel(te, "LOOP 4*(1+wid%4)\nALU\nENDLOOP\nEXIT\n",
				    1024, 0, 2));
	ASSERT_EQ(1, vgpu_te_kernel(te, "ALU\nEXIT\n", 1024, 1, 1));
	ASSERT_EQ(2, vgpu_te_kernel(te, "BAR\nEXIT\n", 32, 0, 1));
	EXPECT_EQ(-EINVAL, vgpu_sm_block_add(&te->sm, &te->k[2], 0, 0, VGPU_PLACE_WARP));
	EXPECT_EQ(-EINVAL, vgpu_sm_block_add(&te->sm, &te->k[2], 0, VGPU_MAX_PRIOS,
					     VGPU_PLACE_BLOCK));
	EXPECT_EQ(-EINVAL, vgpu_sm_block_add(&te->sm, &te->k[2], 1, 0, VGPU_PLACE_BLOCK));
	/* two 32-warp blocks fill the 64 warp slots */
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 0, 0, VGPU_PLACE_BLOCK));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 1, 0, VGPU_PLACE_BLOCK));
	EXPECT_EQ(-ENOSPC, vgpu_sm_block_add(&te->sm, &te->k[1], 0, 1, VGPU_PLACE_BLOCK));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[1], 0, 1, VGPU_PLACE_WARP));
	vgpu_te_run_idle(te, 100000);
	EXPECT_EQ(3, te->sm.stats.blocks_done);
	/* its warps started only after warps of the full blocks exited */
	for (w = 0; w < 32; w++) {
		int s = vgpu_te_find(te, VGPU_EV_WARP_START, K(1), 0, w, 0);

		ASSERT_LE(0, s);
		EXPECT_LT(vgpu_te_find(te, VGPU_EV_WARP_EXIT, K(0), 0, 0, 0), s);
	}
	EXPECT_TRUE(vgpu_te_res_empty(te));
}

/*
 * F30, seed 000 claim 3: the SM starts a warp of its highest-priority
 * block with unstarted warps only; while that block waits for resources
 * (warp mode, F23 (b)), no block of lower priority starts a warp.  Two
 * 32-warp blocks of A fill every warp slot and register; H (priority 0,
 * 64 registers a thread) and then L (priority 1, 32) wait in warp mode.
 * The first warp of A to exit frees a slot and a run of 1,024 registers:
 * room for a warp of L, not of H.  L must still wait until every warp of
 * H has started.
 */
TEST_F(sm, lower_block_waits_for_higher_warp_mode)
{
	struct vgpu_test_engine *te = self->te;
	int h, l, last_h, first_l;

	ASSERT_EQ(0, vgpu_te_init(te));
	ASSERT_EQ(0, vgpu_te_kernel(te, "LOOP 4*(1+wid%4)\nALU\nENDLOOP\nEXIT\n",
				    1024, 2, 2));
	ASSERT_EQ(1, vgpu_te_kernel(te, "ALU\nEXIT\n", 1024, 0, 1));
	ASSERT_EQ(2, vgpu_te_kernel(te, "ALU\nEXIT\n", 32, 1, 1));
	te->k[1].regs_per_thread = 64;
	ASSERT_EQ(0, vgpu_kernel_desc_init(&te->k[1], &te->cfg,
					   te->prog[1].insns, te->prog[1].n,
					   te->match[1]));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 0, 2, VGPU_PLACE_BLOCK));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 1, 2, VGPU_PLACE_BLOCK));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[1], 0, 0, VGPU_PLACE_WARP));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[2], 0, 1, VGPU_PLACE_WARP));
	vgpu_te_run_idle(te, 100000);
	EXPECT_EQ(4, te->sm.stats.blocks_done);
	last_h = vgpu_te_find(te, VGPU_EV_WARP_START, K(1), 0, 31, 0);
	first_l = vgpu_te_find(te, VGPU_EV_WARP_START, K(2), 0, 0, 0);
	ASSERT_LE(0, last_h);
	ASSERT_LE(0, first_l);
	for (h = 0; h < 32; h++)
		EXPECT_LT(vgpu_te_find(te, VGPU_EV_WARP_START, K(1), 0, h, 0),
			  first_l);
	l = vgpu_te_find(te, VGPU_EV_WARP_EXIT, K(0), 0, 0, 0);
	EXPECT_LT(l, first_l);
	EXPECT_LT(te->ev[last_h].cycle, te->ev[first_l].cycle);
	EXPECT_TRUE(vgpu_te_res_empty(te));
}

/*
 * While a warp-mode block waits for registers (F23 (b)), whole blocks of
 * lower priority still start, one warp per sub-partition and cycle
 * (F30): A (priority 2, 32 warps of 40 registers a thread) leaves each
 * sub-partition 16,384 - 8 x 1,280 = 6,144 registers, less than one warp
 * of H (priority 0, warp mode, 255 a thread: 8,160).  B1 and B2 (priority
 * 1, whole blocks of 4 one-warp-per-sub-partition warps) start: B1 fills
 * the four sub-partitions in one cycle and B2 takes them the next cycle,
 * without waiting for a warp to exit.
 */
TEST_F(sm, whole_blocks_start_while_warp_mode_waits)
{
	struct vgpu_test_engine *te = self->te;
	u64 b1, b2;

	ASSERT_EQ(0, vgpu_te_init(te));
	ASSERT_EQ(0, vgpu_te_kernel(te, "LOOP 200\nALU\nENDLOOP\nEXIT\n",
				    1024, 2, 1));
	te->k[0].regs_per_thread = 40;
	ASSERT_EQ(0, vgpu_kernel_desc_init(&te->k[0], &te->cfg,
					   te->prog[0].insns, te->prog[0].n,
					   te->match[0]));
	ASSERT_EQ(1, vgpu_te_kernel(te, "ALU\nEXIT\n", 32, 0, 1));
	te->k[1].regs_per_thread = 255;
	ASSERT_EQ(0, vgpu_kernel_desc_init(&te->k[1], &te->cfg,
					   te->prog[1].insns, te->prog[1].n,
					   te->match[1]));
	ASSERT_EQ(2, vgpu_te_kernel(te, "ALU\nALU\nEXIT\n", 128, 1, 2));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 0, 2, VGPU_PLACE_BLOCK));
	vgpu_sm_run(&te->sm, 20, 0);
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[1], 0, 0, VGPU_PLACE_WARP));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[2], 0, 1, VGPU_PLACE_BLOCK));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[2], 1, 1, VGPU_PLACE_BLOCK));
	vgpu_sm_run(&te->sm, 40, 0);
	/* H has not started: no room for one of its warps */
	EXPECT_EQ(~0ULL, vgpu_ev_cycle(te, VGPU_EV_WARP_START, K(1), 0, 0));
	b1 = vgpu_ev_cycle(te, VGPU_EV_WARP_START, K(2), 0, 3);
	b2 = vgpu_ev_cycle(te, VGPU_EV_WARP_START, K(2), 1, 0);
	ASSERT_NE(~0ULL, b1);
	EXPECT_EQ(b1, vgpu_ev_cycle(te, VGPU_EV_WARP_START, K(2), 0, 0));
	EXPECT_EQ(b1 + 1, b2);
	EXPECT_EQ(b2, vgpu_ev_cycle(te, VGPU_EV_WARP_START, K(2), 1, 3));
	vgpu_sm_cancel_kernel(&te->sm, K(0));
	vgpu_sm_cancel_kernel(&te->sm, K(1));
	vgpu_te_run_idle(te, 100000);
	EXPECT_TRUE(vgpu_te_res_empty(te));
}

/*
 * A cancel drops the cancelled warps from the ready queues of every
 * sub-partition, with VGPU_MAX_SUBPARTS (8) of them too: eight warps, one
 * per sub-partition, all ready, the other block's go on.
 */
TEST_F(sm, cancel_with_every_subpartition)
{
	struct vgpu_test_engine *te = self->te;

	te->cfg.subparts = VGPU_MAX_SUBPARTS;
	te->cfg.warps_per_subpart = 8;
	te->cfg.regs_per_subpart = 8192;
	ASSERT_EQ(0, vgpu_config_validate(&te->cfg, NULL));
	ASSERT_EQ(0, vgpu_te_init(te));
	ASSERT_EQ(0, vgpu_te_kernel(te, "SPIN\nEXIT\n", 256, 0, 1));
	ASSERT_EQ(1, vgpu_te_kernel(te, "LOOP 20\nALU\nENDLOOP\nEXIT\n", 256, 0, 1));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 0, 0, VGPU_PLACE_BLOCK));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[1], 0, 0, VGPU_PLACE_BLOCK));
	vgpu_sm_run(&te->sm, 10, 0);
	EXPECT_EQ(1, vgpu_sm_cancel_kernel(&te->sm, K(0)));
	vgpu_te_run_idle(te, 100000);
	EXPECT_EQ(1, te->sm.stats.blocks_done);
	EXPECT_TRUE(vgpu_te_res_empty(te));
}

/* vgpu_sm_init() takes up to VGPU_MAX_BLOCKS_PER_SM block slots, not more. */
TEST_F(sm, init_block_slot_bound)
{
	struct vgpu_test_engine *te = self->te;

	te->cfg.max_blocks_per_sm = VGPU_MAX_BLOCKS_PER_SM;
	EXPECT_EQ(0, vgpu_te_init(te));
	te->cfg.max_blocks_per_sm = VGPU_MAX_BLOCKS_PER_SM + 1;
	EXPECT_EQ(-EINVAL, vgpu_te_init(te));
	te->cfg.max_blocks_per_sm = 32;
	EXPECT_EQ(0, vgpu_te_init(te));
}

/*
 * vgpu_sm_init() refuses each bad limit alone: no sub-partition, more than
 * VGPU_MAX_SUBPARTS, more than VGPU_MAX_PRIOS priorities; the bounds
 * themselves are taken.
 */
TEST_F(sm, init_limits_each_alone)
{
	struct vgpu_test_engine *te = self->te;
	u32 subparts = te->cfg.subparts, prios = te->cfg.num_prios;

	te->cfg.subparts = 0;
	EXPECT_EQ(-EINVAL, vgpu_te_init(te));
	te->cfg.subparts = VGPU_MAX_SUBPARTS + 1;
	EXPECT_EQ(-EINVAL, vgpu_te_init(te));
	te->cfg.subparts = subparts;
	te->cfg.num_prios = VGPU_MAX_PRIOS + 1;
	EXPECT_EQ(-EINVAL, vgpu_te_init(te));
	te->cfg.num_prios = VGPU_MAX_PRIOS;
	EXPECT_EQ(0, vgpu_te_init(te));
	te->cfg.num_prios = prios;
	EXPECT_EQ(0, vgpu_te_init(te));
}

/* Accounting (F33): after random mixes every resource is back to empty. */
TEST_F(sm, accounting_back_to_empty)
{
	static const char * const progs[] = {
		"ALU\nLOAD\nSTORE\nEXIT\n",
		"LOOP 1+wid%3\nMMA\nENDLOOP\nBAR\nCMP\nEXIT\n",
		"LOCK 0\nALU\nLOCK 1\nMOV\nUNLOCK 1\nUNLOCK 0\nEXIT\n",
		"LOOP bid%3\nBRA\nBAR\nENDLOOP\nEXIT\n",
	};
	struct vgpu_test_engine *te = self->te;
	struct vgpu_test_rng rng = { .s = 4 };
	u32 round, i, added, total = 0;

	ASSERT_EQ(0, vgpu_te_init(te));
	for (i = 0; i < 4; i++)
		ASSERT_EQ((int)i, vgpu_te_kernel(te, progs[i], 32 * (1 + 5 * i),
						 i % 3, 50));
	for (round = 0; round < 20; round++) {
		added = 0;
		for (i = 0; i < 30; i++) {
			u32 k = vgpu_test_below(&rng, 4);
			enum vgpu_place_mode mode = te->k[k].sum.uses_bar ?
				VGPU_PLACE_BLOCK : vgpu_test_below(&rng, 2);

			if (!vgpu_sm_block_add(&te->sm, &te->k[k], i, te->k[k].prio, mode))
				added++;
			vgpu_sm_run(&te->sm, vgpu_test_below(&rng, 20), 0);
		}
		EXPECT_LT(0, added);
		total += added;
		vgpu_te_run_idle(te, 1000000);
		ASSERT_TRUE(vgpu_te_res_empty(te)) TH_LOG("round %u", round);
		/* every block that went in came out, none twice */
		EXPECT_EQ(total, te->sm.stats.blocks_done);
	}
}

/* F53: SPIN runs until the kernel is cancelled, which frees everything. */
TEST_F(sm, spin_until_cancel)
{
	struct vgpu_test_engine *te = self->te;

	ASSERT_EQ(0, vgpu_te_init(te));
	ASSERT_EQ(0, vgpu_te_kernel(te, "ALU\nSPIN\nEXIT\n", 256, 1, 4));
	ASSERT_EQ(1, vgpu_te_kernel(te, "LOCK 3\nLOOP 100\nALU\nENDLOOP\nUNLOCK 3\nEXIT\n",
				    256, 0, 1));
	ASSERT_EQ(2, vgpu_te_kernel(te, "BAR\nSPIN\nEXIT\n", 1024, 0, 1));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 0, 1, VGPU_PLACE_BLOCK));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 1, 1, VGPU_PLACE_WARP));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[1], 0, 0, VGPU_PLACE_BLOCK));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[2], 0, 0, VGPU_PLACE_BLOCK));
	EXPECT_EQ(1000000, vgpu_sm_run(&te->sm, 1000000, 0));
	EXPECT_EQ(1, te->sm.stats.blocks_done);		/* kernel 1 */
	EXPECT_EQ(3, hweight64(te->sm.used));
	EXPECT_EQ(8 + 8 + 32, te->pool.size - te->pool.nfree);
	/* cancel while parked at a barrier / spinning */
	EXPECT_EQ(1, vgpu_sm_cancel_kernel(&te->sm, K(2)));
	EXPECT_EQ(2, vgpu_sm_cancel_kernel(&te->sm, K(0)));
	EXPECT_EQ(0, vgpu_sm_cancel_kernel(&te->sm, K(0)));
	EXPECT_TRUE(vgpu_te_res_empty(te));
	EXPECT_LE(0, vgpu_te_find(te, VGPU_EV_BLOCK_CANCEL, K(0), 1, VGPU_EV_NONE, 0));
	/* cancel in the middle of execution: ready / waiting warps too */
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[1], 0, 0, VGPU_PLACE_BLOCK));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 2, 0, VGPU_PLACE_BLOCK));
	vgpu_sm_run(&te->sm, 37, 0);
	EXPECT_EQ(1, vgpu_sm_cancel_kernel(&te->sm, K(1)));
	EXPECT_EQ(1, vgpu_sm_cancel_kernel(&te->sm, K(0)));
	EXPECT_TRUE(vgpu_te_res_empty(te));
	vgpu_sm_run(&te->sm, 1000, 0);
	EXPECT_TRUE(vgpu_te_res_empty(te));
}

/* F25 input: class counters over the last nx cycles, power counter. */
TEST_F(sm, power_window)
{
	struct vgpu_test_engine *te = self->te;
	u32 alu = VGPU_OP_ALU - VGPU_OP_MOV, n;

	ASSERT_EQ(0, vgpu_te_init(te));
	ASSERT_EQ(0, vgpu_te_kernel(te, "LOOP 60000\nALU\nALU\nALU\nALU\nENDLOOP\nEXIT\n",
				    1024, 0, 1));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 0, 0, VGPU_PLACE_BLOCK));
	vgpu_sm_run(&te->sm, 10 * 1024, 0);
	/* 4 sub-partitions issue every cycle, 4 of 5 instructions are ALU */
	n = vgpu_sm_window_count(&te->sm, alu);
	EXPECT_LE(4 * 4 * (1024 - 64) / 5 - 8, n);
	EXPECT_GE(4 * 4 * 1024 / 5 + 8, n);
	EXPECT_EQ(0, vgpu_sm_window_count(&te->sm, 0));
	EXPECT_EQ((u64)te->timing.weight[alu] * n, vgpu_sm_power(&te->sm));
	vgpu_sm_cancel_kernel(&te->sm, K(0));
	vgpu_sm_run(&te->sm, 2048, 0);
	EXPECT_EQ(0, vgpu_sm_window_count(&te->sm, alu));
	EXPECT_EQ(0, vgpu_sm_power(&te->sm));
}

/*
 * F25 window after an idle spell of between 16 and 17 buckets (nx = 1,024,
 * buckets of 64 cycles, the first ends at cycle 64).  An ALU at cycle 0,
 * then nothing until cycle 1,120: the window is empty, and its buckets
 * start again at 1,120.  An ALU issued in 1,120's first cycles is less than
 * nx = 1,024 cycles old at cycle 2,128 (1,008 later) and counts; at
 * 1,120 + 1,024 + 64 it has left the window.  A roll of one bucket more
 * than 16 would have started the next bucket at 1,152 (64 + 17 x 64) and
 * dropped the ALU at 2,112.
 */
TEST_F(sm, power_window_after_idle)
{
	struct vgpu_test_engine *te = self->te;
	u32 alu = VGPU_OP_ALU - VGPU_OP_MOV;

	ASSERT_EQ(0, vgpu_te_init(te));
	ASSERT_EQ(1024, te->timing.window);
	ASSERT_EQ(0, vgpu_te_kernel(te, "ALU\nEXIT\n", 32, 0, 2));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 0, 0, VGPU_PLACE_BLOCK));
	vgpu_sm_run(&te->sm, 32, 0);
	EXPECT_EQ(1, te->sm.stats.blocks_done);
	EXPECT_EQ(1, vgpu_sm_window_count(&te->sm, alu));
	vgpu_sm_run(&te->sm, 1120 - 32, 0);
	ASSERT_EQ(1120, te->sm.now);
	EXPECT_EQ(0, vgpu_sm_window_count(&te->sm, alu));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 1, 0, VGPU_PLACE_BLOCK));
	vgpu_sm_run(&te->sm, 32, 0);
	EXPECT_EQ(2, te->sm.stats.blocks_done);
	EXPECT_EQ(1, vgpu_sm_window_count(&te->sm, alu));
	vgpu_sm_run(&te->sm, 2128 - 1152, 0);
	ASSERT_EQ(2128, te->sm.now);
	EXPECT_EQ(1, vgpu_sm_window_count(&te->sm, alu));
	vgpu_sm_run(&te->sm, 1120 + 1024 + 64 - 2128, 0);
	EXPECT_EQ(0, vgpu_sm_window_count(&te->sm, alu));
}

/*
 * Seed 001 [0270]: an MMA counts its size.  One warp, 20 "MMA 4" (a = 2,
 * four base tiles) at latency 16: 320 cycles, inside the 1024-cycle
 * window, so the window holds 80 tiles and the power 80 x b_MMA; the
 * class statistics still count 20 instructions.
 */
TEST_F(sm, mma_size_counts_in_window)
{
	struct vgpu_test_engine *te = self->te;
	u32 mma = VGPU_OP_MMA - VGPU_OP_MOV;

	ASSERT_EQ(0, vgpu_te_init(te));
	ASSERT_EQ(0, vgpu_te_kernel(te, "LOOP 20\nMMA 4\nENDLOOP\nEXIT\n",
				    32, 0, 1));
	EXPECT_EQ(2, te->k[0].prog[1].a);
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 0, 0, VGPU_PLACE_BLOCK));
	vgpu_sm_run(&te->sm, 700, 0);
	EXPECT_EQ(1, te->sm.stats.blocks_done);
	EXPECT_EQ(20, te->sm.stats.cls[mma]);
	EXPECT_EQ(80, vgpu_sm_window_count(&te->sm, mma));
	EXPECT_EQ(80ULL * te->timing.weight[mma], vgpu_sm_power(&te->sm));
}

/*
 * Calibration: weights proportional to energy x issue rate, max 1024;
 * each probe issues na = nx instructions of its class (claim 4).
 */
TEST_F(sm, power_calibration)
{
	struct vgpu_test_engine *te = self->te;
	struct vgpu_power_probe pr[VGPU_ISA_NUM_CLASSES], big;
	u32 c, mma = VGPU_OP_MMA - VGPU_OP_MOV, alu = VGPU_OP_ALU - VGPU_OP_MOV;

	vgpu_worker_pool_init(&te->pool, te->warps, te->cfg.max_warps_per_sm);
	ASSERT_EQ(0, vgpu_power_calibrate(&te->sm, &te->pool, &te->cfg,
					  &te->timing, pr));
	EXPECT_EQ(1024, te->timing.window);
	for (c = 0; c < VGPU_ISA_NUM_CLASSES; c++) {
		EXPECT_EQ(te->timing.window, pr[c].count);
		EXPECT_LE(1, te->timing.weight[c]);
		EXPECT_GE(VGPU_POWER_WEIGHT_SCALE, te->timing.weight[c]);
	}
	/*
	 * MMA: energy 32, about 1 per cycle (16 warps, latency 16);
	 * ALU: energy 3, 4 per cycle less the ENDLOOP slot (8 of 9 issues).
	 */
	EXPECT_EQ(VGPU_POWER_WEIGHT_SCALE, te->timing.weight[mma]);
	EXPECT_LE(1024 * 3 * 4 * 8 / 9 / 32 - 12, te->timing.weight[alu]);
	EXPECT_GE(1024 * 3 * 4 * 8 / 9 / 32 + 12, te->timing.weight[alu]);
	/* an MMA of four tiles: the same issue rate, four times the power */
	ASSERT_EQ(0, vgpu_power_probe_class(&te->sm, &te->pool, &te->cfg,
					    &te->timing, mma, 2, &big));
	EXPECT_EQ(pr[mma].cycles, big.cycles);
	EXPECT_LE(4 * pr[mma].power, big.power);
	EXPECT_GE(4 * pr[mma].power + 3, big.power);
	EXPECT_EQ(-EINVAL, vgpu_power_probe_class(&te->sm, &te->pool, &te->cfg,
						  &te->timing, alu, 1, &big));
	EXPECT_EQ(-EINVAL, vgpu_power_probe_class(&te->sm, &te->pool, &te->cfg,
						  &te->timing, mma, 4, &big));
	EXPECT_EQ(te->pool.size, te->pool.nfree);
}

/*
 * Seed 001 [0247]-[0253]: a_h from probes that each hold more of one
 * resource than a minimal block, on one SM.  Energies (registers, warps,
 * shared memory, blocks) = (2, 3, 5, 7) per unit: a_h = 1024 x e_h / 7
 * = 292, 438, 731, 1024.  Equal energies: all 1024.
 */
TEST_F(sm, resource_calibration)
{
	struct vgpu_test_engine *te = self->te;
	static const u32 e[VGPU_RES_NUM] = { 2, 3, 5, 7 }, one[] = { 1, 1, 1, 1 };
	u32 w[VGPU_RES_NUM];

	vgpu_worker_pool_init(&te->pool, te->warps, te->cfg.max_warps_per_sm);
	ASSERT_EQ(0, vgpu_power_calibrate_res(&te->sm, &te->pool, &te->cfg,
					      &te->timing, e, w));
	EXPECT_EQ(292, w[VGPU_RES_REGS]);
	EXPECT_EQ(438, w[VGPU_RES_WARPS]);
	EXPECT_EQ(731, w[VGPU_RES_SMEM]);
	EXPECT_EQ(1024, w[VGPU_RES_BLOCKS]);
	ASSERT_EQ(0, vgpu_power_calibrate_res(&te->sm, &te->pool, &te->cfg,
					      &te->timing, one, w));
	EXPECT_EQ(1024, w[0]);
	EXPECT_EQ(1024, w[1]);
	EXPECT_EQ(1024, w[2]);
	EXPECT_EQ(1024, w[3]);
	EXPECT_EQ(te->pool.size, te->pool.nfree);
}

VGPU_TEST_SUITE(sm,
	VGPU_CASE_F(sm, exact_cycles_tiny_program)
	VGPU_CASE_F(sm, round_robin_equal_priority)
	VGPU_CASE_F(sm, higher_priority_issues_first)
	VGPU_CASE_F(sm, higher_priority_block_overtakes)
	VGPU_CASE_F(sm, warp_mode_starts_as_resources_free)
	VGPU_CASE_F(sm, lower_block_waits_for_higher_warp_mode)
	VGPU_CASE_F(sm, whole_blocks_start_while_warp_mode_waits)
	VGPU_CASE_F(sm, cancel_with_every_subpartition)
	VGPU_CASE_F(sm, init_block_slot_bound)
	VGPU_CASE_F(sm, init_limits_each_alone)
	VGPU_CASE_F(sm, accounting_back_to_empty)
	VGPU_CASE_F(sm, spin_until_cancel)
	VGPU_CASE_F(sm, power_window)
	VGPU_CASE_F(sm, power_window_after_idle)
	VGPU_CASE_F(sm, mma_size_counts_in_window)
	VGPU_CASE_F(sm, power_calibration)
	VGPU_CASE_F(sm, resource_calibration))
