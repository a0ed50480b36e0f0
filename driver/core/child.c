// SPDX-License-Identifier: GPL-2.0
/*
 * The global controller: child kernels (F15).
 *
 * At the boundary a LAUNCH in a block makes a child kernel from its tree's
 * template; a LAUNCH WAIT suspends the block (switched out into a save
 * record, or waiting on its SM while none is free) until the child
 * completes; a LAUNCH beyond a limit fails the tree.
 */
#include "vgpu_os.h"
#include "gpu_internal.h"

/**
 * vgpu_gpu_unwait() - forget the parent's block that waits for a child
 * @g: the device
 * @c: the child
 *
 * Child @c is stopped, and so is its parent (the whole tree stops, F15):
 * give back the save record of the parent's block that waits for it
 * switched out (the parent counts it as dropped), forget one that waits
 * on its SM.
 */
void vgpu_gpu_unwait(struct vgpu_gpu *g, struct vgpu_gpu_kernel *c)
{
	if (c->child.waiter) {
		list_add(&c->child.waiter->node, &g->saved_free);
		c->child.waiter = NULL;
	}
	if (c->child.wait_sm != ~0U) {
		g->sm[c->child.wait_sm].shadow[c->child.wait_slot].wait = NULL;
		list_del_init(&c->child.wait_node);
		c->child.wait_sm = ~0U;
	}
}

/**
 * vgpu_gpu_fail() - a kernel's LAUNCH or PUSH went beyond a limit
 * @g: the device
 * @k: the kernel (F15, F14)
 * @error: its error: @k and each of its ancestors fail with it, the rest
 *	of the tree is cancelled
 */
void vgpu_gpu_fail(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k, int error)
{
	struct vgpu_gpu_kernel *x;

	for (x = k; x; x = x->child.parent)
		x->error = error;
	vgpu_gpu_stop_tree(g, k->child.root);
}

/*
 * Switch the block in @slot of SM @i out to wait for child @c (F15): its
 * resources go back to the SM, its warps' contexts into a save record that
 * the child holds until it completes.  A save record must be free.
 */
static void vgpu_gpu_suspend_out(struct vgpu_gpu *g, u32 i, u32 slot,
				 struct vgpu_gpu_kernel *c)
{
	struct vgpu_gpu_sm *gs = &g->sm[i];
	struct vgpu_gpu_shadow *sh = &gs->shadow[slot];
	struct vgpu_gpu_kernel *p = sh->k;
	struct vgpu_gpu_saved *s;

	s = list_first_entry(&g->saved_free, struct vgpu_gpu_saved, node);
	if (sh->start_at != VGPU_GPU_NO_CYCLE && !sh->start_seen)
		p->t.start = min(p->t.start, sh->start_at);
	vgpu_gpu_emit(g, g->now, VGPU_GEV_SUSPEND, p,
		      gs->sm.block[slot].block_idx, ~0U, i, c->args.id, 1);
	s->unit = sh->unit;
	s->start_at = sh->start_at;
	vgpu_sm_block_save(&gs->sm, slot, &s->s);
	vgpu_gpu_charge_end(g, p, sh->at, g->now, sh->warps);
	memset(sh, 0, sizeof(*sh));
	gs->shadow_used &= ~BIT_ULL(slot);
	list_del(&s->node);
	c->child.waiter = s;
	p->inflight--;
	p->child.nsusp++;
	g->stats.suspensions++;
	vgpu_gpu_forget_nofit(g);
}

/*
 * The block in @slot of SM @i is parked at a LAUNCH WAIT for child @c: it
 * goes off the SM if a save record is free, else waits there holding its
 * resources until one frees (vgpu_gpu_inplace_retry()) or @c completes.
 */
static void vgpu_gpu_suspend(struct vgpu_gpu *g, u32 i, u32 slot,
			     struct vgpu_gpu_kernel *c)
{
	struct vgpu_gpu_shadow *sh = &g->sm[i].shadow[slot];

	if (!list_empty(&g->saved_free)) {
		vgpu_gpu_suspend_out(g, i, slot, c);
		return;
	}
	sh->wait = c;
	c->child.wait_sm = i;
	c->child.wait_slot = slot;
	list_add_tail(&c->child.wait_node, &g->inplace);
	vgpu_gpu_emit(g, g->now, VGPU_GEV_SUSPEND, sh->k,
		      g->sm[i].sm.block[slot].block_idx, ~0U, i, c->args.id, 0);
}

/**
 * vgpu_gpu_inplace_retry() - switch out blocks that wait on their SM
 * @g: the device
 *
 * Blocks that wait on their SM go off it while save records are free.
 */
void vgpu_gpu_inplace_retry(struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *c;
	u32 i;

	while (!list_empty(&g->inplace) && !list_empty(&g->saved_free)) {
		c = list_first_entry(&g->inplace, struct vgpu_gpu_kernel,
				     child.wait_node);
		i = c->child.wait_sm;
		list_del_init(&c->child.wait_node);
		c->child.wait_sm = ~0U;
		g->sm[i].shadow[c->child.wait_slot].wait = NULL;
		vgpu_gpu_suspend_out(g, i, c->child.wait_slot, c);
	}
}

/**
 * vgpu_gpu_event_kernel() - the kernel of a block's buffered event
 * @g: the device
 * @i: the SM
 * @ev: an event of a block of SM @i from the epoch that just ended
 * @slot: if not NULL, receives the block's slot
 *
 * The block's row stays in the SM's table until the boundary.
 *
 * Return: the kernel, or NULL if its tree was stopped since.
 */
struct vgpu_gpu_kernel *vgpu_gpu_event_kernel(struct vgpu_gpu *g, u32 i,
					      const struct vgpu_event *ev,
					      u32 *slot)
{
	struct vgpu_gpu_sm *gs = &g->sm[i];
	u32 s;
	u64 m;

	for (m = gs->shadow_used; m; m &= m - 1) {
		s = __ffs64(m);
		if (gs->shadow[s].k->args.id == ev->kernel &&
		    gs->sm.block[s].block_idx == ev->block) {
			if (slot)
				*slot = s;
			return gs->shadow[s].k;
		}
	}
	return NULL;
}

/**
 * vgpu_gpu_launch() - act on a LAUNCH from an SM's buffer (F15)
 * @g: the device
 * @i: the SM
 * @ev: the LAUNCH event
 *
 * The controller makes the child of the launching block's kernel from its
 * tree's template, at the child's parent's priority, straight into the
 * kernel table and the task-table candidates; a LAUNCH WAIT also suspends
 * the block.  Beyond VGPU_MAX_DEPTH or the tree's child budget the
 * launching kernel fails.
 */
void vgpu_gpu_launch(struct vgpu_gpu *g, u32 i,
		     const struct vgpu_event *ev)
{
	struct vgpu_gpu_kernel *p, *r, *c;
	struct vgpu_gpu_template *t;
	u32 slot = 0;

	p = vgpu_gpu_event_kernel(g, i, ev, &slot);
	if (!p)		/* its tree was stopped since */
		return;
	r = p->child.root;
	if (p->child.depth >= VGPU_MAX_DEPTH) {
		vgpu_gpu_fail(g, p, -ELOOP);
		return;
	}
	if (ev->arg0 >= r->args.n_tmpl) {	/* vgpu_gpu_submit() refused it */
		vgpu_gpu_fail(g, p, -EINVAL);
		return;
	}
	if (r->child.launched >= r->args.child_budget) {
		vgpu_gpu_fail(g, p, -EDQUOT);
		return;
	}
	c = &r->args.child_store[r->child.launched++];
	t = &r->args.tmpl[ev->arg0];
	memset(c, 0, sizeof(*c));
	c->args.id = g->next_child_id++;
	if (g->next_child_id == VGPU_EV_NONE)
		g->next_child_id = VGPU_GPU_CHILD_ID0;
	c->args.channel = p->args.channel;	/* F21 flags: its tree's channel */
	c->args.tenant = p->args.tenant;
	c->args.prio = p->eff_prio;
	c->args.grid = t->grid;
	c->args.threads = t->threads;
	c->args.regs = t->regs;
	c->args.smem = t->smem;
	/* a throttle-mode tree stays in throttle mode (F26) */
	c->args.flags = t->flags | (p->args.flags & VGPU_KF_THROTTLE);
	c->args.arrival = ev->cycle;
	/* the device's words: admission masked them, the rest is zero */
	memcpy(c->args.affinity, p->args.affinity, g->top_words * sizeof(u64));
	c->aff_all = p->aff_all;
	c->args.prog = t->prog;
	c->args.n_insns = t->n_insns;
	c->args.match = t->match;
	c->args.tmpl = r->args.tmpl;
	c->args.n_tmpl = r->args.n_tmpl;
	c->desc = t->desc;
	c->desc.id = c->args.id;
	c->desc.prio = c->args.prio;
	vgpu_gpu_kernel_enter(g, c);
	c->child.parent = p;
	c->child.root = r;
	c->child.depth = p->child.depth + 1;
	c->child.tmpl_idx = ev->arg0;
	list_add_tail(&c->chan_node, &g->direct);
	list_add_tail(&c->table_node, &g->kernels);
	g->nkernels++;
	p->child.children++;
	g->stats.children++;
	vgpu_gpu_emit(g, ev->cycle, VGPU_GEV_LAUNCH, c, ev->block, ~0U, i,
		      p->args.id, ev->arg0 | ev->arg1 << 8 | c->child.depth << 16);
	if (ev->arg1 & VGPU_LAUNCH_WAIT)
		vgpu_gpu_suspend(g, i, slot, c);
}

/**
 * vgpu_gpu_child_done() - a child kernel completed (F15)
 * @g: the device
 * @c: the child
 *
 * The parent's block that waited for it comes back, through the dispatch
 * rounds if it was switched out, at once if it waited on its SM.
 */
void vgpu_gpu_child_done(struct vgpu_gpu *g, struct vgpu_gpu_kernel *c)
{
	struct vgpu_gpu_kernel *p = c->child.parent;
	struct vgpu_gpu_saved *s = c->child.waiter;
	u32 i = c->child.wait_sm, slot = c->child.wait_slot;

	p->child.children--;
	if (p->t.end == VGPU_GPU_NO_CYCLE || c->t.end > p->t.end)
		p->t.end = c->t.end;
	if (s) {
		c->child.waiter = NULL;
		list_add_tail(&s->node, &p->saved);
		p->child.nsusp--;
		p->nsaved++;
		vgpu_gpu_requeue(g, p);
	} else if (i != ~0U) {
		g->sm[i].shadow[slot].wait = NULL;
		list_del_init(&c->child.wait_node);
		c->child.wait_sm = ~0U;
		vgpu_gpu_emit(g, g->now, VGPU_GEV_WAKE, p,
			      g->sm[i].sm.block[slot].block_idx, ~0U, i, c->args.id,
			      0);
		vgpu_sm_block_wake(&g->sm[i].sm, slot);
	}
}
