/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Engine events and the trace hash (F51, F62-F64).
 *
 * Every observable step of an SM (block arrival, warp start and exit,
 * barrier arrival and release, lock traffic, SPIN, cancel, completion,
 * change of the SM's highest resident priority) is one struct vgpu_event.
 * Each event goes to an optional sink (a callback and a cookie set by the
 * caller) and into a running 64-bit FNV-1a hash.  The hash covers the
 * event's fields one by one, each as little-endian bytes, so it holds no
 * padding, pointer or host time and is the same on every machine and build.
 * Individual timed instructions are not events (they are counted, see
 * Documentation/engine.rst).
 */
#ifndef VGPU_CORE_TRACE_H
#define VGPU_CORE_TRACE_H

#include "vgpu_os.h"

/* Event types (struct vgpu_event.type); arg0 / arg1 per type. */
enum vgpu_event_type {
	VGPU_EV_BLOCK_ADD = 1,	/* arg0 prio, arg1 mode << 16 | warps */
	VGPU_EV_WARP_START,	/* arg0 sub-partition, arg1 warp prio */
	VGPU_EV_WARP_EXIT,	/* arg0 instructions (low 32 bits), arg1 sub-partition */
	VGPU_EV_BLOCK_DONE,	/* arg0 warps, arg1 cycles resident (low 32) */
	VGPU_EV_BAR_ARRIVE,	/* arg0 arrived so far, arg1 live warps */
	VGPU_EV_BAR_RELEASE,	/* arg0 warps released, arg1 resume cycle (low 32) */
	VGPU_EV_LOCK_ACQUIRE,	/* arg0 mutex, arg1 VGPU_LOCK_HOW_* */
	VGPU_EV_LOCK_WAIT,	/* arg0 mutex, arg1 owner warp */
	VGPU_EV_UNLOCK,		/* arg0 mutex */
	VGPU_EV_LOCK_PREEMPT,	/* warp = owner; arg0 mask lost, arg1 requester */
	VGPU_EV_LOCK_YIELD,	/* warp = requester; arg0 mask released, arg1 owner */
	VGPU_EV_LOCK_HOLD_MAX,	/* arg0 mask released after hold_max insns */
	VGPU_EV_SPIN,		/* the warp entered SPIN */
	VGPU_EV_BLOCK_CANCEL,	/* arg0 live warps removed, arg1 unstarted warps */
	VGPU_EV_SM_PRIO,	/* block/warp NONE; arg0 new highest prio, arg1 old */
	VGPU_EV_LAUNCH,		/* F15: arg0 template, arg1 the LAUNCH flags;
				 * warp 0, or NONE with VGPU_LAUNCH_WAIT (every
				 * warp arrived: the block waits for its child)
				 */
	VGPU_EV_SYNC,		/* F17: the SM takes a kernel's state; block =
				 * the block it was given, arg0 the kernel it
				 * had (VGPU_EV_NONE: none), arg1 the cycle its
				 * warps may start (low 32 bits)
				 */
	VGPU_EV_PUSH,		/* F14: warp 0 of the block pushed arg0 items
				 * to its kernel's push target
				 */
	VGPU_EV_FAULT,		/* a functional instruction faulted (seed 004):
				 * arg0 the errno (positive), arg1 its pc
				 */
	VGPU_EV_MAX = VGPU_EV_FAULT,
};

/* How a lock was obtained (arg1 of VGPU_EV_LOCK_ACQUIRE). */
#define VGPU_LOCK_HOW_FREE	0	/* LOCK found it free, no waiters */
#define VGPU_LOCK_HOW_FIFO	1	/* granted by the arbiter, lock was free */
#define VGPU_LOCK_HOW_PREEMPT	2	/* arbiter took it from a lower prio */

#define VGPU_EV_NONE		0xffffffffU	/* field does not apply */

/* FNV-1a 64-bit parameters. */
#define VGPU_FNV64_OFFSET	0xcbf29ce484222325ULL
#define VGPU_FNV64_PRIME	0x100000001b3ULL

/**
 * struct vgpu_event - one observable step of an SM
 * @cycle: virtual cycle of the SM when it happened
 * @type: enum vgpu_event_type
 * @kernel: kernel id (struct vgpu_kernel_desc.id), or VGPU_EV_NONE
 * @block: block index within its grid, or VGPU_EV_NONE
 * @warp: warp index within its block, or VGPU_EV_NONE
 * @sm: SM id
 * @arg0: type-specific detail
 * @arg1: type-specific detail
 */
struct vgpu_event {
	u64 cycle;
	u32 type;
	u32 kernel;
	u32 block;
	u32 warp;
	u32 sm;
	u32 arg0;
	u32 arg1;
};

/**
 * typedef vgpu_trace_fn - trace sink
 * @cookie: the caller's cookie
 * @ev: the event (valid during the call only)
 */
typedef void (*vgpu_trace_fn)(void *cookie, const struct vgpu_event *ev);

u64 vgpu_trace_hash_u64(u64 hash, u64 v, u32 bytes);
u64 vgpu_trace_hash_event(u64 hash, const struct vgpu_event *ev);
const char *vgpu_event_name(u32 type);

#endif /* VGPU_CORE_TRACE_H */
