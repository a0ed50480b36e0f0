/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seeded deterministic PRNG for the core unit tests (splitmix64).
 */
#ifndef VGPU_TEST_RAND_H
#define VGPU_TEST_RAND_H

#include <stdint.h>

/**
 * struct vgpu_test_rng - PRNG state
 * @s: 64-bit state
 */
struct vgpu_test_rng {
	uint64_t s;
};

static inline uint64_t vgpu_test_rand64(struct vgpu_test_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0 (modulo bias irrelevant for tests). */
static inline uint32_t vgpu_test_below(struct vgpu_test_rng *r, uint32_t n)
{
	return (uint32_t)(vgpu_test_rand64(r) % n);
}

#endif /* VGPU_TEST_RAND_H */
