// SPDX-License-Identifier: GPL-2.0
/*
 * F23 (b) without a pile-up: an SM takes no more than it can start.
 *
 * A block placed warp by warp holds its block slot and shared memory at
 * once, and each warp's slot and registers only when the warp starts
 * (seed 000 claims 1, 3 and 4).  Its warps not started yet are committed
 * to the SM all the same: they count against the SM's free resources in
 * every fit test and every figure of the SM choice (F25), so no further
 * block goes to an SM whose committed warps already use up what it has,
 * and a block that could not start there stays with the controller for
 * the next SM that frees up.
 */
#include <string.h>

#include "vgpu_test.h"
#include "vgpu_test_gpu.h"

static struct vgpu_tg T;

#define VGPU_SHORT	"LOOP 10\nALU\nENDLOOP\nEXIT\n"
#define VGPU_SPIN	"SPIN\nEXIT\n"

/*
 * SM 0 holds A (32 warps) and C (30 warps), SM 1 holds D (two blocks of
 * 32 warps), all spinning at priority 0 from cycle 0.  K (priority 3, two
 * blocks of 1,024 threads of 10 ALU iterations, SMs 0 and 1) arrives at
 * 64: neither SM fits a whole block (a); SM 0 has 2 free warp slots and 8
 * free register units (4 a warp), so it fits one warp strictly (claim 4)
 * and K's block 0 goes there warp by warp (b): its warps run through
 * those 2 slots, 2 at a time.  Its 30 other warps are SM 0's all the same:
 * nothing more fits SM 0, so K's block 1 stays with the controller, and no
 * SM has a lower priority resident than K (c).  D is cancelled at the
 * boundary at 192: at 256 SM 1 is empty and block 1 goes there whole.
 * Both blocks end before 1,024: block 0's 16 pairs of warps take about
 * 16 x 40 cycles from 64, block 1 about 40 from 256.  Had block 1 gone to
 * SM 0 too, its warps would have followed block 0's through the same 2
 * slots, to about 64 + 2 x 640.
 */
TEST(committed_warps_count)
{
	struct vgpu_gpu_kernel *a, *c, *d, *k;
	const struct vgpu_sm_res *view;
	const struct vgpu_event *ev;
	struct vgpu_gpu_params p;
	bool full;
	u32 i;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	a = vgpu_tg_kernel(&T, 0, 0, 1, 1024, 0, VGPU_SPIN);
	c = vgpu_tg_kernel(&T, 1, 0, 1, 960, 0, VGPU_SPIN);
	d = vgpu_tg_kernel(&T, 2, 0, 2, 1024, 0, VGPU_SPIN);
	k = vgpu_tg_kernel(&T, 3, 3, 2, 1024, 64, VGPU_SHORT);
	a->args.affinity[0] = 1;
	c->args.affinity[0] = 1;
	d->args.affinity[0] = 2;
	k->args.affinity[0] = 3;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, c));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, d));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	vgpu_tg_until(&T, 64);
	/* the boundary at 64, before the SMs run on */
	vgpu_gpu_dispatch(&T.g);
	ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, k->args.id, 0);
	VGPU_TG_EXPECT_DISPATCH(ev, 64, 0, 0, VGPU_PATH_WARP);
	EXPECT_EQ(NULL, vgpu_tg_find(&T, VGPU_GEV_DISPATCH, k->args.id, 1));
	EXPECT_EQ(1, k->next_unit);
	/* SM 0 itself: 62 warps; with K's 2 first warps in place, full */
	EXPECT_EQ(62, T.g.sm[0].sm.res.warps_total);
	EXPECT_EQ(8, T.g.sm[0].sm.res.reg_free);
	view = vgpu_gpu_sm_view(&T.g, 0, &full);
	EXPECT_TRUE(full);
	EXPECT_EQ(64, view->warps_total);
	EXPECT_EQ(0, view->reg_free);
	/* SM 1 has nothing committed: its view is itself */
	EXPECT_EQ(&T.g.sm[1].sm.res, vgpu_gpu_sm_view(&T.g, 1, &full));
	EXPECT_FALSE(full);
	for (i = 0; i < T.g.cfg.num_sms; i++)
		vgpu_gpu_advance_sm(&T.g, i);

	vgpu_tg_until(&T, 256);
	EXPECT_EQ(NULL, vgpu_tg_find(&T, VGPU_GEV_DISPATCH, k->args.id, 1));
	vgpu_gpu_cancel(&T.g, d);
	vgpu_tg_until(&T, 1024);
	ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, k->args.id, 1);
	VGPU_TG_EXPECT_DISPATCH(ev, 256, 1, 1, VGPU_PATH_BLOCK);
	EXPECT_EQ(VGPU_KS_DONE, k->state);
	EXPECT_GT(1024, k->t.end);
	vgpu_gpu_cancel(&T.g, a);
	vgpu_gpu_cancel(&T.g, c);
	EXPECT_TRUE(vgpu_tg_run(&T, 4096));
	vgpu_tg_fini(&T);
}

/* The shape: warps of 64 to 2,048 iterations, 32 warps a block. */
#define VGPU_RAGGED	"LOOP 64*(1+wid%32)\nALU\nENDLOOP\nEXIT\n"

static const char *const vgpu_pile_policies[] = {
	"rr", "avail", "resource", "power", "combined",
};

/* Run the case under @policy / @mode: blocks per SM, the makespan. */
static u64 vgpu_pile_run(struct __test_metadata *_metadata,
			 const char *policy, u32 mode, u32 *per_sm)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *k;
	size_t i;
	u64 end;

	vgpu_tg_params_small(&p, mode);
	memcpy(p.policy, policy, strlen(policy) + 1);
	if (vgpu_tg_init(&T, NULL, &p))
		return 0;
	k = vgpu_tg_kernel(&T, 0, 3, 32, 1024, 0, VGPU_RAGGED);
	if (vgpu_gpu_submit(&T.g, k) || !vgpu_tg_run(&T, 4000000)) {
		vgpu_tg_fini(&T);
		return 0;
	}
	memset(per_sm, 0, 4 * sizeof(*per_sm));
	for (i = 0; i < T.nev; i++)
		if (T.ev[i].type == VGPU_GEV_DISPATCH && T.ev[i].sm < 4)
			per_sm[T.ev[i].sm]++;
	end = k->t.end;
	vgpu_tg_fini(&T);
	return end;
}

/*
 * One kernel of 32 blocks of 1,024 threads on the small preset (4 SMs,
 * 64 warp slots each: two whole blocks an SM).  Round robin spreads the
 * blocks 8 to an SM.  Every other SM choice must do the same: the four
 * SMs are alike, and at a boundary where warps ended each of them fits
 * one more block warp by warp (b) and then nothing, its slots committed;
 * so each SM gets the same blocks at the same boundaries as under round
 * robin, 32 / 4 = 8, and the makespan is round robin's up to the order
 * of the SMs within a boundary (a bound of 3 % leaves room for that).
 * Placing blocks on an SM past what it can start sent 26 of the 32 to
 * SM 0 under avail and power (3.2 times the makespan).
 */
TEST(pileup_spreads)
{
	/* the switch mode first; in the debug kernel that one only */
	static const u32 mode[] = { VGPU_PREEMPT_SWITCH, VGPU_PREEMPT_WARP };
	u32 nmodes = VGPU_TEST_SCALE(ARRAY_SIZE(mode), 1);
	u32 per_sm[4], i, j, s;
	bool spread;
	u64 rr, end;

	for (i = 0; i < nmodes; i++) {
		rr = vgpu_pile_run(_metadata, "rr", mode[i], per_sm);
		ASSERT_NE(0, rr);
		for (j = 0; j < ARRAY_SIZE(vgpu_pile_policies); j++) {
			end = vgpu_pile_run(_metadata, vgpu_pile_policies[j],
					    mode[i], per_sm);
			ASSERT_NE(0, end);
			spread = true;
			for (s = 0; s < 4; s++)
				spread &= per_sm[s] == 8;
			EXPECT_TRUE(spread)
				TH_LOG("%s mode %u: blocks per SM %u %u %u %u",
				       vgpu_pile_policies[j], mode[i],
				       per_sm[0], per_sm[1], per_sm[2],
				       per_sm[3]);
			EXPECT_GE(rr * 103 / 100, end)
				TH_LOG("%s mode %u: makespan %llu, rr %llu",
				       vgpu_pile_policies[j], mode[i],
				       (unsigned long long)end,
				       (unsigned long long)rr);
		}
	}
}

VGPU_TEST_SUITE(pileup,
	VGPU_CASE(committed_warps_count)
	VGPU_CASE(pileup_spreads))
