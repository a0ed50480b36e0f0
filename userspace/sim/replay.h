/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay.h - streaming replay of recordings (replay.c).
 */
#ifndef VGPU_SIM_REPLAY_H
#define VGPU_SIM_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <vgpu/import.h>

/**
 * struct vgpu_replay_src - one tenant's kernels, in start order
 * @next: the next kernel: 1, 0 at the end, or a negative errno with @err
 *	set
 * @progress: how much of the source was read, 0..1 (NULL: unknown)
 * @rewind: start again from the first kernel: 0 or a negative errno with
 *	@err set (NULL: cannot; then several tenants number their kernels
 *	and channels in arrival order)
 * @cookie: their argument
 * @path: the name in messages
 */
struct vgpu_replay_src {
	int (*next)(void *cookie, struct vgpu_rec_kernel *k, char *err,
		    size_t errlen);
	double (*progress)(void *cookie);
	int (*rewind)(void *cookie, char *err, size_t errlen);
	void *cookie;
	const char *path;
};

/**
 * struct vgpu_replay_opts - how to replay
 * @imp: preset, clock, priorities, offsets, report stream
 * @policy: policy name ("" or NULL: the preset's default)
 * @preempt: VGPU_PREEMPT_*, or -1 for the default
 * @pack: VGPU_PACK_*, or -1 for the default
 * @channels: channels of the device (0: the default 64)
 * @threads: threads advancing the SMs (0, 1: the caller)
 * @progress: where to draw a progress bar, or NULL for none
 */
struct vgpu_replay_opts {
	struct vgpu_import_opts imp;
	const char *policy;
	int preempt;
	int pack;
	uint32_t channels;
	uint32_t threads;
	FILE *progress;
};

#define VGPU_REPLAY_MAX_TENANTS	64

/**
 * struct vgpu_replay_result - what a replay measured
 * @st: kernels read, mapped, skipped, clamped; channels
 * @blocks: blocks of the kernels that completed
 * @done: kernels that completed
 * @failed: kernels that failed or were cancelled
 * @makespan: end of the last kernel
 * @hash: the trace hash (F51)
 * @inflight_max: most kernels submitted and not finished at once
 * @epochs: dispatches
 * @startup_ns: the device's set-up (its calibration included)
 * @sim_ns: the rest: reading, mapping and replaying the recordings
 * @ntenants: tenants
 * @t_kernels: per tenant, kernels completed
 * @t_turnaround: per tenant, the sum of their turnarounds (end - arrival)
 */
struct vgpu_replay_result {
	struct vgpu_import_stats st;
	uint64_t blocks;
	uint64_t done;
	uint64_t failed;
	uint64_t makespan;
	uint64_t hash;
	uint64_t inflight_max;
	uint64_t epochs;
	uint64_t startup_ns;
	uint64_t sim_ns;
	uint32_t ntenants;
	uint64_t t_kernels[VGPU_REPLAY_MAX_TENANTS];
	uint64_t t_turnaround[VGPU_REPLAY_MAX_TENANTS];
};

struct list_head;

/**
 * vgpu_replay() - replay recordings through the core, streaming
 * @src: one source per tenant
 * @nsrc: their number (1..VGPU_REPLAY_MAX_TENANTS)
 * @o: options
 * @policies: the policy registry
 * @res: out: the result
 * @err: message buffer
 * @errlen: its size
 *
 * Kernels are mapped as `vgpu-sim import` maps them and submitted shortly
 * before they arrive; a finished kernel's memory goes back at once.  The
 * memory held is the kernels in flight (submitted, not finished), never
 * the recording.  With several sources that can rewind, a first pass
 * reads them tenant by tenant to number kernels and channels as
 * `vgpu-sim import` does.
 *
 * Return: 0, or a negative errno with @err set.
 */
int vgpu_replay(const struct vgpu_replay_src *src, uint32_t nsrc,
		const struct vgpu_replay_opts *o, struct list_head *policies,
		struct vgpu_replay_result *res, char *err, size_t errlen);

#endif /* VGPU_SIM_REPLAY_H */
