// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-sim bench bitmap: ns per query of the largest-free-run searches
 * (F40-F42) and of first fit (F32) on random maps, each against two
 * references measured in the same run: the naive bit loop and the ctz
 * run walk (find_next_bit() style).  128-bit maps for the targets, 2048-bit
 * maps (the width of the h100 shared-memory map) for the wide figures.
 * Figures are recorded in Documentation/performance.rst.
 */
#include <getopt.h>
#include <stdlib.h>
#include <time.h>

#include "sim.h"
#include "bmap.h"

#define VGPU_BENCH_NMAPS	4096	/* power of two */
#define VGPU_BENCH_NWIDE	256	/* power of two */
#define VGPU_BENCH_WIDTH	128
#define VGPU_BENCH_WIDE		VGPU_BMAP_MAX_BITS
#define VGPU_BENCH_GROUPS	32	/* groups of 4, as in seed 001 */
#define VGPU_BENCH_FIT		4	/* first fit: run wanted, 128 bits */
#define VGPU_BENCH_WIDE_FIT	8	/* first fit: run wanted, 2048 bits */

static u64 vgpu_bench_maps[VGPU_BENCH_NMAPS][VGPU_BMAP_NWORDS(VGPU_BENCH_WIDTH)];
static u64 vgpu_bench_wide[VGPU_BENCH_NWIDE][VGPU_BMAP_WORDS];
static struct vgpu_bmap_samples vgpu_bench_samples;
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

static u64 vgpu_bench_grouped(const u64 *m, u32 nbits)
{
	return vgpu_bmap_run_grouped(m, nbits, VGPU_BENCH_GROUPS);
}

static u64 vgpu_bench_sampled(const u64 *m, u32 nbits)
{
	return vgpu_bmap_run_sampled(m, nbits, &vgpu_bench_samples);
}

/* u32 and int answers both fold into the sum (ENOSPC included). */
#define VGPU_BENCH_FIND(name, fn)					\
static u64 vgpu_bench_##name(const u64 *m, u32 nbits)			\
{									\
	return (u32)fn(m, nbits, nbits > VGPU_BENCH_WIDTH ?		\
		       VGPU_BENCH_WIDE_FIT : VGPU_BENCH_FIT);		\
}
VGPU_BENCH_FIND(fit_naive, vgpu_bmap_find_run_naive)
VGPU_BENCH_FIND(fit_ctz, vgpu_bmap_find_run_ctz)
VGPU_BENCH_FIND(fit_exact, vgpu_bmap_find_run)
VGPU_BENCH_FIND(fit_xk, vgpu_bmap_find_run_xk)

static u64 vgpu_bench_naive(const u64 *m, u32 nbits)
{
	return vgpu_bmap_run_naive(m, nbits);
}

static u64 vgpu_bench_ctz(const u64 *m, u32 nbits)
{
	return vgpu_bmap_run_ctz(m, nbits);
}

static u64 vgpu_bench_exact(const u64 *m, u32 nbits)
{
	return vgpu_bmap_run_exact(m, nbits);
}

/*
 * ns per query of @fn over @n queries cycling through the maps; inlined
 * per search so that the loop makes a direct call, as a caller would.
 */
static __always_inline double
vgpu_bench_time(u64 (*fn)(const u64 *, u32), bool wide, uint32_t n)
{
	double t0, t1;
	u64 sum = 0;
	uint32_t i;

	t0 = vgpu_bench_now();
	if (wide) {
		for (i = 0; i < n; i++)
			sum += fn(vgpu_bench_wide[i & (VGPU_BENCH_NWIDE - 1)],
				  VGPU_BENCH_WIDE);
	} else {
		for (i = 0; i < n; i++)
			sum += fn(vgpu_bench_maps[i & (VGPU_BENCH_NMAPS - 1)],
				  VGPU_BENCH_WIDTH);
	}
	t1 = vgpu_bench_now();
	vgpu_bench_sink += sum;
	return (t1 - t0) / n;
}

/* Every search must give the references' answer on every benchmark map. */
static int vgpu_bench_verify(const u64 *m, u32 nbits)
{
	u32 fit = nbits > VGPU_BENCH_WIDTH ? VGPU_BENCH_WIDE_FIT :
		  VGPU_BENCH_FIT;
	u32 ref = vgpu_bmap_run_naive(m, nbits);
	int at = vgpu_bmap_find_run_naive(m, nbits, fit);

	if (vgpu_bmap_run_ctz(m, nbits) != ref ||
	    vgpu_bmap_run_exact(m, nbits) != ref ||
	    vgpu_bmap_find_run_ctz(m, nbits, fit) != at ||
	    vgpu_bmap_find_run(m, nbits, fit) != at ||
	    vgpu_bmap_find_run_xk(m, nbits, fit) != at) {
		fprintf(stderr, "vgpu-sim bench bitmap: a search disagrees with the bit loop on a %u-bit map\n",
			nbits);
		return -1;
	}
	return 0;
}

static int vgpu_bench_bitmap(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "queries", required_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint32_t queries = 2000000, wq, i, j;
	double naive, ctz, exact, grouped, sampled;
	double w_naive, w_ctz, w_exact;
	double f_naive, f_ctz, f_exact, f_xk;
	double wf_naive, wf_ctz, wf_exact, wf_xk;
	struct vgpu_sim_getopt g = { .cmd = &vgpu_sim_bench_bitmap,
				     .opts = opts, .bench = true,
				     .quiet = true, .no_args = true };
	u64 seed = 0x5eed0001;
	int c;

	/* --queries is the one option */
	while ((c = vgpu_sim_getopt(&g, argc, argv)) > 0)
		if (!vgpul_cli_u32(optarg, &queries) || !queries)
			return vgpu_sim_usage_error("bench bitmap",
				"bad --queries '%s'", optarg);
	if (!c)
		return g.status;
	/* a 2048-bit query costs about 16 of 128 bits */
	wq = queries / 16 ? queries / 16 : 1;

	for (i = 0; i < VGPU_BENCH_NMAPS; i++) {
		vgpu_bench_maps[i][0] = vgpu_bench_rand(&seed);
		vgpu_bench_maps[i][1] = vgpu_bench_rand(&seed);
		if (vgpu_bench_verify(vgpu_bench_maps[i], VGPU_BENCH_WIDTH))
			return 1;
	}
	for (i = 0; i < VGPU_BENCH_NWIDE; i++) {
		for (j = 0; j < VGPU_BMAP_WORDS; j++)
			vgpu_bench_wide[i][j] = vgpu_bench_rand(&seed);
		if (vgpu_bench_verify(vgpu_bench_wide[i], VGPU_BENCH_WIDE))
			return 1;
	}
	vgpu_bmap_samples_pow2(&vgpu_bench_samples, VGPU_BENCH_WIDTH);
	/* warm up caches and branch predictors */
	vgpu_bench_time(vgpu_bench_naive, false, VGPU_BENCH_NMAPS);
	vgpu_bench_time(vgpu_bench_exact, false, VGPU_BENCH_NMAPS);

	naive = vgpu_bench_time(vgpu_bench_naive, false, queries);
	ctz = vgpu_bench_time(vgpu_bench_ctz, false, queries);
	exact = vgpu_bench_time(vgpu_bench_exact, false, queries);
	grouped = vgpu_bench_time(vgpu_bench_grouped, false, queries);
	sampled = vgpu_bench_time(vgpu_bench_sampled, false, queries);
	f_naive = vgpu_bench_time(vgpu_bench_fit_naive, false, queries);
	f_ctz = vgpu_bench_time(vgpu_bench_fit_ctz, false, queries);
	f_exact = vgpu_bench_time(vgpu_bench_fit_exact, false, queries);
	f_xk = vgpu_bench_time(vgpu_bench_fit_xk, false, queries);
	w_naive = vgpu_bench_time(vgpu_bench_naive, true, wq);
	w_ctz = vgpu_bench_time(vgpu_bench_ctz, true, wq);
	w_exact = vgpu_bench_time(vgpu_bench_exact, true, wq);
	wf_naive = vgpu_bench_time(vgpu_bench_fit_naive, true, wq);
	wf_ctz = vgpu_bench_time(vgpu_bench_fit_ctz, true, wq);
	wf_exact = vgpu_bench_time(vgpu_bench_fit_exact, true, wq);
	wf_xk = vgpu_bench_time(vgpu_bench_fit_xk, true, wq);

	printf("bitmap: %u-bit maps, p(free) = 1/2, %u queries each\n",
	       VGPU_BENCH_WIDTH, queries);
	printf("naive    %8.1f ns/query\n", naive);
	printf("ctz      %8.1f ns/query\n", ctz);
	printf("exact    %8.1f ns/query\n", exact);
	printf("grouped  %8.1f ns/query (z = %u)\n", grouped,
	       VGPU_BENCH_GROUPS);
	printf("sampled  %8.1f ns/query (powers of two)\n", sampled);
	printf("first fit of %u units: %u-bit maps, %u queries each\n",
	       VGPU_BENCH_FIT, VGPU_BENCH_WIDTH, queries);
	printf("fit naive %7.1f ns/query\n", f_naive);
	printf("fit ctz   %7.1f ns/query\n", f_ctz);
	printf("fit exact %7.1f ns/query (vgpu_bmap_find_run)\n", f_exact);
	printf("fit xk    %7.1f ns/query (shift-and-AND only)\n", f_xk);
	printf("wide: %u-bit maps, p(free) = 1/2, %u queries each; first fit of %u units\n",
	       VGPU_BENCH_WIDE, wq, VGPU_BENCH_WIDE_FIT);
	printf("wide naive     %8.1f ns/query\n", w_naive);
	printf("wide ctz       %8.1f ns/query\n", w_ctz);
	printf("wide exact     %8.1f ns/query\n", w_exact);
	printf("wide fit naive %8.1f ns/query\n", wf_naive);
	printf("wide fit ctz   %8.1f ns/query\n", wf_ctz);
	printf("wide fit exact %8.1f ns/query\n", wf_exact);
	printf("wide fit xk    %8.1f ns/query\n", wf_xk);
	printf("wide ratio naive/exact = %.1f\n", w_naive / w_exact);
	printf("wide ratio ctz/exact = %.1f\n", w_ctz / w_exact);
	printf("fit ratio naive/exact = %.1f\n", f_naive / f_exact);
	printf("fit ratio ctz/exact = %.1f\n", f_ctz / f_exact);
	printf("ratio naive/exact = %.1f\n", naive / exact);
	printf("ratio ctz/exact = %.1f\n", ctz / exact);
	return 0;
}

const struct vgpul_cli_cmd vgpu_sim_bench_bitmap = {
	.name = "bitmap",
	.summary = "largest free run and first fit on random 128- and 2048-bit maps",
	.usage = "[--queries N]\n"
		 "Prints ns per query on 128-bit maps for naive (bit loop), ctz\n"
		 "(run walk), exact, grouped and sampled; first fit three ways;\n"
		 "the same on 2048-bit maps (N / 16 queries); ratios last:\n"
		 "'ratio naive/exact = X', 'ratio ctz/exact = X'.",
	.run = vgpu_bench_bitmap,
};
