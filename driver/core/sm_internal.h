/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the two files of the SM engine share: sm.c (execution) and
 * sm_switch.c (switch-out, restore and cancel of resident blocks).  sm.h
 * is the engine's API; nothing here is for its callers.
 */
#ifndef VGPU_CORE_SM_INTERNAL_H
#define VGPU_CORE_SM_INTERNAL_H

#include "vgpu_os.h"
#include "sm.h"

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
	warps[q->tail].next = idx;
	q->tail = idx;
	return false;
}

static inline void vgpu_sm_ready_put(struct vgpu_sm *sm, u32 idx)
{
	struct vgpu_warp *w = &sm->warps[idx];
	struct vgpu_sm_subpart *sp = &sm->sp[w->subpart];

	w->state = VGPU_WARP_READY;
	if (vgpu_wq_push(sm->warps, &sp->ready[w->prio], idx)) {
		sm->sp_mask[w->subpart] |= BIT(w->prio);
		sm->ready_sp |= BIT(w->subpart);
	}
}

static inline void vgpu_sm_wheel_put(struct vgpu_sm *sm, u32 idx, u64 at)
{
	u32 slot = at & (VGPU_WHEEL_SLOTS - 1);

	sm->warps[idx].state = VGPU_WARP_WAIT_LAT;
	if (vgpu_wq_push(sm->warps, &sm->wheel[slot], idx))
		sm->wheel_map[slot / 64] |= BIT_ULL(slot % 64);
	sm->wheel_count++;
}

void vgpu_sm_emit(struct vgpu_sm *sm, u32 type, const struct vgpu_sm_block *b,
		  u32 warp, u32 arg0, u32 arg1);
void vgpu_sm_update_prio(struct vgpu_sm *sm);
void vgpu_sm_sync(struct vgpu_sm *sm, struct vgpu_sm_block *b);
void vgpu_sm_block_remove(struct vgpu_sm *sm, u32 slot);
void vgpu_sm_bar_release(struct vgpu_sm *sm, struct vgpu_sm_block *b);

#endif /* VGPU_CORE_SM_INTERNAL_H */
