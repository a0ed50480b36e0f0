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
 * @uses_functional: the program contains a functional instruction
 *	(VGPU_OP_FUNC_FIRST..VGPU_OP_FUNC_LAST; functional mode only)
 * @uses_branch: the program contains BRP or JMP: @max_dyn_insns is then
 *	VGPU_ISA_DYN_UNBOUNDED (only the hang timeout or an instruction
 *	budget bounds such a kernel)
 * @uses_global_store: the program contains STG or ATOMG
 * @uses_atomic: the program contains ATOMG or ATOMS
 * @max_reg: highest register number a functional instruction names (0
 *	when none does): the kernel needs at least @max_reg + 1 registers
 *	per thread
 * @slot_mask: bit s set when an instruction names buffer slot s (LDG,
 *	STG, LDC, ATOMG)
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
	bool uses_functional;
	bool uses_branch;
	bool uses_global_store;
	bool uses_atomic;
	u32 max_reg;
	u32 slot_mask;
};

/* vgpu_isa_validate_flags() flags */
#define VGPU_ISA_FUNCTIONAL	BIT(0)	/* accept functional instructions */
#define VGPU_ISA_FLAGS_ALL	VGPU_ISA_FUNCTIONAL

/* vgpu_isa_summary.max_dyn_insns of a program with branches */
#define VGPU_ISA_DYN_UNBOUNDED	(~0ULL)

static_assert(VGPU_ISA_MAX_SLOTS <= 32, "slot_mask is a u32 mask");

int vgpu_isa_validate(const struct vgpu_insn *prog, u32 n,
		      struct vgpu_isa_error *err);
int vgpu_isa_summarize(const struct vgpu_insn *prog, u32 n,
		       struct vgpu_isa_summary *sum);
int vgpu_isa_validate_flags(const struct vgpu_insn *prog, u32 n, u32 flags,
			    struct vgpu_isa_error *err);
int vgpu_isa_summarize_flags(const struct vgpu_insn *prog, u32 n, u32 flags,
			     struct vgpu_isa_summary *sum);
bool vgpu_isa_is_functional(u8 op);
u32 vgpu_isa_insn_max_reg(const struct vgpu_insn *in);
u32 vgpu_isa_func_operands(const struct vgpu_insn *in, u32 n);
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
