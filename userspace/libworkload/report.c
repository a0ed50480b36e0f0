// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - the lines vgpu-sim run and vgpuctl run print for a run
 * (<vgpu/report.h>): per kernel, the summary, per tenant.
 */
#include <stdlib.h>
#include <string.h>

#include <vgpu/report.h>

#include "workload_core.h"

/* Tenant numbers are below this (a tenant has a channel at least). */
#define VGPUL_REPORT_MAX_TENANTS	256

uint64_t vgpul_report_kernel(FILE *f, const char *name,
			     const struct vgpul_ktimes *t)
{
	long long start = t->start == VGPUL_NO_CYCLE ? -1LL :
			  (long long)t->start;
	uint64_t turnaround;

	if (t->state == VGPUL_KT_FAILED) {	/* F15 limit */
		if (f)
			fprintf(f, "kernel=%s submit=%llu start=%lld end=failed error=%d\n",
				name, (unsigned long long)t->submit, start,
				t->error);
		return 0;
	}
	if (t->state != VGPUL_KT_DONE) {
		if (f)
			fprintf(f, "kernel=%s submit=%llu start=%lld end=cancelled\n",
				name, (unsigned long long)t->submit, start);
		return 0;
	}
	turnaround = t->end - t->submit;
	/* a queue kernel closed without items never started (F14) */
	if (f)
		fprintf(f, "kernel=%s submit=%llu start=%lld end=%llu turnaround=%llu\n",
			name, (unsigned long long)t->submit, start,
			(unsigned long long)t->end,
			(unsigned long long)turnaround);
	return turnaround;
}

void vgpul_report_summary(FILE *f, const struct vgpul_summary *s)
{
	fprintf(f, "makespan=%llu\n", (unsigned long long)s->makespan);
	if (s->metrics)
		fprintf(f, "stp=%.3f\nantt=%.3f\nfairness=%.3f\n", s->m.stp,
			s->m.antt, s->m.fairness);
	fprintf(f, "preempt_latency_max=%llu\n",
		(unsigned long long)s->lat_max);
	fprintf(f, "trace_hash=0x%016llx\n", (unsigned long long)s->hash);
}

struct vgpul_iv {
	uint64_t a, b;
};

static int vgpul_iv_cmp(const void *x, const void *y)
{
	const struct vgpul_iv *p = x, *q = y;

	return p->a < q->a ? -1 : p->a > q->a;
}

/* Cycles covered by @n intervals (sorted here). */
static uint64_t vgpul_iv_union(struct vgpul_iv *iv, size_t n)
{
	uint64_t total = 0, a = 0, b = 0;
	size_t i;

	qsort(iv, n, sizeof(*iv), vgpul_iv_cmp);
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

/* Sum of the turnarounds of the completed kernels @idx of @t. */
static uint64_t vgpul_turnaround_sum(const struct vgpul_ktimes *t,
				     const uint32_t *idx, uint32_t n)
{
	uint64_t sum = 0;
	uint32_t i;

	for (i = 0; i < n; i++)
		if (t[idx[i]].state == VGPUL_KT_DONE)
			sum += t[idx[i]].end - t[idx[i]].submit;
	return sum;
}

int vgpul_report_tenants(FILE *f, const struct vgpu_workload *wl,
			 const struct vgpul_ktimes *shared, vgpul_run_fn run,
			 void *cookie, char *err, size_t errlen)
{
	uint64_t *t_alone = NULL, *t_shared = NULL;
	struct vgpul_ktimes *alone = NULL;
	struct vgpul_iv *iv = NULL;
	uint32_t *idx = NULL, *tix = NULL, nt = 0, t, i, n, ni;
	bool seen[VGPUL_REPORT_MAX_TENANTS] = { false };
	struct vgpu_workload sub;
	struct vgpu_metrics m;
	char why[512];
	int rc = -1;

	for (i = 0; i < wl->nkernels; i++) {
		t = wl->kernels[i].tenant;
		if (t >= VGPUL_REPORT_MAX_TENANTS) {
			snprintf(err, errlen, "tenant %u: at most %u tenants",
				 t, VGPUL_REPORT_MAX_TENANTS);
			return -1;
		}
		if (!seen[t]) {
			seen[t] = true;
			nt++;
		}
	}
	if (nt < 2)
		return 0;
	idx = calloc(wl->nkernels, sizeof(*idx));
	tix = calloc(wl->nkernels, sizeof(*tix));
	iv = calloc(wl->nkernels, sizeof(*iv));
	alone = calloc(wl->nkernels, sizeof(*alone));
	t_alone = calloc(nt, sizeof(*t_alone));
	t_shared = calloc(nt, sizeof(*t_shared));
	sub = *wl;
	sub.kernels = calloc(wl->nkernels, sizeof(*sub.kernels));
	/* the device section too: the kernels' functional sides by index */
	sub.dev = malloc(sizeof(*sub.dev));
	if (sub.dev) {
		*sub.dev = *wl->dev;
		sub.dev->kfn = wl->dev->kfn ?
			       calloc(wl->nkernels, sizeof(*sub.dev->kfn)) :
			       NULL;
	}
	if (!idx || !tix || !iv || !alone || !t_alone || !t_shared ||
	    !sub.kernels || !sub.dev || (wl->dev->kfn && !sub.dev->kfn)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (t = 0, nt = 0; t < VGPUL_REPORT_MAX_TENANTS; t++) {
		if (!seen[t])
			continue;
		for (i = 0, n = 0, ni = 0; i < wl->nkernels; i++) {
			const struct vgpul_ktimes *k = &shared[i];

			if (wl->kernels[i].tenant != t)
				continue;
			/* shallow copies: programs stay the workload's */
			sub.kernels[n] = wl->kernels[i];
			if (sub.dev->kfn)
				sub.dev->kfn[n] = wl->dev->kfn[i];
			tix[n] = n;
			idx[n++] = i;
			if (k->state == VGPUL_KT_DONE &&
			    k->start != VGPUL_NO_CYCLE) {
				iv[ni].a = k->start;
				iv[ni++].b = k->end;
			}
		}
		sub.nkernels = n;
		memset(alone, 0, n * sizeof(*alone));
		if (run(cookie, &sub, alone, why, sizeof(why))) {
			snprintf(err, errlen, "alone run of tenant %u: %s", t,
				 why);
			goto out;
		}
		t_shared[nt] = vgpul_turnaround_sum(shared, idx, n);
		t_alone[nt] = vgpul_turnaround_sum(alone, tix, n);
		fprintf(f, "tenant=%u kernels=%u busy=%llu shared=%llu alone=%llu slowdown=%.3f\n",
			t, n, (unsigned long long)vgpul_iv_union(iv, ni),
			(unsigned long long)t_shared[nt],
			(unsigned long long)t_alone[nt],
			t_alone[nt] ? (double)t_shared[nt] / t_alone[nt] : 0.0);
		nt++;
	}
	vgpul_metrics_compute(t_alone, t_shared, nt, &m);
	fprintf(f, "tenant_stp=%.3f\ntenant_antt=%.3f\ntenant_fairness=%.3f\n",
		m.stp, m.antt, m.fairness);
	rc = 0;
out:
	if (sub.dev)
		free(sub.dev->kfn);
	free(sub.dev);
	free(sub.kernels);
	free(idx);
	free(tix);
	free(iv);
	free(alone);
	free(t_alone);
	free(t_shared);
	return rc;
}
