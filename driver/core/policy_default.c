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
 *   level, HEAD kernels first (F16), and vgpu_gpu_ahead_in_table(), the
 *   same in the task table, by the time of entry into it;
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
 * does not hold the flags up.  Among the channels of one class the pick
 * is at random ([0057], [0058]): the order vgpu_gpu_before() takes
 * between channels is drawn anew here for the next decision.
 */
void vgpu_gpu_chosen(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	struct vgpu_gpu_kernel *o;
	u32 bit = BIT(k->eff_prio), i, w;
	bool had = g->chan[k->args.channel].selected & bit;
	u64 m;

	/* the next decision's random order of the channels */
	g->f21_salt = prandom_u32_state(&g->rnd);
	g->chan[k->args.channel].selected |= bit;
	for (w = 0; w < DIV_ROUND_UP(g->p.task_slots, 64); w++) {
		for (m = g->slot_used[w]; m; m &= m - 1) {
			o = g->slot[w * 64 + __ffs64(m)];
			if (o == k || o->eff_prio != k->eff_prio)
				continue;
			/* a peer of equal priority ran: quotas restart */
			if (o->args.quota && o->quota_used >= o->args.quota)
				o->quota_used = 0;
		}
	}
	if (!had)
		return;
	/* the flags of channels that do not exist are reset when they do */
	for (w = 0; w < DIV_ROUND_UP(g->p.max_channels, 64); w++) {
		for (m = g->chan_used[w]; m; m &= m - 1) {
			i = w * 64 + __ffs64(m);
			if (i != k->args.channel)
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
	return vgpu_policy_default_may_evict(g, w, victim);
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
				    !vgpu_gpu_block_level_fits(g, &sm->res, shape))
					continue;
				if (g->p.preempt == VGPU_PREEMPT_SWITCH &&
				    !vgpu_gpu_switch_victims(g, i, k, false,
							     shape))
					continue;
				m->sm = i;
				return true;
			}
		}
	}
	return false;
}

/*
 * Warp mode: an SM holding blocks of a kernel a policy preempted
 * (vgpu_gpu_yield(), &vgpu_gpu_kernel.held) of @k's
 * priority or lower, whose block level fits @shape and whose blocks of
 * @k's priority are all of kernels the policy may preempt.
 */
static bool vgpu_gpu_preempt_yielding(struct vgpu_gpu *g,
				      const struct vgpu_gpu_kernel *k,
				      const struct vgpu_block_shape *shape,
				      struct vgpu_gpu_match *m)
{
	const struct vgpu_gpu_kernel *v;
	bool found;
	u32 i;
	u64 b;

	for (i = 0; i < g->cfg.num_sms; i++) {
		if (!vgpu_gpu_sm_allowed(g, k, i) ||
		    !vgpu_gpu_block_level_fits(g, &g->sm[i].sm.res,
					       shape))
			continue;
		found = false;
		for (b = g->sm[i].shadow_used; b; b &= b - 1) {
			v = g->sm[i].shadow[__ffs64(b)].k;
			if (v == k || v->eff_prio < k->eff_prio)
				continue;
			if (v->held)
				found = true;
			else if (v->eff_prio == k->eff_prio &&
				 !vgpu_gpu_policy_victim(g, v))
				break;
		}
		if (found && !b) {
			m->sm = i;
			m->equal = true;
			return true;
		}
	}
	return false;
}

/*
 * May the policy's @preempt answer SM @i for @k?  Its highest resident
 * priority must be lower than @k's, or equal (the blocks of @k's
 * priority, of other kernels the policy may preempt, then go too:
 * @m->equal), the SM allowed for @k and the mode's test passed.  Return:
 * 1 yes, 0 the rules forbid it, -1 an SM of @k's priority where only the
 * room its blocks would free or a victim's minimum residency
 * (vgpu_gpu_policy_victim()) is lacking: what a policy cannot see.
 */
static int vgpu_gpu_preempt_ok(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			       const struct vgpu_block_shape *shape, u32 i,
			       struct vgpu_gpu_match *m)
{
	struct vgpu_gpu_sm *gs = &g->sm[i];
	const struct vgpu_gpu_kernel *v;
	u32 top = gs->sm.top_prio;
	bool other = false, prot = false;
	u64 b;

	if (top >= VGPU_MAX_PRIOS || top < k->eff_prio ||
	    !vgpu_gpu_sm_allowed(g, k, i))
		return 0;
	m->equal = top == k->eff_prio;
	for (b = m->equal ? gs->shadow_used : 0; b; b &= b - 1) {
		v = gs->shadow[__ffs64(b)].k;
		if (v == k || gs->sm.block[__ffs64(b)].prio != k->eff_prio)
			continue;
		if (vgpu_gpu_policy_victim(g, v))
			other = true;
		else
			prot = true;
	}
	if (g->p.preempt == VGPU_PREEMPT_SWITCH) {
		if (!list_empty(&g->saved_free) &&
		    vgpu_gpu_switch_victims(g, i, k, m->equal, shape))
			return 1;
		return m->equal && (prot || other) ? -1 : 0;
	}
	if (!vgpu_gpu_block_level_fits(g, &gs->sm.res, shape))
		return m->equal && (prot || other) ? -1 : 0;
	if (prot)
		return -1;
	return !m->equal || other ? 1 : 0;
}

/**
 * vgpu_gpu_preempt_pick() - the SM for F23 (c)
 * @g: the device
 * @k: the kernel
 * @shape: the block to place
 * @m: the match; @m->sm is set if it returns true
 *
 * F23 (c) by the policy (policy.h @preempt): its SM if the core's rules
 * allow preempting there (vgpu_gpu_preempt_ok()), else the default's (an
 * answer against the rules counted as an error, an SM of equal priority
 * that lacks room or whose victims are protected as a refusal, which
 * does not count towards an ejection).  In warp mode, then the SMs of
 * kernels a policy preempted (vgpu_gpu_yield()).
 *
 * Return: true if an SM was found.
 */
bool vgpu_gpu_preempt_pick(struct vgpu_gpu *g,
			   struct vgpu_gpu_kernel *k,
			   const struct vgpu_block_shape *shape,
			   struct vgpu_gpu_match *m)
{
	int ok;
	u32 i;

	if (g->policy->preempt) {
		i = g->policy->preempt(g, k);
		if (i == VGPU_POLICY_WAIT)
			return false;
		ok = i < g->cfg.num_sms ? vgpu_gpu_preempt_ok(g, k, shape, i, m) :
					  0;
		if (ok > 0) {
			vgpu_gpu_policy_ok(g);
			m->sm = i;
			return true;
		}
		m->equal = false;
		if (ok < 0)
			vgpu_gpu_policy_refused(g, VGPU_POLICY_OP_PREEMPT);
		else
			vgpu_gpu_policy_err(g, VGPU_POLICY_OP_PREEMPT);
	}
	if (vgpu_gpu_preempt_scan(g, k, shape, m))
		return true;
	return unlikely(g->nheld) && g->p.preempt == VGPU_PREEMPT_WARP &&
	       vgpu_gpu_preempt_yielding(g, k, shape, m);
}

/**
 * DOC: policy expressiveness
 *
 * What a policy may ask of the core beyond its answers, and the default's
 * decisions it may call (composition).  The helpers take the const
 * handles the ops get; the ones that act (vgpu_policy_preempt_kernel(),
 * vgpu_policy_set_prio()) are for @tick only and are, with the policy's
 * own state, the one place where the core writes through a const handle
 * on a policy's behalf: the request is the core's to carry out or refuse.
 *
 * Preemption chosen by the policy, of kernels of equal or lower priority,
 * in every mode (vgpu_gpu_yield(), vgpu_gpu_preempt_pick()):
 *
 * - @preempt may answer an SM whose highest resident priority is the
 *   kernel's own (the default answers only lower ones): the blocks of
 *   that priority there, of other kernels, are preempted as lower ones
 *   are (switch mode: switched out, lowest priority and youngest first,
 *   until the block fits; warp mode: the block is placed in warp mode and
 *   takes their warps' slots as they end).  @preempt is not called in
 *   drain mode.
 * - vgpu_policy_preempt_kernel() from @tick takes SMs back from a kernel:
 *   switch mode switches its resident blocks out; warp mode holds its
 *   dispatch and makes the SMs holding its blocks path (c) candidates for
 *   kernels of its priority or higher; drain mode holds its dispatch.  A
 *   hold lasts vgpu_policy_min_residency() cycles.
 *
 * A kernel preempted on a policy's request cannot be preempted on a
 * policy's request again before blocks of it are back on an SM for
 * vgpu_policy_min_residency() cycles (max(4 x switch cost, epoch)): a
 * request against that is refused and counted (VGPU_POLICY_OP_YIELD, or
 * VGPU_POLICY_OP_PREEMPT for @preempt), but not towards an ejection.
 * Preemptions a policy caused are counted in &vgpu_policy_stats.preemptions,
 * holds in &vgpu_policy_stats.holds; @preempted tells the policy.
 *
 * Dynamic priority: vgpu_policy_set_prio() from @tick sets a kernel's
 * effective priority within the device's levels.  The candidate order
 * (F16, F21, F22 windows), admission and eviction (F13), path (c)'s
 * victims and the SMs' highest resident priority (the F23 (c) candidate
 * map) follow it; warps already started keep their competition priority
 * (F35).  A split kernel (F24) keeps the lowest.  A direct write of
 * &vgpu_gpu_kernel.eff_prio is still undone and counted.
 *
 * GPU time: the core keeps, per kernel, channel (a child kernel's counts
 * for its tree's channel) and tenant, the warp-cycles its resident
 * blocks held SMs: each block counts its warps from the boundary it went
 * to an SM until it completed or was switched out.  Up to
 * VGPU_GPU_MAX_TENANTS tenants with kernels in the device are kept, an
 * entry from a tenant's first kernel until its last leaves (it then
 * starts again from 0); a tenant beyond them reads 0.
 */

/**
 * vgpu_policy_default_admit_before() - the default's admission order
 * @g: the device
 * @a: a waiting kernel
 * @b: another
 *
 * Return: true if @a enters the task table before @b (F13, F16).
 */
bool vgpu_policy_default_admit_before(const struct vgpu_gpu *g,
				      const struct vgpu_gpu_kernel *a,
				      const struct vgpu_gpu_kernel *b)
{
	return vgpu_gpu_older(a, b);
}

/**
 * vgpu_policy_default_select_before() - the default's candidate order
 * @g: the device
 * @a: a candidate
 * @b: another
 *
 * Return: true if @a is offered a decision before @b (F22 window,
 * priority, F21 flag, F26 quota, F16).
 */
bool vgpu_policy_default_select_before(const struct vgpu_gpu *g,
				       const struct vgpu_gpu_kernel *a,
				       const struct vgpu_gpu_kernel *b)
{
	return vgpu_gpu_before(g, a, b);
}

/**
 * vgpu_policy_default_may_evict() - the default's eviction rule (F13)
 * @g: the device
 * @w: the waiting kernel
 * @victim: the occupant
 *
 * Return: true if @victim has a lower effective priority than @w.
 */
bool vgpu_policy_default_may_evict(const struct vgpu_gpu *g,
				   const struct vgpu_gpu_kernel *w,
				   const struct vgpu_gpu_kernel *victim)
{
	return victim->eff_prio > w->eff_prio;
}

/**
 * vgpu_policy_default_select_sm() - the default's SM choice (F25)
 * @ctx: the choice
 * @cands: the SMs that fit, ascending
 * @n: how many, at least 1
 *
 * Return: the index of the first candidate at or after the round-robin
 * pointer, wrapping.
 */
u32 vgpu_policy_default_select_sm(const struct vgpu_policy_ctx *ctx,
				  const struct vgpu_policy_sm *cands, u32 n)
{
	u32 j;

	for (j = 0; j < n; j++)
		if (cands[j].sm >= ctx->rr_next)
			return j;
	return 0;
}

/**
 * vgpu_policy_default_pack() - the default's packing (F23 (a))
 * @g: the device
 * @k: the kernel
 * @want: the most blocks it may place
 *
 * Return: @want.
 */
u32 vgpu_policy_default_pack(const struct vgpu_gpu *g,
			     const struct vgpu_gpu_kernel *k, u32 want)
{
	return want;
}

/**
 * vgpu_policy_default_preempt() - the default's SM for F23 (c)
 * @g: the device
 * @k: the kernel whose next block fits nowhere
 *
 * Return: the SM whose highest resident priority is the lowest below
 * @k's, ties by the fixed SM list, that the preemption mode can use; or
 * VGPU_POLICY_WAIT (also in drain mode).
 */
u32 vgpu_policy_default_preempt(const struct vgpu_gpu *g,
				const struct vgpu_gpu_kernel *k)
{
	/* the scan's scratch state is the core's own: const is dropped */
	struct vgpu_gpu *gw = (struct vgpu_gpu *)g;
	struct vgpu_gpu_kernel *kw = (struct vgpu_gpu_kernel *)k;
	struct vgpu_gpu_match m = { 0 };

	if (!vgpu_gpu_path_c_open(g, k, k->nsaved > 0))
		return VGPU_POLICY_WAIT;
	return vgpu_gpu_preempt_scan(gw, kw, vgpu_gpu_next_shape(k), &m) ?
	       m.sm : VGPU_POLICY_WAIT;
}

/**
 * vgpu_policy_default_split() - the default's kernel to split (F24)
 * @g: the device
 *
 * Return: the first splittable kernel in F13 waiting order, or NULL.
 */
struct vgpu_gpu_kernel *vgpu_policy_default_split(const struct vgpu_gpu *g)
{
	return vgpu_gpu_split_pick(g);
}

/**
 * vgpu_policy_preempt_kernel() - take SMs back from a kernel
 * @g: the device
 * @k: a kernel of the device with blocks on SMs (a request for one
 *	without is dropped)
 *
 * From @tick only; carried out after it, by the preemption mode (DOC
 * "policy expressiveness" above, vgpu_gpu_yield()).
 *
 * Return: 0 if the request is recorded (the core may still refuse it for
 * the minimum residency, counted), -EINVAL outside @tick or for a
 * finished kernel (counted as a refused yield).
 */
int vgpu_policy_preempt_kernel(const struct vgpu_gpu *g,
			       const struct vgpu_gpu_kernel *k)
{
	struct vgpu_gpu *gw = (struct vgpu_gpu *)g;

	if (!g->watch.in_tick || !k ||
	    (k->state != VGPU_KS_QUEUED && k->state != VGPU_KS_ACTIVE &&
	     k->state != VGPU_KS_DRAINING)) {
		gw->pstats.yields_refused++;
		vgpu_gpu_policy_refused(gw, VGPU_POLICY_OP_YIELD);
		return -EINVAL;
	}
	((struct vgpu_gpu_kernel *)k)->yield = true;
	return 0;
}

/**
 * vgpu_policy_set_prio() - set a kernel's effective priority
 * @g: the device
 * @k: a kernel of the device, not split (F24)
 * @prio: 0 (highest) .. the device's lowest priority
 *
 * From @tick only (DOC "policy expressiveness" above).  Its resident
 * blocks take the priority at once (the SMs' highest resident priority
 * follows), its switched-out ones when they come back, its new ones when
 * they are placed.
 *
 * Return: 0, or -EINVAL (counted as an error of VGPU_POLICY_OP_SET_PRIO)
 * outside @tick, out of range or for a kernel that cannot change.
 */
int vgpu_policy_set_prio(const struct vgpu_gpu *g,
			 const struct vgpu_gpu_kernel *k, u32 prio)
{
	struct vgpu_gpu *gw = (struct vgpu_gpu *)g;
	struct vgpu_gpu_kernel *kw = (struct vgpu_gpu_kernel *)k;
	struct list_head *e;
	u32 i;
	u64 m;

	if (!g->watch.in_tick || !k || prio >= g->cfg.num_prios || k->split ||
	    (k->state != VGPU_KS_QUEUED && k->state != VGPU_KS_ACTIVE &&
	     k->state != VGPU_KS_DRAINING)) {
		vgpu_gpu_policy_err(gw, VGPU_POLICY_OP_SET_PRIO);
		return -EINVAL;
	}
	vgpu_gpu_policy_ok(gw);
	if (k->eff_prio == prio)
		return 0;
	kw->eff_prio = prio;
	kw->tick_prio = prio;	/* not a direct write (policy_watch.c) */
	gw->pstats.prio_sets++;
	for (i = 0; k->inflight && i < g->cfg.num_sms; i++) {
		for (m = g->sm[i].shadow_used; m; m &= m - 1)
			if (g->sm[i].shadow[__ffs64(m)].k == k)
				vgpu_sm_block_set_prio(&gw->sm[i].sm,
						       __ffs64(m), prio);
		vgpu_gpu_top_sync(gw, i);
	}
	for (e = kw->saved.next; e != &kw->saved; e = e->next)
		list_entry(e, struct vgpu_gpu_saved, node)->s.row.prio = prio;
	return 0;
}

/**
 * vgpu_policy_kernel_gpu_time() - a kernel's GPU time
 * @g: the device
 * @k: a kernel of the device
 *
 * Return: warp-cycles its blocks held SMs up to &vgpu_gpu.now.
 */
u64 vgpu_policy_kernel_gpu_time(const struct vgpu_gpu *g,
				const struct vgpu_gpu_kernel *k)
{
	return vgpu_gpu_gtime_read(&k->gt, g->now);
}

/**
 * vgpu_policy_channel_gpu_time() - a channel's GPU time
 * @g: the device
 * @ch: the channel
 *
 * Return: warp-cycles the blocks of its kernels (and their children) held
 * SMs since the channel was added, up to &vgpu_gpu.now; 0 for a channel
 * out of range.
 */
u64 vgpu_policy_channel_gpu_time(const struct vgpu_gpu *g, u32 ch)
{
	return ch < g->p.max_channels ?
	       vgpu_gpu_gtime_read(&g->chan_gt[ch], g->now) : 0;
}

/**
 * vgpu_policy_tenant_gpu_time() - a tenant's GPU time
 * @g: the device
 * @tenant: &vgpu_gpu_kernel_args.tenant of its kernels
 *
 * Return: warp-cycles the blocks of its kernels held SMs since it last
 * came to the device with kernels, up to &vgpu_gpu.now; 0 for a tenant
 * without kernels in the device or beyond VGPU_GPU_MAX_TENANTS.
 */
u64 vgpu_policy_tenant_gpu_time(const struct vgpu_gpu *g, u32 tenant)
{
	u32 i;

	for (i = 0; i < VGPU_GPU_MAX_TENANTS; i++)
		if (g->tenant[i].kernels && g->tenant[i].id == tenant)
			return vgpu_gpu_gtime_read(&g->tenant[i].gt, g->now);
	return 0;
}

static_assert(VGPU_POLICY_SM_SLOTS == VGPU_MAX_BLOCKS_PER_SM,
	      "a policy walks every slot of an SM");

/**
 * vgpu_policy_sm_block_kernel() - the kernel of a block slot of an SM
 * @g: the device
 * @sm: SM index
 * @slot: block slot, below VGPU_POLICY_SM_SLOTS
 *
 * Return: the kernel whose block the slot holds, or NULL (free, or out of
 * range).
 */
const struct vgpu_gpu_kernel *
vgpu_policy_sm_block_kernel(const struct vgpu_gpu *g, u32 sm, u32 slot)
{
	if (sm >= g->cfg.num_sms || slot >= VGPU_MAX_BLOCKS_PER_SM ||
	    !(g->sm[sm].shadow_used & BIT_ULL(slot)))
		return NULL;
	return g->sm[sm].shadow[slot].k;
}

/**
 * vgpu_policy_sm_block_prio() - the priority of a block slot of an SM
 * @g: the device
 * @sm: SM index
 * @slot: block slot
 *
 * Return: the priority the block holds the SM at (its kernel's effective
 * priority when it was placed, or as vgpu_policy_set_prio() set it), or
 * ~0 for a free slot.
 */
u32 vgpu_policy_sm_block_prio(const struct vgpu_gpu *g, u32 sm, u32 slot)
{
	if (!vgpu_policy_sm_block_kernel(g, sm, slot))
		return ~0U;
	return g->sm[sm].sm.block[slot].prio;
}

/**
 * vgpu_policy_kernel_preemptible() - may a policy preempt a kernel now?
 * @g: the device
 * @k: a kernel of the device
 *
 * Return: false while it is protected by the minimum residency after a
 * preemption a policy asked for (DOC "policy expressiveness").
 */
bool vgpu_policy_kernel_preemptible(const struct vgpu_gpu *g,
				    const struct vgpu_gpu_kernel *k)
{
	return vgpu_gpu_policy_victim(g, k);
}
