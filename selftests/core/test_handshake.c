// SPDX-License-Identifier: GPL-2.0
/*
 * Seed 002's handshakes as states of the controller's SM table (F13, F17).
 *
 * Method 400 step 434 assigns a kernel to an SM (TASK_ASSIGN), step 438
 * sends its state and waits for the acknowledgment (STATE_SYNC), and
 * method 500 step 502 issues blocks only to SMs that are ready (CTA_LAUNCH):
 * a block of a kernel other than the SM's waits assign_latency and then
 * sync_cost before its warps start, and the SM takes no other block until
 * then.  Step 408: a task slot with a deallocation request is not used;
 * the SMs acknowledge the request dealloc_latency cycles after it, and
 * only then is the slot free for a waiting kernel.  Both latencies 0 (the
 * defaults) is the device without them.
 */
#include <string.h>

#include "vgpu_test.h"
#include "vgpu_test_gpu.h"

static struct vgpu_tg T;

#define VGPU_SHORT	"LOOP 10\nALU\nENDLOOP\nEXIT\n"

static void vgpu_hs_params(struct vgpu_gpu_params *p, u32 assign, u32 sync)
{
	vgpu_tg_params_small(p, VGPU_PREEMPT_DRAIN);
	p->assign_latency = assign;
	p->sync_cost = sync;
}

/* First warp start of block @nth of kernel @kid. */
static u64 vgpu_hs_start(u32 kid, u32 nth)
{
	const struct vgpu_event *ev;
	size_t i;

	for (i = 0; i < T.nev; i++) {
		ev = &T.ev[i];
		if (ev->type == VGPU_EV_WARP_START && ev->kernel == kid &&
		    ev->warp == 0 && !nth--)
			return ev->cycle;
	}
	return VGPU_GPU_NO_CYCLE;
}

/*
 * SM 0 only: a (sequential, two blocks) from 0, b from 1,000.  a's block
 * 0 assigns a to the SM, which held nothing: its warps start assign +
 * sync cycles after the dispatch at 0; block 1 (the same kernel, no
 * assignment) at its dispatch; b's block at 1,024 assigns b: 1,024 +
 * assign + sync.  The event "assign" (only with an assign latency) says
 * when the assignment ended; the engine's "sync" when the state was in
 * place.  With 0 and 0, no wait at all.
 */
TEST(first_block_waits_assign_latency)
{
	static const u32 lat[][2] = { { 0, 0 }, { 40, 0 }, { 40, 100 },
				      { 0, 100 } };
	struct vgpu_gpu_kernel *a, *b;
	const struct vgpu_event *d, *ev;
	struct vgpu_gpu_params p;
	u32 i, as, sy;

	for (i = 0; i < ARRAY_SIZE(lat); i++) {
		as = lat[i][0];
		sy = lat[i][1];
		vgpu_hs_params(&p, as, sy);
		ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
		a = vgpu_tg_kernel(&T, 0, 0, 2, 32, 0, VGPU_SHORT);
		a->args.flags = VGPU_KF_SEQUENTIAL;
		a->args.affinity[0] = 1;
		b = vgpu_tg_kernel(&T, 1, 0, 1, 32, 1000, VGPU_SHORT);
		b->args.affinity[0] = 1;
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
		ASSERT_TRUE(vgpu_tg_run(&T, 100000));
		d = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, a->args.id, 0);
		ASSERT_NE(NULL, d);
		EXPECT_EQ(0, d->cycle);
		EXPECT_EQ(as + sy, vgpu_hs_start(a->args.id, 0));
		d = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, a->args.id, 1);
		ASSERT_NE(NULL, d);
		EXPECT_EQ(d->cycle, vgpu_hs_start(a->args.id, 1));
		d = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, b->args.id, 0);
		ASSERT_NE(NULL, d);
		EXPECT_EQ(1024, d->cycle);
		EXPECT_EQ(1024 + as + sy, vgpu_hs_start(b->args.id, 0));
		EXPECT_EQ(1024 + as + sy, b->t.start);
		/* the SM table: b assigned, twice in all, ready */
		EXPECT_EQ(b->args.id, T.g.sm[0].hs.kernel);
		EXPECT_EQ(2, T.g.sm[0].hs.assigns);
		EXPECT_EQ(1024, T.g.sm[0].hs.assigned);
		/* without a handshake to wait for, the cycles stay at 0 */
		EXPECT_EQ(as + sy ? 1024 + as : 0, T.g.sm[0].hs.sync_at);
		EXPECT_EQ(as + sy ? 1024 + as + sy : 0, T.g.sm[0].hs.ready_at);
		EXPECT_EQ(VGPU_SM_PHASE_READY, vgpu_gpu_sm_state(&T.g, 0));
		EXPECT_EQ(VGPU_SM_PHASE_NONE, vgpu_gpu_sm_state(&T.g, 1));
		EXPECT_EQ(VGPU_EV_NONE, T.g.sm[1].hs.kernel);
		/* the trace: "assign" only with its latency */
		EXPECT_EQ(as ? 1 : 0, vgpu_tg_count(&T, VGPU_GEV_ASSIGN,
						    a->args.id));
		EXPECT_EQ(as ? 1 : 0, vgpu_tg_count(&T, VGPU_GEV_ASSIGN,
						    b->args.id));
		ev = vgpu_tg_find(&T, VGPU_GEV_ASSIGN, b->args.id, 0);
		if (as) {
			ASSERT_NE(NULL, ev);
			EXPECT_EQ(1024, ev->cycle);
			EXPECT_EQ(0, ev->sm);
			EXPECT_EQ(0, ev->block);
			EXPECT_EQ(a->args.id, ev->arg0);
			EXPECT_EQ(1024 + as, ev->arg1);
			ev = vgpu_tg_find(&T, VGPU_GEV_ASSIGN, a->args.id, 0);
			ASSERT_NE(NULL, ev);
			EXPECT_EQ(VGPU_EV_NONE, ev->arg0);
			EXPECT_EQ(as, ev->arg1);
			EXPECT_STREQ("assign",
				     vgpu_gpu_event_name(VGPU_GEV_ASSIGN));
		}
		/* the engine's sync: the end of the whole handshake */
		ev = vgpu_tg_find(&T, VGPU_EV_SYNC, b->args.id, 0);
		if (as + sy) {
			ASSERT_NE(NULL, ev);
			EXPECT_EQ(1024 + as + sy, ev->arg1);
		} else {
			EXPECT_EQ(NULL, ev);
		}
		vgpu_tg_fini(&T);
	}
}

/*
 * Step 502 with an assignment: four one-warp blocks of a on SMs 0 and 1,
 * one block per decision.  Blocks 0 and 1 assign SMs 0 and 1 at 0; with
 * assign_latency 100 (no sync cost) the SMs are TASK_ASSIGN until 100, so
 * blocks 2 and 3 find no ready SM at 0 nor at 64 and go at 128, where
 * they start at once (the same kernel).  Without the latency all four go
 * at 0.
 */
TEST(blocks_only_to_assigned_sms)
{
	struct vgpu_gpu_kernel *a;
	const struct vgpu_event *d;
	struct vgpu_gpu_params p;
	u32 i;

	vgpu_hs_params(&p, 100, 0);
	p.pack = VGPU_PACK_BLOCK;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	EXPECT_EQ(VGPU_SM_PHASE_NONE, vgpu_gpu_sm_state(&T.g, 0));
	a = vgpu_tg_kernel(&T, 0, 0, 4, 32, 0,
			   "LOOP 2000\nALU\nENDLOOP\nEXIT\n");
	a->args.affinity[0] = 3;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
	vgpu_gpu_dispatch(&T.g);			/* 0 */
	EXPECT_EQ(2, a->next_unit);
	EXPECT_EQ(VGPU_SM_PHASE_TASK_ASSIGN, vgpu_gpu_sm_state(&T.g, 0));
	EXPECT_EQ(VGPU_SM_PHASE_TASK_ASSIGN, vgpu_gpu_sm_state(&T.g, 1));
	EXPECT_EQ(a->args.id, T.g.sm[1].hs.kernel);
	vgpu_gpu_advance_range(&T.g, 0, T.g.cfg.num_sms);
	vgpu_gpu_dispatch(&T.g);			/* 64 */
	EXPECT_EQ(2, a->next_unit);
	EXPECT_EQ(VGPU_SM_PHASE_TASK_ASSIGN, vgpu_gpu_sm_state(&T.g, 0));
	vgpu_gpu_advance_range(&T.g, 0, T.g.cfg.num_sms);
	vgpu_gpu_dispatch(&T.g);			/* 128 */
	EXPECT_EQ(4, a->next_unit);
	EXPECT_EQ(VGPU_SM_PHASE_READY, vgpu_gpu_sm_state(&T.g, 0));
	for (i = 0; i < 4; i++) {
		d = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, a->args.id, i);
		ASSERT_NE(NULL, d);
		EXPECT_EQ(i < 2 ? 0 : 128, d->cycle);
		EXPECT_EQ(i % 2, d->sm);
	}
	ASSERT_TRUE(vgpu_tg_run(&T, 1000000));
	EXPECT_EQ(100, vgpu_hs_start(a->args.id, 0));
	EXPECT_EQ(128, vgpu_hs_start(a->args.id, 2));
	EXPECT_EQ(1, T.g.sm[0].hs.assigns);
	vgpu_tg_fini(&T);

	/* the same device without the latency: all four at 0 */
	vgpu_hs_params(&p, 0, 0);
	p.pack = VGPU_PACK_BLOCK;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	a = vgpu_tg_kernel(&T, 0, 0, 4, 32, 0,
			   "LOOP 2000\nALU\nENDLOOP\nEXIT\n");
	a->args.affinity[0] = 3;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
	vgpu_gpu_dispatch(&T.g);
	EXPECT_EQ(4, a->next_unit);
	EXPECT_EQ(VGPU_SM_PHASE_READY, vgpu_gpu_sm_state(&T.g, 0));
	vgpu_gpu_cancel(&T.g, a);
	vgpu_tg_fini(&T);
}

/*
 * The states in turn with both latencies: assign 40, sync 100, a block
 * given at 0 on SM 0: TASK_ASSIGN at 0 (until 40), STATE_SYNC at 64 and
 * 128 (until 140), ready at 192.
 */
TEST(states_in_turn)
{
	static const u32 want[] = { VGPU_SM_PHASE_TASK_ASSIGN,
				    VGPU_SM_PHASE_STATE_SYNC,
				    VGPU_SM_PHASE_STATE_SYNC,
				    VGPU_SM_PHASE_READY };
	struct vgpu_gpu_kernel *a;
	struct vgpu_gpu_params p;
	u32 i;

	vgpu_hs_params(&p, 40, 100);
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	a = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, "LOOP 2000\nALU\nENDLOOP\nEXIT\n");
	a->args.affinity[0] = 1;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		vgpu_gpu_dispatch(&T.g);
		EXPECT_EQ(64 * i, T.g.now);
		EXPECT_EQ(want[i], vgpu_gpu_sm_state(&T.g, 0));
		vgpu_gpu_advance_range(&T.g, 0, T.g.cfg.num_sms);
	}
	EXPECT_EQ(40, T.g.sm[0].hs.sync_at);
	EXPECT_EQ(140, T.g.sm[0].hs.ready_at);
	EXPECT_EQ(140, vgpu_hs_start(a->args.id, 0));
	vgpu_gpu_cancel(&T.g, a);
	vgpu_tg_fini(&T);
}

/*
 * Step 408 with the SMs' acknowledgment: one task slot; a (one block)
 * dispatches it at 0, so its slot gets a deallocation request at 0; b
 * waits in another channel.  Without a dealloc_latency the slot is free at
 * the next boundary, 64, and b enters it there; with 64 too (acknowledged
 * at 64); with 100, acknowledged at 100, free at 128; with 200, at 256.
 * The event "dealloc" (only with a latency) at the boundary that frees it:
 * the slot, the request's cycle, the kernel that held it.
 */
TEST(dealloc_waits_for_acknowledgment)
{
	static const u32 lat[][2] = { { 0, 64 }, { 64, 64 }, { 100, 128 },
				      { 200, 256 } };
	struct vgpu_gpu_kernel *a, *b;
	const struct vgpu_event *ev;
	struct vgpu_gpu_params p;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(lat); i++) {
		vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
		p.task_slots = 1;
		p.dealloc_latency = lat[i][0];
		ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
		a = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, VGPU_SHORT);
		b = vgpu_tg_kernel(&T, 1, 0, 1, 32, 0, VGPU_SHORT);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
		vgpu_gpu_dispatch(&T.g);		/* 0 */
		EXPECT_EQ(0, a->t.dispatch);
		EXPECT_TRUE(vgpu_gpu_dealloc_pending(&T.g, 0));
		EXPECT_EQ(0, T.g.dealloc_req[0]);
		EXPECT_EQ(lat[i][0], T.g.dealloc_ack[0]);
		vgpu_gpu_advance_range(&T.g, 0, T.g.cfg.num_sms);
		ASSERT_TRUE(vgpu_tg_run(&T, 100000));
		ev = vgpu_tg_find(&T, VGPU_GEV_ADMIT, b->args.id, 0);
		ASSERT_NE(NULL, ev);
		EXPECT_EQ(lat[i][1], ev->cycle);
		EXPECT_EQ(lat[i][1], b->t.dispatch);
		ev = vgpu_tg_find(&T, VGPU_GEV_DEALLOC, a->args.id, 0);
		if (lat[i][0]) {
			ASSERT_NE(NULL, ev);
			EXPECT_EQ(lat[i][1], ev->cycle);
			EXPECT_EQ(0, ev->arg0);
			EXPECT_EQ(0, ev->arg1);
			EXPECT_STREQ("dealloc",
				     vgpu_gpu_event_name(VGPU_GEV_DEALLOC));
		} else {
			EXPECT_EQ(NULL, ev);
		}
		vgpu_tg_fini(&T);
	}
}

/*
 * An eviction is a deallocation request too (F13): the scenario of
 * f13_eviction_waits_for_acknowledgment (two slots, b evicted at 128 for
 * h) with dealloc_latency 100: h enters at 256, the first boundary from
 * 228 on, not at 192.
 */
TEST(eviction_waits_for_dealloc_latency)
{
	struct vgpu_gpu_kernel *a, *b, *h;
	const struct vgpu_event *ev;
	struct vgpu_gpu_params p;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.task_slots = 2;
	p.dealloc_latency = 100;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	a = vgpu_tg_kernel(&T, 0, 3, 3, 1024, 0, "SPIN\nEXIT\n");
	b = vgpu_tg_kernel(&T, 1, 3, 3, 1024, 32, "SPIN\nEXIT\n");
	b->args.flags |= VGPU_KF_HEAD;
	h = vgpu_tg_kernel(&T, 2, 0, 1, 32, 128, VGPU_SHORT);
	a->args.affinity[0] = 1;
	b->args.affinity[0] = 2;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, h));
	vgpu_tg_until(&T, 1024);
	ev = vgpu_tg_find(&T, VGPU_GEV_EVICT, b->args.id, 0);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(128, ev->cycle);
	ev = vgpu_tg_find(&T, VGPU_GEV_DEALLOC, b->args.id, 0);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(256, ev->cycle);
	EXPECT_EQ(128, ev->arg1);
	ev = vgpu_tg_find(&T, VGPU_GEV_ADMIT, h->args.id, 0);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(256, ev->cycle);
	EXPECT_EQ(256, h->t.dispatch);
	vgpu_gpu_cancel(&T.g, a);
	vgpu_gpu_cancel(&T.g, b);
	vgpu_tg_fini(&T);
}

/* Both latencies are bounded like sync_cost, the field named. */
TEST(latencies_bounded)
{
	struct vgpu_config cfg;
	struct vgpu_gpu_params p;
	const char *bad = NULL;

	vgpu_config_preset(&cfg, "small");
	vgpu_gpu_params_default(&p, &cfg);
	EXPECT_EQ(0, p.assign_latency);
	EXPECT_EQ(0, p.dealloc_latency);
	p.assign_latency = VGPU_MAX_LATENCY;
	p.dealloc_latency = VGPU_MAX_LATENCY;
	EXPECT_EQ(0, vgpu_gpu_params_validate(&p, &cfg, &bad));
	p.assign_latency = VGPU_MAX_LATENCY + 1;
	EXPECT_EQ(-EINVAL, vgpu_gpu_params_validate(&p, &cfg, &bad));
	EXPECT_STREQ("assign_latency", bad);
	p.assign_latency = 0;
	p.dealloc_latency = VGPU_MAX_LATENCY + 1;
	EXPECT_EQ(-EINVAL, vgpu_gpu_params_validate(&p, &cfg, &bad));
	EXPECT_STREQ("dealloc_latency", bad);
	EXPECT_EQ(-EINVAL, vgpu_tg_init(&T, NULL, &p));
	vgpu_tg_fini(&T);
}

VGPU_TEST_SUITE(handshake,
	VGPU_CASE(first_block_waits_assign_latency)
	VGPU_CASE(blocks_only_to_assigned_sms)
	VGPU_CASE(states_in_turn)
	VGPU_CASE(dealloc_waits_for_acknowledgment)
	VGPU_CASE(eviction_waits_for_dealloc_latency)
	VGPU_CASE(latencies_bounded))
