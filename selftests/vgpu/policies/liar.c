// SPDX-License-Identifier: GPL-2.0
/*
 * liar - a policy whose every SM choice is out of range, for
 * the tests: the core must refuse each answer, count it in policy_errors,
 * send a POLICY_ERROR event and place the block where the default would.
 * Not an example to follow.
 */
#include "vgpu_policy.h"

static u32 liar_select_sm(const struct vgpu_policy_ctx *ctx,
			  const struct vgpu_policy_sm *cands, u32 n)
{
	return n + 7;
}

static const struct vgpu_policy_ops liar_ops = {
	.name		= "liar",
	.select_sm	= liar_select_sm,
};

VGPU_POLICY(liar_ops);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vgpu-dispatch test policy: out-of-range SM choices");
