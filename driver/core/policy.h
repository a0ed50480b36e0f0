/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SM-choice policies of the global controller (SPEC F25, F27).
 *
 * A policy picks one SM among those a block fits on.  Policies are ops
 * tables registered by name in a registry (a plain list): the core keeps no
 * global state, so the caller owns the registry and serialises access to
 * it.  The module keeps one registry for all devices under a mutex and
 * exports register/unregister so another module can add its own policy,
 * the way TCP congestion control or the I/O schedulers do.
 */
#ifndef VGPU_CORE_POLICY_H
#define VGPU_CORE_POLICY_H

#include "vgpu_os.h"
#include "resource.h"

#define VGPU_POLICY_NAME_LEN	16

struct vgpu_gpu;

/**
 * struct vgpu_policy_sm - what a policy may look at for one fitting SM
 * @sm: SM index
 * @res: its remaining resources (read only)
 * @power: instruction-power history of the SM over the last nx cycles,
 *	sum of b_s * c_s (F25)
 */
struct vgpu_policy_sm {
	u32 sm;
	const struct vgpu_sm_res *res;
	u64 power;
};

/**
 * struct vgpu_policy_ctx - one choice to make
 * @gpu: the device (for per-device policy state such as the RR pointer)
 * @shape: the block to place
 * @rr_next: round-robin pointer of the device: the SM after the last one
 *	chosen (read; the controller advances it after the choice)
 * @sm_rank: fixed SM priority list as a rank per SM (lower = preferred),
 *	used to break ties (F25)
 * @res_weight: weights a_h of the resources: [0] free register units,
 *	[1] free warp slots, [2] free shared memory units, [3] free block slots
 */
struct vgpu_policy_ctx {
	struct vgpu_gpu *gpu;
	const struct vgpu_block_shape *shape;
	u32 rr_next;
	const u16 *sm_rank;
	const u32 *res_weight;
};

/**
 * struct vgpu_policy - an SM-choice policy (F25, F27)
 * @name: the name devices select it by
 * @choose: return the index into @cands of the chosen SM; @n >= 1 and
 *	@cands is in ascending SM order.  Must be deterministic and must not
 *	write anything but its own state.
 * @first_fit: @choose always picks the first candidate at or after
 *	&vgpu_policy_ctx.rr_next (wrapping), so the controller may stop
 *	scanning at the first SM that fits and skip @choose
 * @node: registry link (owned by the registry)
 */
struct vgpu_policy {
	char name[VGPU_POLICY_NAME_LEN];
	bool first_fit;
	u32 (*choose)(const struct vgpu_policy_ctx *ctx,
		      const struct vgpu_policy_sm *cands, u32 n);
	struct list_head node;
};

void vgpu_policy_registry_init(struct list_head *registry);
int vgpu_policy_register(struct list_head *registry, struct vgpu_policy *pol);
void vgpu_policy_unregister(struct vgpu_policy *pol);
struct vgpu_policy *vgpu_policy_find(struct list_head *registry,
				     const char *name);
u64 vgpu_policy_weighted_free(const struct vgpu_sm_res *res,
			      const u32 *weight);

#endif /* VGPU_CORE_POLICY_H */
