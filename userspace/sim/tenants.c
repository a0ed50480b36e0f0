// SPDX-License-Identifier: GPL-2.0
/*
 * tenants.c - the per-tenant report of vgpu-sim run:
 * the lines are libvgpu's (vgpul_report_tenants(), <vgpu/report.h>,
 * which vgpuctl run prints too); here each tenant runs alone in the
 * simulator.  A replayed recording arrives at its recorded times whatever
 * the delays, so its span hardly changes: the turnarounds show the
 * contention.
 */
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "run.h"
#include <vgpu/report.h>

void vgpu_sim_ktime(const struct vgpu_gpu_kernel *k, struct vgpul_ktimes *t)
{
	t->submit = k->t.submit;
	t->start = k->t.start == VGPU_GPU_NO_CYCLE ? VGPUL_NO_CYCLE :
		   k->t.start;
	t->end = k->t.end;
	t->state = k->state == VGPU_KS_DONE ? VGPUL_KT_DONE :
		   k->state == VGPU_KS_FAILED ? VGPUL_KT_FAILED :
		   VGPUL_KT_CANCELLED;
	t->error = k->error;
}

/* The times of every kernel of run @r. */
static void vgpu_sim_ktimes(const struct vgpu_run *r, struct vgpul_ktimes *t)
{
	uint32_t i;

	for (i = 0; i < r->nk; i++)
		vgpu_sim_ktime(&r->k[i], &t[i]);
}

struct vgpu_ten_ctx {
	struct list_head *policies;
};

/* One tenant's kernels alone in the simulator (vgpul_run_fn). */
static int vgpu_ten_alone(void *cookie, const struct vgpu_workload *wl,
			  struct vgpul_ktimes *t, char *err, size_t errlen)
{
	struct vgpu_ten_ctx *c = cookie;
	struct vgpu_run alone;
	int ret;

	memset(&alone, 0, sizeof(alone));
	ret = vgpu_run_workload(wl, -1, c->policies, &alone, err, errlen);
	if (!ret)
		vgpu_sim_ktimes(&alone, t);
	vgpu_run_fini(&alone);
	return ret;
}

int vgpu_sim_tenants(const struct vgpu_workload *wl,
		     struct list_head *policies, const struct vgpu_run *shared,
		     FILE *out, char *err, size_t errlen)
{
	struct vgpu_ten_ctx c = { .policies = policies };
	struct vgpul_ktimes *t;
	int rc;

	t = calloc(wl->nkernels + 1, sizeof(*t));
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	vgpu_sim_ktimes(shared, t);
	rc = vgpul_report_tenants(out, wl, t, vgpu_ten_alone, &c, err, errlen);
	free(t);
	return rc;
}
