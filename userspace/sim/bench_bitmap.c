// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-sim bench bitmap: ns per largest-free-run query on random 128-bit
 * maps for the naive bit loop and the exact, grouped and sampled searches
 * (F40-F42).  Figures are recorded in Documentation/performance.rst.
 */
#include <getopt.h>
#include <stdlib.h>
#include <time.h>

#include "sim.h"
#include "bmap.h"

#define VGPU_BENCH_NMAPS	4096	/* power of two */
#define VGPU_BENCH_WIDTH	128
#define VGPU_BENCH_GROUPS	32	/* groups of 4, as in seed 001 */

static u64 vgpu_bench_maps[VGPU_BENCH_NMAPS][2];
static volatile u64 vgpu_bench_sink;

static u64 vgpu_bench_rand(u64 *s)
{
	u64 z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double vgpu_bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

enum vgpu_bench_kind { VGPU_BENCH_NAIVE, VGPU_BENCH_EXACT,
		       VGPU_BENCH_GROUPED, VGPU_BENCH_SAMPLED };

/* ns per query of one search over @n queries cycling through the maps. */
static double vgpu_bench_run(enum vgpu_bench_kind k, uint32_t n,
			     const struct vgpu_bmap_samples *s)
{
	double t0, t1;
	u64 sum = 0;
	uint32_t i;

	t0 = vgpu_bench_now();
	for (i = 0; i < n; i++) {
		const u64 *m = vgpu_bench_maps[i & (VGPU_BENCH_NMAPS - 1)];

		switch (k) {
		case VGPU_BENCH_NAIVE:
			sum += vgpu_bmap_run_naive(m, VGPU_BENCH_WIDTH);
			break;
		case VGPU_BENCH_EXACT:
			sum += vgpu_bmap_run_exact(m, VGPU_BENCH_WIDTH);
			break;
		case VGPU_BENCH_GROUPED:
			sum += vgpu_bmap_run_grouped(m, VGPU_BENCH_WIDTH,
						     VGPU_BENCH_GROUPS);
			break;
		case VGPU_BENCH_SAMPLED:
			sum += vgpu_bmap_run_sampled(m, VGPU_BENCH_WIDTH, s);
			break;
		}
	}
	t1 = vgpu_bench_now();
	vgpu_bench_sink += sum;
	return (t1 - t0) / n;
}

static int vgpu_bench_bitmap(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "queries", required_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint32_t queries = 2000000, i;
	struct vgpu_bmap_samples s;
	double naive, exact, grouped, sampled;
	u64 seed = 0x5eed0001;
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'q':
			if (!vgpu_sim_parse_u32(optarg, &queries) || !queries)
				return vgpu_sim_usage_error("bench bitmap",
					"bad --queries '%s'", optarg);
			break;
		case 'h':
			vgpu_sim_print_usage(stdout, "vgpu-sim bench",
					     &vgpu_sim_bench_bitmap);
			return 0;
		default:
			return vgpu_sim_usage_error("bench bitmap",
				"unknown or incomplete option '%s'",
				argv[optind - 1]);
		}
	}
	if (optind < argc)
		return vgpu_sim_usage_error("bench bitmap",
					    "unexpected argument '%s'",
					    argv[optind]);

	for (i = 0; i < VGPU_BENCH_NMAPS; i++) {
		vgpu_bench_maps[i][0] = vgpu_bench_rand(&seed);
		vgpu_bench_maps[i][1] = vgpu_bench_rand(&seed);
		if (vgpu_bmap_run_exact(vgpu_bench_maps[i], VGPU_BENCH_WIDTH) !=
		    vgpu_bmap_run_naive(vgpu_bench_maps[i], VGPU_BENCH_WIDTH)) {
			fprintf(stderr, "vgpu-sim bench bitmap: exact != naive\n");
			return 1;
		}
	}
	vgpu_bmap_samples_pow2(&s, VGPU_BENCH_WIDTH);
	/* warm up caches and branch predictors */
	vgpu_bench_run(VGPU_BENCH_NAIVE, VGPU_BENCH_NMAPS, &s);
	vgpu_bench_run(VGPU_BENCH_EXACT, VGPU_BENCH_NMAPS, &s);

	naive = vgpu_bench_run(VGPU_BENCH_NAIVE, queries, &s);
	exact = vgpu_bench_run(VGPU_BENCH_EXACT, queries, &s);
	grouped = vgpu_bench_run(VGPU_BENCH_GROUPED, queries, &s);
	sampled = vgpu_bench_run(VGPU_BENCH_SAMPLED, queries, &s);

	printf("bitmap: %u-bit maps, p(free) = 1/2, %u queries each\n",
	       VGPU_BENCH_WIDTH, queries);
	printf("naive    %8.1f ns/query\n", naive);
	printf("exact    %8.1f ns/query\n", exact);
	printf("grouped  %8.1f ns/query (z = %u)\n", grouped,
	       VGPU_BENCH_GROUPS);
	printf("sampled  %8.1f ns/query (powers of two)\n", sampled);
	printf("ratio naive/exact = %.1f\n", naive / exact);
	return 0;
}

const struct vgpu_sim_cmd vgpu_sim_bench_bitmap = {
	.name = "bitmap",
	.summary = "largest-free-run searches on random 128-bit maps (F40-F42)",
	.usage = "[--queries N]\n"
		 "Prints ns per query for naive (bit loop), exact, grouped and\n"
		 "sampled, then 'ratio naive/exact = X'.",
	.run = vgpu_bench_bitmap,
};
