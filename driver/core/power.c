// SPDX-License-Identifier: GPL-2.0
/*
 * Power weight calibration (SPEC F25, seed 001 [0247]-[0253]).
 *
 * For each timed class s a probe kernel "LOOP 64 / 8 x s / ENDLOOP / EXIT"
 * runs alone on one scratch SM (the other SMs take no part: they are
 * idle).  The emulation's "measured power" of the probe is the class's
 * energy constant times its issue rate, energy_s x count_s / cycles (in
 * 1/1024 units); the weight b_s is that power scaled so that the most
 * power-hungry class gets VGPU_POWER_WEIGHT_SCALE (at least 1).
 */
#include "vgpu_os.h"
#include "power.h"

/* Run the probe of class @c on @sm, fill @pr; 0 or -errno. */
static int vgpu_power_probe_run(struct vgpu_sm *sm,
				struct vgpu_worker_pool *pool,
				const struct vgpu_config *cfg,
				const struct vgpu_isa_timing *timing, u32 c,
				struct vgpu_power_probe *pr)
{
	struct vgpu_insn prog[VGPU_POWER_PROBE_BODY + 3];
	u16 match[VGPU_POWER_PROBE_BODY + 3];
	struct vgpu_kernel_desc k;
	u32 n = 0, i;
	u64 spent = 0;
	int ret;

	memset(prog, 0, sizeof(prog));
	prog[n].op = VGPU_OP_LOOP;
	prog[n++].imm = VGPU_LOOP_IMM(VGPU_POWER_PROBE_ITERS, 0);
	for (i = 0; i < VGPU_POWER_PROBE_BODY; i++)
		prog[n++].op = VGPU_OP_MOV + c;
	prog[n++].op = VGPU_OP_ENDLOOP;
	prog[n++].op = VGPU_OP_EXIT;
	memset(&k, 0, sizeof(k));
	k.id = c;
	k.grid = 1;
	k.threads = min(cfg->max_threads_per_block,
			cfg->warp_size * cfg->subparts * 4);
	k.regs_per_thread = 32;
	ret = vgpu_kernel_desc_init(&k, cfg, prog, n, match);
	if (ret)
		return ret;
	ret = vgpu_sm_init(sm, cfg, timing, pool, 0);
	if (ret)
		return ret;
	ret = vgpu_sm_block_add(sm, &k, 0, 0, VGPU_PLACE_BLOCK);
	while (!ret && !vgpu_sm_idle(sm) && spent < (1ULL << 32))
		spent += vgpu_sm_run(sm, 1 << 20, VGPU_SM_RUN_STOP_BLOCK);
	if (!ret && !vgpu_sm_idle(sm))
		ret = -ETIMEDOUT;
	if (!ret) {
		pr->cycles = (u32)sm->stats.last_done + 1;
		pr->count = sm->stats.cls[c];
		pr->power = (u32)div_u64((u64)timing->energy[c] * pr->count *
					 1024, pr->cycles);
	}
	vgpu_sm_fini(sm);
	return ret;
}

/**
 * vgpu_power_calibrate() - derive the power weights from probe kernels
 * @scratch: an SM to run the probes on (re-initialised, then torn down)
 * @pool: a warp context pool with at least max_warps_per_sm free contexts
 * @cfg: the device configuration
 * @timing: the timing table; its @weight entries are replaced
 * @probe: if not NULL, receives the VGPU_ISA_NUM_CLASSES probe results
 *
 * Return: 0, or a negative errno if a probe could not run.
 */
int vgpu_power_calibrate(struct vgpu_sm *scratch, struct vgpu_worker_pool *pool,
			 const struct vgpu_config *cfg,
			 struct vgpu_isa_timing *timing,
			 struct vgpu_power_probe *probe)
{
	u32 power[VGPU_ISA_NUM_CLASSES], maxp = 1, c;
	struct vgpu_power_probe pr;
	int ret;

	for (c = 0; c < VGPU_ISA_NUM_CLASSES; c++) {
		ret = vgpu_power_probe_run(scratch, pool, cfg, timing, c, &pr);
		if (ret)
			return ret;
		power[c] = pr.power;
		maxp = max(maxp, pr.power);
		if (probe)
			probe[c] = pr;
	}
	for (c = 0; c < VGPU_ISA_NUM_CLASSES; c++)
		timing->weight[c] = max_t(u32, 1,
					  div_u64((u64)power[c] *
						  VGPU_POWER_WEIGHT_SCALE,
						  maxp));
	return 0;
}
