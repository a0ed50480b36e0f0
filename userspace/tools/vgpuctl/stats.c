// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - vgpuctl stats: netlink STATS_GET, as a table or a JSON array.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "vgpuctl.h"

static void vgpu_json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		if ((unsigned char)*s >= 0x20)
			putchar(*s);
	}
	putchar('"');
}

static void vgpu_counters_json(const struct vgpu_nl_counters *c)
{
	bool first = true;
	unsigned int a;

	putchar('{');
	for (a = VGPU_A_STATS_ID; a <= VGPU_A_STATS_MAX; a++) {
		if (!(c->present & (1ULL << a)))
			continue;
		printf("%s\"%s\":%llu", first ? "" : ",", vgpul_nl_stat_name(a),
		       (unsigned long long)c->v[a]);
		first = false;
	}
	putchar('}');
}

static void vgpu_counters_array_json(const char *name,
				     const struct vgpu_nl_counters *c,
				     unsigned int n)
{
	unsigned int i;

	printf(",\"%s\":[", name);
	for (i = 0; i < n; i++) {
		if (i)
			putchar(',');
		vgpu_counters_json(&c[i]);
	}
	putchar(']');
}

/* One table: a header of counter names, then a row per entry. */
static void vgpu_counters_table(const char *title,
				const struct vgpu_nl_counters *c,
				unsigned int n)
{
	unsigned int i, a;

	if (!n)
		return;
	printf("%s:\n ", title);
	for (a = VGPU_A_STATS_ID; a <= VGPU_A_STATS_MAX; a++)
		if (c[0].present & (1ULL << a))
			printf(" %12s", vgpul_nl_stat_name(a));
	putchar('\n');
	for (i = 0; i < n; i++) {
		putchar(' ');
		for (a = VGPU_A_STATS_ID; a <= VGPU_A_STATS_MAX; a++)
			if (c[0].present & (1ULL << a))
				printf(" %12llu", (unsigned long long)c[i].v[a]);
		putchar('\n');
	}
}

static int vgpuctl_stats(int argc, char **argv)
{
	struct vgpu_nl_dev devs[16];
	struct vgpu_nl_stats st;
	struct vgpu_nl *nl;
	bool json = false;
	int i, n, ret, a;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			vgpuctl_cmd_usage(stdout, "stats");
			return 0;
		} else {
			fprintf(stderr, "vgpuctl stats: unknown argument '%s'\n",
				argv[i]);
			vgpuctl_cmd_usage(stderr, "stats");
			return 2;
		}
	}
	if (vgpuctl_nl_or_complain("stats", &nl))
		return 1;
	if (vgpuctl_index_set) {
		ret = vgpul_nl_dev_get(nl, vgpuctl_index, &devs[0]);
		n = ret ? ret : 1;
	} else {
		n = vgpul_nl_dev_list(nl, devs, 16);
	}
	if (n < 0) {
		vgpuctl_nl_error("stats", "DEV_GET", vgpuctl_index, n);
		vgpul_nl_close(nl);
		return 1;
	}
	if (json)
		putchar('[');
	for (i = 0; i < n && i < 16; i++) {
		ret = vgpul_nl_stats_get(nl, devs[i].index, &st);
		if (ret == -ENODEV && !vgpuctl_index_set)
			continue;	/* deleted meanwhile */
		if (ret) {
			if (json)
				printf("]\n");
			fflush(stdout);
			vgpuctl_nl_error("stats", "STATS_GET", devs[i].index, ret);
			vgpul_nl_close(nl);
			return 1;
		}
		if (json) {
			printf("%s{\"dev\":%u,\"name\":", i ? "," : "",
			       devs[i].index);
			vgpu_json_str(devs[i].name);
			printf(",\"stats\":");
			vgpu_counters_json(&st.dev);
			vgpu_counters_array_json("sm", st.sm, st.n_sm);
			vgpu_counters_array_json("prio", st.prio, st.n_prio);
			vgpu_counters_array_json("channels", st.chan,
						 st.n_chan);
			putchar('}');
		} else {
			printf("%sdev %u: %s\n", i ? "\n" : "", devs[i].index,
			       devs[i].name);
			for (a = VGPU_A_STATS_NOW; a <= VGPU_A_STATS_MAX; a++)
				if (st.dev.present & (1ULL << a))
					printf("  %-16s %llu\n",
					       vgpul_nl_stat_name(a),
					       (unsigned long long)st.dev.v[a]);
			vgpu_counters_table("sm", st.sm, st.n_sm);
			vgpu_counters_table("prio", st.prio, st.n_prio);
			vgpu_counters_table("channels", st.chan, st.n_chan);
		}
		vgpul_nl_stats_free(&st);
	}
	if (json)
		printf("]\n");
	vgpul_nl_close(nl);
	return 0;
}

const struct vgpul_cli_cmd vgpuctl_cmd_stats = {
	.name = "stats",
	.usage = "[-j|--json]",
	.summary = "device, per-SM, per-priority and per-channel counters (netlink\n"
		   "STATS_GET) of -d N or of every device; -j: JSON array",
	.run = vgpuctl_stats,
};
