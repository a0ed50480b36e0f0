/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_policy.h - what a scheduling policy's source includes.
 *
 * A policy is one C file that fills a static const &struct vgpu_policy_ops
 * (the ops and what the core guarantees: driver/core/policy.h) and ends with
 * VGPU_POLICY(ops), MODULE_LICENSE("GPL") and a MODULE_DESCRIPTION().
 * The same file builds two ways (make policies):
 *
 * - a kernel module, examples/policies/vgpu_policy_NAME.ko: loading it
 *   registers the policy with vgpu_dispatch.ko, whose devices then select
 *   it by name (new_device ID PRESET policy=NAME, or netlink CONFIG_SET);
 *   a device using it pins the module, so it cannot be unloaded under it;
 * - a shared object for vgpu-sim, build/policies/NAME.so
 *   (vgpu-sim run W --policy build/policies/NAME.so).
 *
 * A policy reads the device through the view of driver/core/policy.h
 * (vgpu_policy_now(), vgpu_policy_for_each_kernel(),
 * vgpu_policy_kernel_prio(), ...): the device and its kernels are
 * incomplete types here, so a policy cannot depend on the core's layout.
 * It writes only its own state, the sizes its table declares, through
 * vgpu_policy_state(), vgpu_policy_chan_state() and
 * vgpu_policy_kernel_state(), and asks for changes through the view's
 * helpers.  It calls no function of the kernel and none of the core but
 * the view's: the same source builds both ways, and the view's functions
 * are exported by vgpu_dispatch.ko to the module and by vgpu-sim to the
 * shared object.
 */
#ifndef VGPU_POLICY_H
#define VGPU_POLICY_H

#include "policy.h"

#ifdef __KERNEL__
#include <linux/device/driver.h>
#include <linux/module.h>

int __vgpu_dispatch_policy_register(struct vgpu_policy_reg *reg,
				    struct module *owner);
void vgpu_dispatch_policy_unregister(struct vgpu_policy_reg *reg);

/* Register @reg for the calling module, which devices using it pin. */
#define vgpu_dispatch_policy_register(reg) \
	__vgpu_dispatch_policy_register(reg, THIS_MODULE)

/*
 * Register the policy of ops table @table while the module is loaded
 * (module_driver()'s way), through a registry entry of its own.
 */
#define VGPU_POLICY(table)						\
	static struct vgpu_policy_reg table##_reg = { .ops = &(table) };	\
	module_driver(table##_reg, vgpu_dispatch_policy_register,	\
		      vgpu_dispatch_policy_unregister)
#else
/* vgpu-sim looks the table up by this name (dlsym). */
#define VGPU_POLICY(table)						\
const struct vgpu_policy_ops *vgpu_policy_ops = &(table)
/* module information means nothing to a shared object */
#define MODULE_LICENSE(s)	extern int vgpu_policy_modinfo
#define MODULE_DESCRIPTION(s)	extern int vgpu_policy_modinfo
#endif

#endif /* VGPU_POLICY_H */
