// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-sim replay [--preset P] [--clock MHZ] [--policy NAME|FILE.so]
 *	[--preempt MODE] [--pack MODE] [--priority TENANT=P]
 *	[--offset TENANT=CYCLES] [--channels N] [--progress|--no-progress]
 *	RECORDING...
 *
 * Replays recordings (Nsight SQLite, Kineto JSON, Accel-Sim) through the
 * core as a stream: each recording is read kernel by
 * kernel in start order (import_stream.h), each kernel mapped as `vgpu-sim
 * import` maps it and submitted to the device just before it arrives, and
 * its memory given back when it finishes.  What is held is the kernels in
 * flight, so a recording of millions of launches replays in the memory of
 * a few thousand.  Unlike `vgpu-sim run`, nothing runs alone (no per-kernel
 * slowdowns, STP or ANTT: those need every kernel alone); the lines are
 * the import summary, the blocks, the makespan, the most kernels in
 * flight, the trace hash (for one recording, that of `vgpu-sim run` on
 * it) and per tenant the kernels and the sum of their turnarounds.
 *
 * A progress bar goes to stderr while it is a terminal (--progress draws
 * it anyway, --no-progress never).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sim.h"
#include "run.h"
#include "replay.h"
#include "import_stream.h"

/* Submit kernels that arrive within this many epochs of the next event. */
#define VGPU_RP_AHEAD	2

/* One kernel in flight: the core's descriptor and its program. */
struct vgpu_rp_kernel {
	struct list_head node;		/* in flight, in submission order */
	struct list_head pend;		/* submitted, not yet arrived */
	struct vgpu_gpu_kernel k;
	struct vgpu_insn *insns;
	u16 *match;
	u32 cap;			/* of insns and match */
	u32 tenant;
};

/* A tenant's next kernel, mapped. */
struct vgpu_rp_head {
	struct vgpu_wl_kernel wk;
	uint64_t first;			/* the recording's first start */
	uint64_t next_index;		/* workload index of its next kernel */
	uint64_t id;			/* the mapped kernel's id */
	uint64_t nread;			/* kernels read */
	bool have;
	bool started;
	bool end;
};

struct vgpu_rp {
	const struct vgpu_replay_src *src;
	uint32_t nsrc;
	const struct vgpu_replay_opts *o;
	struct vgpu_import_mapper *m;
	struct vgpu_rp_head *head;
	struct vgpu_gpu g;
	void *mem;
	bool chan_added[VGPU_GPU_MAX_CHANNELS];
	struct list_head inflight;
	struct list_head pending;
	struct list_head spare;		/* finished, memory kept for reuse */
	uint64_t nspare;
	uint64_t ninflight;
	bool scanned;			/* ids and channels by tenant */
	struct vgpu_replay_result *res;
	struct timespec t_draw;
	int drawn;
};

static uint64_t vgpu_rp_ns(const struct timespec *a, const struct timespec *b)
{
	return (uint64_t)(b->tv_sec - a->tv_sec) * 1000000000ULL +
	       b->tv_nsec - a->tv_nsec;
}

/* Read and map tenant @t's next kernel into its head. */
static int vgpu_rp_fill(struct vgpu_rp *rp, uint32_t t, char *err,
			size_t errlen)
{
	const struct vgpu_replay_src *s = &rp->src[t];
	struct vgpu_rp_head *h = &rp->head[t];
	struct vgpu_rec_kernel rk;
	int ret;

	while (!h->have && !h->end) {
		ret = s->next(s->cookie, &rk, err, errlen);
		if (ret < 0)
			return ret;
		if (!ret) {
			h->end = true;
			break;
		}
		h->nread++;
		if (!h->started && rk.timed) {
			h->first = rk.start;
			h->started = true;
		}
		ret = vgpu_import_map_one(rp->m, t, s->path, h->first, &rk,
					  rp->scanned ? h->next_index :
					  rp->m->st.mapped, &h->wk, err,
					  errlen);
		if (ret < 0)
			return ret;
		h->have = ret > 0;
		if (h->have) {
			h->id = rp->scanned ? h->next_index :
					      rp->m->st.mapped - 1;
			h->next_index++;
		}
	}
	return 0;
}

/* The tenant whose head arrives first (the lowest on a tie), or -1. */
static int vgpu_rp_first(const struct vgpu_rp *rp)
{
	int best = -1;
	uint32_t t;

	for (t = 0; t < rp->nsrc; t++)
		if (rp->head[t].have &&
		    (best < 0 ||
		     rp->head[t].wk.arrival < rp->head[best].wk.arrival))
			best = t;
	return best;
}

static struct vgpu_rp_kernel *vgpu_rp_alloc(struct vgpu_rp *rp, u32 n)
{
	struct vgpu_rp_kernel *q;

	if (!list_empty(&rp->spare)) {
		q = list_first_entry(&rp->spare, struct vgpu_rp_kernel, node);
		list_del(&q->node);
		rp->nspare--;
	} else {
		q = calloc(1, sizeof(*q));
		if (!q)
			return NULL;
	}
	if (q->cap < n) {
		free(q->insns);
		free(q->match);
		q->insns = malloc(n * sizeof(*q->insns));
		q->match = malloc(n * sizeof(*q->match));
		q->cap = n;
		if (!q->insns || !q->match) {
			free(q->insns);
			free(q->match);
			free(q);
			return NULL;
		}
	}
	return q;
}

static void vgpu_rp_release(struct vgpu_rp *rp, struct vgpu_rp_kernel *q)
{
	/* keep a few for reuse: as many as were in flight at most */
	if (rp->nspare < 64) {
		list_add(&q->node, &rp->spare);
		rp->nspare++;
		return;
	}
	free(q->insns);
	free(q->match);
	free(q);
}

/* Submit tenant @t's head to the device. */
static int vgpu_rp_submit(struct vgpu_rp *rp, uint32_t t, char *err,
			  size_t errlen)
{
	struct vgpu_wl_kernel *wk = &rp->head[t].wk;
	struct vgpu_gpu_kernel *k;
	struct vgpu_rp_kernel *q;
	int ret;

	q = vgpu_rp_alloc(rp, wk->prog.n);
	if (!q) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	memcpy(q->insns, wk->prog.insns, wk->prog.n * sizeof(*q->insns));
	memset(q->match, 0, wk->prog.n * sizeof(*q->match));
	q->tenant = t;
	k = &q->k;
	memset(k, 0, sizeof(*k));
	k->args.id = rp->head[t].id;
	vgpu_run_kernel_shape(k, wk);
	k->args.arrival = wk->arrival;
	k->args.prog = q->insns;
	k->args.n_insns = wk->prog.n;
	k->args.match = q->match;
	if (!rp->chan_added[wk->channel]) {
		ret = vgpu_gpu_channel_add(&rp->g, wk->channel, wk->prio);
		if (ret) {
			vgpu_rp_release(rp, q);
			snprintf(err, errlen,
				 "%s: channel %u: %s (--channels?)",
				 rp->src[t].path, wk->channel, strerror(-ret));
			return ret;
		}
		rp->chan_added[wk->channel] = true;
	}
	ret = vgpu_gpu_submit(&rp->g, k);
	if (ret) {
		snprintf(err, errlen, "%s (%s): %s", rp->src[t].path, wk->name,
			 ret == -E2BIG ? "a block never fits an SM" :
			 "rejected by the controller");
		vgpu_rp_release(rp, q);
		return ret;
	}
	list_add_tail(&q->node, &rp->inflight);
	if (k->args.arrival > rp->g.now)
		list_add_tail(&q->pend, &rp->pending);
	else
		INIT_LIST_HEAD(&q->pend);
	rp->ninflight++;
	if (rp->ninflight > rp->res->inflight_max)
		rp->res->inflight_max = rp->ninflight;
	vgpul_vasm_free(&wk->prog);
	rp->head[t].have = false;
	return vgpu_rp_fill(rp, t, err, errlen);
}

/*
 * Submit every kernel that can arrive before the next dispatch but one:
 * those arriving by T + VGPU_RP_AHEAD epochs, T being now or, when the
 * device may skip idle time, the next arrival it knows of.  The device
 * then sees what it would see with the whole recording submitted at once.
 */
static int vgpu_rp_feed(struct vgpu_rp *rp, char *err, size_t errlen)
{
	struct vgpu_rp_kernel *q;
	uint64_t t0 = rp->g.now;
	int t, ret;

	while (!list_empty(&rp->pending)) {
		q = list_first_entry(&rp->pending, struct vgpu_rp_kernel, pend);
		if (q->k.args.arrival > rp->g.now)
			break;
		list_del_init(&q->pend);
	}
	t = vgpu_rp_first(rp);
	if (t < 0)
		return 0;
	if (!list_empty(&rp->pending)) {
		q = list_first_entry(&rp->pending, struct vgpu_rp_kernel, pend);
		if (q->k.args.arrival > t0)
			t0 = q->k.args.arrival;
	} else if (rp->head[t].wk.arrival > t0) {
		t0 = rp->head[t].wk.arrival;
	}
	t0 += (uint64_t)VGPU_RP_AHEAD * rp->g.p.epoch;
	while (t >= 0 && rp->head[t].wk.arrival <= t0) {
		ret = vgpu_rp_submit(rp, t, err, errlen);
		if (ret)
			return ret;
		t = vgpu_rp_first(rp);
	}
	return 0;
}

/* Account and free the kernels that finished. */
static void vgpu_rp_reap(struct vgpu_rp *rp)
{
	struct vgpu_rp_kernel *q, *n;
	struct vgpu_replay_result *res = rp->res;

	list_for_each_entry_safe(q, n, &rp->inflight, node) {
		if (!vgpu_gpu_kernel_finished(&q->k))
			continue;
		list_del(&q->node);
		if (!list_empty(&q->pend))
			list_del(&q->pend);
		rp->ninflight--;
		if (q->k.state == VGPU_KS_DONE) {
			res->done++;
			res->blocks += q->k.args.grid;
			res->t_kernels[q->tenant]++;
			res->t_turnaround[q->tenant] += q->k.t.end -
							q->k.t.submit;
			if (q->k.t.end > res->makespan)
				res->makespan = q->k.t.end;
		} else {
			res->failed++;
		}
		vgpu_rp_release(rp, q);
	}
}

/* The progress bar: at most ten times a second. */
static void vgpu_rp_draw(struct vgpu_rp *rp, bool last)
{
	struct timespec now;
	double f = 0, p;
	uint32_t t, n = 0, i, w = 30;
	char bar[32];

	if (!rp->o->progress)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!last && rp->drawn && vgpu_rp_ns(&rp->t_draw, &now) < 100000000)
		return;
	rp->t_draw = now;
	for (t = 0; t < rp->nsrc; t++) {
		if (!rp->src[t].progress)
			continue;
		p = rp->head[t].end && !rp->head[t].have ? 1.0 :
		    rp->src[t].progress(rp->src[t].cookie);
		f += p;
		n++;
	}
	f = last ? 1.0 : n ? f / n : 0;
	for (i = 0; i < w; i++)
		bar[i] = i < (uint32_t)(f * w) ? '#' : '-';
	bar[w] = 0;
	fprintf(rp->o->progress,
		"\rreplay [%s] %3u%% kernels=%llu in_flight=%llu cycle=%llu%s",
		bar, (unsigned int)(f * 100), (unsigned long long)rp->res->done,
		(unsigned long long)rp->ninflight,
		(unsigned long long)rp->g.now, last ? "\n" : "");
	fflush(rp->o->progress);
	rp->drawn = 1;
}

static int vgpu_rp_params(struct vgpu_rp *rp, struct list_head *policies,
			  struct vgpu_gpu_params *p, char *err, size_t errlen)
{
	const struct vgpu_replay_opts *o = rp->o;
	const char *bad;
	int ret;

	*p = rp->m->params;
	if (o->policy && *o->policy)
		snprintf(p->policy, sizeof(p->policy), "%s", o->policy);
	if (o->preempt >= 0)
		p->preempt = o->preempt;
	if (o->pack >= 0)
		p->pack = o->pack;
	if (o->channels)
		p->max_channels = o->channels;
	rp->m->max_channels = p->max_channels;
	if (vgpu_gpu_params_validate(p, &rp->m->cfg, &bad)) {
		snprintf(err, errlen, "device: bad %s", bad);
		return -EINVAL;
	}
	ret = vgpu_sim_params_calibrated(&rp->m->cfg, p, p);
	if (ret)
		snprintf(err, errlen, "device: calibration: %s", strerror(-ret));
	return ret;
}

static int vgpu_rp_loop(struct vgpu_rp *rp, char *err, size_t errlen)
{
	struct vgpu_gpu *g = &rp->g;
	struct vgpu_sim_team *team = NULL;
	uint64_t last_decisions = ~0ULL, stuck_since = 0;
	bool busy;
	uint32_t i;
	int ret;

	ret = vgpu_sim_team_start(&team, g, rp->o->threads);
	if (ret) {
		snprintf(err, errlen, "threads: %s", strerror(-ret));
		return ret;
	}
	for (;;) {
		ret = vgpu_rp_feed(rp, err, errlen);
		if (ret)
			break;
		if (vgpu_gpu_idle(g) && vgpu_rp_first(rp) < 0)
			break;
		if (g->stats.decisions != last_decisions) {
			last_decisions = g->stats.decisions;
			stuck_since = g->now;
		}
		for (i = 0, busy = false; i < g->cfg.num_sms && !busy; i++)
			busy = !vgpu_gpu_sm_empty(g, i);
		if (busy || vgpu_gpu_next_arrival(g) != VGPU_GPU_NO_CYCLE)
			stuck_since = g->now;
		if (g->now - stuck_since > (u64)(g->p.g_max + 16) * g->p.epoch) {
			snprintf(err, errlen,
				 "stuck at cycle %llu: the waiting kernels can never run",
				 (unsigned long long)g->now);
			ret = -EDEADLK;
			break;
		}
		vgpu_gpu_dispatch(g);
		rp->res->epochs++;
		vgpu_rp_reap(rp);
		if (vgpu_gpu_idle(g) && vgpu_rp_first(rp) < 0)
			break;
		vgpu_sim_team_advance(team, g);
		if ((rp->res->epochs & 1023) == 0)
			vgpu_rp_draw(rp, false);
	}
	vgpu_sim_team_stop(team);
	return ret;
}

/*
 * Several tenants: read each once, in tenant order, for what
 * vgpul_import_map() numbers in that order: the channels (the mapper keeps
 * them) and each tenant's first kernel index; then rewind them all.
 */
static int vgpu_rp_scan(struct vgpu_rp *rp, char *err, size_t errlen)
{
	struct vgpu_rec_kernel rk;
	uint64_t index = 0;
	uint32_t t;
	int ret;

	for (t = 0; t < rp->nsrc; t++)
		if (!rp->src[t].rewind)
			return 0;
	for (t = 0; t < rp->nsrc; t++) {
		rp->head[t].next_index = index;
		while ((ret = rp->src[t].next(rp->src[t].cookie, &rk, err,
					      errlen)) > 0) {
			ret = vgpu_import_scan_one(rp->m, t, rp->src[t].path,
						   &rk, err, errlen);
			if (ret < 0)
				return ret;
			index += ret;
		}
		if (ret < 0)
			return ret;
		ret = rp->src[t].rewind(rp->src[t].cookie, err, errlen);
		if (ret)
			return ret;
	}
	rp->scanned = true;
	return 0;
}

int vgpu_replay(const struct vgpu_replay_src *src, uint32_t nsrc,
		const struct vgpu_replay_opts *o, struct list_head *policies,
		struct vgpu_replay_result *res, char *err, size_t errlen)
{
	struct vgpu_gpu_params p;
	struct vgpu_rp_kernel *q, *n;
	struct timespec t0, t1, t2;
	struct vgpu_rp rp;
	size_t size;
	uint32_t t;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	memset(res, 0, sizeof(*res));
	memset(&rp, 0, sizeof(rp));
	INIT_LIST_HEAD(&rp.inflight);
	INIT_LIST_HEAD(&rp.pending);
	INIT_LIST_HEAD(&rp.spare);
	rp.src = src;
	rp.nsrc = nsrc;
	rp.o = o;
	rp.res = res;
	if (!nsrc || nsrc > VGPU_REPLAY_MAX_TENANTS) {
		snprintf(err, errlen, "1 to %u recordings",
			 VGPU_REPLAY_MAX_TENANTS);
		return -EINVAL;
	}
	res->ntenants = nsrc;
	rp.m = malloc(sizeof(*rp.m));
	rp.head = calloc(nsrc, sizeof(*rp.head));
	if (!rp.m || !rp.head) {
		free(rp.m);
		free(rp.head);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = vgpu_import_mapper_init(rp.m, &o->imp, err, errlen);
	if (ret) {
		free(rp.m);
		free(rp.head);
		return ret;
	}
	ret = vgpu_rp_params(&rp, policies, &p, err, errlen);
	if (ret)
		goto out;
	size = vgpu_gpu_mem_size(&rp.m->cfg, &p);
	rp.mem = aligned_alloc(64, (size + 63) & ~(size_t)63);
	if (!rp.mem) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	ret = vgpu_gpu_init(&rp.g, rp.mem, size, &rp.m->cfg, &p, policies);
	if (ret) {
		snprintf(err, errlen, "device: %s",
			 ret == -ENOENT ? "unknown policy" : strerror(-ret));
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	res->startup_ns = vgpu_rp_ns(&t0, &t1);
	if (nsrc > 1)
		ret = vgpu_rp_scan(&rp, err, errlen);
	/* the channels a first pass found, as vgpu-sim run adds them */
	for (t = 0; !ret && t < rp.m->nch; t++) {
		u32 r = rp.m->chans[t].rec;

		ret = vgpu_gpu_channel_add(&rp.g, t, o->imp.priority ?
					   o->imp.priority[r] : 0);
		if (ret)
			snprintf(err, errlen, "channel %u: %s (--channels?)",
				 t, strerror(-ret));
		rp.chan_added[t] = true;
	}
	for (t = 0; t < nsrc && !ret; t++) {
		ret = vgpu_rp_fill(&rp, t, err, errlen);
		/* as vgpul_rec_load() says it */
		if (!ret && rp.head[t].end && !rp.head[t].nread) {
			snprintf(err, errlen,
				 "%s: (file): (kernels): no kernel launches recorded",
				 src[t].path);
			ret = -EINVAL;
		}
	}
	if (ret)
		goto out;
	ret = vgpu_rp_loop(&rp, err, errlen);
	clock_gettime(CLOCK_MONOTONIC, &t2);
	res->sim_ns = vgpu_rp_ns(&t1, &t2);
	if (!ret)
		vgpu_rp_draw(&rp, true);
	else if (rp.drawn)
		fputc('\n', o->progress);
	res->hash = vgpu_gpu_trace_hash(&rp.g);
	if (!ret && !rp.m->st.mapped) {
		snprintf(err, errlen,
			 "no recorded kernel can run on %s (%llu skipped)",
			 rp.m->preset, (unsigned long long)rp.m->st.skipped);
		ret = -EINVAL;
	}
out:
	res->st = rp.m->st;
	for (t = 0; t < nsrc; t++)
		if (rp.head[t].have)
			vgpul_vasm_free(&rp.head[t].wk.prog);
	list_for_each_entry_safe(q, n, &rp.inflight, node) {
		free(q->insns);
		free(q->match);
		free(q);
	}
	list_for_each_entry_safe(q, n, &rp.spare, node) {
		free(q->insns);
		free(q->match);
		free(q);
	}
	vgpu_import_mapper_fini(rp.m);
	free(rp.m);
	free(rp.head);
	free(rp.mem);
	return ret;
}

/* A recording file as a replay source. */
static int vgpu_rp_stream_next(void *cookie, struct vgpu_rec_kernel *k,
			       char *err, size_t errlen)
{
	return vgpu_rec_stream_next(cookie, k, err, errlen);
}

static double vgpu_rp_stream_progress(void *cookie)
{
	return vgpu_rec_stream_progress(cookie);
}

static int vgpu_rp_stream_rewind(void *cookie, char *err, size_t errlen)
{
	return vgpu_rec_stream_rewind(cookie, err, errlen);
}

static int vgpu_sim_replay(int argc, char **argv)
{
	static struct vgpu_sim_rec_args ra;
	struct vgpu_rec_stream *streams[VGPU_REPLAY_MAX_TENANTS] = { NULL };
	struct vgpu_replay_src src[VGPU_REPLAY_MAX_TENANTS];
	struct vgpu_replay_opts o = { .imp = { .preset = "h100",
					       .report = stderr },
				      .preempt = -1, .pack = -1 };
	struct vgpu_replay_result *res = NULL;
	struct list_head policies;
	static const char *const valued[] = {
		VGPU_SIM_REC_OPTS, "--policy", "--preempt", "--pack",
		"--channels", "--threads", NULL
	};
	static const char *const flags[] = {
		"--progress", "--no-progress", NULL
	};
	struct vgpu_sim_args args = { .cmd = &vgpu_sim_cmd_replay,
				      .valued = valued, .flags = flags,
				      .argc = argc, .argv = argv };
	unsigned int nf = 0, i;
	int progress = -1, rc = 1, ret;
	const char *a, *v;
	char err[1024];

	ra = (struct vgpu_sim_rec_args){ .cmd = "replay",
					 .max = VGPU_REPLAY_MAX_TENANTS,
					 .imp = &o.imp,
					 .format = VGPU_REC_AUTO };
	vgpu_policy_registry_init(&policies);
	while ((ret = vgpu_sim_arg(&args)) > 0) {
		a = args.opt ? args.opt : "";
		v = args.val;
		if (!strcmp(a, "--progress") || !strcmp(a, "--no-progress")) {
			progress = !strcmp(a, "--progress");
		} else if (!strcmp(a, "--policy")) {
			o.policy = vgpu_sim_policy_resolve(&policies, v, err, sizeof(err));
			if (!o.policy)
				return vgpu_sim_usage_error("replay", "%s", err);
		} else if (!strcmp(a, "--preempt") || !strcmp(a, "--pack")) {
			if (vgpu_sim_mode_arg("replay", a, v,
					      !strcmp(a, "--pack") ?
					      &o.pack : &o.preempt))
				return VGPU_SIM_EXIT_USAGE;
		} else if (!strcmp(a, "--channels")) {
			if (!vgpul_cli_u32(v, &o.channels) ||
			    !o.channels || o.channels > VGPU_GPU_MAX_CHANNELS)
				return vgpu_sim_usage_error("replay",
					"--channels takes 1..%u, not '%s'",
					VGPU_GPU_MAX_CHANNELS, v);
		} else if (!strcmp(a, "--threads")) {
			if (vgpu_sim_threads_arg("replay", v, &o.threads))
				return VGPU_SIM_EXIT_USAGE;
		} else if (vgpu_sim_rec_arg(&ra, args.opt, v)) {
			return VGPU_SIM_EXIT_USAGE;
		}
	}
	if (ret)
		return args.status;
	ret = vgpu_sim_rec_args_done(&ra);
	if (ret)
		return ret;
	nf = ra.nf;
	if (progress < 0)
		progress = isatty(STDERR_FILENO);
	o.progress = progress ? stderr : NULL;
	for (i = 0; i < nf; i++) {
		ret = vgpu_rec_stream_open(ra.files[i], ra.format, &streams[i],
					   err, sizeof(err));
		if (ret) {
			fprintf(stderr, "vgpu-sim replay: %s\n", err);
			goto out;
		}
		src[i].next = vgpu_rp_stream_next;
		src[i].progress = vgpu_rp_stream_progress;
		src[i].rewind = vgpu_rp_stream_rewind;
		src[i].cookie = streams[i];
		src[i].path = ra.files[i];
	}
	res = malloc(sizeof(*res));
	if (!res) {
		fprintf(stderr, "vgpu-sim replay: out of memory\n");
		goto out;
	}
	if (vgpu_replay(src, nf, &o, &policies, res, err, sizeof(err))) {
		fprintf(stderr, "vgpu-sim replay: %s\n", err);
		goto out;
	}
	printf("kernels=%llu mapped=%llu skipped=%llu clamped=%llu channels=%u tenants=%u\n",
	       (unsigned long long)res->st.kernels,
	       (unsigned long long)res->st.mapped,
	       (unsigned long long)res->st.skipped,
	       (unsigned long long)res->st.clamped, res->st.channels, nf);
	printf("completed=%llu failed=%llu blocks=%llu\n",
	       (unsigned long long)res->done, (unsigned long long)res->failed,
	       (unsigned long long)res->blocks);
	printf("makespan=%llu\n", (unsigned long long)res->makespan);
	printf("in_flight_max=%llu\n", (unsigned long long)res->inflight_max);
	printf("trace_hash=0x%016llx\n", (unsigned long long)res->hash);
	for (i = 0; nf > 1 && i < nf; i++)
		printf("tenant=%u kernels=%llu turnaround=%llu\n", i,
		       (unsigned long long)res->t_kernels[i],
		       (unsigned long long)res->t_turnaround[i]);
	rc = 0;
out:
	free(res);
	for (i = 0; i < nf; i++)
		vgpu_rec_stream_close(streams[i]);
	return rc;
}

const struct vgpul_cli_cmd vgpu_sim_cmd_replay = {
	.name = "replay",
	.summary = "replay recordings (nsys, kineto, accelsim) as a stream, in bounded memory",
	.usage = "[--format auto|nsys|kineto|accelsim] [--preset small|a100|h100] [--clock MHZ]\n"
		 "       [--policy NAME|FILE.so] [--preempt drain|warp|switch] [--pack auto|block|sm]\n"
		 "       [--priority TENANT=P] [--offset TENANT=CYCLES] [--channels N] [--threads N]\n"
		 "       [--progress|--no-progress] RECORDING...\n"
		 "Each RECORDING is a tenant (0, 1, ...), mapped as by import; kernels are read,\n"
		 "submitted and freed as the replay goes.  A progress bar goes to stderr when it\n"
		 "is a terminal.",
	.run = vgpu_sim_replay,
};
