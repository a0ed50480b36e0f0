/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What vgpu_gpu_submit() would refuse, as one pure check (check.c): the
 * module's SUBMIT makes it (vgpu_gpu_kernel_prepare()), so a kernel it
 * queues is never refused later, nor checked again.
 */
#ifndef VGPU_CORE_CHECK_H
#define VGPU_CORE_CHECK_H

#include "vgpu_os.h"
#include "gpu.h"
#include "resource.h"
#include "isa.h"

u32 vgpu_gpu_search_run(const struct vgpu_gpu_params *p, const u64 *map,
			u32 nbits);
u32 vgpu_gpu_search_run_empty(const struct vgpu_gpu_params *p, u32 nbits);
bool vgpu_gpu_search_exact(const struct vgpu_gpu_params *p);
int vgpu_gpu_search_plan(const struct vgpu_config *cfg,
			 struct vgpu_bmap_periods *plan);
u32 vgpu_gpu_search_cycles(const struct vgpu_gpu_params *p,
			   const struct vgpu_bmap_periods *plan);
bool vgpu_gpu_search_fits_empty(const struct vgpu_config *cfg,
				const struct vgpu_gpu_params *p,
				const struct vgpu_block_shape *shape);
int vgpu_gpu_kernel_check(const struct vgpu_config *cfg,
			  const struct vgpu_gpu_params *p,
			  const struct vgpu_gpu_kernel *k);
int vgpu_gpu_kernel_check_sum(const struct vgpu_config *cfg,
			      const struct vgpu_gpu_params *p,
			      const struct vgpu_gpu_kernel *k,
			      struct vgpu_isa_summary *sum,
			      struct vgpu_block_shape *shape);
int vgpu_gpu_kernel_prepare(const struct vgpu_config *cfg,
			    const struct vgpu_gpu_params *p,
			    struct vgpu_gpu_kernel *k);
int vgpu_gpu_kernel_search_check(const struct vgpu_config *cfg,
				 const struct vgpu_gpu_params *p,
				 const struct vgpu_gpu_kernel *k);

#endif /* VGPU_CORE_CHECK_H */
