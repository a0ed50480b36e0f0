// SPDX-License-Identifier: GPL-2.0
/*
 * Barrier tests (F34, F23): warps of a block that arrive at
 * different cycles all resume in the same cycle; many blocks per SM with
 * barriers never deadlock and leave every resource free.
 */
#include "vgpu_test.h"
#include "vgpu_test_engine.h"

#define K(i)	(100 + (i))

FIXTURE(bar) {
	struct vgpu_test_engine *te;
};

FIXTURE_SETUP(bar)
{
	self->te = vgpu_te_new();
	ASSERT_NE(NULL, self->te);
	ASSERT_EQ(0, vgpu_te_init(self->te));
}

FIXTURE_TEARDOWN(bar)
{
	vgpu_te_free(self->te);
}

/*
 * Warp w loads 1 + w times (latency 24) before BAR, so the four warps
 * (one per sub-partition) arrive 25 cycles apart; all resume at the
 * release cycle + 1, issue ALU there and EXIT 4 cycles later together.
 */
TEST_F(bar, arrive_apart_resume_together)
{
	struct vgpu_test_engine *te = self->te;
	u64 arrive[4], rel, w;
	int r, i;

	ASSERT_EQ(0, vgpu_te_kernel(te, "LOOP 1+wid%4\nLOAD\nENDLOOP\nBAR\nALU\nEXIT\n",
				    128, 0, 1));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 0, 0, VGPU_PLACE_BLOCK));
	vgpu_te_run_idle(te, 10000);
	for (w = 0; w < 4; w++) {
		i = vgpu_te_find(te, VGPU_EV_BAR_ARRIVE, K(0), 0, w, 0);
		ASSERT_LE(0, i);
		arrive[w] = te->ev[i].cycle;
		EXPECT_EQ(w + 1, te->ev[i].arg0);
		if (w)
			EXPECT_EQ(arrive[w - 1] + 25, arrive[w]);
	}
	r = vgpu_te_find(te, VGPU_EV_BAR_RELEASE, K(0), 0, VGPU_EV_NONE, 0);
	ASSERT_LE(0, r);
	rel = te->ev[r].cycle;
	EXPECT_EQ(arrive[3], rel);
	EXPECT_EQ(4, te->ev[r].arg0);
	EXPECT_EQ(rel + 1, te->ev[r].arg1);	/* one resume cycle */
	for (w = 0; w < 4; w++) {
		i = vgpu_te_find(te, VGPU_EV_WARP_EXIT, K(0), 0, w, 0);
		ASSERT_LE(0, i);
		EXPECT_EQ(rel + 1 + 4, te->ev[i].cycle) TH_LOG("warp %llu",
			(unsigned long long)w);
	}
	EXPECT_TRUE(vgpu_te_res_empty(te));
}

/* Two warps per sub-partition: both ready at release + 1, issue in turn. */
TEST_F(bar, resume_same_cycle_shared_subpartition)
{
	struct vgpu_test_engine *te = self->te;
	u32 w, n = 0;
	int r, i;

	ASSERT_EQ(0, vgpu_te_kernel(te, "LOOP 1+3*(wid%8)\nALU\nENDLOOP\nBAR\nMOV\nEXIT\n",
				    256, 0, 1));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 0, 0, VGPU_PLACE_BLOCK));
	vgpu_te_run_idle(te, 10000);
	r = vgpu_te_find(te, VGPU_EV_BAR_RELEASE, K(0), 0, VGPU_EV_NONE, 0);
	ASSERT_LE(0, r);
	EXPECT_EQ(8, te->ev[r].arg0);
	/* warps w and w + 4 share a sub-partition: MOV at +1 and +2 */
	for (w = 0; w < 8; w++) {
		i = vgpu_te_find(te, VGPU_EV_WARP_EXIT, K(0), 0, w, 0);
		ASSERT_LE(0, i);
		EXPECT_EQ(te->ev[r].cycle + 1 + (w >= 4) + 2, te->ev[i].cycle);
		n++;
	}
	EXPECT_EQ(8, n);
}

/* Many blocks with barriers on one SM, refilled: no deadlock. */
TEST_F(bar, many_blocks_no_deadlock)
{
	struct vgpu_test_engine *te = self->te;
	u32 next = 0, grid = 300, guard = 0;

	ASSERT_EQ(0, vgpu_te_kernel(te,
		"LOOP 3\nLOOP 1+wid%4\nLOAD\nALU\nENDLOOP\nBAR\nMOV\nENDLOOP\n"
		"LOOP bid%3\nBAR\nENDLOOP\nSTORE\nEXIT\n", 64, 0, grid));
	ASSERT_EQ(1, vgpu_te_kernel(te, "LOOP 2+bid%5\nBAR\nALU\nENDLOOP\nEXIT\n",
				    1024, 1, grid));
	te->record = false;
	vgpu_sm_set_trace(&te->sm, NULL, NULL);
	while (next < grid || !vgpu_sm_idle(&te->sm)) {
		while (next < grid &&
		       !vgpu_sm_block_add(&te->sm, &te->k[next % 2], next,
					  next % 2, VGPU_PLACE_BLOCK))
			next++;
		ASSERT_LT(guard++, 10 * grid);
		ASSERT_NE(0, vgpu_sm_run(&te->sm, 1000000, VGPU_SM_RUN_STOP_BLOCK));
		ASSERT_FALSE(!vgpu_sm_idle(&te->sm) && te->sm.now > 100000000);
	}
	EXPECT_EQ(grid, te->sm.stats.blocks_done);
	EXPECT_TRUE(vgpu_te_res_empty(te));
}

VGPU_TEST_SUITE(barrier,
	VGPU_CASE_F(bar, arrive_apart_resume_together)
	VGPU_CASE_F(bar, resume_same_cycle_shared_subpartition)
	VGPU_CASE_F(bar, many_blocks_no_deadlock))
