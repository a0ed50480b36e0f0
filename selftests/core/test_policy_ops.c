// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduling ops table (driver/core/policy.h): each decision
 * point does what its op answers, every op left NULL is the seeds'
 * pipeline, and an answer that breaks the core's rules is refused, counted
 * in policy_errors and replaced by the default's.  Expected outcomes are
 * worked out by hand on the "small" preset (4 SMs of 2,048 threads).
 */
#include <string.h>

#include "vgpu_test.h"
#include "vgpu_test_gpu.h"
#include "gpu_internal.h"

static struct vgpu_tg T;

#define VGPU_SHORT	"LOOP 10\nALU\nENDLOOP\nEXIT\n"
#define VGPU_LONG	"LOOP 2000\nALU\nENDLOOP\nEXIT\n"

/* Position of the first DISPATCH of kernel @kid in the event stream. */
static size_t first_dispatch(u32 kid)
{
	size_t i;

	for (i = 0; i < T.nev; i++)
		if (T.ev[i].type == VGPU_GEV_DISPATCH && T.ev[i].kernel == kid)
			return i;
	return ~(size_t)0;
}

/* fifo: submission order, whatever the priority. */
static bool fifo_before(const struct vgpu_gpu *g,
			const struct vgpu_gpu_kernel *a,
			const struct vgpu_gpu_kernel *b)
{
	return vgpu_policy_kernel_id(a) < vgpu_policy_kernel_id(b);
}

/*
 * @select_before: a priority-3 kernel submitted before a priority-0 one,
 * both arriving at 0, each block a whole SM: the default dispatches the
 * priority-0 kernel first, the fifo order the older one.
 */
TEST(select_before_orders_the_candidates)
{
	static const struct vgpu_policy_ops fifo = {
		.name = "t_fifo", .select_before = fifo_before,
	};
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *lo, *hi;
	int round;

	for (round = 0; round < 2; round++) {
		vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
		ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
		if (round)
			ASSERT_EQ(0, vgpu_tg_use_policy(&T, &fifo));
		lo = vgpu_tg_kernel(&T, 0, 3, 4, 1024, 0, VGPU_SHORT);
		hi = vgpu_tg_kernel(&T, 1, 0, 4, 1024, 0, VGPU_SHORT);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, lo));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, hi));
		ASSERT_TRUE(vgpu_tg_run(&T, 1000000));
		if (round) {
			EXPECT_LT(first_dispatch(lo->args.id),
				  first_dispatch(hi->args.id));
		} else {
			EXPECT_LT(first_dispatch(hi->args.id),
				  first_dispatch(lo->args.id));
		}
		EXPECT_EQ(0, T.g.stats.policy_errors);
		if (round)
			vgpu_tg_unregister_policy(&T, &fifo);
		vgpu_tg_fini(&T);
	}
}

static bool never_evict(const struct vgpu_gpu *g,
			const struct vgpu_gpu_kernel *w,
			const struct vgpu_gpu_kernel *victim)
{
	return false;
}

/*
 * @may_evict: one task slot, a long low-priority kernel in it and a short
 * high-priority one arriving at 64.  The default evicts (f13_evict...);
 * a policy that never evicts makes the high one wait for the low one.
 */
TEST(may_evict_decides_the_eviction)
{
	static const struct vgpu_policy_ops keep = {
		.name = "t_keep", .may_evict = never_evict,
	};
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *low, *high;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.task_slots = 1;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	ASSERT_EQ(0, vgpu_tg_use_policy(&T, &keep));
	low = vgpu_tg_kernel(&T, 0, 3, 16, 1024, 0, VGPU_LONG);
	high = vgpu_tg_kernel(&T, 1, 0, 1, 32, 64, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, low));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, high));
	ASSERT_TRUE(vgpu_tg_run(&T, 10000000));
	EXPECT_EQ(0, T.g.stats.evictions);
	EXPECT_EQ(NULL, vgpu_tg_find(&T, VGPU_GEV_EVICT, low->args.id, 0));
	EXPECT_LT(low->t.end, high->t.dispatch + 1);
	EXPECT_EQ(VGPU_KS_DONE, high->state);
	vgpu_tg_unregister_policy(&T, &keep);
	vgpu_tg_fini(&T);
}

static u32 pack_one(const struct vgpu_gpu *g, const struct vgpu_gpu_kernel *k,
		    u32 want)
{
	return 1;
}

/*
 * @pack: 8 one-warp blocks.  By default the round-robin decision packs
 * them all on SM 0 (F23 (a)); one block per decision spreads them over
 * SMs 0, 1, 2, 3, 0, 1, 2, 3.
 */
TEST(pack_sets_blocks_per_decision)
{
	static const struct vgpu_policy_ops one = {
		.name = "t_one", .pack = pack_one,
	};
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *k;
	u32 i;

	/* the device's pack=sm: F23 (a), all 8 fit SM 0 and go there */
	vgpu_tg_params_small(&p, VGPU_PREEMPT_WARP);
	p.pack = VGPU_PACK_SM;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	k = vgpu_tg_kernel(&T, 0, 0, 8, 32, 0, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_TRUE(vgpu_tg_run(&T, 1000000));
	for (i = 0; i < 8; i++)
		EXPECT_EQ(0, vgpu_tg_find(&T, VGPU_GEV_DISPATCH, k->args.id, i)->sm);
	EXPECT_EQ(1, T.g.stats.decisions);
	vgpu_tg_fini(&T);

	/* @pack answers one block a decision: round robin spreads them */
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	ASSERT_EQ(0, vgpu_tg_use_policy(&T, &one));
	k = vgpu_tg_kernel(&T, 0, 0, 8, 32, 0, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_TRUE(vgpu_tg_run(&T, 1000000));
	for (i = 0; i < 8; i++)
		EXPECT_EQ(i % 4,
			  vgpu_tg_find(&T, VGPU_GEV_DISPATCH, k->args.id, i)->sm);
	EXPECT_EQ(8, T.g.stats.decisions);
	EXPECT_EQ(0, T.g.stats.policy_errors);
	vgpu_tg_unregister_policy(&T, &one);
	vgpu_tg_fini(&T);
}

static u32 preempt_last(const struct vgpu_gpu *g,
			const struct vgpu_gpu_kernel *k)
{
	return vgpu_policy_num_sms(g) - 1;
}

/*
 * @preempt: warp mode, SMs full of a priority-3 kernel, a priority-0
 * block arriving at 128.  The default takes SM 0 (f23_preempt_warp); the
 * policy names SM 3, which the mode allows, so the block goes there.
 */
TEST(preempt_chooses_the_sm)
{
	static const struct vgpu_policy_ops last = {
		.name = "t_last", .preempt = preempt_last,
	};
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *low, *high;
	const struct vgpu_event *ev;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_WARP);
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	ASSERT_EQ(0, vgpu_tg_use_policy(&T, &last));
	low = vgpu_tg_kernel(&T, 0, 3, 8, 1024, 0,
			     "LOOP 20*(1+wid%32)\nALU\nENDLOOP\nEXIT\n");
	high = vgpu_tg_kernel(&T, 1, 0, 1, 64, 128, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, low));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, high));
	ASSERT_TRUE(vgpu_tg_run(&T, 1000000));
	ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, high->args.id, 0);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(128, ev->cycle);
	EXPECT_EQ(VGPU_PATH_PREEMPT, ev->arg0);
	EXPECT_EQ(3, ev->sm);
	EXPECT_EQ(0, T.g.stats.policy_errors);
	vgpu_tg_unregister_policy(&T, &last);
	vgpu_tg_fini(&T);
}

static u32 liar_sm(const struct vgpu_policy_ctx *ctx,
		   const struct vgpu_policy_sm *c, u32 n)
{
	return n;	/* the first index past the candidates */
}

static u32 liar_pack(const struct vgpu_gpu *g,
		     const struct vgpu_gpu_kernel *k, u32 want)
{
	return want + 1;
}

static u32 liar_preempt(const struct vgpu_gpu *g,
			const struct vgpu_gpu_kernel *k)
{
	return vgpu_policy_num_sms(g);	/* the first SM that does not exist */
}

/*
 * Refused answers, each just past its bound: the SM index n of n
 * candidates, one block more than there are, SM num_sms.  Each is counted and the default
 * used: the same SMs as f25_rr's round robin and f23_preempt_warp's SM 0,
 * every kernel completes.
 */
TEST(bad_answers_are_counted_and_replaced)
{
	static const struct vgpu_policy_ops liar = {
		.name = "t_liar", .select_sm = liar_sm, .pack = liar_pack,
		.preempt = liar_preempt,
	};
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *k, *low, *high;
	const struct vgpu_event *ev;
	u32 i;

	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	ASSERT_EQ(0, vgpu_tg_use_policy(&T, &liar));
	k = vgpu_tg_kernel(&T, 0, 0, 5, 1024, 0, VGPU_SHORT);
	k->args.flags = VGPU_KF_SEQUENTIAL;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	for (i = 0; i < 5; i++)
		EXPECT_EQ(i % 4,
			  vgpu_tg_find(&T, VGPU_GEV_DISPATCH, k->args.id, i)->sm);
	/* one refused SM choice per decision */
	EXPECT_EQ(5, T.g.stats.policy_errors);
	vgpu_tg_unregister_policy(&T, &liar);
	vgpu_tg_fini(&T);

	vgpu_tg_params_small(&p, VGPU_PREEMPT_WARP);
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	ASSERT_EQ(0, vgpu_tg_use_policy(&T, &liar));
	low = vgpu_tg_kernel(&T, 0, 3, 8, 1024, 0,
			     "LOOP 20*(1+wid%32)\nALU\nENDLOOP\nEXIT\n");
	high = vgpu_tg_kernel(&T, 1, 0, 1, 64, 128, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, low));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, high));
	ASSERT_TRUE(vgpu_tg_run(&T, 1000000));
	ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, high->args.id, 0);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(VGPU_PATH_PREEMPT, ev->arg0);
	EXPECT_EQ(0, ev->sm);
	EXPECT_EQ(VGPU_KS_DONE, high->state);
	EXPECT_EQ(VGPU_KS_DONE, low->state);
	/* the preemption and the multi-block packs were refused too */
	EXPECT_LT(2, T.g.stats.policy_errors);
	vgpu_tg_unregister_policy(&T, &liar);
	vgpu_tg_fini(&T);

	/* 3 one-warp blocks, all fitting SM 0: never a fourth */
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	ASSERT_EQ(0, vgpu_tg_use_policy(&T, &liar));
	k = vgpu_tg_kernel(&T, 0, 0, 3, 32, 0, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_EQ(3, vgpu_tg_count(&T, VGPU_GEV_DISPATCH, k->args.id));
	EXPECT_EQ(3, k->done_units);
	EXPECT_EQ(VGPU_KS_DONE, k->state);
	/* one decision: its SM choice and its pack of 4 out of 3 */
	EXPECT_EQ(2, T.g.stats.policy_errors);
	vgpu_tg_unregister_policy(&T, &liar);
	vgpu_tg_fini(&T);
}

/* Calls of the notification ops. */
static struct {
	u32 ticks, submitted, dispatched, block_done, kernel_done, cancelled;
	u64 cycles;
} calls;

static void n_tick(struct vgpu_gpu *g)
{
	calls.ticks++;
}

static void n_submitted(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	u64 *mine = vgpu_policy_kernel_state(k);

	calls.submitted++;
	mine[0] = 42;
}

static void n_dispatched(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			 u32 sm)
{
	calls.dispatched++;
}

static void n_block_done(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			 u32 sm, u64 cycles)
{
	calls.block_done++;
	calls.cycles += cycles;
}

static void n_kernel_done(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	calls.kernel_done++;
}

static void n_cancelled(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	calls.cancelled++;
}

/*
 * Notifications: a 5-block kernel runs to completion (5 dispatches, 5
 * block completions, one kernel completion), a second one is cancelled
 * before it arrives; the per-kernel state the policy wrote stays.
 */
TEST(notifications_reach_the_policy)
{
	static const struct vgpu_policy_ops note = {
		.name = "t_note", .tick = n_tick, .submitted = n_submitted,
		.dispatched = n_dispatched, .block_done = n_block_done,
		.kernel_done = n_kernel_done, .cancelled = n_cancelled,
		.kernel_state_size = sizeof(u64),
	};
	struct vgpu_gpu_kernel *k, *c;

	memset(&calls, 0, sizeof(calls));
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	ASSERT_EQ(0, vgpu_tg_use_policy(&T, &note));
	k = vgpu_tg_kernel(&T, 0, 0, 5, 1024, 0, VGPU_SHORT);
	c = vgpu_tg_kernel(&T, 1, 0, 1, 32, 1000000, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, c));
	vgpu_tg_step(&T);
	ASSERT_EQ(0, vgpu_gpu_cancel(&T.g, c));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_EQ(2, calls.submitted);
	EXPECT_EQ(5, calls.dispatched);
	EXPECT_EQ(5, calls.block_done);
	EXPECT_LT(0, calls.cycles);
	EXPECT_EQ(1, calls.kernel_done);
	EXPECT_EQ(1, calls.cancelled);
	EXPECT_LT(1, calls.ticks);
	EXPECT_EQ(42, *(const u64 *)vgpu_policy_kernel_state_ro(k));
	vgpu_tg_unregister_policy(&T, &note);
	vgpu_tg_fini(&T);
}

/*
 * Seed 001 embodiment 9 with [0256]-[0257], by hand: a_h times the sum of
 * every sub-partition's largest free register run, the free warp slots,
 * the largest free shared memory run and the free block slots (exact
 * search, no scalar file).
 */
static u64 oracle_free(const struct vgpu_sm_res *res, const u32 *a)
{
	u32 p, regs = 0;

	for (p = 0; p < res->subparts; p++)
		regs += vgpu_bmap_run_naive(res->regs[p], res->reg_units);
	return (u64)regs * a[0] + (u64)(res->max_warps - res->warps_total) * a[1] +
	       (u64)vgpu_bmap_run_naive(res->smem, res->smem_units) * a[2] +
	       (u64)(res->max_blocks - res->blocks_used) * a[3];
}

/*
 * @select_sm's candidates are kept across decisions (place.c, struct
 * vgpu_gpu_fitset) and only SMs whose resources changed are looked at
 * again.  This policy checks, at every decision, that they are exactly
 * what a fresh look at every SM gives: path (a) if any allowed SM takes
 * the whole block (the policy never waits), the SMs that take it by that
 * path, ascending, with each figure recomputed from the SM, its warps
 * committed and not started yet counted as taken (F23 (b)).
 */
static u32 oracle_calls, oracle_bad;

static u32 oracle_sm(const struct vgpu_policy_ctx *ctx,
		     const struct vgpu_policy_sm *c, u32 n)
{
	struct vgpu_gpu *g = (struct vgpu_gpu *)ctx->gpu;
	const struct vgpu_sm_res *res;
	bool block = false, fits, full;
	u32 i, j = 0;

	oracle_calls++;
	for (i = 0; i < g->cfg.num_sms; i++) {
		res = vgpu_gpu_sm_view(g, i, &full);
		if (vgpu_gpu_sm_allowed(g, ctx->k, i) && !full &&
		    vgpu_sm_res_block_fits(res, ctx->shape))
			block = true;
	}
	for (i = 0; i < g->cfg.num_sms; i++) {
		res = vgpu_gpu_sm_view(g, i, &full);
		/* path (b) as seed 000 claim 4 has it: strictly more than a warp */
		fits = vgpu_gpu_sm_allowed(g, ctx->k, i) && !full &&
		       (block ? vgpu_sm_res_block_fits(res, ctx->shape) :
				res->max_warps - res->warps_total > 1 &&
				res->reg_free > ctx->shape->reg_units &&
				res->smem_free > DIV_ROUND_UP(ctx->shape->smem_units,
							      ctx->shape->warps) &&
				vgpu_sm_res_warp_fits(res, ctx->shape));
		if (!fits)
			continue;
		if (j >= n || c[j].sm != i || c[j].res != &g->sm[i].sm.res ||
		    c[j].fit != vgpu_sm_res_blocks_fit(res, ctx->shape) ||
		    c[j].free != oracle_free(res, ctx->res_weight) ||
		    c[j].power != vgpu_gpu_sm_power(g, i))
			oracle_bad++;
		j++;
	}
	if (j != n)
		oracle_bad++;
	/* spread the blocks: the middle candidate */
	return n / 2;
}

TEST(select_sm_candidates_are_fresh)
{
	static const struct vgpu_policy_ops oracle = {
		.name = "oracle", .select_sm = oracle_sm,
		.wants = VGPU_POLICY_WANT_FIT | VGPU_POLICY_WANT_POWER |
			 VGPU_POLICY_WANT_FREE,
	};
	static const u32 threads[] = { 32, 64, 96, 256, 512, 1024 };
	static const char *const progs[] = {
		VGPU_SHORT, VGPU_LONG, "LOOP 300\nALU\nENDLOOP\nEXIT\n",
	};
	static const u32 modes[] = {
		VGPU_PREEMPT_SWITCH, VGPU_PREEMPT_WARP, VGPU_PREEMPT_DRAIN,
	};
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *k;
	u32 m, i, seed = 12345;

	/*
	 * then once more with one block shape: the sets live longest; and a
	 * third time with shapes that differ in shared memory alone
	 */
	for (m = 0; m < 3 * ARRAY_SIZE(modes); m++) {
		vgpu_tg_params_small(&p, modes[m % ARRAY_SIZE(modes)]);
		ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
		ASSERT_EQ(0, vgpu_tg_use_policy(&T, &oracle));
		oracle_calls = 0;
		oracle_bad = 0;
		for (i = 0; i < 30; i++) {
			seed = seed * 1103515245 + 12345;
			k = vgpu_tg_kernel(&T, i % 8, (seed >> 8) % 4,
					   1 + (seed >> 12) % 24,
					   threads[(seed >> 16) % 6],
					   (seed >> 20) % 3000,
					   progs[(seed >> 24) % 3]);
			k->args.regs = 16 << ((seed >> 4) % 3);
			k->args.smem = ((seed >> 6) % 4) * 4096;
			if (m >= ARRAY_SIZE(modes)) {
				k->args.threads = 128;
				k->args.regs = 32;
				k->args.smem = 0;
			}
			if (m >= 2 * ARRAY_SIZE(modes))
				k->args.smem = (i % 2) * 96 * 1024;
			if (i % 3 == 1)
				k->args.affinity[0] = 0x5;
			ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
		}
		ASSERT_TRUE(vgpu_tg_run(&T, 100000000));
		for (i = 0; i < T.nk; i++)
			EXPECT_EQ(VGPU_KS_DONE, T.k[i].state);
		fprintf(stderr, "# mode %u: %u decisions, %llu preemptions\n",
			modes[m % ARRAY_SIZE(modes)], oracle_calls,
			(unsigned long long)T.g.stats.preemptions);
		EXPECT_LT(100, oracle_calls);
		EXPECT_EQ(0, oracle_bad);
		if (m == 0)
			EXPECT_LT(0, T.g.stats.preemptions);
		vgpu_tg_unregister_policy(&T, &oracle);
		vgpu_tg_fini(&T);
	}
}

/*
 * Seed 001 [0283], the "combined" SM choice: score = combo x free / free_max
 * - (100 - combo) x power / power_max.  SM 5: 60 % free, 50 % power;
 * SM 7: 40 % free, 10 % power.  combo 50: 5 against 15, SM 7; combo 90:
 * 49 against 35, SM 5; combo 100 is "resource" (SM 5), combo 0 "power"
 * (SM 7).  Equal figures: the lower rank in the SM list (SM 7, rank 0).
 */
TEST(combined_weighs_free_against_power)
{
	static const u32 combo[] = { 50, 90, 100, 0 }, want[] = { 1, 0, 0, 1 };
	u16 rank[8] = { [5] = 1, [7] = 0 };
	struct vgpu_policy_sm c[2] = {
		{ .sm = 5, .free = 600, .power = 5000 },
		{ .sm = 7, .free = 400, .power = 1000 },
	};
	struct vgpu_policy_ctx ctx = {
		.sm_rank = rank, .free_max = 1000, .power_max = 10000,
	};
	const struct vgpu_policy_ops *ops;
	struct vgpu_policy_reg *r;
	struct list_head reg;
	u32 i;

	vgpu_policy_registry_init(&reg);
	r = vgpu_policy_find(&reg, "combined");
	ASSERT_NE(NULL, r);
	ops = r->ops;
	EXPECT_EQ(VGPU_POLICY_WANT_FREE | VGPU_POLICY_WANT_POWER, ops->wants);
	for (i = 0; i < ARRAY_SIZE(combo); i++) {
		ctx.combo = combo[i];
		EXPECT_EQ(want[i], ops->select_sm(&ctx, c, 2)) TH_LOG("%u", combo[i]);
	}
	c[1].free = 600;
	c[1].power = 5000;
	ctx.combo = 50;
	EXPECT_EQ(1, ops->select_sm(&ctx, c, 2));
}

/*
 * F25 "power": the least power history wins, and equal figures go to the
 * lower rank in the fixed SM list (SM 7, rank 0, after SM 5, rank 1).
 */
TEST(power_ties_by_the_sm_list)
{
	u16 rank[8] = { [5] = 1, [7] = 0 };
	struct vgpu_policy_sm c[2] = {
		{ .sm = 5, .power = 100 }, { .sm = 7, .power = 100 },
	};
	struct vgpu_policy_ctx ctx = { .sm_rank = rank };
	const struct vgpu_policy_ops *ops;
	struct vgpu_policy_reg *r;
	struct list_head reg;

	vgpu_policy_registry_init(&reg);
	r = vgpu_policy_find(&reg, "power");
	ASSERT_NE(NULL, r);
	ops = r->ops;
	EXPECT_EQ(1, ops->select_sm(&ctx, c, 2));
	c[1].power = 101;
	EXPECT_EQ(0, ops->select_sm(&ctx, c, 2));
}

/*
 * Registration refuses a table it could not honour: no ops, an empty or
 * unterminated name, a first-fit claim without an SM choice (-EINVAL),
 * more state than the core keeps (-E2BIG), a name taken (-EEXIST); a
 * refused table is not in the registry.  The maxima themselves are fine.
 */
TEST(registration_refuses_bad_tables)
{
	static const struct vgpu_policy_ops big_dev = {
		.name = "t_big", .state_size = VGPU_POLICY_MAX_STATE + 1,
	};
	static const struct vgpu_policy_ops big_chan = {
		.name = "t_big",
		.chan_state_size = VGPU_POLICY_MAX_CHAN_STATE + 1,
	};
	static const struct vgpu_policy_ops big_kernel = {
		.name = "t_big",
		.kernel_state_size = VGPU_POLICY_MAX_KERNEL_STATE + 1,
	};
	static const struct vgpu_policy_ops max = {
		.name = "t_max", .state_size = VGPU_POLICY_MAX_STATE,
		.chan_state_size = VGPU_POLICY_MAX_CHAN_STATE,
		.kernel_state_size = VGPU_POLICY_MAX_KERNEL_STATE,
	};
	static const struct vgpu_policy_ops noname = { .name = "" };
	static const struct vgpu_policy_ops longname = {
		.name = { 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h',
			  'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p' },
	};
	static const struct vgpu_policy_ops ff = {
		.name = "t_ff", .first_fit = true,
	};
	static const struct vgpu_policy_ops dup = { .name = "avail" };
	struct vgpu_policy_reg none = { .ops = NULL };

	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	EXPECT_EQ(-E2BIG, vgpu_tg_register_policy(&T, &big_dev));
	EXPECT_EQ(-E2BIG, vgpu_tg_register_policy(&T, &big_chan));
	EXPECT_EQ(-E2BIG, vgpu_tg_register_policy(&T, &big_kernel));
	EXPECT_EQ(NULL, vgpu_policy_find(&T.pol, "t_big"));
	EXPECT_EQ(-EINVAL, vgpu_tg_register_policy(&T, &noname));
	EXPECT_EQ(-EINVAL, vgpu_tg_register_policy(&T, &longname));
	EXPECT_EQ(-EINVAL, vgpu_tg_register_policy(&T, &ff));
	EXPECT_EQ(NULL, vgpu_policy_find(&T.pol, "t_ff"));
	EXPECT_EQ(-EINVAL, vgpu_policy_register(&T.pol, &none));
	EXPECT_EQ(-EEXIST, vgpu_tg_register_policy(&T, &dup));
	ASSERT_EQ(0, vgpu_tg_register_policy(&T, &max));
	ASSERT_NE(NULL, vgpu_policy_find(&T.pol, "t_max"));
	EXPECT_EQ(&max, vgpu_policy_find(&T.pol, "t_max")->ops);
	EXPECT_EQ(&max, vgpu_tg_policy_reg(&T, &max)->ops);
	vgpu_tg_unregister_policy(&T, &max);
	EXPECT_EQ(NULL, vgpu_policy_find(&T.pol, "t_max"));
	vgpu_tg_fini(&T);
}

/* What the life-cycle ops saw. */
/*
 * The device's own SM choice (&vgpu_gpu_params.sm_choice): a policy
 * without one runs with its @select_sm, @first_fit, @wants and packing
 * (unless it states a packing); a policy with one of its own runs as
 * written; an ejected policy falls back to it; only a built-in's name is
 * valid.
 */
TEST(sm_choice_composes_a_policy_without_one)
{
	static const struct vgpu_policy_ops fifo = {
		.name = "t_fifo", .select_before = fifo_before,
	};
	static const struct vgpu_policy_ops fifo_blk = {
		.name = "t_fifo_blk", .select_before = fifo_before,
		.packing = VGPU_POLICY_PACK_BLOCK,
	};
	static const struct vgpu_policy_ops own = {
		.name = "t_own", .select_sm = liar_sm,
	};
	const struct vgpu_policy_ops *res = vgpu_policy_sm_choice("resource");
	struct vgpu_gpu_params p;
	struct vgpu_config cfg;
	const char *bad = NULL;

	ASSERT_TRUE(res != NULL);
	EXPECT_TRUE(vgpu_policy_sm_choice("fifo") == NULL);
	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	memcpy(p.sm_choice, "resource", sizeof("resource"));
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	EXPECT_STREQ("resource", T.g.watch.fallback->ops->name);
	ASSERT_EQ(0, vgpu_tg_use_policy(&T, &fifo));
	EXPECT_TRUE(T.g.policy == &T.g.policy_ops);
	EXPECT_TRUE(T.g.policy->select_sm == res->select_sm);
	EXPECT_TRUE(T.g.policy->select_before == fifo_before);
	EXPECT_EQ(VGPU_POLICY_PACK_SM, T.g.policy->packing);
	EXPECT_EQ(VGPU_POLICY_WANT_FREE, T.g.policy->wants);
	EXPECT_STREQ("t_fifo", T.g.policy->name);
	ASSERT_EQ(0, vgpu_tg_use_policy(&T, &fifo_blk));
	EXPECT_TRUE(T.g.policy->select_sm == res->select_sm);
	EXPECT_EQ(VGPU_POLICY_PACK_BLOCK, T.g.policy->packing);
	ASSERT_EQ(0, vgpu_tg_use_policy(&T, &own));
	EXPECT_TRUE(T.g.policy == &own);
	vgpu_tg_unregister_policy(&T, &fifo);
	vgpu_tg_unregister_policy(&T, &fifo_blk);
	vgpu_tg_unregister_policy(&T, &own);
	vgpu_tg_fini(&T);

	/* without one, the policy runs as written and falls back to rr */
	p.sm_choice[0] = 0;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	EXPECT_STREQ("rr", T.g.watch.fallback->ops->name);
	ASSERT_EQ(0, vgpu_tg_use_policy(&T, &fifo));
	EXPECT_TRUE(T.g.policy == &fifo);
	vgpu_tg_unregister_policy(&T, &fifo);
	vgpu_tg_fini(&T);

	vgpu_config_preset(&cfg, "small");
	EXPECT_EQ(0, vgpu_gpu_params_validate(&p, &cfg, &bad));
	memcpy(p.sm_choice, "t_fifo", sizeof("t_fifo"));
	EXPECT_EQ(-EINVAL, vgpu_gpu_params_validate(&p, &cfg, &bad));
	EXPECT_STREQ("sm_choice", bad);
	memset(p.sm_choice, 'r', sizeof(p.sm_choice));
	EXPECT_EQ(-EINVAL, vgpu_gpu_params_validate(&p, &cfg, &bad));
	EXPECT_STREQ("sm_choice", bad);
}

static struct {
	u32 init[2], exit[2];
	int refuse[2];		/* init's answer from the refuse[i]-th call on */
	bool zero[2];		/* every byte of the declared state was zero */
	u32 zero_kernels;	/* kernels entering with zero state */
	u32 nonzero_kernels;
} life;

static bool all_zero(const void *p, size_t n)
{
	const u8 *b = p;

	while (n--)
		if (*b++)
			return false;
	return true;
}

/* Is every byte of the full state of @g zero, and then fill it with 0xa5. */
static bool life_check_and_fill(struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *k;
	bool zero = all_zero(vgpu_policy_state_ro(g), VGPU_POLICY_MAX_STATE);
	u32 i;

	memset(vgpu_policy_state(g), 0xa5, VGPU_POLICY_MAX_STATE);
	for (i = 0; i < vgpu_policy_num_channels(g); i++) {
		zero &= all_zero(vgpu_policy_chan_state_ro(g, i),
				 VGPU_POLICY_MAX_CHAN_STATE);
		memset(vgpu_policy_chan_state(g, i), 0xa5,
		       VGPU_POLICY_MAX_CHAN_STATE);
	}
	list_for_each_entry(k, &g->kernels, table_node) {
		zero &= all_zero(vgpu_policy_kernel_state_ro(k),
				 VGPU_POLICY_MAX_KERNEL_STATE);
		memset(vgpu_policy_kernel_state(k), 0xa5,
		       VGPU_POLICY_MAX_KERNEL_STATE);
	}
	return zero;
}

static int life_init(struct vgpu_gpu *g, u32 i)
{
	life.zero[i] = life_check_and_fill(g);
	if (life.refuse[i] && ++life.init[i] >= (u32)life.refuse[i])
		return -EDOM;
	if (!life.refuse[i])
		life.init[i]++;
	return 0;
}

static int life_init0(struct vgpu_gpu *g)
{
	return life_init(g, 0);
}

static int life_init1(struct vgpu_gpu *g)
{
	return life_init(g, 1);
}

static void life_exit0(struct vgpu_gpu *g)
{
	life.exit[0]++;
}

static void life_exit1(struct vgpu_gpu *g)
{
	life.exit[1]++;
}

static void life_submitted(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	if (all_zero(vgpu_policy_kernel_state_ro(k),
		     VGPU_POLICY_MAX_KERNEL_STATE))
		life.zero_kernels++;
	else
		life.nonzero_kernels++;
	memset(vgpu_policy_kernel_state(k), 0xa5,
	       VGPU_POLICY_MAX_KERNEL_STATE);
}

static const struct vgpu_policy_ops life_a = {
	.name = "t_life_a", .init = life_init0, .exit = life_exit0,
	.state_size = VGPU_POLICY_MAX_STATE,
	.chan_state_size = VGPU_POLICY_MAX_CHAN_STATE,
	.kernel_state_size = VGPU_POLICY_MAX_KERNEL_STATE,
	.submitted = life_submitted,
};

static const struct vgpu_policy_ops life_b = {
	.name = "t_life_b", .init = life_init1, .exit = life_exit1,
	.state_size = VGPU_POLICY_MAX_STATE,
	.chan_state_size = VGPU_POLICY_MAX_CHAN_STATE,
	.kernel_state_size = VGPU_POLICY_MAX_KERNEL_STATE,
	.submitted = life_submitted,
};

/*
 * init and exit: switching A -> B -> A calls A's init, A's exit, B's
 * init, B's exit, A's init; each init finds every byte of its declared
 * state zero although the previous policy filled all of it (device, every
 * channel, the kernel in the table); the device's fini calls the exit of
 * the policy in use, once.  Switching to the policy in use calls nothing.
 * A channel added and a kernel submitted later start from zero too.
 */
TEST(init_exit_and_zeroed_state)
{
	struct vgpu_gpu_kernel *k, *k2;

	memset(&life, 0, sizeof(life));
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, VGPU_LONG);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_EQ(0, vgpu_tg_use_policy(&T, &life_a));
	EXPECT_EQ(1, life.init[0]);
	EXPECT_TRUE(life.zero[0]);
	EXPECT_EQ(0, vgpu_tg_use_policy(&T, &life_a));
	EXPECT_EQ(1, life.init[0]);
	EXPECT_EQ(0, life.exit[0]);
	ASSERT_EQ(0, vgpu_tg_use_policy(&T, &life_b));
	EXPECT_EQ(1, life.exit[0]);
	EXPECT_EQ(1, life.init[1]);
	EXPECT_TRUE(life.zero[1]);
	EXPECT_EQ(&life_b, T.g.policy);
	EXPECT_EQ(0, strcmp("t_life_b", T.g.p.policy));
	ASSERT_EQ(0, vgpu_tg_use_policy(&T, &life_a));
	EXPECT_EQ(1, life.exit[1]);
	EXPECT_EQ(2, life.init[0]);
	EXPECT_TRUE(life.zero[0]);
	/* a channel made again and a kernel entering: zero */
	ASSERT_EQ(0, vgpu_gpu_channel_remove(&T.g, 7));
	ASSERT_EQ(0, vgpu_gpu_channel_add(&T.g, 7, 0));
	EXPECT_TRUE(all_zero(vgpu_policy_chan_state_ro(&T.g, 7),
			     VGPU_POLICY_MAX_CHAN_STATE));
	EXPECT_FALSE(all_zero(vgpu_policy_chan_state_ro(&T.g, 6),
			      VGPU_POLICY_MAX_CHAN_STATE));
	k2 = vgpu_tg_kernel(&T, 1, 0, 1, 32, 0, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k2));
	EXPECT_EQ(1, life.zero_kernels);
	EXPECT_EQ(0, life.nonzero_kernels);
	vgpu_gpu_cancel(&T.g, k);
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	vgpu_tg_fini(&T);
	EXPECT_EQ(2, life.exit[0]);
	EXPECT_EQ(1, life.exit[1]);
	EXPECT_EQ(2, life.init[0]);
	EXPECT_EQ(1, life.init[1]);
}

/*
 * An init that fails refuses the switch: vgpu_gpu_set_policy() returns
 * its error, the device keeps its policy, which restarts from zero state
 * (exit, init again); the refused policy's exit is never called.  Should
 * the old policy refuse to restart too, the device falls back to "rr".
 */
TEST(init_failure_refuses_the_switch)
{
	struct vgpu_gpu_kernel *k;

	memset(&life, 0, sizeof(life));
	life.refuse[1] = 1;	/* B: from its first init on */
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	ASSERT_EQ(0, vgpu_tg_use_policy(&T, &life_a));
	EXPECT_EQ(-EDOM, vgpu_tg_use_policy(&T, &life_b));
	EXPECT_EQ(&life_a, T.g.policy);
	EXPECT_EQ(&life_a, T.g.policy_reg->ops);
	EXPECT_EQ(0, strcmp("t_life_a", T.g.p.policy));
	EXPECT_EQ(1, life.exit[0]);
	EXPECT_EQ(2, life.init[0]);
	EXPECT_TRUE(life.zero[0]);	/* B's 0xa5 are gone */
	EXPECT_EQ(0, life.exit[1]);
	/* the device works on under A */
	k = vgpu_tg_kernel(&T, 0, 0, 2, 32, 0, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_EQ(VGPU_KS_DONE, k->state);
	/* A refuses from its third init on: back to B fails, A fails: rr */
	life.refuse[0] = 3;
	EXPECT_EQ(-EDOM, vgpu_tg_use_policy(&T, &life_b));
	EXPECT_EQ(0, strcmp("rr", T.g.policy->name));
	EXPECT_EQ(0, strcmp("rr", T.g.p.policy));
	EXPECT_EQ(T.g.policy, T.g.policy_reg->ops);
	EXPECT_EQ(2, life.exit[0]);
	EXPECT_EQ(0, life.exit[1]);
	vgpu_tg_fini(&T);
	EXPECT_EQ(2, life.exit[0]);
	EXPECT_EQ(0, life.exit[1]);
}

/*
 * A policy whose init fails when the device is made: the device is not
 * made (vgpu_gpu_init() returns the error, the device is left zeroed and
 * vgpu_gpu_fini() has nothing to do: no exit).
 */
TEST(init_failure_fails_the_device)
{
	struct vgpu_gpu_params p;
	struct vgpu_policy_reg r = { .ops = &life_a };
	VGPU_TEST_BIG struct vgpu_gpu g;
	struct vgpu_config cfg;
	struct list_head reg;
	size_t size;
	void *mem;

	memset(&life, 0, sizeof(life));
	life.refuse[0] = 1;
	vgpu_config_preset(&cfg, "small");
	vgpu_gpu_params_default(&p, &cfg);
	snprintf(p.policy, sizeof(p.policy), "%s", "t_life_a");
	vgpu_policy_registry_init(&reg);
	ASSERT_EQ(0, vgpu_policy_register(&reg, &r));
	size = vgpu_gpu_mem_size(&cfg, &p);
	mem = aligned_alloc(64, (size + 63) & ~(size_t)63);
	ASSERT_NE(NULL, mem);
	EXPECT_EQ(-EDOM, vgpu_gpu_init(&g, mem, size, &cfg, &p, &reg));
	EXPECT_EQ(1, life.init[0]);
	EXPECT_TRUE(life.zero[0]);
	EXPECT_EQ(NULL, g.policy);
	vgpu_gpu_fini(&g);
	EXPECT_EQ(0, life.exit[0]);
	life.refuse[0] = 0;
	ASSERT_EQ(0, vgpu_gpu_init(&g, mem, size, &cfg, &p, &reg));
	EXPECT_EQ(&life_a, g.policy);
	EXPECT_EQ(&r, g.policy_reg);
	vgpu_gpu_fini(&g);
	EXPECT_EQ(1, life.exit[0]);
	vgpu_policy_unregister(&r);
	free(mem);
}

VGPU_TEST_SUITE(policy_ops,
	VGPU_CASE(select_before_orders_the_candidates)
	VGPU_CASE(may_evict_decides_the_eviction)
	VGPU_CASE(pack_sets_blocks_per_decision)
	VGPU_CASE(preempt_chooses_the_sm)
	VGPU_CASE(bad_answers_are_counted_and_replaced)
	VGPU_CASE(notifications_reach_the_policy)
	VGPU_CASE(select_sm_candidates_are_fresh)
	VGPU_CASE(combined_weighs_free_against_power)
	VGPU_CASE(power_ties_by_the_sm_list)
	VGPU_CASE(registration_refuses_bad_tables)
	VGPU_CASE(sm_choice_composes_a_policy_without_one)
	VGPU_CASE(init_exit_and_zeroed_state)
	VGPU_CASE(init_failure_refuses_the_switch)
	VGPU_CASE(init_failure_fails_the_device))
