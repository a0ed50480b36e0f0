/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench.h - what the `vgpu-sim bench` benchmarks share (bench.c): the
 * clock, the two probe programs and a device of the h100 kind.
 */
#ifndef VGPU_SIM_BENCH_H
#define VGPU_SIM_BENCH_H

#include "sim.h"
#include "gpu.h"

/* The ALU loop: LOOP n / 15 x ALU / BRA / ENDLOOP / EXIT. */
#define VGPU_BENCH_LOOP_BODY	16	/* LOOP body: 15 x ALU, BRA */
#define VGPU_BENCH_LOOP_LEN	(VGPU_BENCH_LOOP_BODY + 3)

/* The short block of replayed inference kernels: MOV / ALU / ALU / EXIT. */
#define VGPU_BENCH_SHORT_LEN	4
extern const struct vgpu_insn vgpu_bench_short_prog[VGPU_BENCH_SHORT_LEN];

/**
 * struct vgpu_bench_gpu - a device of the h100 kind for a benchmark
 * @cfg: its configuration
 * @p: its parameters
 * @pol: its policy registry
 * @g: the device
 * @mem: the device's memory
 */
struct vgpu_bench_gpu {
	struct vgpu_config cfg;
	struct vgpu_gpu_params p;
	struct list_head pol;
	struct vgpu_gpu g;
	void *mem;
};

/**
 * vgpu_bench_now() - the monotonic clock
 *
 * Return: seconds.
 */
double vgpu_bench_now(void);

/**
 * vgpu_bench_loop_prog() - write the ALU loop
 * @prog: VGPU_BENCH_LOOP_LEN instructions
 * @iters: loop iterations, 1..VGPU_ISA_MAX_LOOP_COUNT
 *
 * Return: the number of instructions (VGPU_BENCH_LOOP_LEN).
 */
u32 vgpu_bench_loop_prog(struct vgpu_insn *prog, u32 iters);

/**
 * vgpu_bench_gpu_init() - set up a device of the h100 kind
 * @b: the device
 * @num_sms: its SMs
 * @channels: its max_channels
 * @policy: a policy name or object (vgpu_sim_policy_resolve()), or NULL
 *	for the default
 *
 * The device's memory is zeroed first, as the module's is, so that no
 * benchmark times the page faults of its first use.
 *
 * Return: 0, or -1 (nothing to release).
 */
int vgpu_bench_gpu_init(struct vgpu_bench_gpu *b, u32 num_sms, u32 channels,
			const char *policy);

/**
 * vgpu_bench_gpu_fini() - release what vgpu_bench_gpu_init() set up
 * @b: the device
 */
void vgpu_bench_gpu_fini(struct vgpu_bench_gpu *b);

#endif /* VGPU_SIM_BENCH_H */
