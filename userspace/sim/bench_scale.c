// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-sim bench scale: how the simulator scales (F50, F51).
 *
 * 1. The cost curve, one thread: devices of the h100 kind with 4, 132,
 *    1024 and 4096 SMs run one kernel of 10 k, 100 k and 1 M short blocks (one
 *    warp, "MOV / ALU / ALU / EXIT", the shape of replayed inference
 *    kernels) to the end: wall time per block (dispatch, advance and
 *    collection, everything but setup) and time in vgpu_gpu_dispatch() per
 *    dispatch decision.  Each case runs three times on a fresh device and
 *    the run with the median cost per block is kept: a 10 k-block case
 *    lasts about two milliseconds, and one slow spell of the host would
 *    otherwise decide the ratio.  One "cost" line per case, for gnuplot
 *    (scripts/plot-scale.gp), then the largest over the smallest cost per
 *    block.
 * 2. Across cores: the h100 preset (132 SMs) and a 1024-SM device run
 *    ALU-heavy blocks (8 warps, "LOOP n / 15 x ALU / BRA / ENDLOOP /
 *    EXIT") with the SMs of each epoch advanced by 1 and by 2 threads
 *    (userspace/sim/epoch.c), three times each, alternately; the speed-up
 *    is the ratio of the fastest wall times, and every run must end with
 *    the same trace hash (F51), or the benchmark fails.
 *
 * Figures are recorded in Documentation/performance.rst; --quick makes
 * every case 100 times smaller (the format test of make check).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "run.h"

#define VGPU_BS_REPEAT		3	/* runs per thread count, the fastest counts */

/**
 * struct vgpu_bs_result - what one run measured
 * @seconds: wall time from the first dispatch to idle
 * @dispatch: of which in vgpu_gpu_dispatch()
 * @decisions: dispatch decisions
 * @blocks: blocks completed
 * @hash: trace hash at the end
 */
struct vgpu_bs_result {
	double seconds;
	double dispatch;
	u64 decisions;
	u64 blocks;
	u64 hash;
};

/* Runs of each cost case; the median one is reported (--quick: one). */
#define VGPU_BS_COST_RUNS	3

/*
 * Run one kernel of @grid blocks of @prog on @num_sms SMs of the h100 kind
 * to the end, the SMs of each epoch advanced by @threads threads.
 */
static int vgpu_bs_run(u32 num_sms, u32 threads, const struct vgpu_insn *prog,
		       u32 n_insns, u32 grid, u32 block_threads,
		       struct vgpu_bs_result *res)
{
	struct vgpu_sim_team *team = NULL;
	struct vgpu_gpu_kernel k;
	struct vgpu_bench_gpu b;
	struct vgpu_gpu *g = &b.g;
	double t0, t;
	u16 *match;
	int ret = -1;

	if (vgpu_bench_gpu_init(&b, num_sms, 1, NULL))
		return -1;
	match = calloc(n_insns, sizeof(*match));
	if (!match) {
		vgpu_bench_gpu_fini(&b);
		return -1;
	}
	memset(&k, 0, sizeof(k));
	k.args.grid = grid;
	k.args.threads = block_threads;
	k.args.regs = 32;
	k.args.prog = prog;
	k.args.n_insns = n_insns;
	k.args.match = match;
	vgpu_gpu_channel_add(g, 0, 0);
	if (vgpu_gpu_submit(g, &k) || vgpu_sim_team_start(&team, g, threads))
		goto out;
	res->dispatch = 0;
	t0 = vgpu_bench_now();
	for (;;) {
		t = vgpu_bench_now();
		vgpu_gpu_dispatch(g);
		res->dispatch += vgpu_bench_now() - t;
		if (vgpu_gpu_idle(g))
			break;
		vgpu_sim_team_advance(team, g);
	}
	res->seconds = vgpu_bench_now() - t0;
	res->decisions = g->stats.decisions;
	res->blocks = k.done_units;
	res->hash = vgpu_gpu_trace_hash(g);
	ret = k.state == VGPU_KS_DONE && res->blocks == grid ? 0 : -1;
out:
	vgpu_sim_team_stop(team);
	vgpu_bench_gpu_fini(&b);
	free(match);
	return ret;
}

/* The speed-up of 2 threads over 1 on @num_sms SMs; 0 on failure. */
static double vgpu_bs_speedup(const char *name, u32 num_sms, u32 iters,
			      u32 waves)
{
	struct vgpu_insn prog[VGPU_BENCH_LOOP_LEN];
	struct vgpu_bs_result r[2], one;
	u32 n = vgpu_bench_loop_prog(prog, iters), t, k;

	/*
	 * 1, 2, 1, 2, 1, 2 threads: the fastest of each count, so that a
	 * spell of load from elsewhere hits both alike and is left out
	 */
	for (k = 0; k < 2 * VGPU_BS_REPEAT; k++) {
		t = k % 2;
		/* 8 blocks of 8 warps fill an SM of the h100 kind */
		if (vgpu_bs_run(num_sms, t + 1, prog, n, num_sms * 8 * waves,
				256, &one)) {
			fprintf(stderr, "vgpu-sim bench scale: %s run failed\n",
				name);
			return 0;
		}
		/* the dispatch is serial: 1 / (s + (1 - s) / 2) bounds 2/1 */
		printf("parallel %s sms=%u threads=%u blocks=%" PRIu64 " seconds=%.3f dispatch_share=%.3f trace_hash=0x%016" PRIx64 "\n",
		       name, num_sms, t + 1, one.blocks, one.seconds,
		       one.dispatch / one.seconds, one.hash);
		if (k < 2 || one.seconds < r[t].seconds)
			r[t] = one;
		if (one.hash != r[0].hash) {
			fprintf(stderr, "vgpu-sim bench scale: %s: trace hash depends on the threads\n",
				name);
			return 0;
		}
	}
	return r[0].seconds / r[1].seconds;
}

/*
 * Cost case @num_sms x @grid, @runs times on a fresh device each: the run
 * with the median wall time per block goes to @res.
 */
static int vgpu_bs_cost(u32 num_sms, u32 grid, u32 runs,
			struct vgpu_bs_result *res)
{
	struct vgpu_bs_result r[VGPU_BS_COST_RUNS], t;
	u32 i, j;

	for (i = 0; i < runs; i++) {
		if (vgpu_bs_run(num_sms, 1, vgpu_bench_short_prog,
				VGPU_BENCH_SHORT_LEN, grid, 32, &r[i]))
			return -1;
		/* insertion by time per block (same block count each run) */
		for (j = i; j > 0 && r[j].seconds < r[j - 1].seconds; j--) {
			t = r[j];
			r[j] = r[j - 1];
			r[j - 1] = t;
		}
	}
	*res = r[runs / 2];
	return 0;
}

static int vgpu_bench_scale(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "quick", no_argument, NULL, 'q' },
		{ "sms", required_argument, NULL, 's' },
		{ "blocks", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const u32 sms[] = { 4, 132, 1024, 4096 };
	static const u32 blocks[] = { 10000, 100000, 1000000 };
	double lo = 0, hi = 0, ns, h100, big;
	struct vgpu_bs_result r;
	u32 div = 1, iters = 100, runs = VGPU_BS_COST_RUNS, i, j;
	u32 only_sms = 0, only_blocks = 0;
	struct vgpu_sim_getopt g = { .cmd = &vgpu_sim_bench_scale,
				     .opts = opts, .bench = true,
				     .no_args = true };
	int c;

	while ((c = vgpu_sim_getopt(&g, argc, argv)) > 0) {
		switch (c) {
		case 'q':
			div = 100;
			iters = 2;
			runs = 1;
			break;
		case 's':
			if (!vgpul_cli_u32(optarg, &only_sms) || !only_sms ||
			    only_sms > VGPU_MAX_SMS)
				return vgpu_sim_usage_error("bench scale",
					"--sms takes 1..%u", VGPU_MAX_SMS);
			break;
		case 'b':
			if (!vgpul_cli_u32(optarg, &only_blocks) ||
			    !only_blocks)
				return vgpu_sim_usage_error("bench scale",
							    "bad --blocks");
			break;
		}
	}
	if (!c)
		return g.status;
	if (!only_sms != !only_blocks)
		return vgpu_sim_usage_error("bench scale",
					    "--sms and --blocks go together");

	printf("cost: h100 kind, one kernel of one-warp blocks (MOV ALU ALU EXIT), 1 thread\n");
	if (only_sms || only_blocks) {
		/* one case, for a profiler */
		if (vgpu_bs_run(only_sms, 1, vgpu_bench_short_prog,
				VGPU_BENCH_SHORT_LEN, only_blocks, 32, &r))
			return 1;
		printf("cost sms=%u blocks=%" PRIu64 " ns_per_block=%.1f ns_per_decision=%.1f decisions=%" PRIu64 "\n",
		       only_sms, r.blocks, r.seconds * 1e9 / r.blocks,
		       r.dispatch * 1e9 / r.decisions, r.decisions);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(sms); i++) {
		for (j = 0; j < ARRAY_SIZE(blocks); j++) {
			if (vgpu_bs_cost(sms[i], blocks[j] / div, runs, &r)) {
				fprintf(stderr, "vgpu-sim bench scale: cost run failed\n");
				return 1;
			}
			ns = r.seconds * 1e9 / r.blocks;
			lo = lo && lo < ns ? lo : ns;
			hi = hi > ns ? hi : ns;
			printf("cost sms=%u blocks=%" PRIu64 " ns_per_block=%.1f ns_per_decision=%.1f decisions=%" PRIu64 "\n",
			       sms[i], r.blocks, ns,
			       r.dispatch * 1e9 / r.decisions, r.decisions);
		}
	}
	printf("cost per block largest/smallest = %.2f\n", hi / lo);
	h100 = vgpu_bs_speedup("h100", 132, iters, 2);
	big = vgpu_bs_speedup("1024sm", 1024, iters, 1);
	if (!h100 || !big)
		return 1;
	printf("speedup h100 2/1 threads = %.2f\n", h100);
	printf("speedup 1024sm 2/1 threads = %.2f\n", big);
	return 0;
}

const struct vgpul_cli_cmd vgpu_sim_bench_scale = {
	.name = "scale",
	.summary = "cost per block and decision by SMs and blocks; speed-up of 2 threads over 1",
	.usage = "[--quick] [--sms N --blocks N]\n"
		 "  --quick  every case 100 times smaller (format test)\n"
		 "  --sms N --blocks N  that cost case only (for a profiler)\n"
		 "Prints 'cost sms=S blocks=B ns_per_block=X ns_per_decision=Y ...'\n"
		 "for S = 4, 132, 1024, 4096 and B = 10k, 100k, 1M (the median of\n"
		 "three runs each), then\n"
		 "'cost per block largest/smallest = X', one 'parallel ...'\n"
		 "line per run (three per thread count) and last\n"
		 "'speedup h100 2/1 threads = X' and\n"
		 "'speedup 1024sm 2/1 threads = X'.",
	.run = vgpu_bench_scale,
};
