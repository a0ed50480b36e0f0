// SPDX-License-Identifier: GPL-2.0
/*
 * info.c - vgpuctl info: GET_INFO of /dev/vgpuN.
 */
#include <errno.h>
#include <string.h>

#include "vgpuctl.h"

static const char *const vgpu_preset_names[] = {
	[VGPU_PRESET_CUSTOM] = "custom",
	[VGPU_PRESET_SMALL] = "small",
	[VGPU_PRESET_A100] = "a100",
	[VGPU_PRESET_H100] = "h100",
};

static int vgpuctl_info(int argc, char **argv)
{
	const struct vgpu_dev_config *c;
	struct vgpu_info info;
	char what[64];

	if (argc > 1) {
		vgpuctl_cmd_usage(stderr, "info");
		return 2;
	}
	snprintf(what, sizeof(what), "GET_INFO on /dev/vgpu%u", vgpuctl_index);
	if (vgpuctl_get_info("info", what, &info))
		return 1;
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
	printf("workers:    %u\n", info.workers);
	printf("cycle:      %llu\n", (unsigned long long)info.cycle);
	printf("trace_hash: 0x%016llx\n", (unsigned long long)info.trace_hash);
	return 0;
}

const struct vgpul_cli_cmd vgpuctl_cmd_info = {
	.name = "info",
	.usage = "",
	.summary = "version, capabilities and configuration of /dev/vgpuN (GET_INFO)",
	.run = vgpuctl_info,
};
