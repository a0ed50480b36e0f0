// SPDX-License-Identifier: GPL-2.0
/*
 * tenants.c - the per-tenant report of vgpu-sim run (issue 20 point 3):
 * for a workload with two tenants or more (each recording of `vgpu-sim
 * import` is one), after the summary lines:
 *
 *	tenant=<t> kernels=<n> busy=<c> shared=<c> alone=<c> slowdown=<x>
 *	...
 *	tenant_stp=<x>
 *	tenant_antt=<x>
 *	tenant_fairness=<x>
 *
 * busy: cycles in which at least one of its kernels ran (the union of
 * their [start, end) in the shared run); shared: the sum of its kernels'
 * turnarounds (end - arrival) in the shared run; alone: the same with only
 * its kernels on the device (same arrivals); slowdown = shared / alone;
 * STP, ANTT and fairness (F67, Eyerman and Eeckhout) over the tenants.  A
 * replayed recording arrives at its recorded times whatever the delays,
 * so its span hardly changes: the turnarounds show the contention.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "run.h"
#include <vgpu/metrics.h>

struct vgpu_ten_iv {
	uint64_t a, b;
};

static int vgpu_ten_iv_cmp(const void *x, const void *y)
{
	const struct vgpu_ten_iv *p = x, *q = y;

	return p->a < q->a ? -1 : p->a > q->a;
}

/* Cycles covered by @n intervals (sorted here). */
static uint64_t vgpu_ten_union(struct vgpu_ten_iv *iv, size_t n)
{
	uint64_t total = 0, a = 0, b = 0;
	size_t i;

	qsort(iv, n, sizeof(*iv), vgpu_ten_iv_cmp);
	for (i = 0; i < n; i++) {
		if (!i || iv[i].a > b) {
			total += b - a;
			a = iv[i].a;
			b = iv[i].b;
		} else if (iv[i].b > b) {
			b = iv[i].b;
		}
	}
	return total + (b - a);
}

/* Sum of the turnarounds of the done kernels of @r (indices @idx). */
static uint64_t vgpu_ten_sum(const struct vgpu_run *r, const uint32_t *idx,
			     uint32_t n)
{
	uint64_t sum = 0;
	uint32_t i;

	for (i = 0; i < n; i++) {
		const struct vgpu_gpu_kernel *k = &r->k[idx[i]];

		if (k->state == VGPU_KS_DONE)
			sum += k->t_end - k->t_submit;
	}
	return sum;
}

int vgpu_sim_tenants(const struct vgpu_workload *wl,
		     struct list_head *policies, const struct vgpu_run *shared,
		     FILE *out, char *err, size_t errlen)
{
	uint64_t *t_alone = NULL, *t_shared = NULL;
	struct vgpu_ten_iv *iv = NULL;
	uint32_t *idx = NULL, *tix = NULL, nt = 0, t, i, n, ni;
	struct vgpu_workload sub;
	struct vgpu_run alone;
	struct vgpu_metrics m;
	bool seen[VGPU_GPU_MAX_CHANNELS] = { false };
	char why[512];
	int rc = -1;

	for (i = 0; i < wl->nkernels; i++)
		if (!seen[wl->kernels[i].tenant]) {
			seen[wl->kernels[i].tenant] = true;
			nt++;
		}
	if (nt < 2)
		return 0;
	memset(&alone, 0, sizeof(alone));
	idx = calloc(wl->nkernels, sizeof(*idx));
	tix = calloc(wl->nkernels, sizeof(*tix));
	iv = calloc(wl->nkernels, sizeof(*iv));
	t_alone = calloc(nt, sizeof(*t_alone));
	t_shared = calloc(nt, sizeof(*t_shared));
	sub = *wl;
	sub.kernels = calloc(wl->nkernels, sizeof(*sub.kernels));
	if (!idx || !tix || !iv || !t_alone || !t_shared || !sub.kernels) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (t = 0, nt = 0; t < VGPU_GPU_MAX_CHANNELS; t++) {
		if (!seen[t])
			continue;
		for (i = 0, n = 0, ni = 0; i < wl->nkernels; i++) {
			const struct vgpu_gpu_kernel *k = &shared->k[i];

			if (wl->kernels[i].tenant != t)
				continue;
			/* shallow copies: programs stay the workload's */
			sub.kernels[n] = wl->kernels[i];
			tix[n] = n;
			idx[n++] = i;
			if (k->state == VGPU_KS_DONE &&
			    k->t_start != VGPU_GPU_NO_CYCLE) {
				iv[ni].a = k->t_start;
				iv[ni++].b = k->t_end;
			}
		}
		sub.nkernels = n;
		vgpu_run_fini(&alone);
		if (vgpu_run_workload(&sub, -1, policies, &alone, why,
				      sizeof(why))) {
			snprintf(err, errlen, "alone run of tenant %u: %s", t,
				 why);
			goto out;
		}
		t_shared[nt] = vgpu_ten_sum(shared, idx, n);
		t_alone[nt] = vgpu_ten_sum(&alone, tix, n);
		fprintf(out, "tenant=%u kernels=%u busy=%llu shared=%llu alone=%llu slowdown=%.3f\n",
			t, n, (unsigned long long)vgpu_ten_union(iv, ni),
			(unsigned long long)t_shared[nt],
			(unsigned long long)t_alone[nt],
			t_alone[nt] ? (double)t_shared[nt] / t_alone[nt] : 0.0);
		nt++;
	}
	vgpul_metrics_compute(t_alone, t_shared, nt, &m);
	fprintf(out, "tenant_stp=%.3f\ntenant_antt=%.3f\ntenant_fairness=%.3f\n",
		m.stp, m.antt, m.fairness);
	rc = 0;
out:
	vgpu_run_fini(&alone);
	free(sub.kernels);
	free(idx);
	free(tix);
	free(iv);
	free(t_alone);
	free(t_shared);
	return rc;
}
