// SPDX-License-Identifier: GPL-2.0
/*
 * prio - strict priority, no windows.
 *
 * A kernel of a higher priority (a lower number) is always offered a
 * decision before one of a lower priority; within a priority the oldest
 * goes first.  Unlike the seeds' order there are no F22 windows promoting
 * a low priority for a while, no F21 alternation between channels of one
 * priority and no F26 quota: a busy high-priority channel starves the
 * others.  Admission, eviction and preemption are the seeds' (they are by
 * priority already).
 */
#include "vgpu_policy.h"

static bool prio_before(const struct vgpu_gpu *g,
			const struct vgpu_gpu_kernel *a,
			const struct vgpu_gpu_kernel *b)
{
	u32 pa = vgpu_policy_kernel_eff_prio(a);
	u32 pb = vgpu_policy_kernel_eff_prio(b);
	u64 ta, tb;

	if (pa != pb)
		return pa < pb;
	ta = vgpu_policy_kernel_arrival(a);
	tb = vgpu_policy_kernel_arrival(b);
	if (ta != tb)
		return ta < tb;
	return vgpu_policy_kernel_seq(a) < vgpu_policy_kernel_seq(b);
}

static const struct vgpu_policy_ops prio_ops = {
	.name		= "prio",
	.select_before	= prio_before,
};

VGPU_POLICY(prio_ops);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vgpu-dispatch scheduling policy: strict priority, no windows");
