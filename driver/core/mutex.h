/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Priority mutex arbitration of one block (F35, seed 003).
 *
 * A block has VGPU_ISA_MAX_MUTEX lock words; each holds a locked bit and
 * the owner warp (index within the block).  A LOCK that finds the word
 * free and nobody queued for it takes it at once; otherwise the pair
 * (requester, owner) is appended to the block's arbiter FIFO.  The arbiter
 * (vgpu_mutex_arb_process(), once per cycle when the FIFO is not empty)
 * handles the pairs in FIFO order:
 *
 * - the mutex is free: the requester takes it;
 * - the requester's competition priority is strictly higher (smaller
 *   number) than the owner's: the owner releases every lock it holds (it
 *   retries them later) and the requester takes the mutex;
 * - otherwise the requester keeps waiting, in place in the FIFO, and
 *   releases every lock it holds itself.
 *
 * So a waiting warp holds no lock after its first arbitration and no
 * hold-and-wait cycle can form; equal priorities are served in FIFO order.
 * The hold_max rule (a holder that executed hold_max instructions under a
 * lock releases them all) is applied by the engine with
 * vgpu_mutex_release_all().
 */
#ifndef VGPU_CORE_MUTEX_H
#define VGPU_CORE_MUTEX_H

#include "vgpu_os.h"
#include "config.h"
#include <linux/vgpu_dispatch.h>

#define VGPU_MUTEX_LOCKED	0x80	/* lock word: locked bit */
#define VGPU_MUTEX_OWNER	0x7f	/* lock word: owner warp */
#define VGPU_MUTEX_NOBODY	0xff	/* no owner (struct vgpu_mutex_req) */

/* Why a warp lost its locks (vgpu_mutex_ops.released). */
#define VGPU_MUTEX_REL_PREEMPT	0	/* a strictly higher-priority requester */
#define VGPU_MUTEX_REL_YIELD	1	/* it waits behind an equal/higher owner */

static_assert(VGPU_MAX_BLOCK_WARPS - 1 <= VGPU_MUTEX_OWNER,
	      "owner fits the lock word");
static_assert(VGPU_ISA_MAX_MUTEX <= 16, "held masks are u16");

/**
 * struct vgpu_mutex_req - one (requester, owner) pair of the arbiter FIFO
 * @warp: requesting warp
 * @mutex: requested mutex id
 * @owner: owner when last arbitrated (VGPU_MUTEX_NOBODY if none yet)
 */
struct vgpu_mutex_req {
	u8 warp;
	u8 mutex;
	u8 owner;
};

/**
 * struct vgpu_mutex_arb - lock words and arbiter of one block
 * @word: lock words, VGPU_MUTEX_LOCKED | owner, or 0 when free
 * @waiters: pairs in the FIFO per mutex
 * @head: index of the FIFO's first pair
 * @count: pairs in the FIFO (at most one per warp)
 * @held: mutexes held per warp (bit m = mutex m); only the block's warps'
 *	entries are set by vgpu_mutex_arb_init()
 * @fifo: the arbiter FIFO, a ring of VGPU_MAX_BLOCK_WARPS pairs; only the
 *	@count pairs from @head on are meaningful
 *
 * What vgpu_mutex_arb_init() clears comes first, @held's entries in warp
 * order: a block of few warps clears one or two cache lines, not the six
 * of the whole arbiter (the block table row is cold when a block arrives).
 */
struct vgpu_mutex_arb {
	u8 word[VGPU_ISA_MAX_MUTEX];
	u8 waiters[VGPU_ISA_MAX_MUTEX];
	u32 head;
	u32 count;
	u16 held[VGPU_MAX_BLOCK_WARPS];
	struct vgpu_mutex_req fifo[VGPU_MAX_BLOCK_WARPS];
};

/**
 * struct vgpu_mutex_ops - what the arbiter tells its user
 * @granted: @warp now holds @mutex; @how is VGPU_LOCK_HOW_FIFO or
 *	VGPU_LOCK_HOW_PREEMPT, @other the previous owner or
 *	VGPU_MUTEX_NOBODY
 * @released: @warp lost the locks in @mask (@why VGPU_MUTEX_REL_*);
 *	@other is the requester (PREEMPT) or the owner it waits for (YIELD)
 */
struct vgpu_mutex_ops {
	void (*granted)(void *ctx, u32 warp, u32 mutex, u32 how, u32 other);
	void (*released)(void *ctx, u32 warp, u32 mask, u32 why, u32 other);
};

void vgpu_mutex_arb_init(struct vgpu_mutex_arb *arb, u32 warps);
int vgpu_mutex_lock(struct vgpu_mutex_arb *arb, u32 warp, u32 mutex);
void vgpu_mutex_unlock(struct vgpu_mutex_arb *arb, u32 warp, u32 mutex);
u32 vgpu_mutex_release_all(struct vgpu_mutex_arb *arb, u32 warp);
void vgpu_mutex_arb_process(struct vgpu_mutex_arb *arb, const u8 *prio,
			    const struct vgpu_mutex_ops *ops, void *ctx);

/**
 * vgpu_mutex_owner() - current owner of a mutex
 * @arb: the block's arbiter
 * @mutex: mutex id
 *
 * Return: owner warp, or VGPU_MUTEX_NOBODY when the mutex is free.
 */
static inline u32 vgpu_mutex_owner(const struct vgpu_mutex_arb *arb,
				   u32 mutex)
{
	u8 w = arb->word[mutex];

	return (w & VGPU_MUTEX_LOCKED) ? (w & VGPU_MUTEX_OWNER) :
	       VGPU_MUTEX_NOBODY;
}

#endif /* VGPU_CORE_MUTEX_H */
