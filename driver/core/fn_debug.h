/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fn_debug.h - seed 004's debugger, the core's half: a read-only view of a
 * functional warp's data and of a block's shared memory, and a hook called
 * before a functional warp executes an instruction (Documentation/engine.rst,
 * "Functional mode", "Inspecting the data").
 *
 * The views read what the engine keeps; they change nothing.  The hook is
 * for a host that runs the engine on its own thread (vgpu-sim's debugger):
 * it is called on the SM's thread with the warp about to execute the
 * instruction at its pc, so the host may stop there and read every view.
 * A device without a hook pays one test of a NULL pointer per functional
 * instruction, and the hook changes no decision: a run with it has the
 * same trace as one without.  fn_debug.c adds the program a warp runs
 * (vgpu_fn_warp_prog()), to show the instruction at its pc.
 */
#ifndef VGPU_CORE_FN_DEBUG_H
#define VGPU_CORE_FN_DEBUG_H

#include "vgpu_os.h"
#include "lane.h"

struct vgpu_sm;
struct vgpu_gpu;
struct vgpu_insn;

/**
 * struct vgpu_fn_warp_view - what a functional warp holds (read-only)
 * @slot: its block's slot in the SM
 * @wid: its index in the block (the warp of the original kernel for a
 *	unit of a split kernel: see @block)
 * @kernel: its kernel's id
 * @block: its block's index in the grid
 * @state: enum vgpu_warp_state
 * @pc: the instruction it executes next
 * @live: lanes that exist and have not executed EXIT
 * @active: lanes that execute the instruction at @pc
 * @depth: frames on its reconvergence stack
 * @pred: predicates p0..p7, bit l for lane l
 * @nregs: registers per lane
 * @regs: register r of lane l at @regs[r * VGPU_ISA_LANES + l]
 * @priv_bytes: private memory per lane
 * @priv: lane l's private memory at @priv + l * @priv_bytes
 */
struct vgpu_fn_warp_view {
	u32 slot;
	u32 wid;
	u32 kernel;
	u32 block;
	u32 state;
	u32 pc;
	u32 live;
	u32 active;
	u32 depth;
	u32 pred[VGPU_ISA_NUM_PREDS];
	u32 nregs;
	const u32 *regs;
	u32 priv_bytes;
	const u8 *priv;
};

/**
 * typedef vgpu_fn_hook_fn - called before a functional warp executes
 * @cookie: what vgpu_gpu_fn_set_hook() was given
 * @sm: the SM, in the middle of vgpu_sm_run()
 * @idx: the warp's context (vgpu_fn_warp_view())
 *
 * The host may read any view of any SM; it must change nothing.
 */
typedef void (*vgpu_fn_hook_fn)(void *cookie, const struct vgpu_sm *sm,
				u32 idx);

int vgpu_fn_warp_view(const struct vgpu_sm *sm, u32 idx,
		      struct vgpu_fn_warp_view *v);
const u8 *vgpu_fn_block_smem_view(const struct vgpu_sm *sm, u32 slot,
				  u32 *size);
void vgpu_gpu_fn_set_hook(struct vgpu_gpu *g, vgpu_fn_hook_fn fn,
			  void *cookie);
const struct vgpu_insn *vgpu_fn_warp_prog(const struct vgpu_sm *sm, u32 idx,
					  u32 *n_insns);

#endif /* VGPU_CORE_FN_DEBUG_H */
