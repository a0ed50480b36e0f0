// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-sim: subcommand dispatcher.  Commands register in sim.h.
 */
#include <errno.h>
#include <getopt.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sim.h"
#include "sm.h"
#include <vgpu/workload.h>

#define VGPU_SIM_CMD_ENTRY(n) &vgpu_sim_cmd_##n,
static const struct vgpul_cli_cmd *const vgpu_sim_cmds[] = {
	VGPU_SIM_COMMANDS(VGPU_SIM_CMD_ENTRY)
};

#define VGPU_SIM_NCMDS	(sizeof(vgpu_sim_cmds) / sizeof(vgpu_sim_cmds[0]))

int vgpu_sim_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "vgpu-sim%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'vgpu-sim %s%s--help'.\n", cmd ? cmd : "",
		cmd ? " " : "");
	return VGPU_SIM_EXIT_USAGE;
}

void vgpu_sim_print_usage(FILE *f, const char *prefix,
			  const struct vgpul_cli_cmd *cmd)
{
	fprintf(f, "Usage: %s %s %s\n%s\n", prefix, cmd->name, cmd->usage,
		cmd->summary);
}

int vgpu_sim_getopt(struct vgpu_sim_getopt *g, int argc, char **argv)
{
	char name[64];
	int c;

	snprintf(name, sizeof(name), "%s%s", g->bench ? "bench " : "",
		 g->cmd->name);
	if (!g->status) {
		/* the first call: optind 0 also resets getopt's state */
		optind = g->quiet ? 0 : 1;
		opterr = !g->quiet;
		g->status = -1;
	}
	c = getopt_long(argc, argv, g->quiet ? "" : "h", g->opts, &g->index);
	if (c == 'h') {
		vgpu_sim_print_usage(stdout, g->bench ? "vgpu-sim bench" :
				     "vgpu-sim", g->cmd);
		g->status = 0;
		return 0;
	}
	if (c == '?' || c == ':') {
		g->status = VGPU_SIM_EXIT_USAGE;
		if (g->quiet)
			vgpu_sim_usage_error(name,
				"unknown or incomplete option '%s'",
				argv[optind - 1]);
		else if (g->bad)
			vgpu_sim_usage_error(name, "%s", g->bad);
		return 0;
	}
	if (c == -1 && g->no_args && optind < argc) {
		g->status = vgpu_sim_usage_error(name,
						 "unexpected argument '%s'",
						 argv[optind]);
		return 0;
	}
	return c;
}

int vgpu_sim_arg(struct vgpu_sim_args *a)
{
	const char *w;
	char name[64];
	size_t k;

	if (++a->i >= a->argc)
		return 0;
	snprintf(name, sizeof(name), "%s%s", a->bench ? "bench " : "",
		 a->cmd->name);
	w = a->argv[a->i];
	a->opt = NULL;
	a->val = w;
	if (!strcmp(w, "--help") || !strcmp(w, "-h")) {
		vgpu_sim_print_usage(stdout, a->bench ? "vgpu-sim bench" :
				     "vgpu-sim", a->cmd);
		a->status = 0;
		return -1;
	}
	if (w[0] != '-' || !w[1])
		return 1;
	a->opt = w;
	a->val = NULL;
	for (k = 0; a->flags && a->flags[k]; k++)
		if (!strcmp(w, a->flags[k]))
			return 1;
	for (k = 0; a->valued[k]; k++) {
		if (strcmp(w, a->valued[k]))
			continue;
		if (a->i + 1 >= a->argc) {
			a->status = vgpu_sim_usage_error(name,
							 "%s needs a value", w);
			return -1;
		}
		a->val = a->argv[++a->i];
		return 1;
	}
	a->status = vgpu_sim_usage_error(name, "unknown option '%s'", w);
	return -1;
}

int vgpu_sim_mode_arg(const char *cmd, const char *opt, const char *v,
		      int *mode)
{
	if (!strcmp(opt, "--pack")) {
		*mode = vgpul_pack_parse(v);
		if (*mode < 0)
			return vgpu_sim_usage_error(cmd,
				"unknown packing '%s' (auto, block, sm)", v);
		return 0;
	}
	*mode = vgpul_preempt_parse(v);
	if (*mode < 0)
		return vgpu_sim_usage_error(cmd,
			"unknown preemption mode '%s' (drain, warp, switch)",
			v);
	return 0;
}

int vgpu_sim_threads_arg(const char *cmd, const char *v, uint32_t *threads)
{
	if (!vgpul_cli_u32(v, threads) || !*threads ||
	    *threads > VGPU_SIM_MAX_THREADS)
		return vgpu_sim_usage_error(cmd,
					    "--threads takes 1..%u, not '%s'",
					    VGPU_SIM_MAX_THREADS, v);
	return 0;
}

static void vgpu_sim_help(FILE *f)
{
	fprintf(f, "Usage: vgpu-sim <command> [options]\n"
		"Runs the vgpu-dispatch scheduling core in userspace.\n\n"
		"Commands:\n");
	vgpul_cli_list(f, vgpu_sim_cmds, VGPU_SIM_NCMDS);
	fprintf(f, "\n'vgpu-sim <command> --help' describes a command.\n"
		"Numbers are decimal, or hexadecimal after 0x.\n");
}

int main(int argc, char **argv)
{
	const struct vgpul_cli_cmd *cmd;

	if (argc < 2) {
		vgpu_sim_help(stderr);
		return VGPU_SIM_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		vgpu_sim_help(stdout);
		return 0;
	}
	cmd = vgpul_cli_find(vgpu_sim_cmds, VGPU_SIM_NCMDS, argv[1]);
	if (cmd)
		return cmd->run(argc - 1, argv + 1);
	return vgpu_sim_usage_error(NULL, "unknown command '%s'", argv[1]);
}

struct vgpu_sm *vgpu_sim_sm_alloc(void)
{
	struct vgpu_sm *sm = aligned_alloc(alignof(struct vgpu_sm),
					   sizeof(*sm));

	if (sm)
		memset(sm, 0, sizeof(*sm));
	return sm;
}

#define VGPU_SIM_HUGE_PAGE	(2UL << 20)

void *vgpu_sim_gpu_mem_alloc(size_t size)
{
	void *mem;

	size = (size + VGPU_SIM_HUGE_PAGE - 1) & ~(VGPU_SIM_HUGE_PAGE - 1);
	mem = aligned_alloc(VGPU_SIM_HUGE_PAGE, size);
	if (!mem)
		return NULL;
	madvise(mem, size, MADV_HUGEPAGE);
	memset(mem, 0, size);
	return mem;
}
