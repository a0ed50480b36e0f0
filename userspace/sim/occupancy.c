// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-sim occupancy: blocks per empty SM of a preset (F03).
 */
#include <getopt.h>
#include <string.h>

#include "sim.h"
#include "occupancy.h"

static const char *const vgpu_sim_limit_names[] = {
	"warps", "regs", "smem", "blocks",	/* VGPU_LIMIT_* bit order */
	"barriers", "sregs",
};

/* Options of occupancy; the numbers first, in the order of their values. */
enum {
	VGPU_OCC_THREADS, VGPU_OCC_REGS, VGPU_OCC_SMEM, VGPU_OCC_SREGS,
	VGPU_OCC_SREGS_PER_SUBPART, VGPU_OCC_SREG_UNIT, VGPU_OCC_NUMBERS,
};

static int vgpu_sim_occupancy(int argc, char **argv)
{
	static const struct option opts[] = {
		/* distinct values: "--sreg" stays ambiguous */
		[VGPU_OCC_THREADS] = { "threads", required_argument, NULL, 't' },
		[VGPU_OCC_REGS] = { "regs", required_argument, NULL, 'r' },
		[VGPU_OCC_SMEM] = { "smem", required_argument, NULL, 's' },
		[VGPU_OCC_SREGS] = { "sregs", required_argument, NULL, 'S' },
		[VGPU_OCC_SREGS_PER_SUBPART] = { "sregs-per-subpart",
						 required_argument, NULL, 'P' },
		[VGPU_OCC_SREG_UNIT] = { "sreg-unit", required_argument, NULL,
					 'U' },
		{ "preset", required_argument, NULL, 'p' },
		{ "formula", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vgpu_sim_getopt g = { .cmd = &vgpu_sim_cmd_occupancy,
				     .opts = opts, .quiet = true,
				     .no_args = true };
	uint32_t num[VGPU_OCC_NUMBERS] = { 0 };
	bool have[VGPU_OCC_NUMBERS] = { false }, formula = false;
	const char *preset = NULL;
	struct vgpu_occupancy occ;
	struct vgpu_config cfg;
	const char *sep = "", *bad;
	int c, ret;
	size_t i;

	while ((c = vgpu_sim_getopt(&g, argc, argv)) > 0) {
		if (c == 'p') {
			preset = optarg;
		} else if (c == 'f') {
			formula = true;
		} else {
			if (!vgpul_cli_u32(optarg, &num[g.index]))
				return vgpu_sim_usage_error("occupancy",
					"bad --%s '%s'", opts[g.index].name,
					optarg);
			have[g.index] = true;
		}
	}
	if (!c)
		return g.status;
	if (!preset)
		return vgpu_sim_usage_error("occupancy", "--preset is required");
	if (vgpu_config_preset(&cfg, preset))
		return vgpu_sim_usage_error("occupancy",
			"unknown preset '%s' (a100, h100 or small)", preset);
	/* the scalar register file of seed 001 [0042], as new_device's keys */
	cfg.sregs_per_subpart = num[VGPU_OCC_SREGS_PER_SUBPART];
	cfg.sreg_unit = num[VGPU_OCC_SREG_UNIT];
	if (vgpu_config_validate(&cfg, &bad))
		return vgpu_sim_usage_error("occupancy", "bad %s", bad);
	if (!have[VGPU_OCC_THREADS] || !have[VGPU_OCC_REGS])
		return vgpu_sim_usage_error("occupancy",
					    "--threads and --regs are required");
	if (!num[VGPU_OCC_THREADS])
		return vgpu_sim_usage_error("occupancy",
					    "--threads must be at least 1");
	if (formula)
		ret = vgpu_occupancy_formula(&cfg, num[VGPU_OCC_THREADS],
					     num[VGPU_OCC_REGS],
					     num[VGPU_OCC_SMEM],
					     num[VGPU_OCC_SREGS], &occ);
	else
		ret = vgpu_occupancy_place(&cfg, num[VGPU_OCC_THREADS],
					   num[VGPU_OCC_REGS],
					   num[VGPU_OCC_SMEM],
					   num[VGPU_OCC_SREGS], &occ);
	if (ret)
		return vgpu_sim_usage_error("occupancy", "invalid block");
	printf("blocks=%u warps=%u limit=", occ.blocks, occ.warps);
	for (i = 0; i < ARRAY_SIZE(vgpu_sim_limit_names); i++) {
		if (occ.limit & (1u << i)) {
			printf("%s%s", sep, vgpu_sim_limit_names[i]);
			sep = "+";
		}
	}
	printf("\n");
	return 0;
}

const struct vgpul_cli_cmd vgpu_sim_cmd_occupancy = {
	.name = "occupancy",
	.summary = "how many copies of a block fit on an empty SM",
	.usage = "--preset a100|h100|small --threads T --regs R "
		 "[--smem BYTES]\n"
		 "    [--sregs N --sregs-per-subpart S --sreg-unit U] [--formula]\n"
		 "Prints 'blocks=N warps=M limit=L', L = the binding limiters\n"
		 "among warps, regs, smem, blocks, sregs joined by '+'.  --sregs:\n"
		 "scalar registers per warp in a scalar file of S registers per\n"
		 "sub-partition, allocated in units of U (a preset has no\n"
		 "scalar register file).  Blocks are\n"
		 "placed with the real allocator; --formula uses the closed\n"
		 "formula instead (they agree).",
	.run = vgpu_sim_occupancy,
};
