// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-sim run FILE [--trace OUT.json] [--policy NAME] [--preempt MODE]
 *
 * Runs a workload (Documentation/workloads.rst) through the global
 * controller and the SMs of driver/core, epoch by epoch (SPEC F51), then
 * runs every kernel alone on the same device and prints per-kernel times
 * and the multiprogram metrics of F67.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "run.h"
#include <vgpu/metrics.h>

/* Stop a run that goes on for this many cycles (a SPIN never cancelled). */
#define VGPU_RUN_MAX_CYCLES	(1ULL << 36)

static void vgpu_run_sink(void *cookie, const struct vgpu_event *ev)
{
	struct vgpu_run *r = cookie;
	struct vgpu_event *nev;

	if (!r->keep_events)
		return;
	if (r->nev == r->evcap) {
		r->evcap = r->evcap ? 2 * r->evcap : 4096;
		nev = realloc(r->ev, r->evcap * sizeof(*nev));
		if (!nev) {
			r->oom = true;
			return;
		}
		r->ev = nev;
	}
	r->ev[r->nev++] = *ev;
}

void vgpu_run_fini(struct vgpu_run *r)
{
	uint32_t i;

	for (i = 0; r->k && i < r->nk; i++)
		free(r->k[i].match);
	free(r->ev);
	free(r->k);
	free(r->mem);
	memset(r, 0, sizeof(*r));
}

int vgpu_run_workload(const struct vgpu_workload *wl, int only,
		      struct list_head *policies, struct vgpu_run *r,
		      char *err, size_t errlen)
{
	struct vgpu_gpu *g = &r->g;
	const struct vgpu_wl_kernel *wk;
	struct vgpu_gpu_kernel *k;
	uint32_t i, prio[VGPU_GPU_MAX_CHANNELS];
	uint16_t sm_order[VGPU_MAX_SMS];
	uint64_t last_decisions = ~0ULL, stuck_since = 0;
	bool busy = false;
	size_t size;
	int ret;

	size = vgpu_gpu_mem_size(&wl->cfg, &wl->params);
	r->mem = aligned_alloc(64, (size + 63) & ~(size_t)63);
	r->k = calloc(wl->nkernels, sizeof(*r->k));
	r->nk = r->k ? wl->nkernels : 0;
	if (!r->mem || !r->k) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = vgpu_gpu_init(g, r->mem, size, &wl->cfg, &wl->params, policies);
	if (ret) {
		snprintf(err, errlen, "device: %s",
			 ret == -ENOENT ? "unknown policy" : strerror(-ret));
		return ret;
	}
	for (i = 0; i < wl->n_sm_order; i++)
		sm_order[i] = wl->sm_order[i];
	if (wl->n_sm_order)
		vgpu_gpu_set_sm_rank(g, sm_order, wl->n_sm_order);
	vgpu_gpu_set_sink(g, vgpu_run_sink, r);
	for (i = 0; i < VGPU_GPU_MAX_CHANNELS; i++)
		prio[i] = ~0U;
	for (i = 0; i < wl->nkernels; i++) {
		if (only >= 0 && i != (uint32_t)only)
			continue;
		wk = &wl->kernels[i];
		if (wk->prio < prio[wk->channel])
			prio[wk->channel] = wk->prio;
	}
	for (i = 0; i < wl->params.max_channels; i++)
		if (prio[i] != ~0U)
			vgpu_gpu_channel_add(g, i, prio[i]);
	for (i = 0; i < wl->nkernels; i++) {
		if (only >= 0 && i != (uint32_t)only)
			continue;
		wk = &wl->kernels[i];
		k = &r->k[i];
		k->id = i;
		k->channel = wk->channel;
		k->prio = wk->prio;
		k->grid = wk->grid;
		k->threads = wk->threads;
		k->regs = wk->regs;
		k->smem = wk->smem;
		k->flags = wk->flags;
		k->quota = wk->quota;
		k->prio_wid_mod = wk->prio_wid_mod;
		k->arrival = only >= 0 ? 0 : wk->arrival;
		memcpy(k->affinity, wk->affinity, sizeof(k->affinity));
		k->prog = wk->prog.insns;
		k->n_insns = wk->prog.n;
		k->match = calloc(wk->prog.n, sizeof(*k->match));
		if (!k->match) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		ret = vgpu_gpu_submit(g, k);
		if (ret) {
			snprintf(err, errlen, "kernels[%u] (%s): %s", i,
				 wk->name,
				 ret == -E2BIG ? "a block never fits an SM" :
				 ret == -EEXIST ? "duplicate kernel id" :
				 "rejected by the controller");
			return ret;
		}
	}
	while (!vgpu_gpu_idle(g)) {
		if (g->stats.decisions != last_decisions) {
			last_decisions = g->stats.decisions;
			stuck_since = g->now;
		}
		for (i = 0; i < wl->cfg.num_sms && !busy; i++)
			busy = !vgpu_gpu_sm_empty(g, i);
		if (busy || vgpu_gpu_next_arrival(g) != VGPU_GPU_NO_CYCLE)
			stuck_since = g->now;
		busy = false;
		if (g->now - stuck_since > (u64)(wl->params.g_max + 16) *
		    wl->params.epoch) {
			snprintf(err, errlen,
				 "stuck at cycle %llu: the waiting kernels can never run (throttle mode, affinity?)",
				 (unsigned long long)g->now);
			return -EDEADLK;
		}
		for (i = 0; i < wl->nkernels; i++) {
			k = &r->k[i];
			if (k->state != VGPU_KS_NEW &&
			    !vgpu_gpu_kernel_finished(k) &&
			    wl->kernels[i].cancel_at &&
			    g->now >= wl->kernels[i].cancel_at)
				vgpu_gpu_cancel(g, k);
		}
		vgpu_gpu_dispatch(g);
		if (vgpu_gpu_idle(g))
			break;
		if (g->now > VGPU_RUN_MAX_CYCLES) {
			snprintf(err, errlen,
				 "no progress: still running at cycle %llu",
				 (unsigned long long)g->now);
			return -ETIME;
		}
		vgpu_gpu_advance_range(g, 0, wl->cfg.num_sms);
	}
	if (r->oom) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

struct vgpu_run_opts {
	const char *file;
	const char *trace;
	const char *policy;
	int preempt;
};

static int vgpu_run_parse(int argc, char **argv, struct vgpu_run_opts *o)
{
	int i;

	memset(o, 0, sizeof(*o));
	o->preempt = -1;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			vgpu_sim_print_usage(stdout, "vgpu-sim",
					     &vgpu_sim_cmd_run);
			exit(0);
		} else if (!strcmp(argv[i], "--trace") ||
			   !strcmp(argv[i], "--policy") ||
			   !strcmp(argv[i], "--preempt")) {
			if (i + 1 >= argc)
				return vgpu_sim_usage_error("run",
							    "%s needs a value",
							    argv[i]);
			if (!strcmp(argv[i], "--trace")) {
				o->trace = argv[++i];
			} else if (!strcmp(argv[i], "--policy")) {
				o->policy = argv[++i];
			} else {
				o->preempt = vgpu_preempt_parse(argv[++i]);
				if (o->preempt < 0)
					return vgpu_sim_usage_error("run",
						"unknown preemption mode '%s' (drain, warp, switch)",
						argv[i]);
			}
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return vgpu_sim_usage_error("run", "unknown option '%s'",
						    argv[i]);
		} else if (!o->file) {
			o->file = argv[i];
		} else {
			return vgpu_sim_usage_error("run", "one workload file only");
		}
	}
	if (!o->file)
		return vgpu_sim_usage_error("run", "which workload file?");
	return 0;
}

static int vgpu_sim_run(int argc, char **argv)
{
	struct vgpu_run_opts o;
	struct vgpu_workload wl;
	struct vgpu_run shared, alone;
	struct vgpu_metrics m;
	struct list_head policies;
	uint64_t *t_alone = NULL, *t_shared = NULL, lat, lat_max = 0;
	uint64_t makespan = 0;
	char err[1024];
	uint32_t i;
	int ret, rc = 1;

	ret = vgpu_run_parse(argc, argv, &o);
	if (ret)
		return ret;
	vgpu_policy_registry_init(&policies);
	memset(&shared, 0, sizeof(shared));
	memset(&alone, 0, sizeof(alone));
	if (vgpu_workload_load(o.file, &wl, err, sizeof(err))) {
		fprintf(stderr, "vgpu-sim run: %s\n", err);
		vgpu_workload_free(&wl);
		return 1;
	}
	if (o.policy) {
		if (!vgpu_policy_find(&policies, o.policy) ||
		    strlen(o.policy) >= VGPU_POLICY_NAME_LEN) {
			vgpu_workload_free(&wl);
			return vgpu_sim_usage_error("run",
				"unknown policy '%s' (rr, avail, resource, power)",
				o.policy);
		}
		snprintf(wl.params.policy, sizeof(wl.params.policy), "%s",
			 o.policy);
	}
	if (o.preempt >= 0)
		wl.params.preempt = o.preempt;
	t_alone = calloc(wl.nkernels, sizeof(*t_alone));
	t_shared = calloc(wl.nkernels, sizeof(*t_shared));
	if (!t_alone || !t_shared)
		goto out;
	shared.keep_events = !!o.trace;
	if (vgpu_run_workload(&wl, -1, &policies, &shared, err, sizeof(err))) {
		fprintf(stderr, "vgpu-sim run: %s: %s\n", o.file, err);
		goto out;
	}
	for (i = 0; i < wl.nkernels; i++) {
		const struct vgpu_gpu_kernel *k = &shared.k[i];

		if (k->state != VGPU_KS_DONE) {
			printf("kernel=%s submit=%llu start=%lld end=cancelled\n",
			       wl.kernels[i].name,
			       (unsigned long long)k->t_submit,
			       k->t_start == VGPU_GPU_NO_CYCLE ? -1LL :
			       (long long)k->t_start);
			continue;
		}
		t_shared[i] = k->t_end - k->t_submit;
		printf("kernel=%s submit=%llu start=%llu end=%llu turnaround=%llu\n",
		       wl.kernels[i].name, (unsigned long long)k->t_submit,
		       (unsigned long long)k->t_start,
		       (unsigned long long)k->t_end,
		       (unsigned long long)t_shared[i]);
		if (k->t_end > makespan)
			makespan = k->t_end;
		if (k->busy_arrival) {
			lat = k->t_start - k->t_submit;
			if (lat > lat_max)
				lat_max = lat;
		}
		vgpu_run_fini(&alone);
		if (vgpu_run_workload(&wl, i, &policies, &alone, err,
				      sizeof(err))) {
			fprintf(stderr, "vgpu-sim run: %s: alone run of %s: %s\n",
				o.file, wl.kernels[i].name, err);
			goto out;
		}
		t_alone[i] = alone.k[i].t_end - alone.k[i].t_submit;
	}
	vgpu_metrics_compute(t_alone, t_shared, wl.nkernels, &m);
	printf("makespan=%llu\n", (unsigned long long)makespan);
	printf("stp=%.3f\nantt=%.3f\nfairness=%.3f\n", m.stp, m.antt,
	       m.fairness);
	printf("preempt_latency_max=%llu\n", (unsigned long long)lat_max);
	printf("trace_hash=0x%016llx\n", (unsigned long long)vgpu_gpu_trace_hash(&shared.g));
	if (o.trace && vgpu_chrome_trace_write(o.trace, &wl, &shared, err,
					       sizeof(err))) {
		fprintf(stderr, "vgpu-sim run: %s\n", err);
		goto out;
	}
	rc = 0;
out:
	free(t_alone);
	free(t_shared);
	vgpu_run_fini(&alone);
	vgpu_run_fini(&shared);
	vgpu_workload_free(&wl);
	return rc;
}

const struct vgpu_sim_cmd vgpu_sim_cmd_run = {
	.name = "run",
	.summary = "run a workload file, print per-kernel times and STP/ANTT/fairness",
	.usage = "FILE [--trace OUT.json] [--policy NAME] [--preempt drain|warp|switch]",
	.run = vgpu_sim_run,
};
