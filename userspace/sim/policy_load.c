// SPDX-License-Identifier: GPL-2.0
/*
 * --policy NAME|FILE.so: a built-in policy by name, or a policy built
 * from examples/policies/NAME.c as a shared object (make policies; issue
 * 17), whose &struct vgpu_policy_ops the object exports as vgpu_policy_ops
 * (driver/vgpu_policy.h).  The object stays loaded until the program
 * exits, and so does its registry entry, one of a few kept here.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "sim.h"
#include "policy.h"

/* Policy objects a program may load: compare's variants and a few more. */
#define VGPU_SIM_MAX_LOADED	16

static struct vgpu_policy_reg vgpu_sim_loaded[VGPU_SIM_MAX_LOADED];
static unsigned int vgpu_sim_nloaded;

/**
 * vgpu_sim_policy_resolve() - the policy name for --policy @arg
 * @reg: the registry to add a loaded policy to
 * @arg: a registered name, or a path (with a '/') to a policy object
 * @err: message on failure
 * @errlen: its size
 *
 * Return: the policy's name, or NULL with @err set.
 */
const char *vgpu_sim_policy_resolve(struct list_head *reg, const char *arg,
				    char *err, size_t errlen)
{
	const struct vgpu_policy_ops **ops;
	struct vgpu_policy_reg *r;
	void *h;
	int ret;

	if (!strchr(arg, '/')) {
		if (strlen(arg) < VGPU_POLICY_NAME_LEN &&
		    vgpu_policy_find(reg, arg))
			return arg;
		snprintf(err, errlen,
			 "unknown policy '%s' (rr, avail, resource, power, or a path to a policy .so)",
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
	r = &vgpu_sim_loaded[vgpu_sim_nloaded];
	memset(r, 0, sizeof(*r));
	r->ops = *ops;
	ret = vgpu_policy_register(reg, r);
	if (ret) {
		snprintf(err, errlen, "%s: policy '%.*s' %s", arg,
			 VGPU_POLICY_NAME_LEN, (*ops)->name,
			 ret == -EEXIST ? "is already registered" :
			 ret == -E2BIG ? "declares more state than the core keeps" :
			 "has a bad name or ops");
		dlclose(h);
		return NULL;
	}
	vgpu_sim_nloaded++;
	return (*ops)->name;
}
