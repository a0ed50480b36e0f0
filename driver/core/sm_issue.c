// SPDX-License-Identifier: GPL-2.0
/*
 * The SM engine's issue loop (F25 input, F30, F33-F35, F51):
 * vgpu_sm_run(), its per-sub-partition ready queues, the rounds and the
 * power window.  sm.c keeps the blocks, warps, barriers, locks and control
 * instructions the loop calls (sm_internal.h).
 *
 * One cycle of an SM, in this order (Documentation/engine.rst):
 *  1. warps whose latency ends now are ready: each sub-partition keeps its
 *     warps in one queue per priority ordered by ready cycle (then by the
 *     order they were queued), so the ready ones are the queue's head in
 *     the order they became ready and nothing moves;
 *  2. every block whose arbiter FIFO is not empty runs one arbitration
 *     pass (F35), in block slot order; granted warps become ready now;
 *  3. warp starts (F30): the resident block with unstarted warps of the
 *     highest priority (then the earliest arrival) goes first; each
 *     sub-partition receives at most one new warp per cycle; a new warp
 *     is ready now;
 *  4. each sub-partition, in index order, issues one instruction of its
 *     ready warp of the highest priority, round-robin among equals.
 * When no warp is ready, time jumps to the next cycle with something to
 * do (a latency ending, an arbitration or a start), or to the end of the
 * epoch.
 */
#include "vgpu_os.h"
#include "sm.h"
#include "sm_internal.h"

/* Instructions in the ring's cycles from @win_exp on. */
static u32 vgpu_sm_win_live(const struct vgpu_sm *sm)
{
	u32 k, n = 0;

	for (k = 0; k < VGPU_SM_PCLASSES; k++)
		n += sm->win_cnt[k];
	return n;
}

/*
 * The power window at cycle @t (F25 input): the issues of the cycles
 * before @t - nx leave it (their counts go, their bytes are cleared), and
 * the ring has room up to @t - nx + its length.  A walk over the cycles
 * since the last one, at most the ring's length, and none once nothing
 * is left in it: O(1) a cycle.
 */
static noinline void vgpu_sm_win_roll(struct vgpu_sm *sm, u64 t)
{
	u32 len = sm->win_mask + 1, sp = sm->subparts, live, p, k;
	u64 target, c, end;
	u8 *slot;

	if (sm->win_ring == sm->win_none || t <= sm->win_nx)
		return;
	target = t - sm->win_nx;
	if (target <= sm->win_exp)
		return;
	end = min(target, sm->win_exp + len);
	live = vgpu_sm_win_live(sm);
	for (c = sm->win_exp; live && c < end; c++) {
		slot = vgpu_sm_win_slot(sm, c);
		for (p = 0; p < sp; p++) {
			k = slot[p];
			if (k) {
				sm->win_cnt[k - 1]--;
				slot[p] = 0;
				live--;
			}
		}
	}
	sm->win_exp = target;
	sm->win_next = target + len;
}

/* hold_max (F35): a holder releases every lock after hold_max insns. */
static noinline void vgpu_sm_hold_check(struct vgpu_sm *sm,
					struct vgpu_warp *w)
{
	struct vgpu_sm_block *b = &sm->block[w->slot];
	u32 mask;

	if (++w->hold < sm->timing.hold_max)
		return;
	w->hold = 0;
	mask = vgpu_mutex_release_all(&b->arb, w->wid);
	vgpu_sm_emit(sm, VGPU_EV_LOCK_HOLD_MAX, b, w->wid, mask, 0);
}

/* A new vgpu_sm_run(): the launch queue is empty again (F15). */
static noinline void vgpu_sm_launch_unstall(struct vgpu_sm *sm)
{
	struct vgpu_sm_block *b;
	u64 m;
	u32 idx;

	sm->launches = 0;
	for (m = sm->launch_stalled; m; m &= m - 1) {
		b = &sm->block[__ffs64(m)];
		idx = b->warp[0];
		if (idx != VGPU_WARP_NONE &&
		    sm->warps[idx].state == VGPU_WARP_WAIT_LAUNCH)
			vgpu_sm_queue(sm, idx, sm->now);
	}
	sm->launch_stalled = 0;
}

/*
 * The queue of sub-partition @p that issues at cycle @t when the head of
 * its queue of the highest priority is not ready: of a lower priority
 * whose head is; NULL when none is.
 */
static noinline struct vgpu_wq *vgpu_sm_pick_lower(struct vgpu_sm *sm, u32 p,
						   u64 t)
{
	u32 mask = sm->sp_mask[p];
	struct vgpu_wq *q;

	for (mask &= mask - 1; mask; mask &= mask - 1) {
		q = &sm->sp[p].ready[__ffs64(mask)];
		if (sm->warps[q->head].ready <= t)
			return q;
	}
	return NULL;
}

/*
 * Step 4 for sub-partition @p (it has queued warps): issue one instruction
 * of its ready warp of the highest priority, if there is one.  @t is the
 * current cycle (sm->now) and @slot the power window's bytes of it
 * (vgpu_sm_win_slot()), both loaded once per cycle by vgpu_sm_run().
 * Returns the number of instructions issued (0 or 1).
 */
static __always_inline u32 vgpu_sm_issue(struct vgpu_sm *sm, u32 p, u64 t,
					 u8 *slot)
{
	struct vgpu_warp *warps = sm->warps, *w;
	struct vgpu_wq *q = &sm->sp[p].ready[__ffs64(sm->sp_mask[p])];
	u32 idx = q->head, held, c, need, next, tail, pc, a;
	const struct vgpu_insn *in;
	u64 at;

	w = &warps[idx];
	if (unlikely(w->ready > t)) {
		q = vgpu_sm_pick_lower(sm, p, t);
		if (!q)
			return 0;
		idx = q->head;
		w = &warps[idx];
	}
	next = w->next;
	need = w->need;
	pc = w->pc;
	in = &w->prog[pc];
	q->head = next;
	if (unlikely(next == VGPU_WARP_NONE)) {
		q->tail = VGPU_WARP_NONE;
		sm->sp_mask[p] &= ~BIT(w->prio);
		if (!sm->sp_mask[p])
			sm->ready_sp &= ~BIT(p);
	}
	w->insns++;
	if (unlikely(need)) {
		held = sm->block[w->slot].arb.held[w->wid];
		if (held != need) {	/* retry a lock taken away (F35) */
			vgpu_sm_lock(sm, idx, __ffs64(need & ~held), false);
			return 1;
		}
	}
	c = in->op - VGPU_OP_MOV;
	if (unlikely(c >= VGPU_ISA_NUM_CLASSES)) {
		vgpu_sm_exec_ctrl(sm, idx, w, in);
		return 1;
	}
	a = in->a;
	at = t + sm->timing.latency[c];
	w->pc = pc + 1;
	if (w->run)
		w->run--;
	sm->stats.cls[c]++;
	/* an MMA's size is a power class of its own (a = 0 elsewhere) */
	vgpu_sm_win_add(sm, slot, p, c, a);
	if (unlikely(need))
		vgpu_sm_hold_check(sm, w);
	/* vgpu_sm_queue() into the queue it left (its state stays READY) */
	w->ready = at;
	w->next = VGPU_WARP_NONE;
	tail = q->tail;
	if (likely(tail != VGPU_WARP_NONE && warps[tail].ready <= at)) {
		w->prev = tail;
		warps[tail].next = idx;
		q->tail = idx;
		return 1;
	}
	vgpu_sm_queue_slow(sm, idx, at);
	return 1;
}

/*
 * Next cycle after @t with something to do, at most @end: no warp is
 * ready at @t, so the next is the earliest queue head.
 */
static noinline u64 vgpu_sm_next_event(const struct vgpu_sm *sm, u64 t,
				       u64 end)
{
	const struct vgpu_wq *q;
	u32 p, mask;
	u64 m;

	if (sm->start_dirty || sm->arb_pending)
		return t + 1;
	/* F17: warps that wait for a state sync start then */
	if (unlikely(sm->start_wake < end))
		end = max(sm->start_wake, t + 1);
	for (m = sm->ready_sp; m; m &= m - 1) {
		p = __ffs64(m);
		for (mask = sm->sp_mask[p]; mask; mask &= mask - 1) {
			q = &sm->sp[p].ready[__ffs64(mask)];
			end = min(end, sm->warps[q->head].ready);
		}
	}
	return end;
}

/*
 * Rounds.  Most cycles change nothing but the issuing warps and the SM's
 * counters: a timed instruction, a LOOP or an ENDLOOP (a "local" one)
 * touches no other warp, emits no event and wakes nothing.  If no warp
 * can reach another instruction before cycle h, and no warp start,
 * arbitration is due before it, the sub-partitions are independent over
 * [t, h): each runs its cycles alone, one after the other, with its queue
 * in registers, and issues exactly what the cycle by cycle loop would
 * have.  vgpu_warp.run bounds each warp's local instructions; a warp
 * ready at r with run n reaches another instruction at r + n at the
 * earliest.  A round ends where the power window's ring has no room
 * left (&vgpu_sm.win_next): the sub-partitions write their own bytes of
 * each cycle's, in any order.
 */
#define VGPU_SM_ROUND_MIN	8	/* shortest round worth its set-up */

/* Is every instruction of [@s, @e) timed? */
static bool vgpu_sm_all_timed(const struct vgpu_insn *prog, u32 s, u32 e)
{
	for (; s < e; s++)
		if ((u32)(prog[s].op - VGPU_OP_MOV) >= VGPU_ISA_NUM_CLASSES)
			return false;
	return true;
}

/*
 * A lower bound of the local instructions warp @w executes from its PC
 * on: timed instructions up to the end of the loop bodies it is in,
 * counting the iterations left of a body of timed instructions only, and
 * a LOOP it meets last.  0 while it holds or wants a lock (hold_max).
 */
static u32 vgpu_sm_local_run(const struct vgpu_sm *sm,
			     const struct vgpu_warp *w)
{
	const struct vgpu_insn *prog = w->prog;
	const u16 *match = sm->block[w->slot].kernel->match;
	u32 pc = w->pc, d = w->depth, start, op;
	u64 r = 0;

	if (w->need)
		return 0;
	for (;;) {
		op = prog[pc].op;
		if ((u32)(op - VGPU_OP_MOV) < VGPU_ISA_NUM_CLASSES) {
			r++;
			pc++;
			continue;
		}
		if (op == VGPU_OP_LOOP)
			r++;
		if (op != VGPU_OP_ENDLOOP)
			break;
		/* this iteration ends; then w->left[d - 1] - 1 more */
		start = match[pc] + 1;
		r++;
		if (w->left[d - 1] > 1) {
			if (!vgpu_sm_all_timed(prog, start, pc))
				break;
			r += (u64)(w->left[d - 1] - 1) * (pc - start + 1);
		}
		d--;
		pc++;
	}
	return min_t(u64, r, 0xffffffffU);
}

/*
 * End of a round from cycle @t (nothing is due before @end), or @t if it
 * would be shorter than VGPU_SM_ROUND_MIN.
 */
static noinline u64 vgpu_sm_round_end(struct vgpu_sm *sm, u64 t, u64 end)
{
	u64 h = min(min(sm->win_next, end), sm->start_wake), m, r;
	struct vgpu_warp *w;
	u32 p, mask, idx;

	if (sm->start_dirty || sm->arb_pending || h < t + VGPU_SM_ROUND_MIN)
		return t;
	for (m = sm->ready_sp; m; m &= m - 1) {
		p = __ffs64(m);
		for (mask = sm->sp_mask[p]; mask; mask &= mask - 1) {
			idx = sm->sp[p].ready[__ffs64(mask)].head;
			for (; idx != VGPU_WARP_NONE; idx = w->next) {
				w = &sm->warps[idx];
				if (!w->run)
					w->run = vgpu_sm_local_run(sm, w);
				r = max(w->ready, t) + w->run;
				if (r < h) {
					h = r;
					if (h < t + VGPU_SM_ROUND_MIN)
						return t;
				}
			}
		}
	}
	return h;
}

/*
 * Cycles [@t, @h) of sub-partition @p with one non-empty queue @q; adds
 * the instructions issued to @n and returns the cycle after the last
 * issue (@t if none).  Every one is local (vgpu_sm_round_end()).
 */
static noinline u64 vgpu_sm_round_one(struct vgpu_sm *sm, struct vgpu_wq *q,
				      u32 p, u64 t, u64 h, u64 *n)
{
	struct vgpu_warp *warps = sm->warps, *w;
	u32 head = q->head, tail = q->tail, idx, c, pc;
	u32 mask = sm->win_mask, sp = sm->subparts, a, pcls;
	u32 *cnt = sm->win_cnt;
	u8 *ring = sm->win_ring + p;
	const struct vgpu_insn *in;
	u64 k = 0, at;

	for (;;) {
		if (unlikely(t >= h))
			break;
		w = &warps[head];
		if (w->ready > t) {	/* none ready: the head is first */
			if (w->ready >= h)
				break;
			t = w->ready;
			continue;
		}
		idx = head;
		head = w->next;
		pc = w->pc;
		in = &w->prog[pc];
		w->insns++;
		w->run--;
		c = in->op - VGPU_OP_MOV;
		if (likely(c < VGPU_ISA_NUM_CLASSES)) {
			w->pc = pc + 1;
			sm->stats.cls[c]++;
			/* vgpu_sm_win_add() with the ring's figures in registers */
			a = in->a;
			pcls = a ? VGPU_ISA_NUM_CLASSES - 1 + a : c;
			ring[(u32)(t & mask) * sp] = pcls + 1;
			cnt[pcls]++;
			at = t + sm->timing.latency[c];
		} else {
			vgpu_sm_loop_step(sm, w, in);
			at = t + sm->timing.ctrl_latency;
		}
		w->ready = at;
		w->next = VGPU_WARP_NONE;
		k++;
		t++;
		if (head == VGPU_WARP_NONE) {	/* it was alone */
			head = idx;
			tail = idx;
		} else if (likely(warps[tail].ready <= at)) {
			w->prev = tail;
			warps[tail].next = idx;
			tail = idx;
		} else {
			q->head = head;
			q->tail = tail;
			vgpu_sm_queue_slow(sm, idx, at);
			head = q->head;
			tail = q->tail;
		}
	}
	q->head = head;
	q->tail = tail;
	*n += k;
	return t;
}

/* Earliest ready cycle of the warps queued in sub-partition @p. */
static u64 vgpu_sm_sp_next(const struct vgpu_sm *sm, u32 p)
{
	u64 r = VGPU_SM_NO_WAKE;
	u32 mask;

	for (mask = sm->sp_mask[p]; mask; mask &= mask - 1)
		r = min(r, sm->warps[sm->sp[p].ready[__ffs64(mask)].head].ready);
	return r;
}

/*
 * Cycles [@t, @h) of a round (vgpu_sm_round_end()).  Returns the cycle
 * after the last issue, @t if none: the cycle loop goes on from there as
 * it would have (it does not stop at @h if nothing is ready then).
 */
static noinline u64 vgpu_sm_round(struct vgpu_sm *sm, u64 t, u64 h)
{
	u64 m, n = 0, c, last = t;
	u32 mask, p;

	for (m = sm->ready_sp; m; m &= m - 1) {
		p = __ffs64(m);
		mask = sm->sp_mask[p];
		if (!(mask & (mask - 1))) {
			c = vgpu_sm_round_one(sm, &sm->sp[p].ready[__ffs64(mask)],
					      p, t, h, &n);
			last = max(last, c);
			continue;
		}
		/* several priorities: the issue step, cycle by cycle */
		for (c = t; c < h;) {
			sm->now = c;
			if (vgpu_sm_issue(sm, p, c, vgpu_sm_win_slot(sm, c))) {
				n++;
				last = max(last, ++c);
			} else {
				c = vgpu_sm_sp_next(sm, p);
			}
		}
	}
	sm->stats.issued += n;
	return last;
}

/*
 * The cycles of vgpu_sm_run() from @t to @end with work to look at;
 * returns where it stopped.  Out of line: an idle SM's call does not
 * save and restore the registers this loop needs.
 */
static noinline u64 vgpu_sm_run_loop(struct vgpu_sm *sm, u64 t, u64 end)
{
	u64 h, m;
	u32 n;
	u8 *slot;

	while (t < end) {
		sm->now = t;
		if (unlikely(t >= sm->win_next))
			vgpu_sm_win_roll(sm, t);
		if (unlikely(sm->arb_pending))
			vgpu_sm_arbitrate(sm);
		if (unlikely(sm->start_dirty || t >= sm->start_wake))
			vgpu_sm_start_warps(sm);
		if (t >= sm->round_next) {
			h = vgpu_sm_round_end(sm, t, end);
			if (h > t)
				h = vgpu_sm_round(sm, t, h);
			if (h > t) {
				t = h;
				continue;
			}
			sm->round_next = t + VGPU_SM_ROUND_MIN;
		}
		slot = vgpu_sm_win_slot(sm, t);
		n = 0;
		for (m = sm->ready_sp; m; m &= m - 1)
			n += vgpu_sm_issue(sm, __ffs64(m), t, slot);
		if (!n) {
			t = vgpu_sm_next_event(sm, t, end);
			continue;
		}
		sm->stats.issued += n;
		t++;
		if (unlikely(sm->stop))
			break;
	}
	return t;
}

/**
 * vgpu_sm_prefetch() - start fetching what an SM's next epoch reads first
 * @sm: an SM that is to run soon
 * @blocks: the second step: its unstarted blocks' rows, its sub-partitions'
 *	ready queues, its power window's bytes of the current cycle and its
 *	next free warp context
 *
 * An epoch begins with loads of lines the SM last touched an epoch or a
 * round of decisions earlier; with thousands of SMs none is in the cache
 * any more, and each load stalls the run in turn.  A caller advancing SMs
 * one after another calls this a few SMs ahead: first without @blocks
 * (lines at fixed places: the SM's scalars, its latency table, its start
 * keys), then, an SM or two later, with @blocks, which reads those
 * scalars to find the rest.  Hints only: nothing changes.
 */
void vgpu_sm_prefetch(const struct vgpu_sm *sm, bool blocks)
{
	const char *p = (const char *)sm;
	u32 i;
	u64 m;

	if (!blocks) {
		for (i = 0; i < offsetof(struct vgpu_sm, res); i += 64)
			prefetchw(p + i);
		prefetch(sm->timing.latency);
		for (i = 0; i < sizeof(sm->start_key); i += 64)
			prefetch((const char *)sm->start_key + i);
		return;
	}
	for (m = sm->unstarted; m; m &= m - 1) {
		i = __ffs64(m);
		prefetchw(&sm->block[i]);
		prefetchw(&sm->block[i].place);
	}
	for (i = 0; i < sm->subparts; i++)
		prefetchw(&sm->sp[i]);
	prefetchw(vgpu_sm_win_slot(sm, sm->now));
	if (sm->pool->nfree)
		prefetchw(&sm->pool->warps[sm->pool->free]);
}

/**
 * vgpu_sm_run() - advance an SM by an epoch of @cycles cycles (F51)
 * @sm: the SM
 * @cycles: cycles to run
 * @flags: VGPU_SM_RUN_STOP_BLOCK to return right after the first cycle in
 *	which a block completed
 *
 * Deterministic: the result depends only on the SM's state and @cycles.
 *
 * Return: cycles actually advanced (@cycles unless stopped early).
 */
u64 vgpu_sm_run(struct vgpu_sm *sm, u64 cycles, u32 flags)
{
	u64 t = sm->now, start = t, end;

	if (check_add_overflow(t, cycles, &end))
		end = ~0ULL;
	sm->stop = false;
	sm->run_flags = flags;
	if (unlikely(sm->phase == VGPU_SM_PHASE_TASK_ASSIGN))
		sm->phase = VGPU_SM_PHASE_STATE_SYNC;	/* the state goes out */
	if (unlikely(sm->launches || sm->launch_stalled))
		vgpu_sm_launch_unstall(sm);
	/*
	 * Nothing queued, no start or arbitration due before @end: the loop
	 * would make one pass (find no round and set @round_next, find no
	 * event before @end), so make that pass without looking for work.
	 * Every idle SM of an epoch takes this.
	 */
	if (!sm->ready_sp && !sm->start_dirty && !sm->arb_pending &&
	    sm->start_wake >= end && t < end) {
		sm->now = t;
		if (t >= sm->round_next)
			sm->round_next = t + VGPU_SM_ROUND_MIN;
		t = end;
	} else {
		t = vgpu_sm_run_loop(sm, t, end);
	}
	sm->now = t;
	sm->run_flags = 0;
	/* the window is the last nx cycles before @t, exactly */
	if (t > sm->win_exp + sm->win_nx)
		vgpu_sm_win_roll(sm, t);
	return t - start;
}

/**
 * vgpu_sm_window_bytes() - storage for an SM's power window
 * @cfg: the configuration (its sub-partitions)
 * @timing: the timing table (its window nx)
 *
 * A byte per sub-partition and cycle of a ring of the smallest power of
 * two of cycles that holds nx + nx / 16 (the window and room to run on
 * before the oldest cycles must be cleared).
 *
 * Return: bytes for vgpu_sm_set_window().
 */
size_t vgpu_sm_window_bytes(const struct vgpu_config *cfg,
			    const struct vgpu_isa_timing *timing)
{
	u64 n = (u64)timing->window + timing->window / 16;

	return ((size_t)1 << fls64(n - 1)) * cfg->subparts;
}

/**
 * vgpu_sm_set_window() - give an SM its power window (F25 input)
 * @sm: an SM just initialised (vgpu_sm_init(), nothing run yet)
 * @ring: vgpu_sm_window_bytes() of storage, which the SM clears and uses
 *	until the next vgpu_sm_init(); NULL: none
 *
 * Without one (the default) the SM counts no power window: its
 * vgpu_sm_window_count() and vgpu_sm_power() read 0.
 */
void vgpu_sm_set_window(struct vgpu_sm *sm, u8 *ring)
{
	u64 n = (u64)sm->win_nx + sm->win_nx / 16;
	u32 len = (u32)1 << fls64(n - 1);

	memset(sm->win_cnt, 0, sizeof(sm->win_cnt));
	sm->win_exp = 0;
	if (!ring) {
		sm->win_ring = sm->win_none;
		sm->win_mask = 0;
		sm->win_next = VGPU_SM_NO_WAKE;
		return;
	}
	memset(ring, 0, (size_t)len * sm->subparts);
	sm->win_ring = ring;
	sm->win_mask = len - 1;
	sm->win_next = len;
}

/**
 * vgpu_sm_window_pcount() - instructions of a power class in the window
 * @sm: the SM
 * @pcls: the power class: a timed class (opcode - VGPU_OP_MOV; an MMA of
 *	one base tile), or VGPU_ISA_NUM_CLASSES - 1 + s for an MMA of 2^s
 *	base tiles, s = 1 .. VGPU_MMA_SIZE_MAX
 *
 * The window is the last nx cycles, exactly: at &vgpu_sm.now = t, the
 * cycles t - nx .. t - 1 (F25).
 *
 * Return: the count, 0 without a window (vgpu_sm_set_window()).
 */
u32 vgpu_sm_window_pcount(const struct vgpu_sm *sm, u32 pcls)
{
	if (sm->win_ring == sm->win_none || pcls >= VGPU_SM_PCLASSES)
		return 0;
	return sm->win_cnt[pcls];
}

/**
 * vgpu_sm_window_count() - timed instructions of a class in the window
 * @sm: the SM
 * @cls: class index (opcode - VGPU_OP_MOV)
 *
 * The window is the last nx cycles (vgpu_sm_window_pcount()).  MMA
 * counts its base tiles, 2^s for one of size s.
 *
 * Return: the count.
 */
u32 vgpu_sm_window_count(const struct vgpu_sm *sm, u32 cls)
{
	u32 n = vgpu_sm_window_pcount(sm, cls), s;

	if (cls == VGPU_OP_MMA - VGPU_OP_MOV)
		for (s = 1; s <= VGPU_MMA_SIZE_MAX; s++)
			n += vgpu_sm_window_pcount(sm, VGPU_ISA_NUM_CLASSES - 1 +
						   s) << s;
	return n;
}

/**
 * vgpu_sm_window_hist() - the power window in sixteenths
 * @sm: the SM
 * @hist: receives the timed instructions of each sixteenth of the last nx
 *	cycles, oldest first (all 0 without a window)
 *
 * For debugfs: a walk over the window's cycles.
 */
void vgpu_sm_window_hist(const struct vgpu_sm *sm,
			 u32 hist[VGPU_SM_WIN_HIST])
{
	u64 t = sm->now, c, from;
	const u8 *slot;
	u32 p;

	memset(hist, 0, VGPU_SM_WIN_HIST * sizeof(*hist));
	if (sm->win_ring == sm->win_none)
		return;
	from = t > sm->win_nx ? t - sm->win_nx : 0;
	for (c = max(from, sm->win_exp); c < t; c++) {
		slot = vgpu_sm_win_slot(sm, c);
		for (p = 0; p < sm->subparts; p++)
			if (slot[p])
				hist[div_u64((c - (t - sm->win_nx)) *
					     VGPU_SM_WIN_HIST, sm->win_nx)]++;
	}
}

/**
 * vgpu_sm_power() - emulated power counter of the SM (F25 input)
 * @sm: the SM
 *
 * Return: sum over the power classes of b_s x their count in the window:
 * the timed classes' weights, an MMA of 2^s tiles its own
 * (vgpu_isa_timing_mma_weight()).
 */
u64 vgpu_sm_power(const struct vgpu_sm *sm)
{
	u64 sum = 0;
	u32 c, s;

	for (c = 0; c < VGPU_ISA_NUM_CLASSES; c++)
		sum += (u64)sm->timing.weight[c] * vgpu_sm_window_pcount(sm, c);
	for (s = 1; s <= VGPU_MMA_SIZE_MAX; s++)
		sum += (u64)vgpu_isa_timing_mma_weight(&sm->timing, s) *
		       vgpu_sm_window_pcount(sm, VGPU_ISA_NUM_CLASSES - 1 + s);
	return sum;
}
