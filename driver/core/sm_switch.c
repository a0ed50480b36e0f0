// SPDX-License-Identifier: GPL-2.0
/*
 * Resident blocks leaving and coming back (F23 (c) switch mode, F53
 * cancel): a block's warps filtered out of the sub-partitions' queues, its
 * state saved and its resources freed (switch-out), the
 * saved state placed again on any SM (restore), a block parked at a
 * LAUNCH WAIT woken (F15), and every block of a cancelled kernel dropped.
 */
#include "vgpu_os.h"
#include "sm_internal.h"

/* Drop the warps of the blocks in @kill from the queues (order kept). */
static void vgpu_sm_filter_out(struct vgpu_sm *sm, u64 kill)
{
	struct vgpu_wq *q, keep;
	u32 p, i, idx, next;

	for (p = 0; p < sm->subparts; p++) {
		for (i = 0; i < VGPU_MAX_PRIOS; i++) {
			q = &sm->sp[p].ready[i];
			vgpu_wq_init(&keep);
			for (idx = q->head; idx != VGPU_WARP_NONE; idx = next) {
				next = sm->warps[idx].next;
				if (!(kill & BIT_ULL(sm->warps[idx].slot)))
					vgpu_wq_push(sm->warps, &keep, idx);
			}
			*q = keep;
			if (keep.head == VGPU_WARP_NONE)
				sm->sp_mask[p] &= ~BIT(i);
		}
		if (!sm->sp_mask[p])
			sm->ready_sp &= ~BIT(p);
	}
}

/**
 * vgpu_sm_cancel_kernel() - remove every block of a kernel from the SM
 * @sm: the SM
 * @kernel_id: struct vgpu_kernel_desc.id
 *
 * The way a SPIN kernel ends (F53): its warps, wherever they are (ready,
 * waiting, parked at a barrier or a lock, spinning), are dropped, their
 * contexts return to the pool and every resource of their blocks is freed.
 *
 * Return: the number of blocks removed.
 */
u32 vgpu_sm_cancel_kernel(struct vgpu_sm *sm, u32 kernel_id)
{
	struct vgpu_sm_block *b;
	u64 kill = 0, m;
	u32 slot, i, live, n = 0;

	for (m = sm->used; m; m &= m - 1)
		if (sm->block[__ffs64(m)].kernel->id == kernel_id)
			kill |= BIT_ULL(__ffs64(m));
	if (!kill)
		return 0;
	vgpu_sm_filter_out(sm, kill);
	for (m = kill; m; m &= m - 1) {
		slot = __ffs64(m);
		b = &sm->block[slot];
		live = 0;
		for (i = 0; i < b->next_start; i++) {
			if (b->warp[i] == VGPU_WARP_NONE)
				continue;
			vgpu_worker_pool_put(sm->pool, b->warp[i]);
			b->warp[i] = VGPU_WARP_NONE;
			live++;
		}
		vgpu_sm_emit(sm, VGPU_EV_BLOCK_CANCEL, b, VGPU_EV_NONE, live,
			     b->n_warps - b->next_start);
		sm->stats.blocks_cancelled++;
		vgpu_sm_block_remove(sm, slot);
		n++;
	}
	return n;
}

/**
 * vgpu_sm_block_save() - switch a resident block out (switch preemption)
 * @sm: the SM, between two vgpu_sm_run() calls
 * @slot: the block's slot in the block state table
 * @s: where its row and its live warps' contexts go
 *
 * The warps leave their queues (the latency they had left is kept), their
 * contexts return to the pool and every resource of the block is freed.
 *
 * A functional block's data goes to @s's functional area (fn.h).
 *
 * Return: 0, -EINVAL if @slot holds no block, or -ENOSPC (nothing
 * changed) for a functional block and a record without a functional area.
 */
int vgpu_sm_block_save(struct vgpu_sm *sm, u32 slot, struct vgpu_sm_saved *s)
{
	struct vgpu_sm_block *b = &sm->block[slot];
	struct vgpu_warp *w;
	u32 i, idx;

	if (slot >= VGPU_MAX_BLOCKS_PER_SM || !(sm->used & BIT_ULL(slot)))
		return -EINVAL;
	if (unlikely(b->kernel->sum.uses_functional) &&
	    vgpu_fn_block_save(sm, slot, s))
		return -ENOSPC;
	s->row = *b;
	memset(s->rem, 0, sizeof(s->rem));
	for (i = 0; i < b->next_start; i++) {
		idx = b->warp[i];
		if (idx == VGPU_WARP_NONE)
			continue;
		w = &sm->warps[idx];
		if (w->state == VGPU_WARP_READY && w->ready > sm->now)
			s->rem[i] = w->ready - sm->now;
	}
	vgpu_sm_filter_out(sm, BIT_ULL(slot));
	for (i = 0; i < b->next_start; i++) {
		idx = b->warp[i];
		if (idx == VGPU_WARP_NONE)
			continue;
		s->w[i] = sm->warps[idx];
		vgpu_worker_pool_put(sm->pool, idx);
		b->warp[i] = VGPU_WARP_NONE;
	}
	vgpu_sm_block_remove(sm, slot);
	return 0;
}

/**
 * vgpu_sm_block_restore() - bring a switched-out block back, whole
 * @sm: the SM, between two vgpu_sm_run() calls
 * @s: the block saved by vgpu_sm_block_save() (on any SM)
 * @delay: restore cost: its waiting and ready warps issue again after
 *	@delay plus the latency they had left (at most VGPU_MAX_LATENCY)
 *
 * The block takes every resource at once (like VGPU_PLACE_BLOCK), then
 * gives back those of the warps that had exited; its unstarted warps
 * start as usual.  A block saved while parked at a LAUNCH WAIT comes back
 * past it (its child completed, F15): its warps issue again after @delay
 * plus ctrl_latency (at most VGPU_MAX_LATENCY).
 *
 * Return: 0, or -ENOSPC (nothing changed) if the whole block does not fit
 * or the pool lacks contexts.
 */
int vgpu_sm_block_restore(struct vgpu_sm *sm, const struct vgpu_sm_saved *s,
			  u32 delay)
{
	const struct vgpu_sm_block *r = &s->row;
	struct vgpu_sm_block *b;
	struct vgpu_warp *w;
	u32 slot, i, idx, live = 0;
	u64 at;

	for (i = 0; i < r->next_start; i++)
		live += r->warp[i] != VGPU_WARP_NONE;
	if (sm->used == GENMASK_ULL(VGPU_MAX_BLOCKS_PER_SM - 1, 0) ||
	    sm->pool->nfree < live)
		return -ENOSPC;
	slot = __ffs64(~sm->used);
	b = &sm->block[slot];	/* unused until the used bit is set */
	*b = *r;
	if (vgpu_sm_res_alloc_block(&sm->res, &r->kernel->shape, &b->place))
		return -ENOSPC;
	b->mode = VGPU_PLACE_BLOCK;
	b->seq = sm->seq++;
	vgpu_sm_set_start_key(sm, slot);
	/* F17: a restored block syncs too; its warps wait for both */
	vgpu_sm_sync(sm, b);
	if (b->ready_at > sm->now)
		delay = max_t(u32, delay, b->ready_at - sm->now);
	for (i = 0; i < b->n_warps; i++) {
		if (i >= r->next_start)
			continue;
		if (r->warp[i] == VGPU_WARP_NONE) {	/* exited */
			vgpu_sm_res_free_warp(&sm->res, &b->place, i);
			continue;
		}
		idx = vgpu_worker_pool_get(sm->pool);
		w = &sm->warps[idx];
		*w = s->w[i];
		w->slot = slot;
		w->subpart = b->place.warp[i].subpart;
		w->next = VGPU_WARP_NONE;
		b->warp[i] = idx;
		if (w->state == VGPU_WARP_READY ||
		    w->state == VGPU_WARP_WAIT_LAUNCH) {
			at = sm->now + min_t(u32, delay + s->rem[i],
					     VGPU_MAX_LATENCY);
			vgpu_sm_queue(sm, idx, at);
		} else if (r->launch == VGPU_SM_LAUNCH_PARKED &&
			   w->state == VGPU_WARP_AT_BARRIER) {
			at = sm->now + min_t(u32, delay +
					     sm->timing.ctrl_latency,
					     VGPU_MAX_LATENCY);
			vgpu_sm_queue(sm, idx, at);
		}
	}
	if (unlikely(b->kernel->sum.uses_functional))
		vgpu_fn_block_restore(sm, slot, s);
	vgpu_sm_prio_add(sm, b->prio);
	sm->used |= BIT_ULL(slot);
	if (b->next_start < b->n_warps)
		sm->unstarted |= BIT_ULL(slot);
	if (b->kernel->sum.uses_lock && b->arb.count)
		sm->arb_pending |= BIT_ULL(slot);
	sm->start_dirty = true;
	vgpu_sm_emit(sm, VGPU_EV_BLOCK_ADD, b, VGPU_EV_NONE, b->prio,
		     VGPU_PLACE_RESTORE << 16 | b->n_warps);
	if (b->launch == VGPU_SM_LAUNCH_PARKED) {
		vgpu_sm_emit(sm, VGPU_EV_BAR_RELEASE, b, VGPU_EV_NONE,
			     b->bar_arrived,
			     (u32)(sm->now + min_t(u32, delay +
						   sm->timing.ctrl_latency,
						   VGPU_MAX_LATENCY)));
		b->bar_arrived = 0;
		b->launch = VGPU_SM_LAUNCH_NONE;
	}
	vgpu_sm_update_prio(sm);
	return 0;
}

/**
 * vgpu_sm_block_wake() - a block parked at a LAUNCH WAIT goes on (F15)
 * @sm: the SM, between two vgpu_sm_run() calls
 * @slot: the block's slot
 *
 * The block's child completed while the block waited on the SM (it kept
 * its resources): its warps leave the LAUNCH like a barrier (F34), issuing
 * again after ctrl_latency.
 *
 * Return: 0, or -EINVAL if @slot holds no block parked at a LAUNCH WAIT.
 */
int vgpu_sm_block_wake(struct vgpu_sm *sm, u32 slot)
{
	struct vgpu_sm_block *b = &sm->block[slot];

	if (slot >= VGPU_MAX_BLOCKS_PER_SM || !(sm->used & BIT_ULL(slot)) ||
	    b->launch != VGPU_SM_LAUNCH_PARKED)
		return -EINVAL;
	b->launch = VGPU_SM_LAUNCH_NONE;
	vgpu_sm_bar_release(sm, b);
	return 0;
}
