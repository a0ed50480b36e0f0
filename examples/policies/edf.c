// SPDX-License-Identifier: GPL-2.0
/*
 * edf - earliest deadline first.
 *
 * A kernel submitted with a relative deadline (vgpu_submit_desc.deadline,
 * "deadline" in a workload) has the absolute one &vgpu_gpu_kernel.
 * deadline_at; the kernel whose deadline comes first is offered every
 * decision first and enters the task table first, and may take the slot
 * of a kernel whose deadline is later (or that has none).  Kernels
 * without a deadline come after all those with one, in the seeds' order
 * of priority and age; child kernels (F15) go by their tree's deadline.
 * Preemption and the SM choice are the seeds'.  Kernels that complete
 * after their deadline are counted by the core whatever the policy
 * (deadline_misses).
 */
#include "vgpu_policy.h"

static u64 edf_deadline(const struct vgpu_gpu_kernel *k)
{
	return k->root->deadline_at;	/* VGPU_GPU_NO_CYCLE: none */
}

static bool edf_before(const struct vgpu_gpu *g,
		       const struct vgpu_gpu_kernel *a,
		       const struct vgpu_gpu_kernel *b)
{
	u64 da = edf_deadline(a), db = edf_deadline(b);

	if (da != db)
		return da < db;
	if (a->eff_prio != b->eff_prio)
		return a->eff_prio < b->eff_prio;
	if (a->arrival != b->arrival)
		return a->arrival < b->arrival;
	return a->seq < b->seq;
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
