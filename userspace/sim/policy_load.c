// SPDX-License-Identifier: GPL-2.0
/*
 * --policy NAME|FILE.so: a built-in policy by name, or a policy built
 * from one C file as a shared object (make policies, or out of the tree:
 * Documentation/policies.rst "Building a policy"), whose &struct
 * vgpu_policy_ops the object exports as vgpu_policy_ops
 * (driver/vgpu_policy.h).
 *
 * A policy without an SM choice of its own runs with the workload's: the
 * callers set the policy with vgpul_workload_set_policy(), which keeps
 * the workload's as the device's sm_choice, and the core composes the two
 * (vgpu_gpu_policy_start()), as the module's devices do.
 * The loaded table is copied, and registered under the policy's name, or
 * name~N when the name is taken (two objects of the same name compare
 * side by side).  The object stays loaded until the
 * program exits, and so does its registry entry, one of a few kept here.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "sim.h"
#include "policy.h"

/* Policy objects a program may load: compare's variants and a few more. */
#define VGPU_SIM_MAX_LOADED	32

/**
 * struct vgpu_sim_loaded - a policy object's registry entry
 * @reg: the entry
 * @ops: the object's table, with a name unique in the registry
 */
struct vgpu_sim_loaded {
	struct vgpu_policy_reg reg;
	struct vgpu_policy_ops ops;
};

static struct vgpu_sim_loaded vgpu_sim_loaded[VGPU_SIM_MAX_LOADED];
static unsigned int vgpu_sim_nloaded;

/* A name for @ops unique in @reg: its own, else name~2, name~3, ... */
static int vgpu_sim_policy_name(struct list_head *reg,
				struct vgpu_policy_ops *ops)
{
	char name[VGPU_POLICY_NAME_LEN], sfx[8];
	unsigned int i;
	size_t len;

	if (ops->name[VGPU_POLICY_NAME_LEN - 1])
		return -EINVAL;
	memcpy(name, ops->name, sizeof(name));
	for (i = 2; vgpu_policy_find(reg, ops->name); i++) {
		if (i > 99)
			return -EEXIST;
		len = snprintf(sfx, sizeof(sfx), "~%u", i);
		snprintf(ops->name, sizeof(ops->name), "%.*s%s",
			 (int)(VGPU_POLICY_NAME_LEN - 1 - len), name, sfx);
	}
	return 0;
}

/**
 * vgpu_sim_policy_resolve() - the policy name for --policy @arg
 * @reg: the registry to add a loaded policy to
 * @arg: a registered name, or a path (with a '/') to a policy object
 * @err: message on failure
 * @errlen: its size
 *
 * Return: the name the policy is registered under, or NULL with @err set.
 */
const char *vgpu_sim_policy_resolve(struct list_head *reg, const char *arg,
				    char *err, size_t errlen)
{
	const struct vgpu_policy_ops **ops;
	struct vgpu_sim_loaded *l;
	void *h;
	int ret;

	if (!strchr(arg, '/')) {
		if (strlen(arg) < VGPU_POLICY_NAME_LEN &&
		    vgpu_policy_find(reg, arg))
			return arg;
		snprintf(err, errlen,
			 "unknown policy '%s' (rr, avail, resource, power, combined, or a path to a policy .so)",
			 arg);
		return NULL;
	}
	h = dlopen(arg, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(err, errlen, "%s", dlerror());
		return NULL;
	}
	ops = dlsym(h, "vgpu_policy_ops");
	if (!ops || !*ops) {
		snprintf(err, errlen, "%s: no vgpu_policy_ops (not built with VGPU_POLICY())",
			 arg);
		dlclose(h);
		return NULL;
	}
	if (vgpu_sim_nloaded == VGPU_SIM_MAX_LOADED) {
		snprintf(err, errlen, "%s: more than %u policy objects", arg,
			 VGPU_SIM_MAX_LOADED);
		dlclose(h);
		return NULL;
	}
	l = &vgpu_sim_loaded[vgpu_sim_nloaded];
	memset(l, 0, sizeof(*l));
	l->ops = **ops;
	l->reg.ops = &l->ops;
	ret = vgpu_sim_policy_name(reg, &l->ops);
	if (!ret)
		ret = vgpu_policy_register(reg, &l->reg);
	if (ret) {
		snprintf(err, errlen, "%s: policy '%.*s' %s", arg,
			 VGPU_POLICY_NAME_LEN, (*ops)->name,
			 ret == -EEXIST ? "is already registered" :
			 ret == -E2BIG ? "declares more state than the core keeps" :
			 "has a bad name, packing or ops");
		dlclose(h);
		return NULL;
	}
	vgpu_sim_nloaded++;
	return l->ops.name;
}
