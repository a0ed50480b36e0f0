// SPDX-License-Identifier: GPL-2.0
/*
 * flattener - a policy whose tick writes every kernel's effective
 * priority to 0, for the tests: the core must undo each write, count it
 * as an error of the tick and eject the policy after
 * VGPU_POLICY_MAX_ERRORS_IN_ROW of them.  Not an example to follow.
 */
#include "vgpu_policy.h"

static void flattener_tick(struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *k;

	list_for_each_entry(k, &g->kernels, table_node)
		k->eff_prio = 0;
}

static const struct vgpu_policy_ops flattener_ops = {
	.name	= "flattener",
	.tick	= flattener_tick,
};

VGPU_POLICY(flattener_ops);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vgpu-dispatch test policy: writes priorities from its tick");
