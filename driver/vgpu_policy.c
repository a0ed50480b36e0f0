// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_policy.c - the registry of scheduling policies (F27):
 * the core's list of &struct vgpu_policy_reg under our lock, the policies
 * other modules register (vgpu_policy.h), and the devices' use of them,
 * each device pinning the module of its policy.
 */
#include <linux/module.h>
#include <linux/mutex.h>

#include "vgpu_policy.h"
#include "vgpu_sched.h"

/* Registry of scheduling policies (F27): the core's list, our lock. */
static LIST_HEAD(vgpu_policies);
static DEFINE_MUTEX(vgpu_policies_lock);
static bool vgpu_policies_ready;

static void vgpu_policies_init(void)
{
	mutex_lock(&vgpu_policies_lock);
	if (!vgpu_policies_ready) {
		vgpu_policy_registry_init(&vgpu_policies);
		vgpu_policies_ready = true;
	}
	mutex_unlock(&vgpu_policies_lock);
}

/**
 * vgpu_policy_exists() - is @name a registered policy?
 * @name: policy name
 *
 * Return: true if vgpu_policy_use() would accept it.
 */
bool vgpu_policy_exists(const char *name)
{
	bool ret;

	vgpu_policies_init();
	mutex_lock(&vgpu_policies_lock);
	ret = vgpu_policy_find(&vgpu_policies, name);
	mutex_unlock(&vgpu_policies_lock);
	return ret;
}

/*
 * @g went from the policy of @old to that of &vgpu_gpu.policy_reg; @got
 * is the entry whose module reference the caller took for the switch.
 * Move the device's use and its module reference to the entry in use.
 */
static void vgpu_policy_moved(struct vgpu_gpu *g, struct vgpu_policy_reg *old,
			      struct vgpu_policy_reg *got)
{
	struct vgpu_policy_reg *now = g->policy_reg;

	if (now == old) {
		module_put(got->owner);
		return;
	}
	/* a refused switch that also failed to restart @old: a built-in */
	if (now != got) {
		__module_get(now->owner);
		module_put(got->owner);
	}
	now->users++;
	old->users--;
	module_put(old->owner);
}

/**
 * vgpu_policy_use() - switch a live device's core to another policy (F27)
 * @g: the core, its device's &vgpu_sched.lock held
 * @name: policy name
 *
 * The device holds a reference on the module of the policy it uses
 * (&vgpu_policy_reg.owner), so that module cannot go away under it.
 *
 * Return: 0, -ENOENT (not registered, or its module is going away), or
 * the error of the policy's init (the device kept its policy).
 */
int vgpu_policy_use(struct vgpu_gpu *g, const char *name)
{
	struct vgpu_policy_reg *old = g->policy_reg, *reg;
	int ret = -ENOENT;

	mutex_lock(&vgpu_policies_lock);
	reg = vgpu_policy_find(&vgpu_policies, name);
	if (reg == old) {
		/* chosen again: no pin to move, its watch starts afresh */
		ret = vgpu_gpu_set_policy(g, &vgpu_policies, name);
	} else if (reg && try_module_get(reg->owner)) {
		/* a policy module being unloaded is no longer there to choose */
		ret = vgpu_gpu_set_policy(g, &vgpu_policies, name);
		vgpu_policy_moved(g, old, reg);
	}
	mutex_unlock(&vgpu_policies_lock);
	return ret;
}

/**
 * vgpu_policy_ejected() - the watchdog replaced a device's policy
 * @old: the policy it ejected (driver/core/policy_watch.c)
 * @now: the one the device uses now (the built-in fallback)
 *
 * From &vgpu_gpu_host_ops.policy_exit, under the device's
 * &vgpu_sched.lock: the device's pin moves from @old's module to @now's,
 * as vgpu_policy_use() does, so @old's module can be unloaded once no
 * other device uses it.  @now is built in (no module to pin).
 */
void vgpu_policy_ejected(struct vgpu_policy_reg *old,
			 struct vgpu_policy_reg *now)
{
	mutex_lock(&vgpu_policies_lock);
	now->users++;
	old->users--;
	module_put(old->owner);
	mutex_unlock(&vgpu_policies_lock);
}

/**
 * vgpu_policy_gpu_init() - vgpu_gpu_init_host() with the registered
 *	policies
 * @g: the core to initialise
 * @mem: its memory, vgpu_gpu_mem_size() bytes
 * @size: that size
 * @cfg: the configuration
 * @p: the parameters; @p->policy names a registered policy
 * @ops: the host's callbacks (vgpu_gpu_init_host())
 * @host: passed to them
 *
 * The device pins the module of its policy until vgpu_policy_gpu_fini().
 *
 * Return: 0, -EINVAL (the policy is not registered, or its module is
 * going away), or the error of vgpu_gpu_init_host() (the policy's init).
 */
int vgpu_policy_gpu_init(struct vgpu_gpu *g, void *mem, size_t size,
			 const struct vgpu_config *cfg,
			 const struct vgpu_gpu_params *p,
			 const struct vgpu_gpu_host_ops *ops, void *host)
{
	struct vgpu_policy_reg *reg;
	int ret = -EINVAL;

	vgpu_policies_init();
	mutex_lock(&vgpu_policies_lock);
	reg = vgpu_policy_find(&vgpu_policies, p->policy);
	/* the pin first: the policy's init may already rely on its module */
	if (!reg || !try_module_get(reg->owner))
		goto out_unlock;
	ret = vgpu_gpu_init_host(g, mem, size, cfg, p, &vgpu_policies, ops,
				 host);
	if (ret) {
		module_put(reg->owner);
		goto out_unlock;
	}
	reg->users++;
out_unlock:
	mutex_unlock(&vgpu_policies_lock);
	return ret;
}

/**
 * vgpu_policy_gpu_fini() - undo vgpu_policy_gpu_init()
 * @g: the core; the device stops using its policy (the pin goes once its
 *	exit op returned)
 */
void vgpu_policy_gpu_fini(struct vgpu_gpu *g)
{
	struct vgpu_policy_reg *reg = g->policy_reg;

	/* its exit op runs while the device still pins its module */
	vgpu_gpu_fini(g);
	mutex_lock(&vgpu_policies_lock);
	reg->users--;
	module_put(reg->owner);
	mutex_unlock(&vgpu_policies_lock);
}

/**
 * __vgpu_dispatch_policy_register() - add a scheduling policy (F27)
 * @reg: the policy's registry entry, @reg->ops its ops table
 *	(driver/core/policy.h); its name must be unique; it stays
 *	registered until vgpu_dispatch_policy_unregister()
 * @owner: the module holding @reg (vgpu_dispatch_policy_register() passes
 *	THIS_MODULE): every device using the policy holds a reference on it
 *
 * Another module can thus register its own policy, the way TCP congestion
 * control algorithms or I/O schedulers register; devices select it by name
 * (new_device policy=NAME).  VGPU_POLICY() does it for a policy module.
 *
 * Return: 0; -EINVAL for no ops, a bad name or a first-fit table without
 * an SM choice; -E2BIG for declared state sizes over the core's maxima;
 * -EEXIST for a name already registered.
 */
int __vgpu_dispatch_policy_register(struct vgpu_policy_reg *reg,
				    struct module *owner)
{
	int ret;

	reg->owner = owner;
	reg->users = 0;
	vgpu_policies_init();
	mutex_lock(&vgpu_policies_lock);
	ret = vgpu_policy_register(&vgpu_policies, reg);
	mutex_unlock(&vgpu_policies_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(__vgpu_dispatch_policy_register);

/**
 * vgpu_dispatch_policy_unregister() - remove a policy added with
 * vgpu_dispatch_policy_register()
 * @reg: the policy's registry entry
 */
void vgpu_dispatch_policy_unregister(struct vgpu_policy_reg *reg)
{
	mutex_lock(&vgpu_policies_lock);
	/* its devices pin its module: only a caller's bug gets here */
	WARN_ON(reg->users);
	vgpu_policy_unregister(reg);
	mutex_unlock(&vgpu_policies_lock);
}
EXPORT_SYMBOL_GPL(vgpu_dispatch_policy_unregister);

/*
 * The view a policy module reads the device through (driver/core/policy.h,
 * driver/core/policy_view.c), exported here: the core cannot export it
 * itself, since the KUnit module (selftests/core/Kbuild) holds a second
 * copy of the core.
 */
EXPORT_SYMBOL_GPL(vgpu_policy_now);
EXPORT_SYMBOL_GPL(vgpu_policy_window);
EXPORT_SYMBOL_GPL(vgpu_policy_num_sms);
EXPORT_SYMBOL_GPL(vgpu_policy_num_channels);
EXPORT_SYMBOL_GPL(vgpu_policy_num_prios);
EXPORT_SYMBOL_GPL(vgpu_policy_preempt_mode);
EXPORT_SYMBOL_GPL(vgpu_policy_kernel_first);
EXPORT_SYMBOL_GPL(vgpu_policy_kernel_next);
EXPORT_SYMBOL_GPL(vgpu_policy_kernel_id);
EXPORT_SYMBOL_GPL(vgpu_policy_kernel_seq);
EXPORT_SYMBOL_GPL(vgpu_policy_kernel_channel);
EXPORT_SYMBOL_GPL(vgpu_policy_kernel_tenant);
EXPORT_SYMBOL_GPL(vgpu_policy_kernel_root);
EXPORT_SYMBOL_GPL(vgpu_policy_kernel_prio);
EXPORT_SYMBOL_GPL(vgpu_policy_kernel_eff_prio);
EXPORT_SYMBOL_GPL(vgpu_policy_kernel_arrival);
EXPORT_SYMBOL_GPL(vgpu_policy_kernel_entered);
EXPORT_SYMBOL_GPL(vgpu_policy_kernel_blocks);
EXPORT_SYMBOL_GPL(vgpu_policy_kernel_warps);
EXPORT_SYMBOL_GPL(vgpu_policy_kernel_pending);
EXPORT_SYMBOL_GPL(vgpu_policy_kernel_resident);
EXPORT_SYMBOL_GPL(vgpu_policy_kernel_deadline);
EXPORT_SYMBOL_GPL(vgpu_policy_kernel_flags);
EXPORT_SYMBOL_GPL(vgpu_policy_sm_top_prio);
EXPORT_SYMBOL_GPL(vgpu_policy_sm_blocks);
EXPORT_SYMBOL_GPL(vgpu_policy_state);
EXPORT_SYMBOL_GPL(vgpu_policy_state_ro);
EXPORT_SYMBOL_GPL(vgpu_policy_chan_state);
EXPORT_SYMBOL_GPL(vgpu_policy_chan_state_ro);
EXPORT_SYMBOL_GPL(vgpu_policy_kernel_state);
EXPORT_SYMBOL_GPL(vgpu_policy_kernel_state_ro);
EXPORT_SYMBOL_GPL(vgpu_policy_yield);
