// SPDX-License-Identifier: GPL-2.0
/*
 * tenants.c - shaping the mix of a workload's tenants (issue 20 point 3):
 * a priority and an arrival offset per tenant, as `vgpu-sim import`,
 * `vgpu-sim run` and `vgpuctl run` take them (--priority TENANT=P,
 * --offset TENANT=CYCLES).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vgpu/workload.h>

#include "cli.h"
#include "libvgpu_core.h"

/* Arrivals stay at or below 2^48 cycles (workload files, import). */
#define VGPUL_MAX_ARRIVAL	(1ULL << 48)

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
		if (k->arrival + offset > VGPUL_MAX_ARRIVAL ||
		    offset > VGPUL_MAX_ARRIVAL) {
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

bool vgpul_tenant_pair(const char *s, uint32_t n, uint32_t *tenant,
		       uint64_t *value)
{
	unsigned long long t, v;
	char num[16], *end;
	const char *eq = strchr(s, '=');

	if (!eq || eq - s >= (long)sizeof(num) || eq == s)
		return false;
	memcpy(num, s, eq - s);
	num[eq - s] = 0;
	if (num[0] < '0' || num[0] > '9')
		return false;
	errno = 0;
	t = strtoull(num, &end, 10);
	if (errno || *end || t >= n)
		return false;
	if (eq[1] < '0' || eq[1] > '9')
		return false;
	errno = 0;
	v = strtoull(eq + 1, &end, 10);
	if (errno || *end)
		return false;
	*tenant = t;
	*value = v;
	return true;
}

int vgpul_tenant_args(struct vgpu_workload *wl, const char *const *prio_arg,
		      unsigned int np, const char *const *off_arg,
		      unsigned int no, char *err, size_t errlen)
{
	uint32_t n = vgpul_workload_tenants(wl), t, i;
	uint32_t levels = wl->dev->cfg.num_prios;
	uint64_t *offset;
	int *prio, ret = 0;
	uint64_t v;
	char why[256];

	if (!np && !no)
		return 0;
	prio = calloc(n + 1, sizeof(*prio));
	offset = calloc(n + 1, sizeof(*offset));
	if (!prio || !offset) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	for (t = 0; t < n; t++)
		prio[t] = -1;
	for (i = 0; i < np; i++) {
		if (!vgpul_tenant_pair(prio_arg[i], n, &t, &v) || v >= levels) {
			snprintf(err, errlen,
				 "bad --priority '%s' (TENANT=P, TENANT < %u, P < %u)",
				 prio_arg[i], n, levels);
			ret = -EINVAL;
			goto out;
		}
		prio[t] = v;
	}
	for (i = 0; i < no; i++) {
		if (!vgpul_tenant_pair(off_arg[i], n, &t, &v) ||
		    v > VGPUL_MAX_ARRIVAL) {
			snprintf(err, errlen,
				 "bad --offset '%s' (TENANT=CYCLES, TENANT < %u)",
				 off_arg[i], n);
			ret = -EINVAL;
			goto out;
		}
		offset[t] = v;
	}
	for (t = 0; t < n && !ret; t++) {
		ret = vgpul_workload_shape(wl, t, prio[t], offset[t], why,
					   sizeof(why));
		if (ret)
			snprintf(err, errlen, "tenant %u: %s", t, why);
	}
out:
	free(prio);
	free(offset);
	return ret;
}
