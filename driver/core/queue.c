// SPDX-License-Identifier: GPL-2.0
/*
 * The global controller: queue kernels (F14).
 *
 * Pushes of work items and their arrival at a boundary, coalescing of the
 * waiting items into blocks (full, after the timeout, at the close), and
 * what queue kernels add to the idle tests (vgpu_gpu_next_arrival(),
 * vgpu_gpu_q_idle()).
 */
#include "vgpu_os.h"
#include "gpu_internal.h"

/**
 * vgpu_gpu_push_target_check() - can a kernel's PUSH target take items?
 * @k: a kernel with @k->push_to set, or without
 *
 * F14: the target was submitted before @k (it has entered the device),
 * has not finished and has not been closed.  The device's state, not the
 * kernel's: vgpu_gpu_submit() checks it, vgpu_gpu_kernel_check() does not.
 *
 * Return: 0 or -EINVAL.
 */
int vgpu_gpu_push_target_check(const struct vgpu_gpu_kernel *k)
{
	const struct vgpu_gpu_kernel *q = k->args.push_to;

	if (q && (q->state == VGPU_KS_NEW || vgpu_gpu_kernel_finished(q) ||
		  q->q.closing))
		return -EINVAL;
	return 0;
}

/**
 * vgpu_gpu_queue_enter() - the queue state of a kernel entering the device
 * @g: the device
 * @k: the kernel (F14)
 */
void vgpu_gpu_queue_enter(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	u32 i;

	k->q.wait = 0;
	k->q.pending = 0;
	k->q.ready = 0;
	k->q.closing = false;
	k->q.closed = false;
	k->q.last = 0;
	k->q.close_at = 0;
	k->q.items = 0;
	INIT_LIST_HEAD(&k->q.fifo);
	INIT_LIST_HEAD(&k->q.pend);
	INIT_LIST_HEAD(&k->q.dev_free);
	INIT_LIST_HEAD(&k->q.node);
	for (i = 0; i < k->args.n_dev_push; i++) {
		k->args.dev_push[i].dev = true;
		list_add_tail(&k->args.dev_push[i].node, &k->q.dev_free);
	}
	if (k->args.flags & VGPU_KF_QUEUE)
		list_add_tail(&k->q.node, &g->queues);
}

/* F14: the core is done with push record @p. */
static void vgpu_gpu_push_retire(struct vgpu_gpu *g, struct vgpu_gpu_push *p)
{
	p->done = true;
	if (p->dev)	/* a PUSH's record: back to its queue kernel */
		list_add_tail(&p->node, &p->k->q.dev_free);
	else
		list_add_tail(&p->node, &g->push_done);
}

/**
 * vgpu_gpu_queue_leave() - drop the items of a kernel leaving the device
 * @g: the device
 * @k: the kernel; its waiting and pending items are dropped (F14)
 */
void vgpu_gpu_queue_leave(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	struct vgpu_gpu_kernel *o;
	struct vgpu_gpu_push *p, *tmp;

	if (!(k->args.flags & VGPU_KF_QUEUE))
		return;
	/* F14: a PUSH to it from now on fails its kernel (-EPIPE) */
	list_for_each_entry(o, &g->kernels, table_node)
		if (o->args.push_to == k)
			o->args.push_to = NULL;
	list_for_each_entry_safe(p, tmp, &k->q.fifo, node) {
		list_del(&p->node);
		vgpu_gpu_push_retire(g, p);
	}
	/*
	 * Every push of @k not arrived yet, the item-less close too (which
	 * q_pending does not count): left here it would name a kernel gone.
	 * Its own list: a file closing with many queue kernels must not walk
	 * every push of the device for each of them.
	 */
	list_for_each_entry_safe(p, tmp, &k->q.pend, knode) {
		list_del_init(&p->knode);
		list_del(&p->node);
		vgpu_gpu_push_retire(g, p);
	}
	k->q.wait = 0;
	k->q.pending = 0;
	k->q.ready = 0;
	list_del_init(&k->q.node);
}

/* @p's items go to @k at @p->arrival: by (arrival, push order). */
static void vgpu_gpu_push_insert(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
				 struct vgpu_gpu_push *p)
{
	struct vgpu_gpu_push *o;

	p->k = k;
	p->left = p->items;
	p->seq = g->push_seq++;
	p->done = false;
	k->q.pending += p->items;
	/* most pushes go at the tail */
	list_for_each_entry_reverse(o, &g->pushes, node)
		if (o->arrival <= p->arrival)
			break;
	list_add(&p->node, &o->node);
	list_add_tail(&p->knode, &k->q.pend);
}

/**
 * vgpu_gpu_queue_push() - push work items to a queue kernel (F14)
 * @g: the device, between two epochs
 * @k: a submitted, unfinished kernel with VGPU_KF_QUEUE
 * @p: caller-allocated record with @p->arrival, @p->items and @p->flags
 *	set; the core owns it until vgpu_gpu_push_reap() returns it
 *
 * The items join the kernel's queue at the first boundary at or after
 * @p->arrival, which is raised to the arrival of the kernel's previous push
 * (the items of a kernel arrive in push order; VGPU_GEV_PUSH event).  From
 * then on a block launches for every queue_n waiting items, or with fewer
 * once the oldest of them waited queue_timeout cycles, or at once after
 * VGPU_GPU_PUSH_CLOSE arrived; a closed kernel completes when its blocks
 * have.  Items pushed and not yet arrived count against queue_cap.
 *
 * Return: 0; -EINVAL if @k is not an unfinished queue kernel, was closed
 * by an earlier push, or @p has unknown flags, more than queue_cap items
 * or none without VGPU_GPU_PUSH_CLOSE; -ENOSPC if more than queue_cap
 * items would wait.
 */
int vgpu_gpu_queue_push(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			struct vgpu_gpu_push *p)
{
	int ret;

	if (k->state == VGPU_KS_NEW)
		return -EINVAL;
	ret = vgpu_gpu_push_check(k, p);
	if (ret)
		return ret;
	if (p->arrival < k->q.last)
		p->arrival = k->q.last;
	k->q.last = p->arrival;
	if (p->flags & VGPU_GPU_PUSH_CLOSE)
		k->q.closing = true;
	vgpu_gpu_push_insert(g, k, p);
	return 0;
}

/**
 * vgpu_gpu_push_check() - would vgpu_gpu_queue_push() take this push?
 * @k: a submitted kernel (entered the device or not yet)
 * @p: the push, @p->items and @p->flags set
 *
 * The one check of a push (F14): a host that queues pushes before it
 * hands them to the core checks them here, holds their items in
 * @k->q_held (so that nothing, a PUSH instruction neither, takes their
 * room meanwhile), and vgpu_gpu_queue_push() then cannot refuse them.
 *
 * Return: 0; -EINVAL if @k is not an unfinished queue kernel, was closed
 * by an earlier push, or @p has unknown flags, more than queue_cap items
 * or none without VGPU_GPU_PUSH_CLOSE; -ENOSPC if more than queue_cap
 * items would wait, those held included.
 */
int vgpu_gpu_push_check(const struct vgpu_gpu_kernel *k,
			const struct vgpu_gpu_push *p)
{
	if (!(k->args.flags & VGPU_KF_QUEUE) || vgpu_gpu_kernel_finished(k) ||
	    k->q.closing || p->flags & ~VGPU_GPU_PUSH_CLOSE ||
	    p->items > k->args.queue_cap ||
	    (!p->items && !(p->flags & VGPU_GPU_PUSH_CLOSE)))
		return -EINVAL;
	if ((u64)k->q.wait + k->q.pending + k->args.q_held + p->items >
	    k->args.queue_cap)
		return -ENOSPC;
	return 0;
}

/**
 * vgpu_gpu_push_reap() - a push record the core is done with (F14)
 * @g: the device
 *
 * A record is done when its items all went into blocks, when it only
 * closed the queue and arrived, or when its kernel finished (the waiting
 * and pending items of a cancelled kernel are discarded).
 *
 * Return: the record, which the caller may free, or NULL if none.
 */
struct vgpu_gpu_push *vgpu_gpu_push_reap(struct vgpu_gpu *g)
{
	struct vgpu_gpu_push *p;

	p = list_first_entry_or_null(&g->push_done, struct vgpu_gpu_push,
				     node);
	if (p)
		list_del_init(&p->node);
	return p;
}

/**
 * vgpu_gpu_q_launch() - the next block of a queue kernel launched (F14)
 * @g: the device
 * @k: the queue kernel
 * @bid: the block's index
 *
 * It takes up to queue_n waiting items, the oldest first.
 */
void vgpu_gpu_q_launch(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
		       u32 bid)
{
	u32 items = vgpu_gpu_q_peek(k), n = items, t, why;
	struct vgpu_gpu_push *p;

	while (n) {
		p = list_first_entry(&k->q.fifo, struct vgpu_gpu_push, node);
		t = min(n, p->left);
		p->left -= t;
		n -= t;
		if (!p->left) {
			list_del(&p->node);
			vgpu_gpu_push_retire(g, p);
		}
	}
	k->q.wait -= items;
	k->q.ready--;
	k->units++;
	g->stats.queue_blocks++;
	why = VGPU_GPU_COALESCE_FULL;
	if (items < k->args.queue_n) {
		g->stats.queue_partial++;
		why = k->q.closed ? VGPU_GPU_COALESCE_CLOSE :
				    VGPU_GPU_COALESCE_TIMEOUT;
	}
	vgpu_gpu_emit(g, g->now, VGPU_GEV_COALESCE, k, bid, ~0U, ~0U, items,
		      why);
}

/* F14: the arrival of the oldest of the @n most recent waiting items. */
static u64 vgpu_gpu_q_since(const struct vgpu_gpu_kernel *k, u32 n)
{
	const struct vgpu_gpu_push *p;
	u32 seen = 0;

	list_for_each_entry_reverse(p, &k->q.fifo, node) {
		seen += p->left;
		if (seen >= n)
			return p->arrival;
	}
	return 0;
}

/*
 * F14: blocks the waiting items of queue kernel @k may launch at the
 * current boundary: one for every queue_n of them, the oldest first, and
 * one for the rest (the most recent items) once the queue is closed or
 * the oldest of the rest has waited queue_timeout cycles.  @due, if not
 * NULL, receives the cycle at which that last block may launch
 * (VGPU_GPU_NO_CYCLE if no item is left over).
 */
static u32 vgpu_gpu_q_blocks(const struct vgpu_gpu *g,
			     const struct vgpu_gpu_kernel *k, u64 *due)
{
	u32 full, rem;
	u64 at = VGPU_GPU_NO_CYCLE;

	if (!k->q.wait) {
		if (due)
			*due = at;
		return 0;
	}
	full = k->q.wait / k->args.queue_n;
	rem = k->q.wait - full * k->args.queue_n;
	if (rem)
		at = k->q.closed ? 0 :
		     vgpu_gpu_q_since(k, rem) + k->args.queue_timeout;
	if (due)
		*due = at;
	return full + (rem && at <= g->now);
}

/**
 * vgpu_gpu_next_arrival() - earliest cycle at which something arrives
 * @g: the device
 *
 * The arrival of a kernel, or of the items of a push, or the end of a
 * coalescing timeout (F14), after the current boundary.
 *
 * Return: its cycle, or VGPU_GPU_NO_CYCLE.
 */
u64 vgpu_gpu_next_arrival(const struct vgpu_gpu *g)
{
	const struct vgpu_gpu_kernel *k;
	const struct vgpu_gpu_push *p;
	u64 t = VGPU_GPU_NO_CYCLE, due;

	list_for_each_entry(k, &g->kernels, table_node)
		if (k->args.arrival > g->now && k->args.arrival < t)
			t = k->args.arrival;
	/* F14: pushes arriving, coalescing timeouts running out */
	if (!list_empty(&g->pushes)) {
		p = list_first_entry(&g->pushes, struct vgpu_gpu_push, node);
		if (p->arrival > g->now && p->arrival < t)
			t = p->arrival;
	}
	list_for_each_entry(k, &g->queues, q.node) {
		vgpu_gpu_q_blocks(g, k, &due);
		if (due > g->now && due < t)
			t = due;
	}
	return t;
}

/**
 * vgpu_gpu_q_idle() - has a queue kernel nothing to do? (F14)
 * @g: the device
 * @k: a kernel
 *
 * Nothing to do at the current boundary: no block to launch or bring
 * back, none on an SM, not closed and drained.  A grid kernel always has
 * something.
 *
 * Return: true if @k is an idle queue kernel.
 */
bool vgpu_gpu_q_idle(const struct vgpu_gpu *g,
		     const struct vgpu_gpu_kernel *k)
{
	return (k->args.flags & VGPU_KF_QUEUE) && !k->nsaved && !k->inflight &&
	       vgpu_gpu_q_open(k) && !vgpu_gpu_q_blocks(g, k, NULL);
}

/**
 * vgpu_gpu_q_arrivals() - F14 at this boundary
 * @g: the device
 *
 * Pushes whose items arrived join their kernel's queue; every queue
 * kernel's launchable blocks are counted again (time passed); a closed
 * kernel with nothing waiting leaves its channel and task slot like a grid
 * kernel whose blocks are all dispatched, and completes if nothing of it
 * runs.
 */
void vgpu_gpu_q_arrivals(struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *k, *kt;
	struct vgpu_gpu_push *p, *tmp;

	list_for_each_entry_safe(p, tmp, &g->pushes, node) {
		if (p->arrival > g->now)
			break;
		k = p->k;
		list_del(&p->node);
		list_del_init(&p->knode);
		k->q.pending -= p->items;
		k->q.wait += p->items;
		k->q.items += p->items;
		g->stats.queue_items += p->items;
		if (p->flags & VGPU_GPU_PUSH_CLOSE) {
			k->q.closed = true;
			k->q.close_at = p->arrival;
		}
		vgpu_gpu_emit(g, p->arrival, VGPU_GEV_PUSH, k, ~0U, ~0U, ~0U,
			      p->items, p->flags);
		if (p->items)
			list_add_tail(&p->node, &k->q.fifo);
		else
			vgpu_gpu_push_retire(g, p);
	}
	list_for_each_entry_safe(k, kt, &g->queues, q.node) {
		k->q.ready = vgpu_gpu_q_blocks(g, k, NULL);
		if (vgpu_gpu_q_open(k) || !k->seen)
			continue;
		if (k->state != VGPU_KS_DRAINING && !k->nsaved) {
			k->state = VGPU_KS_DRAINING;
			if (!list_empty(&k->chan_node))
				list_del_init(&k->chan_node);
			if (k->slot != ~0U)
				vgpu_gpu_dealloc_set(g, k->slot, true);
		}
		if (k->t.end == VGPU_GPU_NO_CYCLE || k->t.end < k->q.close_at)
			k->t.end = k->q.close_at;
		if (k->t.end < k->args.arrival)
			k->t.end = k->args.arrival;
		vgpu_gpu_complete(g, k);
	}
}

/**
 * vgpu_gpu_dev_push() - act on a PUSH from an SM's buffer (F14)
 * @g: the device
 * @i: the SM
 * @ev: the VGPU_EV_PUSH event
 *
 * Seed 002: a task continues through a queue task by writing work items to
 * it.  The items go to the pushing kernel's push target as a push that
 * arrives at this boundary, in one of the target's own records (ahead of
 * a close the host pushed for later).  If the target has left or its close
 * arrived (-EPIPE), or it has no free record or no room for the items
 * (-ENOSPC), the pushing kernel fails; the items are never dropped
 * silently.
 */
void vgpu_gpu_dev_push(struct vgpu_gpu *g, u32 i, const struct vgpu_event *ev)
{
	struct vgpu_gpu_kernel *p = vgpu_gpu_event_kernel(g, i, ev, NULL), *q;
	struct vgpu_gpu_push *rec;

	if (!p)		/* its tree was stopped since */
		return;
	q = p->args.push_to;
	if (!q || q->q.closed) {	/* gone, or its close arrived */
		vgpu_gpu_fail(g, p, -EPIPE);
		return;
	}
	if ((u64)q->q.wait + q->q.pending + q->args.q_held + ev->arg0 >
	    q->args.queue_cap) {
		vgpu_gpu_fail(g, p, -ENOSPC);
		return;
	}
	rec = list_first_entry_or_null(&q->q.dev_free, struct vgpu_gpu_push,
				       node);
	if (!rec) {
		vgpu_gpu_fail(g, p, -ENOSPC);
		return;
	}
	list_del_init(&rec->node);
	/* it arrives now, before a close pushed for later */
	rec->arrival = g->now;
	rec->items = ev->arg0;
	rec->flags = 0;
	vgpu_gpu_push_insert(g, q, rec);
	g->stats.dev_pushes++;
}
