// SPDX-License-Identifier: GPL-2.0
/*
 * The power window (F25 input, seed 001 steps j2-j3): the instructions an
 * SM executed in the last nx cycles, exactly, and b_s of each power class
 * (an MMA of each size a class of its own, seed 001 [0270], calibrated by
 * a probe of its own, [0275]-[0282]).
 */
#include <string.h>

#include "vgpu_test.h"
#include "vgpu_test_engine.h"
#include "power.h"

#define VGPU_PW_NX	64	/* a short window: every cycle is looked at */
#define VGPU_PW_CYCLES	1500

/*
 * ALUs and MOVs in bursts with idle gaps longer than the window between
 * them (LOAD's latency is 24: a warp waits), on all four sub-partitions.
 */
#define VGPU_PW_PROG \
	"LOOP 5\nLOOP 40\nALU\nMOV\nALU\nENDLOOP\nLOOP 4\nLOAD\nENDLOOP\n" \
	"ENDLOOP\nEXIT\n"

static u64 vgpu_pw_hist[VGPU_PW_CYCLES + 1][2];

/* A fresh SM of @te with window nx = VGPU_PW_NX running VGPU_PW_PROG. */
static int vgpu_pw_setup(struct vgpu_test_engine *te, u32 blocks)
{
	u32 b;

	for (b = 0; b < te->nk; b++)
		vgpul_vasm_free(&te->prog[b]);
	te->nk = 0;
	te->record = false;
	te->timing.window = VGPU_PW_NX;
	if (vgpu_te_init(te) || vgpu_te_kernel(te, VGPU_PW_PROG, 256, 0, 8) < 0)
		return -1;
	for (b = 0; b < blocks; b++)
		if (vgpu_sm_block_add(&te->sm, &te->k[0], b, 0,
				      VGPU_PLACE_BLOCK))
			return -1;
	return 0;
}

/*
 * At every cycle t the window holds the class's issues of cycles
 * t - nx .. t - 1: the engine's cumulative class statistics at t minus
 * those at t - nx (a run one cycle at a time records them).  Then runs of
 * uneven lengths (rounds included) must read the same at their ends.
 * Buckets of nx/16 cycles read up to one bucket more.
 */
TEST(window_is_the_last_nx_cycles)
{
	struct vgpu_test_engine *te = vgpu_te_new();
	u32 alu = VGPU_OP_ALU - VGPU_OP_MOV, mov = 0, step = 1, mism = 0, c;
	u64 t, want, pw;

	ASSERT_NE(NULL, te);
	ASSERT_EQ(0, vgpu_pw_setup(te, 2));
	for (t = 0; t <= VGPU_PW_CYCLES; t++) {
		ASSERT_EQ(t, te->sm.now);
		vgpu_pw_hist[t][0] = te->sm.stats.cls[alu];
		vgpu_pw_hist[t][1] = te->sm.stats.cls[mov];
		want = vgpu_pw_hist[t][0] -
		       (t >= VGPU_PW_NX ? vgpu_pw_hist[t - VGPU_PW_NX][0] : 0);
		if (vgpu_sm_window_count(&te->sm, alu) != want)
			mism++;
		want = vgpu_pw_hist[t][1] -
		       (t >= VGPU_PW_NX ? vgpu_pw_hist[t - VGPU_PW_NX][1] : 0);
		if (vgpu_sm_window_count(&te->sm, mov) != want)
			mism++;
		vgpu_sm_run(&te->sm, 1, 0);
	}
	EXPECT_EQ(0, mism);
	/* the workload issues and idles: the window fills and empties */
	EXPECT_LT(4 * VGPU_PW_NX, vgpu_pw_hist[VGPU_PW_CYCLES][0]);

	/* the same SM run in steps of 1, 2, ... 37 cycles */
	ASSERT_EQ(0, vgpu_pw_setup(te, 2));
	for (t = 0; t < VGPU_PW_CYCLES - 40; t += step, step = step % 37 + 1) {
		vgpu_sm_run(&te->sm, step, 0);
		ASSERT_EQ(t + step, te->sm.now);
		want = vgpu_pw_hist[t + step][0] -
		       (t + step >= VGPU_PW_NX ?
			vgpu_pw_hist[t + step - VGPU_PW_NX][0] : 0);
		EXPECT_EQ(want, vgpu_sm_window_count(&te->sm, alu))
			TH_LOG("at cycle %llu", (unsigned long long)(t + step));
		for (c = 0, pw = 0; c < VGPU_ISA_NUM_CLASSES; c++)
			pw += (u64)te->timing.weight[c] *
			      vgpu_sm_window_count(&te->sm, c);
		EXPECT_EQ(pw, vgpu_sm_power(&te->sm));
	}
	vgpu_te_free(te);
}

/*
 * An idle spell longer than the ring (nx = 64: 128 cycles) empties the
 * window at once and the ring is used again: one ALU at cycle 1,000 is
 * counted from 1,001 to 1,064 and not at 1,065.
 */
TEST(window_after_a_long_idle_spell)
{
	struct vgpu_test_engine *te = vgpu_te_new();
	u32 alu = VGPU_OP_ALU - VGPU_OP_MOV;
	u64 at;

	ASSERT_NE(NULL, te);
	te->timing.window = VGPU_PW_NX;
	ASSERT_EQ(0, vgpu_te_init(te));
	ASSERT_EQ(0, vgpu_te_kernel(te, "ALU\nEXIT\n", 32, 0, 2));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 0, 0,
				       VGPU_PLACE_BLOCK));
	vgpu_sm_run(&te->sm, 100, 0);
	EXPECT_EQ(1, te->sm.stats.cls[alu]);
	EXPECT_EQ(0, vgpu_sm_window_count(&te->sm, alu));
	vgpu_sm_run(&te->sm, 900, 0);
	ASSERT_EQ(1000, te->sm.now);
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 1, 0,
				       VGPU_PLACE_BLOCK));
	/* find the ALU's cycle, one cycle at a time */
	for (at = 1000; te->sm.stats.cls[alu] < 2 && at < 1100; at++)
		vgpu_sm_run(&te->sm, 1, 0);
	ASSERT_EQ(2, te->sm.stats.cls[alu]);
	at--;			/* issued in cycle @at, counted from at + 1 */
	EXPECT_EQ(1, vgpu_sm_window_count(&te->sm, alu));
	vgpu_sm_run(&te->sm, at + VGPU_PW_NX - te->sm.now, 0);
	EXPECT_EQ(1, vgpu_sm_window_count(&te->sm, alu));
	vgpu_sm_run(&te->sm, 1, 0);
	EXPECT_EQ(0, vgpu_sm_window_count(&te->sm, alu));
	vgpu_te_free(te);
}

/* An SM without a ring counts no window. */
TEST(no_ring_no_window)
{
	struct vgpu_test_engine *te = vgpu_te_new();
	u32 alu = VGPU_OP_ALU - VGPU_OP_MOV;

	ASSERT_NE(NULL, te);
	ASSERT_EQ(0, vgpu_te_init(te));
	vgpu_sm_set_window(&te->sm, NULL);
	ASSERT_EQ(0, vgpu_te_kernel(te, "LOOP 10\nALU\nENDLOOP\nEXIT\n", 32,
				    0, 1));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 0, 0,
				       VGPU_PLACE_BLOCK));
	vgpu_sm_run(&te->sm, 100, 0);
	EXPECT_EQ(10, te->sm.stats.cls[alu]);
	EXPECT_EQ(0, vgpu_sm_window_count(&te->sm, alu));
	EXPECT_EQ(0, vgpu_sm_power(&te->sm));
	vgpu_te_free(te);
}

/*
 * [0270]: each MMA size is a power class with its own b_s.  20 "MMA 8"
 * (2^3 tiles) and 10 "MMA 2": the window counts 20 x 8 + 10 x 2 = 180
 * tiles of MMA, and the power is 20 b_8 + 10 b_2, with b_8 set to 5 x
 * b_1 (not the 8 x b_1 of a weight linear in the tiles).
 */
TEST(mma_sizes_weigh_their_own)
{
	struct vgpu_test_engine *te = vgpu_te_new();
	u32 mma = VGPU_OP_MMA - VGPU_OP_MOV, b1;

	ASSERT_NE(NULL, te);
	b1 = te->timing.weight[mma];
	te->timing.mma_weight[2] = 5 * b1;
	ASSERT_EQ(0, vgpu_te_init(te));
	ASSERT_EQ(0, vgpu_te_kernel(te, "LOOP 10\nMMA 8\nMMA 8\nMMA 2\nENDLOOP\nEXIT\n",
				    32, 0, 1));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 0, 0,
				       VGPU_PLACE_BLOCK));
	vgpu_sm_run(&te->sm, 600, 0);
	EXPECT_EQ(1, te->sm.stats.blocks_done);
	EXPECT_EQ(30, te->sm.stats.cls[mma]);
	EXPECT_EQ(180, vgpu_sm_window_count(&te->sm, mma));
	EXPECT_EQ(20, vgpu_sm_window_pcount(&te->sm, VGPU_ISA_NUM_CLASSES + 2));
	EXPECT_EQ(10, vgpu_sm_window_pcount(&te->sm, VGPU_ISA_NUM_CLASSES));
	EXPECT_EQ(20ULL * 5 * b1 + 10ULL * 2 * b1, vgpu_sm_power(&te->sm));
	vgpu_te_free(te);
}

/*
 * [0275]-[0282]: the calibration runs a probe of each MMA size alone on
 * one SM and sets that size's weight from its power, in the timed
 * classes' proportion: b_s = max(1, power_s x 1024 / the largest timed
 * class's power).  Every size's probe issues nx MMAs.
 */
TEST(mma_sizes_calibrated)
{
	struct vgpu_test_engine *te = vgpu_te_new();
	struct vgpu_power_probe pr[VGPU_ISA_NUM_CLASSES], ps;
	u32 mma = VGPU_OP_MMA - VGPU_OP_MOV, c, s, maxp = 1;
	struct vgpu_isa_timing t0;

	ASSERT_NE(NULL, te);
	t0 = te->timing;
	vgpu_worker_pool_init(&te->pool, te->warps, te->cfg.max_warps_per_sm);
	ASSERT_EQ(0, vgpu_power_calibrate(&te->sm, &te->pool, &te->cfg,
					  &te->timing, pr));
	for (c = 0; c < VGPU_ISA_NUM_CLASSES; c++)
		maxp = max(maxp, pr[c].power);
	for (s = 1; s <= VGPU_MMA_SIZE_MAX; s++) {
		ASSERT_EQ(0, vgpu_power_probe_class(&te->sm, &te->pool, &te->cfg,
						    &t0, mma, s, &ps));
		EXPECT_EQ(te->timing.window, ps.count);
		EXPECT_EQ(max_t(u32, 1, (u64)ps.power * VGPU_POWER_WEIGHT_SCALE /
				maxp),
			  te->timing.mma_weight[s - 1]) TH_LOG("size %u", s);
		EXPECT_EQ(te->timing.mma_weight[s - 1],
			  vgpu_isa_timing_mma_weight(&te->timing, s));
		/* an MMA of 2^s tiles draws 2^s times the energy */
		EXPECT_LE((te->timing.weight[mma] << s) - (1U << s),
			  te->timing.mma_weight[s - 1]);
		EXPECT_GE((te->timing.weight[mma] << s) + (1U << s),
			  te->timing.mma_weight[s - 1]);
	}
	vgpu_te_free(te);
}

VGPU_TEST_SUITE(power_window,
	VGPU_CASE(window_is_the_last_nx_cycles)
	VGPU_CASE(window_after_a_long_idle_spell)
	VGPU_CASE(no_ring_no_window)
	VGPU_CASE(mma_sizes_weigh_their_own)
	VGPU_CASE(mma_sizes_calibrated))
