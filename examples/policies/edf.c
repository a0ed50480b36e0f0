// SPDX-License-Identifier: GPL-2.0
/*
 * edf - earliest deadline first.
 *
 * A kernel submitted with a relative deadline (vgpu_submit_desc.deadline,
 * "deadline" in a workload) has an absolute one,
 * vgpu_policy_kernel_deadline(); the kernel whose deadline comes first is offered every
 * decision first and enters the task table first, and may take the slot
 * of a kernel whose deadline is later (or that has none).  Kernels
 * without a deadline come after all those with one, in the seeds' order
 * of priority and age; child kernels (F15) go by their tree's deadline.
 * Preemption and the SM choice are the seeds'.  Kernels that complete
 * after their deadline are counted by the core whatever the policy
 * (deadline_misses).
 */
#include "vgpu_policy.h"

/* The absolute deadline of @k's tree; none comes after every one. */
static u64 edf_deadline(const struct vgpu_gpu_kernel *k)
{
	u64 d = vgpu_policy_kernel_deadline(k);

	return d ? d : ~0ULL;
}

static bool edf_before(const struct vgpu_gpu *g,
		       const struct vgpu_gpu_kernel *a,
		       const struct vgpu_gpu_kernel *b)
{
	u64 da = edf_deadline(a), db = edf_deadline(b);
	u32 pa = vgpu_policy_kernel_eff_prio(a);
	u32 pb = vgpu_policy_kernel_eff_prio(b);

	if (da != db)
		return da < db;
	if (pa != pb)
		return pa < pb;
	da = vgpu_policy_kernel_arrival(a);
	db = vgpu_policy_kernel_arrival(b);
	if (da != db)
		return da < db;
	return vgpu_policy_kernel_seq(a) < vgpu_policy_kernel_seq(b);
}

static bool edf_may_evict(const struct vgpu_gpu *g,
			  const struct vgpu_gpu_kernel *w,
			  const struct vgpu_gpu_kernel *victim)
{
	return edf_deadline(w) < edf_deadline(victim);
}

static const struct vgpu_policy_ops edf_ops = {
	.name		= "edf",
	.admit_before	= edf_before,
	.may_evict	= edf_may_evict,
	.select_before	= edf_before,
};

VGPU_POLICY(edf_ops);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vgpu-dispatch scheduling policy: earliest deadline first");
