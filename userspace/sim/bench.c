// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-sim bench <what>: dispatches on the second word (sim.h
 * VGPU_SIM_BENCHES); each benchmark lives in its own file.  What they
 * share (bench.h) is here too.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

const struct vgpu_insn vgpu_bench_short_prog[VGPU_BENCH_SHORT_LEN] = {
	{ .op = VGPU_OP_MOV }, { .op = VGPU_OP_ALU },
	{ .op = VGPU_OP_ALU }, { .op = VGPU_OP_EXIT },
};

double vgpu_bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

u32 vgpu_bench_loop_prog(struct vgpu_insn *prog, u32 iters)
{
	u32 n = 0, i;

	memset(prog, 0, VGPU_BENCH_LOOP_LEN * sizeof(*prog));
	prog[n].op = VGPU_OP_LOOP;
	prog[n++].imm = VGPU_LOOP_IMM(iters, 0);
	for (i = 0; i < VGPU_BENCH_LOOP_BODY - 1; i++)
		prog[n++].op = VGPU_OP_ALU;
	prog[n++].op = VGPU_OP_BRA;
	prog[n++].op = VGPU_OP_ENDLOOP;
	prog[n++].op = VGPU_OP_EXIT;
	return n;
}

int vgpu_bench_gpu_init(struct vgpu_bench_gpu *b, u32 num_sms, u32 channels,
			const char *policy)
{
	char err[512];
	size_t size;

	vgpu_config_preset(&b->cfg, "h100");
	b->cfg.num_sms = num_sms;
	vgpu_gpu_params_default(&b->p, &b->cfg);
	b->p.max_channels = channels;
	vgpu_policy_registry_init(&b->pol);
	if (policy) {
		/* a policy object registers again in each fresh registry */
		policy = vgpu_sim_policy_resolve(&b->pol, policy, err, sizeof(err));
		if (!policy)
			return -1;
		snprintf(b->p.policy, sizeof(b->p.policy), "%s", policy);
	}
	size = vgpu_gpu_mem_size(&b->cfg, &b->p);
	b->mem = vgpu_sim_gpu_mem_alloc(size);
	if (!b->mem || vgpu_gpu_init(&b->g, b->mem, size, &b->cfg, &b->p,
				     &b->pol)) {
		free(b->mem);
		return -1;
	}
	return 0;
}

void vgpu_bench_gpu_fini(struct vgpu_bench_gpu *b)
{
	vgpu_gpu_fini(&b->g);
	free(b->mem);
}

#define VGPU_SIM_BENCH_ENTRY(n) &vgpu_sim_bench_##n,
static const struct vgpul_cli_cmd *const vgpu_sim_benches[] = {
	VGPU_SIM_BENCHES(VGPU_SIM_BENCH_ENTRY)
};

#define VGPU_SIM_NBENCH (sizeof(vgpu_sim_benches) / sizeof(vgpu_sim_benches[0]))

static void vgpu_sim_bench_help(FILE *f)
{
	fprintf(f, "Usage: vgpu-sim bench <what> [options]\n\nBenchmarks:\n");
	vgpul_cli_list(f, vgpu_sim_benches, VGPU_SIM_NBENCH);
	fprintf(f, "\n'vgpu-sim bench <what> --help' describes one.\n");
}

static int vgpu_sim_bench(int argc, char **argv)
{
	size_t i;

	if (argc < 2)
		return vgpu_sim_usage_error("bench", "which benchmark?");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		vgpu_sim_bench_help(stdout);
		return 0;
	}
	for (i = 0; i < VGPU_SIM_NBENCH; i++)
		if (!strcmp(argv[1], vgpu_sim_benches[i]->name))
			return vgpu_sim_benches[i]->run(argc - 1, argv + 1);
	return vgpu_sim_usage_error("bench", "unknown benchmark '%s'", argv[1]);
}

const struct vgpul_cli_cmd vgpu_sim_cmd_bench = {
	.name = "bench",
	.summary = "micro-benchmarks of the core (bench --help lists them)",
	.usage = "<what> [options]",
	.run = vgpu_sim_bench,
};
