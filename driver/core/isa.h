/* SPDX-License-Identifier: GPL-2.0 */
/*
 * isa.h - validator and helpers of the virtual ISA (F04).
 *
 * The encoding lives in <linux/vgpu_dispatch.h> ("Virtual ISA" section);
 * Documentation/isa.rst describes the semantics.  Every program passes
 * vgpu_isa_validate() before the engine sees it; the validator is a security
 * boundary: O(n), no recursion, no allocation, reads only prog[0..n-1].
 */
#ifndef VGPU_CORE_ISA_H
#define VGPU_CORE_ISA_H

#include "vgpu_os.h"
#include <linux/vgpu_dispatch.h>

static_assert(sizeof(struct vgpu_insn) == VGPU_INSN_SIZE,
	      "uapi instruction size");

/**
 * struct vgpu_isa_error - why vgpu_isa_validate() rejected a program
 * @rule: VGPU_ISA_ERR_* (VGPU_ISA_OK when the program is valid)
 * @index: index of the offending instruction (see VGPU_ISA_ERR_LENGTH for
 *         the length rule)
 */
struct vgpu_isa_error {
	u32 rule;
	u32 index;
};

/**
 * struct vgpu_isa_summary - static facts about a valid program
 * @n_insns: number of instructions
 * @class_count: static count of each timed class, indexed by
 *               opcode - VGPU_OP_MOV
 * @n_loops: number of LOOP instructions
 * @max_depth: deepest LOOP nesting (0 when there is no loop)
 * @mutex_mask: bit m set when LOCK m / UNLOCK m appears
 * @max_dyn_insns: worst-case instructions one warp executes, over every
 *                 block and warp index, counting SPIN once
 * @uses_bar: the program contains BAR (F23: the block is never partially
 *            resident)
 * @uses_lock: the program contains LOCK
 * @uses_spin: the program contains SPIN
 * @wid_dependent: some LOOP count depends on the warp index
 * @bid_dependent: some LOOP count depends on the block index
 * @launch_mask: bit t set when LAUNCH t appears (F15)
 * @uses_launch: the program contains LAUNCH (F15)
 * @uses_launch_wait: the program contains LAUNCH with VGPU_LAUNCH_WAIT:
 *	the block may suspend, so it is never partially resident (F15, F23)
 * @uses_push: the program contains PUSH (F14)
 */
struct vgpu_isa_summary {
	u32 n_insns;
	u32 class_count[VGPU_ISA_NUM_CLASSES];
	u32 n_loops;
	u32 max_depth;
	u32 mutex_mask;
	u64 max_dyn_insns;
	bool uses_bar;
	bool uses_lock;
	bool uses_spin;
	bool wid_dependent;
	bool bid_dependent;
	u32 launch_mask;
	bool uses_launch;
	bool uses_launch_wait;
	bool uses_push;
};

int vgpu_isa_validate(const struct vgpu_insn *prog, u32 n,
		      struct vgpu_isa_error *err);
int vgpu_isa_summarize(const struct vgpu_insn *prog, u32 n,
		       struct vgpu_isa_summary *sum);
int vgpu_isa_link(const struct vgpu_insn *prog, u32 n, u16 *match);
void vgpu_isa_link_valid(const struct vgpu_insn *prog, u32 n, u16 *match);
u32 vgpu_isa_loop_count(const struct vgpu_insn *insn, u32 bid, u32 wid);
u32 vgpu_isa_loop_count_items(const struct vgpu_insn *insn, u32 bid, u32 wid,
			      u32 items);
u32 vgpu_isa_loop_max(const struct vgpu_insn *insn);
int vgpu_isa_class(u8 op);
const char *vgpu_isa_op_name(u8 op);
const char *vgpu_isa_rule_str(u32 rule);

#endif /* VGPU_CORE_ISA_H */
