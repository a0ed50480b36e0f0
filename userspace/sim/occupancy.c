// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-sim occupancy: blocks per empty SM of a preset (SPEC F03).
 */
#include <getopt.h>
#include <string.h>

#include "sim.h"
#include "occupancy.h"

static const char *const vgpu_sim_limit_names[] = {
	"warps", "regs", "smem", "blocks",	/* VGPU_LIMIT_* bit order */
	"barriers", "sregs",
};

static int vgpu_sim_occupancy(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "preset", required_argument, NULL, 'p' },
		{ "threads", required_argument, NULL, 't' },
		{ "regs", required_argument, NULL, 'r' },
		{ "smem", required_argument, NULL, 's' },
		{ "sregs", required_argument, NULL, 'S' },
		{ "sregs-per-subpart", required_argument, NULL, 'P' },
		{ "sreg-unit", required_argument, NULL, 'U' },
		{ "formula", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint32_t threads = 0, regs = 0, smem = 0, sregs = 0;
	uint32_t sregs_per_subpart = 0, sreg_unit = 0;
	bool have_t = false, have_r = false, formula = false;
	const char *preset = NULL;
	struct vgpu_occupancy occ;
	struct vgpu_config cfg;
	const char *sep = "", *bad;
	int c, ret;
	size_t i;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			preset = optarg;
			break;
		case 't':
			if (!vgpu_sim_parse_u32(optarg, &threads))
				return vgpu_sim_usage_error("occupancy",
					"bad --threads '%s'", optarg);
			have_t = true;
			break;
		case 'r':
			if (!vgpu_sim_parse_u32(optarg, &regs))
				return vgpu_sim_usage_error("occupancy",
					"bad --regs '%s'", optarg);
			have_r = true;
			break;
		case 's':
			if (!vgpu_sim_parse_u32(optarg, &smem))
				return vgpu_sim_usage_error("occupancy",
					"bad --smem '%s'", optarg);
			break;
		case 'S':
			if (!vgpu_sim_parse_u32(optarg, &sregs))
				return vgpu_sim_usage_error("occupancy",
					"bad --sregs '%s'", optarg);
			break;
		case 'P':
			if (!vgpu_sim_parse_u32(optarg, &sregs_per_subpart))
				return vgpu_sim_usage_error("occupancy",
					"bad --sregs-per-subpart '%s'", optarg);
			break;
		case 'U':
			if (!vgpu_sim_parse_u32(optarg, &sreg_unit))
				return vgpu_sim_usage_error("occupancy",
					"bad --sreg-unit '%s'", optarg);
			break;
		case 'f':
			formula = true;
			break;
		case 'h':
			vgpu_sim_print_usage(stdout, "vgpu-sim",
					     &vgpu_sim_cmd_occupancy);
			return 0;
		default:
			return vgpu_sim_usage_error("occupancy",
				"unknown or incomplete option '%s'",
				argv[optind - 1]);
		}
	}
	if (optind < argc)
		return vgpu_sim_usage_error("occupancy",
					    "unexpected argument '%s'",
					    argv[optind]);
	if (!preset)
		return vgpu_sim_usage_error("occupancy", "--preset is required");
	if (vgpu_config_preset(&cfg, preset))
		return vgpu_sim_usage_error("occupancy",
			"unknown preset '%s' (a100, h100 or small)", preset);
	/* the scalar register file of seed 001 [0042], as new_device's keys */
	cfg.sregs_per_subpart = sregs_per_subpart;
	cfg.sreg_unit = sreg_unit;
	if (vgpu_config_validate(&cfg, &bad))
		return vgpu_sim_usage_error("occupancy", "bad %s", bad);
	if (!have_t || !have_r)
		return vgpu_sim_usage_error("occupancy",
					    "--threads and --regs are required");
	if (!threads)
		return vgpu_sim_usage_error("occupancy",
					    "--threads must be at least 1");
	if (formula)
		ret = vgpu_occupancy_formula(&cfg, threads, regs, smem, sregs,
					     &occ);
	else
		ret = vgpu_occupancy_place(&cfg, threads, regs, smem, sregs,
					   &occ);
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

const struct vgpu_sim_cmd vgpu_sim_cmd_occupancy = {
	.name = "occupancy",
	.summary = "how many copies of a block fit on an empty SM (F03)",
	.usage = "--preset a100|h100|small --threads T --regs R "
		 "[--smem BYTES]\n"
		 "    [--sregs N --sregs-per-subpart S --sreg-unit U] [--formula]\n"
		 "Prints 'blocks=N warps=M limit=L', L = the binding limiters\n"
		 "among warps, regs, smem, blocks, sregs joined by '+'.  --sregs:\n"
		 "scalar registers per warp in a scalar file of S registers per\n"
		 "sub-partition, allocated in units of U (seed 001 [0042]; a\n"
		 "preset has none).  Blocks are\n"
		 "placed with the real allocator; --formula uses the closed\n"
		 "formula instead (they agree).",
	.run = vgpu_sim_occupancy,
};
