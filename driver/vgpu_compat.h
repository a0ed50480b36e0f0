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
#include <linux/shrinker.h>
#include <linux/slab.h>
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
 * shrinker_alloc(), shrinker_register(), shrinker_free() - a shrinker the
 * kernel allocates: added in 6.7 (commit c42d50aefd17, "mm: shrinker: add
 * infrastructure for dynamically allocating shrinker"), register_shrinker()
 * removed since.  Before, a shrinker of our own allocation is registered
 * and unregistered by the two exported calls; here the name is a plain
 * string (no format arguments), kept until registration.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0)
struct vgpu_compat_shrinker {
	struct shrinker s;
	const char *name;
};

static inline struct shrinker *vgpu_compat_shrinker_alloc(unsigned int flags,
							  const char *name)
{
	struct vgpu_compat_shrinker *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (!c)
		return NULL;
	c->s.flags = flags;
	c->s.seeks = DEFAULT_SEEKS;
	c->name = name;
	return &c->s;
}

#define shrinker_alloc(flags, name) vgpu_compat_shrinker_alloc(flags, name)

static inline void shrinker_register(struct shrinker *shrinker)
{
	struct vgpu_compat_shrinker *c =
		container_of(shrinker, struct vgpu_compat_shrinker, s);

	/* it allocates here (later kernels do in shrinker_alloc()) */
	if (register_shrinker(shrinker, "%s", c->name))
		pr_warn("%s: shrinker not registered\n", c->name);
}

static inline void shrinker_free(struct shrinker *shrinker)
{
	if (!shrinker)
		return;
	unregister_shrinker(shrinker);	/* nothing if it is not registered */
	kfree(container_of(shrinker, struct vgpu_compat_shrinker, s));
}
#endif

#endif /* VGPU_COMPAT_H */
