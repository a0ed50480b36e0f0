// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-sim bench dispatch: global dispatch decisions per second of the
 * controller (F20-F25).  Targets (Documentation/performance.rst):
 * >= 5 M/s on one core for the h100 preset with 8 channels and 4
 * priorities, and a cost ratio <= 4 between 1024 and 128 SMs; >= 2 M/s
 * for every built-in SM choice and shipped policy (--policy), whose rate
 * against rr's, measured alternately in the same run, it also prints.
 *
 * Eight channels, priorities 0-3 twice, each with a kernel of a huge grid
 * of blocks running "EXIT", launch quota 1 (a decision is one block); by
 * default whole-SM blocks (1024 threads, 64 registers: one block fills an
 * SM), --threads N for smaller ones.  Every epoch all blocks complete, so
 * every boundary re-dispatches: only vgpu_gpu_dispatch() is timed
 * (collect, admission, rounds); SM advancement is not.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define VGPU_BD_CHANNELS	8

/* Decisions per second with @num_sms SMs of the h100 kind. */
static int vgpu_bd_run(u32 num_sms, u32 threads, double seconds,
		       const char *policy, double *rate, double *ns_per)
{
	static const struct vgpu_insn prog[] = { { .op = VGPU_OP_EXIT } };
	struct vgpu_gpu_kernel k[VGPU_BD_CHANNELS];
	u16 match[VGPU_BD_CHANNELS][1];
	struct vgpu_bench_gpu b;
	struct vgpu_gpu *g = &b.g;
	double t, spent = 0;
	u64 d0;
	u32 i;

	if (vgpu_bench_gpu_init(&b, num_sms, VGPU_BD_CHANNELS, policy))
		return -1;
	memset(k, 0, sizeof(k));
	for (i = 0; i < VGPU_BD_CHANNELS; i++) {
		vgpu_gpu_channel_add(g, i, i % 4);
		k[i].args.id = i;
		k[i].args.channel = i;
		k[i].args.prio = i % 4;
		k[i].args.grid = 1U << 24;
		k[i].args.threads = threads;
		k[i].args.regs = 64;
		/* one block per decision however many fit */
		k[i].args.quota = 1;
		k[i].args.prog = prog;
		k[i].args.n_insns = 1;
		k[i].args.match = match[i];
		if (vgpu_gpu_submit(g, &k[i])) {
			vgpu_bench_gpu_fini(&b);
			return -1;
		}
	}
	/* warm up: admission, first fill */
	vgpu_gpu_dispatch(g);
	vgpu_gpu_advance_range(g, 0, num_sms);
	d0 = g->stats.decisions;
	while (spent < seconds) {
		t = vgpu_bench_now();
		vgpu_gpu_dispatch(g);
		spent += vgpu_bench_now() - t;
		vgpu_gpu_advance_range(g, 0, num_sms);
	}
	*rate = (g->stats.decisions - d0) / spent;
	*ns_per = spent * 1e9 / (g->stats.decisions - d0);
	for (i = 0; i < VGPU_BD_CHANNELS; i++)
		vgpu_gpu_cancel(g, &k[i]);
	vgpu_bench_gpu_fini(&b);
	return 0;
}

/*
 * A policy's speed against the default's on the same machine and load:
 * VGPU_BD_ALTERNATE runs of each on 132 SMs, alternately, a fifth of
 * @seconds each; the best rate of each and their ratio.
 */
#define VGPU_BD_ALTERNATE	5

static int vgpu_bd_vs_rr(u32 threads, double seconds, const char *policy)
{
	double r, n, best = 0, best_rr = 0;
	u32 i;

	for (i = 0; i < VGPU_BD_ALTERNATE; i++) {
		if (vgpu_bd_run(132, threads, seconds / VGPU_BD_ALTERNATE,
				policy, &r, &n))
			return 1;
		best = r > best ? r : best;
		if (vgpu_bd_run(132, threads, seconds / VGPU_BD_ALTERNATE,
				"rr", &r, &n))
			return 1;
		best_rr = r > best_rr ? r : best_rr;
	}
	printf("best_decisions_per_sec=%.0f rr_best_decisions_per_sec=%.0f ratio_vs_rr=%.3f\n",
	       best, best_rr, best / best_rr);
	return 0;
}

static int vgpu_bench_dispatch(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "threads", required_argument, NULL, 't' },
		{ "policy", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	double seconds = 1.0, r132, r128, r1024, n132, n128, n1024;
	uint32_t ms, threads = 1024;
	const char *policy = "rr", *name;
	struct list_head reg;
	struct vgpu_sim_getopt g = { .cmd = &vgpu_sim_bench_dispatch,
				     .opts = opts, .bench = true,
				     .no_args = true };
	char err[512];
	int c;

	while ((c = vgpu_sim_getopt(&g, argc, argv)) > 0) {
		switch (c) {
		case 's':
			if (!vgpul_cli_u32(optarg, &ms) || !ms)
				return vgpu_sim_usage_error("bench dispatch",
					"--seconds takes milliseconds >= 1");
			seconds = ms / 1000.0;
			break;
		case 'p':
			policy = optarg;
			break;
		case 't':
			if (!vgpul_cli_u32(optarg, &threads) ||
			    !threads || threads > 1024)
				return vgpu_sim_usage_error("bench dispatch",
					"--threads takes 1..1024");
			break;
		}
	}
	if (!c)
		return g.status;
	/* a usage error for a policy that does not load */
	vgpu_policy_registry_init(&reg);
	name = vgpu_sim_policy_resolve(&reg, policy, err,
				       sizeof(err));
	if (!name)
		return vgpu_sim_usage_error("bench dispatch", "%s", err);
	if (vgpu_bd_run(132, threads, seconds, policy, &r132, &n132) ||
	    vgpu_bd_run(128, threads, seconds, policy, &r128, &n128) ||
	    vgpu_bd_run(1024, threads, seconds, policy, &r1024, &n1024)) {
		fprintf(stderr, "vgpu-sim bench dispatch: setup failed\n");
		return 1;
	}
	printf("preset=h100 channels=8 prios=4 policy=%s threads=%u\n", name,
	       threads);
	printf("decisions_per_sec=%.0f ns_per_decision=%.1f\n", r132, n132);
	printf("sms=128 ns_per_decision=%.1f\n", n128);
	printf("sms=1024 ns_per_decision=%.1f\n", n1024);
	printf("cost_ratio_1024_vs_128=%.2f\n", n1024 / n128);
	if (strcmp(name, "rr") && vgpu_bd_vs_rr(threads, seconds, policy)) {
		fprintf(stderr, "vgpu-sim bench dispatch: setup failed\n");
		return 1;
	}
	return 0;
}

const struct vgpul_cli_cmd vgpu_sim_bench_dispatch = {
	.name = "dispatch",
	.summary = "global dispatch decisions per second (h100, 8 channels, 4 priorities)",
	.usage = "[--seconds MS] [--threads N] [--policy NAME|FILE.so]\n"
		 "  a policy other than rr is also run alternately with rr: the best of\n"
		 "  each and their ratio (ratio_vs_rr)",
	.run = vgpu_bench_dispatch,
};
