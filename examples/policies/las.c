// SPDX-License-Identifier: GPL-2.0
/*
 * las - least attained service: among the kernels of one priority, the
 * one that has had the least GPU time so far is offered the next
 * decision.
 *
 * A kernel's service is the warp-cycles its blocks held the device: at
 * every dispatch boundary each kernel is charged its resident warps for
 * the cycles since the previous boundary.  A kernel that just arrived has
 * had none, so it goes before every kernel that ran already, and a short
 * kernel completes before a long one it arrived behind, whatever their
 * channels: the seeds' alternation between channels (F21) gives it only
 * every other decision.  At equal service the oldest goes first.
 * Priorities, admission, eviction, preemption and the SM choice are the
 * seeds'.  Documentation/policies.rst builds this file step by step.
 */
#include "vgpu_policy.h"

/* The per-device state: the cycle of the previous tick. */
struct las_state {
	u64 last;
};

/* The per-kernel state: its service so far, in warp-cycles. */
struct las_kernel {
	u64 service;
};

static u64 las_service(const struct vgpu_gpu_kernel *k)
{
	const struct las_kernel *lk = vgpu_policy_kernel_state_ro(k);

	return lk->service;
}

/* Charge every kernel its resident warps since the previous boundary. */
static void las_tick(struct vgpu_gpu *g)
{
	struct las_state *st = vgpu_policy_state(g);
	u64 now = vgpu_policy_now(g), dt = now - st->last;
	const struct vgpu_gpu_kernel *k;
	struct las_kernel *lk;

	st->last = now;
	vgpu_policy_for_each_kernel(g, k) {
		lk = vgpu_policy_kernel_state(k);
		lk->service += (u64)vgpu_policy_kernel_resident(k) *
			       vgpu_policy_kernel_warps(k) * dt;
	}
}

/* Priority first, then the least service, then age. */
static bool las_before(const struct vgpu_gpu *g,
		       const struct vgpu_gpu_kernel *a,
		       const struct vgpu_gpu_kernel *b)
{
	u32 pa = vgpu_policy_kernel_eff_prio(a);
	u32 pb = vgpu_policy_kernel_eff_prio(b);
	u64 sa = las_service(a), sb = las_service(b);

	if (pa != pb)
		return pa < pb;
	if (sa != sb)
		return sa < sb;
	sa = vgpu_policy_kernel_arrival(a);
	sb = vgpu_policy_kernel_arrival(b);
	if (sa != sb)
		return sa < sb;
	return vgpu_policy_kernel_seq(a) < vgpu_policy_kernel_seq(b);
}

static const struct vgpu_policy_ops las_ops = {
	.name			= "las",
	.state_size		= sizeof(struct las_state),
	.kernel_state_size	= sizeof(struct las_kernel),
	.tick			= las_tick,
	.select_before		= las_before,
};

VGPU_POLICY(las_ops);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vgpu-dispatch scheduling policy: least attained service");
