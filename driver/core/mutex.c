// SPDX-License-Identifier: GPL-2.0
/*
 * Priority mutex arbitration of one block (F35, seed 003).  See
 * mutex.h for the rules.  No allocation, no locks: the worker that owns
 * the SM serialises everything.
 */
#include "vgpu_os.h"
#include "mutex.h"
#include "trace.h"

/**
 * vgpu_mutex_arb_init() - every mutex free, empty FIFO
 * @arb: arbiter to initialise
 * @warps: warps of the block, at most VGPU_MAX_BLOCK_WARPS: the arbiter
 *	is then used for warps 0 .. @warps - 1 only
 *
 * Clears the lock words, the FIFO's counters and the held masks of the
 * block's warps; the FIFO's pairs are written before they are read.
 */
void vgpu_mutex_arb_init(struct vgpu_mutex_arb *arb, u32 warps)
{
	memset(arb, 0, offsetof(struct vgpu_mutex_arb, held) +
	       min_t(u32, warps, VGPU_MAX_BLOCK_WARPS) * sizeof(arb->held[0]));
}

static void vgpu_mutex_take(struct vgpu_mutex_arb *arb, u32 warp, u32 mutex)
{
	arb->word[mutex] = VGPU_MUTEX_LOCKED | warp;
	arb->held[warp] |= 1U << mutex;
}

static void vgpu_mutex_push(struct vgpu_mutex_arb *arb, u32 warp, u32 mutex,
			    u32 owner)
{
	struct vgpu_mutex_req *r;

	r = &arb->fifo[(arb->head + arb->count) % VGPU_MAX_BLOCK_WARPS];
	r->warp = warp;
	r->mutex = mutex;
	r->owner = owner;
	arb->count++;
}

/**
 * vgpu_mutex_lock() - a warp executes LOCK (or retries a lost lock)
 * @arb: the block's arbiter
 * @warp: requesting warp, holding neither @mutex nor a FIFO entry
 * @mutex: mutex id < VGPU_ISA_MAX_MUTEX
 *
 * Return: 0 if the warp took the free mutex (nobody queued for it), or
 * -EBUSY: the pair (requester, owner) was appended to the FIFO and the
 * warp waits for vgpu_mutex_arb_process() to grant it.
 */
int vgpu_mutex_lock(struct vgpu_mutex_arb *arb, u32 warp, u32 mutex)
{
	if (!(arb->word[mutex] & VGPU_MUTEX_LOCKED) && !arb->waiters[mutex]) {
		vgpu_mutex_take(arb, warp, mutex);
		return 0;
	}
	vgpu_mutex_push(arb, warp, mutex, vgpu_mutex_owner(arb, mutex));
	arb->waiters[mutex]++;
	return -EBUSY;
}

/**
 * vgpu_mutex_unlock() - a warp executes UNLOCK
 * @arb: the block's arbiter
 * @warp: the warp
 * @mutex: mutex id; a no-op unless @warp holds it
 */
void vgpu_mutex_unlock(struct vgpu_mutex_arb *arb, u32 warp, u32 mutex)
{
	if (!(arb->held[warp] & (1U << mutex)))
		return;
	arb->held[warp] &= ~(1U << mutex);
	arb->word[mutex] = 0;
}

/**
 * vgpu_mutex_release_all() - a warp releases every lock it holds
 * @arb: the block's arbiter
 * @warp: the warp
 *
 * Return: the mask of mutexes released (0 if it held none).
 */
u32 vgpu_mutex_release_all(struct vgpu_mutex_arb *arb, u32 warp)
{
	u32 mask = arb->held[warp], m;

	for (m = 0; m < VGPU_ISA_MAX_MUTEX; m++)
		if (mask & (1U << m))
			arb->word[m] = 0;
	arb->held[warp] = 0;
	return mask;
}

/**
 * vgpu_mutex_arb_process() - one arbitration pass over the FIFO (F35)
 * @arb: the block's arbiter
 * @prio: competition priority of each warp of the block (0 highest)
 * @ops: callbacks (grant / release notifications)
 * @ctx: passed to @ops
 *
 * Handles every pair present at entry once, in FIFO order; pairs whose
 * requester keeps waiting stay in the FIFO in the same relative order.
 */
void vgpu_mutex_arb_process(struct vgpu_mutex_arb *arb, const u8 *prio,
			    const struct vgpu_mutex_ops *ops, void *ctx)
{
	u32 n = arb->count, i, owner, mask;
	struct vgpu_mutex_req r;

	for (i = 0; i < n; i++) {
		r = arb->fifo[arb->head];
		arb->head = (arb->head + 1) % VGPU_MAX_BLOCK_WARPS;
		arb->count--;
		owner = vgpu_mutex_owner(arb, r.mutex);
		if (owner == VGPU_MUTEX_NOBODY) {
			arb->waiters[r.mutex]--;
			vgpu_mutex_take(arb, r.warp, r.mutex);
			ops->granted(ctx, r.warp, r.mutex, VGPU_LOCK_HOW_FIFO,
				     VGPU_MUTEX_NOBODY);
		} else if (prio[r.warp] < prio[owner]) {
			arb->waiters[r.mutex]--;
			mask = vgpu_mutex_release_all(arb, owner);
			ops->released(ctx, owner, mask, VGPU_MUTEX_REL_PREEMPT,
				      r.warp);
			vgpu_mutex_take(arb, r.warp, r.mutex);
			ops->granted(ctx, r.warp, r.mutex,
				     VGPU_LOCK_HOW_PREEMPT, owner);
		} else {
			mask = vgpu_mutex_release_all(arb, r.warp);
			if (mask)
				ops->released(ctx, r.warp, mask,
					      VGPU_MUTEX_REL_YIELD, owner);
			vgpu_mutex_push(arb, r.warp, r.mutex, owner);
		}
	}
}
