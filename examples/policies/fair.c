// SPDX-License-Identifier: GPL-2.0
/*
 * fair - fair share of GPU time between the channels of one priority
 * (issue 17), in the spirit of the DRM scheduler's fair policy.
 *
 * Each channel is charged the warp-cycles its resident blocks hold the
 * device (&vgpu_gpu.chan_policy[c][0], at every dispatch boundary
 * for the time since the previous one); among the kernels of one
 * priority, the one whose channel was charged least is offered the next
 * decision and enters the task table first, and at equal charge the one
 * whose channel has fewer warps resident right now (chan_policy[c][1],
 * counted at each boundary and at each dispatch), so that the decisions
 * of one boundary are shared too.  A channel that was idle is brought up
 * to the least charge of the busy ones when its next kernel arrives, so
 * that idling does not bank credit (CFS's min_vruntime).  So a channel of
 * long blocks and one of short blocks get about the same GPU time, where
 * the seeds' order (F21) gives them the same number of decisions.
 * Priorities, eviction and preemption are the seeds'.
 */
#include "vgpu_policy.h"

#define FAIR_FLOOR	0	/* policy_state: least charge of a busy channel */
#define FAIR_LAST	1	/* policy_state: cycle of the previous tick */

static u64 fair_charge(const struct vgpu_gpu *g,
		       const struct vgpu_gpu_kernel *k)
{
	/* a child kernel (F15) is charged to its tree's channel */
	return g->chan_policy[k->root->channel][0];
}

static u64 fair_resident(const struct vgpu_gpu *g,
			 const struct vgpu_gpu_kernel *k)
{
	return g->chan_policy[k->root->channel][1];
}

static bool fair_before(const struct vgpu_gpu *g,
			const struct vgpu_gpu_kernel *a,
			const struct vgpu_gpu_kernel *b)
{
	u64 ca, cb;

	if (a->eff_prio != b->eff_prio)
		return a->eff_prio < b->eff_prio;
	ca = fair_charge(g, a);
	cb = fair_charge(g, b);
	if (ca != cb)
		return ca < cb;
	ca = fair_resident(g, a);
	cb = fair_resident(g, b);
	if (ca != cb)
		return ca < cb;
	if (a->arrival != b->arrival)
		return a->arrival < b->arrival;
	return a->seq < b->seq;
}

static void fair_submitted(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	u64 *c = &g->chan_policy[k->channel][0];

	if (*c < g->policy_state[FAIR_FLOOR])
		*c = g->policy_state[FAIR_FLOOR];
}

/*
 * At each boundary: charge every channel for its blocks resident since
 * the previous one and count its resident warps afresh, then raise the
 * floor to the least charge of a kernel in the table.
 */
static void fair_tick(struct vgpu_gpu *g)
{
	u64 dt = g->now - g->policy_state[FAIR_LAST], floor = ~0ULL, c;
	struct vgpu_gpu_kernel *k;
	u32 i;

	g->policy_state[FAIR_LAST] = g->now;
	for (i = 0; i < g->p.max_channels; i++)
		g->chan_policy[i][1] = 0;
	list_for_each_entry(k, &g->kernels, table_node) {
		c = (u64)k->inflight * k->warps;
		g->chan_policy[k->root->channel][0] += c * dt;
		g->chan_policy[k->root->channel][1] += c;
	}
	list_for_each_entry(k, &g->kernels, table_node) {
		c = fair_charge(g, k);
		if (c < floor)
			floor = c;
	}
	if (floor != ~0ULL && floor > g->policy_state[FAIR_FLOOR])
		g->policy_state[FAIR_FLOOR] = floor;
}

static void fair_dispatched(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			    u32 sm)
{
	g->chan_policy[k->root->channel][1] += k->warps;
}

static struct vgpu_sched_ops fair_ops = {
	.name		= "fair",
	.tick		= fair_tick,
	.admit_before	= fair_before,
	.select_before	= fair_before,
	.submitted	= fair_submitted,
	.dispatched	= fair_dispatched,
};
VGPU_POLICY(fair_ops);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vgpu-dispatch scheduling policy: fair share of GPU time per channel");
