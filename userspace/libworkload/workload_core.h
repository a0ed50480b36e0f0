/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload_core.h - the one door from libvgpu-workload into the
 * scheduling core.
 *
 * libvgpu-workload validates and times programs and workloads exactly as
 * the module does because it links the same core (driver/core and
 * userspace/core, compiled natively and kept private by
 * libvgpu-workload.map).  What it uses of the core comes through this
 * header only, never from a public header: the device presets and
 * their checks (config.h), the scheduling parameters and limits (gpu.h),
 * the runs the device's search mode finds on an empty SM (check.h),
 * the ISA tables shared by the validator and the assembler (isa.h), the
 * name tables of the modes (names.c), the policy name length (policy.h),
 * the occupancy formula and the instruction timing the importer sizes
 * programs with (occupancy.h, timing.h).  Documentation/design.rst,
 * "Userspace", describes the split.
 *
 * The public headers mirror the few core values their types need
 * (VGPUL_WL_MAX_SMS, VGPUL_KF_*); the static assertions below keep them
 * equal (the SMs: within the core's), so a workload's flags and affinity
 * go to the core unchanged.
 * Not installed.
 */
#ifndef VGPUL_WORKLOAD_CORE_H
#define VGPUL_WORKLOAD_CORE_H

#include "vgpu_os.h"
#include "check.h"
#include "config.h"
#include "gpu.h"
#include "isa.h"
#include "names.h"
#include "occupancy.h"
#include "policy.h"
#include "timing.h"

#include <vgpu/workload.h>

/* a workload's device has at most VGPUL_WL_MAX_SMS of the core's SMs */
_Static_assert(VGPUL_WL_MAX_SMS <= VGPU_MAX_SMS, "VGPUL_WL_MAX_SMS");
_Static_assert(VGPUL_WL_AFF_WORDS <= VGPU_GPU_AFF_WORDS, "VGPUL_WL_AFF_WORDS");
_Static_assert(VGPUL_WL_MAX_CHANNELS == VGPU_GPU_MAX_CHANNELS,
	       "VGPUL_WL_MAX_CHANNELS");
_Static_assert(VGPUL_WL_POLICY_LEN == VGPU_POLICY_NAME_LEN,
	       "VGPUL_WL_POLICY_LEN");
_Static_assert(VGPUL_KF_INDEPENDENT == VGPU_KF_INDEPENDENT, "VGPUL_KF_*");
_Static_assert(VGPUL_KF_SEQUENTIAL == VGPU_KF_SEQUENTIAL, "VGPUL_KF_*");
_Static_assert(VGPUL_KF_THROTTLE == VGPU_KF_THROTTLE, "VGPUL_KF_*");
_Static_assert(VGPUL_KF_HEAD == VGPU_KF_HEAD, "VGPUL_KF_*");
_Static_assert(VGPUL_KF_QUEUE == VGPU_KF_QUEUE, "VGPUL_KF_*");
_Static_assert(VGPUL_WL_MAX_SLOTS == VGPU_ISA_MAX_SLOTS &&
	       VGPUL_WL_MAX_SLOTS == VGPU_MAX_BUFFER_SLOTS, "VGPUL_WL_MAX_SLOTS");
_Static_assert(VGPUL_BUF_READ_ONLY == VGPU_BO_READ_ONLY &&
	       VGPUL_BUF_CONSTANT == VGPU_BO_CONSTANT, "VGPUL_BUF_*");
_Static_assert(VGPUL_WL_MAX_BUFFER_BYTES == VGPU_MAX_BO_SIZE,
	       "VGPUL_WL_MAX_BUFFER_BYTES");

struct vgpul_wl_buffer;

/**
 * struct vgpul_wl_fn - the functional side of one workload kernel
 * @functional: its program has a functional instruction
 * @nbuf: slots it names ("buffers")
 * @buf: buffer index of each slot
 * @private_bytes: private memory per thread ("private")
 * @insn_budget: functional instructions each warp may execute
 *	("insn_budget"), 0 for no bound
 */
struct vgpul_wl_fn {
	bool functional;
	uint32_t nbuf;
	uint32_t buf[VGPUL_WL_MAX_SLOTS];
	uint32_t private_bytes;
	uint64_t insn_budget;
};

/**
 * struct vgpul_device - the device section of a workload, as the core
 *	takes it (opaque to the library's users: struct vgpu_workload.dev),
 *	and the workload's buffers (opaque for the same reason)
 * @cfg: device configuration
 * @params: scheduling parameters
 * @sm_order: fixed SM priority list (F25 ties), @n_sm_order entries
 * @n_sm_order: entries in @sm_order, 0 = SM index order
 * @bufs: the workload's buffers, @nbufs (malloc'd, buffers.c)
 * @nbufs: their number
 * @kfn: per kernel, its functional side (malloc'd with the kernels; NULL
 *	for a workload made otherwise, e.g. imported)
 */
struct vgpul_device {
	struct vgpu_config cfg;
	struct vgpu_gpu_params params;
	uint16_t sm_order[VGPU_MAX_SMS];
	uint32_t n_sm_order;
	struct vgpul_wl_buffer *bufs;
	uint32_t nbufs;
	struct vgpul_wl_fn *kfn;
};

/**
 * vgpul_device_new() - a zeroed device section for @wl
 * @wl: the workload (its @dev is set)
 *
 * Return: 0 or -ENOMEM.
 */
int vgpul_device_new(struct vgpu_workload *wl);

#endif /* VGPUL_WORKLOAD_CORE_H */
