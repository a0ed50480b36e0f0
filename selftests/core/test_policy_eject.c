// SPDX-License-Identifier: GPL-2.0
/*
 * The policy watchdog (driver/core/policy_watch.c): a policy that stalls
 * the device or keeps erring is ejected with its reason, every kernel
 * completes under the fallback, yields cannot livelock, and answers the
 * core can check (the tick's priority writes, inconsistent comparators
 * and evictions) are refused and counted per op.  A device that waits for
 * a reason of its own, or a policy that confines kernels to busy SMs, is
 * never ejected.  Outcomes are worked out by hand on the "small" preset
 * (4 SMs of 2,048 threads, epoch 64, switch cost 64).
 */
#include <string.h>

#include "vgpu_test.h"
#include "vgpu_test_gpu.h"
#include "gpu_internal.h"

static struct vgpu_tg T;

#define VGPU_SHORT	"LOOP 10\nALU\nENDLOOP\nEXIT\n"
#define VGPU_LONG	"LOOP 2000\nALU\nENDLOOP\nEXIT\n"

/* What the host was told (&vgpu_gpu_host_ops.policy_exit). */
static struct {
	u32 calls;
	const struct vgpu_policy_ops *old;
	const struct vgpu_policy_ops *now;
	u32 reason;
	u64 at;
} exits;

static void host_policy_exit(void *host, struct vgpu_policy_reg *old,
			     struct vgpu_policy_reg *now, u32 reason)
{
	struct vgpu_tg *t = host;

	exits.calls++;
	exits.old = old->ops;
	exits.now = now->ops;
	exits.reason = reason;
	exits.at = t->g.now;
}

static const struct vgpu_gpu_host_ops host_ops = {
	.policy_exit = host_policy_exit,
};

/* @p's device (NULL: small defaults) with the host ops and policy @pol. */
static int setup(const struct vgpu_gpu_params *p,
		 const struct vgpu_policy_ops *pol)
{
	int ret;

	memset(&exits, 0, sizeof(exits));
	ret = vgpu_tg_init_host(&T, NULL, p, &host_ops, &T);
	return ret ? ret : vgpu_tg_use_policy(&T, pol);
}

static void teardown(const struct vgpu_policy_ops *pol)
{
	vgpu_tg_unregister_policy(&T, pol);
	vgpu_tg_fini(&T);
}

static u32 wait_sm(const struct vgpu_policy_ctx *ctx,
		   const struct vgpu_policy_sm *c, u32 n)
{
	return VGPU_POLICY_WAIT;
}

/*
 * select_sm always WAIT: nothing is ever placed by it.  The device makes no
 * progress for VGPU_POLICY_STALL_BOUNDARIES boundaries (0, 64, ...,
 * 63 * 64), the policy is ejected at the next one (64 * 64 = 4096) and
 * every kernel completes under "rr", its first block on SM 0.
 */
TEST(wait_forever_is_ejected_for_stalling)
{
	static const struct vgpu_policy_ops pol = {
		.name = "t_wait", .select_sm = wait_sm,
	};
	struct vgpu_gpu_kernel *k[3];
	const struct vgpu_event *ev;
	u32 i;

	ASSERT_EQ(0, setup(NULL, &pol));
	for (i = 0; i < 3; i++) {
		k[i] = vgpu_tg_kernel(&T, i, 0, 6, 256, 0, VGPU_SHORT);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k[i]));
	}
	ASSERT_TRUE(vgpu_tg_run(&T, 1000000));
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(VGPU_KS_DONE, k[i]->state);
		EXPECT_EQ(6, k[i]->done_units);
	}
	EXPECT_EQ(1, T.g.pstats.ejections);
	EXPECT_EQ(VGPU_POLICY_EXIT_STALL, T.g.pstats.exit_reason);
	EXPECT_EQ(VGPU_POLICY_NUM_OPS, T.g.pstats.exit_op);
	EXPECT_EQ(VGPU_POLICY_STALL_BOUNDARIES * 64, T.g.pstats.exit_at);
	EXPECT_STREQ("t_wait", T.g.pstats.exit_name);
	EXPECT_TRUE(T.g.pstats.ejected);
	EXPECT_STREQ("rr", T.g.policy->name);
	EXPECT_STREQ("rr", T.g.p.policy);
	/* the host heard it once, at that boundary */
	EXPECT_EQ(1, exits.calls);
	EXPECT_EQ(&pol, exits.old);
	EXPECT_EQ(T.g.policy, exits.now);
	EXPECT_EQ(VGPU_POLICY_EXIT_STALL, exits.reason);
	EXPECT_EQ(T.g.pstats.exit_at, exits.at);
	/*
	 * nothing went out before; then the default's answer, SM 0, for
	 * whichever kernel F21 picks first
	 */
	for (ev = NULL, i = 0; i < T.nev && !ev; i++)
		if (T.ev[i].type == VGPU_GEV_DISPATCH)
			ev = &T.ev[i];
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(T.g.pstats.exit_at, ev->cycle);
	EXPECT_EQ(0, ev->sm);
	/* a WAIT is an answer, not an error */
	EXPECT_EQ(0, T.g.stats.policy_errors);
	/* set again, it starts afresh */
	ASSERT_EQ(0, vgpu_gpu_set_policy(&T.g, &T.pol, "t_wait"));
	EXPECT_FALSE(T.g.pstats.ejected);
	EXPECT_EQ(1, T.g.pstats.ejections);
	teardown(&pol);
}

static u32 liar_sm(const struct vgpu_policy_ctx *ctx,
		   const struct vgpu_policy_sm *c, u32 n)
{
	return n;
}

/*
 * An SM choice out of range at every decision, one block per decision:
 * each refused and replaced by round robin.  8 blocks fill the SMs at 0
 * (errors 1 to 8).  At 320 their first warps have ended: each SM takes
 * one block warp by warp (F23 (b)), whose warps then use up what it has
 * left, and at 384 one whole block (9 to 16); all are done by 704, where
 * the same starts again (17 to 24 at 704, 25 to 32 at 1,024 and 1,088).
 * The 32nd refusal in a row ejects the policy at the next boundary
 * (1,152); nothing is refused after.
 */
TEST(errors_in_a_row_eject)
{
	static const struct vgpu_policy_ops pol = {
		.name = "t_liar", .select_sm = liar_sm,
		.packing = VGPU_POLICY_PACK_BLOCK,
	};
	struct vgpu_gpu_kernel *k;

	ASSERT_EQ(0, setup(NULL, &pol));
	k = vgpu_tg_kernel(&T, 0, 0, 64, 1024, 0, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_TRUE(vgpu_tg_run(&T, 1000000));
	EXPECT_EQ(VGPU_KS_DONE, k->state);
	EXPECT_EQ(64, k->done_units);
	EXPECT_EQ(1, T.g.pstats.ejections);
	EXPECT_EQ(VGPU_POLICY_EXIT_ERRORS, T.g.pstats.exit_reason);
	EXPECT_EQ(VGPU_POLICY_OP_SELECT_SM, T.g.pstats.exit_op);
	EXPECT_EQ(1152, T.g.pstats.exit_at);
	EXPECT_EQ(32, T.g.pstats.errors[VGPU_POLICY_OP_SELECT_SM]);
	EXPECT_EQ(32, T.g.stats.policy_errors);
	EXPECT_EQ(1, exits.calls);
	EXPECT_EQ(VGPU_POLICY_EXIT_ERRORS, exits.reason);
	EXPECT_STREQ("select_sm", vgpu_policy_op_name(T.g.pstats.exit_op));
	EXPECT_STREQ("errors", vgpu_policy_exit_name(T.g.pstats.exit_reason));
	/* under the fallback: more work, no more errors */
	k = vgpu_tg_kernel(&T, 1, 0, 16, 1024, T.g.now, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_TRUE(vgpu_tg_run(&T, 2000000));
	EXPECT_EQ(VGPU_KS_DONE, k->state);
	EXPECT_EQ(32, T.g.stats.policy_errors);
	EXPECT_EQ(1, T.g.pstats.ejections);
	teardown(&pol);
}

/* Every other answer refused: never 32 in a row, never ejected. */
static u32 half_liar_sm(const struct vgpu_policy_ctx *ctx,
			const struct vgpu_policy_sm *c, u32 n)
{
	u64 *calls = vgpu_policy_state(ctx->gpu);

	return (*calls)++ % 2 ? n : 0;
}

TEST(errors_not_in_a_row_are_only_counted)
{
	static const struct vgpu_policy_ops pol = {
		.name = "t_half", .select_sm = half_liar_sm,
		.packing = VGPU_POLICY_PACK_BLOCK,
	};
	struct vgpu_gpu_kernel *k;

	ASSERT_EQ(0, setup(NULL, &pol));
	k = vgpu_tg_kernel(&T, 0, 0, 128, 1024, 0, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_TRUE(vgpu_tg_run(&T, 1000000));
	EXPECT_EQ(VGPU_KS_DONE, k->state);
	EXPECT_EQ(0, T.g.pstats.ejections);
	EXPECT_EQ(0, exits.calls);
	EXPECT_EQ(64, T.g.pstats.errors[VGPU_POLICY_OP_SELECT_SM]);
	EXPECT_STREQ("t_half", T.g.policy->name);
	teardown(&pol);
}

/* Yield every kernel at every boundary. */
static void yield_all_tick(struct vgpu_gpu *g)
{
	const struct vgpu_gpu_kernel *k;

	vgpu_policy_for_each_kernel(g, k)
		vgpu_policy_yield(g, k);
}

/*
 * A tick yielding every kernel at every boundary in switch mode, a
 * one-block kernel alone: without a minimum residency it would be saved
 * and restored forever.  It finishes; no restore happens at the boundary
 * of its yield, and every yield after the first comes at least
 * vgpu_policy_min_residency() (4 * 64 = 256) cycles after the restore.
 */
TEST(yield_every_boundary_cannot_livelock)
{
	static const struct vgpu_policy_ops pol = {
		.name = "t_yield", .tick = yield_all_tick,
	};
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *k;
	u64 alone, back = 0, out = ~0ULL;
	size_t i;
	u32 yields = 0;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_SWITCH);
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, VGPU_LONG);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_TRUE(vgpu_tg_run(&T, 10000000));
	alone = T.g.now;
	vgpu_tg_fini(&T);

	ASSERT_EQ(0, setup(&p, &pol));
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, VGPU_LONG);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_TRUE(vgpu_tg_run(&T, 100 * alone));
	EXPECT_EQ(VGPU_KS_DONE, k->state);
	EXPECT_LT(alone, T.g.now);
	EXPECT_EQ(256, vgpu_policy_min_residency(&T.g));
	for (i = 0; i < T.nev; i++) {
		const struct vgpu_event *ev = &T.ev[i];

		if (ev->kernel != k->args.id)
			continue;
		if (ev->type == VGPU_GEV_PREEMPT) {
			EXPECT_EQ(VGPU_EV_NONE, ev->arg0);
			if (yields++)
				EXPECT_LE(back + 256, ev->cycle);
			out = ev->cycle;
		} else if (ev->type == VGPU_GEV_DISPATCH) {
			/* restored at a later boundary than its yield */
			if (out != ~0ULL)
				EXPECT_LT(out, ev->cycle);
			back = ev->cycle;
		}
	}
	EXPECT_LT(1, yields);
	EXPECT_EQ(yields, T.g.pstats.yields);
	EXPECT_EQ(yields, T.g.pstats.preemptions);
	EXPECT_LT(0, T.g.pstats.yields_refused);
	EXPECT_EQ(T.g.pstats.yields_refused,
		  T.g.pstats.errors[VGPU_POLICY_OP_YIELD]);
	/* refused yields do no harm: they never eject */
	EXPECT_EQ(0, T.g.pstats.ejections);
	EXPECT_EQ(0, T.g.watch.err_row);
	teardown(&pol);
}

/*
 * A tick that takes every kernel's priority away, writing the core's
 * structure behind the view's back (no policy may).
 */
static void flatten_tick(struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *k;

	list_for_each_entry(k, &g->kernels, table_node)
		k->eff_prio = 0;
}

/*
 * eff_prio is the core's: the write is undone at once and counted as an
 * error of the tick, one per kernel and boundary.  The priority-0 kernel
 * still goes first; the 32nd write in a row ejects the policy.
 */
TEST(tick_writing_priorities_is_undone_and_ejected)
{
	static const struct vgpu_policy_ops pol = {
		.name = "t_flat", .tick = flatten_tick,
	};
	struct vgpu_gpu_kernel *lo, *hi;

	ASSERT_EQ(0, setup(NULL, &pol));
	lo = vgpu_tg_kernel(&T, 0, 3, 8, 1024, 0, VGPU_LONG);
	hi = vgpu_tg_kernel(&T, 1, 0, 8, 1024, 0, VGPU_LONG);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, lo));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, hi));
	vgpu_tg_step(&T);
	EXPECT_EQ(3, lo->eff_prio);
	EXPECT_EQ(0, hi->eff_prio);
	/* one write undone: hi's priority was 0 already */
	EXPECT_EQ(1, T.g.pstats.errors[VGPU_POLICY_OP_TICK]);
	/* path (a) in priority order: hi's blocks fill the SMs first */
	EXPECT_EQ(8, vgpu_tg_count(&T, VGPU_GEV_DISPATCH, hi->args.id));
	ASSERT_TRUE(vgpu_tg_run(&T, 10000000));
	EXPECT_EQ(VGPU_KS_DONE, lo->state);
	EXPECT_EQ(VGPU_KS_DONE, hi->state);
	EXPECT_EQ(1, T.g.pstats.ejections);
	EXPECT_EQ(VGPU_POLICY_EXIT_ERRORS, T.g.pstats.exit_reason);
	EXPECT_EQ(VGPU_POLICY_OP_TICK, T.g.pstats.exit_op);
	EXPECT_EQ(VGPU_POLICY_MAX_ERRORS_IN_ROW,
		  T.g.pstats.errors[VGPU_POLICY_OP_TICK]);
	teardown(&pol);
}

static bool always_before(const struct vgpu_gpu *g,
			  const struct vgpu_gpu_kernel *a,
			  const struct vgpu_gpu_kernel *b)
{
	return true;
}

/*
 * A comparator that is always true says a < b and b < a: each answer
 * checked is refused (the pair keeps its default order), counted under
 * its op, and 32 in a row eject the policy.  Every kernel completes.
 */
TEST(always_true_comparators_are_refused)
{
	static const struct vgpu_policy_ops sel = {
		.name = "t_sel", .select_before = always_before,
	};
	static const struct vgpu_policy_ops adm = {
		.name = "t_adm", .admit_before = always_before,
	};
	const struct vgpu_policy_ops *pol[2] = { &sel, &adm };
	u32 op[2] = { VGPU_POLICY_OP_SELECT_BEFORE,
		      VGPU_POLICY_OP_ADMIT_BEFORE };
	struct vgpu_gpu_kernel *k[16];
	u32 r, i;

	for (r = 0; r < 2; r++) {
		ASSERT_EQ(0, setup(NULL, pol[r]));
		for (i = 0; i < 16; i++) {
			k[i] = vgpu_tg_kernel(&T, i % 8, i % 4, 4, 1024,
					      0, VGPU_SHORT);
			ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k[i]));
		}
		ASSERT_TRUE(vgpu_tg_run(&T, 10000000));
		for (i = 0; i < 16; i++)
			EXPECT_EQ(VGPU_KS_DONE, k[i]->state);
		EXPECT_LT(0, T.g.pstats.errors[op[r]]);
		EXPECT_EQ(T.g.stats.policy_errors, T.g.pstats.errors[op[r]]);
		if (T.g.pstats.errors[op[r]] >= VGPU_POLICY_MAX_ERRORS_IN_ROW) {
			EXPECT_EQ(1, T.g.pstats.ejections);
			EXPECT_EQ(op[r], T.g.pstats.exit_op);
		}
		teardown(pol[r]);
	}
}

/* A consistent comparator is never refused: a fifo by id. */
static bool fifo_before(const struct vgpu_gpu *g,
			const struct vgpu_gpu_kernel *a,
			const struct vgpu_gpu_kernel *b)
{
	return vgpu_policy_kernel_id(a) < vgpu_policy_kernel_id(b);
}

TEST(consistent_comparators_pass)
{
	static const struct vgpu_policy_ops pol = {
		.name = "t_fifo", .select_before = fifo_before,
		.admit_before = fifo_before,
	};
	struct vgpu_gpu_kernel *k[16];
	u32 i;

	ASSERT_EQ(0, setup(NULL, &pol));
	for (i = 0; i < 16; i++) {
		k[i] = vgpu_tg_kernel(&T, i % 8, i % 4, 4, 1024, 0,
				      VGPU_SHORT);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k[i]));
	}
	ASSERT_TRUE(vgpu_tg_run(&T, 10000000));
	EXPECT_EQ(0, T.g.stats.policy_errors);
	EXPECT_EQ(0, T.g.pstats.ejections);
	/* the answers were checked (a bounded number of them) */
	EXPECT_GT(VGPU_POLICY_ORDER_CHECKS, T.g.watch.order_checks);
	teardown(&pol);
}

static bool always_evict(const struct vgpu_gpu *g,
			 const struct vgpu_gpu_kernel *w,
			 const struct vgpu_gpu_kernel *victim)
{
	return true;
}

/*
 * A task table of 2 slots, 4 kernels on 4 channels: a may_evict that
 * always says yes would let two kernels evict each other in turn.  Such an
 * answer is refused (no eviction) and counted; every kernel completes.
 */
TEST(always_evict_is_refused)
{
	static const struct vgpu_policy_ops pol = {
		.name = "t_evict", .may_evict = always_evict,
	};
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *k[4];
	u32 i;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.task_slots = 2;
	ASSERT_EQ(0, setup(&p, &pol));
	for (i = 0; i < 4; i++) {
		k[i] = vgpu_tg_kernel(&T, i, 0, 8, 1024, 0, VGPU_SHORT);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k[i]));
	}
	ASSERT_TRUE(vgpu_tg_run(&T, 10000000));
	for (i = 0; i < 4; i++)
		EXPECT_EQ(VGPU_KS_DONE, k[i]->state);
	EXPECT_LT(0, T.g.pstats.errors[VGPU_POLICY_OP_MAY_EVICT]);
	EXPECT_EQ(0, T.g.stats.evictions);
	teardown(&pol);
}

/* SM 0 only, else WAIT: a policy that confines every kernel to SM 0. */
static u32 sm0_only(const struct vgpu_policy_ctx *ctx,
		    const struct vgpu_policy_sm *c, u32 n)
{
	return c[0].sm == 0 ? 0 : VGPU_POLICY_WAIT;
}

/*
 * Confinement is no stall: while SM 0 runs a long block the others wait
 * far longer than VGPU_POLICY_STALL_BOUNDARIES boundaries, yet something
 * runs, and SM 0 takes the next block as soon as it is free.  Never
 * ejected; every block ran on SM 0.
 */
TEST(confining_to_busy_sms_is_not_a_stall)
{
	static const struct vgpu_policy_ops pol = {
		.name = "t_sm0", .select_sm = sm0_only,
		.packing = VGPU_POLICY_PACK_BLOCK,
	};
	struct vgpu_gpu_kernel *k;
	u32 i;

	ASSERT_EQ(0, setup(NULL, &pol));
	k = vgpu_tg_kernel(&T, 0, 0, 6, 1024, 0, VGPU_LONG);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000000));
	EXPECT_EQ(VGPU_KS_DONE, k->state);
	for (i = 0; i < 6; i++)
		EXPECT_EQ(0, vgpu_tg_find(&T, VGPU_GEV_DISPATCH, k->args.id, i)->sm);
	/* two blocks fill SM 0: the third waited for one of them */
	EXPECT_LT(VGPU_POLICY_STALL_BOUNDARIES * 64,
		  vgpu_tg_find(&T, VGPU_GEV_DISPATCH, k->args.id, 2)->cycle);
	EXPECT_EQ(0, T.g.pstats.ejections);
	EXPECT_EQ(0, exits.calls);
	teardown(&pol);
}

/*
 * Waiting for a reason of the device's own is no stall either: the gate
 * held closed for 4 * VGPU_POLICY_STALL_BOUNDARIES boundaries under the
 * WAIT policy does not count (the policy is never asked); opened, the
 * policy stalls and is ejected as in the first test.
 */
TEST(a_closed_gate_is_not_the_policys_stall)
{
	static const struct vgpu_policy_ops pol = {
		.name = "t_wait2", .select_sm = wait_sm,
	};
	struct vgpu_gpu_kernel *k;
	u32 i;

	ASSERT_EQ(0, setup(NULL, &pol));
	T.g.gated = true;
	k = vgpu_tg_kernel(&T, 0, 0, 2, 1024, 0, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	for (i = 0; i < 4 * VGPU_POLICY_STALL_BOUNDARIES; i++)
		vgpu_tg_step(&T);
	EXPECT_EQ(0, T.g.pstats.ejections);
	EXPECT_EQ(0, T.g.watch.stall);
	T.g.gated = false;
	ASSERT_TRUE(vgpu_tg_run(&T, 1000000));
	EXPECT_EQ(VGPU_KS_DONE, k->state);
	EXPECT_EQ(1, T.g.pstats.ejections);
	EXPECT_EQ(VGPU_POLICY_EXIT_STALL, T.g.pstats.exit_reason);
	teardown(&pol);
}

/* The default policy and the built-ins never err and are never ejected. */
TEST(builtins_are_never_ejected)
{
	static const char *const names[] = {
		"rr", "avail", "resource", "power", "combined",
	};
	struct vgpu_gpu_kernel *k[8];
	u32 n, i;

	for (n = 0; n < ARRAY_SIZE(names); n++) {
		memset(&exits, 0, sizeof(exits));
		ASSERT_EQ(0, vgpu_tg_init_host(&T, NULL, NULL, &host_ops, &T));
		ASSERT_EQ(0, vgpu_gpu_set_policy(&T.g, &T.pol, names[n]));
		for (i = 0; i < 8; i++) {
			k[i] = vgpu_tg_kernel(&T, i, i % 4, 6, 512, 100 * i,
					      VGPU_SHORT);
			ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k[i]));
		}
		ASSERT_TRUE(vgpu_tg_run(&T, 10000000));
		EXPECT_EQ(0, T.g.pstats.ejections);
		EXPECT_EQ(0, T.g.stats.policy_errors);
		EXPECT_EQ(0, exits.calls);
		EXPECT_STREQ(names[n], T.g.policy->name);
		vgpu_tg_fini(&T);
	}
}

/* Ejection asked for the fallback itself is dropped: it stays. */
TEST(the_fallback_is_never_ejected)
{
	memset(&exits, 0, sizeof(exits));
	ASSERT_EQ(0, vgpu_tg_init_host(&T, NULL, NULL, &host_ops, &T));
	T.g.watch.eject = VGPU_POLICY_EXIT_ERRORS;
	vgpu_tg_step(&T);
	EXPECT_EQ(0, T.g.watch.eject);
	EXPECT_EQ(0, T.g.pstats.ejections);
	EXPECT_EQ(0, exits.calls);
	EXPECT_STREQ("rr", T.g.policy->name);
	vgpu_tg_fini(&T);
}

VGPU_TEST_SUITE(policy_eject,
	VGPU_CASE(wait_forever_is_ejected_for_stalling)
	VGPU_CASE(errors_in_a_row_eject)
	VGPU_CASE(errors_not_in_a_row_are_only_counted)
	VGPU_CASE(yield_every_boundary_cannot_livelock)
	VGPU_CASE(tick_writing_priorities_is_undone_and_ejected)
	VGPU_CASE(always_true_comparators_are_refused)
	VGPU_CASE(consistent_comparators_pass)
	VGPU_CASE(always_evict_is_refused)
	VGPU_CASE(confining_to_busy_sms_is_not_a_stall)
	VGPU_CASE(a_closed_gate_is_not_the_policys_stall)
	VGPU_CASE(builtins_are_never_ejected)
	VGPU_CASE(the_fallback_is_never_ejected))
