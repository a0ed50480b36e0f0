/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Free-unit bitmaps and their largest-free-run searches (F32, F40-F43).
 *
 * A map is an array of u64 words; bit i (word i / 64, bit i % 64) set means
 * allocation unit i is FREE.  Bits at and above @nbits are always zero.
 * Maps hold up to VGPU_BMAP_MAX_BITS units (a100/h100 shared memory needs
 * 1312 / 1824 units of 128 bytes).
 *
 * Notation: x_k is the map ANDed with itself shifted right by 1 .. k-1 with
 * vacated bits occupied (F40); bit p of x_k is set iff units p .. p+k-1 are
 * all free.  x_(a+b) = x_a & (x_b >> a), and x_(a+d) = x_a & (x_a >> d) when
 * d <= a.  Every search here is built from these two identities, so it
 * costs O(log n) shift-and-AND steps of n/64 words, never a bit loop (except
 * the reference vgpu_bmap_run_naive()).
 */
#ifndef VGPU_CORE_BMAP_H
#define VGPU_CORE_BMAP_H

#include "vgpu_os.h"

#define VGPU_BMAP_MAX_BITS	2048
#define VGPU_BMAP_WORDS		(VGPU_BMAP_MAX_BITS / 64)
#define VGPU_BMAP_NWORDS(n)	DIV_ROUND_UP(n, 64)
#define VGPU_BMAP_MAX_SAMPLES	32
#define VGPU_BMAP_MUX_MAX_BITS	VGPU_BMAP_MAX_BITS
/* an SM's maps: shared memory and two register files of 8 sub-partitions */
#define VGPU_BMAP_MUX_MAX_FIELDS 17

/**
 * struct vgpu_bmap - a self-describing map, for callers that want one object
 * @nbits: number of units (1 .. VGPU_BMAP_MAX_BITS)
 * @w: the words, bit set = unit free
 */
struct vgpu_bmap {
	u32 nbits;
	u64 w[VGPU_BMAP_WORDS];
};

/**
 * struct vgpu_bmap_samples - shift list of the sampled search (F42)
 * @n: number of entries in @k
 * @skip_primes: ignore entries that are prime numbers
 * @k: strictly increasing run lengths with non-decreasing gaps
 */
struct vgpu_bmap_samples {
	u32 n;
	bool skip_primes;
	u16 k[VGPU_BMAP_MAX_SAMPLES];
};

/**
 * struct vgpu_bmap_mux - fields of a time-multiplexed wide word (F43)
 * @nbits: width of the whole word (<= VGPU_BMAP_MUX_MAX_BITS)
 * @nfields: number of fields
 * @lo: first bit of each field; field 0 is the least significant
 * @width: width of each field in bits
 */
struct vgpu_bmap_mux {
	u32 nbits;
	u32 nfields;
	u32 lo[VGPU_BMAP_MUX_MAX_FIELDS];
	u32 width[VGPU_BMAP_MUX_MAX_FIELDS];
};

/**
 * struct vgpu_bmap_mux_scratch - the working maps of a time-multiplexed
 *	search (F43), the caller's so that none is on the stack
 * @cur: x_(2^j) of the doubling
 * @nxt: the next step's
 * @best: the largest x_k found per field
 * @word: the shared unit of a period (vgpu_bmap_run_periods())
 */
struct vgpu_bmap_mux_scratch {
	u64 cur[VGPU_BMAP_WORDS];
	u64 nxt[VGPU_BMAP_WORDS];
	u64 best[VGPU_BMAP_WORDS];
	u64 word[VGPU_BMAP_WORDS];
};

/**
 * struct vgpu_bmap_periods - a time-multiplexed search of several maps (F43)
 * @a: width A of the shared unit, at least the widest map,
 *	<= VGPU_BMAP_MUX_MAX_BITS
 * @nres: maps (resource types), 1..VGPU_BMAP_MUX_MAX_FIELDS
 * @nperiods: C, the time periods one round of the search takes
 * @period: the period of each map
 * @mux: per period, the maps searched in it as fields of one A-bit word
 * @res: per period and field, the map's index
 */
struct vgpu_bmap_periods {
	u32 a;
	u32 nres;
	u32 nperiods;
	u8 period[VGPU_BMAP_MUX_MAX_FIELDS];
	struct vgpu_bmap_mux mux[VGPU_BMAP_MUX_MAX_FIELDS];
	u8 res[VGPU_BMAP_MUX_MAX_FIELDS][VGPU_BMAP_MUX_MAX_FIELDS];
};

/**
 * enum vgpu_bmap_mode - largest-free-run search mode, selectable per device
 * @VGPU_BMAP_EXACT: exact search (F40)
 * @VGPU_BMAP_GROUPED: grouped search over z groups (F41)
 * @VGPU_BMAP_SAMPLED: sampled search over a shift list (F42)
 */
enum vgpu_bmap_mode {
	VGPU_BMAP_EXACT,
	VGPU_BMAP_GROUPED,
	VGPU_BMAP_SAMPLED,
};

/**
 * struct vgpu_bmap_search - a configured largest-free-run search
 * @mode: which search
 * @groups: z of the grouped search; must divide the map width
 * @samples: shift list of the sampled search
 */
struct vgpu_bmap_search {
	enum vgpu_bmap_mode mode;
	u32 groups;
	struct vgpu_bmap_samples samples;
};

void vgpu_bmap_fill(u64 *map, u32 nbits);
void vgpu_bmap_zero(u64 *map, u32 nbits);
void vgpu_bmap_set_range_words(u64 *map, u32 start, u32 len);
void vgpu_bmap_clear_range_words(u64 *map, u32 start, u32 len);
bool vgpu_bmap_range_all_set(const u64 *map, u32 start, u32 len);
bool vgpu_bmap_range_any_set(const u64 *map, u32 start, u32 len);
u32 vgpu_bmap_weight(const u64 *map, u32 nbits);

/**
 * vgpu_bmap_set_range() - mark units [@start, @start + @len) free
 * @map: the map
 * @start: first unit
 * @len: number of units (0 is a no-op)
 *
 * A range inside one word (a warp's registers, a block's shared memory)
 * is one OR in line; a longer one goes word by word.
 */
static inline void vgpu_bmap_set_range(u64 *map, u32 start, u32 len)
{
	u32 b = start % 64;

	if (len && len <= 64 - b)
		map[start / 64] |= (~0ULL >> (64 - len)) << b;
	else
		vgpu_bmap_set_range_words(map, start, len);
}

/**
 * vgpu_bmap_clear_range() - mark units [@start, @start + @len) occupied
 * @map: the map
 * @start: first unit
 * @len: number of units (0 is a no-op)
 *
 * A range inside one word is one AND in line; a longer one goes word by
 * word.
 */
static inline void vgpu_bmap_clear_range(u64 *map, u32 start, u32 len)
{
	u32 b = start % 64;

	if (len && len <= 64 - b)
		map[start / 64] &= ~((~0ULL >> (64 - len)) << b);
	else
		vgpu_bmap_clear_range_words(map, start, len);
}

/**
 * vgpu_bmap_test() - is unit @bit free?
 * @map: the map
 * @bit: unit index
 *
 * Return: true if bit @bit is set.
 */
static inline bool vgpu_bmap_test(const u64 *map, u32 bit)
{
	return (map[bit / 64] >> (bit % 64)) & 1;
}

/**
 * vgpu_bmap_assign() - set (@on) or clear unit @bit
 * @map: the map
 * @bit: unit index
 * @on: the bit's new value
 */
static inline void vgpu_bmap_assign(u64 *map, u32 bit, bool on)
{
	if (on)
		map[bit / 64] |= BIT_ULL(bit % 64);
	else
		map[bit / 64] &= ~BIT_ULL(bit % 64);
}

u32 vgpu_bmap_run_naive(const u64 *map, u32 nbits);
u32 vgpu_bmap_run_ctz(const u64 *map, u32 nbits);
int vgpu_bmap_find_run_naive(const u64 *map, u32 nbits, u32 len);
int vgpu_bmap_find_run_ctz(const u64 *map, u32 nbits, u32 len);
u32 vgpu_bmap_run_exact(const u64 *map, u32 nbits);
u32 vgpu_bmap_run_doubling(const u64 *map, u32 nbits);
int vgpu_bmap_find_run(const u64 *map, u32 nbits, u32 len);
int vgpu_bmap_first_run(const u64 *map, u32 nbits, u32 len, u32 cap,
			u32 *end);
int vgpu_bmap_find_run_xk(const u64 *map, u32 nbits, u32 len);
u32 vgpu_bmap_count_runs(const u64 *map, u32 nbits, u32 len, u32 want);
u32 vgpu_bmap_run_grouped(const u64 *map, u32 nbits, u32 groups);
u32 vgpu_bmap_run_sampled(const u64 *map, u32 nbits,
			  const struct vgpu_bmap_samples *s);
void vgpu_bmap_samples_pow2(struct vgpu_bmap_samples *s, u32 nbits);
int vgpu_bmap_samples_check(const struct vgpu_bmap_samples *s);
int vgpu_bmap_mux_init(struct vgpu_bmap_mux *m, u32 nbits, const u32 *widths,
		       u32 nfields);
void vgpu_bmap_run_mux(const u64 *map, const struct vgpu_bmap_mux *m,
		       u32 *runs, struct vgpu_bmap_mux_scratch *s);
void vgpu_bmap_run_mux_naive(const u64 *map, const struct vgpu_bmap_mux *m,
			     u32 *runs);
int vgpu_bmap_periods_init(struct vgpu_bmap_periods *p, u32 a,
			   const u32 *widths, u32 nres);
void vgpu_bmap_run_periods(const struct vgpu_bmap_periods *p,
			   const u64 *const *maps, u32 *runs,
			   struct vgpu_bmap_mux_scratch *s);

#endif /* VGPU_CORE_BMAP_H */
