// SPDX-License-Identifier: GPL-2.0
/*
 * fair - fair share of GPU time between the tenants, then between the
 * channels, of one priority, in the spirit of the DRM scheduler's fair
 * policy and of CFS.  A tenant is an open file in the module and a
 * workload's "tenant" in vgpu-sim (vgpu_policy_kernel_tenant()).
 *
 * A channel's and a tenant's charge is the GPU time the core keeps for
 * them (warp-cycles of their resident blocks: vgpu_policy_channel_gpu_time(),
 * vgpu_policy_tenant_gpu_time()) plus an offset of the policy's: a
 * channel or tenant that was idle is brought up to the least charge of
 * the busy ones when its next kernel arrives, so that idling does not
 * bank credit (CFS's min_vruntime).  Among the kernels of one priority,
 * the one whose tenant was charged least is offered the next decision and
 * enters the task table first; within a tenant, the one whose channel was
 * charged least; at equal charge, the one with fewer warps resident right
 * now (counted at each boundary and at each dispatch), so that the
 * decisions of one boundary are shared too.  So a tenant of three
 * channels and one of one channel get about the same GPU time, and so do
 * a channel of long blocks and one of short blocks, where the seeds'
 * order (F21) gives every channel the same number of decisions.
 *
 * It takes SMs back for fairness: when a kernel's next block fits
 * nowhere, @preempt first asks the seeds' answer (an SM of lower
 * priority), and else names the SM whose blocks of the kernel's priority
 * all belong to kernels charged more than it, the most charged first.
 * The core then switches those blocks out (switch mode) or places the
 * block over them, taking their warps' slots as they end (warp mode),
 * and keeps a kernel so preempted on its SMs for the minimum residency
 * before it can be preempted again.  So a light channel beside a heavy
 * one at equal priority is served at once, not when the heavy one's
 * blocks happen to end.  In drain mode nothing is preempted.
 *
 * FAIR_TENANTS tenants with kernels in the device are told apart; the
 * kernels of further tenants are shared by channel only.  Tenant numbers
 * are compared for equality only, so the module's file numbers and a
 * workload's tenant numbers give the same decisions.
 */
#include "vgpu_policy.h"

/* A channel's state: its offset and its warps resident now. */
struct fair_acct {
	u64 offset;		/* warp-cycles added to its GPU time */
	u64 resident;		/* warps resident now */
};

/* A tenant's slot. */
struct fair_tenant {
	struct fair_acct acct;
	u64 id;			/* tenant + 1, 0 = free */
	u64 kernels;		/* its kernels in the device */
};

#define FAIR_TENANTS	31

/* The per-device state. */
struct fair_state {
	u64 floor;		/* least charge of a busy channel */
	u64 tfloor;		/* least charge of a busy tenant */
	struct fair_tenant t[FAIR_TENANTS];
};

/* The per-kernel state: the root's tenant slot + 1, 0 = none. */
struct fair_kernel {
	u64 slot;
};

/* The index of @k's tree's tenant slot, or -1: none. */
static int fair_tenant(const struct vgpu_gpu *g,
		       const struct vgpu_gpu_kernel *k)
{
	const struct vgpu_gpu_kernel *r = vgpu_policy_kernel_root(k);
	const struct fair_kernel *fk = vgpu_policy_kernel_state_ro(r);
	const struct fair_state *st = vgpu_policy_state_ro(g);
	u64 s = fk->slot;

	if (!s || s > FAIR_TENANTS ||
	    st->t[s - 1].id != (u64)vgpu_policy_kernel_tenant(r) + 1)
		return -1;
	return s - 1;
}

/* What tenant slot @t was charged. */
static u64 fair_tcharge(const struct vgpu_gpu *g, int t)
{
	const struct fair_state *st = vgpu_policy_state_ro(g);

	return vgpu_policy_tenant_gpu_time(g, st->t[t].id - 1) +
	       st->t[t].acct.offset;
}

/* What channel @ch was charged. */
static u64 fair_ccharge(const struct vgpu_gpu *g, u32 ch)
{
	const struct fair_acct *a = vgpu_policy_chan_state_ro(g, ch);

	return vgpu_policy_channel_gpu_time(g, ch) + a->offset;
}

/* Charged less, then fewer warps resident now: -1, 0 or 1. */
static int fair_cmp(u64 ca, u64 ra, u64 cb, u64 rb)
{
	if (ca != cb)
		return ca < cb ? -1 : 1;
	if (ra != rb)
		return ra < rb ? -1 : 1;
	return 0;
}

/* Is @a's share before @b's: tenant, then channel?  -1, 0 or 1. */
static int fair_share(const struct vgpu_gpu *g,
		      const struct vgpu_gpu_kernel *a,
		      const struct vgpu_gpu_kernel *b)
{
	const struct fair_state *st = vgpu_policy_state_ro(g);
	int ta = fair_tenant(g, a), tb = fair_tenant(g, b), c;
	u32 ca = vgpu_policy_kernel_channel(a), cb = vgpu_policy_kernel_channel(b);
	const struct fair_acct *aa, *ab;

	if (ta >= 0 && tb >= 0 && ta != tb) {
		c = fair_cmp(fair_tcharge(g, ta), st->t[ta].acct.resident,
			     fair_tcharge(g, tb), st->t[tb].acct.resident);
		if (c)
			return c;
	}
	if (ca == cb)
		return 0;
	aa = vgpu_policy_chan_state_ro(g, ca);
	ab = vgpu_policy_chan_state_ro(g, cb);
	return fair_cmp(fair_ccharge(g, ca), aa->resident,
			fair_ccharge(g, cb), ab->resident);
}

static bool fair_before(const struct vgpu_gpu *g,
			const struct vgpu_gpu_kernel *a,
			const struct vgpu_gpu_kernel *b)
{
	u32 pa = vgpu_policy_kernel_eff_prio(a);
	u32 pb = vgpu_policy_kernel_eff_prio(b);
	u64 xa, xb;
	int c;

	if (pa != pb)
		return pa < pb;
	c = fair_share(g, a, b);
	if (c)
		return c < 0;
	xa = vgpu_policy_kernel_arrival(a);
	xb = vgpu_policy_kernel_arrival(b);
	if (xa != xb)
		return xa < xb;
	return vgpu_policy_kernel_seq(a) < vgpu_policy_kernel_seq(b);
}

/*
 * Nothing fits @k: the seeds' SM of lower priority, else the SM whose
 * blocks of @k's priority are all of kernels charged more than @k (and
 * that the core lets a policy preempt now), the most charged first.
 */
static u32 fair_preempt(const struct vgpu_gpu *g,
			const struct vgpu_gpu_kernel *k)
{
	u32 sm = vgpu_policy_default_preempt(g, k), prio, s, i, best;
	const struct vgpu_gpu_kernel *v;
	u64 most = 0, c;
	bool ok;

	if (sm != VGPU_POLICY_WAIT)
		return sm;
	prio = vgpu_policy_kernel_eff_prio(k);
	best = VGPU_POLICY_WAIT;
	for (s = 0; s < vgpu_policy_num_sms(g); s++) {
		if (vgpu_policy_sm_top_prio(g, s) != prio)
			continue;
		ok = false;
		c = 0;
		for (i = 0; i < VGPU_POLICY_SM_SLOTS; i++) {
			v = vgpu_policy_sm_block_kernel(g, s, i);
			if (!v || v == k || vgpu_policy_sm_block_prio(g, s, i) != prio)
				continue;
			if (fair_share(g, k, v) >= 0 ||
			    !vgpu_policy_kernel_preemptible(g, v)) {
				ok = false;
				break;
			}
			ok = true;
			c = max(c, fair_ccharge(g, vgpu_policy_kernel_channel(v)));
		}
		if (ok && (best == VGPU_POLICY_WAIT || c > most)) {
			best = s;
			most = c;
		}
	}
	return best;
}

static void fair_submitted(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	u32 ch = vgpu_policy_kernel_channel(k);
	struct fair_acct *c = vgpu_policy_chan_state(g, ch);
	struct fair_kernel *fk = vgpu_policy_kernel_state(k);
	struct fair_state *st = vgpu_policy_state(g);
	struct fair_tenant *t = NULL, *free = NULL;
	u64 id = (u64)vgpu_policy_kernel_tenant(k) + 1, now;
	u32 s;

	now = fair_ccharge(g, ch);
	if (now < st->floor)
		c->offset += st->floor - now;
	for (s = 0; s < FAIR_TENANTS && !t; s++) {
		if (st->t[s].id == id)
			t = &st->t[s];
		else if (!st->t[s].id && !free)
			free = &st->t[s];
	}
	if (!t) {
		if (!free)
			return;		/* shared by channel only */
		t = free;
		t->id = id;
		/* the core's time of a tenant back in the device starts at 0 */
		t->acct.offset = st->tfloor;
		t->acct.resident = 0;
	}
	t->kernels++;
	fk->slot = t - st->t + 1;
}

/* @k leaves the device: its tenant's slot is free once it has no kernel. */
static void fair_gone(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	struct fair_kernel *fk = vgpu_policy_kernel_state(k);
	struct fair_state *st = vgpu_policy_state(g);
	int t = vgpu_policy_kernel_root(k) == k ? fair_tenant(g, k) : -1;

	if (t >= 0 && !--st->t[t].kernels)
		st->t[t].id = 0;
	fk->slot = 0;
}

/*
 * At each boundary: count every tenant's and channel's resident warps
 * afresh, then raise the floors to the least charges of the kernels.
 */
static void fair_tick(struct vgpu_gpu *g)
{
	struct fair_state *st = vgpu_policy_state(g);
	u64 c, floor = ~0ULL, tfloor = ~0ULL;
	const struct vgpu_gpu_kernel *k;
	struct fair_acct *ch;
	u32 i;
	int t;

	for (i = 0; i < vgpu_policy_num_channels(g); i++) {
		ch = vgpu_policy_chan_state(g, i);
		ch->resident = 0;
	}
	for (i = 0; i < FAIR_TENANTS; i++)
		st->t[i].acct.resident = 0;
	vgpu_policy_for_each_kernel(g, k) {
		c = (u64)vgpu_policy_kernel_resident(k) *
		    vgpu_policy_kernel_warps(k);
		ch = vgpu_policy_chan_state(g, vgpu_policy_kernel_channel(k));
		ch->resident += c;
		floor = min(floor, fair_ccharge(g, vgpu_policy_kernel_channel(k)));
		t = fair_tenant(g, k);
		if (t >= 0) {
			st->t[t].acct.resident += c;
			tfloor = min(tfloor, fair_tcharge(g, t));
		}
	}
	if (floor != ~0ULL && floor > st->floor)
		st->floor = floor;
	if (tfloor != ~0ULL && tfloor > st->tfloor)
		st->tfloor = tfloor;
}

static void fair_dispatched(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			    u32 sm)
{
	struct fair_state *st = vgpu_policy_state(g);
	struct fair_acct *ch;
	int t = fair_tenant(g, k);

	ch = vgpu_policy_chan_state(g, vgpu_policy_kernel_channel(k));
	ch->resident += vgpu_policy_kernel_warps(k);
	if (t >= 0)
		st->t[t].acct.resident += vgpu_policy_kernel_warps(k);
}

static const struct vgpu_policy_ops fair_ops = {
	.name			= "fair",
	.state_size		= sizeof(struct fair_state),
	.chan_state_size	= sizeof(struct fair_acct),
	.kernel_state_size	= sizeof(struct fair_kernel),
	.tick			= fair_tick,
	.admit_before		= fair_before,
	.select_before		= fair_before,
	.preempt		= fair_preempt,
	.submitted		= fair_submitted,
	.dispatched		= fair_dispatched,
	.kernel_done		= fair_gone,
	.cancelled		= fair_gone,
};

static_assert(sizeof(struct fair_state) <= VGPU_POLICY_MAX_STATE,
	      "the core keeps that much");

VGPU_POLICY(fair_ops);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vgpu-dispatch scheduling policy: fair share of GPU time per tenant and channel, preempting for it");
