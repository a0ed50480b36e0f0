// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario tests of the task-management mechanisms in the global
 * controller and the SM engine:
 * queue kernels with coalescing (F14), head insertion (F16) and the state
 * sync cost (F17).  Every expectation is an exact cycle, count or order.
 */
#include <stdint.h>
#include <string.h>

#include "vgpu_test.h"
#include "vgpu_test_gpu.h"

static struct vgpu_tg T;

#define VGPU_SHORT	"LOOP 10\nALU\nENDLOOP\nEXIT\n"
#define VGPU_ITEMS	"LOOP 10*items\nALU\nENDLOOP\nEXIT\n"
#define VGPU_SPIN	"SPIN\nEXIT\n"

static void vgpu_params_small(struct vgpu_gpu_params *p)
{
	struct vgpu_config cfg;

	vgpu_config_preset(&cfg, "small");
	vgpu_gpu_params_default(p, &cfg);
	p->preempt = VGPU_PREEMPT_DRAIN;
	p->num_windows = 0;
}

/* A queue kernel of one-warp blocks: N items per block, cap, timeout. */
static struct vgpu_gpu_kernel *vgpu_q_kernel(u32 ch, u32 n, u32 cap,
					     u64 timeout, const char *src)
{
	struct vgpu_gpu_kernel *k = vgpu_tg_kernel(&T, ch, 0, 0, 32, 0, src);

	k->args.flags = VGPU_KF_QUEUE;
	k->args.queue_n = n;
	k->args.queue_cap = cap;
	k->args.queue_timeout = timeout;
	return k;
}

static struct vgpu_gpu_push P[64];
static u32 NP;

/* A fresh small device (vgpu_params_small() into @p), no pushes yet. */
static int vgpu_q_init(struct vgpu_gpu_params *p)
{
	vgpu_params_small(p);
	NP = 0;
	return vgpu_tg_init(&T, NULL, p);
}

static int vgpu_q_push(struct vgpu_gpu_kernel *k, u64 at, u32 items,
		       u32 flags)
{
	struct vgpu_gpu_push *p = &P[NP++];

	memset(p, 0, sizeof(*p));
	p->arrival = at;
	p->items = items;
	p->flags = flags;
	return vgpu_gpu_queue_push(&T.g, k, p);
}

static u32 vgpu_q_reaped(void)
{
	u32 n = 0;

	while (vgpu_gpu_push_reap(&T.g))
		n++;
	return n;
}

/* Cycles a one-warp block of @src (a grid kernel) is resident alone. */
static u32 vgpu_alone_residency(const char *src)
{
	const struct vgpu_event *ev;
	struct vgpu_gpu_kernel *k;
	u32 r;

	if (vgpu_tg_init(&T, NULL, NULL))
		abort();
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, src);
	if (vgpu_gpu_submit(&T.g, k) || !vgpu_tg_run(&T, 1000000))
		abort();
	ev = vgpu_tg_find(&T, VGPU_EV_BLOCK_DONE, k->args.id, 0);
	r = ev ? ev->arg1 : 0;
	vgpu_tg_fini(&T);
	return r;
}

/*
 * F14: 10 items, N = 4: two full blocks at once, the 2 left over once the
 * timeout (200) passed, at the first boundary after it (256); each block
 * sees its item count through LOOP 10*items (its residency equals that
 * of a grid block running LOOP 40 or LOOP 20).
 */
TEST(f14_full_blocks_then_partial_after_timeout)
{
	u32 r40 = vgpu_alone_residency("LOOP 40\nALU\nENDLOOP\nEXIT\n");
	u32 r20 = vgpu_alone_residency("LOOP 20\nALU\nENDLOOP\nEXIT\n");
	const struct vgpu_event *ev;
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *k;
	u32 i;

	ASSERT_NE(r40, r20);
	ASSERT_EQ(0, vgpu_q_init(&p));
	k = vgpu_q_kernel(0, 4, 64, 200, VGPU_ITEMS);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_EQ(0, vgpu_q_push(k, 0, 10, 0));
	vgpu_tg_until(&T, 2048);
	EXPECT_EQ(3, vgpu_tg_count(&T, VGPU_GEV_COALESCE, k->args.id));
	for (i = 0; i < 2; i++) {
		ev = vgpu_tg_find(&T, VGPU_GEV_COALESCE, k->args.id, i);
		ASSERT_NE(NULL, ev);
		EXPECT_EQ(0, ev->cycle);
		EXPECT_EQ(i, ev->block);
		EXPECT_EQ(4, ev->arg0);
		EXPECT_EQ(VGPU_GPU_COALESCE_FULL, ev->arg1);
		ev = vgpu_tg_find(&T, VGPU_EV_BLOCK_DONE, k->args.id, i);
		ASSERT_NE(NULL, ev);
		EXPECT_EQ(r40, ev->arg1);
	}
	ev = vgpu_tg_find(&T, VGPU_GEV_COALESCE, k->args.id, 2);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(256, ev->cycle);
	EXPECT_EQ(2, ev->arg0);
	EXPECT_EQ(VGPU_GPU_COALESCE_TIMEOUT, ev->arg1);
	ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, k->args.id, 2);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(256, ev->cycle);
	ev = vgpu_tg_find(&T, VGPU_EV_BLOCK_DONE, k->args.id, 2);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(r20, ev->arg1);
	EXPECT_EQ(3, k->units);
	EXPECT_EQ(0, k->q.wait);
	EXPECT_EQ(1, T.g.stats.queue_partial);
	EXPECT_EQ(10, T.g.stats.queue_items);
	/* open, nothing waiting: not done, and nothing left to do */
	EXPECT_EQ(VGPU_KS_ACTIVE, k->state);
	EXPECT_FALSE(vgpu_gpu_idle(&T.g));
	EXPECT_TRUE(vgpu_gpu_quiescent(&T.g));
	EXPECT_EQ(VGPU_GPU_NO_CYCLE, vgpu_gpu_next_arrival(&T.g));
	/* every record's items went into blocks */
	EXPECT_EQ(1, vgpu_q_reaped());
	/* close: the kernel completes at once, its end is the close */
	ASSERT_EQ(0, vgpu_q_push(k, 3000, 0, VGPU_GPU_PUSH_CLOSE));
	EXPECT_FALSE(vgpu_gpu_quiescent(&T.g));
	EXPECT_EQ(3000, vgpu_gpu_next_arrival(&T.g));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_EQ(VGPU_KS_DONE, k->state);
	EXPECT_EQ(3000, k->t.end);
	EXPECT_EQ(0, k->t.start);
	EXPECT_EQ(1, vgpu_q_reaped());
	vgpu_tg_fini(&T);
}

/*
 * F14: a timeout that ends on a boundary launches the partial block at that
 * boundary: 6 items at 0, N = 4, timeout 256: the 2 left over form a
 * block at 256, not at the next boundary (320).
 */
TEST(f14_timeout_on_a_boundary)
{
	const struct vgpu_event *ev;
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *k;

	ASSERT_EQ(0, vgpu_q_init(&p));
	k = vgpu_q_kernel(0, 4, 64, 256, VGPU_ITEMS);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_EQ(0, vgpu_q_push(k, 0, 6, 0));
	vgpu_tg_until(&T, 1024);
	EXPECT_EQ(2, vgpu_tg_count(&T, VGPU_GEV_COALESCE, k->args.id));
	ev = vgpu_tg_find(&T, VGPU_GEV_COALESCE, k->args.id, 1);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(256, ev->cycle);
	EXPECT_EQ(2, ev->arg0);
	EXPECT_EQ(VGPU_GPU_COALESCE_TIMEOUT, ev->arg1);
	vgpu_tg_fini(&T);
}

/*
 * F14: the timeout counts from the oldest of the items left over, not
 * from the oldest item ever: 5 items at 0 and 2 at 500 (N = 4, timeout
 * 1000): a full block at 0, one at 512 (items 5-8), item 9 (arrived at
 * 500) launches at the first boundary at or after 1500: 1536.  An idle
 * device jumps to it (F51 idle skip).
 */
TEST(f14_timeout_from_oldest_left)
{
	const struct vgpu_event *ev;
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *k;
	u32 epochs = 0;

	ASSERT_EQ(0, vgpu_q_init(&p));
	k = vgpu_q_kernel(0, 4, 64, 1000, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_EQ(0, vgpu_q_push(k, 0, 5, 0));
	ASSERT_EQ(0, vgpu_q_push(k, 500, 4, 0));
	ASSERT_EQ(0, vgpu_q_push(k, 500, 0, VGPU_GPU_PUSH_CLOSE));
	EXPECT_EQ(-EINVAL, vgpu_q_push(k, 600, 1, 0));
	while (!vgpu_gpu_idle(&T.g) && T.g.now < 100000) {
		vgpu_tg_step(&T);
		epochs++;
	}
	ASSERT_TRUE(vgpu_gpu_idle(&T.g));
	ev = vgpu_tg_find(&T, VGPU_GEV_COALESCE, k->args.id, 0);
	EXPECT_EQ(0, ev->cycle);
	EXPECT_EQ(4, ev->arg0);
	ev = vgpu_tg_find(&T, VGPU_GEV_COALESCE, k->args.id, 1);
	EXPECT_EQ(512, ev->cycle);
	EXPECT_EQ(4, ev->arg0);
	EXPECT_EQ(VGPU_GPU_COALESCE_FULL, ev->arg1);
	/* closed: the last item does not wait for its timeout */
	ev = vgpu_tg_find(&T, VGPU_GEV_COALESCE, k->args.id, 2);
	EXPECT_EQ(512, ev->cycle);
	EXPECT_EQ(1, ev->arg0);
	EXPECT_EQ(VGPU_GPU_COALESCE_CLOSE, ev->arg1);
	EXPECT_EQ(3, k->units);
	EXPECT_EQ(VGPU_KS_DONE, k->state);
	vgpu_tg_fini(&T);

	/* the same without the close: the last item times out at 1536 */
	ASSERT_EQ(0, vgpu_q_init(&p));
	k = vgpu_q_kernel(0, 4, 64, 1000, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_EQ(0, vgpu_q_push(k, 0, 5, 0));
	ASSERT_EQ(0, vgpu_q_push(k, 500, 4, 0));
	epochs = 0;
	while (T.g.now < 1536) {
		vgpu_tg_step(&T);
		epochs++;
	}
	vgpu_tg_step(&T);
	ev = vgpu_tg_find(&T, VGPU_GEV_COALESCE, k->args.id, 2);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(1536, ev->cycle);
	EXPECT_EQ(1, ev->arg0);
	EXPECT_EQ(VGPU_GPU_COALESCE_TIMEOUT, ev->arg1);
	/* the idle epochs between 512 and 1536 were skipped */
	EXPECT_LT(epochs, 16);
	ASSERT_EQ(0, vgpu_gpu_cancel(&T.g, k));
	vgpu_tg_fini(&T);
}

/*
 * F14: the partial block's timeout counts from the oldest of the items it
 * would take (the most recent ones), not from the oldest waiting item: 1
 * item at 0 and 4 at 900 (N = 4, timeout 1000) wait while a spinner holds
 * every warp slot of SM 0; freed at 1088, one full block launches (items
 * 1-4) and item 5 (arrived at 900) waits until 1920.
 */
TEST(f14_timeout_of_left_over_items)
{
	struct vgpu_gpu_kernel *k, *hog;
	const struct vgpu_event *ev;
	struct vgpu_gpu_params p;

	ASSERT_EQ(0, vgpu_q_init(&p));
	hog = vgpu_tg_kernel(&T, 1, 0, 2, 1024, 0, VGPU_SPIN);
	hog->args.affinity[0] = 1;
	k = vgpu_q_kernel(0, 4, 64, 1000, VGPU_SHORT);
	k->args.affinity[0] = 1;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, hog));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_EQ(0, vgpu_q_push(k, 0, 1, 0));
	ASSERT_EQ(0, vgpu_q_push(k, 900, 4, 0));
	vgpu_tg_until(&T, 1088);
	EXPECT_EQ(0, k->units);
	EXPECT_EQ(5, k->q.wait);
	ASSERT_EQ(0, vgpu_gpu_cancel(&T.g, hog));
	vgpu_tg_until(&T, 4096);
	ev = vgpu_tg_find(&T, VGPU_GEV_COALESCE, k->args.id, 0);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(1088, ev->cycle);
	EXPECT_EQ(4, ev->arg0);
	ev = vgpu_tg_find(&T, VGPU_GEV_COALESCE, k->args.id, 1);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(1920, ev->cycle);
	EXPECT_EQ(1, ev->arg0);
	EXPECT_EQ(VGPU_GPU_COALESCE_TIMEOUT, ev->arg1);
	ASSERT_EQ(0, vgpu_gpu_cancel(&T.g, k));
	vgpu_tg_fini(&T);
}

/*
 * F14: cancel discards the waiting items and the pushes on their way, an
 * item-less close among them (it was left naming the freed kernel: a
 * use-after-free KASAN found through vgpu_fuzz); every record comes back.  Closing twice, pushing to a grid kernel, unknown
 * flags, more than queue_cap or no items are -EINVAL; more than queue_cap
 * waiting (pending pushes included) is -ENOSPC.
 */
TEST(f14_cancel_enospc_einval)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *k, *grid;

	ASSERT_EQ(0, vgpu_q_init(&p));
	k = vgpu_q_kernel(0, 4, 8, 100000, VGPU_SHORT);
	grid = vgpu_tg_kernel(&T, 1, 0, 1, 32, 0, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, grid));
	EXPECT_EQ(0, vgpu_q_push(k, 0, 5, 0));
	EXPECT_EQ(-ENOSPC, vgpu_q_push(k, 0, 4, 0));
	EXPECT_EQ(0, vgpu_q_push(k, 0, 3, 0));
	EXPECT_EQ(-ENOSPC, vgpu_q_push(k, 0, 1, 0));
	EXPECT_EQ(-EINVAL, vgpu_q_push(k, 0, 9, 0));
	EXPECT_EQ(-EINVAL, vgpu_q_push(k, 0, 0, 0));
	EXPECT_EQ(-EINVAL, vgpu_q_push(k, 0, 1, 2));
	EXPECT_EQ(-EINVAL, vgpu_q_push(grid, 0, 1, 0));
	vgpu_tg_step(&T);
	/* two blocks of 4 launched: the queue is empty again */
	EXPECT_EQ(2, k->units);
	EXPECT_EQ(0, k->q.wait);
	EXPECT_EQ(0, vgpu_q_push(k, 0, 8, 0));
	EXPECT_EQ(-ENOSPC, vgpu_q_push(k, 0, 1, 0));
	vgpu_tg_step(&T);
	EXPECT_EQ(4, k->units);
	EXPECT_EQ(0, vgpu_q_push(k, 0, 3, 0));
	EXPECT_EQ(0, vgpu_q_push(k, 50000, 2, 0));
	/* a close on its way carries no items: q_pending does not count it */
	EXPECT_EQ(0, vgpu_q_push(k, 60000, 0, VGPU_GPU_PUSH_CLOSE));
	vgpu_tg_step(&T);
	EXPECT_EQ(3, k->q.wait);
	EXPECT_EQ(2, k->q.pending);
	EXPECT_EQ(4, k->units);
	ASSERT_EQ(0, vgpu_gpu_cancel(&T.g, k));
	EXPECT_EQ(VGPU_KS_CANCELLED, k->state);
	EXPECT_EQ(0, k->q.wait);
	EXPECT_EQ(0, k->q.pending);
	EXPECT_EQ(-EINVAL, vgpu_q_push(k, 0, 1, 0));
	/*
	 * 5 + 3 + 8 + 3 + 2 and the close: every successful push came back,
	 * none is left naming the cancelled kernel (the module frees it)
	 */
	EXPECT_EQ(6, vgpu_q_reaped());
	EXPECT_TRUE(list_empty(&T.g.pushes));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_EQ(4, k->units);
	EXPECT_EQ(VGPU_GPU_NO_CYCLE, vgpu_gpu_next_arrival(&T.g));
	vgpu_tg_fini(&T);
}

/*
 * F14: a kernel cancelled with only an item-less close on its way (no
 * pending items) drops that push too: left in the device's list it named
 * the freed kernel at its arrival (KASAN, through vgpu_fuzz).
 */
TEST(f14_cancel_with_only_a_close_on_its_way)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *k;

	ASSERT_EQ(0, vgpu_q_init(&p));
	k = vgpu_q_kernel(0, 4, 8, 100000, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	EXPECT_EQ(0, vgpu_q_push(k, 0, 3, 0));
	EXPECT_EQ(0, vgpu_q_push(k, 60000, 0, VGPU_GPU_PUSH_CLOSE));
	vgpu_tg_step(&T);
	EXPECT_EQ(3, k->q.wait);
	EXPECT_EQ(0, k->q.pending);
	ASSERT_EQ(0, vgpu_gpu_cancel(&T.g, k));
	EXPECT_EQ(2, vgpu_q_reaped());
	EXPECT_TRUE(list_empty(&T.g.pushes));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_EQ(VGPU_GPU_NO_CYCLE, vgpu_gpu_next_arrival(&T.g));
	vgpu_tg_fini(&T);
}

/* F14: the queue fields belong to queue kernels, and are bounded. */
TEST(f14_submit_checks)
{
	struct vgpu_gpu_kernel *k;

	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	k = vgpu_q_kernel(0, 4, 8, 100, VGPU_SHORT);
	k->args.grid = 1;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, k));
	k->args.grid = 0;
	k->args.queue_n = VGPU_MAX_COALESCE + 1;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, k));
	k->args.queue_n = 0;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, k));
	k->args.queue_n = VGPU_MAX_COALESCE;
	k->args.queue_cap = 0;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, k));
	k->args.queue_cap = VGPU_MAX_QUEUE_ITEMS + 1;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, k));
	k->args.queue_cap = VGPU_MAX_QUEUE_ITEMS;
	k->args.queue_timeout = 0;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, k));
	k->args.queue_timeout = (1ULL << 32) + 1;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, k));
	k->args.flags = 0;
	k->args.grid = 1;
	k->args.queue_timeout = 0;
	k->args.queue_n = 0;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, k));	/* cap without QUEUE */
	k->args.queue_cap = 0;
	EXPECT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	vgpu_tg_fini(&T);
}

/*
 * F14, seed 002's continuation through a queue task: a running kernel's
 * PUSH sends work items to the queue kernel it names.  Four one-warp
 * blocks of a producer, dispatched at 0, each PUSH 3 items in their first
 * cycles; the controller takes the pushes at the boundary of 64, where
 * the 12 items arrive and launch three full blocks of 4.  The records are
 * the queue kernel's own (8) and come back to it.
 */
TEST(f14_push_instruction_feeds_a_queue)
{
	static struct vgpu_gpu_push rec[8];
	struct vgpu_gpu_kernel *q, *w, *x;
	const struct vgpu_event *ev;
	struct vgpu_gpu_params p;
	struct vgpu_gpu_push *r;
	u32 i, n;

	vgpu_params_small(&p);
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	q = vgpu_q_kernel(0, 4, 64, 200, VGPU_ITEMS);
	q->args.dev_push = rec;
	q->args.n_dev_push = 8;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, q));
	w = vgpu_tg_kernel(&T, 1, 0, 4, 32, 0,
			   "PUSH 3\nLOOP 10\nALU\nENDLOOP\nEXIT\n");
	/* a PUSH needs a target, a target needs a PUSH */
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, w));
	x = vgpu_tg_kernel(&T, 2, 0, 1, 32, 0, "EXIT\n");
	x->args.push_to = q;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, x));
	w->args.push_to = x;		/* not a queue kernel */
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, w));
	w->args.push_to = q;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, w));
	vgpu_tg_until(&T, 1024);
	EXPECT_EQ(4, T.g.stats.dev_pushes);
	EXPECT_EQ(12, T.g.stats.queue_items);
	EXPECT_EQ(3, vgpu_tg_count(&T, VGPU_GEV_COALESCE, q->args.id));
	for (i = 0; i < 3; i++) {
		ev = vgpu_tg_find(&T, VGPU_GEV_COALESCE, q->args.id, i);
		ASSERT_NE(NULL, ev);
		EXPECT_EQ(64, ev->cycle);
		EXPECT_EQ(4, ev->arg0);
		EXPECT_EQ(VGPU_GPU_COALESCE_FULL, ev->arg1);
	}
	EXPECT_EQ(VGPU_KS_DONE, w->state);
	n = 0;
	list_for_each_entry(r, &q->q.dev_free, node)
		n++;
	EXPECT_EQ(8, n);
	EXPECT_EQ(0, vgpu_q_reaped());	/* none of them goes to the caller */
	vgpu_gpu_cancel(&T.g, q);
	vgpu_tg_fini(&T);
}

/*
 * F14: a PUSH that cannot be taken fails its kernel, nothing is dropped
 * unseen.  Two records and four pushes at one boundary: the third finds
 * none (-ENOSPC).  The target cancelled before the boundary: -EPIPE.
 */
TEST(f14_push_refused_fails_the_kernel)
{
	static struct vgpu_gpu_push rec[2];
	struct vgpu_gpu_kernel *q, *w;
	struct vgpu_gpu_params p;
	u32 round;

	for (round = 0; round < 2; round++) {
		vgpu_params_small(&p);
		ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
		q = vgpu_q_kernel(0, 4, 64, 200, VGPU_ITEMS);
		q->args.dev_push = rec;
		q->args.n_dev_push = 2;
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, q));
		w = vgpu_tg_kernel(&T, 1, 0, 4, 32, 0,
				   "PUSH 3\nLOOP 10\nALU\nENDLOOP\nEXIT\n");
		w->args.push_to = q;
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, w));
		vgpu_gpu_dispatch(&T.g);
		vgpu_gpu_advance_range(&T.g, 0, T.g.cfg.num_sms);
		if (round)
			ASSERT_EQ(0, vgpu_gpu_cancel(&T.g, q));
		vgpu_tg_until(&T, 1024);
		EXPECT_EQ(VGPU_KS_FAILED, w->state);
		EXPECT_EQ(round ? -EPIPE : -ENOSPC, w->error);
		EXPECT_EQ(round ? 0 : 2, T.g.stats.dev_pushes);
		if (!round)
			vgpu_gpu_cancel(&T.g, q);
		vgpu_tg_fini(&T);
	}
}

/*
 * F14, items a host holds for pushes on their way (the module's QUEUE_PUSH
 * between its ioctl and the next boundary, q_held) count against
 * queue_cap for everyone: cap 8 with 6 held, a PUSH 3 finds no room
 * (-ENOSPC), with 5 held it fits exactly (8); vgpu_gpu_push_check(), the
 * host's check of its own pushes, counts them the same way.
 */
TEST(f14_held_items_count_for_push)
{
	static struct vgpu_gpu_push rec[2];
	struct vgpu_gpu_push hp = { .items = 3 };
	struct vgpu_gpu_kernel *q, *w;
	struct vgpu_gpu_params p;
	u32 held;

	for (held = 5; held <= 6; held++) {
		vgpu_params_small(&p);
		ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
		q = vgpu_q_kernel(0, 4, 8, 200, VGPU_ITEMS);
		q->args.dev_push = rec;
		q->args.n_dev_push = 2;
		q->args.q_held = held;
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, q));
		EXPECT_EQ(held == 5 ? 0 : -ENOSPC, vgpu_gpu_push_check(q, &hp));
		w = vgpu_tg_kernel(&T, 1, 0, 1, 32, 0, "PUSH 3\nEXIT\n");
		w->args.push_to = q;
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, w));
		vgpu_tg_until(&T, 256);
		EXPECT_EQ(held == 5 ? VGPU_KS_DONE : VGPU_KS_FAILED, w->state);
		EXPECT_EQ(held == 5 ? 0 : -ENOSPC, w->error);
		EXPECT_EQ(held == 5 ? 1 : 0, T.g.stats.dev_pushes);
		q->args.q_held = 0;
		vgpu_gpu_cancel(&T.g, q);
		vgpu_tg_fini(&T);
	}
}

/*
 * F14 with the rest of the controller: a sequential queue kernel has one
 * block in flight; a queue kernel holds its channel until it is closed
 * and drained (F11), then the next kernel of the channel starts.
 */
TEST(f14_sequential_and_channel)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *k, *next;
	const struct vgpu_event *ev;
	u32 i;

	ASSERT_EQ(0, vgpu_q_init(&p));
	k = vgpu_q_kernel(0, 2, 64, 100000, VGPU_SHORT);
	k->args.flags |= VGPU_KF_SEQUENTIAL;
	next = vgpu_tg_kernel(&T, 0, 0, 1, 32, 0, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, next));
	ASSERT_EQ(0, vgpu_q_push(k, 0, 6, 0));
	ASSERT_EQ(0, vgpu_q_push(k, 1000, 0, VGPU_GPU_PUSH_CLOSE));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_EQ(3, k->units);
	for (i = 1; i < 3; i++) {
		/* each block after the previous one completed */
		EXPECT_LT(vgpu_tg_find(&T, VGPU_EV_BLOCK_DONE, k->args.id,
				       i - 1)->cycle,
			  vgpu_tg_find(&T, VGPU_GEV_DISPATCH, k->args.id,
				       i)->cycle);
	}
	/*
	 * the kernel behind it in the channel waits for the close: at 1024
	 * it arrives, the queue kernel completes and leaves its channel
	 */
	ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, next->args.id, 0);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(1024, ev->cycle);
	EXPECT_EQ(VGPU_KS_DONE, k->state);
	EXPECT_EQ(1000, k->t.end);
	vgpu_tg_fini(&T);
}

/* Dispatch order of the first block of each kernel. */
static void vgpu_dispatch_order(u32 *ids, u32 n)
{
	size_t i;
	u32 got = 0, j;
	bool seen;

	for (i = 0; i < T.nev && got < n; i++) {
		if (T.ev[i].type != VGPU_GEV_DISPATCH)
			continue;
		seen = false;
		for (j = 0; j < got; j++)
			seen |= ids[j] == T.ev[i].kernel;
		if (!seen)
			ids[got++] = T.ev[i].kernel;
	}
}

/*
 * F16: kernels of one priority on their own channels, all waiting in the
 * task table: the HEAD kernels go first.  Among the HEAD kernels, and
 * among the others, which entered the table at one boundary, F21 picks
 * at random between the channels (the most recent HEAD first is the
 * order within a channel, f16_head_in_channel_fifo).
 */
TEST(f16_head_overtakes_its_priority)
{
	struct vgpu_gpu_kernel *a, *b, *h, *h2, *hi;
	u32 order[5];

	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	vgpu_gpu_gate(&T.g, true);
	a = vgpu_tg_kernel(&T, 1, 1, 1, 32, 0, VGPU_SHORT);
	b = vgpu_tg_kernel(&T, 2, 1, 1, 32, 0, VGPU_SHORT);
	h = vgpu_tg_kernel(&T, 3, 1, 1, 32, 0, VGPU_SHORT);
	h->args.flags = VGPU_KF_HEAD;
	h2 = vgpu_tg_kernel(&T, 4, 1, 1, 32, 0, VGPU_SHORT);
	h2->args.flags = VGPU_KF_HEAD;
	/* a higher priority still goes before any HEAD of a lower one */
	hi = vgpu_tg_kernel(&T, 5, 0, 1, 32, 0, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, h));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, h2));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, hi));
	vgpu_tg_step(&T);
	EXPECT_EQ(0, vgpu_tg_count(&T, VGPU_GEV_DISPATCH, a->args.id));
	vgpu_gpu_gate(&T.g, false);
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	vgpu_dispatch_order(order, 5);
	EXPECT_EQ(hi->args.id, order[0]);
	EXPECT_TRUE((order[1] == h->args.id && order[2] == h2->args.id) ||
		    (order[1] == h2->args.id && order[2] == h->args.id));
	EXPECT_TRUE((order[3] == a->args.id && order[4] == b->args.id) ||
		    (order[3] == b->args.id && order[4] == a->args.id));
	vgpu_tg_fini(&T);
}

/*
 * F16 and F11: in one channel a HEAD kernel goes ahead of the kernels that
 * have not started (a then b without it: 0, 64, 128), but not ahead of a
 * higher-priority one.
 */
TEST(f16_head_in_channel_fifo)
{
	struct vgpu_gpu_kernel *a, *b, *h, *x;
	bool head;

	for (head = false; ; head = true) {
		ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
		a = vgpu_tg_kernel(&T, 0, 1, 2, 32, 0, VGPU_SHORT);
		b = vgpu_tg_kernel(&T, 0, 1, 2, 32, 0, VGPU_SHORT);
		h = vgpu_tg_kernel(&T, 0, 1, 2, 32, 0, VGPU_SHORT);
		h->args.flags = head ? VGPU_KF_HEAD : 0;
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, h));
		ASSERT_TRUE(vgpu_tg_run(&T, 100000));
		EXPECT_EQ(head ? 64 : 0, a->t.dispatch);
		EXPECT_EQ(head ? 128 : 64, b->t.dispatch);
		EXPECT_EQ(head ? 0 : 128, h->t.dispatch);
		vgpu_tg_fini(&T);
		if (head)
			break;
	}
	/*
	 * The same behind a closed gate (the module's gated batch): the
	 * boundary at 0 sees all three arrive and admits one to the task
	 * table without dispatching; h, moved ahead, is the one admitted and
	 * goes first when the gate opens at the next boundary.
	 */
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	vgpu_gpu_gate(&T.g, true);
	a = vgpu_tg_kernel(&T, 0, 1, 2, 32, 0, VGPU_SHORT);
	b = vgpu_tg_kernel(&T, 0, 1, 2, 32, 0, VGPU_SHORT);
	h = vgpu_tg_kernel(&T, 0, 1, 2, 32, 0, VGPU_SHORT);
	h->args.flags = VGPU_KF_HEAD;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, h));
	vgpu_tg_step(&T);
	EXPECT_EQ(VGPU_GPU_NO_CYCLE, h->t.dispatch);
	vgpu_gpu_gate(&T.g, false);
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_EQ(64, h->t.dispatch);
	EXPECT_EQ(128, a->t.dispatch);
	EXPECT_EQ(192, b->t.dispatch);
	vgpu_tg_fini(&T);

	/* x (priority 0) stays ahead of h (priority 1); a started already */
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	a = vgpu_tg_kernel(&T, 0, 1, 2, 32, 0, VGPU_SHORT);
	x = vgpu_tg_kernel(&T, 0, 0, 2, 32, 0, VGPU_SHORT);
	b = vgpu_tg_kernel(&T, 0, 1, 2, 32, 0, VGPU_SHORT);
	h = vgpu_tg_kernel(&T, 0, 1, 2, 32, 10, VGPU_SHORT);
	h->args.flags = VGPU_KF_HEAD;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, x));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, h));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_EQ(0, a->t.dispatch);
	EXPECT_EQ(64, x->t.dispatch);
	EXPECT_EQ(128, h->t.dispatch);
	EXPECT_EQ(192, b->t.dispatch);
	vgpu_tg_fini(&T);
}

/* First warp start of block @nth of kernel @kid. */
static u64 vgpu_start_of(u32 kid, u32 nth)
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
 * F17: with a sync cost of 100, an SM given a kernel other than the one it
 * held starts that block's warps 100 cycles after the dispatch; the same
 * kernel again starts at once.  SM 0 only: a (sequential, 2 blocks), then
 * b, then a block of a queue kernel.
 */
TEST(f17_state_sync)
{
	struct vgpu_gpu_kernel *a, *b;
	const struct vgpu_event *d, *ev;
	struct vgpu_gpu_params p;
	u32 cost;

	for (cost = 0; cost <= 100; cost += 100) {
		vgpu_params_small(&p);
		p.sync_cost = cost;
		ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
		a = vgpu_tg_kernel(&T, 0, 0, 2, 32, 0, VGPU_SHORT);
		a->args.flags = VGPU_KF_SEQUENTIAL;
		a->args.affinity[0] = 1;
		b = vgpu_tg_kernel(&T, 1, 0, 1, 32, 1000, VGPU_SHORT);
		b->args.affinity[0] = 1;
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
		ASSERT_TRUE(vgpu_tg_run(&T, 100000));
		/* the SM's first kernel is a change too (it held none) */
		d = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, a->args.id, 0);
		EXPECT_EQ(0, d->cycle);
		EXPECT_EQ(d->cycle + cost, vgpu_start_of(a->args.id, 0));
		d = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, a->args.id, 1);
		EXPECT_EQ(d->cycle, vgpu_start_of(a->args.id, 1));
		d = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, b->args.id, 0);
		EXPECT_EQ(1024, d->cycle);
		EXPECT_EQ(1024 + cost, vgpu_start_of(b->args.id, 0));
		EXPECT_EQ(1024 + cost, b->t.start);
		EXPECT_EQ(cost ? 2 : 0, T.g.sm[0].sm.stats.syncs);
		EXPECT_EQ(cost ? 2 : 0, vgpu_tg_count(&T, VGPU_EV_SYNC, a->args.id) +
			  vgpu_tg_count(&T, VGPU_EV_SYNC, b->args.id));
		EXPECT_EQ(b->args.id, T.g.sm[0].sm.last_kernel);
		if (cost) {
			ev = vgpu_tg_find(&T, VGPU_EV_SYNC, b->args.id, 0);
			ASSERT_NE(NULL, ev);
			EXPECT_EQ(1024, ev->cycle);
			EXPECT_EQ(0, ev->sm);
			EXPECT_EQ(a->args.id, ev->arg0);
			EXPECT_EQ(1124, ev->arg1);
			ev = vgpu_tg_find(&T, VGPU_EV_SYNC, a->args.id, 0);
			ASSERT_NE(NULL, ev);
			EXPECT_EQ(VGPU_EV_NONE, ev->arg0);
			EXPECT_EQ(1124, T.g.sm[0].sm.sync_ready);
		}
		/* the other SMs were never given anything */
		EXPECT_EQ(VGPU_EV_NONE, T.g.sm[1].sm.last_kernel);
		vgpu_tg_fini(&T);
	}
	/* the cost is bounded like switch_cost */
	vgpu_params_small(&p);
	p.sync_cost = VGPU_MAX_LATENCY + 1;
	EXPECT_EQ(-EINVAL, vgpu_tg_init(&T, NULL, &p));
	vgpu_tg_fini(&T);
}

/*
 * F17, seed 002: an SM assigned a kernel goes TASK_ASSIGN (the decision)
 * -> STATE_SYNC (the state is out, not yet acknowledged: sync_cost 100) ->
 * READY, and blocks are issued only to SMs READY (or never assigned).
 * Four one-warp blocks of a on SMs 0 and 1, one block per decision in
 * round-robin order: block 0 assigns SM 0, block 1 SM 1; blocks 2 and 3
 * find no READY SM at 0 nor at 64 (both syncing until 100) and go at 128,
 * to SMs 0 and 1, starting at once (the same kernel: no sync).
 */
TEST(f17_blocks_only_to_ready_sms)
{
	struct vgpu_gpu_kernel *a;
	const struct vgpu_event *d;
	struct vgpu_gpu_params p;
	struct vgpu_sm *sm0;
	u32 i;

	vgpu_params_small(&p);
	p.sync_cost = 100;
	p.pack = VGPU_PACK_BLOCK;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	sm0 = &T.g.sm[0].sm;
	EXPECT_EQ(VGPU_SM_PHASE_NONE, vgpu_sm_phase(sm0));
	a = vgpu_tg_kernel(&T, 0, 0, 4, 32, 0,
			   "LOOP 2000\nALU\nENDLOOP\nEXIT\n");
	a->args.affinity[0] = 3;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
	vgpu_gpu_dispatch(&T.g);
	EXPECT_EQ(VGPU_SM_PHASE_TASK_ASSIGN, vgpu_sm_phase(sm0));
	EXPECT_STREQ("assign", vgpu_sm_phase_name(vgpu_sm_phase(sm0)));
	EXPECT_EQ(2, a->next_unit);
	vgpu_gpu_advance_range(&T.g, 0, T.g.cfg.num_sms);
	EXPECT_EQ(VGPU_SM_PHASE_STATE_SYNC, vgpu_sm_phase(sm0));
	vgpu_gpu_dispatch(&T.g);			/* 64 */
	EXPECT_EQ(2, a->next_unit);
	vgpu_gpu_advance_range(&T.g, 0, T.g.cfg.num_sms);
	EXPECT_EQ(VGPU_SM_PHASE_READY, vgpu_sm_phase(sm0));
	EXPECT_STREQ("ready", vgpu_sm_phase_name(vgpu_sm_phase(sm0)));
	vgpu_gpu_dispatch(&T.g);			/* 128 */
	EXPECT_EQ(4, a->next_unit);
	for (i = 0; i < 4; i++) {
		d = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, a->args.id, i);
		ASSERT_NE(NULL, d);
		EXPECT_EQ(i < 2 ? 0 : 128, d->cycle);
		EXPECT_EQ(i % 2, d->sm);
	}
	ASSERT_TRUE(vgpu_tg_run(&T, 1000000));
	EXPECT_EQ(100, vgpu_start_of(a->args.id, 0));
	EXPECT_EQ(128, vgpu_start_of(a->args.id, 2));
	EXPECT_EQ(1, sm0->stats.syncs);
	EXPECT_EQ(1, T.g.sm[1].sm.stats.syncs);
	vgpu_tg_fini(&T);
}

/*
 * F17 in switch mode: a switched-out block that comes back to an SM holding
 * another kernel's state syncs again, and its warps wait for the larger of
 * the switch cost and the sync: with a sync of 200, switch costs 10 and 200
 * end low at the same cycle, 250 ends it 50 cycles later.
 */
TEST(f17_sync_on_restore)
{
	static const u32 sw[3] = { 10, 200, 250 };
	struct vgpu_gpu_kernel *low, *high;
	struct vgpu_gpu_params p;
	const struct vgpu_event *ev;
	u64 end[3];
	u32 i;

	for (i = 0; i < 3; i++) {
		vgpu_params_small(&p);
		p.preempt = VGPU_PREEMPT_SWITCH;
		p.switch_cost = sw[i];
		p.sync_cost = 200;
		ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
		low = vgpu_tg_kernel(&T, 0, 3, 1, 1024, 0,
				     "LOOP 3000\nALU\nENDLOOP\nEXIT\n");
		low->args.affinity[0] = 1;
		low->args.smem = 100 * 1024;
		high = vgpu_tg_kernel(&T, 1, 0, 1, 1024, 512, VGPU_SHORT);
		high->args.affinity[0] = 1;
		high->args.smem = 100 * 1024;
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, low));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, high));
		ASSERT_TRUE(vgpu_tg_run(&T, 1000000));
		EXPECT_EQ(1, low->preempted);
		EXPECT_EQ(512 + 200, high->t.start);
		/* low comes back after high: a third sync on SM 0 */
		ev = vgpu_tg_find(&T, VGPU_EV_SYNC, low->args.id, 1);
		ASSERT_NE(NULL, ev);
		EXPECT_EQ(high->args.id, ev->arg0);
		EXPECT_EQ(ev->cycle + 200, ev->arg1);
		EXPECT_EQ(3, T.g.sm[0].sm.stats.syncs);
		EXPECT_EQ(VGPU_KS_DONE, low->state);
		end[i] = low->t.end;
		vgpu_tg_fini(&T);
	}
	EXPECT_EQ(end[0], end[1]);
	EXPECT_EQ(end[1] + 50, end[2]);
}

/*
 * F14: a PUSH's target must have entered the device, be unfinished and
 * not closed (vgpu_gpu_push_target_check()); each alone refuses the
 * pushing kernel at submission with -EINVAL, an open target takes it.
 */
TEST(f14_push_target_states_each_alone)
{
	VGPU_TEST_BIG struct vgpu_gpu_push rec[4][2];
	struct vgpu_gpu_kernel *q[4], *w;
	struct vgpu_gpu_params p;
	u32 i;

	ASSERT_EQ(0, vgpu_q_init(&p));
	memset(rec, 0, sizeof(rec));
	for (i = 0; i < 4; i++) {
		q[i] = vgpu_q_kernel(i, 4, 64, 200, VGPU_ITEMS);
		q[i]->args.dev_push = rec[i];
		q[i]->args.n_dev_push = 2;
	}
	/* q[0] not submitted; q[1] open; q[2] closed; q[3] cancelled */
	for (i = 1; i < 4; i++)
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, q[i]));
	ASSERT_EQ(0, vgpu_q_push(q[2], 0, 0, VGPU_GPU_PUSH_CLOSE));
	vgpu_gpu_cancel(&T.g, q[3]);
	ASSERT_TRUE(vgpu_gpu_kernel_finished(q[3]));
	ASSERT_FALSE(q[3]->q.closing);
	for (i = 0; i < 4; i++) {
		w = vgpu_tg_kernel(&T, 5 + i, 0, 1, 32, 0, "PUSH 1\nEXIT\n");
		w->args.push_to = q[i];
		EXPECT_EQ(i == 1 ? 0 : -EINVAL, vgpu_gpu_submit(&T.g, w))
			TH_LOG("target %u", i);
	}
	vgpu_gpu_cancel(&T.g, q[1]);
	vgpu_gpu_cancel(&T.g, q[2]);
	vgpu_tg_run(&T, 100000);
	vgpu_tg_fini(&T);
}

VGPU_TEST_SUITE(queue,
	VGPU_CASE(f14_full_blocks_then_partial_after_timeout)
	VGPU_CASE(f14_timeout_on_a_boundary)
	VGPU_CASE(f14_timeout_from_oldest_left)
	VGPU_CASE(f14_timeout_of_left_over_items)
	VGPU_CASE(f14_cancel_enospc_einval)
	VGPU_CASE(f14_cancel_with_only_a_close_on_its_way)
	VGPU_CASE(f14_submit_checks)
	VGPU_CASE(f14_push_instruction_feeds_a_queue)
	VGPU_CASE(f14_push_refused_fails_the_kernel)
	VGPU_CASE(f14_push_target_states_each_alone)
	VGPU_CASE(f14_held_items_count_for_push)
	VGPU_CASE(f14_sequential_and_channel)
	VGPU_CASE(f16_head_overtakes_its_priority)
	VGPU_CASE(f16_head_in_channel_fifo)
	VGPU_CASE(f17_state_sync)
	VGPU_CASE(f17_blocks_only_to_ready_sms)
	VGPU_CASE(f17_sync_on_restore))
