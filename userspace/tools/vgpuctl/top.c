// SPDX-License-Identifier: GPL-2.0
/*
 * top.c - vgpuctl top: live per-SM occupancy and per-channel progress.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vgpuctl.h"

/* SMs shown: a device has at most 4096 (the uapi's affinity masks) */
#define VGPUCTL_TOP_MAX_SMS	4096

/* Per-SM blocks and free warps from debugfs' sm view, if readable. */
static int vgpu_top_debugfs(const char *name, unsigned int nsm,
			    unsigned int *blocks, unsigned int *free_warps)
{
	char path[128], line[512];
	unsigned int sm, fw, b, n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/vgpu/%s/sm", name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		if (sscanf(line, "%u %*s %*s %*s %u %u/", &sm, &fw, &b) != 3 ||
		    sm >= nsm)
			continue;
		blocks[sm] = b;
		free_warps[sm] = fw;
		n++;
	}
	fclose(f);
	return n ? 0 : -EIO;
}

static void vgpu_bar(unsigned int used, unsigned int max, unsigned int width)
{
	unsigned int i, fill = max ? (used * width + max - 1) / max : 0;

	putchar('[');
	for (i = 0; i < width; i++)
		putchar(i < fill ? '#' : '.');
	putchar(']');
}

static int vgpu_top_once(struct vgpu_nl *nl, const struct vgpu_info *info,
			 bool clear)
{
	unsigned int blocks[VGPUCTL_TOP_MAX_SMS], fw[VGPUCTL_TOP_MAX_SMS], i, nsm;
	const struct vgpu_dev_config *c = &info->config;
	const struct vgpu_nl_counters *s;
	struct vgpu_nl_stats st;
	struct vgpu_nl_dev d;
	bool dbg;
	int ret;

	ret = vgpul_nl_dev_get(nl, vgpuctl_index, &d);
	if (!ret)
		ret = vgpul_nl_stats_get(nl, vgpuctl_index, &st);
	if (ret) {
		vgpuctl_nl_error("top", "netlink", vgpuctl_index, ret);
		return ret;
	}
	nsm = c->num_sms < VGPUCTL_TOP_MAX_SMS ? c->num_sms : VGPUCTL_TOP_MAX_SMS;
	dbg = !vgpu_top_debugfs(d.name, nsm, blocks, fw);
	if (clear)
		printf("\033[H\033[2J");
	s = &st.dev;
	printf("vgpuctl top - /dev/vgpu%u %s (%s, %u SMs)  cycle %llu  policy %s  preempt %s\n",
	       vgpuctl_index, d.name, d.preset, c->num_sms,
	       (unsigned long long)s->v[VGPU_A_STATS_NOW], d.policy,
	       vgpul_nl_preempt_name(d.preempt));
	printf("kernels: %llu submitted, %llu completed, %llu cancelled, %llu hangs; blocks %llu, preemptions %llu, events dropped %llu\n\n",
	       (unsigned long long)s->v[VGPU_A_STATS_SUBMITTED],
	       (unsigned long long)s->v[VGPU_A_STATS_COMPLETED],
	       (unsigned long long)s->v[VGPU_A_STATS_CANCELLED],
	       (unsigned long long)s->v[VGPU_A_STATS_HANGS],
	       (unsigned long long)s->v[VGPU_A_STATS_BLOCKS],
	       (unsigned long long)s->v[VGPU_A_STATS_PREEMPTIONS],
	       (unsigned long long)s->v[VGPU_A_STATS_EVENTS_DROPPED]);
	printf("  SM  blocks %-22s  warps %-22s  done\n", "", "");
	for (i = 0; i < nsm && i < st.n_sm; i++) {
		const struct vgpu_nl_counters *m = &st.sm[i];
		unsigned int b, w;

		if (dbg) {
			b = blocks[i];
			w = c->max_warps_per_sm - fw[i];
		} else {	/* resident = placed - switched out - finished */
			b = m->v[VGPU_A_STATS_BLOCKS] -
			    m->v[VGPU_A_STATS_PREEMPTIONS] -
			    m->v[VGPU_A_STATS_BLOCKS_DONE] -
			    m->v[VGPU_A_STATS_BLOCKS_CANCELLED];
			w = 0;
		}
		printf("  %2u  %3u/%-3u ", i, b, c->max_blocks_per_sm);
		vgpu_bar(b, c->max_blocks_per_sm, 20);
		if (dbg) {
			printf("  %3u/%-3u ", w, c->max_warps_per_sm);
			vgpu_bar(w, c->max_warps_per_sm, 20);
		} else {
			printf("  %-30s", "(debugfs not readable)");
		}
		printf("  %llu\n",
		       (unsigned long long)m->v[VGPU_A_STATS_BLOCKS_DONE]);
	}
	printf("\n  channel prio  submitted  completed  progress\n");
	for (i = 0; i < st.n_chan; i++) {
		const struct vgpu_nl_counters *ch = &st.chan[i];
		uint64_t sub = ch->v[VGPU_A_STATS_SUBMITTED];
		uint64_t done = ch->v[VGPU_A_STATS_COMPLETED];

		printf("  %7llu %4llu %10llu %10llu  ",
		       (unsigned long long)ch->v[VGPU_A_STATS_ID],
		       (unsigned long long)ch->v[VGPU_A_STATS_PRIO],
		       (unsigned long long)sub, (unsigned long long)done);
		vgpu_bar(done, sub, 20);
		putchar('\n');
	}
	if (!st.n_chan)
		printf("  (no channels)\n");
	fflush(stdout);
	vgpul_nl_stats_free(&st);
	return 0;
}

static int vgpuctl_top(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "iterations", required_argument, NULL, 'n' },
		{ "interval", required_argument, NULL, 'i' },
		{ "batch", no_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int iters = 0, interval = 1000, k;
	bool batch = !vgpuctl_fancy_tty(1);
	struct vgpu_info info;
	struct vgpu_nl *nl;
	struct timespec ts;
	int c, ret, status = 0;

	while ((c = vgpuctl_getopt(argc, argv, "+n:i:bh", opts, &status)) > 0) {
		switch (c) {
		case 'n':
		case 'i':
			if (!vgpul_cli_u32(optarg, c == 'n' ? &iters : &interval)) {
				fprintf(stderr, "vgpuctl top: bad number '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'b':
			batch = true;
			break;
		}
	}
	if (!c)
		return status;
	if (optind != argc) {
		vgpuctl_cmd_usage(stderr, "top");
		return 2;
	}
	if (vgpuctl_get_info("top", "GET_INFO", &info))
		return 1;
	if (vgpuctl_nl_or_complain("top", &nl))
		return 1;
	signal(SIGINT, vgpuctl_on_signal);
	for (k = 0; !vgpuctl_stop && (!iters || k < iters); k++) {
		if (k && batch)
			printf("\n");
		ret = vgpu_top_once(nl, &info, !batch);
		if (ret)
			break;
		if (iters && k + 1 == iters)
			break;
		/* display refresh period, not synchronisation */
		ts.tv_sec = interval / 1000;
		ts.tv_nsec = (interval % 1000) * 1000000L;
		nanosleep(&ts, NULL);
	}
	vgpul_nl_close(nl);
	return ret ? 1 : 0;
}

const struct vgpul_cli_cmd vgpuctl_cmd_top = {
	.name = "top",
	.usage = "[-n ITERATIONS] [-i MS] [-b]",
	.summary = "live per-SM occupancy and per-channel progress of -d N; -b: no\n"
		   "screen clearing (default when stdout is not a terminal)",
	.run = vgpuctl_top,
};
