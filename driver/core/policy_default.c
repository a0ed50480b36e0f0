// SPDX-License-Identifier: GPL-2.0
/*
 * The seeds' scheduling policy: the global controller's default decisions
 * (F12, F13, F16, F20-F24).
 *
 * A decision point of &struct vgpu_policy_ops (policy.h) whose op is NULL
 * is decided here, and the small wrappers that call a policy's op, or
 * else the default, are here too: the firmware's decisions are in one
 * place, and a policy author sees exactly what each op replaces.
 *
 * - vgpu_gpu_ahead() (policy_default.h): the order within a priority
 *   level, HEAD kernels first (F16);
 * - vgpu_gpu_before() (policy_default.h): the candidate order of a
 *   dispatch round (F12, F20-F22, F26 quota, F16), op @select_before
 *   (vgpu_gpu_round(), place.c);
 * - vgpu_gpu_chosen(): the F21 fairness flags and the F26 quotas after a
 *   decision, which vgpu_gpu_before() reads (run whatever the policy);
 * - vgpu_gpu_older() (policy_default.h): the waiting order of the task
 *   table (F13, F16), op @admit_before (vgpu_gpu_table_update(),
 *   table.c);
 * - vgpu_gpu_may_evict(): eviction from a full task table (F13), op
 *   @may_evict;
 * - vgpu_gpu_split_pick(): the kernel to split (F24), op @split, whose
 *   answer the core checks (vgpu_gpu_split(), place.c);
 * - vgpu_gpu_preempt_scan(), vgpu_gpu_preempt_pick(): the SM of path (c)
 *   (F23), op @preempt, whose answer the core checks against its rules.
 *
 * The SM choice (F25, op @select_sm) is a policy table of its own: the
 * built-in ones are in policy.c, the first-fit scan in place.c.
 */
#include "vgpu_os.h"
#include "gpu_internal.h"
#include "policy_default.h"

/**
 * vgpu_gpu_chosen() - F21 and F26 bookkeeping after a kernel won a decision
 * @g: the device
 * @k: the kernel
 *
 * F21, seed 001 [0056]-[0058], judged over the candidates that match: a
 * winner whose channel had no flag for its priority gets one ([0057]).  A
 * winner that had one shows that no matching candidate of its priority
 * was without (the seeds' order offers those first, and every one of
 * them failed to match): it keeps its flag and the other channels' flags
 * of that priority are cleared ([0058]).  A peer that matches nowhere
 * does not hold the flags up.
 */
void vgpu_gpu_chosen(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	struct vgpu_gpu_kernel *o;
	u32 bit = BIT(k->eff_prio), i, w;
	bool had = g->chan[k->channel].selected & bit;
	u64 m;

	g->chan[k->channel].selected |= bit;
	for (w = 0; w < DIV_ROUND_UP(g->p.task_slots, 64); w++) {
		for (m = g->slot_used[w]; m; m &= m - 1) {
			o = g->slot[w * 64 + __ffs64(m)];
			if (o == k || o->eff_prio != k->eff_prio)
				continue;
			/* a peer of equal priority ran: quotas restart */
			if (o->quota && o->quota_used >= o->quota)
				o->quota_used = 0;
		}
	}
	if (!had)
		return;
	/* the flags of channels that do not exist are reset when they do */
	for (w = 0; w < DIV_ROUND_UP(g->p.max_channels, 64); w++) {
		for (m = g->chan_used[w]; m; m &= m - 1) {
			i = w * 64 + __ffs64(m);
			if (i != k->channel)
				g->chan[i].selected &= ~bit;
		}
	}
}

/**
 * vgpu_gpu_may_evict() - may a waiting kernel evict a task-table one?
 * @g: the device
 * @w: the waiting kernel
 * @victim: the occupant
 *
 * May waiting @w take @victim's slot (policy.h @may_evict; F13)?
 *
 * Return: true if it may.
 */
bool vgpu_gpu_may_evict(struct vgpu_gpu *g,
			const struct vgpu_gpu_kernel *w,
			const struct vgpu_gpu_kernel *victim)
{
	if (g->policy->may_evict) {
		/* two kernels that may evict each other would take turns */
		if (!g->policy->may_evict(g, w, victim))
			return false;
		return likely(!g->watch.order_checks) ||
		       vgpu_policy_order_check(g, VGPU_POLICY_OP_MAY_EVICT,
					       w, victim);
	}
	return victim->eff_prio > w->eff_prio;
}

/**
 * vgpu_gpu_split_pick() - F24's default: the kernel to split
 * @g: the device
 *
 * Return: the first splittable kernel in F13 waiting order, or NULL.
 */
struct vgpu_gpu_kernel *vgpu_gpu_split_pick(const struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *k, *best = NULL;

	list_for_each_entry(k, &g->kernels, table_node)
		if (vgpu_gpu_splittable(g, k) &&
		    (!best || vgpu_gpu_older(k, best)))
			best = k;
	return best;
}

/*
 * F23 (c): the SM whose highest resident priority is the lowest below
 * @k's, ties by the fixed SM list, among those the preemption mode can
 * use.  The candidate map holds the SMs by that priority in list order,
 * so the first SM that passes the mode's test is the answer and only the
 * SMs before it are looked at, not every SM.
 */
static bool vgpu_gpu_preempt_scan(struct vgpu_gpu *g,
				  struct vgpu_gpu_kernel *k,
				  const struct vgpu_block_shape *shape,
				  struct vgpu_gpu_match *m)
{
	struct vgpu_sm *sm;
	u32 prio, w, i;
	u64 *row, bits;

	if (g->p.preempt == VGPU_PREEMPT_SWITCH && list_empty(&g->saved_free))
		return false;
	for (prio = VGPU_MAX_PRIOS - 1; prio > k->eff_prio; prio--) {
		if (!g->top_n[prio])
			continue;
		row = vgpu_gpu_top_row(g, prio);
		for (w = 0; w < g->top_words; w++) {
			for (bits = row[w]; bits; bits &= bits - 1) {
				i = g->pos_sm[w * 64 + __ffs64(bits)];
				sm = &g->sm[i].sm;
				if (!vgpu_gpu_sm_allowed(g, k, i))
					continue;
				if (g->p.preempt == VGPU_PREEMPT_WARP &&
				    !vgpu_gpu_block_level_fits(&sm->res, shape))
					continue;
				if (g->p.preempt == VGPU_PREEMPT_SWITCH &&
				    !vgpu_gpu_switch_victims(g, sm, k->eff_prio,
							     shape))
					continue;
				m->sm = i;
				return true;
			}
		}
	}
	return false;
}

/**
 * vgpu_gpu_preempt_pick() - the SM for F23 (c)
 * @g: the device
 * @k: the kernel
 * @shape: the block to place
 * @m: the match; @m->sm is set if it returns true
 *
 * F23 (c) by the policy (policy.h @preempt): its SM if the core's rules
 * allow preempting there, else the default's (counted as an error).
 *
 * Return: true if an SM was found.
 */
bool vgpu_gpu_preempt_pick(struct vgpu_gpu *g,
			   struct vgpu_gpu_kernel *k,
			   const struct vgpu_block_shape *shape,
			   struct vgpu_gpu_match *m)
{
	struct vgpu_sm *sm;
	u32 i, top;

	if (!g->policy->preempt)
		return vgpu_gpu_preempt_scan(g, k, shape, m);
	i = g->policy->preempt(g, k);
	if (i == VGPU_POLICY_WAIT)
		return false;
	if (i < g->cfg.num_sms) {
		sm = &g->sm[i].sm;
		top = sm->top_prio;
		if (top < VGPU_MAX_PRIOS && top > k->eff_prio &&
		    vgpu_gpu_sm_allowed(g, k, i) &&
		    (g->p.preempt != VGPU_PREEMPT_WARP ||
		     vgpu_gpu_block_level_fits(&sm->res, shape)) &&
		    (g->p.preempt != VGPU_PREEMPT_SWITCH ||
		     (!list_empty(&g->saved_free) &&
		      vgpu_gpu_switch_victims(g, sm, k->eff_prio, shape)))) {
			vgpu_gpu_policy_ok(g);
			m->sm = i;
			return true;
		}
	}
	vgpu_gpu_policy_err(g, VGPU_POLICY_OP_PREEMPT);
	return vgpu_gpu_preempt_scan(g, k, shape, m);
}
