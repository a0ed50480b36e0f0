// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-sim exec: run one kernel on one SM (F30, F33-F35, F51).
 *
 * Blocks are handed to the SM in index order, as many as fit at once;
 * each time one completes, the next ones are added (whole-block placement
 * by default).  Prints "cycles=<n> warps=<n> trace_hash=0x<16 hex>".
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "config.h"
#include "sm.h"
#include <vgpu/vasm.h>

/**
 * struct vgpu_sim_exec_opts - options of vgpu-sim exec
 * @preset: configuration preset
 * @blocks: grid size
 * @threads: threads per block
 * @regs: registers per thread
 * @smem: shared memory per block in bytes
 * @prio: kernel priority
 * @prio_wid_mod: per-warp priority modulus (0: off)
 * @hold_max: F35 hold_max (0: default)
 * @max_cycles: give up (and cancel the kernel) after this many cycles
 * @warp_mode: place blocks warp by warp (F23 b) instead of whole
 * @trace: trace output path or NULL
 */
struct vgpu_sim_exec_opts {
	const char *preset;
	uint32_t blocks;
	uint32_t threads;
	uint32_t regs;
	uint32_t smem;
	uint32_t prio;
	uint32_t prio_wid_mod;
	uint32_t hold_max;
	uint64_t max_cycles;
	bool warp_mode;
	const char *trace;
};

static void vgpu_sim_exec_trace(void *cookie, const struct vgpu_event *ev)
{
	FILE *f = cookie;

	fprintf(f, "%" PRIu64 " %s kernel=%d block=%d warp=%d sm=%u %u %u\n",
		(uint64_t)ev->cycle, vgpu_event_name(ev->type), (int)ev->kernel,
		(int)ev->block, (int)ev->warp, ev->sm, ev->arg0, ev->arg1);
}

static int vgpu_sim_exec_run(const char *path, struct vgpu_sim_exec_opts *o)
{
	struct vgpu_vasm_prog prog = { 0 };
	struct vgpu_isa_timing timing;
	struct vgpu_worker_pool pool;
	struct vgpu_kernel_desc k;
	struct vgpu_config cfg;
	struct vgpu_warp *warps = NULL;
	struct vgpu_sm *sm = NULL;
	uint16_t *match = NULL;
	FILE *tf = NULL;
	uint32_t next = 0, i;
	uint64_t cycles;
	char err[512];
	int ret, rc = 1;

	if (vgpu_config_preset(&cfg, o->preset))
		return vgpu_sim_usage_error("exec", "unknown preset '%s'",
					    o->preset);
	if (vgpul_vasm_assemble_file(path, 0, &prog, err, sizeof(err))) {
		fprintf(stderr, "vgpu-sim exec: %s\n", err);
		return 1;
	}
	k = (struct vgpu_kernel_desc){
		.id = 1,
		.prio = o->prio,
		.grid = o->blocks,
		.threads = o->threads,
		.regs_per_thread = o->regs,
		.smem_bytes = o->smem,
		.prio_wid_mod = o->prio_wid_mod,
	};
	match = calloc(prog.n, sizeof(*match));
	warps = calloc(cfg.max_warps_per_sm, sizeof(*warps));
	sm = vgpu_sim_sm_alloc();
	if (!match || !warps || !sm) {
		fprintf(stderr, "vgpu-sim exec: out of memory\n");
		goto out;
	}
	ret = vgpu_kernel_desc_init(&k, &cfg, prog.insns, prog.n, match);
	for (i = 0; ret && i < prog.n; i++)
		if (vgpu_isa_is_functional(prog.insns[i].op))
			break;
	if (ret && i < prog.n) {
		fprintf(stderr, "vgpu-sim exec: %s: a functional program computes on buffers: run it from a workload that names them (vgpu-sim run, Documentation/workloads.rst, \"Buffers\")\n",
			path);
		goto out;
	}
	if (ret) {
		fprintf(stderr, "vgpu-sim exec: the kernel cannot run on preset %s (%s)\n",
			cfg.name, ret == -E2BIG ? "block too large" :
			"invalid program or launch");
		goto out;
	}
	vgpu_isa_timing_default(&timing);
	if (o->hold_max)
		timing.hold_max = o->hold_max;
	vgpu_worker_pool_init(&pool, warps, cfg.max_warps_per_sm);
	if (vgpu_sm_init(sm, &cfg, &timing, &pool, 0)) {
		fprintf(stderr, "vgpu-sim exec: bad timing table\n");
		goto out;
	}
	if (o->trace) {
		tf = fopen(o->trace, "w");
		if (!tf) {
			perror(o->trace);
			goto out;
		}
		vgpu_sm_set_trace(sm, vgpu_sim_exec_trace, tf);
	}
	for (;;) {
		while (next < k.grid &&
		       !vgpu_sm_block_add(sm, &k, next, k.prio,
					  o->warp_mode ? VGPU_PLACE_WARP :
					  VGPU_PLACE_BLOCK))
			next++;
		if (vgpu_sm_idle(sm)) {
			if (next < k.grid) {
				fprintf(stderr, "vgpu-sim exec: a block does not fit an empty SM\n");
				goto out;
			}
			break;
		}
		if (sm->now >= o->max_cycles) {
			vgpu_sm_cancel_kernel(sm, k.id);
			break;
		}
		vgpu_sm_run(sm, o->max_cycles - sm->now, VGPU_SM_RUN_STOP_BLOCK);
	}
	cycles = next == k.grid && sm->stats.blocks_done == k.grid ?
		 sm->stats.last_done + 1 : sm->now;
	printf("cycles=%" PRIu64 " warps=%" PRIu64 " trace_hash=0x%016" PRIx64 "\n",
	       cycles, (uint64_t)sm->stats.warps_done, (uint64_t)sm->hash);
	rc = 0;
out:
	if (sm && sm->pool)
		vgpu_sm_fini(sm);
	if (tf && fclose(tf))
		rc = 1;
	free(sm);
	free(warps);
	free(match);
	vgpul_vasm_free(&prog);
	return rc;
}

static int vgpu_sim_exec(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "preset", required_argument, NULL, 'p' },
		{ "blocks", required_argument, NULL, 'b' },
		{ "threads", required_argument, NULL, 't' },
		{ "regs", required_argument, NULL, 'r' },
		{ "smem", required_argument, NULL, 's' },
		{ "prio", required_argument, NULL, 'P' },
		{ "prio-wid-mod", required_argument, NULL, 'W' },
		{ "hold-max", required_argument, NULL, 'H' },
		{ "max-cycles", required_argument, NULL, 'M' },
		{ "warp-mode", no_argument, NULL, 'w' },
		{ "trace", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vgpu_sim_exec_opts o = {
		.preset = "small", .blocks = 1, .threads = 128, .regs = 32,
		.max_cycles = 1000000000ULL,
	};
	struct vgpu_sim_getopt g = { .cmd = &vgpu_sim_cmd_exec, .opts = opts,
				     .bad = "bad option or number" };
	uint32_t v;
	int c;

	while ((c = vgpu_sim_getopt(&g, argc, argv)) > 0) {
		if (c == 'p') {
			o.preset = optarg;
			continue;
		}
		if (c == 'T') {
			o.trace = optarg;
			continue;
		}
		if (c == 'w') {
			o.warp_mode = true;
			continue;
		}
		if (!vgpul_cli_u32(optarg, &v))
			return vgpu_sim_usage_error("exec", "bad option or number");
		switch (c) {
		case 'b': o.blocks = v; break;
		case 't': o.threads = v; break;
		case 'r': o.regs = v; break;
		case 's': o.smem = v; break;
		case 'P': o.prio = v; break;
		case 'W': o.prio_wid_mod = v; break;
		case 'H': o.hold_max = v; break;
		case 'M': o.max_cycles = v; break;
		}
	}
	if (!c)
		return g.status;
	if (optind != argc - 1)
		return vgpu_sim_usage_error("exec", "expected one FILE.vasm");
	if (!o.blocks || !o.threads || o.prio >= VGPU_MAX_PRIOS)
		return vgpu_sim_usage_error("exec", "--blocks and --threads must be >= 1, --prio < %d",
					    VGPU_MAX_PRIOS);
	return vgpu_sim_exec_run(argv[optind], &o);
}

const struct vgpul_cli_cmd vgpu_sim_cmd_exec = {
	.name = "exec",
	.summary = "run one kernel (.vasm) on one SM, print cycles and trace hash",
	.usage = "FILE.vasm [--preset P] [--blocks N] [--threads T] [--regs R]\n"
		 "    [--smem BYTES] [--prio P] [--prio-wid-mod K] [--hold-max N]\n"
		 "    [--max-cycles N] [--warp-mode] [--trace OUT]\n"
		 "  --preset P        small (default), a100 or h100\n"
		 "  --blocks N        grid size (default 1); blocks go to the SM\n"
		 "                    in order, as many at a time as fit\n"
		 "  --threads T       threads per block (default 128)\n"
		 "  --regs R          registers per thread (default 32)\n"
		 "  --smem BYTES      shared memory per block (default 0)\n"
		 "  --prio P          kernel priority, 0 highest (default 0)\n"
		 "  --prio-wid-mod K  warp w competes for locks with prio + w % K\n"
		 "  --hold-max N      instructions a warp may execute holding locks\n"
		 "                    before it must release them (default 64)\n"
		 "  --max-cycles N    cancel the kernel after N cycles (SPIN)\n"
		 "  --warp-mode       place blocks warp by warp, each warp starting\n"
		 "                    as its resources free\n"
		 "  --trace OUT       write every event as text to OUT\n"
		 "Output: cycles=<n> warps=<n> trace_hash=0x<16 hex digits>",
	.run = vgpu_sim_exec,
};
