// SPDX-License-Identifier: GPL-2.0
/*
 * timeslice - runlist-style round robin among the channels of one
 * priority, the way NVIDIA's TSG timeslice or i915's
 * timeslice_duration share an engine.
 *
 * One channel owns the device for TIMESLICE_CYCLES: among kernels of one
 * priority its kernels are offered every decision first, then the other
 * channels' in round-robin order after it.  When the slice expires and
 * another channel of that priority has a kernel in the task table, that
 * channel owns the next slice and the old owner's kernels yield: in switch
 * mode their resident blocks are switched out (and resume in a later
 * slice); in drain and warp modes they keep their SMs until their blocks
 * end, and only new blocks follow the new owner.  Higher priorities still
 * go first; admission, eviction and the SM choice are the seeds'.
 */
#include "vgpu_policy.h"

#define TIMESLICE_CYCLES	10000

/* The per-device state. */
struct ts_state {
	u64 owner;		/* owning channel + 1, 0: none */
	u64 start;		/* cycle its slice began */
};

static u32 ts_channel(const struct vgpu_gpu_kernel *k)
{
	/* a child kernel (F15) belongs to its tree's channel */
	return vgpu_policy_kernel_channel(k);
}

/* Distance from the owner in round-robin order (0: the owner). */
static u32 ts_turn(const struct vgpu_gpu *g, const struct vgpu_gpu_kernel *k)
{
	const struct ts_state *st = vgpu_policy_state_ro(g);
	u32 n = vgpu_policy_num_channels(g), owner = st->owner;

	if (!owner)
		return 0;
	return (ts_channel(k) + n - (owner - 1)) % n;
}

static bool ts_before(const struct vgpu_gpu *g,
		      const struct vgpu_gpu_kernel *a,
		      const struct vgpu_gpu_kernel *b)
{
	u32 pa = vgpu_policy_kernel_eff_prio(a);
	u32 pb = vgpu_policy_kernel_eff_prio(b);
	u32 ta, tb;
	u64 xa, xb;

	if (pa != pb)
		return pa < pb;
	ta = ts_turn(g, a);
	tb = ts_turn(g, b);
	if (ta != tb)
		return ta < tb;
	xa = vgpu_policy_kernel_arrival(a);
	xb = vgpu_policy_kernel_arrival(b);
	if (xa != xb)
		return xa < xb;
	return vgpu_policy_kernel_seq(a) < vgpu_policy_kernel_seq(b);
}

/* The top priority of the owner's kernels in the table, or ~0. */
static u32 ts_owner_prio(const struct vgpu_gpu *g)
{
	const struct vgpu_gpu_kernel *k;
	u32 prio = ~0U;

	vgpu_policy_for_each_kernel(g, k)
		if (ts_turn(g, k) == 0 && vgpu_policy_kernel_eff_prio(k) < prio)
			prio = vgpu_policy_kernel_eff_prio(k);
	return prio;
}

/* A new slice from now for the channel of the first kernel in order. */
static void ts_own_first(struct vgpu_gpu *g)
{
	struct ts_state *st = vgpu_policy_state(g);
	const struct vgpu_gpu_kernel *k, *first = NULL;

	vgpu_policy_for_each_kernel(g, k)
		if (!first || ts_before(g, k, first))
			first = k;
	if (first) {
		st->owner = ts_channel(first) + 1;
		st->start = vgpu_policy_now(g);
	}
}

static void ts_tick(struct vgpu_gpu *g)
{
	struct ts_state *st = vgpu_policy_state(g);
	const struct vgpu_gpu_kernel *k, *next = NULL;
	u64 now = vgpu_policy_now(g);
	u32 prio;

	/* a first slice, or the owner has nothing left in the table */
	prio = st->owner ? ts_owner_prio(g) : ~0U;
	if (prio == ~0U) {
		ts_own_first(g);
		return;
	}
	if (now - st->start < TIMESLICE_CYCLES)
		return;
	/* the next channel in turn with a kernel of the owner's priority */
	vgpu_policy_for_each_kernel(g, k) {
		if (vgpu_policy_kernel_eff_prio(k) != prio ||
		    ts_turn(g, k) == 0)
			continue;
		if (!next || ts_turn(g, k) < ts_turn(g, next))
			next = k;
	}
	st->start = now;
	if (!next)
		return;
	/* the old owner's kernels of that priority give their SMs up */
	vgpu_policy_for_each_kernel(g, k)
		if (ts_turn(g, k) == 0 &&
		    vgpu_policy_kernel_eff_prio(k) == prio &&
		    vgpu_policy_kernel_resident(k))
			vgpu_policy_yield(g, k);
	st->owner = ts_channel(next) + 1;
}

static const struct vgpu_policy_ops timeslice_ops = {
	.name		= "timeslice",
	.state_size	= sizeof(struct ts_state),
	.tick		= ts_tick,
	.select_before	= ts_before,
};

VGPU_POLICY(timeslice_ops);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vgpu-dispatch scheduling policy: round robin with a timeslice");
