/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu-sim: runs driver/core in userspace (F66).
 *
 * Subcommands live in their own files and register here: add
 * X(name) to VGPU_SIM_COMMANDS and define
 * "const struct vgpul_cli_cmd vgpu_sim_cmd_<name>" in userspace/sim/<name>.c.
 * `vgpu-sim bench <what>` dispatches the same way on its second word:
 * add X(what) to VGPU_SIM_BENCHES and define
 * "const struct vgpul_cli_cmd vgpu_sim_bench_<what>" (e.g. in bench_<what>.c).
 */
#ifndef VGPU_SIM_H
#define VGPU_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"	/* struct vgpul_cli_cmd: a (bench) subcommand */

/* Top-level commands, in --help order. */
#define VGPU_SIM_COMMANDS(X)	\
	X(occupancy)		\
	X(maxrun)		\
	X(run)			\
	X(debug)		\
	X(compare)		\
	X(import)		\
	X(replay)		\
	X(exec)			\
	X(bench)

/* `vgpu-sim bench <what>` benchmarks. */
#define VGPU_SIM_BENCHES(X)	\
	X(bitmap)		\
	X(exec)			\
	X(dispatch)		\
	X(scale)		\
	X(replay)		\
	X(completion)		\
	X(functional)

#define VGPU_SIM_DECLARE_CMD(n) extern const struct vgpul_cli_cmd vgpu_sim_cmd_##n;
#define VGPU_SIM_DECLARE_BENCH(n) extern const struct vgpul_cli_cmd vgpu_sim_bench_##n;
VGPU_SIM_COMMANDS(VGPU_SIM_DECLARE_CMD)
VGPU_SIM_BENCHES(VGPU_SIM_DECLARE_BENCH)

#define VGPU_SIM_EXIT_USAGE	2

/**
 * vgpu_sim_parse_u32() - vgpul_cli_u32() under vgpu-sim's name: the number
 *	syntax both tools share (cli.h)
 * @s: the text
 * @out: the value
 *
 * Return: true if @s is a whole number that fits in 32 bits.
 */
static inline bool vgpu_sim_parse_u32(const char *s, uint32_t *out)
{
	return vgpul_cli_u32(s, out);
}

/**
 * vgpu_sim_usage_error() - report a usage error on stderr
 * @cmd: the (sub)command it concerns, e.g. "maxrun"
 * @fmt: printf format of the message
 *
 * Prints "vgpu-sim <cmd>: <message>" and a hint to --help.
 *
 * Return: VGPU_SIM_EXIT_USAGE (2).
 */
int vgpu_sim_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/**
 * vgpu_sim_print_usage() - print a command's usage text
 * @f: stream
 * @prefix: "vgpu-sim" or "vgpu-sim bench"
 * @cmd: the command
 */
void vgpu_sim_print_usage(FILE *f, const char *prefix,
			  const struct vgpul_cli_cmd *cmd);

struct option;

/**
 * struct vgpu_sim_getopt - how a command reads its options
 * @cmd: the command, for --help and usage errors
 * @opts: its getopt_long() options, "help" ('h') among them
 * @bench: @cmd is a benchmark ("vgpu-sim bench <name>")
 * @quiet: getopt_long() stays silent, "-h" is no option, and an unknown
 *	or incomplete option is the usage error "unknown or incomplete
 *	option '...'"; else getopt_long() reports it and @bad follows
 * @bad: with !@quiet, the usage error after getopt_long()'s message, or
 *	NULL for none
 * @no_args: an argument after the options is the usage error
 *	"unexpected argument '...'"
 * @index: the index in @opts of the option vgpu_sim_getopt() returned
 *	(long options only)
 * @status: the exit status when vgpu_sim_getopt() returned 0
 */
struct vgpu_sim_getopt {
	const struct vgpul_cli_cmd *cmd;
	const struct option *opts;
	bool bench;
	bool quiet;
	const char *bad;
	bool no_args;
	int index;
	int status;
};

/**
 * vgpu_sim_getopt() - the next option of a command (getopt_long())
 * @g: how to read them; the first call starts at argv[1]
 * @argc: the command's argument count
 * @argv: its arguments, argv[0] the command
 *
 * -h/--help prints the usage on stdout; a bad option is a usage error.
 *
 * Return: the option's value (optarg set), -1 after the last option
 * (optind at the first argument), or 0 when the command is to exit with
 * @g->status (0 after --help, VGPU_SIM_EXIT_USAGE after a usage error).
 */
int vgpu_sim_getopt(struct vgpu_sim_getopt *g, int argc, char **argv);

/**
 * struct vgpu_sim_args - how a command that reads its own arguments
 *	(run, compare, import, replay, bench replay) walks them
 * @cmd: the command, for --help and usage errors
 * @bench: @cmd is a benchmark ("vgpu-sim bench <name>")
 * @valued: the options that take a value, NULL-terminated
 * @flags: the options that take none, NULL-terminated, or NULL
 * @argc: the command's argument count
 * @argv: its arguments, argv[0] the command
 * @i: the index of the word read last (0 before the first)
 * @opt: the option read, or NULL for a word that is no option
 * @val: the option's value (NULL for a flag), or the word
 * @status: the exit status when vgpu_sim_arg() returned -1
 */
struct vgpu_sim_args {
	const struct vgpul_cli_cmd *cmd;
	bool bench;
	const char *const *valued;
	const char *const *flags;
	int argc;
	char **argv;
	int i;
	const char *opt;
	const char *val;
	int status;
};

/**
 * vgpu_sim_arg() - the next option or word of a command
 * @a: the walk
 *
 * -h/--help prints the usage on stdout; an unknown option, or one
 * without its value, is a usage error.
 *
 * Return: 1 with the next option or word in @a->opt and @a->val, 0 at the
 * end, or -1 when the command is to exit with @a->status.
 */
int vgpu_sim_arg(struct vgpu_sim_args *a);

/**
 * vgpu_sim_mode_arg() - the value of --preempt or --pack (run, compare,
 *	replay)
 * @cmd: the command, for the usage error
 * @opt: "--preempt" or "--pack"
 * @v: the value
 * @mode: the VGPU_PREEMPT_* or VGPU_PACK_* value
 *
 * Return: 0, or VGPU_SIM_EXIT_USAGE after a usage error naming the modes.
 */
int vgpu_sim_mode_arg(const char *cmd, const char *opt, const char *v,
		      int *mode);

/* --threads of run and replay: SMs of an epoch advanced on 1..256 threads */
#define VGPU_SIM_MAX_THREADS	256

/**
 * vgpu_sim_threads_arg() - the value of --threads (run, replay)
 * @cmd: the command, for the usage error
 * @v: the value
 * @threads: the number, 1..VGPU_SIM_MAX_THREADS
 *
 * Return: 0, or VGPU_SIM_EXIT_USAGE after a usage error.
 */
int vgpu_sim_threads_arg(const char *cmd, const char *v, uint32_t *threads);

/* Recordings one import or replay takes at most. */
#define VGPU_SIM_REC_MAX	256

/* The options vgpu_sim_rec_arg() reads (for &vgpu_sim_args.valued). */
#define VGPU_SIM_REC_OPTS \
	"--format", "--preset", "--clock", "--priority", "--offset"

struct vgpu_import_opts;

/**
 * struct vgpu_sim_rec_args - what import and replay read alike: --format,
 *	--preset, --clock, --priority, --offset and the recordings
 * @cmd: "import" or "replay", for usage errors
 * @max: recordings at most (<= VGPU_SIM_REC_MAX)
 * @imp: preset, clock, priorities and offsets go here
 * @format: --format (a VGPU_REC_* value)
 * @mhz: --clock, 0 for the preset's
 * @nf: recordings
 * @np: --priority arguments
 * @no: --offset arguments
 * @files: the recordings, a tenant each
 * @prio_arg: the --priority arguments
 * @off_arg: the --offset arguments
 * @prio: priority per tenant (vgpu_sim_rec_args_done())
 * @offset: arrival offset per tenant (vgpu_sim_rec_args_done())
 */
struct vgpu_sim_rec_args {
	const char *cmd;
	unsigned int max;
	struct vgpu_import_opts *imp;
	int format;
	uint32_t mhz;
	unsigned int nf, np, no;
	const char *files[VGPU_SIM_REC_MAX];
	const char *prio_arg[VGPU_SIM_REC_MAX];
	const char *off_arg[VGPU_SIM_REC_MAX];
	uint32_t prio[VGPU_SIM_REC_MAX];
	uint64_t offset[VGPU_SIM_REC_MAX];
};

/**
 * vgpu_sim_rec_arg() - take one of VGPU_SIM_REC_OPTS or a recording
 * @a: what was read so far
 * @opt: the option, or NULL for a recording
 * @val: its value, or the recording
 *
 * Return: 0, or VGPU_SIM_EXIT_USAGE after a usage error.
 */
int vgpu_sim_rec_arg(struct vgpu_sim_rec_args *a, const char *opt,
		     const char *val);

/**
 * vgpu_sim_rec_args_done() - check the recordings, --priority and
 *	--offset, and fill @a->imp
 * @a: what vgpu_sim_rec_arg() read
 *
 * Return: 0, or VGPU_SIM_EXIT_USAGE after a usage error.
 */
int vgpu_sim_rec_args_done(struct vgpu_sim_rec_args *a);

struct list_head;

/**
 * vgpu_sim_policy_resolve() - the policy name for --policy @arg
 * @reg: the registry to add a loaded policy to
 * @arg: a registered name, or a path (with a '/') to a policy object
 * @err: message on failure
 * @errlen: its size
 *
 * Return: the name the policy is registered under, or NULL with @err set.
 */
const char *vgpu_sim_policy_resolve(struct list_head *reg, const char *arg,
				    char *err, size_t errlen);

struct vgpu_sm;

/**
 * vgpu_sim_sm_alloc() - a zeroed SM engine for a lone-SM run
 *
 * Line-aligned, as struct vgpu_sm asks (sm.h); free() it.
 *
 * Return: the engine, or NULL when out of memory.
 */
struct vgpu_sm *vgpu_sim_sm_alloc(void);

/**
 * vgpu_sim_gpu_mem_alloc() - zeroed memory for vgpu_gpu_init()
 * @size: vgpu_gpu_mem_size()'s answer
 *
 * A device's SMs are large (about 80 KiB each: 344 MiB for 4096 of them)
 * and each block touches a few lines of one of them, pages apart: on the
 * largest devices the pages touched between two visits to an SM are more
 * than the TLB maps.  So the memory is aligned to 2 MiB, rounded up to it
 * and advised for transparent huge pages (madvise(MADV_HUGEPAGE), a hint:
 * where the kernel declines, it is ordinary memory); bench scale's 4096
 * SMs take 5-25 % less a block with it, 1024 and fewer no measurable
 * difference.  It is zeroed, hence mapped, as the module's kvzalloc()
 * memory is, so that no page fault is left for the first touch.  free()
 * it.
 *
 * Return: the memory, or NULL when out of memory.
 */
void *vgpu_sim_gpu_mem_alloc(size_t size);

#endif /* VGPU_SIM_H */
