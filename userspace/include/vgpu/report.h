/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - the report of a workload run that vgpu-sim run and vgpuctl
 * run both print (F67): one kernel= line per kernel, the
 * summary lines, and for two tenants or more the tenant= lines.  The
 * lines are the same whichever runs the workload (the simulator or the
 * module), so they are written here once.  Part of libvgpu-workload.
 */
#ifndef VGPU_REPORT_H
#define VGPU_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <vgpu/metrics.h>
#include <vgpu/workload.h>

/* struct vgpul_ktimes.start of a kernel that never started */
#define VGPUL_NO_CYCLE		UINT64_MAX

/* struct vgpul_ktimes.state */
#define VGPUL_KT_DONE		0	/* completed */
#define VGPUL_KT_FAILED		1	/* ended by an error (F15 limit) */
#define VGPUL_KT_CANCELLED	2	/* cancelled, or never ended */

/**
 * struct vgpul_ktimes - how one kernel fared in a run
 * @submit: arrival cycle
 * @start: first block dispatched, or VGPUL_NO_CYCLE
 * @end: completion cycle (@state VGPUL_KT_DONE)
 * @state: VGPUL_KT_*
 * @error: with VGPUL_KT_FAILED, the negative errno
 */
struct vgpul_ktimes {
	uint64_t submit;
	uint64_t start;
	uint64_t end;
	int state;
	int error;
};

/**
 * vgpul_report_kernel() - the kernel= line of one kernel
 * @f: stream, or NULL to print nothing
 * @name: the kernel's name
 * @t: its times
 *
 * "kernel=NAME submit=S start=T end=E turnaround=E-S" for a completed
 * kernel (start=-1 for a queue kernel closed without items, F14),
 * "... end=failed error=ERR" and "... end=cancelled" otherwise.
 *
 * Return: the turnaround of a completed kernel, else 0.
 */
uint64_t vgpul_report_kernel(FILE *f, const char *name,
			     const struct vgpul_ktimes *t);

/**
 * struct vgpul_summary - the summary lines of a run
 * @makespan: completion of the last kernel
 * @metrics: @m is known (the kernels also ran alone)
 * @m: STP, ANTT, fairness over the kernels (F67)
 * @lat_max: largest preemption latency
 * @hash: trace hash of the run (F51)
 */
struct vgpul_summary {
	uint64_t makespan;
	bool metrics;
	struct vgpu_metrics m;
	uint64_t lat_max;
	uint64_t hash;
};

/**
 * vgpul_report_summary() - print makespan=, stp=, antt=, fairness=,
 *	preempt_latency_max= and trace_hash= lines
 * @f: stream
 * @s: what to print; without @s->metrics no stp/antt/fairness lines
 */
void vgpul_report_summary(FILE *f, const struct vgpul_summary *s);

/**
 * typedef vgpul_run_fn - run a workload, every kernel at its arrival
 * @cookie: the caller's
 * @wl: the workload (a tenant's kernels of a larger one)
 * @t: result, one entry per kernel of @wl
 * @err: error message
 * @errlen: its size
 *
 * Return: 0, or nonzero with @err set.
 */
typedef int (*vgpul_run_fn)(void *cookie, const struct vgpu_workload *wl,
			    struct vgpul_ktimes *t, char *err, size_t errlen);

/**
 * vgpul_report_tenants() - the per-tenant lines
 * @f: stream
 * @wl: the workload
 * @shared: the times of its kernels in the shared run
 * @run: runs one tenant's kernels alone (same arrivals)
 * @cookie: for @run
 * @err: error message
 * @errlen: its size
 *
 * For a workload of two tenants or more, after the summary lines:
 *
 *	tenant=<t> kernels=<n> busy=<c> shared=<c> alone=<c> slowdown=<x>
 *	...
 *	tenant_stp=<x>
 *	tenant_antt=<x>
 *	tenant_fairness=<x>
 *
 * busy: cycles in which at least one of its kernels ran (the union of
 * their [start, end) in the shared run); shared: the sum of its kernels'
 * turnarounds (end - arrival) in the shared run; alone: the same with
 * only its kernels on the device; slowdown = shared / alone; STP, ANTT
 * and fairness (F67) over the tenants.  Prints nothing for one tenant.
 *
 * Return: 0, or -1 with @err set.
 */
int vgpul_report_tenants(FILE *f, const struct vgpu_workload *wl,
			 const struct vgpul_ktimes *shared, vgpul_run_fn run,
			 void *cookie, char *err, size_t errlen);

#endif /* VGPU_REPORT_H */
