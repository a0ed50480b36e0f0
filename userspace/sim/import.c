// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-sim import [--format F] [--preset P] [--clock MHZ]
 *	[--priority TENANT=P] [--offset TENANT=CYCLES] FILE... -o OUT.json
 *
 * Reads recorded kernel timelines (Nsight Systems SQLite, Kineto JSON,
 * Accel-Sim traces; issue 20), each FILE a tenant, maps them onto the
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

#define VGPU_IMPORT_MAX	256	/* recordings (tenants) */

static int vgpu_sim_import(int argc, char **argv)
{
	static struct vgpu_recording recs[VGPU_IMPORT_MAX];
	static uint32_t prio[VGPU_IMPORT_MAX];
	static uint64_t offset[VGPU_IMPORT_MAX];
	const char *files[VGPU_IMPORT_MAX], *out = NULL;
	const char *prio_arg[VGPU_IMPORT_MAX], *off_arg[VGPU_IMPORT_MAX];
	struct vgpu_import_opts opts = { .preset = "h100", .report = stderr };
	struct vgpu_import_stats st;
	struct vgpu_workload wl;
	unsigned int nf = 0, np = 0, no = 0, i;
	int format = VGPU_REC_AUTO, rc = 1, ret;
	uint32_t t, mhz = 0;
	uint64_t v;
	char err[1024];
	FILE *f;

	for (i = 1; i < (unsigned int)argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			vgpu_sim_print_usage(stdout, "vgpu-sim",
					     &vgpu_sim_cmd_import);
			return 0;
		}
		if (!strcmp(a, "-o") || !strcmp(a, "--format") ||
		    !strcmp(a, "--preset") || !strcmp(a, "--clock") ||
		    !strcmp(a, "--priority") || !strcmp(a, "--offset")) {
			if (i + 1 >= (unsigned int)argc)
				return vgpu_sim_usage_error("import",
							    "%s needs a value",
							    a);
			i++;
			if (!strcmp(a, "-o")) {
				out = argv[i];
			} else if (!strcmp(a, "--format")) {
				format = vgpul_rec_format_parse(argv[i]);
				if (format < 0)
					return vgpu_sim_usage_error("import",
						"unknown format '%s' (auto, nsys, kineto, accelsim)",
						argv[i]);
			} else if (!strcmp(a, "--preset")) {
				if (!vgpul_rec_clock_mhz(argv[i]))
					return vgpu_sim_usage_error("import",
						"unknown preset '%s' (small, a100, h100)",
						argv[i]);
				opts.preset = argv[i];
			} else if (!strcmp(a, "--clock")) {
				if (!vgpu_sim_parse_u32(argv[i], &mhz) ||
				    !mhz || mhz > 100000)
					return vgpu_sim_usage_error("import",
						"bad --clock '%s' (MHz, 1..100000)",
						argv[i]);
			} else if (!strcmp(a, "--priority")) {
				if (np == VGPU_IMPORT_MAX)
					return vgpu_sim_usage_error("import",
						"too many --priority");
				prio_arg[np++] = argv[i];
			} else {
				if (no == VGPU_IMPORT_MAX)
					return vgpu_sim_usage_error("import",
						"too many --offset");
				off_arg[no++] = argv[i];
			}
		} else if (a[0] == '-' && a[1]) {
			return vgpu_sim_usage_error("import",
						    "unknown option '%s'", a);
		} else {
			if (nf == VGPU_IMPORT_MAX)
				return vgpu_sim_usage_error("import",
					"at most %d recordings",
					VGPU_IMPORT_MAX);
			files[nf++] = a;
		}
	}
	if (!nf)
		return vgpu_sim_usage_error("import", "which recordings?");
	if (!out)
		return vgpu_sim_usage_error("import", "-o OUT.json is required");
	for (i = 0; i < np; i++) {
		if (!vgpul_tenant_pair(prio_arg[i], nf, &t, &v) || v >= 4)
			return vgpu_sim_usage_error("import",
				"bad --priority '%s' (TENANT=P, TENANT < %u, P < 4)",
				prio_arg[i], nf);
		prio[t] = v;
	}
	for (i = 0; i < no; i++) {
		if (!vgpul_tenant_pair(off_arg[i], nf, &t, &v) ||
		    v > 1ULL << 48)
			return vgpu_sim_usage_error("import",
				"bad --offset '%s' (TENANT=CYCLES, TENANT < %u)",
				off_arg[i], nf);
		offset[t] = v;
	}
	opts.clock_mhz = mhz;
	opts.priority = prio;
	opts.offset = offset;
	memset(&wl, 0, sizeof(wl));
	for (i = 0; i < nf; i++) {
		ret = vgpul_rec_load(files[i], format, &recs[i], err,
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

const struct vgpu_sim_cmd vgpu_sim_cmd_import = {
	.name = "import",
	.summary = "turn recorded kernel timelines (nsys, kineto, accelsim) into a workload file",
	.usage = "[--format auto|nsys|kineto|accelsim] [--preset small|a100|h100] [--clock MHZ]\n"
		 "       [--priority TENANT=P] [--offset TENANT=CYCLES] FILE... -o OUT.json\n"
		 "Each FILE is a tenant (0, 1, ...); -o - writes to stdout.",
	.run = vgpu_sim_import,
};
