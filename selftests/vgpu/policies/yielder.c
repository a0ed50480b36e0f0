// SPDX-License-Identifier: GPL-2.0
/*
 * yielder - a policy whose tick asks every kernel to yield at every
 * boundary, for the tests: in switch mode the core must keep each kernel
 * on its SMs for the minimum residency between yields, so that every
 * kernel still completes.  Not an example to follow.
 */
#include "vgpu_policy.h"

static void yielder_tick(struct vgpu_gpu *g)
{
	const struct vgpu_gpu_kernel *k;

	vgpu_policy_for_each_kernel(g, k)
		vgpu_policy_yield(g, k);
}

static const struct vgpu_policy_ops yielder_ops = {
	.name	= "yielder",
	.tick	= yielder_tick,
};

VGPU_POLICY(yielder_ops);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vgpu-dispatch test policy: yields every kernel always");
