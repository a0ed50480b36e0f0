// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-sim bench exec: simulated warp-instructions per second of the SM
 * engine on one core (F51; target >= 100 M/s on ALU-heavy loops).
 *
 * One SM of the chosen preset runs blocks of an ALU-heavy loop,
 * "LOOP n / 15 x ALU / BRA / ENDLOOP / EXIT", with the SM full (as many
 * whole blocks as fit, refilled as they complete).  Then short blocks, the
 * shape of replayed inference kernels: one warp, "MOV / ALU / ALU / EXIT",
 * as many resident as fit, refilled as they complete: warp-instructions/s
 * and blocks/s.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/*
 * Run @blocks blocks of @k on a fresh @sm, keeping it full; returns the
 * wall time.
 */
static double vgpu_bench_exec_fill(struct vgpu_sm *sm,
				   const struct vgpu_config *cfg,
				   const struct vgpu_isa_timing *timing,
				   struct vgpu_worker_pool *pool,
				   const struct vgpu_kernel_desc *k,
				   uint32_t blocks, u8 *win)
{
	uint32_t next = 0;
	double t0;

	vgpu_worker_pool_init(pool, pool->warps, cfg->max_warps_per_sm);
	vgpu_sm_init(sm, cfg, timing, pool, 0);
	vgpu_sm_set_window(sm, win);	/* F25: as on a device */
	t0 = vgpu_bench_now();
	for (;;) {
		while (next < blocks &&
		       !vgpu_sm_block_add(sm, k, next, 0, VGPU_PLACE_BLOCK))
			next++;
		if (vgpu_sm_idle(sm))
			break;
		vgpu_sm_run(sm, ~0ULL >> 1, VGPU_SM_RUN_STOP_BLOCK);
	}
	return vgpu_bench_now() - t0;
}

static int vgpu_bench_exec(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "preset", required_argument, NULL, 'p' },
		{ "iters", required_argument, NULL, 'i' },
		{ "blocks", required_argument, NULL, 'b' },
		{ "short-blocks", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vgpu_insn prog[VGPU_BENCH_LOOP_LEN];
	u16 match[VGPU_BENCH_LOOP_LEN], smatch[VGPU_BENCH_SHORT_LEN];
	uint32_t iters = 20000, blocks = 64, nshort = 1000000, n;
	struct vgpu_kernel_desc ks;
	double sdt;
	u64 sissued;
	const char *preset = "a100";
	struct vgpu_isa_timing timing;
	struct vgpu_worker_pool pool;
	struct vgpu_kernel_desc k;
	struct vgpu_config cfg;
	struct vgpu_warp *warps;
	struct vgpu_sm *sm;
	u8 *win;
	struct vgpu_sim_getopt g = { .cmd = &vgpu_sim_bench_exec,
				     .opts = opts, .bench = true,
				     .bad = "bad option" };
	double dt;
	int c;

	while ((c = vgpu_sim_getopt(&g, argc, argv)) > 0) {
		switch (c) {
		case 'p':
			preset = optarg;
			break;
		case 'i':
			if (!vgpul_cli_u32(optarg, &iters) || !iters ||
			    iters > VGPU_ISA_MAX_LOOP_COUNT)
				return vgpu_sim_usage_error("bench exec",
							    "--iters 1..65535");
			break;
		case 'b':
			if (!vgpul_cli_u32(optarg, &blocks) || !blocks)
				return vgpu_sim_usage_error("bench exec",
							    "bad --blocks");
			break;
		case 's':
			if (!vgpul_cli_u32(optarg, &nshort) || !nshort)
				return vgpu_sim_usage_error("bench exec",
							    "bad --short-blocks");
			break;
		}
	}
	if (!c)
		return g.status;
	if (vgpu_config_preset(&cfg, preset))
		return vgpu_sim_usage_error("bench exec", "unknown preset '%s'",
					    preset);
	n = vgpu_bench_loop_prog(prog, iters);
	memset(&k, 0, sizeof(k));
	k.id = 1;
	k.grid = blocks;
	k.threads = 256;
	k.regs_per_thread = 32;
	memset(&ks, 0, sizeof(ks));
	ks.id = 2;
	ks.grid = nshort;
	ks.threads = 32;
	ks.regs_per_thread = 32;
	if (vgpu_kernel_desc_init(&k, &cfg, prog, n, match) ||
	    vgpu_kernel_desc_init(&ks, &cfg, vgpu_bench_short_prog,
				  VGPU_BENCH_SHORT_LEN, smatch)) {
		fprintf(stderr, "vgpu-sim bench exec: probe kernel rejected\n");
		return 1;
	}
	vgpu_isa_timing_default(&timing);
	warps = calloc(cfg.max_warps_per_sm, sizeof(*warps));
	sm = vgpu_sim_sm_alloc();
	win = malloc(vgpu_sm_window_bytes(&cfg, &timing));
	if (!warps || !sm || !win) {
		fprintf(stderr, "vgpu-sim bench exec: out of memory\n");
		return 1;
	}
	pool.warps = warps;
	sdt = vgpu_bench_exec_fill(sm, &cfg, &timing, &pool, &ks, nshort,
				   win);
	sissued = sm->stats.issued;
	vgpu_sm_fini(sm);
	dt = vgpu_bench_exec_fill(sm, &cfg, &timing, &pool, &k, blocks, win);
	printf("preset %s, 1 SM, %u blocks x %u warps, %u iterations of %u instructions\n",
	       cfg.name, blocks, k.shape.warps, iters, VGPU_BENCH_LOOP_BODY + 1);
	printf("warp-instructions %" PRIu64 " in %" PRIu64 " cycles (%.3f per cycle)\n",
	       (uint64_t)sm->stats.issued, (uint64_t)sm->stats.last_done + 1,
	       (double)sm->stats.issued / (sm->stats.last_done + 1));
	printf("short blocks: %u of 1 warp, MOV ALU ALU EXIT, as many resident as fit\n",
	       nshort);
	printf("short M warp-instructions/s = %.1f\n",
	       sdt > 0 ? sissued / sdt / 1e6 : 0.0);
	printf("short blocks/s = %.0f\n", sdt > 0 ? nshort / sdt : 0.0);
	printf("M warp-instructions/s = %.1f\n",
	       dt > 0 ? sm->stats.issued / dt / 1e6 : 0.0);
	vgpu_sm_fini(sm);
	free(win);
	free(sm);
	free(warps);
	return 0;
}

const struct vgpul_cli_cmd vgpu_sim_bench_exec = {
	.name = "exec",
	.summary = "SM engine: simulated warp-instructions per second, one core",
	.usage = "[--preset P] [--iters N] [--blocks N]\n"
		 "  --preset P  configuration (default a100)\n"
		 "  --iters N   loop iterations per warp, 1..65535 (default 20000)\n"
		 "  --blocks N  blocks of 256 threads (default 64)\n"
		 "  --short-blocks N  one-warp blocks of 4 instructions (default 1000000)\n"
		 "Prints 'short M warp-instructions/s = X', 'short blocks/s = X' and\n"
		 "last 'M warp-instructions/s = X' (the ALU loop).",
	.run = vgpu_bench_exec,
};
