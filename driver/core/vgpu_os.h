/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_os.h - the one header through which driver/core sees its host.
 *
 * The scheduling core ("firmware") is compiled twice: into the module, where
 * this header maps to the kernel's own headers, and natively into the unit
 * tests and vgpu-sim, where userspace/shim/vgpu_os_user.h provides the same
 * small set of helpers (the way tools/testing/radix-tree compiles
 * lib/xarray.c).  Core code includes nothing else: it takes no locks,
 * allocates nothing on hot paths and reads no clock.
 *
 * Allowed here: fixed-width types, bool, errno values, memset/memcpy/
 * memmove, min/max/clamp, ARRAY_SIZE, DIV_ROUND_UP/round_up, BIT/GENMASK, the
 * 64-bit bit helpers (__ffs64, fls64, hweight64), struct list_head and its
 * helpers, check_add/mul_overflow, likely/unlikely, noinline, static_assert
 * and div_u64.  And the kernel's seeded pseudo-random generator,
 * struct rnd_state with prandom_seed_state() and prandom_u32_state()
 * (linux/prandom.h): natively the same algorithm (the four-component
 * Tausworthe generator of lib/random32.c), so that one seed gives the
 * same sequence in the module and in vgpu-sim.  And VGPU_ALIGNED(n), the
 * alignment of a struct member (first in its declaration): __aligned(n) in
 * the kernel, C11's alignas natively.
 *
 * And redzones: VGPU_MEM_REDZONE(elem) is the room the core leaves after an
 * array of @elem-byte elements in memory it lays out itself, and
 * vgpu_mem_poison()/vgpu_mem_unpoison() mark such room unreadable/readable
 * again.  Native builds under AddressSanitizer make them real (a loop one
 * element past an array then faults in the unit tests); in the kernel the
 * room is 0 bytes and the calls do nothing.
 *
 * And guards: VGPU_MEM_GUARD is the room the core leaves between the
 * regions of the functional memory it lays out (fn.c), filled with a
 * pattern it checks at every epoch boundary: 64 bytes in debug builds
 * (kernels with KASAN, the native builds under AddressSanitizer), none
 * otherwise.
 */
#ifndef VGPU_OS_H
#define VGPU_OS_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/bitops.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/math.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/prefetch.h>
#include <linux/prandom.h>
#include <linux/string.h>
#include <linux/build_bug.h>

#define VGPU_MEM_REDZONE(elem)	((size_t)0)
#define VGPU_MEM_GUARD		(IS_ENABLED(CONFIG_KASAN) ? 64 : 0)
static inline void vgpu_mem_poison(void *p, size_t len) { }
static inline void vgpu_mem_unpoison(void *p, size_t len) { }
#define VGPU_ALIGNED(n)		__aligned(n)
#else
#include <stdalign.h>
#include <vgpu_os_user.h>
#define VGPU_ALIGNED(n)		alignas(n)
#endif

#endif /* VGPU_OS_H */
