// SPDX-License-Identifier: GPL-2.0
/*
 * fair - fair share of GPU time between the tenants, then between the
 * channels, of one priority, in the spirit of the DRM
 * scheduler's fair policy.  A tenant is an open file in the module and a
 * workload's "tenant" in vgpu-sim (&vgpu_gpu_kernel.tenant).
 *
 * Each tenant and each channel is charged the warp-cycles its resident
 * blocks hold the device, at every dispatch boundary for the time since
 * the previous one.  Among the kernels of one priority, the one whose
 * tenant was charged least is offered the next decision and enters the
 * task table first; within a tenant, the one whose channel was charged
 * least.  At equal charge, the one with fewer warps resident right now
 * (counted at each boundary and at each dispatch), so that the decisions
 * of one boundary are shared too.  A tenant or channel that was idle is
 * brought up to the least charge of the busy ones when its next kernel
 * arrives, so that idling does not bank credit (CFS's min_vruntime).  So
 * a tenant of three channels and one of one channel get about the same
 * GPU time, and so do a channel of long blocks and one of short blocks,
 * where the seeds' order (F21) gives every channel the same number of
 * decisions.  Priorities, eviction and preemption are the seeds'.
 *
 * FAIR_TENANTS tenants with kernels in the device are told apart; the
 * kernels of further tenants are shared by channel only.  Tenant numbers
 * are compared for equality only, so the module's file numbers and a
 * workload's tenant numbers give the same decisions.
 */
#include "vgpu_policy.h"

/* policy_state words */
#define FAIR_FLOOR	0	/* least charge of a busy channel */
#define FAIR_LAST	1	/* cycle of the previous tick */
#define FAIR_TFLOOR	2	/* least charge of a busy tenant */
#define FAIR_SLOTS	4	/* then FAIR_TENANTS slots of 4 words: */
#define FAIR_CHARGE	0	/*   warp-cycles (as a channel's word 0) */
#define FAIR_RESIDENT	1	/*   warps resident now (as word 1) */
#define FAIR_ID		2	/*   tenant + 1, 0 = free */
#define FAIR_KERNELS	3	/*   its kernels in the device */
#define FAIR_TENANTS	((VGPU_POLICY_STATE_WORDS - FAIR_SLOTS) / 4)

/*
 * The policy_state offset of @k's tree's tenant slot (the root's
 * policy_data[0] is the slot + 1), or -1: none.
 */
static int fair_tenant(const struct vgpu_gpu *g,
		       const struct vgpu_gpu_kernel *k)
{
	u64 s = k->root->policy_data[0];
	int off = FAIR_SLOTS + 4 * ((int)s - 1);

	if (!s || s > FAIR_TENANTS ||
	    g->policy_state[off + FAIR_ID] != (u64)k->root->tenant + 1)
		return -1;
	return off;
}

/* a child kernel (F15) is charged to its tree's channel */
static u64 *fair_channel(const struct vgpu_gpu *g,
			 const struct vgpu_gpu_kernel *k)
{
	return g->chan_policy[k->root->channel];
}

/* Charged less, then fewer warps resident now: -1, 0 or 1. */
static int fair_cmp(const u64 *a, const u64 *b)
{
	if (a[FAIR_CHARGE] != b[FAIR_CHARGE])
		return a[FAIR_CHARGE] < b[FAIR_CHARGE] ? -1 : 1;
	if (a[FAIR_RESIDENT] != b[FAIR_RESIDENT])
		return a[FAIR_RESIDENT] < b[FAIR_RESIDENT] ? -1 : 1;
	return 0;
}

static bool fair_before(const struct vgpu_gpu *g,
			const struct vgpu_gpu_kernel *a,
			const struct vgpu_gpu_kernel *b)
{
	int ta = fair_tenant(g, a), tb = fair_tenant(g, b), c;

	if (a->eff_prio != b->eff_prio)
		return a->eff_prio < b->eff_prio;
	if (ta >= 0 && tb >= 0 && ta != tb) {
		c = fair_cmp(&g->policy_state[ta], &g->policy_state[tb]);
		if (c)
			return c < 0;
	}
	c = fair_cmp(fair_channel(g, a), fair_channel(g, b));
	if (c)
		return c < 0;
	if (a->arrival != b->arrival)
		return a->arrival < b->arrival;
	return a->seq < b->seq;
}

static void fair_submitted(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	u64 *c = &g->chan_policy[k->channel][0], *t = NULL, *free = NULL;
	u32 s;

	if (*c < g->policy_state[FAIR_FLOOR])
		*c = g->policy_state[FAIR_FLOOR];
	for (s = 0; s < FAIR_TENANTS && !t; s++) {
		c = &g->policy_state[FAIR_SLOTS + 4 * s];
		if (c[FAIR_ID] == (u64)k->tenant + 1)
			t = c;
		else if (!c[FAIR_ID] && !free)
			free = c;
	}
	if (!t) {
		if (!free)
			return;		/* shared by channel only */
		t = free;
		t[FAIR_ID] = (u64)k->tenant + 1;
		t[FAIR_CHARGE] = g->policy_state[FAIR_TFLOOR];
		t[FAIR_RESIDENT] = 0;
	}
	t[FAIR_KERNELS]++;
	k->policy_data[0] = (t - &g->policy_state[FAIR_SLOTS]) / 4 + 1;
}

/* @k leaves the device: its tenant's slot is free once it has no kernel. */
static void fair_gone(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	int t = k->root == k ? fair_tenant(g, k) : -1;

	if (t >= 0 && !--g->policy_state[t + FAIR_KERNELS])
		g->policy_state[t + FAIR_ID] = 0;
	k->policy_data[0] = 0;
}

/*
 * At each boundary: charge every tenant and channel for its blocks
 * resident since the previous one and count their resident warps afresh,
 * then raise the floors to the least charges of kernels in the table.
 */
static void fair_tick(struct vgpu_gpu *g)
{
	u64 dt = g->now - g->policy_state[FAIR_LAST], c, *ch;
	u64 floor = ~0ULL, tfloor = ~0ULL;
	struct vgpu_gpu_kernel *k;
	u32 i;
	int t;

	g->policy_state[FAIR_LAST] = g->now;
	for (i = 0; i < g->p.max_channels; i++)
		g->chan_policy[i][FAIR_RESIDENT] = 0;
	for (i = 0; i < FAIR_TENANTS; i++)
		g->policy_state[FAIR_SLOTS + 4 * i + FAIR_RESIDENT] = 0;
	list_for_each_entry(k, &g->kernels, table_node) {
		c = (u64)k->inflight * k->warps;
		ch = fair_channel(g, k);
		ch[FAIR_CHARGE] += c * dt;
		ch[FAIR_RESIDENT] += c;
		t = fair_tenant(g, k);
		if (t >= 0) {
			g->policy_state[t + FAIR_CHARGE] += c * dt;
			g->policy_state[t + FAIR_RESIDENT] += c;
		}
	}
	list_for_each_entry(k, &g->kernels, table_node) {
		floor = min(floor, fair_channel(g, k)[FAIR_CHARGE]);
		t = fair_tenant(g, k);
		if (t >= 0)
			tfloor = min(tfloor, g->policy_state[t + FAIR_CHARGE]);
	}
	if (floor != ~0ULL && floor > g->policy_state[FAIR_FLOOR])
		g->policy_state[FAIR_FLOOR] = floor;
	if (tfloor != ~0ULL && tfloor > g->policy_state[FAIR_TFLOOR])
		g->policy_state[FAIR_TFLOOR] = tfloor;
}

static void fair_dispatched(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			    u32 sm)
{
	int t = fair_tenant(g, k);

	fair_channel(g, k)[FAIR_RESIDENT] += k->warps;
	if (t >= 0)
		g->policy_state[t + FAIR_RESIDENT] += k->warps;
}

static struct vgpu_sched_ops fair_ops = {
	.name		= "fair",
	.tick		= fair_tick,
	.admit_before	= fair_before,
	.select_before	= fair_before,
	.submitted	= fair_submitted,
	.dispatched	= fair_dispatched,
	.kernel_done	= fair_gone,
	.cancelled	= fair_gone,
};

VGPU_POLICY(fair_ops);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vgpu-dispatch scheduling policy: fair share of GPU time per tenant and channel");
