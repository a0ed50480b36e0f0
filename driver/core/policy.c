// SPDX-License-Identifier: GPL-2.0
/*
 * SM-choice policies (F25) and their registry (F27).
 *
 * Built in: "rr" (round-robin, seed 002), "avail" (most further blocks of
 * this kernel fit, ties by the fixed SM priority list, seed 002),
 * "resource" (largest weighted remaining resources sum a_h * r_h, seed 001
 * embodiment 9) and "power" (smallest instruction-power history
 * sum b_s * c_s over the last nx cycles, seed 001 embodiment 10) and
 * "combined" (the two together with weights, [0283]).
 */
#include "vgpu_os.h"
#include "policy.h"

static bool vgpu_policy_streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/* Candidate @c's figure @want (one VGPU_POLICY_WANT_* bit). */
static __always_inline u64 vgpu_policy_key(const struct vgpu_policy_sm *c,
					   u32 want)
{
	if (want == VGPU_POLICY_WANT_FIT)
		return c->fit;
	if (want == VGPU_POLICY_WANT_FREE)
		return c->free;
	return c->power;
}

/*
 * The candidate with the largest figure @want (fit, free) or, for power,
 * the smallest; ties go to the lower rank in the fixed SM list.  One pass
 * with the best figure and rank in registers.
 */
static __always_inline u32 vgpu_policy_best(const struct vgpu_policy_ctx *ctx,
					    const struct vgpu_policy_sm *c,
					    u32 n, u32 want)
{
	bool low = want == VGPU_POLICY_WANT_POWER;
	u64 bv = vgpu_policy_key(&c[0], want), v;
	u32 i, best = 0, br = ctx->sm_rank[c[0].sm], r;

	for (i = 1; i < n; i++) {
		v = vgpu_policy_key(&c[i], want);
		if (low ? v > bv : v < bv)
			continue;
		r = ctx->sm_rank[c[i].sm];
		if (v != bv || r < br) {
			best = i;
			bv = v;
			br = r;
		}
	}
	return best;
}

static u32 vgpu_policy_avail_choose(const struct vgpu_policy_ctx *ctx,
				    const struct vgpu_policy_sm *c, u32 n)
{
	return vgpu_policy_best(ctx, c, n, VGPU_POLICY_WANT_FIT);
}

/**
 * vgpu_policy_weighted_free() - weighted free units of an SM
 * @res: the SM
 * @weight: a_h for [free register units, free warp slots, free shared
 *	memory units, free block slots]
 *
 * Every free unit counts, of every register sub-partition, wherever it
 * lies: a policy's own figure from &vgpu_policy_sm.res.  With a scalar
 * register file the registers count at most the free scalar units as the
 * same share of the register file (a warp needs both).  The controller's
 * figure (&vgpu_policy_sm.free, the "resource" policy's) counts the
 * largest free runs instead, as seed 001 [0041] asks.
 *
 * Return: sum of a_h * r_h.
 */
u64 vgpu_policy_weighted_free(const struct vgpu_sm_res *res,
			      const u32 *weight)
{
	u64 regs = res->reg_free;

	if (res->sreg_units)
		regs = min_t(u64, regs, div_u64((u64)res->sreg_free *
						res->reg_units,
						res->sreg_units));
	return regs * weight[0] +
	       (u64)(res->max_warps - res->warps_total) * weight[1] +
	       (u64)res->smem_free * weight[2] +
	       (u64)(res->max_blocks - res->blocks_used) * weight[3];
}

static u32 vgpu_policy_resource_choose(const struct vgpu_policy_ctx *ctx,
				       const struct vgpu_policy_sm *c, u32 n)
{
	return vgpu_policy_best(ctx, c, n, VGPU_POLICY_WANT_FREE);
}

static u32 vgpu_policy_power_choose(const struct vgpu_policy_ctx *ctx,
				    const struct vgpu_policy_sm *c, u32 n)
{
	return vgpu_policy_best(ctx, c, n, VGPU_POLICY_WANT_POWER);
}

/*
 * Seed 001 [0283]: embodiments 9 and 10 combined with weights.  Each
 * figure is scaled to 0..2^16 by its largest value (an empty SM's weighted
 * resources; an SM issuing its most power-hungry class on every
 * sub-partition for nx cycles), then score = combo * free - (100 - combo)
 * * power: the most remaining resources and the least power history win;
 * ties by the fixed SM list.
 */
/*
 * The scaled figures of the candidate before, kept across the loop: SMs
 * in the same state (idle ones, ones running the same blocks) have the
 * same figures, and each scaling is a 64-bit division.
 */
struct vgpu_policy_combined_memo {
	u64 free, f;
	u64 power, p;
};

static s64 vgpu_policy_combined_score(const struct vgpu_policy_ctx *ctx,
				      const struct vgpu_policy_sm *c,
				      struct vgpu_policy_combined_memo *m)
{
	if (c->free != m->free) {
		m->free = c->free;
		m->f = div64_u64(c->free << 16, ctx->free_max);
	}
	if (c->power != m->power) {
		m->power = c->power;
		m->p = div64_u64(min(c->power, ctx->power_max) << 16,
				 max_t(u64, ctx->power_max, 1));
	}
	return (s64)(ctx->combo * m->f) - (s64)((100 - ctx->combo) * m->p);
}

static u32 vgpu_policy_combined_choose(const struct vgpu_policy_ctx *ctx,
				       const struct vgpu_policy_sm *c, u32 n)
{
	struct vgpu_policy_combined_memo m = {
		.free = 0, .f = 0, .power = 0, .p = 0,
	};
	s64 bv = vgpu_policy_combined_score(ctx, &c[0], &m), v;
	u32 i, best = 0;

	for (i = 1; i < n; i++) {
		v = vgpu_policy_combined_score(ctx, &c[i], &m);
		if (v > bv || (v == bv &&
			       ctx->sm_rank[c[i].sm] < ctx->sm_rank[c[best].sm])) {
			best = i;
			bv = v;
		}
	}
	return best;
}

static const struct vgpu_policy_ops vgpu_policy_builtin[] = {
	{ .name = "rr", .select_sm = vgpu_policy_default_select_sm, .first_fit = true,
	  .packing = VGPU_POLICY_PACK_BLOCK },
	{ .name = "avail", .select_sm = vgpu_policy_avail_choose,
	  .packing = VGPU_POLICY_PACK_BLOCK, .wants = VGPU_POLICY_WANT_FIT },
	{ .name = "resource", .select_sm = vgpu_policy_resource_choose,
	  .packing = VGPU_POLICY_PACK_SM, .wants = VGPU_POLICY_WANT_FREE },
	{ .name = "power", .select_sm = vgpu_policy_power_choose,
	  .packing = VGPU_POLICY_PACK_SM, .wants = VGPU_POLICY_WANT_POWER },
	{ .name = "combined", .select_sm = vgpu_policy_combined_choose,
	  .packing = VGPU_POLICY_PACK_SM,
	  .wants = VGPU_POLICY_WANT_FREE | VGPU_POLICY_WANT_POWER },
};

/* Their registry entries: one registry at a time links them. */
static struct vgpu_policy_reg vgpu_policy_builtin_reg[] = {
	{ .ops = &vgpu_policy_builtin[0] },
	{ .ops = &vgpu_policy_builtin[1] },
	{ .ops = &vgpu_policy_builtin[2] },
	{ .ops = &vgpu_policy_builtin[3] },
	{ .ops = &vgpu_policy_builtin[4] },
};

static_assert(ARRAY_SIZE(vgpu_policy_builtin_reg) ==
	      ARRAY_SIZE(vgpu_policy_builtin), "an entry per built-in");

/**
 * vgpu_policy_registry_init() - a registry holding the built-in policies
 * @registry: list head to initialise
 *
 * The built-in policies' entries are static, so they are linked into one
 * registry at a time (the module has exactly one; a native program calls
 * this once per registry it uses and forgets the previous one).
 * Protected by: caller.
 */
void vgpu_policy_registry_init(struct list_head *registry)
{
	struct vgpu_policy_reg *reg;
	u32 i;

	INIT_LIST_HEAD(registry);
	for (i = 0; i < ARRAY_SIZE(vgpu_policy_builtin_reg); i++) {
		reg = &vgpu_policy_builtin_reg[i];
		reg->owner = NULL;
		reg->users = 0;
		list_add_tail(&reg->node, registry);
	}
}

/**
 * vgpu_policy_sm_choice() - a built-in SM choice by name
 * @name: "rr", "avail", "resource", "power" or "combined"
 *
 * What &vgpu_gpu_params.sm_choice may name: the built-ins are always
 * there, in every registry, so a device composing its policy with one
 * (vgpu_gpu_policy_start()) needs no reference on it.
 *
 * Return: its ops, or NULL for any other name.
 */
const struct vgpu_policy_ops *vgpu_policy_sm_choice(const char *name)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(vgpu_policy_builtin); i++)
		if (vgpu_policy_streq(vgpu_policy_builtin[i].name, name))
			return &vgpu_policy_builtin[i];
	return NULL;
}

/**
 * vgpu_policy_find() - look a policy up by name (F27)
 * @registry: the registry
 * @name: its name
 *
 * Protected by: caller (the registry lock of the module).
 *
 * Return: the policy's entry, or NULL.
 */
struct vgpu_policy_reg *vgpu_policy_find(struct list_head *registry,
					 const char *name)
{
	struct vgpu_policy_reg *reg;

	if (!name)
		return NULL;
	list_for_each_entry(reg, registry, node)
		if (vgpu_policy_streq(reg->ops->name, name))
			return reg;
	return NULL;
}

/**
 * vgpu_policy_register() - add a policy to a registry (F27)
 * @registry: the registry
 * @reg: the entry to link, @reg->ops the policy; its name must be
 *	non-empty and NUL-terminated.  The caller sets @reg->owner and
 *	@reg->users (0).
 *
 * Protected by: caller.
 *
 * Return: 0; -EINVAL for no ops, a bad name, an SM choice that claims
 * @first_fit without a @select_sm, an unknown @packing or
 * VGPU_POLICY_PACK_BLOCK with a @pack op; -E2BIG for a declared state size
 * larger than the core reserves (VGPU_POLICY_MAX_STATE,
 * VGPU_POLICY_MAX_CHAN_STATE, VGPU_POLICY_MAX_KERNEL_STATE); -EEXIST if
 * the name is taken.
 */
int vgpu_policy_register(struct list_head *registry,
			 struct vgpu_policy_reg *reg)
{
	const struct vgpu_policy_ops *ops = reg->ops;

	if (!ops || (ops->first_fit && !ops->select_sm) || !ops->name[0] ||
	    ops->name[VGPU_POLICY_NAME_LEN - 1] ||
	    ops->packing > VGPU_POLICY_PACK_SM ||
	    (ops->packing == VGPU_POLICY_PACK_BLOCK && ops->pack))
		return -EINVAL;
	if (ops->state_size > VGPU_POLICY_MAX_STATE ||
	    ops->chan_state_size > VGPU_POLICY_MAX_CHAN_STATE ||
	    ops->kernel_state_size > VGPU_POLICY_MAX_KERNEL_STATE)
		return -E2BIG;
	if (vgpu_policy_find(registry, ops->name))
		return -EEXIST;
	list_add_tail(&reg->node, registry);
	return 0;
}

/**
 * vgpu_policy_unregister() - remove a policy from its registry
 * @reg: a registered policy's entry; no device uses it any more
 *
 * Protected by: caller.
 */
void vgpu_policy_unregister(struct vgpu_policy_reg *reg)
{
	list_del_init(&reg->node);
}
