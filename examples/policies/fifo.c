// SPDX-License-Identifier: GPL-2.0
/*
 * fifo - strict submission order across channels.
 *
 * The kernel that arrived first is offered every decision first, whatever
 * its priority or channel, and enters the task table first; nothing is
 * evicted from the table and nothing is preempted: a later kernel, even
 * of a higher priority, waits for room.  Kernels that arrived at the same
 * cycle go in submission order (vgpu_policy_kernel_seq()).  SMs: the default
 * round robin, blocks packed as the seeds do (F23 (a)).
 */
#include "vgpu_policy.h"

static bool fifo_first(const struct vgpu_gpu *g,
		       const struct vgpu_gpu_kernel *a,
		       const struct vgpu_gpu_kernel *b)
{
	u64 ta = vgpu_policy_kernel_arrival(a);
	u64 tb = vgpu_policy_kernel_arrival(b);

	if (ta != tb)
		return ta < tb;
	return vgpu_policy_kernel_seq(a) < vgpu_policy_kernel_seq(b);
}

static bool fifo_never(const struct vgpu_gpu *g,
		       const struct vgpu_gpu_kernel *w,
		       const struct vgpu_gpu_kernel *victim)
{
	return false;
}

static u32 fifo_wait(const struct vgpu_gpu *g,
		     const struct vgpu_gpu_kernel *k)
{
	return VGPU_POLICY_WAIT;
}

static const struct vgpu_policy_ops fifo_ops = {
	.name		= "fifo",
	.admit_before	= fifo_first,
	.may_evict	= fifo_never,
	.select_before	= fifo_first,
	.preempt	= fifo_wait,
};

VGPU_POLICY(fifo_ops);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vgpu-dispatch scheduling policy: strict submission order");
