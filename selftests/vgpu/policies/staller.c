// SPDX-License-Identifier: GPL-2.0
/*
 * staller - a policy whose every SM choice is "wait", for the tests:
 * nothing is ever placed under it, so the core's watchdog must eject it
 * for stalling (debugfs policy, a POLICY_EXIT event, one log line), fall
 * back to the default and complete every kernel.  Not an example to
 * follow.
 */
#include "vgpu_policy.h"

static u32 staller_select_sm(const struct vgpu_policy_ctx *ctx,
			     const struct vgpu_policy_sm *cands, u32 n)
{
	return VGPU_POLICY_WAIT;
}

static const struct vgpu_policy_ops staller_ops = {
	.name		= "staller",
	.select_sm	= staller_select_sm,
};

VGPU_POLICY(staller_ops);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vgpu-dispatch test policy: never places a block");
