// SPDX-License-Identifier: GPL-2.0
/*
 * vgpuctl - command-line interface of vgpu-dispatch (F66, F67).
 *
 *   vgpuctl [-d N] info              version, capabilities, configuration
 *   vgpuctl [-d N] stats [-j]        counters (netlink STATS_GET)
 *   vgpuctl [-d N] config [KEY VAL]  show or change the scheduler (CONFIG_SET)
 *   vgpuctl dev add|del|list         device instances
 *   vgpuctl run [opts] WORKLOAD      run a workload file through the module
 *   vgpuctl compare --policy A ...   the same under several policies
 *   vgpuctl trace -o OUT [-- CMD]    netlink events as Chrome trace JSON
 *   vgpuctl [-d N] top               live SM occupancy and channel progress
 *
 * One file per command (info.c, stats.c, ...), each with its descriptor
 * (struct vgpul_cli_cmd), as iproute2 and git do; this one parses the
 * global options, dispatches and generates the help from the
 * descriptors.
 * Documentation/man/vgpuctl.1 describes every command.
 */
#include <getopt.h>
#include <string.h>

#include "vgpuctl.h"

#define VGPUCTL_CMD_ENTRY(n) &vgpuctl_cmd_##n,
static const struct vgpul_cli_cmd *const vgpuctl_cmds[] = {
	VGPUCTL_COMMANDS(VGPUCTL_CMD_ENTRY)
};

#define VGPUCTL_NCMDS	(sizeof(vgpuctl_cmds) / sizeof(vgpuctl_cmds[0]))

static void vgpuctl_usage(FILE *f)
{
	fprintf(f,
		"usage: vgpuctl [-d N] COMMAND [ARGS]\n"
		"\n"
		"  -d, --device N  use /dev/vgpuN (default 0)\n"
		"  -h, --help      this help; vgpuctl COMMAND --help for a command\n"
		"\n"
		"Numbers are decimal, or hexadecimal after 0x.\n"
		"\n"
		"commands:\n");
	vgpul_cli_list(f, vgpuctl_cmds, VGPUCTL_NCMDS);
}

void vgpuctl_cmd_usage(FILE *f, const char *name)
{
	const struct vgpul_cli_cmd *c = vgpul_cli_find(vgpuctl_cmds,
						       VGPUCTL_NCMDS, name);

	if (c)
		fprintf(f, "usage: vgpuctl [-d N] %s %s\n\n%s\n", c->name,
			c->usage, c->summary);
}

/* True when argv[1] asks for help (-h / --help anywhere before "--"). */
bool vgpuctl_wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "device", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	const struct vgpul_cli_cmd *cmd;
	int c;

	while ((c = getopt_long(argc, argv, "+hd:", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			vgpuctl_usage(stdout);
			return 0;
		case 'd':
			if (!vgpul_cli_u32(optarg, &vgpuctl_index) ||
			    vgpuctl_index > 15) {
				fprintf(stderr, "vgpuctl: bad device index '%s' (0-15)\n",
					optarg);
				return 2;
			}
			vgpuctl_index_set = true;
			break;
		default:
			vgpuctl_usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		vgpuctl_usage(stderr);
		return 2;
	}
	cmd = vgpul_cli_find(vgpuctl_cmds, VGPUCTL_NCMDS, argv[optind]);
	if (cmd && vgpuctl_wants_help(argc - optind, argv + optind)) {
		vgpuctl_cmd_usage(stdout, cmd->name);
		return 0;
	}
	if (cmd)
		return cmd->run(argc - optind, argv + optind);
	fprintf(stderr, "vgpuctl: unknown command '%s'\n", argv[optind]);
	vgpuctl_usage(stderr);
	return 2;
}
