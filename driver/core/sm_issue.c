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

/* Rotate the power window buckets up to cycle @t (F25 input). */
static noinline void vgpu_sm_win_roll(struct vgpu_sm *sm, u64 t)
{
	u32 k;

	for (k = 0; k < VGPU_WIN_BUCKETS && t >= sm->win_next; k++) {
		sm->win_cur = (sm->win_cur + 1) % VGPU_WIN_BUCKETS;
		memset(sm->win[sm->win_cur], 0, sizeof(sm->win[0]));
		sm->win_next += sm->win_len;
	}
	if (t >= sm->win_next)	/* idle for longer than the window */
		sm->win_next = t + sm->win_len;
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
 * current cycle (sm->now) and @win the current power window bucket, both
 * loaded once per cycle by vgpu_sm_run().  Returns the number of
 * instructions issued (0 or 1).
 */
static __always_inline u32 vgpu_sm_issue(struct vgpu_sm *sm, u32 p, u64 t,
					 u32 *win)
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
	/* MMA counts its size in base tiles (a = 0 elsewhere) */
	win[c] += 1U << a;
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
 * earliest.  The power window buckets roll when the first sub-partition
 * reaches a boundary (vgpu_sm_round_win()); a round spans at most 15 of
 * them, so that a later sub-partition still finds the earlier buckets,
 * and the cycle loop, which rolls at the first cycle it visits past a
 * boundary, would have rolled them one by one as well (it starts over
 * only after a gap of a whole window, vgpu_sm_win_roll()).
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
	u64 h = sm->win_next + (VGPU_WIN_BUCKETS - 2) * (u64)sm->win_len, m, r;
	struct vgpu_warp *w;
	u32 p, mask, idx;

	h = min(min(h, end), sm->start_wake);

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

/**
 * struct vgpu_sm_round_pos - a sub-partition's power window bucket in a
 *	round
 * @win: counts of the bucket
 * @cur: its index
 * @next: first cycle of the next bucket
 */
struct vgpu_sm_round_pos {
	u32 *win;
	u32 cur;
	u64 next;
};

/*
 * The bucket of cycle @t (past @pos->next) for a sub-partition in a
 * round: the SM's buckets roll as the first sub-partition reaches each
 * boundary, as vgpu_sm_win_roll() would have then.
 */
static noinline void vgpu_sm_round_win(struct vgpu_sm *sm,
				       struct vgpu_sm_round_pos *pos, u64 t)
{
	while (t >= pos->next) {
		pos->cur = (pos->cur + 1) % VGPU_WIN_BUCKETS;
		pos->next += sm->win_len;
		if (pos->next > sm->win_next) {	/* the first one here */
			sm->win_cur = pos->cur;
			memset(sm->win[pos->cur], 0, sizeof(sm->win[0]));
			sm->win_next = pos->next;
		}
	}
	pos->win = sm->win[pos->cur];
}

/*
 * Cycles [@t, @h) of a sub-partition with one non-empty queue @q, from
 * bucket @start (the round's first); adds the instructions issued to @n
 * and returns the cycle after the last issue (@t if none).  Every one is
 * local (vgpu_sm_round_end()).
 */
static noinline u64 vgpu_sm_round_one(struct vgpu_sm *sm, struct vgpu_wq *q,
				      u64 t, u64 h,
				      const struct vgpu_sm_round_pos *start,
				      u64 *n)
{
	struct vgpu_sm_round_pos pos = *start;
	struct vgpu_warp *warps = sm->warps, *w;
	u32 head = q->head, tail = q->tail, idx, c, pc, *win = pos.win;
	u64 k = 0, at, lim = min(h, pos.next);
	const struct vgpu_insn *in;

	for (;;) {
		if (unlikely(t >= lim)) {
			if (t >= h)
				break;
			vgpu_sm_round_win(sm, &pos, t);
			win = pos.win;
			lim = min(h, pos.next);
		}
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
			win[c] += 1U << in->a;
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
 * it would have (it does not stop at @h if nothing is ready then, so the
 * power window rolls at the cycles it always did).
 */
static noinline u64 vgpu_sm_round(struct vgpu_sm *sm, u64 t, u64 h)
{
	struct vgpu_sm_round_pos start = {
		.win = sm->win[sm->win_cur],
		.cur = sm->win_cur,
		.next = sm->win_next,
	}, pos;
	u64 m, n = 0, c, last = t;
	u32 mask, p;

	for (m = sm->ready_sp; m; m &= m - 1) {
		p = __ffs64(m);
		mask = sm->sp_mask[p];
		if (!(mask & (mask - 1))) {
			c = vgpu_sm_round_one(sm, &sm->sp[p].ready[__ffs64(mask)],
					      t, h, &start, &n);
			last = max(last, c);
			continue;
		}
		/* several priorities: the issue step, cycle by cycle */
		pos = start;
		for (c = t; c < h;) {
			sm->now = c;
			if (c >= pos.next)
				vgpu_sm_round_win(sm, &pos, c);
			if (vgpu_sm_issue(sm, p, c, pos.win)) {
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
	u32 *win, n;

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
		win = sm->win[sm->win_cur];
		n = 0;
		for (m = sm->ready_sp; m; m &= m - 1)
			n += vgpu_sm_issue(sm, __ffs64(m), t, win);
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
 *	ready queues, its current window and its next free warp context
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
	prefetchw(sm->win[sm->win_cur]);
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
	 * would make one pass (roll the window at @t, find no round
	 * and set @round_next, find no event before @end), so make that pass
	 * without looking for work.  Every idle SM of an epoch takes this.
	 */
	if (!sm->ready_sp && !sm->start_dirty && !sm->arb_pending &&
	    sm->start_wake >= end && t < end) {
		sm->now = t;
		if (t >= sm->win_next)
			vgpu_sm_win_roll(sm, t);
		if (t >= sm->round_next)
			sm->round_next = t + VGPU_SM_ROUND_MIN;
		t = end;
	} else {
		t = vgpu_sm_run_loop(sm, t, end);
	}
	sm->now = t;
	sm->run_flags = 0;
	if (t >= sm->win_next)	/* the window ends now, even after idling */
		vgpu_sm_win_roll(sm, t);
	return t - start;
}

/**
 * vgpu_sm_window_count() - timed instructions of a class in the window
 * @sm: the SM
 * @cls: class index (opcode - VGPU_OP_MOV)
 *
 * The window is the last nx cycles in VGPU_WIN_BUCKETS buckets of nx / 16
 * cycles, the current bucket included (F25).
 *
 * Return: the count.
 */
u32 vgpu_sm_window_count(const struct vgpu_sm *sm, u32 cls)
{
	u32 b, n = 0;

	for (b = 0; b < VGPU_WIN_BUCKETS; b++)
		n += sm->win[b][cls];
	return n;
}

/**
 * vgpu_sm_power() - emulated power counter of the SM (F25 input)
 * @sm: the SM
 *
 * Return: sum over classes of weight x vgpu_sm_window_count().
 */
u64 vgpu_sm_power(const struct vgpu_sm *sm)
{
	u64 sum = 0;
	u32 c;

	for (c = 0; c < VGPU_ISA_NUM_CLASSES; c++)
		sum += (u64)sm->timing.weight[c] * vgpu_sm_window_count(sm, c);
	return sum;
}
