/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - what the command lines of vgpu-sim and vgpuctl share
 * (userspace/cli/cli.c, linked into both tools, part of neither library):
 * the command descriptor, the help listing generated from the
 * descriptors, the one number syntax of every option, and the
 * --priority TENANT=P and --offset TENANT=CYCLES options of import and run.
 *
 * Numbers: a whole unsigned decimal number ("010" is ten), or a
 * hexadecimal one after "0x" or "0X"; no sign, no blanks, no suffix.
 */
#ifndef VGPUL_CLI_H
#define VGPUL_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <vgpu/workload.h>

/**
 * struct vgpul_cli_cmd - one command of vgpu-sim or vgpuctl
 * @name: the word on the command line
 * @usage: its arguments (and what they mean, after a newline), for
 *	"TOOL COMMAND --help"
 * @summary: what it does, for "TOOL --help"; lines after the first are
 *	indented under it by vgpul_cli_list()
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
 * vgpul_cli_list() - the command list of a tool's --help
 * @f: stream
 * @cmds: the descriptors, in help order
 * @n: their number
 *
 * One entry per command: two spaces, the name padded to the longest name,
 * the summary, whose further lines are indented to the same column.
 */
void vgpul_cli_list(FILE *f, const struct vgpul_cli_cmd *const *cmds,
		    size_t n);

/**
 * vgpul_cli_find() - a command by name
 * @cmds: the descriptors
 * @n: their number
 * @name: the word on the command line
 *
 * Return: the descriptor, or NULL.
 */
const struct vgpul_cli_cmd *vgpul_cli_find(const struct vgpul_cli_cmd *const *cmds,
					   size_t n, const char *name);

/**
 * vgpul_cli_u64() - parse a whole number (the syntax above)
 * @s: the text
 * @v: the value, set only on success
 *
 * Return: true if @s is one that fits in 64 bits.
 */
bool vgpul_cli_u64(const char *s, uint64_t *v);

/**
 * vgpul_cli_u32() - vgpul_cli_u64() for 32 bits
 * @s: the text
 * @v: the value, set only on success
 *
 * Return: true if @s is one that fits in 32 bits.
 */
bool vgpul_cli_u32(const char *s, uint32_t *v);

/**
 * vgpul_tenant_pair() - parse "TENANT=VALUE"
 * @s: the text
 * @n: tenants: TENANT must be below
 * @tenant: the tenant
 * @value: the value
 *
 * Return: true for two whole numbers (vgpul_cli_u64()), TENANT < @n.
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
