// SPDX-License-Identifier: GPL-2.0
/*
 * partition - MPS-style spatial sharing: the SMs are cut into
 * PARTITIONS equal, contiguous shares, and channel c runs only on share
 * c % PARTITIONS (SMs [s * n / P, (s + 1) * n / P) of n).  A block goes
 * to the first SM of its share it fits (round robin from the device's
 * pointer), or waits when none has room; a block of another share is
 * never preempted for it.  The order of kernels, admission and eviction
 * are the seeds'.  The share is a constant of this file: a policy is its
 * source, so a different cut is a different policy.
 */
#include "vgpu_policy.h"

#define PARTITIONS	2

static bool part_mine(const struct vgpu_gpu *g,
		      const struct vgpu_gpu_kernel *k, u32 sm)
{
	u32 share = vgpu_policy_kernel_channel(k) % PARTITIONS;
	u32 n = vgpu_policy_num_sms(g);

	return sm >= share * n / PARTITIONS &&
	       sm < (share + 1) * n / PARTITIONS;
}

static u32 part_select_sm(const struct vgpu_policy_ctx *ctx,
			  const struct vgpu_policy_sm *cands, u32 n)
{
	u32 i, first = VGPU_POLICY_WAIT;

	for (i = 0; i < n; i++) {
		if (!part_mine(ctx->gpu, ctx->k, cands[i].sm))
			continue;
		if (cands[i].sm >= ctx->rr_next)
			return i;
		if (first == VGPU_POLICY_WAIT)
			first = i;
	}
	return first;
}

static u32 part_preempt(const struct vgpu_gpu *g,
			const struct vgpu_gpu_kernel *k)
{
	return VGPU_POLICY_WAIT;
}

static const struct vgpu_policy_ops partition_ops = {
	.name		= "partition",
	.select_sm	= part_select_sm,
	.preempt	= part_preempt,
};

VGPU_POLICY(partition_ops);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vgpu-dispatch scheduling policy: MPS-style SM partitions");
