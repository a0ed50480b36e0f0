// SPDX-License-Identifier: GPL-2.0
/*
 * vgpuctl - command-line interface of vgpu-dispatch (SPEC F66, F67).
 *
 *   vgpuctl [-d N] info              version, capabilities, configuration
 *   vgpuctl [-d N] stats [-j]        counters (netlink STATS_GET)
 *   vgpuctl [-d N] config [KEY VAL]  show or change the scheduler (CONFIG_SET)
 *   vgpuctl dev add|del|list         device instances
 *   vgpuctl run [opts] WORKLOAD      run a workload file through the module
 *   vgpuctl trace -o OUT [-- CMD]    netlink events as Chrome trace JSON
 *   vgpuctl [-d N] top               live SM occupancy and channel progress
 *
 * One file per command (info.c, stats.c, ...), as iproute2 and git do;
 * this one parses the global options and dispatches.
 * Documentation/man/vgpuctl.1 describes every command.
 */
#include <getopt.h>
#include <string.h>

#include "vgpuctl.h"

static const struct vgpul_cli_cmd vgpuctl_cmds[];

static void vgpuctl_usage(FILE *f)
{
	const struct vgpul_cli_cmd *c;

	fprintf(f,
		"usage: vgpuctl [-d N] COMMAND [ARGS]\n"
		"\n"
		"  -d, --device N  use /dev/vgpuN (default 0)\n"
		"  -h, --help      this help; vgpuctl COMMAND --help for a command\n"
		"\n"
		"commands:\n");
	for (c = vgpuctl_cmds; c->name; c++)
		fprintf(f, "  %-7s %s\n", c->name, c->summary);
}

void vgpuctl_cmd_usage(FILE *f, const char *name)
{
	const struct vgpul_cli_cmd *c;

	for (c = vgpuctl_cmds; c->name; c++)
		if (!strcmp(c->name, name))
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

static const struct vgpul_cli_cmd vgpuctl_cmds[] = {
	{ "info", "",
	  "version, capabilities and configuration of /dev/vgpuN (GET_INFO)",
	  vgpuctl_cmd_info },
	{ "stats", "[-j|--json]",
	  "device, per-SM, per-priority and per-channel counters (netlink\n"
	  "          STATS_GET) of -d N or of every device; -j: JSON array",
	  vgpuctl_cmd_stats },
	{ "config", "[policy NAME] [preempt drain|warp|switch] [windows L1,L2,...|off]\n"
	  "          [timeout CYCLES] [event-budget N] [sync-cost CYCLES]\n"
	  "          [pack auto|block|sm] [search exact|grouped|sampled]\n"
	  "          [search-group UNITS] [search-latency 0..3]\n"
	  "          [throttle-sms N] [combo 0..100]",
	  "show the scheduler configuration of -d N, or change it (netlink\n"
	  "          CONFIG_SET, needs CAP_NET_ADMIN)",
	  vgpuctl_cmd_config },
	{ "dev", "add ID [PRESET] [key=value...] | del ID | list",
	  "create or destroy device instances (/sys/bus/vgpu, root), list devices",
	  vgpuctl_cmd_dev },
	{ "run", "[--preempt MODE] [--policy NAME] [--workers N] [--id ID]\n"
	  "          [--alone-id ID] [--no-alone] [-q|--quiet]\n"
	  "          [--priority TENANT=P] [--offset TENANT=CYCLES] WORKLOAD",
	  "run a workload file or a recording on a fresh device instance\n"
	  "          (root), each tenant on an open file of its own, then each\n"
	  "          kernel and each tenant alone; prints the lines of vgpu-sim\n"
	  "          run (times, STP, ANTT, fairness, preemption latency, trace\n"
	  "          hash, tenants); progress on stderr when it is a terminal,\n"
	  "          unless -q; --priority and --offset shape the tenants' mix",
	  vgpuctl_cmd_run },
	{ "compare", "--policy NAME --policy NAME [...] [--preempt MODE]\n"
	  "          [--workers N] [--id ID] [--alone-id ID] [--no-alone] [-q]\n"
	  "          WORKLOAD",
	  "run a workload through the module under each policy (built in, or\n"
	  "          a loaded vgpu_policy_NAME.ko) and print one table, a column\n"
	  "          per policy: the metrics of run and each kernel's turnaround\n"
	  "          (as vgpu-sim compare, issue 17)",
	  vgpuctl_cmd_run },
	{ "trace", "-o OUT.json [-c COUNT] [-- CMD [ARGS...]]",
	  "record netlink events (of -d N, or every device) as Chrome trace\n"
	  "          JSON for Perfetto, while CMD runs, until COUNT events or Ctrl-C",
	  vgpuctl_cmd_trace },
	{ "top", "[-n ITERATIONS] [-i MS] [-b]",
	  "live per-SM occupancy and per-channel progress of -d N; -b: no\n"
	  "          screen clearing (default when stdout is not a terminal)",
	  vgpuctl_cmd_top },
	{ NULL, NULL, NULL, NULL },
};

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
			if (!vgpuctl_parse_u32(optarg, &vgpuctl_index) ||
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
	for (cmd = vgpuctl_cmds; cmd->name; cmd++) {
		if (strcmp(cmd->name, argv[optind]))
			continue;
		if (cmd->run != vgpuctl_cmd_trace && cmd->run != vgpuctl_cmd_run &&
		    vgpuctl_wants_help(argc - optind, argv + optind)) {
			vgpuctl_cmd_usage(stdout, cmd->name);
			return 0;
		}
		return cmd->run(argc - optind, argv + optind);
	}
	fprintf(stderr, "vgpuctl: unknown command '%s'\n", argv[optind]);
	vgpuctl_usage(stderr);
	return 2;
}
