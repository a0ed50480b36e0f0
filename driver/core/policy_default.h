/* SPDX-License-Identifier: GPL-2.0 */
/*
 * policy_default.h - the seeds' orders (F13, F16, F20-F22, F26), inline:
 * the admission loop and the dispatch round compare kernels with them
 * many times per boundary (policy_default.c has the rest of the seeds'
 * policy).
 */
#ifndef VGPU_CORE_POLICY_DEFAULT_H
#define VGPU_CORE_POLICY_DEFAULT_H

#include "gpu.h"

/*
 * Order within a priority level: the list a kernel joins at its tail, or
 * with VGPU_KF_HEAD at its head, when it arrives (F16).  So the HEAD
 * kernels come first, the one that arrived last first; then the others,
 * the oldest first.
 */
static inline bool vgpu_gpu_ahead(const struct vgpu_gpu_kernel *a,
				  const struct vgpu_gpu_kernel *b)
{
	bool ha = a->args.flags & VGPU_KF_HEAD, hb = b->args.flags & VGPU_KF_HEAD;

	if (ha != hb)
		return ha;
	if (a->args.arrival != b->args.arrival)
		return ha ? a->args.arrival > b->args.arrival : a->args.arrival < b->args.arrival;
	return ha ? a->seq > b->seq : a->seq < b->seq;
}

/*
 * Order within a priority level of the task table: HEAD kernels first
 * (F16), then by age, which is the time of entry into the table (seed 002
 * steps 430-434: the timestamp is the time the TMD was inserted into the
 * task table), not the arrival: a kernel that waited behind its channel's
 * head entered later.  Kernels that entered at the same boundary keep the
 * order they had waiting (vgpu_gpu_ahead()).
 */
static inline bool vgpu_gpu_ahead_in_table(const struct vgpu_gpu_kernel *a,
					   const struct vgpu_gpu_kernel *b)
{
	bool ha = a->args.flags & VGPU_KF_HEAD, hb = b->args.flags & VGPU_KF_HEAD;

	if (ha != hb)
		return ha;
	if (a->t.entered != b->t.entered)
		return ha ? a->t.entered > b->t.entered :
			    a->t.entered < b->t.entered;
	return vgpu_gpu_ahead(a, b);
}

/*
 * F21's random pick (seed 001 [0057]-[0058]: at random among the
 * candidates of the top priority whose channel has no flag, else among
 * all of them): channel @ch's place in a random order of the
 * channels, drawn anew for every decision (&vgpu_gpu.f21_salt, from the
 * device's seeded generator).  The finaliser is a bijection, so two
 * channels never tie; the kernels of one channel keep their order.
 */
static inline u32 vgpu_gpu_f21_key(const struct vgpu_gpu *g, u32 ch)
{
	u32 x = g->f21_salt ^ (ch * 0x9e3779b9U);

	x ^= x >> 16;
	x *= 0x85ebca6bU;
	x ^= x >> 13;
	x *= 0xc2b2ae35U;
	x ^= x >> 16;
	return x;
}

/*
 * Sort key of a candidate: rank (F22), F21 flag, quota (F26), HEAD and
 * age in the task table (F16, seed 002 steps 430-434), then, between
 * channels whose candidates the seeds' order leaves equal, F21's random
 * pick; within a channel the order it had waiting (vgpu_gpu_ahead()).
 */
static inline bool vgpu_gpu_before(const struct vgpu_gpu *g,
				   const struct vgpu_gpu_kernel *a,
				   const struct vgpu_gpu_kernel *b)
{
	u32 ra = a->eff_prio == g->window ? 0 : a->eff_prio + 1;
	u32 rb = b->eff_prio == g->window ? 0 : b->eff_prio + 1;
	bool fa, fb, qa, qb, ha, hb;

	if (ra != rb)
		return ra < rb;
	fa = g->chan[a->args.channel].selected & BIT(a->eff_prio);
	fb = g->chan[b->args.channel].selected & BIT(b->eff_prio);
	if (fa != fb)
		return !fa;
	qa = a->args.quota && a->quota_used >= a->args.quota;
	qb = b->args.quota && b->quota_used >= b->args.quota;
	if (qa != qb)
		return !qa;
	ha = a->args.flags & VGPU_KF_HEAD;
	hb = b->args.flags & VGPU_KF_HEAD;
	if (ha != hb)
		return ha;
	if (a->t.entered != b->t.entered)	/* vgpu_gpu_ahead_in_table() */
		return ha ? a->t.entered > b->t.entered :
			    a->t.entered < b->t.entered;
	if (a->args.channel != b->args.channel)
		return vgpu_gpu_f21_key(g, a->args.channel) <
		       vgpu_gpu_f21_key(g, b->args.channel);
	return vgpu_gpu_ahead(a, b);
}

/* Waiting order (F13): priority, then oldest timestamp. */
static inline bool vgpu_gpu_older(const struct vgpu_gpu_kernel *a,
				  const struct vgpu_gpu_kernel *b)
{
	if (a->eff_prio != b->eff_prio)
		return a->eff_prio < b->eff_prio;
	return vgpu_gpu_ahead(a, b);
}

#endif /* VGPU_CORE_POLICY_DEFAULT_H */
