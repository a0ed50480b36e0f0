// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel's age in the task table is the time it entered the table (seed
 * 002 steps 430-434: "timestamp = time the TMD was inserted into the task
 * table"), for eviction (F13) and for the order among candidates of equal
 * priority (F16), not the time it arrived.
 */
#include <string.h>

#include "vgpu_test.h"
#include "vgpu_test_gpu.h"

static struct vgpu_tg T;

#define VGPU_SHORT	"LOOP 10\nALU\nENDLOOP\nEXIT\n"
#define VGPU_WAVE	"LOOP 100\nALU\nENDLOOP\nEXIT\n"

/*
 * The device and the four kernels W, Z, X, Y of f16_age_is_table_entry
 * below, in k[0..3], Z at the head of its priority level if @z_head; runs
 * them to the end.
 */
static int four_kernels(struct vgpu_gpu_kernel **k, bool z_head)
{
	struct vgpu_gpu_params p;
	int i, ret;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	ret = vgpu_tg_init(&T, NULL, &p);
	if (ret)
		return ret;
	k[0] = vgpu_tg_kernel(&T, 1, 1, 16, 1024, 0, VGPU_WAVE);
	k[1] = vgpu_tg_kernel(&T, 1, 2, 4, 1024, 0, VGPU_SHORT);
	k[2] = vgpu_tg_kernel(&T, 2, 2, 4, 1024, 64, VGPU_SHORT);
	k[3] = vgpu_tg_kernel(&T, 3, 2, 4, 1024, 64, VGPU_SHORT);
	if (z_head)
		k[1]->args.flags |= VGPU_KF_HEAD;
	for (i = 0; i < 4; i++) {
		ret = vgpu_gpu_submit(&T.g, k[i]);
		if (ret)
			return ret;
	}
	return vgpu_tg_run(&T, 100000) ? 0 : -ETIME;
}

/*
 * W (priority 1, 16 blocks of 1,024 threads, two waves of the 4 SMs' two
 * blocks each) arrives at 0 on channel 1 with Z (priority 2) behind it;
 * X and Y (priority 2) arrive at 64 on channels 2 and 3 and enter the
 * table there.  Z arrived first but waits behind its channel's head until
 * W's last block is out, and enters the table at the boundary after.  No
 * room is left before W's second wave ends; then X, Y and Z are offered
 * decisions by priority (all 2), F21 flag (all clear: W's decisions set
 * channel 1's flag of priority 1), quota (none), and age: X and Y entered
 * at 64, the same boundary, so F21's random pick between their channels
 * orders them, and Z comes last.  With the arrival as the age Z (arrival
 * 0) went first.
 */
TEST(f16_age_is_table_entry)
{
	const struct vgpu_event *ew, *ex, *ey, *ez;
	struct vgpu_gpu_kernel *k[4], *w, *x, *y, *z;

	ASSERT_EQ(0, four_kernels(k, false));
	w = k[0];
	z = k[1];
	x = k[2];
	y = k[3];

	EXPECT_EQ(64, x->t.entered);
	EXPECT_EQ(64, y->t.entered);
	/* Z entered at the boundary after W's last block went out */
	ew = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, w->args.id, 15);
	ASSERT_NE(NULL, ew);
	EXPECT_EQ(ew->cycle + T.g.p.epoch, z->t.entered);
	ex = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, x->args.id, 0);
	ey = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, y->args.id, 0);
	ez = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, z->args.id, 0);
	ASSERT_NE(NULL, ex);
	ASSERT_NE(NULL, ey);
	ASSERT_NE(NULL, ez);
	/* all three at the boundary W's second wave left room at */
	EXPECT_LT(z->t.entered, ex->cycle);
	EXPECT_EQ(ex->cycle, ey->cycle);
	EXPECT_EQ(ex->cycle, ez->cycle);
	/* in the order of their entry into the table */
	EXPECT_TRUE(ex < ez && ey < ez)
		TH_LOG("first dispatches: X event %zu, Y %zu, Z %zu",
		       (size_t)(ex - T.ev), (size_t)(ey - T.ev),
		       (size_t)(ez - T.ev));
	vgpu_tg_fini(&T);
}

/*
 * The same with Z at the head of its priority level (F16): a HEAD kernel
 * comes before the others of its priority whenever it entered the table.
 */
TEST(f16_head_before_older_entries)
{
	const struct vgpu_event *ex, *ez;
	struct vgpu_gpu_kernel *k[4], *x, *z;

	ASSERT_EQ(0, four_kernels(k, true));
	z = k[1];
	x = k[2];
	EXPECT_LT(64, z->t.entered);
	ex = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, x->args.id, 0);
	ez = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, z->args.id, 0);
	ASSERT_NE(NULL, ex);
	ASSERT_NE(NULL, ez);
	EXPECT_EQ(ex->cycle, ez->cycle);
	EXPECT_LT(ez, ex);
	vgpu_tg_fini(&T);
}

VGPU_TEST_SUITE(age,
	VGPU_CASE(f16_age_is_table_entry)
	VGPU_CASE(f16_head_before_older_entries))
