// SPDX-License-Identifier: GPL-2.0
/*
 * What a policy may ask of the core (policy_default.c, DOC "policy
 * expressiveness"): preemption of equal priorities by its @preempt answer
 * and by vgpu_policy_preempt_kernel() in every preemption mode, with the
 * minimum residency that keeps two policies' kernels from preempting each
 * other in a loop; dynamic priority; the GPU time the core keeps; the
 * notifications.  Outcomes are worked out by hand on the "small" preset
 * (4 SMs of 2,048 threads and 64 K registers, epoch 64, switch cost 64:
 * minimum residency max(4 x 64, 64) = 256 cycles).  A block of 1,024
 * threads of 64 registers fills an SM's registers (kernel_full()).
 */
#include <string.h>
#ifndef __KERNEL__
#include <dlfcn.h>
#endif

#include "vgpu_test.h"
#include "vgpu_test_gpu.h"
#include "gpu_internal.h"

static struct vgpu_tg T;

#define VGPU_SHORT	"LOOP 10\nALU\nENDLOOP\nEXIT\n"
#define VGPU_LONG	"LOOP 2000\nALU\nENDLOOP\nEXIT\n"
#define VGPU_SHORT_BAR	"LOOP 10\nALU\nENDLOOP\nBAR\nEXIT\n"
#define VGPU_HOG	"LOOP 500\nALU\nENDLOOP\nEXIT\n"
#define VGPU_SLICE	"LOOP 200\nALU\nENDLOOP\nBAR\nEXIT\n"

/* What the notifications said. */
static struct {
	u32 arrived;
	u32 preempted[2];	/* by VGPU_POLICY_BY_PRIO, _BY_POLICY */
	u32 resumed;
	u32 preempt_calls;
	u32 bad;		/* a helper's answer was not the expected */
} seen;

static void note_arrived(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	seen.arrived++;
}

static void note_preempted(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			   u32 sm, u32 by)
{
	if (by <= VGPU_POLICY_BY_POLICY)
		seen.preempted[by]++;
}

static void note_resumed(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			 u32 sm)
{
	seen.resumed++;
}

/* @preempt: SM 0 for kernel 1 (B), the seeds' answer for the others. */
static u32 sm0_for_b(const struct vgpu_gpu *g,
		     const struct vgpu_gpu_kernel *k)
{
	return k->args.id == 1 ? 0 : vgpu_policy_default_preempt(g, k);
}

/* @preempt: SM 0, whatever runs there. */
static u32 sm0(const struct vgpu_gpu *g, const struct vgpu_gpu_kernel *k)
{
	seen.preempt_calls++;
	return 0;
}

static int setup(u32 mode, const struct vgpu_policy_ops *pol)
{
	struct vgpu_gpu_params p;
	int ret;

	memset(&seen, 0, sizeof(seen));
	vgpu_tg_params_small(&p, mode);
	ret = vgpu_tg_init(&T, NULL, &p);
	return ret || !pol ? ret : vgpu_tg_use_policy(&T, pol);
}

static void teardown(const struct vgpu_policy_ops *pol)
{
	if (pol)
		vgpu_tg_unregister_policy(&T, pol);
	vgpu_tg_fini(&T);
}

/* A kernel whose block fills an SM's 64 K registers. */
static struct vgpu_gpu_kernel *kernel_full(u32 ch, u32 prio, u32 grid,
					   u64 arrival, const char *src)
{
	struct vgpu_gpu_kernel *k = vgpu_tg_kernel(&T, ch, prio, grid, 1024,
						   arrival, src);

	k->args.regs = 64;
	return k;
}

/* Cycle of the @nth DISPATCH of @k, ~0 if none. */
static u64 dispatch_at(const struct vgpu_gpu_kernel *k, u32 nth)
{
	const struct vgpu_event *ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH,
						   k->args.id, nth);

	return ev ? ev->cycle : ~0ULL;
}

/*
 * Door (a), switch mode: A (priority 1) fills the 4 SMs with one long
 * block each at cycle 0; B, of the same priority on another channel,
 * arrives at 128 with one block.  The seeds never preempt an equal
 * priority: B waits for a block of A to end (after 2,000 cycles).  A
 * policy whose @preempt answers SM 0 gets B there at 128: A's block is
 * switched out (PREEMPT by B), and comes back once B is done.
 */
TEST(preempt_answer_of_equal_priority_switches_out)
{
	static const struct vgpu_policy_ops pol = {
		.name = "t_sm0b", .preempt = sm0_for_b, .arrived = note_arrived,
		.preempted = note_preempted, .resumed = note_resumed,
	};
	struct vgpu_gpu_kernel *a, *b;
	const struct vgpu_event *ev;
	int round;

	for (round = 0; round < 2; round++) {
		ASSERT_EQ(0, setup(VGPU_PREEMPT_SWITCH, round ? &pol : NULL));
		a = kernel_full(0, 1, 4, 0, VGPU_LONG);
		b = kernel_full(1, 1, 1, 128, VGPU_SHORT);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
		ASSERT_TRUE(vgpu_tg_run(&T, 10000000));
		ASSERT_EQ(VGPU_KS_DONE, a->state);
		ASSERT_EQ(VGPU_KS_DONE, b->state);
		if (!round) {
			EXPECT_LE(2000, dispatch_at(b, 0));
			EXPECT_EQ(0, T.g.stats.preemptions);
			teardown(NULL);
			continue;
		}
		EXPECT_EQ(128, dispatch_at(b, 0));
		ev = vgpu_tg_find(&T, VGPU_GEV_PREEMPT, a->args.id, 0);
		ASSERT_NE(NULL, ev);
		EXPECT_EQ(128, ev->cycle);
		EXPECT_EQ(0, ev->sm);
		EXPECT_EQ(b->args.id, ev->arg0);
		EXPECT_EQ(1, vgpu_tg_count(&T, VGPU_GEV_PREEMPT, a->args.id));
		EXPECT_EQ(1, T.g.pstats.preemptions);
		EXPECT_EQ(1, seen.preempted[VGPU_POLICY_BY_POLICY]);
		EXPECT_EQ(0, seen.preempted[VGPU_POLICY_BY_PRIO]);
		EXPECT_EQ(1, seen.resumed);
		EXPECT_EQ(vgpu_tg_count(&T, VGPU_GEV_ADMIT, a->args.id) +
			  vgpu_tg_count(&T, VGPU_GEV_ADMIT, b->args.id),
			  seen.arrived);
		EXPECT_EQ(0, T.g.stats.policy_errors);
		teardown(&pol);
	}
}

/*
 * Door (a), warp mode: the same, B's block goes to SM 0 at 128 by path
 * (c) in warp mode over A's block of equal priority; the seeds place it
 * only after A's block there ended.
 */
TEST(preempt_answer_of_equal_priority_in_warp_mode)
{
	static const struct vgpu_policy_ops pol = {
		.name = "t_sm0b", .preempt = sm0_for_b,
		.preempted = note_preempted,
	};
	struct vgpu_gpu_kernel *a, *b;
	const struct vgpu_event *ev;
	int round;

	for (round = 0; round < 2; round++) {
		ASSERT_EQ(0, setup(VGPU_PREEMPT_WARP, round ? &pol : NULL));
		a = kernel_full(0, 1, 4, 0, VGPU_LONG);
		b = vgpu_tg_kernel(&T, 1, 1, 1, 1024, 128, VGPU_SHORT);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
		ASSERT_TRUE(vgpu_tg_run(&T, 10000000));
		ASSERT_EQ(VGPU_KS_DONE, b->state);
		ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, b->args.id, 0);
		ASSERT_NE(NULL, ev);
		if (!round) {
			EXPECT_LE(2000, ev->cycle);
			teardown(NULL);
			continue;
		}
		EXPECT_EQ(128, ev->cycle);
		EXPECT_EQ(0, ev->sm);
		EXPECT_EQ(VGPU_PATH_PREEMPT, ev->arg0);
		EXPECT_EQ(1, T.g.pstats.preemptions);
		EXPECT_EQ(1, seen.preempted[VGPU_POLICY_BY_POLICY]);
		EXPECT_EQ(0, T.g.stats.policy_errors);
		teardown(&pol);
	}
}

/*
 * Two kernels of one priority, each a block filling an SM on a one-SM
 * device... the small preset has 4 SMs, so four blocks each: a policy
 * answering SM 0 for everyone makes A and B take SM 0 from each other.
 * Each turn must last the minimum residency: the answers before it are
 * refused (counted under preempt, not towards an ejection), so the
 * policy is never ejected, both complete, and SM 0 changes hands at most
 * once per 256 - 64 cycles of a turn.
 */
TEST(equal_priority_ping_pong_is_bounded)
{
	static const struct vgpu_policy_ops pol = {
		.name = "t_sm0", .preempt = sm0,
	};
	struct vgpu_gpu_kernel *a, *b;
	u64 end;

	ASSERT_EQ(0, setup(VGPU_PREEMPT_SWITCH, &pol));
	a = kernel_full(0, 1, 5, 0, VGPU_LONG);
	b = kernel_full(1, 1, 5, 0, VGPU_LONG);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000000));
	ASSERT_EQ(VGPU_KS_DONE, a->state);
	ASSERT_EQ(VGPU_KS_DONE, b->state);
	end = max(a->t.end, b->t.end);
	EXPECT_LT(0, T.g.pstats.preemptions);
	EXPECT_GE(end / (256 - 64) + 1, T.g.pstats.preemptions);
	EXPECT_LT(0, T.g.pstats.errors[VGPU_POLICY_OP_PREEMPT]);
	EXPECT_EQ(0, T.g.pstats.ejections);
	TH_LOG("%llu preemptions, %llu refused, done at %llu",
	       (unsigned long long)T.g.pstats.preemptions,
	       (unsigned long long)T.g.pstats.errors[VGPU_POLICY_OP_PREEMPT],
	       (unsigned long long)end);
	teardown(&pol);
}

/* The kernel the tick preempts: the first one, once B has arrived. */
static void tick_preempt_a(struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *k, *a = NULL;
	bool b = false;

	list_for_each_entry(k, &g->kernels, table_node) {
		if (k->args.id == 0)
			a = k;
		else if (k->args.arrival <= g->now)
			b = true;
	}
	if (a && b && a->inflight)
		vgpu_policy_preempt_kernel(g, a);
}

/* Kernels in id order: A's waiting blocks before B. */
static bool by_id(const struct vgpu_gpu *g, const struct vgpu_gpu_kernel *a,
		  const struct vgpu_gpu_kernel *b)
{
	return a->args.id < b->args.id;
}

/*
 * Door (b), every mode: A (priority 1, 8 blocks of a full SM, 32,000
 * cycles each: 4 run, 4 wait) and B (priority 1, another channel, 1
 * block) at 128, offered decisions in id order.  Without a preemption
 * B waits for the first wave's end, 32,000 (beside A's next block by
 * path (b), or for the second wave's end, 64,000, if it uses BAR as in
 * drain mode).  The tick asks for A's SMs from 128 on:
 *
 * - switch: A's 4 blocks are switched out at 128 and B runs at once;
 * - warp: A keeps its SMs, B's block goes over one of them by path (c)
 *   in warp mode at 128;
 * - drain: A is held; the hold ends when the SMs free up at 32,000 and
 *   A's blocks take them (B, whole, waits for the second wave as
 *   without the hold: it does not take A's place there).
 */
TEST(preempt_kernel_in_every_mode)
{
	static const struct vgpu_policy_ops order = {
		.name = "t_by_id", .select_before = by_id,
	};
	static const struct vgpu_policy_ops pol = {
		.name = "t_preempt_a", .tick = tick_preempt_a,
		.select_before = by_id, .preempted = note_preempted,
	};
	static const u32 modes[] = {
		VGPU_PREEMPT_SWITCH, VGPU_PREEMPT_WARP, VGPU_PREEMPT_DRAIN,
	};
	struct vgpu_gpu_kernel *a, *b;
	const struct vgpu_event *ev;
	u64 seeds_b = 0, at;
	u32 i;
	int round;

	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		for (round = 0; round < 2; round++) {
			ASSERT_EQ(0, setup(modes[i], round ? &pol : &order));
			a = kernel_full(0, 1, 8, 0, VGPU_LONG);
			/* in drain mode whole: not beside A by path (b) */
			b = kernel_full(1, 1, 1, 128,
					modes[i] == VGPU_PREEMPT_DRAIN ?
					VGPU_SHORT_BAR : VGPU_SHORT);
			ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
			ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
			ASSERT_TRUE(vgpu_tg_run(&T, 100000000));
			ASSERT_EQ(VGPU_KS_DONE, a->state);
			ASSERT_EQ(VGPU_KS_DONE, b->state);
			at = dispatch_at(b, 0);
			if (!round) {
				seeds_b = at;
				if (modes[i] == VGPU_PREEMPT_DRAIN)
					EXPECT_LE(64000, at);
				EXPECT_EQ(32000, dispatch_at(a, 4));
				teardown(&order);
				continue;
			}
			TH_LOG("mode %u: B dispatched at %llu (without the preemption %llu)",
			       modes[i], (unsigned long long)at,
			       (unsigned long long)seeds_b);
			EXPECT_EQ(0, T.g.pstats.ejections);
			if (modes[i] == VGPU_PREEMPT_SWITCH) {
				EXPECT_EQ(128, at);
				EXPECT_EQ(4, vgpu_tg_count(&T,
							   VGPU_GEV_PREEMPT,
							   a->args.id));
				EXPECT_LE(4, T.g.pstats.preemptions);
			} else if (modes[i] == VGPU_PREEMPT_WARP) {
				EXPECT_EQ(128, at);
				ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH,
						  b->args.id, 0);
				EXPECT_EQ(VGPU_PATH_PREEMPT, ev->arg0);
				EXPECT_LE(1, T.g.pstats.holds);
			} else {
				/* held, and released: nothing idles */
				EXPECT_LE(1, T.g.pstats.holds);
				EXPECT_GT(64000 + 1000, dispatch_at(a, 7));
			}
			teardown(&pol);
		}
	}
}

/* Tick: B (kernel 1) up to priority 0 once it arrived; 99 is refused. */
static void tick_raise_b(struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *k;

	list_for_each_entry(k, &g->kernels, table_node) {
		if (k->args.id != 1 || k->args.arrival > g->now)
			continue;
		seen.bad += vgpu_policy_set_prio(g, k, 99) != -EINVAL;
		seen.bad += vgpu_policy_set_prio(g, k, 0) != 0;
	}
}

/*
 * Dynamic priority: A (priority 2) fills the SMs; B arrives at 128 at
 * priority 3.  Raised to 0 by the tick, B preempts A by the seeds' path
 * (c) in warp mode; an out-of-range priority is refused and counted.
 * Without the policy B waits for A.
 */
TEST(set_prio_is_honoured_by_path_c)
{
	static const struct vgpu_policy_ops pol = {
		.name = "t_raise", .tick = tick_raise_b,
	};
	struct vgpu_gpu_kernel *a, *b;
	int round;

	for (round = 0; round < 2; round++) {
		ASSERT_EQ(0, setup(VGPU_PREEMPT_WARP, round ? &pol : NULL));
		a = kernel_full(0, 2, 4, 0, VGPU_LONG);
		b = vgpu_tg_kernel(&T, 1, 3, 1, 1024, 128, VGPU_SHORT);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
		ASSERT_TRUE(vgpu_tg_run(&T, 10000000));
		ASSERT_EQ(VGPU_KS_DONE, b->state);
		if (!round) {
			EXPECT_LE(2000, dispatch_at(b, 0));
			teardown(NULL);
			continue;
		}
		EXPECT_EQ(128, dispatch_at(b, 0));
		EXPECT_EQ(0, seen.bad);
		EXPECT_EQ(0, b->eff_prio);
		EXPECT_LE(1, T.g.pstats.prio_sets);
		EXPECT_LE(1, T.g.pstats.errors[VGPU_POLICY_OP_SET_PRIO]);
		EXPECT_EQ(0, T.g.pstats.ejections);
		teardown(&pol);
	}
}

/* Tick: A (kernel 0, resident) down to priority 3 at 128. */
static void tick_lower_a(struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *k;

	if (g->now != 128)
		return;
	list_for_each_entry(k, &g->kernels, table_node)
		if (k->args.id == 0)
			seen.bad += vgpu_policy_set_prio(g, k, 3) != 0;
}

/*
 * A resident kernel's new priority re-ranks its SMs: A (priority 1)
 * fills the SMs, B (priority 2) arrives at 128.  Lowered to 3 at 128,
 * A's blocks hold the SMs at 3 and B preempts one of them by the seeds'
 * path (c); at 1 it could not.
 */
TEST(set_prio_re_ranks_resident_blocks)
{
	static const struct vgpu_policy_ops pol = {
		.name = "t_lower", .tick = tick_lower_a,
	};
	struct vgpu_gpu_kernel *a, *b;
	int round;

	for (round = 0; round < 2; round++) {
		ASSERT_EQ(0, setup(VGPU_PREEMPT_SWITCH, round ? &pol : NULL));
		a = kernel_full(0, 1, 4, 0, VGPU_LONG);
		b = kernel_full(1, 2, 1, 128, VGPU_SHORT);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
		ASSERT_TRUE(vgpu_tg_run(&T, 10000000));
		ASSERT_EQ(VGPU_KS_DONE, a->state);
		ASSERT_EQ(VGPU_KS_DONE, b->state);
		if (!round) {
			EXPECT_LE(2000, dispatch_at(b, 0));
			teardown(NULL);
			continue;
		}
		EXPECT_EQ(128, dispatch_at(b, 0));
		EXPECT_EQ(1, vgpu_tg_count(&T, VGPU_GEV_PREEMPT, a->args.id));
		EXPECT_EQ(0, seen.bad);
		EXPECT_EQ(0, T.g.stats.policy_errors);
		teardown(&pol);
	}
}

/* Out of the tick, the helpers refuse (counted). */
static u32 pack_helpers(const struct vgpu_gpu *g,
			const struct vgpu_gpu_kernel *k, u32 want)
{
	seen.bad += vgpu_policy_set_prio(g, k, 0) != -EINVAL;
	seen.bad += vgpu_policy_preempt_kernel(g, k) != -EINVAL;
	return want;
}

TEST(helpers_outside_tick_are_refused)
{
	static const struct vgpu_policy_ops pol = {
		.name = "t_pack", .pack = pack_helpers,
	};
	struct vgpu_gpu_kernel *a;

	ASSERT_EQ(0, setup(VGPU_PREEMPT_WARP, &pol));
	T.g.p.pack = VGPU_PACK_SM;
	a = vgpu_tg_kernel(&T, 0, 1, 4, 1024, 0, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
	ASSERT_TRUE(vgpu_tg_run(&T, 10000000));
	ASSERT_EQ(VGPU_KS_DONE, a->state);
	EXPECT_EQ(0, seen.bad);
	EXPECT_LE(1, T.g.pstats.errors[VGPU_POLICY_OP_SET_PRIO]);
	EXPECT_LE(1, T.g.pstats.errors[VGPU_POLICY_OP_YIELD]);
	EXPECT_EQ(1, a->eff_prio);
	teardown(&pol);
}

/*
 * GPU time: a kernel's is the sum over its blocks of warps x cycles from
 * the boundary each went to an SM to the cycle it completed, as the
 * events tell; its channel's is the sum of its kernels'.
 */
TEST(gpu_time_is_warps_times_residency)
{
	struct vgpu_gpu_kernel *a, *b;
	const struct vgpu_event *d, *e;
	u64 want_a = 0, want_b = 0;
	u32 i;

	ASSERT_EQ(0, setup(VGPU_PREEMPT_SWITCH, NULL));
	a = vgpu_tg_kernel(&T, 0, 1, 6, 1024, 0, VGPU_SHORT);
	b = vgpu_tg_kernel(&T, 0, 1, 3, 512, 100, VGPU_LONG);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
	ASSERT_TRUE(vgpu_tg_run(&T, 10000000));
	for (i = 0; i < 6; i++) {
		d = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, a->args.id, i);
		e = vgpu_tg_find(&T, VGPU_EV_BLOCK_DONE, a->args.id, i);
		ASSERT_NE(NULL, d);
		ASSERT_NE(NULL, e);
		want_a += 32 * (e->cycle - d->cycle);
	}
	for (i = 0; i < 3; i++) {
		d = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, b->args.id, i);
		e = vgpu_tg_find(&T, VGPU_EV_BLOCK_DONE, b->args.id, i);
		ASSERT_NE(NULL, d);
		ASSERT_NE(NULL, e);
		want_b += 16 * (e->cycle - d->cycle);
	}
	EXPECT_EQ(want_a, vgpu_policy_kernel_gpu_time(&T.g, a));
	EXPECT_EQ(want_b, vgpu_policy_kernel_gpu_time(&T.g, b));
	EXPECT_EQ(want_a + want_b, vgpu_policy_channel_gpu_time(&T.g, 0));
	EXPECT_EQ(0, vgpu_policy_channel_gpu_time(&T.g, 1));
	/* the tenant left with its last kernel */
	EXPECT_EQ(0, vgpu_policy_tenant_gpu_time(&T.g, 0));
	teardown(NULL);
}

#ifndef __KERNEL__
/* A shipped policy, built as build/policies/NAME.so (make policies). */
static const struct vgpu_policy_ops *so_policy(const char *name)
{
	const struct vgpu_policy_ops **ops;
	char path[64];
	void *h;

	snprintf(path, sizeof(path), "build/policies/%s.so", name);
	h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
	if (!h) {
		fprintf(stderr, "# %s\n", dlerror());
		return NULL;
	}
	ops = dlsym(h, "vgpu_policy_ops");
	return ops ? *ops : NULL;
}

#define HOG_KERNELS	2
#define LIGHT_KERNELS	8

/*
 * The light channel's mean turnaround (completion - arrival) beside a
 * hog, in mode @mode under @pol: channel 0 submits HOG_KERNELS kernels
 * of 16 blocks at cycle 0 (1,024 threads of 32 registers: two blocks an
 * SM, 8,000 cycles a wave), channel 1 a one-block kernel every 2,000
 * cycles from 500; all of priority 1, one tenant.
 */
static u64 light_mean(u32 mode, const struct vgpu_policy_ops *pol,
		      u64 *preemptions)
{
	struct vgpu_gpu_kernel *light[LIGHT_KERNELS];
	u64 sum = 0;
	u32 i;

	if (setup(mode, pol))
		return 0;
	for (i = 0; i < HOG_KERNELS; i++)
		if (vgpu_gpu_submit(&T.g, vgpu_tg_kernel(&T, 0, 1, 16, 1024, 0,
							 VGPU_HOG)))
			return 0;
	for (i = 0; i < LIGHT_KERNELS; i++) {
		light[i] = vgpu_tg_kernel(&T, 1, 1, 1, 1024, 500 + 2000 * i,
					  VGPU_SHORT);
		if (vgpu_gpu_submit(&T.g, light[i]))
			return 0;
	}
	if (!vgpu_tg_run(&T, 100000000))
		return 0;
	for (i = 0; i < LIGHT_KERNELS; i++) {
		if (light[i]->state != VGPU_KS_DONE)
			return 0;
		sum += light[i]->t.end - light[i]->args.arrival;
	}
	*preemptions = T.g.pstats.preemptions;
	if (T.g.pstats.ejections)
		return 0;
	teardown(pol);
	return sum / LIGHT_KERNELS;
}

/*
 * fair preempts an equal-priority hog: the light channel's kernels get a
 * mean turnaround at least 2.5 times better than under fifo (which
 * serves them after the hog's blocks submitted before them), in warp and
 * in switch mode; drain mode's figure (no preemption: the light kernels
 * wait for a hog block to end) is printed.
 */
TEST(fair_preempts_an_equal_priority_hog)
{
	static const u32 modes[] = {
		VGPU_PREEMPT_WARP, VGPU_PREEMPT_SWITCH, VGPU_PREEMPT_DRAIN,
	};
	static const char *const names[] = { "drain", "warp", "switch" };
	const struct vgpu_policy_ops *fair = so_policy("fair");
	const struct vgpu_policy_ops *fifo = so_policy("fifo");
	u64 mf, mq, pf, pq;
	u32 i;

	ASSERT_NE(NULL, fair);
	ASSERT_NE(NULL, fifo);
	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		mq = light_mean(modes[i], fifo, &pq);
		mf = light_mean(modes[i], fair, &pf);
		ASSERT_LT(0, mq);
		ASSERT_LT(0, mf);
		TH_LOG("%s mode: light channel's mean turnaround %llu (fifo) / %llu (fair) = %.2fx, fair preempted %llu blocks",
		       names[modes[i]], (unsigned long long)mq,
		       (unsigned long long)mf, (double)mq / mf,
		       (unsigned long long)pf);
		if (modes[i] != VGPU_PREEMPT_DRAIN) {
			EXPECT_LE(25 * mf, 10 * mq);
			EXPECT_LT(0, pf);
		}
		EXPECT_EQ(0, pq);
	}
}

/*
 * timeslice in every mode: channels 0 and 1, one kernel each of 40 blocks
 * filling an SM (about 3,200 cycles each; BAR, so never partly resident:
 * no block goes beside another by path (b)), at priority 1 from cycle 0.
 * The first slice is channel 0's: only its blocks are placed before
 * 10,000.  When it expires (the boundary 10,048) channel 1 owns the device
 * and channel 0's kernel is preempted: in switch mode its blocks are
 * switched out and channel 1's placed at that boundary; in drain mode,
 * and in warp mode (a BAR block is never placed over another, F23),
 * channel 0's kernel is held and channel 1's blocks take the SMs as
 * channel 0's blocks end, within one block's time.
 */
TEST(timeslice_changes_owner_in_every_mode)
{
	static const u32 modes[] = {
		VGPU_PREEMPT_DRAIN, VGPU_PREEMPT_WARP, VGPU_PREEMPT_SWITCH,
	};
	const struct vgpu_policy_ops *ts = so_policy("timeslice");
	struct vgpu_gpu_kernel *a, *b;
	u64 first_b, slice = 10000;
	u32 i, j, n;

	ASSERT_NE(NULL, ts);
	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		ASSERT_EQ(0, setup(modes[i], ts));
		a = kernel_full(0, 1, 40, 0, VGPU_SLICE);
		b = kernel_full(1, 1, 40, 0, VGPU_SLICE);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
		ASSERT_TRUE(vgpu_tg_run(&T, 100000000));
		ASSERT_EQ(VGPU_KS_DONE, a->state);
		ASSERT_EQ(VGPU_KS_DONE, b->state);
		first_b = dispatch_at(b, 0);
		n = vgpu_tg_count(&T, VGPU_GEV_DISPATCH, a->args.id);
		for (j = 0; j < n; j++)
			if (dispatch_at(a, j) >= slice)
				break;
		TH_LOG("mode %u: channel 1's first block at %llu, channel 0 had %u dispatches before %llu, %llu preemptions, %llu holds",
		       modes[i], (unsigned long long)first_b, j,
		       (unsigned long long)slice,
		       (unsigned long long)T.g.pstats.preemptions,
		       (unsigned long long)T.g.pstats.holds);
		EXPECT_LE(slice, first_b);
		EXPECT_LT(0, j);
		if (modes[i] != VGPU_PREEMPT_SWITCH) {
			EXPECT_GT(slice + 2 * 3200, first_b);
			EXPECT_LE(1, T.g.pstats.holds);
		} else {
			EXPECT_GT(slice + 64, first_b);
			EXPECT_LT(0, T.g.pstats.preemptions);
		}
		EXPECT_EQ(0, T.g.pstats.ejections);
		teardown(ts);
	}
}
#endif /* !__KERNEL__ */

VGPU_TEST_SUITE(policy_preempt,
	VGPU_CASE(preempt_answer_of_equal_priority_switches_out)
	VGPU_CASE(preempt_answer_of_equal_priority_in_warp_mode)
	VGPU_CASE(equal_priority_ping_pong_is_bounded)
	VGPU_CASE(preempt_kernel_in_every_mode)
	VGPU_CASE(set_prio_is_honoured_by_path_c)
	VGPU_CASE(set_prio_re_ranks_resident_blocks)
	VGPU_CASE(helpers_outside_tick_are_refused)
	VGPU_CASE(gpu_time_is_warps_times_residency)
	VGPU_NATIVE(fair_preempts_an_equal_priority_hog)
	VGPU_NATIVE(timeslice_changes_owner_in_every_mode))
