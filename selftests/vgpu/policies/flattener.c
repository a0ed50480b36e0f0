// SPDX-License-Identifier: GPL-2.0
/*
 * flattener - a policy whose tick writes every kernel's effective
 * priority to 0, for the tests: the core must undo each write, count it
 * as an error of the tick and eject the policy after
 * VGPU_POLICY_MAX_ERRORS_IN_ROW of them.  It writes the core's structure
 * behind the view's back (gpu.h, a cast from the view's const handle),
 * which no policy may do.  Not an example to follow.
 */
#include "vgpu_policy.h"
#include "gpu.h"

static void flattener_tick(struct vgpu_gpu *g)
{
	const struct vgpu_gpu_kernel *k;

	vgpu_policy_for_each_kernel(g, k)
		((struct vgpu_gpu_kernel *)k)->eff_prio = 0;
}

static const struct vgpu_policy_ops flattener_ops = {
	.name	= "flattener",
	.tick	= flattener_tick,
};

VGPU_POLICY(flattener_ops);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vgpu-dispatch test policy: writes priorities from its tick");
