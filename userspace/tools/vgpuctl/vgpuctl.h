/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpuctl.h - what the command files of vgpuctl share (main.c dispatches,
 * util.c holds the helpers, one file per command with its descriptor).
 * Internal to vgpuctl.
 */
#ifndef VGPUCTL_H
#define VGPUCTL_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <vgpu/vgpu.h>

#include "cli.h"	/* struct vgpul_cli_cmd: a command */

extern unsigned int vgpuctl_index;	/* -d N */
extern bool vgpuctl_index_set;		/* -d given */
extern volatile sig_atomic_t vgpuctl_stop;	/* SIGINT / SIGTERM seen */

/**
 * vgpuctl_on_signal() - signal handler setting vgpuctl_stop
 * @sig: the signal
 */
void vgpuctl_on_signal(int sig);

/**
 * vgpuctl_cmd_usage() - print a command's usage
 * @f: stream
 * @name: the command
 */
void vgpuctl_cmd_usage(FILE *f, const char *name);

/**
 * vgpuctl_wants_help() - does a command's argv ask for help?
 * @argc: its argument count
 * @argv: its arguments, argv[0] the command
 *
 * Return: true for -h or --help anywhere before "--".
 */
bool vgpuctl_wants_help(int argc, char **argv);

struct option;

/**
 * vgpuctl_getopt() - the next option of a command (getopt_long())
 * @argc: the command's argument count
 * @argv: its arguments, argv[0] the command
 * @shortopts: getopt_long()'s short options ("h" among them)
 * @opts: its long options ("help" among them, as 'h')
 * @status: the exit status when the return value is 0
 *
 * The first call (with *@status 0) starts at argv[1].  -h/--help prints
 * the command's usage on stdout; a bad option, after getopt_long()'s
 * message, prints it on stderr.
 *
 * Return: the option (optarg set), -1 after the last one, or 0 when the
 * command is to exit with *@status (0 after --help, 2 after a bad option).
 */
int vgpuctl_getopt(int argc, char **argv, const char *shortopts,
		   const struct option *opts, int *status);

/**
 * vgpuctl_get_info() - GET_INFO of /dev/vgpuN of -d N, explaining failure
 * @cmd: the command
 * @what: the request, for the message "vgpuctl CMD: WHAT: error"
 * @info: result
 *
 * Return: 0, or 1 (reported).
 */
int vgpuctl_get_info(const char *cmd, const char *what,
		     struct vgpu_info *info);

/**
 * vgpuctl_open_error() - explain a failed open of /dev/vgpu@index
 * @cmd: the command, for the message
 * @index: the device
 * @err: negative errno
 */
void vgpuctl_open_error(const char *cmd, unsigned int index, int err);

/**
 * vgpuctl_open_or_complain() - open /dev/vgpuN of -d N, explaining failure
 * @cmd: the command
 * @dev: result
 *
 * Return: 0 or a negative errno (reported).
 */
int vgpuctl_open_or_complain(const char *cmd, struct vgpu_dev *dev);

/**
 * vgpuctl_nl_or_complain() - open the netlink family, explaining failure
 * @cmd: the command
 * @nl: result
 *
 * Return: 0 or a negative errno (reported).
 */
int vgpuctl_nl_or_complain(const char *cmd, struct vgpu_nl **nl);

/**
 * vgpuctl_nl_error() - explain a failed netlink request
 * @cmd: the command
 * @what: the request
 * @dev: the device
 * @err: negative errno
 */
void vgpuctl_nl_error(const char *cmd, const char *what, unsigned int dev,
		      int err);

/**
 * vgpuctl_dev_error() - explain a failed write to /sys/bus/vgpu/@file
 * @cmd: the command
 * @file: new_device or del_device
 * @err: negative errno
 */
void vgpuctl_dev_error(const char *cmd, const char *file, int err);

/**
 * vgpuctl_fancy_tty() - may @fd take redraws and progress lines?
 * @fd: file descriptor
 *
 * Return: true for a terminal whose TERM is set and not "dumb".
 */
bool vgpuctl_fancy_tty(int fd);

/*
 * The commands, in --help order: each file defines
 * "const struct vgpul_cli_cmd vgpuctl_cmd_<name>" (info.c, ...), main.c
 * lists them and generates the help from them.
 */
#define VGPUCTL_COMMANDS(X)	\
	X(info)			\
	X(stats)		\
	X(config)		\
	X(dev)			\
	X(run)			\
	X(compare)		\
	X(trace)		\
	X(top)

#define VGPUCTL_DECLARE_CMD(n) extern const struct vgpul_cli_cmd vgpuctl_cmd_##n;
VGPUCTL_COMMANDS(VGPUCTL_DECLARE_CMD)

/**
 * vgpuctl_run_workload() - vgpuctl run, or vgpuctl compare when argv[0]
 *	is "compare" (run.c)
 * @argc: the command's argument count
 * @argv: its arguments, argv[0] the command
 *
 * Return: the exit status.
 */
int vgpuctl_run_workload(int argc, char **argv);

#endif /* VGPUCTL_H */
