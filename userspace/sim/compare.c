// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-sim compare FILE --policy A --policy B [...] [--preempt MODE]
 *		     [--trace-dir DIR]
 *
 * Runs one workload under each policy (a built-in name or a policy object,
 * build/policies/NAME.so) and prints one table, a column per policy,
 * labelled by its name or, for an object, by its file (NAME of
 * DIR/NAME.so; the path as given when two files share that name), so two
 * builds of one policy compare side by side: makespan, STP, ANTT,
 * fairness (F67), the largest preemption latency, the answers of the
 * policy the core refused, the kernels that missed their deadline, the
 * trace hash, and each kernel's turnaround; for a functional workload
 * (seed 004) whether each run's buffers met their expectations (exit
 * status 1 if not).  --trace-dir leaves DIR/LABEL.json, a Chrome/Perfetto trace per
 * policy ('/' in a label as '_').
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "run.h"
#include <vgpu/import.h>

#define VGPU_CMP_MAX	16	/* policies in one table */

static void vgpu_cmp_row(const char *label, const char *const *cells,
			 unsigned int n)
{
	unsigned int i;

	printf("%-24s", label);
	for (i = 0; i < n; i++)
		printf(" %14s", cells[i]);
	printf("\n");
}

/* @arg's column label in @buf: a name as is, a file by its name. */
static void vgpu_cmp_label(const char *arg, char *buf, size_t size)
{
	const char *base = strrchr(arg, '/');
	size_t len;

	base = base ? base + 1 : arg;
	len = strlen(base);
	if (base != arg && len > 3 && !strcmp(base + len - 3, ".so"))
		len -= 3;
	snprintf(buf, size, "%.*s", (int)len, base);
}

static int vgpu_sim_compare(int argc, char **argv)
{
	static char cell[VGPU_CMP_MAX][32], lab[VGPU_CMP_MAX][128];
	const char *pol[VGPU_CMP_MAX], *name[VGPU_CMP_MAX];
	const char *label_of[VGPU_CMP_MAX];
	const char *file = NULL, *dir = NULL, *cells[VGPU_CMP_MAX];
	struct vgpu_sim_result res[VGPU_CMP_MAX];
	int bad[VGPU_CMP_MAX] = { 0 };
	struct list_head policies;
	struct vgpu_workload wl;
	struct vgpu_run shared;
	unsigned int n = 0, i;
	static const char *const valued[] = {
		"--policy", "--preempt", "--trace-dir", NULL
	};
	struct vgpu_sim_args args = { .cmd = &vgpu_sim_cmd_compare,
				      .valued = valued, .argc = argc,
				      .argv = argv };
	const char *a, *v;
	int preempt = -1, rc = 1, ret;
	char err[1024], path[4096], label[256];
	unsigned int j;
	uint32_t k;
	char *c;

	while ((ret = vgpu_sim_arg(&args)) > 0) {
		a = args.opt;
		v = args.val;
		if (!a) {
			if (file)
				return vgpu_sim_usage_error("compare",
						"one workload file only");
			file = v;
			continue;
		}
		if (!strcmp(a, "--policy")) {
			if (n == VGPU_CMP_MAX)
				return vgpu_sim_usage_error("compare",
					"at most %d policies", VGPU_CMP_MAX);
			pol[n++] = v;
		} else if (!strcmp(a, "--trace-dir")) {
			dir = v;
		} else if (vgpu_sim_mode_arg("compare", a, v, &preempt)) {
			return VGPU_SIM_EXIT_USAGE;
		}
	}
	if (ret)
		return args.status;
	if (!file)
		return vgpu_sim_usage_error("compare", "which workload file?");
	if (!n)
		return vgpu_sim_usage_error("compare",
					    "which policies? (--policy, twice or more)");
	if (vgpul_workload_load_any(file, &wl, err, sizeof(err))) {
		fprintf(stderr, "vgpu-sim compare: %s\n", err);
		vgpul_workload_free(&wl);
		return 1;
	}
	vgpu_policy_registry_init(&policies);
	for (i = 0; i < n; i++) {
		name[i] = vgpu_sim_policy_resolve(&policies, pol[i], err,
						  sizeof(err));
		if (!name[i]) {
			vgpul_workload_free(&wl);
			return vgpu_sim_usage_error("compare", "%s", err);
		}
		if (!strchr(pol[i], '/')) {
			snprintf(lab[i], sizeof(lab[i]), "%s", name[i]);
		} else {
			vgpu_cmp_label(pol[i], lab[i], sizeof(lab[i]));
			for (j = 0; j < i; j++)
				if (!strcmp(lab[j], lab[i]))
					break;
			if (j < i)
				snprintf(lab[i], sizeof(lab[i]), "%s", pol[i]);
		}
		label_of[i] = lab[i];
	}
	if (preempt >= 0)
		wl.dev->params.preempt = preempt;
	memset(res, 0, sizeof(res));
	for (i = 0; i < n; i++) {
		vgpul_workload_set_policy(&wl, name[i]);
		memset(&shared, 0, sizeof(shared));
		shared.keep_events = !!dir;
		if (vgpu_sim_measure(&wl, &policies, &shared, &res[i], NULL,
				     err, sizeof(err))) {
			fprintf(stderr, "vgpu-sim compare: %s under %s: %s\n",
				file, lab[i], err);
			vgpu_run_fini(&shared);
			goto out;
		}
		if (dir) {
			snprintf(label, sizeof(label), "%s", lab[i]);
			for (c = label; *c; c++)
				if (*c == '/')
					*c = '_';
			snprintf(path, sizeof(path), "%s/%s.json", dir, label);
			if (vgpu_chrome_trace_write(path, &wl, &shared, err,
						    sizeof(err))) {
				fprintf(stderr, "vgpu-sim compare: %s\n", err);
				vgpu_run_fini(&shared);
				goto out;
			}
		}
		/* functional workloads: the buffers of each run (seed 004) */
		if (vgpul_workload_num_buffers(&wl)) {
			FILE *devnull = fopen("/dev/null", "w");

			bad[i] = vgpu_run_check(&wl, &shared,
						devnull ? devnull : stderr);
			if (devnull)
				fclose(devnull);
		}
		vgpu_run_fini(&shared);
	}

	vgpu_cmp_row("policy", label_of, n);
#define VGPU_CMP_ROW(label, fmt, expr) do {				\
	for (i = 0; i < n; i++) {					\
		snprintf(cell[i], sizeof(cell[i]), fmt, expr);		\
		cells[i] = cell[i];					\
	}								\
	vgpu_cmp_row(label, cells, n);					\
} while (0)
	VGPU_CMP_ROW("makespan", "%llu",
		     (unsigned long long)res[i].makespan);
	VGPU_CMP_ROW("stp", "%.3f", res[i].m.stp);
	VGPU_CMP_ROW("antt", "%.3f", res[i].m.antt);
	VGPU_CMP_ROW("fairness", "%.3f", res[i].m.fairness);
	VGPU_CMP_ROW("preempt_latency_max", "%llu",
		     (unsigned long long)res[i].lat_max);
	VGPU_CMP_ROW("policy_errors", "%llu",
		     (unsigned long long)res[i].policy_errors);
	VGPU_CMP_ROW("deadline_misses", "%llu",
		     (unsigned long long)res[i].deadline_misses);
	VGPU_CMP_ROW("trace_hash", "%016llx",
		     (unsigned long long)res[i].hash);
	for (k = 0; k < wl.nkernels; k++) {
		snprintf(label, sizeof(label), "turnaround %s",
			 wl.kernels[k].name);
		VGPU_CMP_ROW(label, "%llu",
			     (unsigned long long)res[i].turnaround[k]);
	}
	if (vgpul_workload_num_buffers(&wl))
		VGPU_CMP_ROW("buffers", "%s", bad[i] ? "MISMATCH" : "ok");
#undef VGPU_CMP_ROW
	rc = 0;
	for (i = 0; i < n; i++)
		if (bad[i])
			rc = 1;	/* vgpu-sim run FILE --policy P says which */
out:
	for (i = 0; i < n; i++)
		vgpu_sim_result_fini(&res[i]);
	vgpul_workload_free(&wl);
	return rc;
}

const struct vgpul_cli_cmd vgpu_sim_cmd_compare = {
	.name = "compare",
	.summary = "run a workload under several policies, print one table",
	.usage = "FILE --policy NAME|FILE.so --policy ... [--preempt drain|warp|switch] [--trace-dir DIR]",
	.run = vgpu_sim_compare,
};
