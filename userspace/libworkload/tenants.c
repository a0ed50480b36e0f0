// SPDX-License-Identifier: GPL-2.0
/*
 * tenants.c - shaping the mix of a workload's tenants: a priority and an
 * arrival offset per tenant, as `vgpu-sim import`, `vgpu-sim run` and
 * `vgpuctl run` take them (--priority TENANT=P, --offset TENANT=CYCLES;
 * the options themselves are read in userspace/cli/cli.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vgpu/workload.h>

#include "workload_core.h"

uint32_t vgpul_workload_tenants(const struct vgpu_workload *wl)
{
	uint32_t i, n = 0;

	for (i = 0; i < wl->nkernels; i++)
		if (wl->kernels[i].tenant + 1 > n)
			n = wl->kernels[i].tenant + 1;
	return n;
}

int vgpul_workload_shape(struct vgpu_workload *wl, uint32_t tenant,
			 int prio, uint64_t offset, char *err, size_t errlen)
{
	struct vgpu_wl_kernel *k;
	uint32_t i, j;

	if (prio >= 0 && (uint32_t)prio >= wl->dev->cfg.num_prios) {
		snprintf(err, errlen, "priority %d: the device has %u levels",
			 prio, wl->dev->cfg.num_prios);
		return -EINVAL;
	}
	for (i = 0; i < wl->nkernels; i++) {
		k = &wl->kernels[i];
		if (k->tenant != tenant)
			continue;
		if (k->arrival + offset > VGPUL_WL_MAX_ARRIVAL ||
		    offset > VGPUL_WL_MAX_ARRIVAL) {
			snprintf(err, errlen,
				 "kernels[%u] (%s): arrival beyond 2^48 cycles",
				 i, k->name);
			return -EINVAL;
		}
	}
	for (i = 0; i < wl->nkernels; i++) {
		k = &wl->kernels[i];
		if (k->tenant != tenant)
			continue;
		if (prio >= 0)
			k->prio = prio;
		k->arrival += offset;
		/* the tenant's queue pushes and cancels move with it */
		for (j = 0; j < k->n_pushes; j++)
			k->pushes[j].at += offset;
		if (k->cancel_at)
			k->cancel_at += offset;
	}
	return 0;
}
