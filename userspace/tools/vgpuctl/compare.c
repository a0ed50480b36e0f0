// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c - vgpuctl compare: a workload through the module under each
 * of several policies, one column per policy (the table of vgpu-sim
 * compare).  The work is vgpuctl run's (run.c), which tells the two apart
 * by the command's name.
 */
#include "vgpuctl.h"

const struct vgpul_cli_cmd vgpuctl_cmd_compare = {
	.name = "compare",
	.usage = "--policy NAME --policy NAME [...] [--preempt MODE]\n"
		 "          [--workers N] [--id ID] [--alone-id ID] [--no-alone] [-q]\n"
		 "          WORKLOAD",
	.summary = "run a workload through the module under each policy (built in,\n"
		   "or a loaded vgpu_policy_NAME.ko) and print one table, a\n"
		   "column per policy: the metrics of run and each kernel's\n"
		   "turnaround, as vgpu-sim compare prints them",
	.run = vgpuctl_run_workload,
};
