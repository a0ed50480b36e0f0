/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_os_user.h - userspace implementation of driver/core/vgpu_os.h.
 *
 * Provides, for native builds of driver/core (unit tests, vgpu-sim, fuzzers),
 * the small subset of kernel helpers the core is allowed to use.  Keep it
 * minimal: anything added here must also exist in the kernel with the same
 * semantics.
 */
#ifndef VGPU_OS_USER_H
#define VGPU_OS_USER_H

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * Redzones (see driver/core/vgpu_os.h): real under AddressSanitizer (gcc
 * defines __SANITIZE_ADDRESS__, clang has the feature), none otherwise.
 */
#if defined(__SANITIZE_ADDRESS__)
#define VGPU_OS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VGPU_OS_ASAN 1
#endif
#endif
#ifdef VGPU_OS_ASAN
#include <sanitizer/asan_interface.h>
/* at least one element, at least 64 bytes */
#define VGPU_MEM_REDZONE(elem)	((size_t)(elem) > 64 ? (size_t)(elem) : (size_t)64)
#define VGPU_MEM_GUARD		64
#define vgpu_mem_poison(p, len)	ASAN_POISON_MEMORY_REGION(p, len)
#define vgpu_mem_unpoison(p, len) ASAN_UNPOISON_MEMORY_REGION(p, len)
#else
#define VGPU_MEM_REDZONE(elem)	((size_t)0)
#define VGPU_MEM_GUARD		0
static inline void vgpu_mem_poison(void *p, size_t len) { (void)p; (void)len; }
static inline void vgpu_mem_unpoison(void *p, size_t len) { (void)p; (void)len; }
#endif

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif
#ifndef noinline
#define noinline __attribute__((__noinline__))
#endif
#define __maybe_unused __attribute__((__unused__))
#define __must_check __attribute__((__warn_unused_result__))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define fallthrough __attribute__((__fallthrough__))

#ifndef static_assert
#define static_assert _Static_assert
#endif
#define BUILD_BUG_ON(cond) _Static_assert(!(cond), "BUILD_BUG_ON: " #cond)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BIT(n) (1UL << (n))
#define BIT_ULL(n) (1ULL << (n))
#define BITS_PER_LONG 64
#define BITS_PER_LONG_LONG 64
#define GENMASK(h, l) (((~0UL) - (1UL << (l)) + 1) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l) (((~0ULL) - (1ULL << (l)) + 1) & (~0ULL >> (63 - (h))))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define round_up(x, y) ((((x) - 1) | ((__typeof__(x))((y) - 1))) + 1)
#define roundup(x, y) ((((x) + ((y) - 1)) / (y)) * (y))

#define min(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a < _b ? _a : _b; })
#define max(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
#define min_t(t, a, b) ({ t _a = (a); t _b = (b); _a < _b ? _a : _b; })
#define max_t(t, a, b) ({ t _a = (a); t _b = (b); _a > _b ? _a : _b; })
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define clamp_t(t, v, lo, hi) min_t(t, max_t(t, v, lo), hi)
#define swap(a, b) do { __typeof__(a) _t = (a); (a) = (b); (b) = _t; } while (0)

#define check_add_overflow(a, b, d) __builtin_add_overflow(a, b, d)
#define check_sub_overflow(a, b, d) __builtin_sub_overflow(a, b, d)
#define check_mul_overflow(a, b, d) __builtin_mul_overflow(a, b, d)

/*
 * memset() of a size known only at run time and under 64 bytes, such as a
 * block's warp table and placement (one entry a warp) on every arrival.
 * glibc's AVX-512 variant writes it as one masked 64-byte store
 * (vmovdqu8 with a mask), which on an AMD Zen 5 stalls until a line not in
 * the cache is fetched: on 4096 SMs, where every arrival writes lines last
 * touched a round of decisions ago, that tripled a dispatch decision
 * (Documentation/performance.rst, the cost curve).  The kernel's memset()
 * is a string instruction; here such a size is stored in words.  Sizes
 * known when compiling, and larger ones, go to the compiler and libc.
 */
static __always_inline void *vgpu_user_memset(void *s, int c, size_t n)
{
	unsigned char *p = s;
	u64 v;

	if (__builtin_constant_p(n) || n >= 64)
		return (memset)(s, c, n);
	v = 0x0101010101010101ULL * (unsigned char)c;
	for (; n >= 8; n -= 8, p += 8) {
		__builtin_memcpy(p, &v, 8);
		/* an opaque pointer: the compiler must not make this memset() */
		__asm__("" : "+r" (p));
	}
	for (; n; n--, p++) {
		*p = (unsigned char)c;
		__asm__("" : "+r" (p));
	}
	return s;
}

#define memset(s, c, n) vgpu_user_memset(s, c, n)

/* Cache hints, as in include/linux/prefetch.h. */
static inline void prefetch(const void *x) { __builtin_prefetch(x); }
static inline void prefetchw(const void *x) { __builtin_prefetch(x, 1); }

/* Bit helpers, same contracts as the kernel's (undefined for 0 where noted). */
static inline unsigned long __ffs64(u64 w) { return __builtin_ctzll(w); } /* w != 0 */
static inline int fls64(u64 w) { return w ? 64 - __builtin_clzll(w) : 0; }
static inline unsigned int hweight64(u64 w) { return __builtin_popcountll(w); }
static inline unsigned int hweight32(u32 w) { return __builtin_popcount(w); }

/* 64-by-32 division, as in include/linux/math64.h. */
static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/* Doubly linked list, as in include/linux/list.h. */
struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *l)
{
	l->next = l;
	l->prev = l;
}

static inline void __list_add(struct list_head *n, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

static inline void list_add(struct list_head *n, struct list_head *h)
{
	__list_add(n, h, h->next);
}

static inline void list_add_tail(struct list_head *n, struct list_head *h)
{
	__list_add(n, h->prev, h);
}

static inline void list_del(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	e->next = NULL;
	e->prev = NULL;
}

static inline void list_del_init(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	INIT_LIST_HEAD(e);
}

static inline int list_empty(const struct list_head *h)
{
	return h->next == h;
}

static inline void list_move_tail(struct list_head *e, struct list_head *h)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	list_add_tail(e, h);
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(ptr, type, member) list_entry((ptr)->next, type, member)
#define list_first_entry_or_null(ptr, type, member) \
	(list_empty(ptr) ? NULL : list_first_entry(ptr, type, member))
#define list_next_entry(pos, member) \
	list_entry((pos)->member.next, __typeof__(*(pos)), member)
#define list_for_each(pos, head) \
	for (pos = (head)->next; pos != (head); pos = pos->next)
#define list_for_each_entry(pos, head, member)				\
	for (pos = list_first_entry(head, __typeof__(*pos), member);	\
	     &pos->member != (head);					\
	     pos = list_next_entry(pos, member))
#define list_prev_entry(pos, member) \
	list_entry((pos)->member.prev, __typeof__(*(pos)), member)
#define list_last_entry(ptr, type, member) list_entry((ptr)->prev, type, member)
#define list_for_each_entry_reverse(pos, head, member)			\
	for (pos = list_last_entry(head, __typeof__(*pos), member);	\
	     &pos->member != (head);					\
	     pos = list_prev_entry(pos, member))
#define list_for_each_entry_safe(pos, n, head, member)			\
	for (pos = list_first_entry(head, __typeof__(*pos), member),	\
	     n = list_next_entry(pos, member);				\
	     &pos->member != (head);					\
	     pos = n, n = list_next_entry(n, member))

/*
 * The kernel's seeded pseudo-random generator (include/linux/prandom.h,
 * lib/random32.c): L'Ecuyer's maximally equidistributed combined
 * Tausworthe generator of four components.  The same seed gives the same
 * sequence as the kernel's, so runs in the module and in vgpu-sim agree.
 */
struct rnd_state {
	u32 s1, s2, s3, s4;
};

/* Each component needs a seed above a bound of its own. */
static inline u32 vgpu_user_rnd_min(u32 x, u32 m)
{
	return x < m ? x + m : x;
}

static inline void prandom_seed_state(struct rnd_state *state, u64 seed)
{
	u32 i = (u32)((seed >> 32) ^ (seed << 10) ^ seed);

	state->s1 = vgpu_user_rnd_min(i, 2U);
	state->s2 = vgpu_user_rnd_min(i, 8U);
	state->s3 = vgpu_user_rnd_min(i, 16U);
	state->s4 = vgpu_user_rnd_min(i, 128U);
}

/* One step of component @s: shifts @a, @b, mask @c, shift @d. */
static inline u32 vgpu_user_taus(u32 s, u32 a, u32 b, u32 c, u32 d)
{
	return ((s & c) << d) ^ (((s << a) ^ s) >> b);
}

static inline u32 prandom_u32_state(struct rnd_state *state)
{
	state->s1 = vgpu_user_taus(state->s1, 6, 13, 0xfffffffeU, 18);
	state->s2 = vgpu_user_taus(state->s2, 2, 27, 0xfffffff8U, 2);
	state->s3 = vgpu_user_taus(state->s3, 13, 21, 0xfffffff0U, 7);
	state->s4 = vgpu_user_taus(state->s4, 3, 12, 0xffffff80U, 13);
	return state->s1 ^ state->s2 ^ state->s3 ^ state->s4;
}

#endif /* VGPU_OS_USER_H */
