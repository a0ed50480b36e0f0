// SPDX-License-Identifier: GPL-2.0
/*
 * The SM execution engine (F30, F33-F35, F51, F53): an SM's blocks
 * and warps, warp starts, barriers, the priority mutexes' arbiter and the
 * control instructions.  The cycle loop that issues instructions,
 * vgpu_sm_run(), is in sm_issue.c, switch-out, restore and cancel in
 * sm_switch.c (Documentation/engine.rst).
 */
#include "vgpu_os.h"
#include "sm.h"
#include "sm_internal.h"

static_assert(VGPU_WARP_NONE == 0xffffffffU, "warp rows are filled bytewise");

/**
 * struct vgpu_sm_arb_ctx - what the arbiter callbacks work on
 * @sm: the SM
 * @b: the block whose arbiter runs
 */
struct vgpu_sm_arb_ctx {
	struct vgpu_sm *sm;
	struct vgpu_sm_block *b;
};

/**
 * vgpu_sm_emit() - an event of the SM: hashed, counted, to the trace hook
 * @sm: the SM
 * @type: VGPU_EV_*
 * @b: the block it concerns, or NULL
 * @warp: warp index in the block, or VGPU_EV_NONE
 * @arg0: first argument
 * @arg1: second argument
 */
void vgpu_sm_emit(struct vgpu_sm *sm, u32 type, const struct vgpu_sm_block *b,
		  u32 warp, u32 arg0, u32 arg1)
{
	struct vgpu_event ev;

	ev.cycle = sm->now;
	ev.type = type;
	ev.kernel = b ? b->kernel->id : VGPU_EV_NONE;
	ev.block = b ? b->block_idx : VGPU_EV_NONE;
	ev.warp = warp;
	ev.sm = sm->id;
	ev.arg0 = arg0;
	ev.arg1 = arg1;
	sm->hash = vgpu_trace_hash_event(sm->hash, &ev);
	sm->stats.events++;
	if (sm->trace)
		sm->trace(sm->trace_cookie, &ev);
}

/**
 * vgpu_sm_queue_slow() - vgpu_sm_queue() when @at is not the latest
 * @sm: the SM
 * @idx: the context
 * @at: its ready cycle
 *
 * The queue is empty (its masks change), or a warp queued before waits
 * longer: @idx goes after the last warp ready at @at at the latest.
 */
void vgpu_sm_queue_slow(struct vgpu_sm *sm, u32 idx, u64 at)
{
	struct vgpu_warp *warps = sm->warps, *w = &warps[idx];
	struct vgpu_wq *q = &sm->sp[w->subpart].ready[w->prio];
	u32 prev, next;

	if (q->head == VGPU_WARP_NONE) {
		q->head = idx;
		q->tail = idx;
		sm->sp_mask[w->subpart] |= BIT(w->prio);
		sm->ready_sp |= BIT(w->subpart);
		return;
	}
	/* the tail is ready after @at: back from it to one ready by @at */
	for (next = q->tail; next != q->head; next = prev) {
		prev = warps[next].prev;
		if (warps[prev].ready <= at) {
			w->next = next;
			w->prev = prev;
			warps[prev].next = idx;
			warps[next].prev = idx;
			return;
		}
	}
	w->next = next;		/* before the head */
	warps[next].prev = idx;
	q->head = idx;
}

/**
 * vgpu_sm_init() - an SM with no block and every resource free
 * @sm: the SM (caller's storage, sizeof(struct vgpu_sm))
 * @cfg: a validated device configuration
 * @timing: a timing table (copied), e.g. from vgpu_isa_timing_default()
 * @pool: the warp context pool of the worker that owns the SM
 * @id: SM index, reported in events
 *
 * Return: 0, or -EINVAL if @timing is invalid or the configuration
 * exceeds the engine's limits.
 */
int vgpu_sm_init(struct vgpu_sm *sm, const struct vgpu_config *cfg,
		 const struct vgpu_isa_timing *timing,
		 struct vgpu_worker_pool *pool, u32 id)
{
	u32 p, i;

	if (vgpu_isa_timing_validate(timing) ||
	    cfg->max_blocks_per_sm > VGPU_MAX_BLOCKS_PER_SM ||
	    cfg->subparts > VGPU_MAX_SUBPARTS || !cfg->subparts ||
	    cfg->num_prios > VGPU_MAX_PRIOS)
		return -EINVAL;
	memset(sm, 0, sizeof(*sm));
	sm->id = id;
	sm->subparts = cfg->subparts;
	sm->timing = *timing;
	sm->pool = pool;
	sm->warps = pool->warps;
	vgpu_sm_res_init(&sm->res, cfg);
	for (p = 0; p < VGPU_MAX_SUBPARTS; p++)
		for (i = 0; i < VGPU_MAX_PRIOS; i++)
			vgpu_wq_init(&sm->sp[p].ready[i]);
	sm->top_prio = VGPU_PRIO_NONE;
	sm->last_kernel = VGPU_EV_NONE;
	sm->start_wake = VGPU_SM_NO_WAKE;
	/* no power window until the owner gives it a ring */
	sm->win_nx = timing->window;
	sm->win_ring = sm->win_none;
	sm->win_next = VGPU_SM_NO_WAKE;
	sm->hash = VGPU_FNV64_OFFSET;
	return 0;
}

/**
 * vgpu_sm_set_trace() - set the event sink
 * @sm: the SM
 * @fn: callback, or NULL for none (the hash is kept either way)
 * @cookie: passed to @fn
 */
void vgpu_sm_set_trace(struct vgpu_sm *sm, vgpu_trace_fn fn, void *cookie)
{
	sm->trace = fn;
	sm->trace_cookie = cookie;
}

/* F33: recompute the highest resident block priority. */
/**
 * vgpu_sm_update_prio() - recompute the highest resident priority (F33)
 * @sm: the SM
 */
void vgpu_sm_update_prio(struct vgpu_sm *sm)
{
	u32 best, old = sm->top_prio;

	best = sm->prio_mask ? __ffs64(sm->prio_mask) : VGPU_PRIO_NONE;
	if (best == old)
		return;
	sm->top_prio = best;
	vgpu_sm_emit(sm, VGPU_EV_SM_PRIO, NULL, VGPU_EV_NONE, best, old);
}

/*
 * F33 when a block of priority @prio arrives: the highest resident
 * priority can only rise to it (vgpu_sm_update_prio() without the scan;
 * @top_prio is exact after every arrival and removal).
 */
static void vgpu_sm_add_prio(struct vgpu_sm *sm, u32 prio)
{
	u32 old = sm->top_prio;

	if (prio >= old)
		return;
	sm->top_prio = prio;
	vgpu_sm_emit(sm, VGPU_EV_SM_PRIO, NULL, VGPU_EV_NONE, prio, old);
}

/**
 * vgpu_sm_sync() - block @b is given to the SM (F17)
 * @sm: the SM
 * @b: the block
 *
 * If the SM holds the state of another kernel (or none yet), it takes
 * @b's kernel's, which is in place sync_cost cycles from now; a block's
 * warps start once the state of its kernel is in place.  The SM's phase:
 * TASK_ASSIGN until it next runs (the state goes out then), STATE_SYNC
 * until the state is in place, then READY.
 */
void vgpu_sm_sync(struct vgpu_sm *sm, struct vgpu_sm_block *b)
{
	u32 id = b->kernel->id, old = sm->last_kernel;

	if (!sm->sync_cost || id != old)
		sm->phase = sm->sync_cost ? VGPU_SM_PHASE_TASK_ASSIGN :
					    VGPU_SM_PHASE_READY;
	if (sm->sync_cost && id != old) {
		sm->sync_ready = sm->now + sm->sync_cost;
		sm->stats.syncs++;
		vgpu_sm_emit(sm, VGPU_EV_SYNC, b, VGPU_EV_NONE, old,
			     (u32)sm->sync_ready);
	}
	sm->last_kernel = id;
	/* the controller's search for it took search_latency (F40-F42) */
	b->ready_at = sm->sync_ready;
	if (sm->search_latency)
		b->ready_at = max(b->ready_at, sm->now + sm->search_latency);
}

/**
 * vgpu_sm_block_add() - a block arrives at the SM (F23, F30)
 * @sm: the SM
 * @k: the block's kernel (initialised with vgpu_kernel_desc_init())
 * @block_idx: index of the block in its grid
 * @prio: the block's priority (normally @k->prio), 0 highest
 * @mode: VGPU_PLACE_BLOCK (all resources now, all or nothing) or
 *	VGPU_PLACE_WARP (block slot and shared memory now, each warp's
 *	slot and registers when they free up)
 *
 * The block arrives at the SM's current cycle and its warps start from the
 * next cycle step on, in index order, ahead of any block of lower priority.
 *
 * Return: 0; -ENOSPC if the resources are not there (nothing changed);
 * -EINVAL for a priority out of range, a block index outside the grid or
 * VGPU_PLACE_WARP with a kernel that uses BAR or LAUNCH WAIT (F23, F15).
 */
int vgpu_sm_block_add(struct vgpu_sm *sm, const struct vgpu_kernel_desc *k,
		      u32 block_idx, u32 prio, enum vgpu_place_mode mode)
{
	return vgpu_sm_block_add_items(sm, k, block_idx, 0, prio, mode);
}

/**
 * vgpu_sm_block_add_items() - a block with work items arrives (F14)
 * @sm: the SM
 * @k: the block's kernel
 * @block_idx: index of the block
 * @items: its work items, 0..VGPU_MAX_COALESCE (VGPU_LOOP_SEL_ITEMS)
 * @prio: the block's priority
 * @mode: VGPU_PLACE_BLOCK or VGPU_PLACE_WARP
 *
 * vgpu_sm_block_add() for a block of a queue kernel.  If the SM last held
 * another kernel's state and has a sync cost, the block's warps start
 * sync_cost cycles later (F17, VGPU_EV_SYNC).
 *
 * Return: as vgpu_sm_block_add(); -EINVAL also for @items out of range.
 */
int vgpu_sm_block_add_items(struct vgpu_sm *sm,
			    const struct vgpu_kernel_desc *k, u32 block_idx,
			    u32 items, u32 prio, enum vgpu_place_mode mode)
{
	struct vgpu_sm_block *b;
	u32 slot, i;
	int ret;

	if (prio >= VGPU_MAX_PRIOS || block_idx >= k->grid ||
	    items > VGPU_MAX_COALESCE ||
	    (mode != VGPU_PLACE_BLOCK && mode != VGPU_PLACE_WARP) ||
	    (mode == VGPU_PLACE_WARP &&
	     (k->sum.uses_bar || k->sum.uses_launch_wait)))
		return -EINVAL;
	if (sm->used == GENMASK_ULL(VGPU_MAX_BLOCKS_PER_SM - 1, 0))
		return -ENOSPC;
	slot = __ffs64(~sm->used);
	b = &sm->block[slot];
	if (mode == VGPU_PLACE_BLOCK)
		ret = vgpu_sm_res_alloc_block(&sm->res, &k->shape, &b->place);
	else
		ret = vgpu_sm_res_take_block(&sm->res, &k->shape, &b->place);
	if (ret)
		return -ENOSPC;
	b->kernel = k;
	b->seq = sm->seq++;
	b->arrived = sm->now;
	b->block_idx = block_idx;
	b->prio = prio;
	b->mode = mode;
	b->n_warps = k->shape.warps;
	b->next_start = 0;
	b->n_done = 0;
	b->bar_arrived = 0;
	b->launch = VGPU_SM_LAUNCH_NONE;
	b->launch_tmpl = 0;
	/* VGPU_WARP_NONE is all ones: one fill for every warp */
	memset(b->warp, 0xff, b->n_warps * sizeof(b->warp[0]));
	/*
	 * The arbiter and the warps' priorities for it, only for a kernel
	 * that locks: nothing else reads them (a warp's own priority is set
	 * when it starts, UNLOCK needs a LOCK before it).
	 */
	if (k->sum.uses_lock) {
		for (i = 0; i < b->n_warps; i++)
			b->wprio[i] = vgpu_sm_warp_prio(k, prio, i);
		vgpu_mutex_arb_init(&b->arb, b->n_warps);
	}
	b->items = items;
	vgpu_sm_set_start_key(sm, slot);
	vgpu_sm_prio_add(sm, prio);
	sm->used |= BIT_ULL(slot);
	sm->unstarted |= BIT_ULL(slot);
	sm->start_dirty = true;
	vgpu_sm_sync(sm, b);
	if (unlikely(k->sum.uses_functional))
		vgpu_fn_block_arrive(sm, slot);
	vgpu_sm_emit(sm, VGPU_EV_BLOCK_ADD, b, VGPU_EV_NONE, prio,
		     mode << 16 | b->n_warps);
	vgpu_sm_add_prio(sm, prio);
	return 0;
}

/**
 * vgpu_sm_block_remove() - free a block's resources and its table entry
 * @sm: the SM
 * @slot: its block slot
 */
void vgpu_sm_block_remove(struct vgpu_sm *sm, u32 slot)
{
	u64 bit = BIT_ULL(slot);

	vgpu_sm_res_free_block(&sm->res, &sm->block[slot].place);
	if (!--sm->prio_blocks[sm->block[slot].prio])
		sm->prio_mask &= ~BIT(sm->block[slot].prio);
	sm->used &= ~bit;
	sm->unstarted &= ~bit;
	sm->arb_pending &= ~bit;
	sm->launch_stalled &= ~bit;
	sm->start_dirty = true;
	vgpu_sm_update_prio(sm);
}

/**
 * vgpu_sm_block_set_prio() - a resident block's priority changes
 * @sm: the SM, between two vgpu_sm_run() calls
 * @slot: the block's slot
 * @prio: its new priority, below VGPU_MAX_PRIOS
 *
 * The SM's highest resident priority (F33) and the order in which its
 * blocks start warps follow; the warps already started keep the
 * competition priority they started with (F35).
 */
void vgpu_sm_block_set_prio(struct vgpu_sm *sm, u32 slot, u32 prio)
{
	struct vgpu_sm_block *b = &sm->block[slot];

	if (b->prio == prio)
		return;
	if (!--sm->prio_blocks[b->prio])
		sm->prio_mask &= ~BIT(b->prio);
	b->prio = prio;
	vgpu_sm_prio_add(sm, prio);
	vgpu_sm_set_start_key(sm, slot);
	sm->start_dirty = true;
	vgpu_sm_update_prio(sm);
}

/**
 * vgpu_sm_bar_release() - every warp parked at the block's barrier resumes
 *	in the same cycle (F34)
 * @sm: the SM
 * @b: the block
 */
void vgpu_sm_bar_release(struct vgpu_sm *sm, struct vgpu_sm_block *b)
{
	u64 at = sm->now + sm->timing.ctrl_latency;
	u32 i, n = 0, idx;

	for (i = 0; i < b->next_start; i++) {
		idx = b->warp[i];
		if (idx == VGPU_WARP_NONE ||
		    sm->warps[idx].state != VGPU_WARP_AT_BARRIER)
			continue;
		vgpu_sm_queue(sm, idx, at);
		n++;
	}
	b->bar_arrived = 0;
	vgpu_sm_emit(sm, VGPU_EV_BAR_RELEASE, b, VGPU_EV_NONE, n, (u32)at);
}

/*
 * Every live warp arrived: a BAR releases them (F34); a LAUNCH WAIT parks
 * the block, which tells the controller, and waits for its child (F15).
 */
static void vgpu_sm_bar_check(struct vgpu_sm *sm, struct vgpu_sm_block *b)
{
	if (!b->bar_arrived || b->bar_arrived != b->n_warps - b->n_done)
		return;
	if (b->launch == VGPU_SM_LAUNCH_NONE) {
		vgpu_sm_bar_release(sm, b);
		return;
	}
	b->launch = VGPU_SM_LAUNCH_PARKED;
	vgpu_sm_emit(sm, VGPU_EV_LAUNCH, b, VGPU_EV_NONE, b->launch_tmpl,
		     VGPU_LAUNCH_WAIT);
}

/* F33: the warp executed EXIT. */
static void vgpu_sm_warp_exit(struct vgpu_sm *sm, u32 idx)
{
	struct vgpu_warp *w = &sm->warps[idx];
	struct vgpu_sm_block *b = &sm->block[w->slot];
	u32 wid = w->wid, slot = w->slot;

	w->state = VGPU_WARP_DONE;
	vgpu_sm_emit(sm, VGPU_EV_WARP_EXIT, b, wid, (u32)w->insns, w->subpart);
	vgpu_sm_res_free_warp(&sm->res, &b->place, wid);
	vgpu_worker_pool_put(sm->pool, idx);
	b->warp[wid] = VGPU_WARP_NONE;
	b->n_done++;
	sm->stats.warps_done++;
	sm->start_dirty = true;
	if (b->n_done < b->n_warps) {
		vgpu_sm_bar_check(sm, b);
		return;
	}
	sm->stats.blocks_done++;
	sm->stats.last_done = sm->now;
	vgpu_sm_emit(sm, VGPU_EV_BLOCK_DONE, b, VGPU_EV_NONE, b->n_warps,
		     (u32)(sm->now - b->arrived));
	vgpu_sm_block_remove(sm, slot);
	if (sm->run_flags & VGPU_SM_RUN_STOP_BLOCK)
		sm->stop = true;
}

/**
 * vgpu_sm_lock() - a LOCK, or the retry of a lock the arbiter took away
 *	(F35)
 * @sm: the SM
 * @idx: the warp's context
 * @m: the mutex
 * @is_insn: true for the LOCK instruction (the warp's PC moves on when it
 *	gets the lock), false for a retry
 */
noinline void vgpu_sm_lock(struct vgpu_sm *sm, u32 idx, u32 m, bool is_insn)
{
	struct vgpu_warp *w = &sm->warps[idx];
	struct vgpu_sm_block *b = &sm->block[w->slot];

	if (!vgpu_mutex_lock(&b->arb, w->wid, m)) {
		vgpu_sm_emit(sm, VGPU_EV_LOCK_ACQUIRE, b, w->wid, m,
			     VGPU_LOCK_HOW_FREE);
		if (is_insn) {
			w->need |= 1U << m;
			w->pc++;
		}
		vgpu_sm_queue(sm, idx, sm->now + sm->timing.ctrl_latency);
		return;
	}
	w->state = VGPU_WARP_WAIT_LOCK;
	w->want = m;
	sm->arb_pending |= BIT_ULL(w->slot);
	vgpu_sm_emit(sm, VGPU_EV_LOCK_WAIT, b, w->wid, m,
		     vgpu_mutex_owner(&b->arb, m));
}

static void vgpu_sm_arb_granted(void *ctx, u32 wid, u32 m, u32 how, u32 other)
{
	struct vgpu_sm_arb_ctx *c = ctx;
	struct vgpu_sm *sm = c->sm;
	u32 idx = c->b->warp[wid];
	struct vgpu_warp *w = &sm->warps[idx];
	const struct vgpu_insn *in = &w->prog[w->pc];

	vgpu_sm_emit(sm, VGPU_EV_LOCK_ACQUIRE, c->b, wid, m, how);
	if (in->op == VGPU_OP_LOCK && in->a == m && !(w->need & (1U << m))) {
		w->need |= 1U << m;
		w->pc++;
	}
	vgpu_sm_queue(sm, idx, sm->now);
}

static void vgpu_sm_arb_released(void *ctx, u32 wid, u32 mask, u32 why,
				 u32 other)
{
	struct vgpu_sm_arb_ctx *c = ctx;
	u32 idx = c->b->warp[wid];

	c->sm->warps[idx].hold = 0;
	vgpu_sm_emit(c->sm, why == VGPU_MUTEX_REL_PREEMPT ?
		     VGPU_EV_LOCK_PREEMPT : VGPU_EV_LOCK_YIELD, c->b, wid, mask,
		     other);
}

static const struct vgpu_mutex_ops vgpu_sm_arb_ops = {
	.granted = vgpu_sm_arb_granted,
	.released = vgpu_sm_arb_released,
};

/**
 * vgpu_sm_arbitrate() - one arbitration pass of every block whose arbiter
 *	FIFO is not empty, in block slot order (F35)
 * @sm: the SM
 */
noinline void vgpu_sm_arbitrate(struct vgpu_sm *sm)
{
	struct vgpu_sm_arb_ctx c = { .sm = sm };
	u64 m;
	u32 slot;

	for (m = sm->arb_pending; m; m &= m - 1) {
		slot = __ffs64(m);
		c.b = &sm->block[slot];
		vgpu_mutex_arb_process(&c.b->arb, c.b->wprio, &vgpu_sm_arb_ops,
				       &c);
		if (!c.b->arb.count)
			sm->arb_pending &= ~BIT_ULL(slot);
	}
}

/* Slot of the best block in @cand: highest priority, then earliest. */
static u32 vgpu_sm_best_block(const struct vgpu_sm *sm, u64 cand)
{
	u32 best = __ffs64(cand), s;
	u64 key = sm->start_key[best];

	for (cand &= cand - 1; cand; cand &= cand - 1) {
		s = __ffs64(cand);
		if (sm->start_key[s] < key) {
			key = sm->start_key[s];
			best = s;
		}
	}
	return best;
}

/*
 * Start warp b->next_start in sub-partition @p (its resources are held):
 * returns false, nothing changed, if the pool is exhausted.
 */
static bool vgpu_sm_warp_start(struct vgpu_sm *sm, u32 slot, u32 p)
{
	struct vgpu_sm_block *b = &sm->block[slot];
	u32 i = b->next_start, idx;
	struct vgpu_warp *w;

	idx = vgpu_worker_pool_get(sm->pool);
	if (idx == VGPU_WARP_NONE)
		return false;
	w = &sm->warps[idx];
	w->prio = vgpu_sm_warp_prio(b->kernel, b->prio, i);
	w->subpart = p;
	w->slot = slot;
	w->wid = i;
	w->depth = 0;
	w->pc = 0;
	w->need = 0;
	w->want = 0;
	w->hold = 0;
	w->prog = b->kernel->prog;
	w->insns = 0;
	w->run = 0;
	b->warp[i] = idx;
	b->next_start++;
	if (unlikely(b->kernel->sum.uses_functional))
		vgpu_fn_warp_start(sm, idx);
	vgpu_sm_queue(sm, idx, sm->now);
	vgpu_sm_emit(sm, VGPU_EV_WARP_START, b, i, p, w->prio);
	return true;
}

/**
 * vgpu_sm_start_warps() - start warps on free slots (F30)
 * @sm: the SM
 *
 * At most one new warp per sub-partition per cycle, from the block of
 * the highest priority (then the earliest arrival) first.  Seed 000 claim
 * 3: a free hardware warp goes only to the highest-priority block; while
 * that block waits for resources (warp mode, F23 (b)), no block of lower
 * priority in warp mode takes any, until resources free up (start_dirty).
 * Blocks placed whole hold their warps' slots and registers already and
 * still start.  A block whose kernel's state is not in place yet (F17,
 * seed 002) does not hold the others back.
 */
noinline void vgpu_sm_start_warps(struct vgpu_sm *sm)
{
	u32 all = (u32)GENMASK(sm->subparts - 1, 0), done = 0, slot, i, p;
	u64 cand = sm->unstarted, wake = VGPU_SM_NO_WAKE;
	bool again = false, waits = false;
	struct vgpu_sm_block *b;

	while (cand && done != all) {
		slot = vgpu_sm_best_block(sm, cand);
		cand &= ~BIT_ULL(slot);
		b = &sm->block[slot];
		if (waits && b->mode == VGPU_PLACE_WARP)
			continue;
		if (unlikely(b->ready_at > sm->now)) {
			/* its kernel's state is not in place yet (F17) */
			wake = min(wake, b->ready_at);
			continue;
		}
		while (b->next_start < b->n_warps) {
			i = b->next_start;
			if (b->mode == VGPU_PLACE_WARP &&
			    vgpu_sm_res_alloc_warp(&sm->res, &b->place, i)) {
				waits = true;	/* for resources (F23 b) */
				break;
			}
			p = b->place.warp[i].subpart;
			if (done & BIT(p))
				again = true;	/* that slot's turn is next cycle */
			if ((done & BIT(p)) || !vgpu_sm_warp_start(sm, slot, p)) {
				if (b->mode == VGPU_PLACE_WARP)
					vgpu_sm_res_free_warp(&sm->res,
							      &b->place, i);
				break;
			}
			done |= BIT(p);
		}
		if (b->next_start == b->n_warps)
			sm->unstarted &= ~BIT_ULL(slot);
	}
	/* left for the next cycle: any block, or while one waits, whole ones */
	for (; cand && !again; cand &= cand - 1)
		if (!waits || sm->block[__ffs64(cand)].mode != VGPU_PLACE_WARP)
			again = true;
	sm->start_dirty = again;
	sm->start_wake = wake;
}

/* Warp @w of block @b arrives at a barrier (BAR, or LAUNCH WAIT) (F34). */
static void vgpu_sm_bar_arrive(struct vgpu_sm *sm, struct vgpu_sm_block *b,
			       struct vgpu_warp *w)
{
	w->pc++;
	w->state = VGPU_WARP_AT_BARRIER;
	b->bar_arrived++;
	vgpu_sm_emit(sm, VGPU_EV_BAR_ARRIVE, b, w->wid, b->bar_arrived,
		     b->n_warps - b->n_done);
	vgpu_sm_bar_check(sm, b);
}

/*
 * A LAUNCH or a PUSH (F14, F15) of warp @w of block @b: it acts once per
 * block, warp 0's, which emits event @type with @arg0, @arg1; the other
 * warps go on.  Returns false, warp 0 stalled, while the launch queue is
 * full (until the next epoch).
 */
static bool vgpu_sm_forward(struct vgpu_sm *sm, struct vgpu_sm_block *b,
			    struct vgpu_warp *w, u32 type, u32 arg0, u32 arg1)
{
	if (w->wid) {
		w->pc++;
		return true;
	}
	if (sm->launches >= VGPU_SM_LAUNCH_QUEUE) {
		w->state = VGPU_WARP_WAIT_LAUNCH;
		sm->launch_stalled |= BIT_ULL(w->slot);
		return false;
	}
	sm->launches++;
	w->pc++;
	vgpu_sm_emit(sm, type, b, 0, arg0, arg1);
	return true;
}

/**
 * vgpu_sm_exec_ctrl() - issue a control instruction: the slow path of an
 *	issue (F15, F34, F35)
 * @sm: the SM
 * @idx: the issuing warp's context
 * @w: that warp
 * @in: its instruction (LOOP, ENDLOOP, LOCK, UNLOCK, BAR, SPIN, LAUNCH,
 *	PUSH, EXIT or a functional one, fn.h)
 */
noinline void vgpu_sm_exec_ctrl(struct vgpu_sm *sm, u32 idx,
				struct vgpu_warp *w, const struct vgpu_insn *in)
{
	struct vgpu_sm_block *b = &sm->block[w->slot];
	u64 next = sm->now + sm->timing.ctrl_latency;

	switch (in->op) {
	case VGPU_OP_LOOP:
	case VGPU_OP_ENDLOOP:
		vgpu_sm_loop_step(sm, w, in);
		if (w->run)
			w->run--;
		break;
	case VGPU_OP_LOCK:
		vgpu_sm_lock(sm, idx, in->a, true);
		return;
	case VGPU_OP_UNLOCK:
		vgpu_mutex_unlock(&b->arb, w->wid, in->a);
		w->need &= ~(1U << in->a);
		if (!w->need)
			w->hold = 0;
		w->pc++;
		vgpu_sm_emit(sm, VGPU_EV_UNLOCK, b, w->wid, in->a, 0);
		break;
	case VGPU_OP_BAR:
		if (b->kernel->sum.uses_functional && !vgpu_fn_bar(sm, idx, w))
			return;
		vgpu_sm_bar_arrive(sm, b, w);
		return;
	case VGPU_OP_SPIN:
		w->state = VGPU_WARP_SPIN;
		vgpu_sm_emit(sm, VGPU_EV_SPIN, b, w->wid, w->pc, 0);
		return;
	case VGPU_OP_LAUNCH:
		if (in->b & VGPU_LAUNCH_WAIT) {
			/* a barrier whose completion parks the block (F15) */
			b->launch = VGPU_SM_LAUNCH_ARRIVING;
			b->launch_tmpl = in->a;
			vgpu_sm_bar_arrive(sm, b, w);
			return;
		}
		if (!vgpu_sm_forward(sm, b, w, VGPU_EV_LAUNCH, in->a, in->b))
			return;
		break;
	case VGPU_OP_PUSH:	/* F14: warp 0 forwards it, like a LAUNCH */
		if (!vgpu_sm_forward(sm, b, w, VGPU_EV_PUSH, in->imm, 0))
			return;
		break;
	case VGPU_OP_FUNC_FIRST ... VGPU_OP_FUNC_LAST:
		vgpu_fn_exec(sm, idx, w, in);
		return;
	default:	/* VGPU_OP_EXIT: the validator allows nothing else */
		if (b->kernel->sum.uses_functional && !vgpu_fn_exit(sm, idx, w))
			return;
		vgpu_sm_warp_exit(sm, idx);
		return;
	}
	vgpu_sm_queue(sm, idx, next);
}

/**
 * vgpu_sm_phase() - the phase of the kernel assigned to the SM (F17)
 * @sm: the SM
 *
 * Return: VGPU_SM_PHASE_*; STATE_SYNC turns READY when the state is in
 * place (the SM's acknowledgment, seed 002 step 438).
 */
u32 vgpu_sm_phase(const struct vgpu_sm *sm)
{
	if (sm->phase == VGPU_SM_PHASE_STATE_SYNC && sm->now >= sm->sync_ready)
		return VGPU_SM_PHASE_READY;
	return sm->phase;
}

/**
 * vgpu_sm_phase_name() - name of a VGPU_SM_PHASE_* value
 * @phase: the phase
 *
 * Return: "-", "assign", "sync", "ready" or "?".
 */
const char *vgpu_sm_phase_name(u32 phase)
{
	static const char *const names[] = { "-", "assign", "sync", "ready" };

	return phase < ARRAY_SIZE(names) ? names[phase] : "?";
}

/**
 * vgpu_sm_fini() - tear down an SM
 * @sm: the SM; any block left is cancelled (contexts back to the pool)
 */
void vgpu_sm_fini(struct vgpu_sm *sm)
{
	u64 m;

	vgpu_sm_set_trace(sm, NULL, NULL);
	while ((m = sm->used))
		vgpu_sm_cancel_kernel(sm, sm->block[__ffs64(m)].kernel->id);
	vgpu_sm_res_fini(&sm->res);
}
