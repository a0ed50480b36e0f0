// SPDX-License-Identifier: GPL-2.0
/*
 * Priority mutex tests (F35, seed 003): the seed's own example, equal
 * priorities (the requester waits and releases its locks), FIFO order
 * under many contenders, hold_max forced release, and no lost or
 * duplicated ownership over 100,000 seeded random interleavings checked
 * against a plain model.
 */
#include "vgpu_test.h"
#include "vgpu_test_engine.h"
#include "vgpu_test_rand.h"

#define K(i)	(100 + (i))

/* Records what the arbiter reports and mirrors it in a model. */
struct vgpu_mtx_log {
	u32 n;
	u32 kind[256];		/* 0 granted, 1 released */
	u32 warp[256];
	u32 arg[256];		/* mutex or mask */
	u32 how[256];		/* how or why */
	u32 model_held[VGPU_MAX_BLOCK_WARPS];
	bool waiting[VGPU_MAX_BLOCK_WARPS];
	u32 want[VGPU_MAX_BLOCK_WARPS];
	u32 bad;
};

static void vgpu_mtx_granted(void *ctx, u32 warp, u32 m, u32 how, u32 other)
{
	struct vgpu_mtx_log *l = ctx;

	if (l->n < 256) {
		l->kind[l->n] = 0;
		l->warp[l->n] = warp;
		l->arg[l->n] = m;
		l->how[l->n++] = how;
	}
	if (!l->waiting[warp] || l->want[warp] != m)
		l->bad++;	/* granted something it did not wait for */
	l->waiting[warp] = false;
	l->model_held[warp] |= 1U << m;
}

static void vgpu_mtx_released(void *ctx, u32 warp, u32 mask, u32 why,
			      u32 other)
{
	struct vgpu_mtx_log *l = ctx;

	if (l->n < 256) {
		l->kind[l->n] = 1;
		l->warp[l->n] = warp;
		l->arg[l->n] = mask;
		l->how[l->n++] = why;
	}
	if ((l->model_held[warp] & mask) != mask || !mask)
		l->bad++;
	l->model_held[warp] &= ~mask;
}

static const struct vgpu_mutex_ops vgpu_mtx_ops = {
	.granted = vgpu_mtx_granted,
	.released = vgpu_mtx_released,
};

static int vgpu_mtx_lock(struct vgpu_mutex_arb *a, struct vgpu_mtx_log *l,
			 u32 w, u32 m)
{
	int ret = vgpu_mutex_lock(a, w, m);

	if (!ret) {
		l->model_held[w] |= 1U << m;
	} else {
		l->waiting[w] = true;
		l->want[w] = m;
	}
	return ret;
}

/* Every lock word agrees with the model; ownership is never duplicated. */
static bool vgpu_mtx_consistent(const struct vgpu_mutex_arb *a,
				const struct vgpu_mtx_log *l, u32 nw, u32 nm)
{
	u32 m, w, owners, waiters[VGPU_ISA_MAX_MUTEX] = { 0 }, i;

	if (l->bad)
		return false;
	for (w = 0; w < nw; w++)
		if (a->held[w] != l->model_held[w])
			return false;
	for (m = 0; m < nm; m++) {
		owners = 0;
		for (w = 0; w < nw; w++)
			owners += !!(l->model_held[w] & (1U << m));
		if (owners > 1)
			return false;
		if (owners != !!(a->word[m] & VGPU_MUTEX_LOCKED))
			return false;
		if (owners && !(l->model_held[vgpu_mutex_owner(a, m)] & (1U << m)))
			return false;
	}
	for (i = 0; i < a->count; i++) {
		const struct vgpu_mutex_req *r =
			&a->fifo[(a->head + i) % VGPU_MAX_BLOCK_WARPS];

		if (!l->waiting[r->warp] || l->want[r->warp] != r->mutex)
			return false;
		waiters[r->mutex]++;
	}
	for (w = 0, i = 0; w < nw; w++)
		i += l->waiting[w];
	if (i != a->count)
		return false;
	for (m = 0; m < nm; m++)
		if (waiters[m] != a->waiters[m])
			return false;
	return true;
}

/* Seed 003's example on the arbiter: warp 1 (prio 1) holds, warp 0 asks. */
TEST(seed_example_arbiter)
{
	VGPU_TEST_BIG struct vgpu_mtx_log l = { 0 };
	VGPU_TEST_BIG struct vgpu_mutex_arb a;
	u8 prio[2] = { 0, 1 };

	vgpu_mutex_arb_init(&a, VGPU_MAX_BLOCK_WARPS);
	EXPECT_EQ(0, vgpu_mtx_lock(&a, &l, 1, 0));
	EXPECT_EQ(0, vgpu_mtx_lock(&a, &l, 1, 5));
	EXPECT_EQ(-EBUSY, vgpu_mtx_lock(&a, &l, 0, 0));
	EXPECT_EQ(1, a.count);
	EXPECT_EQ(1, a.fifo[a.head].owner);	/* the (requester, owner) pair */
	vgpu_mutex_arb_process(&a, prio, &vgpu_mtx_ops, &l);
	ASSERT_EQ(2, l.n);
	/* the owner releases every lock it holds, the requester takes it */
	EXPECT_EQ(1, l.kind[0]);
	EXPECT_EQ(1, l.warp[0]);
	EXPECT_EQ(BIT(0) | BIT(5), l.arg[0]);
	EXPECT_EQ(VGPU_MUTEX_REL_PREEMPT, l.how[0]);
	EXPECT_EQ(0, l.kind[1]);
	EXPECT_EQ(0, l.warp[1]);
	EXPECT_EQ(VGPU_LOCK_HOW_PREEMPT, l.how[1]);
	EXPECT_EQ(0, vgpu_mutex_owner(&a, 0));
	EXPECT_EQ(VGPU_MUTEX_NOBODY, vgpu_mutex_owner(&a, 5));
	EXPECT_EQ(0, a.count);
	EXPECT_TRUE(vgpu_mtx_consistent(&a, &l, 2, VGPU_ISA_MAX_MUTEX));
}

/* Equal priority: the requester waits and releases its own locks. */
TEST(equal_priority_requester_yields)
{
	VGPU_TEST_BIG struct vgpu_mtx_log l = { 0 };
	VGPU_TEST_BIG struct vgpu_mutex_arb a;
	u8 prio[2] = { 1, 1 };

	vgpu_mutex_arb_init(&a, VGPU_MAX_BLOCK_WARPS);
	EXPECT_EQ(0, vgpu_mtx_lock(&a, &l, 1, 0));
	EXPECT_EQ(0, vgpu_mtx_lock(&a, &l, 0, 1));
	EXPECT_EQ(-EBUSY, vgpu_mtx_lock(&a, &l, 0, 0));
	vgpu_mutex_arb_process(&a, prio, &vgpu_mtx_ops, &l);
	ASSERT_EQ(1, l.n);
	EXPECT_EQ(1, l.kind[0]);
	EXPECT_EQ(0, l.warp[0]);
	EXPECT_EQ(BIT(1), l.arg[0]);
	EXPECT_EQ(VGPU_MUTEX_REL_YIELD, l.how[0]);
	EXPECT_EQ(1, vgpu_mutex_owner(&a, 0));
	EXPECT_EQ(VGPU_MUTEX_NOBODY, vgpu_mutex_owner(&a, 1));
	EXPECT_EQ(1, a.count);		/* still waiting, in place */
	/* a lower-priority requester waits too */
	prio[0] = 2;
	vgpu_mutex_arb_process(&a, prio, &vgpu_mtx_ops, &l);
	EXPECT_EQ(1, l.n);
	vgpu_mutex_unlock(&a, 1, 0);
	l.model_held[1] = 0;
	vgpu_mutex_arb_process(&a, prio, &vgpu_mtx_ops, &l);
	ASSERT_EQ(2, l.n);
	EXPECT_EQ(0, l.warp[1]);
	EXPECT_EQ(VGPU_LOCK_HOW_FIFO, l.how[1]);
	EXPECT_TRUE(vgpu_mtx_consistent(&a, &l, 2, VGPU_ISA_MAX_MUTEX));
}

/* FIFO order: 40 equal-priority contenders are served in request order. */
TEST(fifo_order_many_contenders)
{
	struct vgpu_test_rng rng = { .s = 35 };
	VGPU_TEST_BIG struct vgpu_mtx_log l = { 0 };
	u32 order[40], i, j, w, got = 0;
	VGPU_TEST_BIG u8 prio[VGPU_MAX_BLOCK_WARPS];
	VGPU_TEST_BIG struct vgpu_mutex_arb a;

	memset(prio, 3, sizeof(prio));
	vgpu_mutex_arb_init(&a, VGPU_MAX_BLOCK_WARPS);
	EXPECT_EQ(0, vgpu_mtx_lock(&a, &l, 63, 2));
	for (i = 0; i < 40; i++)	/* a random permutation of warps 0..39 */
		order[i] = i;
	for (i = 39; i > 0; i--) {
		j = vgpu_test_below(&rng, i + 1);
		w = order[i];
		order[i] = order[j];
		order[j] = w;
	}
	for (i = 0; i < 40; i++) {
		EXPECT_EQ(-EBUSY, vgpu_mtx_lock(&a, &l, order[i], 2));
		vgpu_mutex_arb_process(&a, prio, &vgpu_mtx_ops, &l);
	}
	/* a newcomer finds the mutex free but queues behind the waiters */
	vgpu_mutex_unlock(&a, 63, 2);
	l.model_held[63] = 0;
	EXPECT_EQ(-EBUSY, vgpu_mtx_lock(&a, &l, 50, 2));
	for (i = 0; i < 41; i++) {
		l.n = 0;
		vgpu_mutex_arb_process(&a, prio, &vgpu_mtx_ops, &l);
		ASSERT_EQ(1, l.n);
		EXPECT_EQ(i < 40 ? order[i] : 50, l.warp[0]);
		ASSERT_TRUE(vgpu_mtx_consistent(&a, &l, 64, VGPU_ISA_MAX_MUTEX));
		vgpu_mutex_unlock(&a, l.warp[0], 2);
		l.model_held[l.warp[0]] = 0;
		got++;
	}
	EXPECT_EQ(41, got);
	EXPECT_EQ(0, a.count);
}

/*
 * No lost or duplicated ownership: 100,000 seeded random interleavings of
 * LOCK, UNLOCK, hold_max release and arbitration passes with random
 * priorities, checked against the model after every step; then every
 * waiter is eventually served (no starvation, no deadlock).  One arbiter,
 * filled with garbage first, serves every run, initialised for the run's
 * warps only: what vgpu_mutex_arb_init() leaves is never read.
 */
TEST(random_interleavings)
{
	struct vgpu_test_rng rng = { .s = 0x35 };
	VGPU_TEST_BIG u8 prio[VGPU_MAX_BLOCK_WARPS];
	VGPU_TEST_BIG struct vgpu_mutex_arb a;
	VGPU_TEST_BIG struct vgpu_mtx_log l;
	u32 run, step, nw, nm, w, m, rounds, grants = 0;

	/* vgpu_mutex_arb_init() clears no more than the run's warps need */
	memset(&a, 0xa5, sizeof(a));
	for (run = 0; run < 100000; run++) {
		memset(&l, 0, sizeof(l));
		nw = 2 + vgpu_test_below(&rng, 7);
		nm = 1 + vgpu_test_below(&rng, 4);
		vgpu_mutex_arb_init(&a, nw);
		for (w = 0; w < nw; w++)
			prio[w] = vgpu_test_below(&rng, 3);
		for (step = 0; step < 24; step++) {
			u32 r = vgpu_test_below(&rng, 10);

			w = vgpu_test_below(&rng, nw);
			m = vgpu_test_below(&rng, nm);
			l.n = 0;
			if (r < 3) {
				vgpu_mutex_arb_process(&a, prio, &vgpu_mtx_ops, &l);
			} else if (l.waiting[w]) {
				continue;
			} else if (r < 7 && !(l.model_held[w] & (1U << m))) {
				vgpu_mtx_lock(&a, &l, w, m);
			} else if (r < 9 && (l.model_held[w] & (1U << m))) {
				vgpu_mutex_unlock(&a, w, m);
				l.model_held[w] &= ~(1U << m);
			} else if (r == 9) {	/* hold_max */
				l.model_held[w] &= ~vgpu_mutex_release_all(&a, w);
			}
			ASSERT_TRUE(vgpu_mtx_consistent(&a, &l, nw, nm))
				TH_LOG("run %u step %u", run, step);
		}
		/* drain: holders finish their sections, waiters get served */
		for (rounds = 0; a.count && rounds < 4 * nw + 4; rounds++) {
			for (w = 0; w < nw; w++)
				if (!l.waiting[w])
					l.model_held[w] &= ~vgpu_mutex_release_all(&a, w);
			l.n = 0;
			vgpu_mutex_arb_process(&a, prio, &vgpu_mtx_ops, &l);
			grants += l.n;
			ASSERT_TRUE(vgpu_mtx_consistent(&a, &l, nw, nm));
		}
		ASSERT_EQ(0, a.count) TH_LOG("run %u starved", run);
	}
	EXPECT_LT(0, grants);
}

FIXTURE(eng) {
	struct vgpu_test_engine *te;
};

FIXTURE_SETUP(eng)
{
	self->te = vgpu_te_new();
	ASSERT_NE(NULL, self->te);
	ASSERT_EQ(0, vgpu_te_init(self->te));
}

FIXTURE_TEARDOWN(eng)
{
	vgpu_te_free(self->te);
}

/*
 * Seed 003's example in the engine: with the split pointer at 3, warp 1
 * sits on sub-partition 0 and locks first; warp 0 (priority 0 through
 * prio_wid_mod 2) requests it, warp 1 releases, warp 0 proceeds and
 * warp 1 retries after warp 0's UNLOCK.
 */
TEST_F(eng, seed_example_engine)
{
	struct vgpu_test_engine *te = self->te;
	int i0, i1, p, u0;

	ASSERT_EQ(0, vgpu_te_kernel(te, "EXIT\n", 96, 0, 1));
	ASSERT_EQ(1, vgpu_te_kernel(te, "LOCK 4\nLOOP 10\nALU\nENDLOOP\nUNLOCK 4\nEXIT\n",
				    64, 0, 1));
	te->k[1].prio_wid_mod = 2;
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 0, 0, VGPU_PLACE_BLOCK));
	vgpu_te_run_idle(te, 100);
	ASSERT_EQ(3, te->sm.res.split_ptr);
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[1], 0, 0, VGPU_PLACE_BLOCK));
	vgpu_te_run_idle(te, 10000);
	i1 = vgpu_te_find(te, VGPU_EV_LOCK_ACQUIRE, K(1), 0, 1, 0);
	i0 = vgpu_te_find(te, VGPU_EV_LOCK_WAIT, K(1), 0, 0, 0);
	p = vgpu_te_find(te, VGPU_EV_LOCK_PREEMPT, K(1), 0, 1, 0);
	ASSERT_LE(0, i1);
	ASSERT_LT(i1, i0);
	EXPECT_EQ(1, te->ev[i0].arg1);		/* owner: warp 1 */
	ASSERT_LT(i0, p);
	EXPECT_EQ(BIT(4), te->ev[p].arg0);
	EXPECT_EQ(0, te->ev[p].arg1);		/* requester: warp 0 */
	EXPECT_EQ(te->ev[i0].cycle + 1, te->ev[p].cycle);
	EXPECT_EQ(p + 1, vgpu_te_find(te, VGPU_EV_LOCK_ACQUIRE, K(1), 0, 0, 0));
	EXPECT_EQ(VGPU_LOCK_HOW_PREEMPT, te->ev[p + 1].arg1);
	u0 = vgpu_te_find(te, VGPU_EV_UNLOCK, K(1), 0, 0, 0);
	ASSERT_LT(p, u0);
	/* warp 1 got it back only after warp 0 let go */
	i1 = vgpu_te_find(te, VGPU_EV_LOCK_ACQUIRE, K(1), 0, 1, 1);
	EXPECT_LT(u0, i1);
	EXPECT_EQ(2, te->sm.stats.blocks_done);
	EXPECT_TRUE(vgpu_te_res_empty(te));
}

/* hold_max: a holder releases after hold_max instructions; waiters run. */
TEST_F(eng, hold_max_forced_release)
{
	struct vgpu_test_engine *te = self->te;
	int h, g;

	te->timing.hold_max = 10;
	ASSERT_EQ(0, vgpu_te_init(te));
	ASSERT_EQ(0, vgpu_te_kernel(te, "LOCK 0\nLOOP 25\nALU\nENDLOOP\nUNLOCK 0\nEXIT\n",
				    128, 1, 1));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 0, 1, VGPU_PLACE_BLOCK));
	vgpu_te_run_idle(te, 100000);
	/* warp 0 locks at 0, warps 1..3 queue; after 10 ALUs warp 0 lets go */
	h = vgpu_te_find(te, VGPU_EV_LOCK_HOLD_MAX, K(0), 0, 0, 0);
	ASSERT_LE(0, h);
	EXPECT_EQ(BIT(0), te->ev[h].arg0);
	g = vgpu_te_find(te, VGPU_EV_LOCK_ACQUIRE, K(0), 0, 1, 0);
	ASSERT_LT(h, g);
	EXPECT_EQ(te->ev[h].cycle + 1, te->ev[g].cycle);
	EXPECT_EQ(VGPU_LOCK_HOW_FIFO, te->ev[g].arg1);
	/* 25 ALUs per section with hold_max 10: 2 releases per warp */
	EXPECT_LE(0, vgpu_te_find(te, VGPU_EV_LOCK_HOLD_MAX, K(0), 0, 3, 1));
	EXPECT_GT(0, vgpu_te_find(te, VGPU_EV_LOCK_HOLD_MAX, K(0), 0, 3, 2));
	EXPECT_EQ(4, te->sm.stats.warps_done);
	EXPECT_EQ(4 * 25, te->sm.stats.cls[VGPU_OP_ALU - VGPU_OP_MOV]);
	EXPECT_TRUE(vgpu_te_res_empty(te));
}

/*
 * hold_max counts the timed instructions a warp issues while it holds any
 * lock (F35), from the moment it holds none: with hold_max 10, two
 * sections of 6 ALUs, one lock released before the next is taken, never
 * reach it; 6 ALUs under two locks and 6 more under the one still held
 * do, once (at the 10th).
 */
TEST_F(eng, hold_max_counts_while_any_lock_is_held)
{
	struct vgpu_test_engine *te = self->te;
	int h;

	te->timing.hold_max = 10;
	ASSERT_EQ(0, vgpu_te_init(te));
	ASSERT_EQ(0, vgpu_te_kernel(te,
				    "LOCK 0\nLOOP 6\nALU\nENDLOOP\nUNLOCK 0\n"
				    "LOCK 1\nLOOP 6\nALU\nENDLOOP\nUNLOCK 1\nEXIT\n",
				    32, 1, 1));
	ASSERT_EQ(1, vgpu_te_kernel(te,
				    "LOCK 0\nLOCK 1\nLOOP 6\nALU\nENDLOOP\nUNLOCK 1\n"
				    "LOOP 6\nALU\nENDLOOP\nUNLOCK 0\nEXIT\n",
				    32, 1, 1));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[0], 0, 1, VGPU_PLACE_BLOCK));
	ASSERT_EQ(0, vgpu_sm_block_add(&te->sm, &te->k[1], 0, 1, VGPU_PLACE_BLOCK));
	vgpu_te_run_idle(te, 100000);
	EXPECT_EQ(2, te->sm.stats.warps_done);
	EXPECT_GT(0, vgpu_te_find(te, VGPU_EV_LOCK_HOLD_MAX, K(0), 0, 0, 0));
	h = vgpu_te_find(te, VGPU_EV_LOCK_HOLD_MAX, K(1), 0, 0, 0);
	ASSERT_LE(0, h);
	EXPECT_EQ(BIT(0), te->ev[h].arg0);
	EXPECT_GT(0, vgpu_te_find(te, VGPU_EV_LOCK_HOLD_MAX, K(1), 0, 0, 1));
	EXPECT_TRUE(vgpu_te_res_empty(te));
}

VGPU_TEST_SUITE(mutex,
	VGPU_CASE(seed_example_arbiter)
	VGPU_CASE(equal_priority_requester_yields)
	VGPU_CASE(fifo_order_many_contenders)
	VGPU_CASE(random_interleavings)
	VGPU_CASE_F(eng, seed_example_engine)
	VGPU_CASE_F(eng, hold_max_forced_release)
	VGPU_CASE_F(eng, hold_max_counts_while_any_lock_is_held))
