// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-sim bench <what>: dispatches on the second word (sim.h
 * VGPU_SIM_BENCHES); each benchmark lives in its own file.
 */
#include <string.h>

#include "sim.h"

#define VGPU_SIM_BENCH_ENTRY(n) &vgpu_sim_bench_##n,
static const struct vgpu_sim_cmd *const vgpu_sim_benches[] = {
	VGPU_SIM_BENCHES(VGPU_SIM_BENCH_ENTRY)
};

#define VGPU_SIM_NBENCH (sizeof(vgpu_sim_benches) / sizeof(vgpu_sim_benches[0]))

static void vgpu_sim_bench_help(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: vgpu-sim bench <what> [options]\n\nBenchmarks:\n");
	for (i = 0; i < VGPU_SIM_NBENCH; i++)
		fprintf(f, "  %-12s %s\n", vgpu_sim_benches[i]->name,
			vgpu_sim_benches[i]->summary);
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

const struct vgpu_sim_cmd vgpu_sim_cmd_bench = {
	.name = "bench",
	.summary = "micro-benchmarks of the core (bench --help lists them)",
	.usage = "<what> [options]",
	.run = vgpu_sim_bench,
};
