/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-device timing, power and arbitration parameters of the engine
 * (F04, F25, F35).  Kept apart from struct vgpu_config, which mirrors
 * the uapi field for field.  Documentation/engine.rst describes the model.
 */
#ifndef VGPU_CORE_TIMING_H
#define VGPU_CORE_TIMING_H

#include "vgpu_os.h"
#include <linux/vgpu_dispatch.h>

#define VGPU_MAX_LATENCY	255	/* cycles */
#define VGPU_MAX_ENERGY		65535	/* emulated energy per instruction */
#define VGPU_MAX_WINDOW		BIT(20)	/* power window nx, cycles */
#define VGPU_DEFAULT_WINDOW	1024	/* seed 001 default nx */
#define VGPU_DEFAULT_HOLD_MAX	64

/**
 * struct vgpu_isa_timing - timing and power of the instruction classes
 * @latency: cycles a warp waits after issuing an instruction of each timed
 *	class (MOV, LOAD, STORE, MMA, CMP, BRA, ALU), 1..VGPU_MAX_LATENCY
 * @ctrl_latency: the same for control instructions (LOOP, ENDLOOP, LOCK,
 *	UNLOCK) and for the resume after a barrier, 1..VGPU_MAX_LATENCY
 * @energy: emulated energy of one instruction of each class; the
 *	"measured power" of calibration is energy x issue rate (F25)
 * @weight: power weight b_s of each class; the power counter of an SM is
 *	sum of weight x instructions issued in the last @window cycles
 * @hold_max: timed instructions a warp may execute while holding locks
 *	before it must release them all (F35), >= 1
 * @window: power / class counter window nx in cycles, a multiple of 16,
 *	16..VGPU_MAX_WINDOW (F25)
 * @mma_weight: power weight b_s of an MMA of 2^s base tiles, s = 1 ..
 *	VGPU_MMA_SIZE_MAX, at index s - 1 (seed 001 [0270]: the sizes are
 *	classes of their own); 0: @weight's MMA entry x 2^s
 *	(vgpu_isa_timing_mma_weight()); set by the calibration from a probe
 *	of each size (power.c)
 */
struct vgpu_isa_timing {
	u32 latency[VGPU_ISA_NUM_CLASSES];
	u32 ctrl_latency;
	u32 energy[VGPU_ISA_NUM_CLASSES];
	u32 weight[VGPU_ISA_NUM_CLASSES];
	u32 hold_max;
	u32 window;
	u32 mma_weight[VGPU_MMA_SIZE_MAX];
};

/**
 * vgpu_isa_timing_mma_weight() - b_s of an MMA of 2^@size base tiles
 * @t: the timing table
 * @size: 0 .. VGPU_MMA_SIZE_MAX
 *
 * Return: its weight: calibrated or given (@t->mma_weight), else the
 * one-tile MMA's times 2^@size.
 */
static inline u32 vgpu_isa_timing_mma_weight(const struct vgpu_isa_timing *t,
					     u32 size)
{
	if (size && t->mma_weight[size - 1])
		return t->mma_weight[size - 1];
	return t->weight[VGPU_OP_MMA - VGPU_OP_MOV] << size;
}

void vgpu_isa_timing_default(struct vgpu_isa_timing *t);
int vgpu_isa_timing_validate(const struct vgpu_isa_timing *t);

#endif /* VGPU_CORE_TIMING_H */
