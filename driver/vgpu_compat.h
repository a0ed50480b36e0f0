/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_compat.h - every difference between the kernels the module supports.
 */

/**
 * DOC: kernel compatibility
 *
 * The module is written against the newest kernel API and builds, with the
 * same flags and no warning, against Debian 12's 6.1 LTS, the 6.12 LTS of
 * Debian 13 (bookworm-backports) and the newest kernel source Debian carries
 * (README.md, "Supported kernels").  Where an older kernel lacks an
 * interface, this header provides it the way the kernel's own backports do,
 * so feature files use one spelling and contain no version test: this is the
 * only file of the module that reads %LINUX_VERSION_CODE.
 *
 * Each entry names the release and the upstream commit that changed the
 * interface.  An entry goes when the oldest supported kernel has it.
 */
#ifndef VGPU_COMPAT_H
#define VGPU_COMPAT_H

#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/mm.h>
#include <linux/version.h>

/*
 * VGPU_BUS_CONST - qualifier of the &struct bus_type a bus attribute's
 * show() and store() receive: const since 6.4 (commit 75cff725d956, "driver
 * core: bus: mark the struct bus_type for sysfs callbacks as constant").
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
#define VGPU_BUS_CONST const
#else
#define VGPU_BUS_CONST
#endif

/*
 * hrtimer_setup() - initialise an hrtimer with its callback in one call:
 * added in 6.13 (commit 908a1d775422, "hrtimers: Introduce hrtimer_setup()
 * to replace hrtimer_init()"), hrtimer_init() removed since.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
static inline void
hrtimer_setup(struct hrtimer *timer,
	      enum hrtimer_restart (*function)(struct hrtimer *),
	      clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}
#endif

/*
 * vm_flags_set() - set flags of a VMA being set up: added in 6.3 (commit
 * bc292ab00f6c, "mm: introduce vma->vm_flags wrapper functions"), which
 * made &vm_area_struct.vm_flags read-only to everything else.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
static inline void vm_flags_set(struct vm_area_struct *vma,
				vm_flags_t flags)
{
	vma->vm_flags |= flags;
}
#endif

#endif /* VGPU_COMPAT_H */
