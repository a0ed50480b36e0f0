// SPDX-License-Identifier: GPL-2.0
/*
 * The policy watchdog: a policy cannot stall the device.
 *
 * The core checks what it can of a policy's answers (policy.h), counts
 * every refused answer per op (&vgpu_gpu.pstats) and ejects a policy that
 * keeps the device from making progress, the way sched_ext's watchdog
 * ejects a BPF scheduler: the device goes on with the default policy and
 * loses nothing.
 */
#include "vgpu_os.h"
#include "gpu_internal.h"
#include "policy_default.h"

/**
 * DOC: policy watchdog
 *
 * The core refuses an answer that breaks its rules and uses the default's
 * instead (policy.h); each refusal is counted in
 * &vgpu_policy_stats.errors under its op (enum vgpu_policy_op).  On top of
 * the answers checked since the ops exist, the watchdog checks:
 *
 * - @tick: a tick must not change &vgpu_gpu_kernel.eff_prio (the core's
 *   priority; F22 and path (c) read it).  The core compares it with a
 *   copy taken before the tick, restores it and counts an error of
 *   VGPU_POLICY_OP_TICK for each kernel written.
 * - the ordering ops (@admit_before, @select_before) and @may_evict:
 *   for the first VGPU_POLICY_ORDER_CHECKS answers "yes" after a policy is
 *   set, the core asks the op the other way round too.  A comparator for
 *   which a < b and b < a, or a @may_evict that lets two kernels evict
 *   each other, is inconsistent: the answer is not used (the pair keeps
 *   its order; no eviction) and counted.
 * - yields: a kernel whose blocks were switched out by a yield must stay
 *   on its SMs for vgpu_policy_min_residency() cycles once it is back
 *   before it can be yielded again, and nothing of it is placed again at
 *   the boundary of its yield.  A yield asked for earlier is refused and
 *   counted (VGPU_POLICY_OP_YIELD), but not towards an ejection: it does
 *   no harm.  A yielding policy thus cannot keep a kernel from finishing:
 *   each of its turns on an SM runs at least that long minus the restore
 *   cost (&vgpu_gpu_params.switch_cost).
 *
 * A policy is ejected when either
 *
 * - VGPU_POLICY_MAX_ERRORS_IN_ROW of its answers in a row were refused
 *   (any used answer of an op the core checks restarts the count; refused
 *   yields neither count nor restart it), or
 * - it stalled the device for VGPU_POLICY_STALL_BOUNDARIES boundaries in a
 *   row.  A boundary stalls when kernels wait with blocks to place, no
 *   block was placed, no SM holds a block that runs (every resident block,
 *   if any, waits for a child kernel), and the policy held work back: an
 *   SM choice of VGPU_POLICY_WAIT among SMs that fit (the default would
 *   have placed the block there), or a yield.  A device waiting for a
 *   reason of its own (the gate, F26 throttling, affinity no SM allows,
 *   an arrival to come, resources held by running blocks) never counts,
 *   and neither does a policy that confines kernels to SMs that are busy:
 *   running blocks finish and the policy then places.
 *
 * Ejection happens at the next boundary, before the tick: the device
 * switches to the fallback policy (the device's own SM choice,
 * &vgpu_gpu_params.sm_choice, when it has one, else the built-in "rr": the
 * seeds' pipeline with that SM choice), zeroes the policy state as a switch
 * does, records the reason in &vgpu_gpu.pstats and tells the host
 * (&vgpu_gpu_host_ops.policy_exit).  Every kernel keeps its blocks, placed,
 * switched out or waiting, and completes under the fallback.  The fallback
 * itself is never ejected.
 */

static const char *const vgpu_policy_op_names[VGPU_POLICY_NUM_OPS] = {
	[VGPU_POLICY_OP_TICK]		= "tick",
	[VGPU_POLICY_OP_ADMIT_BEFORE]	= "admit_before",
	[VGPU_POLICY_OP_MAY_EVICT]	= "may_evict",
	[VGPU_POLICY_OP_SELECT_BEFORE]	= "select_before",
	[VGPU_POLICY_OP_SELECT_SM]	= "select_sm",
	[VGPU_POLICY_OP_PACK]		= "pack",
	[VGPU_POLICY_OP_PREEMPT]	= "preempt",
	[VGPU_POLICY_OP_SPLIT]		= "split",
	[VGPU_POLICY_OP_YIELD]		= "yield",
	[VGPU_POLICY_OP_SET_PRIO]	= "set_prio",
};

static const char *const vgpu_policy_exit_names[VGPU_POLICY_NUM_EXITS] = {
	[VGPU_POLICY_EXIT_NONE]		= "none",
	[VGPU_POLICY_EXIT_STALL]	= "stall",
	[VGPU_POLICY_EXIT_ERRORS]	= "errors",
};

/**
 * vgpu_policy_op_name() - the name of a checked op
 * @op: enum vgpu_policy_op
 *
 * Return: its name ("select_sm", ...), or "?" out of range.
 */
const char *vgpu_policy_op_name(u32 op)
{
	return op < VGPU_POLICY_NUM_OPS ? vgpu_policy_op_names[op] : "?";
}

/**
 * vgpu_policy_exit_name() - the name of an ejection reason
 * @reason: enum vgpu_policy_exit
 *
 * Return: its name ("stall", "errors", "none"), or "?" out of range.
 */
const char *vgpu_policy_exit_name(u32 reason)
{
	return reason < VGPU_POLICY_NUM_EXITS ?
	       vgpu_policy_exit_names[reason] : "?";
}

/**
 * vgpu_policy_min_residency() - cycles a yielded kernel stays once back
 * @g: the device
 *
 * Return: VGPU_POLICY_MIN_RESIDENCY_SWITCHES switch costs, at least an
 * epoch.
 */
u64 vgpu_policy_min_residency(const struct vgpu_gpu *g)
{
	return max_t(u64, (u64)VGPU_POLICY_MIN_RESIDENCY_SWITCHES *
			  g->p.switch_cost, g->p.epoch);
}

/**
 * vgpu_policy_watch_reset() - a policy starts on the device
 * @g: the device
 *
 * Its watch starts afresh; &vgpu_gpu.pstats keeps its counts.
 */
void vgpu_policy_watch_reset(struct vgpu_gpu *g)
{
	g->watch.err_row = 0;
	g->watch.last_op = VGPU_POLICY_NUM_OPS;
	g->watch.stall = 0;
	g->watch.eject = VGPU_POLICY_EXIT_NONE;
	g->watch.order_checks = VGPU_POLICY_ORDER_CHECKS;
	g->watch.held = false;
	g->pstats.ejected = false;
}

/**
 * vgpu_policy_watch_init() - the watchdog of a new device
 * @g: the device, its policy set
 * @policies: the registry its policy came from: the fallback is the
 *	device's SM choice (&vgpu_gpu_params.sm_choice) when set, else "rr"
 */
void vgpu_policy_watch_init(struct vgpu_gpu *g, struct list_head *policies)
{
	memset(&g->pstats, 0, sizeof(g->pstats));
	g->pstats.exit_op = VGPU_POLICY_NUM_OPS;
	g->watch.fallback = vgpu_policy_find(policies, g->p.sm_choice[0] ?
					     g->p.sm_choice : "rr");
	if (!g->watch.fallback)
		g->watch.fallback = g->policy_reg;
	vgpu_policy_watch_reset(g);
}

/**
 * vgpu_policy_eject() - carry out the ejection decided at the last boundary
 * @g: the device, &vgpu_gpu.watch.eject set (vgpu_policy_watch_start())
 *
 * Replaces the policy by the fallback, or drops the request if the
 * fallback is the policy.
 */
void vgpu_policy_eject(struct vgpu_gpu *g)
{
	struct vgpu_policy_reg *old = g->policy_reg, *now = g->watch.fallback;
	u32 reason = g->watch.eject, i;

	if (old == now) {
		/* the fallback is the seeds' pipeline: never ejected */
		vgpu_policy_watch_reset(g);
		return;
	}
	g->pstats.ejections++;
	g->pstats.exit_reason = reason;
	g->pstats.exit_op = reason == VGPU_POLICY_EXIT_ERRORS ?
			    g->watch.last_op : VGPU_POLICY_NUM_OPS;
	g->pstats.exit_at = g->now;
	memcpy(g->pstats.exit_name, old->ops->name, VGPU_POLICY_NAME_LEN);
	g->pstats.exit_name[VGPU_POLICY_NAME_LEN - 1] = 0;
	if (old->ops->exit)
		old->ops->exit(g);
	/* as vgpu_gpu_set_policy(): from zero state; "rr" has no init */
	vgpu_gpu_policy_start(g, now);
	for (i = 0; i < VGPU_POLICY_NAME_LEN - 1 && now->ops->name[i]; i++)
		g->p.policy[i] = now->ops->name[i];
	g->p.policy[i] = 0;
	g->pstats.ejected = true;
	if (g->host_ops && g->host_ops->policy_exit)
		g->host_ops->policy_exit(g->host, old, now, reason);
}

/**
 * vgpu_policy_watch_tick() - the policy's tick, checked
 * @g: the device, g->policy->tick set
 *
 * The tick may set &vgpu_gpu_kernel.yield and write the policy's state;
 * an effective priority it changed is restored and counted.  Then the
 * yields it asked for (vgpu_gpu_yield()).
 */
void vgpu_policy_watch_tick(struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *k;

	/* what held work back at the boundary before is forgotten */
	g->watch.held = false;
	list_for_each_entry(k, &g->kernels, table_node)
		k->tick_prio = k->eff_prio;
	g->watch.in_tick = true;
	g->policy->tick(g);
	g->watch.in_tick = false;
	list_for_each_entry(k, &g->kernels, table_node) {
		if (likely(k->eff_prio == k->tick_prio))
			continue;
		k->eff_prio = k->tick_prio;
		vgpu_gpu_policy_err(g, VGPU_POLICY_OP_TICK);
	}
	vgpu_gpu_yield(g);
}

/* Does any SM hold a block that runs (one not waiting for a child)? */
static bool vgpu_policy_sms_run(const struct vgpu_gpu *g)
{
	const struct vgpu_gpu_sm *gs;
	u32 i;
	u64 m;

	for (i = 0; i < g->cfg.num_sms; i++) {
		gs = &g->sm[i];
		for (m = gs->shadow_used; m; m &= m - 1)
			if (!gs->shadow[__ffs64(m)].wait)
				return true;
	}
	return false;
}

/**
 * vgpu_policy_watch_boundary() - the dispatch rounds of a boundary are over
 * @g: the device, its policy not the fallback (vgpu_policy_watch_end())
 * @stuck: kernels wait with blocks to place and none was placed
 *
 * Counts the boundary towards a stall if the policy held work back and
 * nothing runs (DOC block above); decides the ejection.
 */
void vgpu_policy_watch_boundary(struct vgpu_gpu *g, bool stuck)
{
	bool held = g->watch.held;

	g->watch.held = false;
	if (!stuck || !held || vgpu_policy_sms_run(g)) {
		g->watch.stall = 0;
		return;
	}
	if (++g->watch.stall >= VGPU_POLICY_STALL_BOUNDARIES &&
	    !g->watch.eject)
		g->watch.eject = VGPU_POLICY_EXIT_STALL;
}

/**
 * vgpu_policy_order_check() - is an ordering answer consistent?
 * @g: the device; g->watch.order_checks not 0
 * @op: VGPU_POLICY_OP_ADMIT_BEFORE, _SELECT_BEFORE or _MAY_EVICT
 * @a: the kernel the op put first (or the evicting kernel)
 * @b: the other (or the victim)
 *
 * The op said yes for (@a, @b); asks it for (@b, @a).
 *
 * Return: true if it said no (the answer may be used); else the error is
 * counted.
 */
bool vgpu_policy_order_check(struct vgpu_gpu *g, u32 op,
			     const struct vgpu_gpu_kernel *a,
			     const struct vgpu_gpu_kernel *b)
{
	const struct vgpu_policy_ops *pol = g->policy;
	bool back;

	g->watch.order_checks--;
	if (op == VGPU_POLICY_OP_ADMIT_BEFORE)
		back = pol->admit_before(g, b, a);
	else if (op == VGPU_POLICY_OP_SELECT_BEFORE)
		back = pol->select_before(g, b, a);
	else
		back = pol->may_evict(g, b, a);
	if (!back) {
		vgpu_gpu_policy_ok(g);
		return true;
	}
	vgpu_gpu_policy_err(g, op);
	return false;
}
