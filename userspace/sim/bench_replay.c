// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-sim bench replay [--kernels N] [--quick] [--dur-ns NS] [FILE]
 *
 * Simulated blocks per second of a streaming replay (target,
 * Documentation/performance.rst: at least 1,000,000 on one core for short
 * kernels on h100), and the startup of a run (the device's set-up with its power calibration;
 * target under 20 ms).  The blocks per second count the time to read
 * and map the recording too (for a file: SQLite sorts an export's rows
 * at the first one).
 *
 * Without FILE the recording is synthetic and made in memory as it is
 * replayed (no parsing): the short kernels of scripts/gen-trace --mix
 * short (a decode step's RMS norm, rotary embedding, split-KV combine,
 * residual add, SiLU-and-mul and softmax at batch 8) one after the other
 * on one stream, durations +-5 % (seeded), 1 us apart; --dur-ns scales
 * every duration to about NS.  With FILE, that recording (any format) is
 * replayed instead, and the peak resident memory is printed as well.
 *
 * Lines: "replay kernels=N blocks=B cycles=C seconds=S trace_hash=H",
 * "startup ms = X" (the first run: the power calibration included),
 * "startup cached ms = X" (a second run of the preset), "calibrations =
 * 1" (calib.c: once per configuration), "peak rss kb = X" (with FILE),
 * "replay blocks/s = X".  Timings are wall time on one thread: benchmarks, never tests
 * (Documentation/performance.rst).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "sim.h"
#include "run.h"
#include "replay.h"
#include "import_stream.h"

/* The kernels of gen-trace --mix short: grid, threads, regs, smem, ns. */
static const struct {
	const char *name;
	u32 grid, threads, regs, smem, ns;
} vgpu_br_mix[] = {
	{ "rms_norm_kernel", 8, 512, 32, 128, 1500 },
	{ "rotary_embedding_kernel", 8, 512, 26, 0, 1500 },
	{ "flash_fwd_splitkv_combine_kernel", 128, 128, 64, 8192, 2500 },
	{ "vectorized_elementwise_kernel", 64, 128, 20, 0, 1500 },
	{ "vectorized_elementwise_kernel", 172, 128, 20, 0, 3000 },
	{ "cunn_SoftMaxForward", 8, 1024, 32, 64, 2000 },
};

#define VGPU_BR_NMIX	(sizeof(vgpu_br_mix) / sizeof(vgpu_br_mix[0]))

struct vgpu_br_gen {
	u64 n, i;
	u64 t;
	u64 rnd;
	u32 dur_ns;
};

static int vgpu_br_next(void *cookie, struct vgpu_rec_kernel *k, char *err,
			size_t errlen)
{
	struct vgpu_br_gen *g = cookie;
	u64 m = g->i % VGPU_BR_NMIX, dur;

	if (g->i == g->n)
		return 0;
	memset(k, 0, sizeof(*k));
	snprintf(k->name, sizeof(k->name), "%s", vgpu_br_mix[m].name);
	snprintf(k->record, sizeof(k->record), "kernel %llu",
		 (unsigned long long)g->i);
	g->rnd = g->rnd * 6364136223846793005ULL + 1442695040888963407ULL;
	dur = g->dur_ns ? g->dur_ns * vgpu_br_mix[m].ns / 1500 :
	      vgpu_br_mix[m].ns;
	/* +-5 % */
	dur = dur * (950 + (g->rnd >> 33) % 101) / 1000;
	k->timed = true;
	k->start = g->t;
	k->end = g->t + dur;
	k->pid = 1;
	k->stream = 7;
	k->grid[0] = vgpu_br_mix[m].grid;
	k->grid[1] = k->grid[2] = 1;
	k->block[0] = vgpu_br_mix[m].threads;
	k->block[1] = k->block[2] = 1;
	k->regs = vgpu_br_mix[m].regs;
	k->smem = vgpu_br_mix[m].smem;
	g->t += dur + 1000;
	g->i++;
	return 1;
}

static double vgpu_br_progress(void *cookie)
{
	const struct vgpu_br_gen *g = cookie;

	return g->n ? (double)g->i / g->n : 1;
}

static int vgpu_br_file_next(void *cookie, struct vgpu_rec_kernel *k,
			     char *err, size_t errlen)
{
	return vgpu_rec_stream_next(cookie, k, err, errlen);
}

static int vgpu_bench_replay(int argc, char **argv)
{
	struct vgpu_replay_opts o = { .imp = { .preset = "h100" },
				      .preempt = -1, .pack = -1 };
	struct vgpu_br_gen gen = { .n = 20000, .t = 1000000000ULL,
				   .rnd = 1 };
	struct vgpu_rec_stream *stream = NULL;
	struct vgpu_br_gen one = { .t = 1000000000ULL, .rnd = 1 };
	struct vgpu_replay_result *res, *res2 = NULL;
	struct vgpu_replay_src src;
	uint64_t startup;
	struct list_head policies;
	const char *file = NULL;
	struct rusage ru;
	char err[1024];
	double secs;
	u32 v;
	static const char *const flags[] = {
		"--quick", "--kernels", "--dur-ns", NULL
	};
	static const char *const valued[] = { NULL };
	struct vgpu_sim_args args = { .cmd = &vgpu_sim_bench_replay,
				      .bench = true, .valued = valued,
				      .flags = flags, .argc = argc,
				      .argv = argv };
	int rc;

	while ((rc = vgpu_sim_arg(&args)) > 0) {
		if (!args.opt) {
			if (file)
				return vgpu_sim_usage_error("bench replay",
						"one recording at most");
			file = args.val;
		} else if (!strcmp(args.opt, "--quick")) {
			gen.n = 200;
		} else {
			/* --kernels N, --dur-ns NS: their own message */
			if (args.i + 1 >= argc ||
			    !vgpul_cli_u32(argv[args.i + 1], &v) || !v)
				return vgpu_sim_usage_error("bench replay",
					"%s takes a number >= 1", args.opt);
			if (!strcmp(args.opt, "--kernels"))
				gen.n = v;
			else
				gen.dur_ns = v;
			args.i++;
		}
	}
	if (rc)
		return args.status;
	rc = 1;
	vgpu_policy_registry_init(&policies);
	if (file) {
		if (vgpu_rec_stream_open(file, VGPU_REC_AUTO, &stream, err,
					 sizeof(err))) {
			fprintf(stderr, "vgpu-sim bench replay: %s\n", err);
			return 1;
		}
		src.next = vgpu_br_file_next;
		src.cookie = stream;
		src.path = file;
	} else {
		src.next = vgpu_br_next;
		src.cookie = &gen;
		src.path = "synthetic";
	}
	src.progress = vgpu_br_progress;
	if (file)
		src.progress = NULL;
	res = malloc(sizeof(*res));
	res2 = malloc(sizeof(*res2));
	if (!res || !res2)
		goto out;
	if (vgpu_replay(&src, 1, &o, &policies, res, err, sizeof(err))) {
		fprintf(stderr, "vgpu-sim bench replay: %s\n", err);
		goto out;
	}
	secs = res->sim_ns * 1e-9;
	startup = res->startup_ns;
	/* a second run of the same preset: its calibration is cached */
	one.n = 1;
	src.next = vgpu_br_next;
	src.cookie = &one;
	if (vgpu_replay(&src, 1, &o, &policies, res2, err, sizeof(err))) {
		fprintf(stderr, "vgpu-sim bench replay: %s\n", err);
		goto out;
	}
	printf("replay kernels=%llu blocks=%llu cycles=%llu seconds=%.3f trace_hash=0x%016llx\n",
	       (unsigned long long)res->done, (unsigned long long)res->blocks,
	       (unsigned long long)res->makespan, secs,
	       (unsigned long long)res->hash);
	printf("startup ms = %.2f\n", startup * 1e-6);
	printf("startup cached ms = %.2f\n", res2->startup_ns * 1e-6);
	printf("calibrations = %lu\n", vgpu_sim_calibrations());
	if (file && !getrusage(RUSAGE_SELF, &ru))
		printf("peak rss kb = %ld\n", ru.ru_maxrss);
	printf("replay blocks/s = %.0f\n", secs > 0 ? res->blocks / secs : 0);
	rc = 0;
out:
	free(res);
	free(res2);
	vgpu_rec_stream_close(stream);
	return rc;
}

const struct vgpul_cli_cmd vgpu_sim_bench_replay = {
	.name = "replay",
	.summary = "simulated blocks per second of a streaming replay of short kernels (h100)",
	.usage = "[--kernels N] [--quick] [--dur-ns NS] [FILE]\n"
		 "  --kernels N  synthetic kernels (default 20000; --quick: 200)\n"
		 "  --dur-ns NS  scale the synthetic durations to about NS\n"
		 "  FILE         replay this recording instead (also prints the peak RSS)",
	.run = vgpu_bench_replay,
};
