/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the three files of the SM engine share: sm.c (blocks, warps,
 * barriers, locks, control instructions), sm_issue.c (the issue loop,
 * rounds and power window) and sm_switch.c (switch-out, restore and
 * cancel of resident blocks).  sm.h is the engine's API; nothing here is
 * for its callers.
 */
#ifndef VGPU_CORE_SM_INTERNAL_H
#define VGPU_CORE_SM_INTERNAL_H

#include "vgpu_os.h"
#include "sm.h"
#include "fn.h"

static inline void vgpu_wq_init(struct vgpu_wq *q)
{
	q->head = VGPU_WARP_NONE;
	q->tail = VGPU_WARP_NONE;
}

/* Append context @idx to @q; returns true if @q was empty. */
static inline bool vgpu_wq_push(struct vgpu_warp *warps, struct vgpu_wq *q,
				u32 idx)
{
	warps[idx].next = VGPU_WARP_NONE;
	if (q->head == VGPU_WARP_NONE) {
		q->head = idx;
		q->tail = idx;
		return true;
	}
	warps[idx].prev = q->tail;
	warps[q->tail].next = idx;
	q->tail = idx;
	return false;
}

void vgpu_sm_queue_slow(struct vgpu_sm *sm, u32 idx, u64 at);

/*
 * Queue context @idx in its sub-partition: it may issue from cycle @at on
 * (at least the current cycle).  A queue is ordered by ready cycle, then
 * by queueing order, so the warps that are ready are its head in the
 * order they became ready, and the others follow in the order their
 * latencies end: the same order as a latency wheel drained into a FIFO
 * ready queue at each cycle.  Nearly always the queue is empty or @at
 * is the latest: one append.
 */
static __always_inline void vgpu_sm_queue(struct vgpu_sm *sm, u32 idx, u64 at)
{
	struct vgpu_warp *warps = sm->warps, *w = &warps[idx];
	struct vgpu_wq *q = &sm->sp[w->subpart].ready[w->prio];

	w->state = VGPU_WARP_READY;
	w->ready = at;
	w->next = VGPU_WARP_NONE;
	if (q->head == VGPU_WARP_NONE) {	/* a new warp's, often */
		q->head = idx;
		q->tail = idx;
		sm->sp_mask[w->subpart] |= BIT(w->prio);
		sm->ready_sp |= BIT(w->subpart);
		return;
	}
	if (likely(warps[q->tail].ready <= at)) {
		w->prev = q->tail;
		warps[q->tail].next = idx;
		q->tail = idx;
		return;
	}
	vgpu_sm_queue_slow(sm, idx, at);
}

/*
 * Competition priority of warp @i of a block of priority @prio of kernel
 * @k (F35, seed 003): the block's, plus the warp's level set by the host
 * (@k->warp_prio) or its index modulo @k->prio_wid_mod, capped at the
 * lowest priority.
 */
static inline u32 vgpu_sm_warp_prio(const struct vgpu_kernel_desc *k,
				    u32 prio, u32 i)
{
	u32 wp = prio;

	if (k->warp_prio)
		wp += k->warp_prio[i];
	else if (k->prio_wid_mod)
		wp += i % k->prio_wid_mod;
	return min_t(u32, wp, VGPU_MAX_PRIOS - 1);
}

/* The order in which block @slot starts its warps (F30). */
static inline void vgpu_sm_set_start_key(struct vgpu_sm *sm, u32 slot)
{
	const struct vgpu_sm_block *b = &sm->block[slot];

	sm->start_key[slot] = (u64)b->prio << 56 |
			      (b->seq & GENMASK_ULL(55, 0));
}

/* A block of priority @prio becomes resident (F33). */
static inline void vgpu_sm_prio_add(struct vgpu_sm *sm, u32 prio)
{
	sm->prio_blocks[prio]++;
	sm->prio_mask |= BIT(prio);
}

/*
 * The power window's ring (F25): the bytes of cycle @t, one per
 * sub-partition (struct vgpu_sm @win_ring).
 */
static inline u8 *vgpu_sm_win_slot(const struct vgpu_sm *sm, u64 t)
{
	return sm->win_ring + (u32)(t & sm->win_mask) * sm->subparts;
}

/*
 * Sub-partition @p issued a timed instruction of class @c (an MMA of
 * 2^@a base tiles; @a is 0 for every other class) in the cycle of @slot.
 */
static inline void vgpu_sm_win_add(struct vgpu_sm *sm, u8 *slot, u32 p,
				   u32 c, u32 a)
{
	u32 k = a ? VGPU_ISA_NUM_CLASSES - 1 + a : c;

	slot[p] = k + 1;
	sm->win_cnt[k]++;
}

void vgpu_sm_emit(struct vgpu_sm *sm, u32 type, const struct vgpu_sm_block *b,
		  u32 warp, u32 arg0, u32 arg1);
void vgpu_sm_update_prio(struct vgpu_sm *sm);
void vgpu_sm_sync(struct vgpu_sm *sm, struct vgpu_sm_block *b);
void vgpu_sm_block_remove(struct vgpu_sm *sm, u32 slot);
void vgpu_sm_bar_release(struct vgpu_sm *sm, struct vgpu_sm_block *b);
void vgpu_sm_lock(struct vgpu_sm *sm, u32 idx, u32 m, bool is_insn);
void vgpu_sm_arbitrate(struct vgpu_sm *sm);
void vgpu_sm_start_warps(struct vgpu_sm *sm);
void vgpu_sm_exec_ctrl(struct vgpu_sm *sm, u32 idx, struct vgpu_warp *w,
		       const struct vgpu_insn *in);

/* LOOP or ENDLOOP @in of warp @w: its PC and loop stack only. */
static inline void vgpu_sm_loop_step(const struct vgpu_sm *sm,
				     struct vgpu_warp *w,
				     const struct vgpu_insn *in)
{
	const struct vgpu_sm_block *b = &sm->block[w->slot];
	u32 n;

	if (in->op == VGPU_OP_LOOP) {
		n = vgpu_isa_loop_count_items(in, b->block_idx, w->wid,
					      b->items);
		if (!n) {
			w->pc = b->kernel->match[w->pc] + 1;
		} else {
			w->left[w->depth++] = n;
			w->pc++;
		}
		return;
	}
	if (--w->left[w->depth - 1]) {
		w->pc = b->kernel->match[w->pc] + 1;
	} else {
		w->depth--;
		w->pc++;
	}
}

#endif /* VGPU_CORE_SM_INTERNAL_H */
