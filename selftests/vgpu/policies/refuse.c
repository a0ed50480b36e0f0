// SPDX-License-Identifier: GPL-2.0
/*
 * refuse - a policy whose init refuses every device, for the tests: a
 * device is not made with it, a device is not switched to it (it keeps
 * its policy), and no device pins its module.  Not an example to follow.
 */
#include "vgpu_policy.h"

static int refuse_init(struct vgpu_gpu *g)
{
	return -EOPNOTSUPP;
}

static const struct vgpu_policy_ops refuse_ops = {
	.name		= "refuse",
	.init		= refuse_init,
};

VGPU_POLICY(refuse_ops);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vgpu-dispatch test policy: init refuses every device");
