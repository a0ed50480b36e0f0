/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.h - running workloads in vgpu-sim (run, bench dispatch).
 */
#ifndef VGPU_SIM_RUN_H
#define VGPU_SIM_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <stdio.h>

#include "gpu.h"
#include "workload_core.h"	/* struct vgpul_device: the core's view */
#include <vgpu/metrics.h>
#include <vgpu/report.h>
#include <vgpu/workload.h>

/**
 * struct vgpu_run_tree - what a workload kernel's children need (F15)
 * @tmpl: its templates, as many as the workload kernel has
 * @store: child_budget child descriptors (malloc'd), or NULL
 */
struct vgpu_run_tree {
	struct vgpu_gpu_template tmpl[VGPU_MAX_TEMPLATES];
	struct vgpu_gpu_kernel *store;
};

/**
 * struct vgpu_run - one simulated run of a workload
 * @g: the device
 * @mem: its memory
 * @k: one descriptor per workload kernel (same index)
 * @tree: templates and child storage per workload kernel (same index)
 * @nk: entries in @k and @tree
 * @push: the records of every push of the workload's queue kernels (F14)
 * @keep_events: record every event in @ev
 * @ev: recorded events
 * @nev: their number
 * @evcap: capacity of @ev
 * @oom: recording ran out of memory
 * @threads: threads advancing the SMs in each epoch (0 or 1: the caller
 *	alone); the result is the same for every value (F51)
 * @team: those threads while the run goes on
 * @bufs: the workload's buffers (seed 004), filled with their initial
 *	words; after the run, what its kernels computed (malloc'd, @nbufs)
 * @nbufs: their number
 * @slots: VGPU_ISA_MAX_SLOTS buffer slots per workload kernel (malloc'd
 *	with @k when the workload has buffers)
 * @fn_mem: the device's functional memory, attached when a kernel of
 *	the run is functional (vgpu_gpu_fn_attach())
 * @loop_seconds: wall time of the run's epoch loop (bench functional)
 * @loop_cpu_seconds: CPU time of the calling thread in that loop (the
 *	whole run's with @threads 0 or 1)
 * @fn_hook: set by the caller: called before each functional instruction
 *	(vgpu_gpu_fn_set_hook(), vgpu-sim debug), or NULL
 * @fn_hook_cookie: its cookie
 */
struct vgpu_run {
	struct vgpu_gpu g;
	void *mem;
	struct vgpu_gpu_kernel *k;
	struct vgpu_run_tree *tree;
	uint32_t nk;
	struct vgpu_gpu_push *push;
	bool keep_events;
	struct vgpu_event *ev;
	size_t nev;
	size_t evcap;
	bool oom;
	uint32_t threads;
	struct vgpu_sim_team *team;
	void **bufs;
	uint32_t nbufs;
	struct vgpu_lane_slot *slots;
	void *fn_mem;
	double loop_seconds;
	double loop_cpu_seconds;
	vgpu_fn_hook_fn fn_hook;
	void *fn_hook_cookie;
};

struct vgpu_sim_team;

int vgpu_sim_team_start(struct vgpu_sim_team **tp, struct vgpu_gpu *g,
			uint32_t threads);
void vgpu_sim_team_advance(struct vgpu_sim_team *t, struct vgpu_gpu *g);
void vgpu_sim_team_stop(struct vgpu_sim_team *t);

/**
 * vgpu_sim_params_calibrated() - @p with its power calibration done
 * @cfg: the device configuration
 * @p: its parameters
 * @out: @p, and when @p->calibrate is set, the weights vgpu_gpu_init()
 *	would calibrate (timing.weight, res_weight) with calibrate clear;
 *	the probes run once per configuration (calib.c)
 *
 * Return: 0, or the negative errno of a probe that could not run.
 */
int vgpu_sim_params_calibrated(const struct vgpu_config *cfg,
			       const struct vgpu_gpu_params *p,
			       struct vgpu_gpu_params *out);

/**
 * vgpu_sim_calibrations() - calibrations run so far in this process
 *
 * Return: their number (tests and the replay benchmark).
 */
unsigned long vgpu_sim_calibrations(void);

/**
 * vgpu_run_workload() - simulate a workload until every kernel finished
 * @wl: the workload
 * @only: index of the one kernel to run alone (arriving at 0), or -1
 * @policies: policy registry
 * @r: result (zeroed by the caller but for @r->threads and @r->fn_hook;
 *	release with vgpu_run_fini())
 * @err: error message
 * @errlen: its size
 *
 * Return: 0 or a negative errno.
 */
int vgpu_run_workload(const struct vgpu_workload *wl, int only,
		      struct list_head *policies, struct vgpu_run *r,
		      char *err, size_t errlen);

/**
 * vgpu_run_fini() - release a run
 * @r: the run
 */
void vgpu_run_fini(struct vgpu_run *r);

/**
 * vgpu_run_check() - check a functional run's buffers (seed 004)
 * @wl: the workload
 * @r: its run, finished
 * @out: where the lines go (vgpul_workload_check())
 *
 * Prints nothing for a workload without buffers or functional kernels.
 *
 * Return: 0 when every expectation holds, else 1.
 */
int vgpu_run_check(const struct vgpu_workload *wl, const struct vgpu_run *r,
		   FILE *out);

/**
 * vgpu_run_kernel_shape() - copy a workload kernel's scalar fields
 *	(channel, priority, launch shape, flags, queue, quota, deadline,
 *	tenant) into a core kernel; its id, arrival, program, PUSH target,
 *	affinity and warp priorities are the caller's
 * @k: the core kernel
 * @wk: the workload kernel
 */
void vgpu_run_kernel_shape(struct vgpu_gpu_kernel *k,
			   const struct vgpu_wl_kernel *wk);

/**
 * vgpu_chrome_trace_write() - write a run's events as Chrome trace JSON
 * @path: output file
 * @wl: the workload (kernel names)
 * @r: a run made with @keep_events
 * @err: error message
 * @errlen: its size
 *
 * One track per SM, one slice per block residency, named and coloured by
 * kernel; switch-outs end a slice and add an instant "preempt" marker.
 *
 * Return: 0 or -1.
 */
int vgpu_chrome_trace_write(const char *path, const struct vgpu_workload *wl,
			    const struct vgpu_run *r, char *err,
			    size_t errlen);

/**
 * struct vgpu_sim_result - what vgpu-sim run and compare measure
 * @turnaround: per workload kernel, 0 if it did not complete (malloc'd)
 * @makespan: completion of the last kernel
 * @lat_max: largest preemption latency (start - submit of a kernel that
 *	arrived on a busy device)
 * @m: STP, ANTT, fairness (F67)
 * @hash: trace hash of the shared run (F51)
 * @policy_errors: answers of the policy the core refused
 * @deadline_misses: kernels that completed after their deadline
 */
struct vgpu_sim_result {
	uint64_t *turnaround;
	uint64_t makespan;
	uint64_t lat_max;
	struct vgpu_metrics m;
	uint64_t hash;
	uint64_t policy_errors;
	uint64_t deadline_misses;
};

/**
 * vgpu_sim_load() - load a workload for a command, with its options
 * @cmd: the command, for messages ("run", "debug")
 * @file: the workload file or recording
 * @policy: --policy NAME|FILE.so, or NULL
 * @preempt: --preempt mode, or -1
 * @pack: --pack mode, or -1
 * @policies: initialised as the registry, the loaded policy added
 * @wl: the workload, filled
 *
 * Return: 0; 1 if the file does not load, or a usage error's status for
 * a policy that does not resolve (message on stderr; @wl freed).
 */
int vgpu_sim_load(const char *cmd, const char *file, const char *policy,
		  int preempt, int pack, struct list_head *policies,
		  struct vgpu_workload *wl);

int vgpu_sim_measure(struct vgpu_workload *wl, struct list_head *policies,
		     struct vgpu_run *shared, struct vgpu_sim_result *res,
		     FILE *out, char *err, size_t errlen);
void vgpu_sim_result_fini(struct vgpu_sim_result *res);

/**
 * vgpu_sim_ktime() - a simulated kernel's times for the report
 * @k: the kernel, after its run
 * @t: result
 */
void vgpu_sim_ktime(const struct vgpu_gpu_kernel *k, struct vgpul_ktimes *t);

/**
 * vgpu_sim_tenants() - the per-tenant report (tenants.c)
 * @wl: the workload
 * @policies: the policy registry
 * @shared: its shared run
 * @out: where the lines go
 * @err: error message
 * @errlen: its size
 *
 * Prints nothing for a workload of one tenant.
 *
 * Return: 0, or -1 with @err set.
 */
int vgpu_sim_tenants(const struct vgpu_workload *wl,
		     struct list_head *policies, const struct vgpu_run *shared,
		     FILE *out, char *err, size_t errlen);

#endif /* VGPU_SIM_RUN_H */
