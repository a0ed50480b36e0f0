// SPDX-License-Identifier: GPL-2.0
/*
 * Default timing table of the engine (F04, F25, F35).
 */
#include "vgpu_os.h"
#include "timing.h"

/* Indexed by class: MOV, LOAD, STORE, MMA, CMP, BRA, ALU. */
static const u32 vgpu_default_latency[VGPU_ISA_NUM_CLASSES] = {
	2, 24, 12, 16, 2, 4, 4
};

static const u32 vgpu_default_energy[VGPU_ISA_NUM_CLASSES] = {
	2, 8, 7, 32, 1, 1, 3
};

/**
 * vgpu_isa_timing_default() - the default timing table
 * @t: filled with the defaults of Documentation/engine.rst; the weights
 *	start equal to the energies until calibrated
 */
void vgpu_isa_timing_default(struct vgpu_isa_timing *t)
{
	u32 c;

	memset(t, 0, sizeof(*t));
	for (c = 0; c < VGPU_ISA_NUM_CLASSES; c++) {
		t->latency[c] = vgpu_default_latency[c];
		t->energy[c] = vgpu_default_energy[c];
		t->weight[c] = vgpu_default_energy[c];
	}
	t->ctrl_latency = 1;
	t->hold_max = VGPU_DEFAULT_HOLD_MAX;
	t->window = VGPU_DEFAULT_WINDOW;
}

/**
 * vgpu_isa_timing_validate() - check a timing table
 * @t: the table
 *
 * Return: 0, or -EINVAL if a latency is outside 1..VGPU_MAX_LATENCY, an
 * energy above VGPU_MAX_ENERGY, a weight above 2^20 (an MMA size's above
 * 2^20 x 2^VGPU_MMA_SIZE_MAX), hold_max 0 or the window not a multiple of
 * 16 in 16..VGPU_MAX_WINDOW.
 */
int vgpu_isa_timing_validate(const struct vgpu_isa_timing *t)
{
	u32 c;

	for (c = 0; c < VGPU_ISA_NUM_CLASSES; c++)
		if (!t->latency[c] || t->latency[c] > VGPU_MAX_LATENCY ||
		    t->energy[c] > VGPU_MAX_ENERGY || t->weight[c] > (1U << 20))
			return -EINVAL;
	for (c = 0; c < VGPU_MMA_SIZE_MAX; c++)
		if (t->mma_weight[c] > (1U << (20 + VGPU_MMA_SIZE_MAX)))
			return -EINVAL;
	if (!t->ctrl_latency || t->ctrl_latency > VGPU_MAX_LATENCY ||
	    !t->hold_max || t->window < 16 || t->window > VGPU_MAX_WINDOW ||
	    t->window % 16)
		return -EINVAL;
	return 0;
}
