// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario tests from the seeds: small cases whose whole sequence of
 * controller events is written down by hand from the seeds' text, and
 * compared event by event with what the core emits.  The determinism
 * tests compare the core with itself; these compare it with the seeds.
 * Timing (Documentation/engine.rst): epochs of 64 cycles, ALU 4 cycles,
 * control instructions 1.
 */
#include <string.h>

#include "vgpu_test.h"
#include "vgpu_test_gpu.h"

static struct vgpu_tg T;

#define VGPU_SHORT	"LOOP 10\nALU\nENDLOOP\nEXIT\n"
#define VGPU_LONG	"LOOP 2000\nALU\nENDLOOP\nEXIT\n"

/* One expected event: type, kernel, cycle, arg0 (~0: any). */
struct vgpu_scn_ev {
	u32 type;
	u32 kernel;
	u64 cycle;
	u32 arg0;
};

/*
 * The events of the types in @mask (bit type - VGPU_GEV_SUBMIT) before
 * cycle @until, in emission order, must be exactly @want.
 */
static bool vgpu_scn_match(struct __test_metadata *_metadata, u32 mask,
			   u64 until, const struct vgpu_scn_ev *want, u32 n)
{
	const struct vgpu_event *ev;
	u32 i = 0;
	size_t j;

	for (j = 0; j < T.nev; j++) {
		ev = &T.ev[j];
		if (ev->type < VGPU_GEV_SUBMIT || ev->cycle >= until ||
		    !(mask & BIT(ev->type - VGPU_GEV_SUBMIT)))
			continue;
		if (i >= n) {
			TH_LOG("extra event %u: %s kernel %u cycle %llu",
			       i, vgpu_gpu_event_name(ev->type), ev->kernel,
			       (unsigned long long)ev->cycle);
			return false;
		}
		if (ev->type != want[i].type || ev->kernel != want[i].kernel ||
		    ev->cycle != want[i].cycle ||
		    (want[i].arg0 != ~0U && ev->arg0 != want[i].arg0)) {
			TH_LOG("event %u: %s kernel %u cycle %llu arg0 %u; want %s kernel %u cycle %llu arg0 %d",
			       i, vgpu_gpu_event_name(ev->type), ev->kernel,
			       (unsigned long long)ev->cycle, ev->arg0,
			       vgpu_gpu_event_name(want[i].type),
			       want[i].kernel,
			       (unsigned long long)want[i].cycle,
			       (int)want[i].arg0);
			return false;
		}
		i++;
	}
	if (i != n)
		TH_LOG("%u events of %u", i, n);
	return i == n;
}

#define M(t)	BIT(VGPU_GEV_##t - VGPU_GEV_SUBMIT)

/*
 * Seed 002, the task table (F13) with two slots.  K0 and K1 (priority 2,
 * three blocks of 1,024 threads each, two fit their one SM: a block stays
 * undispatched, so both stay in the table) arrive at 0 and enter slots 0
 * and 1 in arrival order.  K2 (priority 0) arrives at 100, seen at 128:
 * no free slot, so it evicts the lowest-priority occupant that entered the
 * table last (step 432: the timestamp is the time of insertion), K1.  The
 * deallocation request on slot 1 is acknowledged at the next boundary,
 * 192, where K2 enters it; K2's only block goes out at once, so its slot
 * gets a request at 192 and is free at 256, where K1, waiting again at its
 * channel's head, comes back.  K0 is never touched.
 */
TEST(table_eviction_sequence)
{
	static const struct vgpu_scn_ev want[] = {
		{ VGPU_GEV_SUBMIT, 0, 0, ~0U },
		{ VGPU_GEV_SUBMIT, 1, 0, ~0U },
		{ VGPU_GEV_ADMIT, 0, 0, 0 },
		{ VGPU_GEV_ADMIT, 1, 0, 1 },
		{ VGPU_GEV_SUBMIT, 2, 100, ~0U },
		{ VGPU_GEV_EVICT, 1, 128, 1 },
		{ VGPU_GEV_ADMIT, 2, 192, 1 },
		{ VGPU_GEV_ADMIT, 1, 256, 1 },
	};
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *k[3];
	u32 i;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.task_slots = 2;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	k[0] = vgpu_tg_kernel(&T, 0, 2, 3, 1024, 0, VGPU_LONG);
	k[1] = vgpu_tg_kernel(&T, 1, 2, 3, 1024, 0, VGPU_LONG);
	k[2] = vgpu_tg_kernel(&T, 2, 0, 1, 32, 100, VGPU_SHORT);
	k[0]->args.affinity[0] = 1;
	k[1]->args.affinity[0] = 2;
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k[i]));
	vgpu_tg_until(&T, 1024);
	EXPECT_TRUE(vgpu_scn_match(_metadata, M(SUBMIT) | M(ADMIT) | M(EVICT),
				   1024, want, ARRAY_SIZE(want)));
	for (i = 0; i < 2; i++)
		vgpu_gpu_cancel(&T.g, k[i]);
	vgpu_tg_fini(&T);
}

/*
 * Seed 000, F23 (c) in switch mode on one SM.  L (priority 3, two blocks
 * of 1,024 threads) fills SM 0 at 0.  H (priority 0, one block of 1,024
 * threads, 51 cycles of work) arrives at 100 and, at 128, fits neither
 * whole (a) nor by a warp (b): the SM's highest resident priority is
 * lower than its own, so L's youngest block (block 1) is switched out and
 * H's block takes its resources at once.  H ends before 192; at 192 the
 * switched-out block comes back to SM 0 (a resume).  L's block 0 is never
 * touched.
 */
TEST(switch_preemption_sequence)
{
	static const struct vgpu_scn_ev want[] = {
		{ VGPU_GEV_DISPATCH, 0, 0, ~0U },
		{ VGPU_GEV_DISPATCH, 0, 0, ~0U },
		{ VGPU_GEV_PREEMPT, 0, 128, 1 },
		{ VGPU_GEV_DISPATCH, 1, 128, ~0U },
		{ VGPU_GEV_DISPATCH, 0, 320, ~0U },
	};
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *l, *h;
	const struct vgpu_event *ev;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_SWITCH);
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	l = vgpu_tg_kernel(&T, 0, 3, 2, 1024, 0, VGPU_LONG);
	h = vgpu_tg_kernel(&T, 1, 0, 1, 1024, 100, VGPU_SHORT);
	l->args.affinity[0] = 1;
	h->args.affinity[0] = 1;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, l));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, h));
	vgpu_tg_until(&T, 1024);
	EXPECT_TRUE(vgpu_scn_match(_metadata, M(DISPATCH) | M(PREEMPT), 1024,
				   want, ARRAY_SIZE(want)));
	ev = vgpu_tg_find(&T, VGPU_GEV_PREEMPT, l->args.id, 0);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(1, ev->block);
	ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, l->args.id, 2);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(1, ev->block);
	EXPECT_EQ(303, h->t.end);
	vgpu_gpu_cancel(&T.g, l);
	vgpu_tg_fini(&T);
}

VGPU_TEST_SUITE(scenarios,
	VGPU_CASE(table_eviction_sequence)
	VGPU_CASE(switch_preemption_sequence))
