// SPDX-License-Identifier: GPL-2.0
/*
 * vgpuctl - command-line interface of vgpu-dispatch (SPEC F66).
 *
 *   vgpuctl [-d N] info     device version, capabilities and configuration
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vgpu/vgpu.h>

static void vgpu_usage(FILE *f)
{
	fprintf(f,
		"usage: vgpuctl [-d N] COMMAND\n"
		"\n"
		"  -d N        use /dev/vgpuN (default 0)\n"
		"  -h, --help  this help\n"
		"\n"
		"commands:\n"
		"  info        version, capabilities and configuration of the device\n");
}

static const char *const vgpu_preset_names[] = {
	[VGPU_PRESET_CUSTOM] = "custom",
	[VGPU_PRESET_SMALL] = "small",
	[VGPU_PRESET_A100] = "a100",
	[VGPU_PRESET_H100] = "h100",
};

static int vgpu_cmd_info(struct vgpu_dev *dev)
{
	const struct vgpu_dev_config *c;
	struct vgpu_info info;
	int ret;

	ret = vgpu_get_info(dev, &info);
	if (ret) {
		fprintf(stderr, "vgpuctl: GET_INFO on /dev/vgpu%u: %s\n",
			dev->index, vgpu_strerror(ret));
		return 1;
	}
	c = &info.config;
	printf("device:     /dev/vgpu%u\n", info.dev_index);
	printf("version:    %u.%u.%u\n", info.version_major,
	       info.version_minor, info.version_patch);
	printf("caps:       0x%llx\n", (unsigned long long)info.caps);
	printf("preset:     %s (%.16s)\n",
	       c->preset < 4 ? vgpu_preset_names[c->preset] : "?", c->name);
	printf("sms:        %u x %u sub-partitions\n", c->num_sms, c->subparts);
	printf("registers:  %u per sub-partition, unit %u\n",
	       c->regs_per_subpart, c->reg_unit);
	printf("warps:      %u per sub-partition, %u per SM, %u threads each\n",
	       c->warps_per_subpart, c->max_warps_per_sm, c->warp_size);
	printf("blocks:     %u per SM, %u threads max, %u barriers per SM\n",
	       c->max_blocks_per_sm, c->max_threads_per_block,
	       c->max_barriers_per_sm);
	printf("shared mem: %u B per SM, unit %u B, %u B reserved per block, %u B max per block\n",
	       c->smem_per_sm, c->smem_unit, c->smem_reserve,
	       c->smem_max_per_block);
	printf("priorities: %u (0 is the highest)\n", c->num_prios);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "device", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	struct vgpu_dev dev;
	unsigned int index = 0;
	int c, ret;

	while ((c = getopt_long(argc, argv, "+hd:", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			vgpu_usage(stdout);
			return 0;
		case 'd':
			index = strtoul(optarg, NULL, 0);
			break;
		default:
			vgpu_usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		vgpu_usage(stderr);
		return 2;
	}
	if (strcmp(argv[optind], "info")) {
		fprintf(stderr, "vgpuctl: unknown command '%s'\n", argv[optind]);
		vgpu_usage(stderr);
		return 2;
	}
	ret = vgpu_dev_open(index, &dev);
	if (ret) {
		fprintf(stderr, "vgpuctl: /dev/vgpu%u: %s\n", index,
			vgpu_strerror(ret));
		return 1;
	}
	ret = vgpu_cmd_info(&dev);
	vgpu_dev_close(&dev);
	return ret;
}
