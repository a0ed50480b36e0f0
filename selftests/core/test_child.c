// SPDX-License-Identifier: GPL-2.0
/*
 * Child kernels (F15): LAUNCH in the SM engine and the global
 * controller.  Exact outcomes: a child launched with WAIT runs while its
 * parent's block is switched out and the block resumes after it (end
 * cycle); a LAUNCH without WAIT runs concurrently and the parent completes
 * after its child; the suspended block's resources serve another kernel
 * meanwhile; a block that finds no save record waits on its SM and wakes
 * there; the depth limit (-ELOOP) and the child budget (-EDQUOT) stop a
 * template that launches itself; cancel stops the whole tree; the trace is
 * the same however the SMs are spread over threads (F51).
 *
 * Timing used below (Documentation/engine.rst): ALU 4 cycles, control
 * instructions 1, epochs of 64 cycles, switch cost 64.  A child "LOOP 100 /
 * ALU / ENDLOOP / EXIT" dispatched at cycle d ends at d + 501.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "vgpu_test.h"
#include "vgpu_test_gpu.h"

static struct vgpu_tg T;

#define VGPU_T_ROOTS	4

/* Templates and child storage of up to VGPU_T_ROOTS submitted kernels. */
static struct vgpu_gpu_template vgpu_t_tmpl[VGPU_T_ROOTS][VGPU_MAX_TEMPLATES];
static struct vgpu_vasm_prog vgpu_t_tprog[VGPU_T_ROOTS][VGPU_MAX_TEMPLATES];
static u16 vgpu_t_tmatch[VGPU_T_ROOTS][VGPU_MAX_TEMPLATES][256];
static struct vgpu_gpu_kernel vgpu_t_store[VGPU_T_ROOTS][VGPU_MAX_CHILDREN];

#define P_WAIT		"ALU\nLAUNCH 0, wait\nALU\nEXIT\n"
#define C_LONG		"LOOP 100\nALU\nENDLOOP\nEXIT\n"	/* 501 cycles */
#define C_SHORT		"LOOP 10\nALU\nENDLOOP\nEXIT\n"		/* 51 cycles */

/* Template @i of root @r: one block of @threads threads running @src. */
static struct vgpu_gpu_template *vgpu_t_template(u32 r, u32 i, u32 threads,
						 const char *src)
{
	struct vgpu_gpu_template *t = &vgpu_t_tmpl[r][i];
	char err[256];

	if (vgpul_vasm_assemble("tmpl", src, strlen(src), 0,
			       &vgpu_t_tprog[r][i], err, sizeof(err))) {
		fprintf(stderr, "# template: %s\n", err);
		abort();
	}
	memset(t, 0, sizeof(*t));
	t->grid = 1;
	t->threads = threads;
	t->regs = 32;
	t->prog = vgpu_t_tprog[r][i].insns;
	t->n_insns = vgpu_t_tprog[r][i].n;
	t->match = vgpu_t_tmatch[r][i];
	return t;
}

/* Give kernel @k root slot @r's @ntmpl templates and a child budget. */
static void vgpu_t_tree(struct vgpu_gpu_kernel *k, u32 r, u32 ntmpl,
			u32 budget)
{
	k->args.tmpl = ntmpl ? vgpu_t_tmpl[r] : NULL;
	k->args.n_tmpl = ntmpl;
	k->args.child_budget = budget;
	k->args.child_store = budget ? vgpu_t_store[r] : NULL;
}

static void vgpu_t_fini(void)
{
	u32 r, i;

	vgpu_tg_fini(&T);
	for (r = 0; r < VGPU_T_ROOTS; r++)
		for (i = 0; i < VGPU_MAX_TEMPLATES; i++)
			vgpul_vasm_free(&vgpu_t_tprog[r][i]);
}

/* Nothing left anywhere: no kernel, empty SMs, every save record free. */
static bool vgpu_t_clean(const struct vgpu_gpu *g)
{
	const struct list_head *e;
	u32 i, n = 0;

	for (e = g->saved_free.next; e != &g->saved_free; e = e->next)
		n++;
	for (i = 0; i < g->cfg.num_sms; i++)
		if (!vgpu_gpu_sm_empty(g, i) || g->sm[i].shadow_used)
			return false;
	return vgpu_gpu_idle(g) && n == g->p.save_slots &&
	       list_empty(&g->direct) && list_empty(&g->inplace);
}

/*
 * F15: LAUNCH WAIT switches the parent's block out at the boundary after
 * the launch; the child (at the parent's priority, into the task table
 * directly) runs; the block comes back by the resume path after it and
 * pays the switch cost.  Parent: warp starts at 0, ALU at 0, LAUNCH WAIT
 * at 4 (block parked).  Boundary 64: child created (arrival 4), block
 * switched out, child dispatched on SM 1 and done at 64 + 501 = 565.
 * Boundary 576: the block resumes (SM 2); its warp goes on at 576 + 64 +
 * 1, ALU at 641, EXIT at 645.
 */
TEST(wait_child_runs_before_parent_resumes)
{
	const struct vgpu_event *ev;
	struct vgpu_gpu_kernel *p, *c;

	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	vgpu_t_template(0, 0, 32, C_LONG);
	p = vgpu_tg_kernel(&T, 0, 1, 1, 32, 0, P_WAIT);
	vgpu_t_tree(p, 0, 1, 4);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, p));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));

	c = &vgpu_t_store[0][0];
	EXPECT_EQ(1, p->child.launched);
	EXPECT_EQ(VGPU_KS_DONE, p->state);
	EXPECT_EQ(VGPU_KS_DONE, c->state);
	EXPECT_EQ(VGPU_GPU_CHILD_ID0, c->args.id);
	EXPECT_EQ(p, c->child.parent);
	EXPECT_EQ(1, c->child.depth);
	EXPECT_EQ(p->args.prio, c->args.prio);
	EXPECT_EQ(4, c->t.submit);
	EXPECT_EQ(64, c->t.dispatch);
	EXPECT_EQ(565, c->t.end);
	EXPECT_EQ(645, p->t.end);

	ev = vgpu_tg_find(&T, VGPU_EV_LAUNCH, p->args.id, 0);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(4, ev->cycle);
	EXPECT_EQ(VGPU_LAUNCH_WAIT, ev->arg1);
	ev = vgpu_tg_find(&T, VGPU_GEV_LAUNCH, c->args.id, 0);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(p->args.id, ev->arg0);
	EXPECT_EQ(0 | VGPU_LAUNCH_WAIT << 8 | 1 << 16, ev->arg1);
	ev = vgpu_tg_find(&T, VGPU_GEV_SUSPEND, p->args.id, 0);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(64, ev->cycle);
	EXPECT_EQ(c->args.id, ev->arg0);
	EXPECT_EQ(1, ev->arg1);		/* switched out */
	/* the child enters the task table without a channel */
	EXPECT_NE(NULL, vgpu_tg_find(&T, VGPU_GEV_ADMIT, c->args.id, 0));
	ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, p->args.id, 1);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(576, ev->cycle);
	EXPECT_EQ(VGPU_PATH_RESUME, ev->arg0);
	EXPECT_EQ(1, T.g.stats.children);
	EXPECT_EQ(1, T.g.stats.suspensions);
	EXPECT_EQ(1, T.g.stats.resumes);
	EXPECT_TRUE(vgpu_t_clean(&T.g));
	vgpu_t_fini();
}

/*
 * F15: without WAIT the block goes on; the child runs at the same time
 * (dispatched at 64 while the parent's block runs until 502) and the
 * parent completes after its child, at the child's end.
 */
TEST(nowait_child_runs_concurrently)
{
	const struct vgpu_event *done, *kd;
	struct vgpu_gpu_kernel *p, *c;

	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	vgpu_t_template(0, 0, 32, C_LONG);
	p = vgpu_tg_kernel(&T, 0, 1, 1, 32, 0, "LAUNCH 0\n" C_LONG);
	vgpu_t_tree(p, 0, 1, 1);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, p));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));

	c = &vgpu_t_store[0][0];
	done = vgpu_tg_find(&T, VGPU_EV_BLOCK_DONE, p->args.id, 0);
	ASSERT_NE(NULL, done);
	EXPECT_EQ(502, done->cycle);
	EXPECT_EQ(0, c->t.submit);
	EXPECT_EQ(64, c->t.dispatch);
	EXPECT_EQ(565, c->t.end);
	EXPECT_EQ(565, p->t.end);
	EXPECT_EQ(0, T.g.stats.suspensions);
	/* the child's KERNEL_DONE comes first */
	kd = vgpu_tg_find(&T, VGPU_GEV_KERNEL_DONE, c->args.id, 0);
	ASSERT_NE(NULL, kd);
	EXPECT_LT(kd, vgpu_tg_find(&T, VGPU_GEV_KERNEL_DONE, p->args.id, 0));
	EXPECT_TRUE(vgpu_t_clean(&T.g));
	vgpu_t_fini();
}

/*
 * F15: a kernel ends when its last block and its last child have, the
 * later of the two, also when both end in the same epoch in the other
 * order.  The parent's block launches a no-wait child (C_LONG, 501 cycles
 * from its dispatch at the boundary 64: it ends at 565) and runs 113
 * iterations of its own (5 x 113 + 2 = 567 cycles: it ends at 567); both
 * are collected at the boundary 576.  The parent ends at 567, not at its
 * child's 565.
 */
TEST(parent_ends_after_its_child_in_one_epoch)
{
	const struct vgpu_event *done;
	struct vgpu_gpu_kernel *p, *c;

	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	vgpu_t_template(0, 0, 32, C_LONG);
	p = vgpu_tg_kernel(&T, 0, 1, 1, 32, 0,
			   "LAUNCH 0\nLOOP 113\nALU\nENDLOOP\nEXIT\n");
	vgpu_t_tree(p, 0, 1, 1);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, p));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));

	c = &vgpu_t_store[0][0];
	EXPECT_EQ(64, c->t.dispatch);
	EXPECT_EQ(565, c->t.end);
	done = vgpu_tg_find(&T, VGPU_EV_BLOCK_DONE, p->args.id, 0);
	ASSERT_NE(NULL, done);
	EXPECT_EQ(567, done->cycle);
	EXPECT_EQ(567, p->t.end);
	EXPECT_TRUE(vgpu_t_clean(&T.g));
	vgpu_t_fini();
}

/*
 * F20 with a full task table never displaces a child (F15: it came
 * through no channel, so it has none to go back to).  Two slots.  P
 * (channel 0, one block, 100 KB of shared memory) launches C, whose
 * whole-SM block (100 KB, BAR) fits nowhere while P and H (channel 1, six
 * blocks of 100 KB) hold 100 KB on every SM; P leaves the table with its
 * block dispatched, H stays there with three blocks that fit nowhere, and
 * C takes the other slot.  Q (channel 2, a small block that fits beside
 * them) arrives at 1,024 to a full table whose occupants both fail to
 * match: H has blocks on the SMs, C is a child, so neither makes room,
 * and Q waits for a slot until H's first blocks end (2,000 ALUs each: at
 * least 10,000 cycles).
 */
TEST(full_table_never_displaces_a_child)
{
	struct vgpu_gpu_kernel *pk, *h, *q, *c;
	struct vgpu_gpu_template *t;
	struct vgpu_gpu_params p;
	u32 i;

	vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
	p.task_slots = 2;
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &p));
	t = vgpu_t_template(0, 0, 1024, "LOOP 10\nALU\nBAR\nENDLOOP\nEXIT\n");
	t->smem = 100 * 1024;
	pk = vgpu_tg_kernel(&T, 0, 0, 1, 1024, 0,
			    "LAUNCH 0\nLOOP 3000\nALU\nENDLOOP\nEXIT\n");
	pk->args.smem = 100 * 1024;
	vgpu_t_tree(pk, 0, 1, 1);
	h = vgpu_tg_kernel(&T, 1, 0, 6, 1024, 0,
			   "LOOP 2000\nALU\nENDLOOP\nEXIT\n");
	h->args.smem = 100 * 1024;
	q = vgpu_tg_kernel(&T, 2, 0, 1, 256, 1024, "ALU\nEXIT\n");
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, pk));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, h));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, q));
	ASSERT_TRUE(vgpu_tg_run(&T, 1000000));

	c = &vgpu_t_store[0][0];
	EXPECT_EQ(VGPU_KS_DONE, c->state);
	EXPECT_EQ(VGPU_KS_DONE, q->state);
	EXPECT_EQ(VGPU_KS_DONE, h->state);
	EXPECT_LE(10000, q->t.dispatch);
	for (i = 0; i < T.nev; i++)
		EXPECT_NE(VGPU_GEV_EVICT, T.ev[i].type);
	EXPECT_TRUE(vgpu_t_clean(&T.g));
	vgpu_t_fini();
}

/*
 * F15: a child never passes through its parent's channel.  P (channel 0,
 * SM 0) launches a child at once; Q, queued behind P in channel 0, has 24
 * blocks of 1,024 threads that can only run on SMs 1-3 (two at a time on
 * each, 8,000 cycles each), so channel 0 presents Q for some 32,000
 * cycles.  The child enters the task table directly and is dispatched at
 * the first boundary, 64, on SM 0, as if channel 0 were empty.
 */
TEST(child_bypasses_parent_channel)
{
	struct vgpu_gpu_kernel *p, *q, *c;

	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	vgpu_t_template(0, 0, 32, C_LONG);
	p = vgpu_tg_kernel(&T, 0, 1, 1, 32, 0, "LAUNCH 0\n" C_LONG);
	vgpu_t_tree(p, 0, 1, 1);
	p->args.affinity[0] = 1;
	q = vgpu_tg_kernel(&T, 0, 1, 24, 1024, 0,
			   "LOOP 2000\nALU\nENDLOOP\nEXIT\n");
	q->args.affinity[0] = 0xe;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, p));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, q));
	vgpu_tg_until(&T, 1024);
	c = &vgpu_t_store[0][0];
	EXPECT_EQ(64, c->t.dispatch);
	EXPECT_LT(0, q->units - q->next_unit);	/* Q still presents blocks */
	ASSERT_TRUE(vgpu_tg_run(&T, 10000000));
	EXPECT_EQ(565, c->t.end);
	EXPECT_TRUE(vgpu_t_clean(&T.g));
	vgpu_t_fini();
}

/*
 * F15: the suspended block gives its SM back.  The parent's block takes
 * 100 KiB of SM 0's 164 KiB (its only SM); X (priority 0, same needs,
 * same SM) arrives at 32 and can only run there: it is dispatched at 64,
 * while the parent waits for its child, and ends at 64 + 51 = 115.  The
 * parent comes back to SM 0 at 576 and ends at 645.
 */
TEST(suspended_block_releases_its_resources)
{
	struct vgpu_gpu_params pr;
	struct vgpu_gpu_kernel *p, *x, *c;
	const struct vgpu_event *ev;

	vgpu_tg_params_small(&pr, VGPU_PREEMPT_DRAIN);
	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &pr));
	vgpu_t_template(0, 0, 32, C_LONG);
	p = vgpu_tg_kernel(&T, 0, 1, 1, 32, 0, P_WAIT);
	p->args.smem = 100 * 1024;
	p->args.affinity[0] = 1;
	vgpu_t_tree(p, 0, 1, 1);
	x = vgpu_tg_kernel(&T, 1, 0, 1, 32, 32, C_SHORT);
	x->args.smem = 100 * 1024;
	x->args.affinity[0] = 1;
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, p));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, x));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));

	c = &vgpu_t_store[0][0];
	EXPECT_EQ(64, x->t.dispatch);
	EXPECT_EQ(115, x->t.end);
	EXPECT_EQ(64, c->t.dispatch);
	EXPECT_EQ(565, c->t.end);
	EXPECT_EQ(645, p->t.end);
	ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, x->args.id, 0);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(0, ev->sm);
	ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, p->args.id, 1);
	ASSERT_NE(NULL, ev);
	EXPECT_EQ(0, ev->sm);
	EXPECT_EQ(VGPU_PATH_RESUME, ev->arg0);
	EXPECT_EQ(576, ev->cycle);
	EXPECT_TRUE(vgpu_t_clean(&T.g));
	vgpu_t_fini();
}

/*
 * F15 with one save record: two parents (SM 0, SM 1) launch with WAIT at
 * cycle 4.  At 64 the first LAUNCH in (cycle, SM) order takes the record,
 * the other block waits on its SM holding its resources.
 * Run 0: the waiting one's child is short (done at 115): the block wakes
 * on its SM at 128, goes on at 129 and ends at 133, no switch cost.
 * Run 1: the switched-out one's child is short: its block resumes at 128
 * (ends at 128 + 65 + 4 = 197) and gives the record back, so at the next
 * boundary (192) the waiting block is switched out; its child ends at 565,
 * it resumes at 576 and ends at 645.
 */
TEST(no_save_record_waits_on_its_sm)
{
	struct vgpu_gpu_kernel *p[2];
	struct vgpu_gpu_params pr;
	const struct vgpu_event *ev;
	u32 run;

	for (run = 0; run < 2; run++) {
		vgpu_tg_params_small(&pr, VGPU_PREEMPT_WARP);
		pr.save_slots = 1;
		ASSERT_EQ(0, vgpu_tg_init(&T, NULL, &pr));
		vgpu_t_template(0, 0, 32, run ? C_SHORT : C_LONG);
		vgpu_t_template(1, 0, 32, run ? C_LONG : C_SHORT);
		p[0] = vgpu_tg_kernel(&T, 0, 1, 1, 32, 0, P_WAIT);
		vgpu_t_tree(p[0], 0, 1, 1);
		p[1] = vgpu_tg_kernel(&T, 1, 1, 1, 32, 0, P_WAIT);
		vgpu_t_tree(p[1], 1, 1, 1);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, p[0]));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, p[1]));
		ASSERT_TRUE(vgpu_tg_run(&T, 100000));

		ev = vgpu_tg_find(&T, VGPU_GEV_SUSPEND, p[0]->args.id, 0);
		ASSERT_NE(NULL, ev);
		EXPECT_EQ(64, ev->cycle);
		EXPECT_EQ(0, ev->sm);
		EXPECT_EQ(1, ev->arg1);
		ev = vgpu_tg_find(&T, VGPU_GEV_SUSPEND, p[1]->args.id, 0);
		ASSERT_NE(NULL, ev);
		EXPECT_EQ(64, ev->cycle);
		EXPECT_EQ(1, ev->sm);
		EXPECT_EQ(0, ev->arg1);		/* waits on SM 1 */
		if (!run) {
			ev = vgpu_tg_find(&T, VGPU_GEV_WAKE, p[1]->args.id, 0);
			ASSERT_NE(NULL, ev);
			EXPECT_EQ(128, ev->cycle);
			EXPECT_EQ(1, ev->sm);
			EXPECT_EQ(133, p[1]->t.end);
			EXPECT_EQ(645, p[0]->t.end);
			EXPECT_EQ(1, T.g.stats.suspensions);
		} else {
			ev = vgpu_tg_find(&T, VGPU_GEV_SUSPEND, p[1]->args.id, 1);
			ASSERT_NE(NULL, ev);
			EXPECT_EQ(192, ev->cycle);
			EXPECT_EQ(1, ev->arg1);	/* switched out now */
			EXPECT_EQ(NULL, vgpu_tg_find(&T, VGPU_GEV_WAKE,
						     p[1]->args.id, 0));
			EXPECT_EQ(197, p[0]->t.end);
			EXPECT_EQ(645, p[1]->t.end);
			EXPECT_EQ(2, T.g.stats.suspensions);
		}
		EXPECT_EQ(VGPU_KS_DONE, p[0]->state);
		EXPECT_EQ(VGPU_KS_DONE, p[1]->state);
		EXPECT_TRUE(vgpu_t_clean(&T.g));
		vgpu_t_fini();
	}
}

/*
 * F15 depth limit: a template that launches itself (with and without
 * WAIT).  Depths 0..VGPU_MAX_DEPTH exist; the LAUNCH of the kernel at
 * depth VGPU_MAX_DEPTH fails it with -ELOOP, and with it each ancestor up
 * to the submitted kernel; nothing is left on the device.
 */
TEST(depth_limit_stops_recursion)
{
	static const char *const src[] = {
		"LAUNCH 0, wait\nEXIT\n", "LAUNCH 0\nEXIT\n",
	};
	struct vgpu_gpu_kernel *p, *c;
	u32 run, i;

	for (run = 0; run < 2; run++) {
		ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
		vgpu_t_template(0, 0, 32, src[run]);
		p = vgpu_tg_kernel(&T, 0, 2, 1, 32, 0, src[run]);
		vgpu_t_tree(p, 0, 1, 100);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, p));
		ASSERT_TRUE(vgpu_tg_run(&T, 1000000));

		EXPECT_EQ(VGPU_KS_FAILED, p->state);
		EXPECT_EQ(-ELOOP, p->error);
		EXPECT_EQ(VGPU_MAX_DEPTH, p->child.launched);
		EXPECT_EQ(VGPU_MAX_DEPTH, T.g.stats.children);
		for (i = 0; i < VGPU_MAX_DEPTH; i++) {
			c = &vgpu_t_store[0][i];
			EXPECT_EQ(i + 1, c->child.depth);
			EXPECT_EQ(VGPU_KS_FAILED, c->state);
			EXPECT_EQ(-ELOOP, c->error);
		}
		EXPECT_EQ(VGPU_MAX_DEPTH + 1, T.g.stats.failed);
		EXPECT_EQ(VGPU_MAX_DEPTH + 1,
			  vgpu_tg_count(&T, VGPU_GEV_FAIL, p->args.id) +
			  T.g.stats.children);
		EXPECT_EQ(ELOOP, vgpu_tg_find(&T, VGPU_GEV_FAIL, p->args.id, 0)->arg0);
		EXPECT_TRUE(vgpu_t_clean(&T.g));
		vgpu_t_fini();
	}
}

/*
 * F15 child budget, shared by the whole tree: a template launching itself
 * twice fans out; the sixth LAUNCH of a tree with budget 5 fails.  Budget
 * 0: the submitted kernel's own LAUNCH fails it, its block removed.
 */
TEST(budget_limit_stops_recursion)
{
	struct vgpu_gpu_kernel *p, *o;
	u32 i, failed = 0;

	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	vgpu_t_template(0, 0, 32, "LAUNCH 0\nLAUNCH 0\n" C_SHORT);
	p = vgpu_tg_kernel(&T, 0, 2, 1, 32, 0, "LAUNCH 0\n" C_SHORT);
	vgpu_t_tree(p, 0, 1, 5);
	/* an unrelated kernel goes on */
	o = vgpu_tg_kernel(&T, 1, 2, 4, 64, 0, C_LONG);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, p));
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, o));
	ASSERT_TRUE(vgpu_tg_run(&T, 1000000));
	EXPECT_EQ(VGPU_KS_FAILED, p->state);
	EXPECT_EQ(-EDQUOT, p->error);
	EXPECT_EQ(5, p->child.launched);
	EXPECT_EQ(5, T.g.stats.children);
	for (i = 0; i < 5; i++)
		failed += vgpu_t_store[0][i].state == VGPU_KS_FAILED;
	/* the path from the launching kernel to the root failed */
	EXPECT_EQ(failed + 1, T.g.stats.failed);
	EXPECT_LE(1, failed);
	EXPECT_EQ(VGPU_KS_DONE, o->state);
	EXPECT_EQ(4, o->done_units);
	EXPECT_TRUE(vgpu_t_clean(&T.g));
	vgpu_t_fini();

	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	vgpu_t_template(0, 0, 32, C_SHORT);
	p = vgpu_tg_kernel(&T, 0, 2, 1, 32, 0, P_WAIT);
	vgpu_t_tree(p, 0, 1, 0);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, p));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_EQ(VGPU_KS_FAILED, p->state);
	EXPECT_EQ(-EDQUOT, p->error);
	EXPECT_EQ(0, T.g.stats.children);
	EXPECT_EQ(1, vgpu_tg_find(&T, VGPU_GEV_FAIL, p->args.id, 0)->arg1);
	EXPECT_EQ(64, vgpu_tg_find(&T, VGPU_GEV_FAIL, p->args.id, 0)->cycle);
	EXPECT_TRUE(vgpu_t_clean(&T.g));
	vgpu_t_fini();
}

/* F15, F53: cancelling the submitted kernel stops its whole tree. */
TEST(cancel_stops_the_tree)
{
	struct vgpu_gpu_kernel *p;
	u32 i;

	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	vgpu_t_template(0, 0, 32, "LAUNCH 1, wait\nLAUNCH 1\nEXIT\n");
	vgpu_t_template(0, 1, 64, "SPIN\nEXIT\n");
	p = vgpu_tg_kernel(&T, 0, 2, 2, 32, 0, P_WAIT);
	vgpu_t_tree(p, 0, 2, 16);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, p));
	vgpu_tg_until(&T, 640);
	/* 2 children, each waiting for a spinning grandchild */
	EXPECT_EQ(4, p->child.launched);
	for (i = 0; i < 4; i++)
		EXPECT_FALSE(vgpu_gpu_kernel_finished(&vgpu_t_store[0][i]));
	EXPECT_EQ(-EINVAL, vgpu_gpu_cancel(&T.g, &vgpu_t_store[0][0]));
	ASSERT_EQ(0, vgpu_gpu_cancel(&T.g, p));
	EXPECT_EQ(VGPU_KS_CANCELLED, p->state);
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(VGPU_KS_CANCELLED, vgpu_t_store[0][i].state);
		EXPECT_EQ(-ECANCELED, vgpu_t_store[0][i].error);
	}
	EXPECT_EQ(5, vgpu_tg_count(&T, VGPU_GEV_CANCEL, p->args.id) + 4);
	EXPECT_TRUE(vgpu_t_clean(&T.g));
	EXPECT_EQ(-EINVAL, vgpu_gpu_cancel(&T.g, p));
	vgpu_t_fini();
}

/* F15: what vgpu_gpu_submit() refuses in templates and LAUNCHes. */
TEST(submit_checks_templates)
{
	struct vgpu_gpu_template *t;
	struct vgpu_gpu_kernel *p;

	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	vgpu_t_template(0, 0, 32, "LAUNCH 1\nEXIT\n");
	vgpu_t_template(0, 1, 32, "EXIT\n");
	p = vgpu_tg_kernel(&T, 0, 2, 1, 32, 0, "LAUNCH 0, wait\nEXIT\n");
	/* LAUNCH 1 with a single template, in the kernel or a template */
	vgpu_t_tree(p, 0, 1, 4);
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, p));
	vgpu_t_tree(p, 0, 2, 4);
	t = &vgpu_t_tmpl[0][0];
	t->flags = VGPU_KF_THROTTLE;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, p));
	t->flags = VGPU_KF_INDEPENDENT;		/* with a LAUNCH */
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, p));
	t->flags = 0;
	t->grid = 0;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, p));
	t->grid = 1;
	t->smem = 200 * 1024;			/* never fits an SM */
	EXPECT_EQ(-E2BIG, vgpu_gpu_submit(&T.g, p));
	t->smem = 0;
	vgpu_t_tree(p, 0, VGPU_MAX_TEMPLATES + 1, 4);
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, p));
	vgpu_t_tree(p, 0, 2, VGPU_MAX_CHILDREN + 1);
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, p));
	vgpu_t_tree(p, 0, 2, 4);
	p->args.child_store = NULL;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, p));
	vgpu_t_tree(p, 0, 2, 4);
	p->args.flags = VGPU_KF_INDEPENDENT;
	EXPECT_EQ(-EINVAL, vgpu_gpu_submit(&T.g, p));
	p->args.flags = 0;
	EXPECT_EQ(0, vgpu_gpu_submit(&T.g, p));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_EQ(VGPU_KS_DONE, p->state);
	EXPECT_EQ(2, p->child.launched);
	EXPECT_EQ(0, vgpu_t_store[0][0].child.tmpl_idx);
	EXPECT_EQ(1, vgpu_t_store[0][1].child.tmpl_idx);
	EXPECT_EQ(2, vgpu_t_store[0][1].child.depth);
	vgpu_t_fini();
}

/*
 * A LAUNCH WAIT kernel is never partially resident (F23 barrier rule): a
 * block that only fits warp by warp waits for a whole SM, where the same
 * kernel with a LAUNCH that does not wait starts by path (b) at once.
 */
TEST(launch_wait_block_is_never_partial)
{
	static const char *const src[] = {
		P_WAIT, "ALU\nLAUNCH 0\nALU\nEXIT\n",
	};
	struct vgpu_gpu_kernel *hog, *p;
	const struct vgpu_event *ev;
	u32 run;

	for (run = 0; run < 2; run++) {
		ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
		vgpu_t_template(0, 0, 32, C_SHORT);
		/* 48 of 64 warp slots of every SM busy until about 5000 */
		hog = vgpu_tg_kernel(&T, 0, 3, 8, 768, 0,
				     "LOOP 1000\nALU\nENDLOOP\nEXIT\n");
		p = vgpu_tg_kernel(&T, 1, 3, 1, 1024, 64, src[run]);
		vgpu_t_tree(p, 0, 1, 1);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, hog));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, p));
		ASSERT_TRUE(vgpu_tg_run(&T, 1000000));
		ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH, p->args.id, 0);
		ASSERT_NE(NULL, ev);
		if (!run) {
			EXPECT_EQ(VGPU_PATH_BLOCK, ev->arg0);
			EXPECT_LE(hog->t.end, ev->cycle);
		} else {
			EXPECT_EQ(VGPU_PATH_WARP, ev->arg0);
			EXPECT_EQ(64, ev->cycle);
		}
		EXPECT_EQ(VGPU_KS_DONE, p->state);
		vgpu_t_fini();
	}
}

/*
 * A full launch queue (VGPU_SM_LAUNCH_QUEUE per SM and epoch) delays a
 * LAUNCH to the next epoch, it never loses one: 40 children from one
 * block in a loop all run.
 */
TEST(launch_queue_delays_never_drops)
{
	struct vgpu_gpu_kernel *p;
	u32 i, late = 0;

	ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
	vgpu_t_template(0, 0, 32, "ALU\nEXIT\n");
	p = vgpu_tg_kernel(&T, 0, 2, 1, 32, 0,
			   "LOOP 40\nLAUNCH 0\nENDLOOP\nEXIT\n");
	vgpu_t_tree(p, 0, 1, 40);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, p));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_EQ(VGPU_KS_DONE, p->state);
	EXPECT_EQ(40, p->child.launched);
	for (i = 0; i < 40; i++) {
		EXPECT_EQ(VGPU_KS_DONE, vgpu_t_store[0][i].state);
		late += vgpu_t_store[0][i].t.submit >= 64;
	}
	/* 16 in the first epoch, the rest from the next ones */
	EXPECT_EQ(24, late);
	EXPECT_EQ(0, T.g.sm[0].lost);
	vgpu_t_fini();
}

#ifndef __KERNEL__
static void *vgpu_t_worker(void *arg)
{
	uintptr_t half = (uintptr_t)arg;
	u32 n = T.g.cfg.num_sms / 2;

	vgpu_gpu_advance_range(&T.g, half * n, half ? T.g.cfg.num_sms - n : n);
	return NULL;
}
#endif

/*
 * F51: children are made at the boundary in (cycle, SM, sequence) order,
 * so the trace, the hash and the child of each block do not depend on
 * how the SMs are advanced: SM order, reverse order, two threads.  Four
 * blocks on four SMs launch in the same cycle.
 */
#ifndef __KERNEL__
TEST(launch_order_independent_of_workers)
{
	u32 owner[3][12] = { 0 }, r, i;
	pthread_t th[2];
	size_t n[3];
	u64 h[3];
	struct vgpu_gpu_kernel *p, *q;

	for (r = 0; r < 3; r++) {
		ASSERT_EQ(0, vgpu_tg_init(&T, NULL, NULL));
		T.reverse = r == 1;
		vgpu_t_template(0, 0, 32, "LAUNCH 1\n" C_SHORT);
		vgpu_t_template(0, 1, 64, "LOOP 3*(1+wid%2)\nALU\nENDLOOP\nEXIT\n");
		p = vgpu_tg_kernel(&T, 0, 1, 4, 1024, 0,
				   "ALU\nLAUNCH 0, wait\nLAUNCH 1\nALU\nEXIT\n");
		p->args.smem = 100 * 1024;	/* one block per SM */
		vgpu_t_tree(p, 0, 2, 16);
		q = vgpu_tg_kernel(&T, 1, 2, 4, 512, 0, C_SHORT);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, p));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, q));
		while (!vgpu_gpu_idle(&T.g)) {
			if (r < 2) {
				vgpu_tg_step(&T);
				continue;
			}
			vgpu_gpu_dispatch(&T.g);
			for (i = 0; i < 2; i++)
				ASSERT_EQ(0, pthread_create(&th[i], NULL,
							    vgpu_t_worker,
							    (void *)(uintptr_t)i));
			for (i = 0; i < 2; i++)
				pthread_join(th[i], NULL);
		}
		EXPECT_EQ(VGPU_KS_DONE, p->state);
		ASSERT_EQ(12, p->child.launched);
		for (i = 0; i < 12; i++) {
			const struct vgpu_event *ev = vgpu_tg_find(&T,
				VGPU_GEV_LAUNCH, vgpu_t_store[0][i].args.id, 0);

			ASSERT_NE(NULL, ev);
			/* which block of which kernel on which SM */
			owner[r][i] = ev->arg0 << 12 | ev->block << 4 | ev->sm;
		}
		h[r] = vgpu_gpu_trace_hash(&T.g);
		n[r] = T.nev;
		vgpu_t_fini();
	}
	/* the first four come from blocks 0..3 on SMs 0..3, in SM order */
	for (i = 0; i < 4; i++)
		EXPECT_EQ(0 << 12 | i << 4 | i, owner[0][i]);
	EXPECT_EQ(0, memcmp(owner[0], owner[1], sizeof(owner[0])));
	EXPECT_EQ(0, memcmp(owner[0], owner[2], sizeof(owner[0])));
	EXPECT_EQ(h[0], h[1]);
	EXPECT_EQ(h[0], h[2]);
	EXPECT_EQ(n[0], n[1]);
	EXPECT_EQ(n[0], n[2]);
}
#endif

VGPU_TEST_SUITE(child,
	VGPU_CASE(wait_child_runs_before_parent_resumes)
	VGPU_CASE(nowait_child_runs_concurrently)
	VGPU_CASE(parent_ends_after_its_child_in_one_epoch)
	VGPU_CASE(child_bypasses_parent_channel)
	VGPU_CASE(full_table_never_displaces_a_child)
	VGPU_CASE(suspended_block_releases_its_resources)
	VGPU_CASE(no_save_record_waits_on_its_sm)
	VGPU_CASE(depth_limit_stops_recursion)
	VGPU_CASE(budget_limit_stops_recursion)
	VGPU_CASE(cancel_stops_the_tree)
	VGPU_CASE(submit_checks_templates)
	VGPU_CASE(launch_wait_block_is_never_partial)
	VGPU_CASE(launch_queue_delays_never_drops)
	VGPU_NATIVE(launch_order_independent_of_workers))
