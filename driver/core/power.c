// SPDX-License-Identifier: GPL-2.0
/*
 * Power weight calibration (F25, seed 001 [0247]-[0253]).
 *
 * For each timed class s a probe kernel that issues na = nx instructions of
 * s (claim 4) runs alone on one scratch SM (step j100: the other SMs take
 * no part, they are idle).  The emulation's "measured power" of the probe is the class's
 * energy constant times its issue rate, energy_s x count_s / cycles (in
 * 1/1024 units); the weight b_s is that power scaled so that the most
 * power-hungry class gets VGPU_POWER_WEIGHT_SCALE (at least 1).  The
 * matrix instructions are classed by size as well (seed 001 [0270]): a
 * probe of MMAs of each size 2^s tiles, s >= 1, alone on the SM, sets
 * that size's weight in the same proportion (the one-tile MMA is the
 * class's own probe).
 */
#include "vgpu_os.h"
#include "power.h"

/*
 * Probe program of class @c, @m instructions of it per warp (seed 001
 * claim 4: the probe issues na = nx instructions in all): an outer loop of
 * 256 x 8 (when needed), a loop of 8, then the rest one by one, so that
 * control instructions are at most one issue in nine.
 */
static u32 vgpu_power_probe_prog(struct vgpu_insn *prog, u32 c, u32 m)
{
	u32 n = 0, i, hi = m / 2048, mid = m % 2048 / 8, lo = m % 8;

	if (hi) {
		prog[n].op = VGPU_OP_LOOP;
		prog[n++].imm = VGPU_LOOP_IMM(hi, 0);
		prog[n].op = VGPU_OP_LOOP;
		prog[n++].imm = VGPU_LOOP_IMM(256, 0);
		for (i = 0; i < 8; i++)
			prog[n++].op = VGPU_OP_MOV + c;
		prog[n++].op = VGPU_OP_ENDLOOP;
		prog[n++].op = VGPU_OP_ENDLOOP;
	}
	if (mid) {
		prog[n].op = VGPU_OP_LOOP;
		prog[n++].imm = VGPU_LOOP_IMM(mid, 0);
		for (i = 0; i < 8; i++)
			prog[n++].op = VGPU_OP_MOV + c;
		prog[n++].op = VGPU_OP_ENDLOOP;
	}
	for (i = 0; i < lo; i++)
		prog[n++].op = VGPU_OP_MOV + c;
	prog[n++].op = VGPU_OP_EXIT;
	return n;
}

/* Warps of a probe block: a power of two up to 16 that fits the SM. */
static u32 vgpu_power_probe_warps(const struct vgpu_config *cfg)
{
	u32 w = VGPU_POWER_PROBE_WARPS;

	while (w > 1 && (w > cfg->max_warps_per_sm ||
			 w * cfg->warp_size > cfg->max_threads_per_block))
		w /= 2;
	return w;
}

/*
 * Run one block of @k on @sm alone until it ends.  *@held receives what the
 * block held while resident (struct vgpu_power_res_probe), *@cycles how
 * long it ran.  0 or -errno.
 */
static int vgpu_power_run_block(struct vgpu_sm *sm,
				struct vgpu_worker_pool *pool,
				const struct vgpu_config *cfg,
				const struct vgpu_isa_timing *timing,
				struct vgpu_kernel_desc *k, u32 nblocks,
				u32 *held, u32 *cycles)
{
	const struct vgpu_sm_res *r = &sm->res;
	u64 spent = 0;
	u32 b;
	int ret;

	ret = vgpu_sm_init(sm, cfg, timing, pool, 0);
	if (ret)
		return ret;
	for (b = 0; b < nblocks && !ret; b++)
		ret = vgpu_sm_block_add(sm, k, b, 0, VGPU_PLACE_BLOCK);
	if (!ret && held) {
		held[VGPU_RES_REGS] = r->subparts * r->reg_units - r->reg_free;
		held[VGPU_RES_WARPS] = r->warps_total;
		held[VGPU_RES_SMEM] = r->smem_units - r->smem_free;
		held[VGPU_RES_BLOCKS] = r->blocks_used;
	}
	while (!ret && !vgpu_sm_idle(sm) && spent < (1ULL << 32))
		spent += vgpu_sm_run(sm, 1 << 20, VGPU_SM_RUN_STOP_BLOCK);
	if (!ret && !vgpu_sm_idle(sm))
		ret = -ETIMEDOUT;
	if (!ret && cycles)
		*cycles = (u32)sm->stats.last_done + 1;
	return ret;
}

/* Run the probe of class @c (MMA of 2^@size tiles) on @sm, fill @pr. */
static int vgpu_power_probe_run(struct vgpu_sm *sm,
				struct vgpu_worker_pool *pool,
				const struct vgpu_config *cfg,
				const struct vgpu_isa_timing *timing, u32 c,
				u32 size, struct vgpu_power_probe *pr)
{
	struct vgpu_insn prog[VGPU_POWER_PROBE_LEN];
	u16 match[VGPU_POWER_PROBE_LEN];
	struct vgpu_kernel_desc k;
	u32 warps = vgpu_power_probe_warps(cfg), n, i;
	int ret;

	memset(prog, 0, sizeof(prog));
	n = vgpu_power_probe_prog(prog, c, timing->window / warps);
	for (i = 0; i < n; i++)
		if (prog[i].op == VGPU_OP_MMA)
			prog[i].a = size;
	memset(&k, 0, sizeof(k));
	k.id = c;
	k.grid = 1;
	k.threads = warps * cfg->warp_size;
	k.regs_per_thread = 32;
	ret = vgpu_kernel_desc_init(&k, cfg, prog, n, match);
	if (!ret)
		ret = vgpu_power_run_block(sm, pool, cfg, timing, &k, 1, NULL,
					   &pr->cycles);
	if (!ret) {
		pr->count = sm->stats.cls[c];
		pr->power = (u32)div_u64((u64)timing->energy[c] * pr->count *
					 (1U << size) * 1024, pr->cycles);
	}
	vgpu_sm_fini(sm);
	return ret;
}

/**
 * vgpu_power_probe_class() - run the probe kernel of one class
 * @scratch: an SM to run the probe on (re-initialised, then torn down)
 * @pool: a warp context pool with at least max_warps_per_sm free contexts
 * @cfg: the device configuration
 * @timing: the timing table (energies, latencies, window nx)
 * @cls: the class (opcode - VGPU_OP_MOV)
 * @size: for MMA, the log2 of its size in tiles (VGPU_MMA_SIZE_MAX at
 *	most); 0 for every other class
 * @pr: the result
 *
 * The probe is one block of up to 16 warps that issues nx instructions of
 * the class in all (seed 001 claim 4, na = nx).
 *
 * Return: 0, or a negative errno if the probe could not run.
 */
int vgpu_power_probe_class(struct vgpu_sm *scratch,
			   struct vgpu_worker_pool *pool,
			   const struct vgpu_config *cfg,
			   const struct vgpu_isa_timing *timing, u32 cls,
			   u32 size, struct vgpu_power_probe *pr)
{
	if (cls >= VGPU_ISA_NUM_CLASSES || size > VGPU_MMA_SIZE_MAX ||
	    (size && cls != VGPU_OP_MMA - VGPU_OP_MOV))
		return -EINVAL;
	return vgpu_power_probe_run(scratch, pool, cfg, timing, cls, size, pr);
}

/**
 * vgpu_power_calibrate() - derive the power weights from probe kernels
 * @scratch: an SM to run the probes on (re-initialised, then torn down)
 * @pool: a warp context pool with at least max_warps_per_sm free contexts
 * @cfg: the device configuration
 * @timing: the timing table; its @weight and @mma_weight entries are
 *	replaced
 * @probe: if not NULL, receives the VGPU_ISA_NUM_CLASSES probe results
 *	(of the one-tile MMA for MMA)
 *
 * Return: 0, or a negative errno if a probe could not run.
 */
int vgpu_power_calibrate(struct vgpu_sm *scratch, struct vgpu_worker_pool *pool,
			 const struct vgpu_config *cfg,
			 struct vgpu_isa_timing *timing,
			 struct vgpu_power_probe *probe)
{
	u32 power[VGPU_ISA_NUM_CLASSES], maxp = 1, c, s;
	struct vgpu_power_probe pr;
	int ret;

	for (c = 0; c < VGPU_ISA_NUM_CLASSES; c++) {
		ret = vgpu_power_probe_run(scratch, pool, cfg, timing, c, 0,
					   &pr);
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
	/* each MMA size alone (the scale stays the timed classes') */
	for (s = 1; s <= VGPU_MMA_SIZE_MAX; s++) {
		ret = vgpu_power_probe_run(scratch, pool, cfg, timing,
					   VGPU_OP_MMA - VGPU_OP_MOV, s, &pr);
		if (ret)
			return ret;
		timing->mma_weight[s - 1] =
			max_t(u32, 1, div_u64((u64)pr.power *
					      VGPU_POWER_WEIGHT_SCALE, maxp));
	}
	return 0;
}

/**
 * vgpu_power_res_sensor() - the emulated static-power sensor of an SM
 * @energy: energy per held unit and cycle of each resource h
 *	(VGPU_RES_*), the device's res_energy
 * @held: units of each resource held on the SM
 *
 * Return: sum of energy_h * held_h, the power the emulation "measures"
 * while a probe is resident (seed 001 step i101).
 */
u64 vgpu_power_res_sensor(const u32 *energy, const u32 *held)
{
	u64 p = 0;
	u32 h;

	for (h = 0; h < VGPU_RES_NUM; h++)
		p += (u64)energy[h] * held[h];
	return p;
}

/* Power (sensor) and held units of @nblocks blocks of one probe shape. */
static int vgpu_power_res_probe(struct vgpu_sm *sm,
				struct vgpu_worker_pool *pool,
				const struct vgpu_config *cfg,
				const struct vgpu_isa_timing *timing,
				const u32 *energy, u32 threads, u32 regs,
				u32 smem, u32 nblocks, u32 *held, u64 *power)
{
	struct vgpu_insn prog[2] = { { .op = VGPU_OP_ALU },
				     { .op = VGPU_OP_EXIT } };
	struct vgpu_kernel_desc k;
	u16 match[2];
	int ret;

	memset(&k, 0, sizeof(k));
	k.grid = nblocks;
	k.threads = threads;
	k.regs_per_thread = regs;
	k.smem_bytes = smem;
	ret = vgpu_kernel_desc_init(&k, cfg, prog, 2, match);
	if (!ret)
		ret = vgpu_power_run_block(sm, pool, cfg, timing, &k, nblocks,
					   held, NULL);
	vgpu_sm_fini(sm);
	if (!ret)
		*power = vgpu_power_res_sensor(energy, held);
	return ret;
}

/**
 * vgpu_power_calibrate_res() - derive the resource weights a_h (F25)
 * @scratch: an SM to run the probes on (re-initialised, then torn down)
 * @pool: a warp context pool with at least max_warps_per_sm free contexts
 * @cfg: the device configuration
 * @timing: the timing table of the SM engine
 * @energy: the emulated energy of one held unit of each resource per
 *	cycle (VGPU_RES_*), read by the emulated sensor
 * @weight: receives a_h, the most power-hungry resource's
 *	VGPU_POWER_WEIGHT_SCALE, every other at least 1
 *
 * Seed 001 [0247]-[0253] (steps i10, i100-i102): on one SM alone, probe
 * tasks that need (as nearly as a block can) only resource h run, and the
 * power they draw sets a_h in the same proportions.  A block always holds
 * a warp slot, a block slot and some registers, so each probe differs
 * from a minimal base block in one resource where it can (registers,
 * shared memory); more warps also hold more registers and a second block
 * holds one of everything, so those two subtract what the resources
 * already calibrated account for.  Per held unit, each a_h comes out
 * proportional to energy_h, exactly.
 *
 * Return: 0, or a negative errno if a probe could not run.
 */
int vgpu_power_calibrate_res(struct vgpu_sm *scratch,
			     struct vgpu_worker_pool *pool,
			     const struct vgpu_config *cfg,
			     const struct vgpu_isa_timing *timing,
			     const u32 *energy, u32 *weight)
{
	u32 base[VGPU_RES_NUM], h_p[VGPU_RES_NUM], ws = cfg->warp_size;
	u32 regs = min_t(u32, VGPU_MAX_REGS_PER_THREAD,
			 cfg->regs_per_subpart / ws);
	u32 warps = min(cfg->max_threads_per_block / ws,
			cfg->warps_per_subpart * cfg->subparts);
	u32 smem = min(cfg->smem_max_per_block,
		       cfg->smem_per_sm - cfg->smem_reserve);
	/* x_h: power per unit of h, in 1/1024 of the sensor's units */
	u64 pb, pp, x[VGPU_RES_NUM], maxx = 1, rest;
	u32 h, i, j, o;
	int ret;
	static const u8 order[VGPU_RES_NUM] = {
		VGPU_RES_REGS, VGPU_RES_SMEM, VGPU_RES_WARPS, VGPU_RES_BLOCKS
	};

	ret = vgpu_power_res_probe(scratch, pool, cfg, timing, energy, ws, 1,
				   0, 1, base, &pb);
	for (j = 0; j < VGPU_RES_NUM && !ret; j++) {
		h = order[j];
		ret = vgpu_power_res_probe(scratch, pool, cfg, timing, energy,
					   h == VGPU_RES_WARPS ? warps * ws : ws,
					   h == VGPU_RES_REGS ? regs : 1,
					   h == VGPU_RES_SMEM ? smem : 0,
					   h == VGPU_RES_BLOCKS ? 2 : 1,
					   h_p, &pp);
		if (ret)
			break;
		/* take away what the resources already known account for */
		rest = (pp - pb) * 1024;
		for (i = 0; i < j; i++) {
			o = order[i];
			rest -= min(rest, x[o] * (h_p[o] - base[o]));
		}
		/* a probe that cannot hold more of h: the sensor's figure */
		x[h] = h_p[h] > base[h] ? div_u64(rest, h_p[h] - base[h]) :
					  (u64)energy[h] * 1024;
		maxx = max(maxx, x[h]);
	}
	if (ret)
		return ret;
	for (h = 0; h < VGPU_RES_NUM; h++)
		weight[h] = max_t(u32, 1, div_u64(x[h] * VGPU_POWER_WEIGHT_SCALE,
						  (u32)maxx));
	return 0;
}
