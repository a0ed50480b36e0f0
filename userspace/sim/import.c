// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-sim import [--format F] [--preset P] [--clock MHZ]
 *	[--priority TENANT=P] [--offset TENANT=CYCLES] FILE... -o OUT.json
 *
 * Reads recorded kernel timelines (Nsight Systems SQLite, Kineto JSON,
 * Accel-Sim traces), each FILE a tenant, maps them onto the
 * preset (Documentation/workloads.rst, "Recordings") and writes the
 * workload file.  Kernels that cannot run on the preset are listed on
 * stderr and counted; the last line on stdout sums it up.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include <vgpu/import.h>

#include "cli.h"

int vgpu_sim_rec_arg(struct vgpu_sim_rec_args *a, const char *o,
		     const char *v)
{
	if (!o) {
		if (a->nf == a->max)
			return vgpu_sim_usage_error(a->cmd,
						    "at most %d recordings",
						    a->max);
		a->files[a->nf++] = v;
		return 0;
	}
	if (!strcmp(o, "--format")) {
		a->format = vgpul_rec_format_parse(v);
		if (a->format < 0)
			return vgpu_sim_usage_error(a->cmd,
				"unknown format '%s' (auto, nsys, kineto, accelsim)",
				v);
	} else if (!strcmp(o, "--preset")) {
		if (!vgpul_rec_clock_mhz(v))
			return vgpu_sim_usage_error(a->cmd,
				"unknown preset '%s' (small, a100, h100)", v);
		a->imp->preset = v;
	} else if (!strcmp(o, "--clock")) {
		if (!vgpul_cli_u32(v, &a->mhz) || !a->mhz ||
		    a->mhz > 100000)
			return vgpu_sim_usage_error(a->cmd,
				"bad --clock '%s' (MHz, 1..100000)", v);
	} else if (!strcmp(o, "--priority")) {
		if (a->np == a->max)
			return vgpu_sim_usage_error(a->cmd,
						    "too many --priority");
		a->prio_arg[a->np++] = v;
	} else {
		if (a->no == a->max)
			return vgpu_sim_usage_error(a->cmd, "too many --offset");
		a->off_arg[a->no++] = v;
	}
	return 0;
}

int vgpu_sim_rec_args_done(struct vgpu_sim_rec_args *a)
{
	unsigned int i;
	uint32_t t;
	uint64_t v;

	if (!a->nf)
		return vgpu_sim_usage_error(a->cmd, "which recordings?");
	for (i = 0; i < a->np; i++) {
		if (!vgpul_tenant_pair(a->prio_arg[i], a->nf, &t, &v) || v >= 4)
			return vgpu_sim_usage_error(a->cmd,
				"bad --priority '%s' (TENANT=P, TENANT < %u, P < 4)",
				a->prio_arg[i], a->nf);
		a->prio[t] = v;
	}
	for (i = 0; i < a->no; i++) {
		if (!vgpul_tenant_pair(a->off_arg[i], a->nf, &t, &v) ||
		    v > 1ULL << 48)
			return vgpu_sim_usage_error(a->cmd,
				"bad --offset '%s' (TENANT=CYCLES, TENANT < %u)",
				a->off_arg[i], a->nf);
		a->offset[t] = v;
	}
	a->imp->clock_mhz = a->mhz;
	a->imp->priority = a->prio;
	a->imp->offset = a->offset;
	return 0;
}

static int vgpu_sim_import(int argc, char **argv)
{
	static struct vgpu_recording recs[VGPU_SIM_REC_MAX];
	static struct vgpu_sim_rec_args ra;
	struct vgpu_import_opts opts = { .preset = "h100", .report = stderr };
	struct vgpu_import_stats st;
	struct vgpu_workload wl;
	const char *out = NULL;
	static const char *const valued[] = { "-o", VGPU_SIM_REC_OPTS, NULL };
	struct vgpu_sim_args args = { .cmd = &vgpu_sim_cmd_import,
				      .valued = valued, .argc = argc,
				      .argv = argv };
	unsigned int nf, i;
	int rc = 1, ret;
	char err[1024];
	FILE *f;

	ra = (struct vgpu_sim_rec_args){ .cmd = "import",
					 .max = VGPU_SIM_REC_MAX,
					 .imp = &opts,
					 .format = VGPU_REC_AUTO };
	while ((ret = vgpu_sim_arg(&args)) > 0) {
		if (args.opt && !strcmp(args.opt, "-o"))
			out = args.val;
		else if (vgpu_sim_rec_arg(&ra, args.opt, args.val))
			return VGPU_SIM_EXIT_USAGE;
	}
	if (ret)
		return args.status;
	if (ra.nf && !out)
		return vgpu_sim_usage_error("import", "-o OUT.json is required");
	ret = vgpu_sim_rec_args_done(&ra);
	if (ret)
		return ret;
	nf = ra.nf;
	memset(&wl, 0, sizeof(wl));
	for (i = 0; i < nf; i++) {
		ret = vgpul_rec_load(ra.files[i], ra.format, &recs[i], err,
				    sizeof(err));
		if (ret) {
			fprintf(stderr, "vgpu-sim import: %s\n", err);
			goto out;
		}
	}
	if (vgpul_import_map(recs, nf, &opts, &wl, &st, err, sizeof(err))) {
		fprintf(stderr, "vgpu-sim import: %s\n", err);
		goto out;
	}
	f = strcmp(out, "-") ? fopen(out, "w") : stdout;
	if (!f) {
		fprintf(stderr, "vgpu-sim import: %s: %s\n", out,
			strerror(errno));
		goto out;
	}
	ret = vgpul_workload_write(f, &wl);
	if (f != stdout && fclose(f))
		ret = -EIO;
	if (ret) {
		fprintf(stderr, "vgpu-sim import: %s: write error\n", out);
		goto out;
	}
	fprintf(f == stdout ? stderr : stdout,
		"kernels=%llu mapped=%llu skipped=%llu clamped=%llu channels=%u tenants=%u\n",
		(unsigned long long)st.kernels, (unsigned long long)st.mapped,
		(unsigned long long)st.skipped, (unsigned long long)st.clamped,
		st.channels, nf);
	rc = 0;
out:
	vgpul_workload_free(&wl);
	for (i = 0; i < nf; i++)
		vgpul_rec_free(&recs[i]);
	return rc;
}

const struct vgpul_cli_cmd vgpu_sim_cmd_import = {
	.name = "import",
	.summary = "turn recorded kernel timelines (nsys, kineto, accelsim) into a workload file",
	.usage = "[--format auto|nsys|kineto|accelsim] [--preset small|a100|h100] [--clock MHZ]\n"
		 "       [--priority TENANT=P] [--offset TENANT=CYCLES] FILE... -o OUT.json\n"
		 "Each FILE is a tenant (0, 1, ...); -o - writes to stdout.",
	.run = vgpu_sim_import,
};
