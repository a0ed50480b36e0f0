/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Warp contexts and the per-worker context pool (F34, F50, seed 004).
 *
 * A warp context is plain data stepped by the worker that owns its SM.
 * Contexts live in a pool preallocated per worker (the caller provides the
 * memory, sized for the warp slots of every SM the worker owns) and are
 * reused through a free list: nothing is allocated per block or per step.
 */
#ifndef VGPU_CORE_WARP_H
#define VGPU_CORE_WARP_H

#include "vgpu_os.h"
#include <linux/vgpu_dispatch.h>

#define VGPU_WARP_NONE		0xffffffffU	/* no context (pool index) */

/**
 * struct vgpu_wq - queue of warp contexts linked through vgpu_warp.next
 * @head: first pool index, VGPU_WARP_NONE when empty
 * @tail: last pool index
 */
struct vgpu_wq {
	u32 head;
	u32 tail;
};

/* enum vgpu_warp_state: where a started warp is. */
enum vgpu_warp_state {
	VGPU_WARP_FREE = 0,	/* in the pool's free list */
	VGPU_WARP_READY,	/* in its sub-partition's queue: issues from
				 * its ready cycle on (after its latency)
				 */
	VGPU_WARP_AT_BARRIER,	/* parked at BAR (F34) */
	VGPU_WARP_WAIT_LOCK,	/* in its block's arbiter FIFO (F35) */
	VGPU_WARP_SPIN,		/* executed SPIN, runs until cancelled */
	VGPU_WARP_SUSPENDED,	/* context saved off the SM (switch mode) */
	VGPU_WARP_DONE,		/* executed EXIT */
	VGPU_WARP_WAIT_LAUNCH,	/* LAUNCH found the SM's launch queue full:
				 * executes it again next epoch (F15)
				 */
	VGPU_WARP_WAIT_MEM,	/* waits for the epoch boundary: a global
				 * atomic's result, or room in the SM's
				 * global-store log (fn.h)
				 */
	VGPU_WARP_FAULTED,	/* a functional instruction faulted: stays
				 * until its kernel is failed (fn.h)
				 */
};

/**
 * struct vgpu_warp - context of one warp
 * @next: link (pool index) in a sub-partition's queue or the free list;
 *	VGPU_WARP_NONE at the end
 * @prev: the context before it in its queue (not valid at the head): an
 *	insertion before the tail walks back from the tail
 * @state: enum vgpu_warp_state
 * @prio: competition / issue priority, 0 highest (F30, F35)
 * @subpart: sub-partition holding the warp's slot
 * @slot: block slot of its block in the SM
 * @wid: warp index within its block
 * @depth: open LOOPs in @loop
 * @pc: index of the next instruction
 * @need: mutexes the program holds at @pc (F35); when the arbiter took
 *	some away, the warp re-acquires them before going on
 * @want: mutex the warp waits for in state VGPU_WARP_WAIT_LOCK
 * @hold: timed instructions executed since it last had no lock (hold_max)
 * @insns: instructions issued (low 32 bits, what WARP_EXIT reports)
 * @ready: cycle from which the warp may issue (in state VGPU_WARP_READY)
 * @run: its next @run instructions are local ones (timed, LOOP, ENDLOOP:
 *	they touch no state but the warp's and the SM's counters), or 0 if
 *	unknown (vgpu_sm_run() computes it again)
 * @prog: the kernel's program
 * @left: loop stack: iterations left of each open LOOP, the current one
 *	included; the body starts after the LOOP its ENDLOOP is linked to
 *
 * The block index and the LOOP/ENDLOOP links, needed only by control
 * instructions, are the block's (struct vgpu_sm_block): 64 bytes a context.
 */
struct vgpu_warp {
	u32 next;
	u8 state;
	u8 prio;
	u8 subpart;
	u8 slot;
	u8 wid;
	u8 depth;
	u16 pc;
	u16 need;
	u16 want;
	u32 hold;
	u32 insns;
	u64 ready;
	u32 run;
	u32 prev;
	const struct vgpu_insn *prog;
	u16 left[VGPU_ISA_MAX_NEST];
};

/**
 * struct vgpu_worker_pool - warp contexts of one worker (F50)
 * @warps: @size contexts, caller's storage
 * @size: number of contexts
 * @free: first free context, VGPU_WARP_NONE if none
 * @nfree: free contexts
 */
struct vgpu_worker_pool {
	struct vgpu_warp *warps;
	u32 size;
	u32 free;
	u32 nfree;
};

/*
 * Pool indices become addresses on every step of the engine: a power of
 * two keeps that a shift.
 */
static_assert(!(sizeof(struct vgpu_warp) & (sizeof(struct vgpu_warp) - 1)),
	      "struct vgpu_warp: a power-of-two stride");

void vgpu_worker_pool_init(struct vgpu_worker_pool *pool,
			   struct vgpu_warp *storage, u32 size);
void vgpu_worker_pool_fini(struct vgpu_worker_pool *pool);

/**
 * vgpu_worker_pool_bytes() - storage needed for a pool
 * @warps: contexts, e.g. the sum of max_warps_per_sm over the worker's SMs
 *
 * Return: bytes to provide to vgpu_worker_pool_init().
 */
static inline size_t vgpu_worker_pool_bytes(u32 warps)
{
	return (size_t)warps * sizeof(struct vgpu_warp);
}

/**
 * vgpu_worker_pool_get() - take a free context
 * @pool: the pool
 *
 * Return: its index, or VGPU_WARP_NONE when the pool is exhausted.
 */
static inline u32 vgpu_worker_pool_get(struct vgpu_worker_pool *pool)
{
	u32 idx = pool->free;

	if (idx == VGPU_WARP_NONE)
		return idx;
	pool->free = pool->warps[idx].next;
	pool->nfree--;
	pool->warps[idx].next = VGPU_WARP_NONE;
	return idx;
}

/**
 * vgpu_worker_pool_put() - return a context to the free list
 * @pool: the pool
 * @idx: index from vgpu_worker_pool_get()
 */
static inline void vgpu_worker_pool_put(struct vgpu_worker_pool *pool,
					u32 idx)
{
	struct vgpu_warp *w = &pool->warps[idx];

	w->state = VGPU_WARP_FREE;
	w->next = pool->free;
	pool->free = idx;
	pool->nfree++;
}

#endif /* VGPU_CORE_WARP_H */
