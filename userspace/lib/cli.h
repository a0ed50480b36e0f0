/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - command-line pieces vgpu-sim and vgpuctl share, compiled into
 * libvgpu's objects but not exported (not in libvgpu.map) and not
 * installed: the command table entry of both tools, and the --priority
 * TENANT=P and --offset TENANT=CYCLES options of import and run.
 */
#ifndef VGPUL_CLI_H
#define VGPUL_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <vgpu/workload.h>

/**
 * struct vgpul_cli_cmd - one command of vgpu-sim or vgpuctl
 * @name: the word on the command line
 * @usage: its arguments (vgpu-sim: and what they mean), for --help
 * @summary: what it does, for --help
 * @run: entry point; argv[0] is @name; returns the exit status
 *	(0 ok, 1 failure, 2 usage error)
 */
struct vgpul_cli_cmd {
	const char *name;
	const char *usage;
	const char *summary;
	int (*run)(int argc, char **argv);
};

/**
 * vgpul_tenant_pair() - parse "TENANT=VALUE"
 * @s: the text
 * @n: tenants: TENANT must be below
 * @tenant: the tenant
 * @value: the value
 *
 * Return: true for two whole decimal numbers, TENANT < @n.
 */
bool vgpul_tenant_pair(const char *s, uint32_t n, uint32_t *tenant,
		       uint64_t *value);

/**
 * vgpul_tenant_args() - apply --priority and --offset arguments to a
 *	loaded workload (vgpul_workload_shape(); the last one of a tenant
 *	wins)
 * @wl: the workload
 * @prio_arg: @np "TENANT=P" arguments
 * @np: their number
 * @off_arg: @no "TENANT=CYCLES" arguments
 * @no: their number
 * @err: "bad --priority '...' (...)" and the like
 * @errlen: its size
 *
 * Return: 0, -EINVAL for a bad argument, or -ENOMEM.
 */
int vgpul_tenant_args(struct vgpu_workload *wl, const char *const *prio_arg,
		      unsigned int np, const char *const *off_arg,
		      unsigned int no, char *err, size_t errlen);

#endif /* VGPUL_CLI_H */
