// SPDX-License-Identifier: GPL-2.0
/*
 * calib.c - the power calibration of a device, once per configuration
 * (the replay's start-up cost).
 *
 * vgpu_gpu_init() with @calibrate set runs the single-class probe kernels
 * and the resource probes of F25 on SM 0 every time (power.c).  vgpu-sim
 * initialises a device for the shared run, every kernel alone and every
 * tenant alone: thousands of devices of one configuration whose probes
 * give the same weights each time.  vgpu_sim_params_calibrated() runs
 * them once per (configuration, timing, resource energies and weights)
 * and hands the device its weights with @calibrate clear: the same
 * device state as calibrating it, without the probes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "sim.h"
#include "power.h"

#define VGPU_CALIB_CACHE	8	/* configurations remembered */

/* The inputs of a calibration and its result. */
struct vgpu_calib_entry {
	struct vgpu_config cfg;
	struct vgpu_isa_timing timing;
	u32 res_energy[VGPU_RES_NUM];
	u32 res_weight[VGPU_RES_NUM];	/* as given */
	u32 weight[VGPU_ISA_NUM_CLASSES];	/* out: b_s */
	u32 mma_weight[VGPU_MMA_SIZE_MAX];	/* out: b_s of the MMA sizes */
	u32 res_out[VGPU_RES_NUM];	/* out: a_h */
};

static struct vgpu_calib_entry vgpu_calib_cache[VGPU_CALIB_CACHE];
static unsigned int vgpu_calib_n, vgpu_calib_next;
static unsigned long vgpu_calib_runs;

/* The key of @p on @cfg, zero-padded so that memcmp() compares it. */
static void vgpu_calib_key(struct vgpu_calib_entry *e,
			   const struct vgpu_config *cfg,
			   const struct vgpu_gpu_params *p)
{
	memset(e, 0, sizeof(*e));
	memcpy(&e->cfg, cfg, sizeof(*cfg));
	memcpy(&e->timing, &p->timing, sizeof(p->timing));
	memcpy(e->res_energy, p->res_energy, sizeof(e->res_energy));
	memcpy(e->res_weight, p->res_weight, sizeof(e->res_weight));
}

/* The probes of vgpu_gpu_init() (gpu.c), in its order, on a scratch SM. */
static int vgpu_calib_run(struct vgpu_calib_entry *e,
			  const struct vgpu_gpu_params *p)
{
	struct vgpu_isa_timing timing = p->timing;
	struct vgpu_worker_pool pool;
	struct vgpu_warp *warps;
	struct vgpu_sm *sm;
	u32 i, given = 0;
	int ret;

	sm = vgpu_sim_sm_alloc();
	warps = calloc(e->cfg.max_warps_per_sm, sizeof(*warps));
	if (!sm || !warps) {
		ret = -ENOMEM;
		goto out;
	}
	vgpu_worker_pool_init(&pool, warps, e->cfg.max_warps_per_sm);
	ret = vgpu_power_calibrate(sm, &pool, &e->cfg, &timing, NULL);
	if (ret)
		goto out;
	memcpy(e->weight, timing.weight, sizeof(e->weight));
	memcpy(e->mma_weight, timing.mma_weight, sizeof(e->mma_weight));
	for (i = 0; i < VGPU_RES_NUM; i++)
		given |= p->res_weight[i];
	if (given) {
		memcpy(e->res_out, p->res_weight, sizeof(e->res_out));
	} else {
		memset(sm, 0, sizeof(*sm));
		vgpu_worker_pool_init(&pool, warps, e->cfg.max_warps_per_sm);
		ret = vgpu_power_calibrate_res(sm, &pool, &e->cfg, &timing,
					       p->res_energy, e->res_out);
	}
	vgpu_calib_runs++;
out:
	free(warps);
	free(sm);
	return ret;
}

int vgpu_sim_params_calibrated(const struct vgpu_config *cfg,
			       const struct vgpu_gpu_params *p,
			       struct vgpu_gpu_params *out)
{
	struct vgpu_calib_entry key, *e = NULL;
	unsigned int i;
	int ret;

	*out = *p;
	if (!p->calibrate)
		return 0;
	vgpu_calib_key(&key, cfg, p);
	for (i = 0; i < vgpu_calib_n; i++)
		if (!memcmp(&vgpu_calib_cache[i], &key,
			    offsetof(struct vgpu_calib_entry, weight))) {
			e = &vgpu_calib_cache[i];
			break;
		}
	if (!e) {
		ret = vgpu_calib_run(&key, p);
		if (ret)
			return ret;
		e = &vgpu_calib_cache[vgpu_calib_next];
		*e = key;
		vgpu_calib_next = (vgpu_calib_next + 1) % VGPU_CALIB_CACHE;
		if (vgpu_calib_n < VGPU_CALIB_CACHE)
			vgpu_calib_n++;
	}
	memcpy(out->timing.weight, e->weight, sizeof(out->timing.weight));
	memcpy(out->timing.mma_weight, e->mma_weight,
	       sizeof(out->timing.mma_weight));
	memcpy(out->res_weight, e->res_out, sizeof(out->res_weight));
	out->calibrate = 0;
	return 0;
}

unsigned long vgpu_sim_calibrations(void)
{
	return vgpu_calib_runs;
}
