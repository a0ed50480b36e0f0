// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-sim run FILE [--trace OUT.json] [--policy NAME|FILE.so] [--preempt MODE]
 *	[--pack auto|block|sm] [--threads N] [--priority TENANT=P]
 *	[--offset TENANT=CYCLES]
 *
 * Runs a workload (Documentation/workloads.rst) through the global
 * controller and the SMs of driver/core, epoch by epoch (F51), then
 * runs every kernel alone on the same device and prints per-kernel times
 * and the multiprogram metrics of F67.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim.h"
#include "run.h"
#include <vgpu/import.h>
#include <vgpu/metrics.h>

#include "cli.h"

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
	uint32_t i, j;

	for (i = 0; r->k && i < r->nk; i++) {
		free(r->k[i].args.match);
		free(r->k[i].args.dev_push);
	}
	for (i = 0; r->tree && i < r->nk; i++) {
		for (j = 0; j < VGPU_MAX_TEMPLATES; j++)
			free(r->tree[i].tmpl[j].match);
		free(r->tree[i].store);
	}
	vgpu_sim_team_stop(r->team);
	for (i = 0; r->bufs && i < r->nbufs; i++)
		free(r->bufs[i]);
	free(r->bufs);
	free(r->slots);
	free(r->tree);
	free(r->push);
	free(r->ev);
	free(r->k);
	free(r->mem);
	free(r->fn_mem);
	memset(r, 0, sizeof(*r));
}

static bool vgpu_run_wanted(const struct vgpu_workload *wl, int only,
			    uint32_t i);

/*
 * The buffers of the workload, filled, and the slots of each wanted
 * kernel; the functional memory of the device when a wanted kernel is
 * functional (seed 004).  Timing-only workloads get nothing.
 */
static int vgpu_run_fn_init(const struct vgpu_workload *wl, int only,
			    struct vgpu_run *r, char *err, size_t errlen)
{
	uint32_t i, j, n, flags, buf[VGPUL_WL_MAX_SLOTS];
	struct vgpu_lane_slot *sl;
	bool fn = false;
	uint64_t size;
	size_t bytes;
	int ret;

	for (i = 0; i < wl->nkernels; i++)
		if (vgpu_run_wanted(wl, only, i) &&
		    vgpul_workload_kernel_functional(wl, i))
			fn = true;
	n = vgpul_workload_num_buffers(wl);
	if (!n && !fn)
		return 0;
	r->bufs = calloc(n ? n : 1, sizeof(*r->bufs));
	r->slots = calloc((size_t)wl->nkernels * VGPU_ISA_MAX_SLOTS,
			  sizeof(*r->slots));
	if (!r->bufs || !r->slots)
		goto oom;
	for (i = 0; i < n; i++, r->nbufs++) {
		vgpul_workload_buffer(wl, i, &size, NULL);
		/* whole cache lines: the lanes' loads may be vectorised */
		r->bufs[i] = aligned_alloc(64, (size + 63) & ~63ULL);
		if (!r->bufs[i])
			goto oom;
		vgpul_workload_buffer_fill(wl, i, r->bufs[i]);
	}
	for (i = 0; i < wl->nkernels; i++) {
		sl = &r->slots[(size_t)i * VGPU_ISA_MAX_SLOTS];
		n = vgpul_workload_kernel_buffers(wl, i, buf, NULL);
		for (j = 0; j < n; j++) {
			vgpul_workload_buffer(wl, buf[j], &size, &flags);
			sl[j].base = r->bufs[buf[j]];
			sl[j].size = size;
			sl[j].flags = (flags & VGPUL_BUF_READ_ONLY ?
				       VGPU_LANE_SLOT_READ_ONLY : 0) |
				      (flags & VGPUL_BUF_CONSTANT ?
				       VGPU_LANE_SLOT_CONSTANT : 0);
		}
	}
	if (!fn)
		return 0;
	bytes = vgpu_gpu_fn_bytes(&r->g);
	r->fn_mem = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
	if (!r->fn_mem)
		goto oom;
	memset(r->fn_mem, 0, bytes);
	ret = vgpu_gpu_fn_attach(&r->g, r->fn_mem, bytes);
	if (ret) {
		snprintf(err, errlen,
			 "device: functional kernels need warps of %u lanes",
			 VGPU_ISA_LANES);
		return ret;
	}
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -ENOMEM;
}

int vgpu_run_check(const struct vgpu_workload *wl, const struct vgpu_run *r,
		   FILE *out)
{
	int *kerr, ret;
	uint32_t i;

	if (!r->bufs)
		return 0;
	kerr = calloc(wl->nkernels, sizeof(*kerr));
	if (!kerr) {
		fprintf(out, "check: out of memory\n");
		return 1;
	}
	for (i = 0; i < wl->nkernels && i < r->nk; i++)
		if (vgpul_workload_kernel_functional(wl, i) &&
		    r->k[i].state == VGPU_KS_FAILED)
			kerr[i] = r->k[i].error;
	ret = vgpul_workload_check(wl, r->bufs, kerr, out);
	free(kerr);
	return ret ? 1 : 0;
}

/* The templates and child storage of workload kernel @wk (F15). */
static int vgpu_run_tree_init(const struct vgpu_wl_kernel *wk,
			      struct vgpu_run_tree *t, struct vgpu_gpu_kernel *k)
{
	const struct vgpu_wl_template *wt;
	uint32_t j;

	for (j = 0; j < wk->n_templates; j++) {
		wt = &wk->templates[j];
		t->tmpl[j].grid = wt->grid;
		t->tmpl[j].threads = wt->threads;
		t->tmpl[j].regs = wt->regs;
		t->tmpl[j].smem = wt->smem;
		t->tmpl[j].flags = wt->flags;
		t->tmpl[j].prog = wt->prog.insns;
		t->tmpl[j].n_insns = wt->prog.n;
		t->tmpl[j].match = calloc(wt->prog.n, sizeof(u16));
		if (!t->tmpl[j].match)
			return -ENOMEM;
	}
	if (wk->child_budget) {
		t->store = calloc(wk->child_budget, sizeof(*t->store));
		if (!t->store)
			return -ENOMEM;
	}
	k->args.tmpl = wk->n_templates ? t->tmpl : NULL;
	k->args.n_tmpl = wk->n_templates;
	k->args.child_budget = wk->child_budget;
	k->args.child_store = t->store;
	return 0;
}

/*
 * Kernel @i takes part in the run: every kernel, or with @only >= 0 that
 * one alone and the queue kernel its PUSH instructions feed (F14).
 */
static bool vgpu_run_wanted(const struct vgpu_workload *wl, int only,
			    uint32_t i)
{
	return only < 0 || i == (uint32_t)only ||
	       wl->kernels[only].push_to == i + 1;
}

/*
 * The pushes of the queue kernels (F14), in kernel then file order, after
 * every kernel was submitted: the order vgpuctl run gives them too.
 */
static int vgpu_run_pushes(const struct vgpu_workload *wl, int only,
			   struct vgpu_run *r, char *err, size_t errlen)
{
	const struct vgpu_wl_kernel *wk;
	struct vgpu_gpu_push *p;
	size_t n = 0;
	uint32_t i, j;
	int ret;

	for (i = 0; i < wl->nkernels; i++)
		n += wl->kernels[i].n_pushes;
	r->push = calloc(n ? n : 1, sizeof(*r->push));
	if (!r->push) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (i = 0, p = r->push; i < wl->nkernels; i++) {
		if (!vgpu_run_wanted(wl, only, i))
			continue;
		wk = &wl->kernels[i];
		for (j = 0; j < wk->n_pushes; j++, p++) {
			p->arrival = vgpul_wl_push_at(wk->pushes[j].at,
						     wk->arrival, only >= 0);
			p->items = wk->pushes[j].items;
			p->flags = wk->pushes[j].close ? VGPU_GPU_PUSH_CLOSE : 0;
			ret = vgpu_gpu_queue_push(&r->g, &r->k[i], p);
			if (ret) {
				snprintf(err, errlen,
					 "kernels[%u] (%s): queue.push[%u]: %s",
					 i, wk->name, j,
					 ret == -ENOSPC ?
					 "more than queue.cap items would wait (pushes not yet arrived count)" :
					 "rejected by the controller");
				return ret;
			}
		}
	}
	return 0;
}

void vgpu_run_kernel_shape(struct vgpu_gpu_kernel *k,
			   const struct vgpu_wl_kernel *wk)
{
	k->args.channel = wk->channel;
	k->args.prio = wk->prio;
	k->args.grid = wk->grid;
	k->args.threads = wk->threads;
	k->args.regs = wk->regs;
	k->args.smem = wk->smem;
	k->args.sregs = wk->sregs;
	k->args.flags = wk->flags;
	k->args.queue_n = wk->queue_n;
	k->args.queue_cap = wk->queue_cap;
	k->args.queue_timeout = wk->queue_timeout;
	k->args.quota = wk->quota;
	k->args.deadline = wk->deadline;
	k->args.tenant = wk->tenant;
	k->args.prio_wid_mod = wk->prio_wid_mod;
}

int vgpu_run_workload(const struct vgpu_workload *wl, int only,
		      struct list_head *policies, struct vgpu_run *r,
		      char *err, size_t errlen)
{
	struct vgpu_gpu *g = &r->g;
	struct vgpu_gpu_params params;
	const struct vgpu_wl_kernel *wk;
	struct vgpu_gpu_kernel *k;
	uint32_t i, prio[VGPU_GPU_MAX_CHANNELS], slot_buf[VGPUL_WL_MAX_SLOTS];
	uint16_t sm_order[VGPU_MAX_SMS];
	uint64_t last_decisions = ~0ULL, stuck_since = 0;
	struct timespec t0, t1, c0, c1;
	bool busy = false;
	size_t size;
	int ret;

	size = vgpu_gpu_mem_size(&wl->dev->cfg, &wl->dev->params);
	r->mem = vgpu_sim_gpu_mem_alloc(size);
	r->k = calloc(wl->nkernels, sizeof(*r->k));
	r->tree = calloc(wl->nkernels, sizeof(*r->tree));
	r->nk = r->k && r->tree ? wl->nkernels : 0;
	if (!r->mem || !r->k || !r->tree) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = vgpu_sim_params_calibrated(&wl->dev->cfg, &wl->dev->params,
					 &params);
	if (!ret)
		ret = vgpu_gpu_init(g, r->mem, size, &wl->dev->cfg, &params,
				    policies);
	if (ret) {
		snprintf(err, errlen, "device: %s",
			 ret == -ENOENT ? "unknown policy" : strerror(-ret));
		return ret;
	}
	for (i = 0; i < wl->dev->n_sm_order; i++)
		sm_order[i] = wl->dev->sm_order[i];
	if (wl->dev->n_sm_order)
		vgpu_gpu_set_sm_rank(g, sm_order, wl->dev->n_sm_order);
	vgpu_gpu_set_sink(g, vgpu_run_sink, r);
	if (r->fn_hook)
		vgpu_gpu_fn_set_hook(g, r->fn_hook, r->fn_hook_cookie);
	ret = vgpu_run_fn_init(wl, only, r, err, errlen);
	if (ret)
		return ret;
	for (i = 0; i < VGPU_GPU_MAX_CHANNELS; i++)
		prio[i] = ~0U;
	for (i = 0; i < wl->nkernels; i++) {
		if (!vgpu_run_wanted(wl, only, i))
			continue;
		wk = &wl->kernels[i];
		if (wk->prio < prio[wk->channel])
			prio[wk->channel] = wk->prio;
	}
	for (i = 0; i < wl->dev->params.max_channels; i++)
		if (prio[i] != ~0U)
			vgpu_gpu_channel_add(g, i, prio[i]);
	for (i = 0; i < wl->nkernels; i++) {
		if (!vgpu_run_wanted(wl, only, i))
			continue;
		wk = &wl->kernels[i];
		k = &r->k[i];
		k->args.id = i;
		vgpu_run_kernel_shape(k, wk);
		k->args.n_warp_prio = wk->n_warp_prio;
		if (wk->push_to && vgpu_run_wanted(wl, only, wk->push_to - 1))
			k->args.push_to = &r->k[wk->push_to - 1];
		memcpy(k->args.warp_prio, wk->warp_prio, sizeof(k->args.warp_prio));
		k->args.arrival = only >= 0 ? 0 : wk->arrival;
		memcpy(k->args.affinity, wk->affinity, sizeof(wk->affinity));
		k->args.prog = wk->prog.insns;
		k->args.n_insns = wk->prog.n;
		if (vgpul_workload_kernel_functional(wl, i)) {
			k->args.fn = true;
			k->args.slots = &r->slots[(size_t)i * VGPU_ISA_MAX_SLOTS];
			vgpul_workload_kernel_buffers(wl, i, slot_buf,
						      &k->args.priv_bytes);
			k->args.insn_budget = vgpul_workload_kernel_budget(wl, i);
		}
		k->args.match = calloc(wk->prog.n, sizeof(*k->args.match));
		k->args.n_dev_push = wk->records;
		k->args.dev_push = wk->records ? calloc(wk->records,
						   sizeof(*k->args.dev_push)) : NULL;
		if (!k->args.match || (wk->records && !k->args.dev_push) ||
		    vgpu_run_tree_init(wk, &r->tree[i], k)) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		ret = vgpu_gpu_submit(g, k);
		if (ret) {
			snprintf(err, errlen, "kernels[%u] (%s): %s", i,
				 wk->name,
				 ret == -E2BIG ? "a block never fits an SM" :
				 ret == -EEXIST ? "duplicate kernel id" :
				 k->args.fn ? "rejected by the controller (a functional program: its registers, private memory, BAR?)" :
				 "rejected by the controller");
			return ret;
		}
	}
	ret = vgpu_run_pushes(wl, only, r, err, errlen);
	if (ret)
		return ret;
	ret = vgpu_sim_team_start(&r->team, g, r->threads);
	if (ret) {
		snprintf(err, errlen, "threads: %s", strerror(-ret));
		return ret;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
	while (!vgpu_gpu_idle(g)) {
		if (g->stats.decisions != last_decisions) {
			last_decisions = g->stats.decisions;
			stuck_since = g->now;
		}
		for (i = 0; i < wl->dev->cfg.num_sms && !busy; i++)
			busy = !vgpu_gpu_sm_empty(g, i);
		if (busy || vgpu_gpu_next_arrival(g) != VGPU_GPU_NO_CYCLE)
			stuck_since = g->now;
		/* a cancel_at to come ends an open queue kernel (F14) */
		for (i = 0; i < wl->nkernels; i++)
			if (wl->kernels[i].cancel_at > g->now &&
			    r->k[i].state != VGPU_KS_NEW &&
			    !vgpu_gpu_kernel_finished(&r->k[i]))
				stuck_since = g->now;
		busy = false;
		if (g->now - stuck_since > (u64)(wl->dev->params.g_max + 16) *
		    wl->dev->params.epoch) {
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
		vgpu_sim_team_advance(r->team, g);
	}
	vgpu_sim_team_stop(r->team);
	r->team = NULL;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
	r->loop_seconds = (t1.tv_sec - t0.tv_sec) +
			  (t1.tv_nsec - t0.tv_nsec) * 1e-9;
	r->loop_cpu_seconds = (c1.tv_sec - c0.tv_sec) +
			      (c1.tv_nsec - c0.tv_nsec) * 1e-9;
	if (r->oom) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

/* --priority and --offset arguments of run (tenants) */
#define VGPU_RUN_MAX_SHAPE	256

struct vgpu_run_opts {
	const char *file;
	const char *trace;
	const char *policy;
	int preempt;
	int pack;
	uint32_t threads;
	const char *prio[VGPU_RUN_MAX_SHAPE];
	const char *offset[VGPU_RUN_MAX_SHAPE];
	unsigned int nprio, noffset;
};

static int vgpu_run_parse(int argc, char **argv, struct vgpu_run_opts *o)
{
	static const char *const valued[] = {
		"--trace", "--policy", "--preempt", "--pack", "--threads",
		"--priority", "--offset", NULL
	};
	struct vgpu_sim_args args = { .cmd = &vgpu_sim_cmd_run,
				      .valued = valued, .argc = argc,
				      .argv = argv };
	const char *a, *v;
	int ret, bad = 0;

	memset(o, 0, sizeof(*o));
	o->preempt = -1;
	o->pack = -1;
	while ((ret = vgpu_sim_arg(&args)) > 0) {
		a = args.opt;
		v = args.val;
		if (!a) {
			if (o->file)
				return vgpu_sim_usage_error("run",
						"one workload file only");
			o->file = v;
			continue;
		}
		if (!strcmp(a, "--trace")) {
			o->trace = v;
		} else if (!strcmp(a, "--priority") ||
			   !strcmp(a, "--offset")) {
			if (o->nprio == VGPU_RUN_MAX_SHAPE ||
			    o->noffset == VGPU_RUN_MAX_SHAPE)
				return vgpu_sim_usage_error("run",
					"too many %s", a);
			if (!strcmp(a, "--priority"))
				o->prio[o->nprio++] = v;
			else
				o->offset[o->noffset++] = v;
		} else if (!strcmp(a, "--policy")) {
			o->policy = v;
		} else if (!strcmp(a, "--threads")) {
			bad = vgpu_sim_threads_arg("run", v, &o->threads);
		} else {
			bad = vgpu_sim_mode_arg("run", a, v,
						!strcmp(a, "--pack") ?
						&o->pack : &o->preempt);
		}
		if (bad)
			return bad;
	}
	if (ret) {
		if (!args.status)
			exit(0);	/* --help */
		return args.status;
	}
	if (!o->file)
		return vgpu_sim_usage_error("run", "which workload file?");
	return 0;
}

/**
 * vgpu_sim_measure() - the shared run of a workload, and each kernel alone
 * @wl: the workload, its policy and preemption mode set
 * @policies: the policy registry
 * @shared: the shared run (zeroed; released by the caller)
 * @res: what was measured; its arrays are the caller's to free
 *	(vgpu_sim_result_fini())
 * @out: where to print one kernel= line per kernel, or NULL
 * @err: error message
 * @errlen: its size
 *
 * Return: 0, or -1 with @err set.
 */
int vgpu_sim_measure(struct vgpu_workload *wl, struct list_head *policies,
		     struct vgpu_run *shared, struct vgpu_sim_result *res,
		     FILE *out, char *err, size_t errlen)
{
	struct vgpu_run alone;
	uint64_t *t_alone, lat;
	char why[512];
	uint32_t i;
	int rc = -1;

	memset(res, 0, sizeof(*res));
	memset(&alone, 0, sizeof(alone));
	t_alone = calloc(wl->nkernels, sizeof(*t_alone));
	res->turnaround = calloc(wl->nkernels, sizeof(*res->turnaround));
	if (!t_alone || !res->turnaround) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (vgpu_run_workload(wl, -1, policies, shared, err, errlen))
		goto out;
	for (i = 0; i < wl->nkernels; i++) {
		const struct vgpu_gpu_kernel *k = &shared->k[i];
		struct vgpul_ktimes t;

		vgpu_sim_ktime(k, &t);
		res->turnaround[i] = vgpul_report_kernel(out,
							 wl->kernels[i].name,
							 &t);
		if (t.state != VGPUL_KT_DONE)
			continue;
		if (k->t.end > res->makespan)
			res->makespan = k->t.end;
		if (k->busy_arrival && k->t.start != VGPU_GPU_NO_CYCLE) {
			lat = k->t.start - k->t.submit;
			if (lat > res->lat_max)
				res->lat_max = lat;
		}
		vgpu_run_fini(&alone);
		alone.threads = shared->threads;
		if (vgpu_run_workload(wl, i, policies, &alone, why,
				      sizeof(why))) {
			snprintf(err, errlen, "alone run of %s: %s",
				 wl->kernels[i].name, why);
			goto out;
		}
		t_alone[i] = alone.k[i].t.end - alone.k[i].t.submit;
	}
	vgpul_metrics_compute(t_alone, res->turnaround, wl->nkernels, &res->m);
	res->hash = vgpu_gpu_trace_hash(&shared->g);
	res->policy_errors = shared->g.stats.policy_errors;
	res->deadline_misses = shared->g.stats.deadline_misses;
	rc = 0;
out:
	free(t_alone);
	vgpu_run_fini(&alone);
	return rc;
}

/**
 * vgpu_sim_result_fini() - free what vgpu_sim_measure() allocated
 * @res: the result
 */
void vgpu_sim_result_fini(struct vgpu_sim_result *res)
{
	free(res->turnaround);
	res->turnaround = NULL;
}

/*
 * The policy's statistics after a run under a policy (point of the
 * watchdog, driver/core/policy_watch.c): what the core refused per op,
 * the yields, and the ejection if there was one.
 */
static void vgpu_sim_policy_report(FILE *f, const struct vgpu_gpu *g)
{
	const struct vgpu_policy_stats *ps = &g->pstats;
	bool any = false;
	u32 op;

	fprintf(f, "policy=%s state=%s errors=",
		ps->ejected ? ps->exit_name : g->policy->name,
		ps->ejected ? "ejected" : "active");
	for (op = 0; op < VGPU_POLICY_NUM_OPS; op++) {
		if (!ps->errors[op])
			continue;
		fprintf(f, "%s%s:%llu", any ? "," : "", vgpu_policy_op_name(op),
			(unsigned long long)ps->errors[op]);
		any = true;
	}
	fprintf(f, "%s yields=%llu yields_refused=%llu preemptions=%llu ejections=%llu\n",
		any ? "" : "0", (unsigned long long)ps->yields,
		(unsigned long long)ps->yields_refused,
		(unsigned long long)ps->preemptions,
		(unsigned long long)ps->ejections);
	if (!ps->ejections)
		return;
	fprintf(f, "policy_exit=%s reason=%s", ps->exit_name,
		vgpu_policy_exit_name(ps->exit_reason));
	if (ps->exit_op < VGPU_POLICY_NUM_OPS)
		fprintf(f, " op=%s", vgpu_policy_op_name(ps->exit_op));
	fprintf(f, " cycle=%llu fallback=%s\n",
		(unsigned long long)ps->exit_at, g->policy->name);
}

int vgpu_sim_load(const char *cmd, const char *file, const char *policy,
		  int preempt, int pack, struct list_head *policies,
		  struct vgpu_workload *wl)
{
	const char *name;
	char err[1024];

	vgpu_policy_registry_init(policies);
	if (vgpul_workload_load_any(file, wl, err, sizeof(err))) {
		fprintf(stderr, "vgpu-sim %s: %s\n", cmd, err);
		vgpul_workload_free(wl);
		return 1;
	}
	if (policy) {
		name = vgpu_sim_policy_resolve(policies, policy, err,
					       sizeof(err));
		if (!name) {
			vgpul_workload_free(wl);
			return vgpu_sim_usage_error(cmd, "%s", err);
		}
		vgpul_workload_set_policy(wl, name);
	}
	if (preempt >= 0)
		wl->dev->params.preempt = preempt;
	if (pack >= 0)
		wl->dev->params.pack = pack;
	return 0;
}

static int vgpu_sim_run(int argc, char **argv)
{
	struct vgpu_run_opts o;
	struct vgpu_workload wl;
	struct vgpu_sim_result res;
	struct vgpu_run shared;
	struct list_head policies;
	char err[1024];
	int ret, rc = 1;

	ret = vgpu_run_parse(argc, argv, &o);
	if (ret)
		return ret;
	memset(&shared, 0, sizeof(shared));
	memset(&res, 0, sizeof(res));
	ret = vgpu_sim_load("run", o.file, o.policy, o.preempt, o.pack,
			    &policies, &wl);
	if (ret)
		return ret;
	if (vgpul_tenant_args(&wl, o.prio, o.nprio, o.offset, o.noffset, err,
			      sizeof(err))) {
		vgpul_workload_free(&wl);
		return vgpu_sim_usage_error("run", "%s", err);
	}
	shared.keep_events = !!o.trace;
	shared.threads = o.threads;
	if (vgpu_sim_measure(&wl, &policies, &shared, &res, stdout, err,
			     sizeof(err))) {
		fprintf(stderr, "vgpu-sim run: %s: %s\n", o.file, err);
		goto out;
	}
	vgpul_report_summary(stdout, &(struct vgpul_summary){
		.makespan = res.makespan, .metrics = true, .m = res.m,
		.lat_max = res.lat_max, .hash = res.hash });
	/* only under a policy of one's choice: default outputs stay as they are */
	if (o.policy || shared.g.pstats.ejections || shared.g.stats.policy_errors)
		vgpu_sim_policy_report(stdout, &shared.g);
	if (vgpu_sim_tenants(&wl, &policies, &shared, stdout, err,
			     sizeof(err))) {
		fprintf(stderr, "vgpu-sim run: %s: %s\n", o.file, err);
		goto out;
	}
	/* functional workloads: the buffers against their expectations */
	if (vgpu_run_check(&wl, &shared, stdout))
		goto out;
	if (o.trace && vgpu_chrome_trace_write(o.trace, &wl, &shared, err,
					       sizeof(err))) {
		fprintf(stderr, "vgpu-sim run: %s\n", err);
		goto out;
	}
	rc = 0;
out:
	vgpu_sim_result_fini(&res);
	vgpu_run_fini(&shared);
	vgpul_workload_free(&wl);
	return rc;
}

const struct vgpul_cli_cmd vgpu_sim_cmd_run = {
	.name = "run",
	.summary = "run a workload file, print per-kernel times and STP/ANTT/fairness",
	.usage = "FILE [--trace OUT.json] [--policy NAME|FILE.so] [--preempt drain|warp|switch] [--pack auto|block|sm] [--threads N]\n"
		 "       [--priority TENANT=P] [--offset TENANT=CYCLES]\n"
		 "  --threads N  advance the SMs of each epoch on N threads (default 1);\n"
		 "               every output is the same for every N\n"
		 "  --priority, --offset  shape the tenants' mix as import does",
	.run = vgpu_sim_run,
};
