// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-sim bench functional: lane-operations per second of functional
 * kernels (seed 004) on one core: the matmul example
 * (examples/functional/matmul.json, its kernel "matmul" alone) run
 * --repeat times through the whole device, epoch by epoch on the calling
 * thread.  A warp instruction is 32 lane-operations; the figure is the
 * warp instructions the SMs issued x 32 / the seconds of the runs' epoch
 * loops (setting up the device and the buffers is not counted), in wall
 * time and in the thread's CPU time (the figure of one core on a
 * machine shared with other work).  Every run's buffers are checked
 * against the workload's expectations.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "run.h"

/* The CPU model (the first "model name" of /proc/cpuinfo), or "?". */
static void vgpu_bench_cpu(char *buf, size_t len)
{
	char line[256], *p;
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(buf, len, "?");
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10))
			continue;
		p = strchr(line, ':');
		if (p) {
			p += strspn(p + 1, " \t") + 1;
			p[strcspn(p, "\n")] = 0;
			snprintf(buf, len, "%s", p);
		}
		break;
	}
	if (f)
		fclose(f);
}

static int vgpu_bench_functional(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *file = "examples/functional/matmul.json", *name = "matmul";
	struct vgpu_sim_getopt g = { .cmd = &vgpu_sim_bench_functional,
				     .opts = opts, .bench = true,
				     .bad = "bad option" };
	uint32_t repeat = 20, i, s;
	struct list_head policies;
	struct vgpu_workload wl;
	struct vgpu_run r;
	uint64_t issued = 0;
	double secs = 0, cpu_secs = 0;
	char err[1024], cpu[128];
	FILE *devnull;
	int c, idx = -1, rc = 1;

	while ((c = vgpu_sim_getopt(&g, argc, argv)) > 0) {
		switch (c) {
		case 'f':
			file = optarg;
			break;
		case 'k':
			name = optarg;
			break;
		case 'r':
			if (!vgpul_cli_u32(optarg, &repeat) || !repeat)
				return vgpu_sim_usage_error("bench functional",
							    "bad --repeat");
			break;
		}
	}
	if (!c)
		return g.status;
	vgpu_policy_registry_init(&policies);
	if (vgpul_workload_load(file, &wl, err, sizeof(err))) {
		fprintf(stderr, "vgpu-sim bench functional: %s\n", err);
		vgpul_workload_free(&wl);
		return 1;
	}
	for (i = 0; i < wl.nkernels; i++)
		if (!strcmp(wl.kernels[i].name, name))
			idx = i;
	if (idx < 0 || !vgpul_workload_kernel_functional(&wl, idx)) {
		fprintf(stderr, "vgpu-sim bench functional: %s: no functional kernel '%s'\n",
			file, name);
		vgpul_workload_free(&wl);
		return 1;
	}
	devnull = fopen("/dev/null", "w");
	for (i = 0; i < repeat; i++) {
		memset(&r, 0, sizeof(r));
		if (vgpu_run_workload(&wl, idx, &policies, &r, err,
				      sizeof(err))) {
			fprintf(stderr, "vgpu-sim bench functional: %s\n", err);
			goto out;
		}
		if (r.k[idx].state != VGPU_KS_DONE ||
		    vgpu_run_check(&wl, &r, devnull ? devnull : stderr)) {
			fprintf(stderr, "vgpu-sim bench functional: %s computed a wrong result\n",
				name);
			goto out;
		}
		for (s = 0; s < r.g.cfg.num_sms; s++)
			issued += r.g.sm[s].sm.stats.issued;
		secs += r.loop_seconds;
		cpu_secs += r.loop_cpu_seconds;
		vgpu_run_fini(&r);
	}
	vgpu_bench_cpu(cpu, sizeof(cpu));
	printf("machine: %s, %ld CPUs online; 1 thread\n", cpu,
	       sysconf(_SC_NPROCESSORS_ONLN));
	printf("%s of %s alone, %u runs: %" PRIu64 " warp instructions in %.3f s (%.3f s of CPU)\n",
	       name, file, repeat, issued, secs, cpu_secs);
	printf("M lane-operations/s of CPU time = %.1f\n",
	       cpu_secs > 0 ? issued * 32.0 / cpu_secs / 1e6 : 0.0);
	printf("M lane-operations/s = %.1f\n",
	       secs > 0 ? issued * 32.0 / secs / 1e6 : 0.0);
	rc = 0;
out:
	vgpu_run_fini(&r);
	if (devnull)
		fclose(devnull);
	vgpul_workload_free(&wl);
	return rc;
}

const struct vgpul_cli_cmd vgpu_sim_bench_functional = {
	.name = "functional",
	.summary = "functional kernels: lane-operations per second, one core",
	.usage = "[--file WORKLOAD] [--kernel NAME] [--repeat N]\n"
		 "  --file F    a functional workload (default examples/functional/matmul.json)\n"
		 "  --kernel K  its kernel to run alone (default matmul)\n"
		 "  --repeat N  runs (default 20)\n"
		 "Prints the machine, 'M lane-operations/s of CPU time = X' and last\n"
		 "'M lane-operations/s = X': warp instructions x 32 / seconds of the\n"
		 "epoch loops (the thread's CPU time, wall time).",
	.run = vgpu_bench_functional,
};
