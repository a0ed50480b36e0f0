/* SPDX-License-Identifier: GPL-2.0 */
/*
 * metrics.h - multiprogram metrics (F67; Eyerman & Eeckhout, IEEE
 * Micro 2008).  Part of libvgpu-workload.
 */
#ifndef VGPU_METRICS_H
#define VGPU_METRICS_H

#include <stdint.h>

/**
 * struct vgpu_metrics - metrics of one multiprogram run
 * @stp: system throughput, sum of NP_i = T_alone_i / T_shared_i
 * @antt: average normalised turnaround time, mean of T_shared / T_alone
 * @fairness: min over i, j of NP_i / NP_j (= min NP / max NP)
 * @n: programs counted
 */
struct vgpu_metrics {
	double stp;
	double antt;
	double fairness;
	unsigned int n;
};

/**
 * vgpul_metrics_compute() - STP, ANTT and fairness
 * @alone: turnaround of each program run alone (cycles, > 0)
 * @shared: turnaround of each in the shared run (cycles, > 0)
 * @n: number of programs; entries with a zero time are skipped
 * @m: result (all zero if nothing was counted)
 */
void vgpul_metrics_compute(const uint64_t *alone, const uint64_t *shared,
			  unsigned int n, struct vgpu_metrics *m);

#endif /* VGPU_METRICS_H */
