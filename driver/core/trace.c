// SPDX-License-Identifier: GPL-2.0
/*
 * Event names and the FNV-1a trace hash (SPEC F51).
 */
#include "vgpu_os.h"
#include "trace.h"

/* VGPU_FNV64_PRIME^k for k = 0..8 (mod 2^64). */
static const u64 vgpu_fnv64_pow[9] = {
	0x1ULL, 0x100000001b3ULL, 0x366000002e329ULL, 0x8a97b0004e7feabULL,
	0x9ffaac085635bc91ULL, 0xcaee32a7d4f6a63ULL, 0xdc966432edf1c639ULL,
	0xc5527b8a51d3d2dbULL, 0x1efac7090aef4a21ULL,
};

/*
 * FNV-1a over the low @bytes bytes of @v (which has no bit above them).
 * A zero byte's step is a bare multiply (xor with 0 changes nothing), so
 * the zero bytes above the highest non-zero one fold as one multiply by
 * PRIME^k: the serial xor-multiply chain, which bounds the cost, only
 * covers the significant bytes.  Same result as one step per byte.
 */
static __always_inline u64 vgpu_trace_fold(u64 hash, u64 v, u32 bytes)
{
	u32 n = (fls64(v) + 7) / 8, i;

	for (i = 0; i < n; i++) {
		hash ^= v & 0xff;
		hash *= VGPU_FNV64_PRIME;
		v >>= 8;
	}
	if (n < bytes)
		hash *= vgpu_fnv64_pow[bytes - n];
	return hash;
}

/**
 * vgpu_trace_hash_u64() - fold the low @bytes bytes of @v into a hash
 * @hash: running FNV-1a 64 hash
 * @v: value
 * @bytes: how many bytes of @v, least significant first (1..8)
 *
 * Byte order is fixed (little-endian) whatever the host's.
 *
 * Return: the new hash.
 */
u64 vgpu_trace_hash_u64(u64 hash, u64 v, u32 bytes)
{
	if (!bytes || bytes > 8)
		return hash;
	if (bytes < 8)
		v &= (1ULL << (8 * bytes)) - 1;
	return vgpu_trace_fold(hash, v, bytes);
}

/**
 * vgpu_trace_hash_event() - fold one event into a trace hash
 * @hash: running hash (start from VGPU_FNV64_OFFSET)
 * @ev: the event
 *
 * The fields are hashed individually in declaration order: cycle (8
 * bytes), then type, kernel, block, warp, sm, arg0, arg1 (4 bytes each),
 * each little-endian.  Padding is never read.
 *
 * Return: the new hash.
 */
u64 vgpu_trace_hash_event(u64 hash, const struct vgpu_event *ev)
{
	hash = vgpu_trace_fold(hash, ev->cycle, 8);
	hash = vgpu_trace_fold(hash, ev->type, 4);
	hash = vgpu_trace_fold(hash, ev->kernel, 4);
	hash = vgpu_trace_fold(hash, ev->block, 4);
	hash = vgpu_trace_fold(hash, ev->warp, 4);
	hash = vgpu_trace_fold(hash, ev->sm, 4);
	hash = vgpu_trace_fold(hash, ev->arg0, 4);
	return vgpu_trace_fold(hash, ev->arg1, 4);
}

static const char * const vgpu_event_names[VGPU_EV_MAX + 1] = {
	[VGPU_EV_BLOCK_ADD]	= "block_add",
	[VGPU_EV_WARP_START]	= "warp_start",
	[VGPU_EV_WARP_EXIT]	= "warp_exit",
	[VGPU_EV_BLOCK_DONE]	= "block_done",
	[VGPU_EV_BAR_ARRIVE]	= "bar_arrive",
	[VGPU_EV_BAR_RELEASE]	= "bar_release",
	[VGPU_EV_LOCK_ACQUIRE]	= "lock_acquire",
	[VGPU_EV_LOCK_WAIT]	= "lock_wait",
	[VGPU_EV_UNLOCK]	= "unlock",
	[VGPU_EV_LOCK_PREEMPT]	= "lock_preempt",
	[VGPU_EV_LOCK_YIELD]	= "lock_yield",
	[VGPU_EV_LOCK_HOLD_MAX]	= "lock_hold_max",
	[VGPU_EV_SPIN]		= "spin",
	[VGPU_EV_BLOCK_CANCEL]	= "block_cancel",
	[VGPU_EV_SM_PRIO]	= "sm_prio",
};

/**
 * vgpu_event_name() - name of an event type
 * @type: enum vgpu_event_type
 *
 * Return: a constant lower-case name, "unknown" for an unknown type.
 */
const char *vgpu_event_name(u32 type)
{
	if (type > VGPU_EV_MAX || !vgpu_event_names[type])
		return "unknown";
	return vgpu_event_names[type];
}
