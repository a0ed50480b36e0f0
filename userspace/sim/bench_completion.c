// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-sim bench completion: what a host pays per epoch to learn which of
 * its kernels finished and which kernel each event is about, with 4,096
 * kernels live (F51, F53, F60).
 *
 * The same epochs run twice, on two fresh devices of the h100 kind, with
 * two hosts of the core:
 *
 * - poll: after every dispatch the host walks all its live kernels asking
 *   vgpu_gpu_kernel_finished(), and maps each event back to its kernel by
 *   its id (a one-entry cache, then a walk of the live kernels), the way a
 *   host without callbacks has to;
 * - callback: the core calls the host's &vgpu_gpu_host_ops: kernel_done
 *   for each kernel that finished, event with the kernel's pointer.
 *
 * Each host keeps 4,096 kernels live: a kernel that finished is submitted
 * again under a new id right after the dispatch, in id order in both, so
 * both runs make the same calls into the core and must end with the same
 * trace hash (checked).  Timed: the controller's share of each epoch
 * (dispatch, the host's completion and event handling, the resubmissions),
 * not the SMs' advance, which is the same for both.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define VGPU_BC_LIVE		4096
#define VGPU_BC_CHANNELS	8
#define VGPU_BC_GRID		4
#define VGPU_BC_ITERS		4

/**
 * struct vgpu_bc_kernel - a kernel of the benchmark's host
 * @k: the core's descriptor
 * @node: link in &vgpu_bc_host.live while submitted and unfinished
 * @blocks: block completions seen in its events
 * @match: LOOP/ENDLOOP links of its program
 */
struct vgpu_bc_kernel {
	struct vgpu_gpu_kernel k;
	struct list_head node;
	u64 blocks;
	u16 match[VGPU_BENCH_LOOP_LEN];
};

/**
 * struct vgpu_bc_host - the benchmark's host of one device
 * @b: the device
 * @kern: its kernels, VGPU_BC_LIVE of them
 * @live: the submitted, unfinished ones, in submission (id) order
 * @done: kernels the callback reported finished since the last dispatch
 * @ndone: entries in @done
 * @last: (poll) the kernel of the previous event, a cache
 * @next_id: id of the next submission
 * @completions: kernels finished in the measured epochs
 * @events: events seen with their kernel
 */
struct vgpu_bc_host {
	struct vgpu_bench_gpu b;
	struct vgpu_bc_kernel *kern;
	struct list_head live;
	struct vgpu_bc_kernel **done;
	u32 ndone;
	struct vgpu_bc_kernel *last;
	u32 next_id;
	u64 completions;
	u64 events;
};

static struct vgpu_insn vgpu_bc_prog[VGPU_BENCH_LOOP_LEN];

/* What both hosts do with an event of kernel @bk (NULL: none of theirs). */
static void vgpu_bc_account(struct vgpu_bc_host *h, struct vgpu_bc_kernel *bk,
			    const struct vgpu_event *ev)
{
	if (!bk)
		return;
	h->events++;
	if (ev->type == VGPU_EV_BLOCK_DONE)
		bk->blocks++;
}

/* poll: the event sink, kernel looked up by id */
static void vgpu_bc_poll_sink(void *cookie, const struct vgpu_event *ev)
{
	struct vgpu_bc_host *h = cookie;
	struct vgpu_bc_kernel *bk;

	if (ev->kernel == VGPU_EV_NONE || ev->kernel >= VGPU_GPU_CHILD_ID0)
		return;
	if (h->last && h->last->k.args.id == ev->kernel) {
		vgpu_bc_account(h, h->last, ev);
		return;
	}
	list_for_each_entry(bk, &h->live, node) {
		if (bk->k.args.id == ev->kernel) {
			h->last = bk;
			vgpu_bc_account(h, bk, ev);
			return;
		}
	}
}

/* callback: &vgpu_gpu_host_ops.kernel_done */
static void vgpu_bc_kernel_done(void *host, struct vgpu_gpu_kernel *k)
{
	struct vgpu_bc_host *h = host;

	h->done[h->ndone++] = container_of(k, struct vgpu_bc_kernel, k);
}

/* callback: &vgpu_gpu_host_ops.event */
static void vgpu_bc_event(void *host, const struct vgpu_event *ev,
			  const struct vgpu_gpu_kernel *k)
{
	struct vgpu_bc_kernel *bk = NULL;

	if (k && !k->child.parent)
		bk = container_of(k, struct vgpu_bc_kernel, k);
	vgpu_bc_account(host, bk, ev);
}

static const struct vgpu_gpu_host_ops vgpu_bc_ops = {
	.kernel_done = vgpu_bc_kernel_done,
	.event = vgpu_bc_event,
};

/* Submit @bk under the next id. */
static int vgpu_bc_submit(struct vgpu_bc_host *h, struct vgpu_bc_kernel *bk)
{
	u32 i = bk - h->kern;

	memset(&bk->k, 0, sizeof(bk->k));
	bk->k.args.id = h->next_id++;
	bk->k.args.channel = i % VGPU_BC_CHANNELS;
	bk->k.args.prio = i % 4;
	bk->k.args.grid = VGPU_BC_GRID;
	bk->k.args.threads = 128;
	bk->k.args.regs = 32;
	bk->k.args.prog = vgpu_bc_prog;
	bk->k.args.n_insns = VGPU_BENCH_LOOP_LEN;
	bk->k.args.match = bk->match;
	bk->k.args.arrival = h->b.g.now;
	bk->k.args.no_affinity = true;
	if (vgpu_gpu_submit(&h->b.g, &bk->k))
		return -1;
	list_add_tail(&bk->node, &h->live);
	return 0;
}

static int vgpu_bc_cmp(const void *a, const void *b)
{
	u32 x = (*(struct vgpu_bc_kernel *const *)a)->k.args.id;
	u32 y = (*(struct vgpu_bc_kernel *const *)b)->k.args.id;

	return x < y ? -1 : x > y;
}

/*
 * After a dispatch: the kernels that finished, taken off the live list and
 * submitted again in id order.  @poll: found by walking every live kernel.
 */
static int vgpu_bc_reap(struct vgpu_bc_host *h, bool poll, bool count)
{
	struct vgpu_bc_kernel *bk, *tmp;
	u32 i;

	if (poll) {
		list_for_each_entry_safe(bk, tmp, &h->live, node)
			if (vgpu_gpu_kernel_finished(&bk->k))
				h->done[h->ndone++] = bk;
	} else if (h->ndone > 1) {
		qsort(h->done, h->ndone, sizeof(*h->done), vgpu_bc_cmp);
	}
	for (i = 0; i < h->ndone; i++) {
		bk = h->done[i];
		list_del(&bk->node);
		if (h->last == bk)
			h->last = NULL;
		if (vgpu_bc_submit(h, bk))
			return -1;
	}
	if (count)
		h->completions += h->ndone;
	h->ndone = 0;
	return 0;
}

/*
 * vgpu_bench_gpu_init() with the default policy, the host's callbacks
 * @ops (or none) given at creation.
 */
static int vgpu_bc_gpu_init(struct vgpu_bc_host *h, u32 num_sms,
			    const struct vgpu_gpu_host_ops *ops)
{
	struct vgpu_bench_gpu *b = &h->b;
	size_t size;

	vgpu_config_preset(&b->cfg, "h100");
	b->cfg.num_sms = num_sms;
	vgpu_gpu_params_default(&b->p, &b->cfg);
	b->p.max_channels = VGPU_BC_CHANNELS;
	vgpu_policy_registry_init(&b->pol);
	size = vgpu_gpu_mem_size(&b->cfg, &b->p);
	b->mem = vgpu_sim_gpu_mem_alloc(size);
	if (!b->mem || vgpu_gpu_init_host(&b->g, b->mem, size, &b->cfg, &b->p,
					  &b->pol, ops, h)) {
		free(b->mem);
		return -1;
	}
	return 0;
}

/*
 * @epochs measured epochs (after @warm) with @num_sms SMs; @ns: the
 * controller's share of each, @hash: the trace hash at the end.
 */
static int vgpu_bc_run(bool poll, u32 num_sms, u32 warm, u32 epochs,
		       double *ns, u64 *hash, u64 *completions, u64 *events)
{
	struct vgpu_bc_host h;
	struct vgpu_gpu *g;
	double t, spent = 0;
	int ret = -1;
	u32 i;

	memset(&h, 0, sizeof(h));
	INIT_LIST_HEAD(&h.live);
	h.kern = calloc(VGPU_BC_LIVE, sizeof(*h.kern));
	h.done = calloc(VGPU_BC_LIVE, sizeof(*h.done));
	if (!h.kern || !h.done)
		goto out_free;
	if (vgpu_bc_gpu_init(&h, num_sms, poll ? NULL : &vgpu_bc_ops))
		goto out_free;
	g = &h.b.g;
	if (poll)
		vgpu_gpu_set_sink(g, vgpu_bc_poll_sink, &h);
	for (i = 0; i < VGPU_BC_CHANNELS; i++)
		vgpu_gpu_channel_add(g, i, i % 4);
	for (i = 0; i < VGPU_BC_LIVE; i++)
		if (vgpu_bc_submit(&h, &h.kern[i]))
			goto out_fini;
	for (i = 0; i < warm + epochs; i++) {
		t = vgpu_bench_now();
		vgpu_gpu_dispatch(g);
		if (vgpu_bc_reap(&h, poll, i >= warm))
			goto out_fini;
		if (i >= warm)
			spent += vgpu_bench_now() - t;
		vgpu_gpu_advance_range(g, 0, num_sms);
	}
	*ns = spent * 1e9 / epochs;
	*hash = vgpu_gpu_trace_hash(g);
	*completions = h.completions;
	*events = h.events;
	ret = 0;
out_fini:
	vgpu_bench_gpu_fini(&h.b);
out_free:
	free(h.done);
	free(h.kern);
	return ret;
}

static int vgpu_bench_completion(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "epochs", required_argument, NULL, 'e' },
		{ "sms", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vgpu_sim_getopt go = { .cmd = &vgpu_sim_bench_completion,
				      .opts = opts, .bench = true,
				      .no_args = true };
	u64 hp, hc, cp, cc, ep, ec;
	uint32_t epochs = 2000, sms = 132;
	double np, nc;
	int c;

	while ((c = vgpu_sim_getopt(&go, argc, argv)) > 0) {
		switch (c) {
		case 'e':
			if (!vgpu_sim_parse_u32(optarg, &epochs) || !epochs)
				return vgpu_sim_usage_error("bench completion",
					"--epochs takes 1 or more");
			break;
		case 's':
			if (!vgpu_sim_parse_u32(optarg, &sms) || !sms ||
			    sms > VGPU_MAX_SMS)
				return vgpu_sim_usage_error("bench completion",
					"--sms takes 1..%u", VGPU_MAX_SMS);
			break;
		}
	}
	if (!c)
		return go.status;
	vgpu_bench_loop_prog(vgpu_bc_prog, VGPU_BC_ITERS);
	if (vgpu_bc_run(true, sms, 100, epochs, &np, &hp, &cp, &ep) ||
	    vgpu_bc_run(false, sms, 100, epochs, &nc, &hc, &cc, &ec)) {
		fprintf(stderr, "vgpu-sim bench completion: setup failed\n");
		return 1;
	}
	printf("preset=h100 sms=%u live=%u epochs=%u\n", sms, VGPU_BC_LIVE,
	       epochs);
	printf("poll ns_per_epoch=%.0f completions=%llu events=%llu trace_hash=0x%016llx\n",
	       np, (unsigned long long)cp, (unsigned long long)ep,
	       (unsigned long long)hp);
	printf("callback ns_per_epoch=%.0f completions=%llu events=%llu trace_hash=0x%016llx\n",
	       nc, (unsigned long long)cc, (unsigned long long)ec,
	       (unsigned long long)hc);
	if (hp != hc || cp != cc || ep != ec) {
		fprintf(stderr, "vgpu-sim bench completion: the two hosts disagree\n");
		return 1;
	}
	printf("poll/callback = %.2f\n", np / nc);
	return 0;
}

const struct vgpul_cli_cmd vgpu_sim_bench_completion = {
	.name = "completion",
	.summary = "epochs with 4,096 live kernels: polling host against host callbacks",
	.usage = "[--epochs N] [--sms N]",
	.run = vgpu_bench_completion,
};
