// SPDX-License-Identifier: GPL-2.0
/*
 * dev.c - vgpuctl dev: add and del device instances (/sys/bus/vgpu),
 * list them (netlink dump).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vgpuctl.h"

static int vgpuctl_dev(int argc, char **argv)
{
	struct vgpu_nl_dev devs[16];
	struct vgpu_nl *nl;
	unsigned int id;
	char opts[400];
	size_t off = 0;
	int i, n, ret;

	if (vgpuctl_wants_help(argc, argv)) {
		vgpuctl_cmd_usage(stdout, "dev");
		return 0;
	}
	if (argc < 2 || (strcmp(argv[1], "list") && argc < 3)) {
		vgpuctl_cmd_usage(stderr, "dev");
		return 2;
	}
	if (!strcmp(argv[1], "list")) {
		if (vgpuctl_nl_or_complain("dev list", &nl))
			return 1;
		n = vgpul_nl_dev_list(nl, devs, 16);
		vgpul_nl_close(nl);
		if (n < 0) {
			vgpuctl_nl_error("dev list", "DEV_GET", 0, n);
			return 1;
		}
		for (i = 0; i < n && i < 16; i++)
			printf("vgpu%u %s preset=%s sms=%u policy=%s preempt=%s\n",
			       devs[i].index, devs[i].name, devs[i].preset,
			       devs[i].num_sms, devs[i].policy,
			       vgpul_nl_preempt_name(devs[i].preempt));
		return 0;
	}
	if (!vgpul_cli_u32(argv[2], &id) || id > 15) {
		fprintf(stderr, "vgpuctl dev: bad device index '%s' (0-15)\n",
			argv[2]);
		return 2;
	}
	if (!strcmp(argv[1], "add")) {
		opts[0] = 0;
		for (i = 3; i < argc; i++) {
			n = snprintf(opts + off, sizeof(opts) - off, "%s%s",
				     off ? " " : "", argv[i]);
			if (n < 0 || (size_t)n >= sizeof(opts) - off) {
				fprintf(stderr, "vgpuctl dev add: options too long\n");
				return 2;
			}
			off += n;
		}
		ret = vgpul_dev_add(id, opts);
		if (ret) {
			vgpuctl_dev_error("dev add", "new_device", ret);
			return 1;
		}
		printf("/dev/vgpu%u created\n", id);
		return 0;
	}
	if (!strcmp(argv[1], "del")) {
		if (argc != 3) {
			vgpuctl_cmd_usage(stderr, "dev");
			return 2;
		}
		ret = vgpul_dev_del(id);
		if (ret) {
			vgpuctl_dev_error("dev del", "del_device", ret);
			return 1;
		}
		printf("/dev/vgpu%u destroyed\n", id);
		return 0;
	}
	fprintf(stderr, "vgpuctl dev: unknown subcommand '%s' (add, del, list)\n",
		argv[1]);
	return 2;
}

const struct vgpul_cli_cmd vgpuctl_cmd_dev = {
	.name = "dev",
	.usage = "add ID [PRESET] [key=value...] | del ID | list",
	.summary = "create or destroy device instances (/sys/bus/vgpu, root), list devices",
	.run = vgpuctl_dev,
};
