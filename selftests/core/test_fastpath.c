// SPDX-License-Identifier: GPL-2.0
/*
 * The dispatch fast paths against their plain definitions
 * (Documentation/performance.rst "Global dispatch"):
 *
 * - vgpu_bmap_first_run() (a walk over free stretches) against the
 *   shift-and-AND first fit vgpu_bmap_find_run_xk() and a bit loop;
 * - vgpu_bmap_count_runs() against first fit repeated on a copy;
 * - vgpu_sm_res_alloc_block() (one search per sub-partition when the
 *   warps' runs go back to back, none in a sub-partition without warps or
 *   for the shared memory of an SM without blocks) against the per-warp
 *   first fit it replaces, on random allocate / free sequences, with the
 *   reg_free counter checked against the maps;
 * - vgpu_trace_hash_event() (zero high bytes folded into one multiply,
 *   values of one to three bytes in straight lines, VGPU_EV_NONE from a
 *   table in every 4-byte field) against FNV-1a one byte at a time;
 * - vgpu_bmap_set_range() and vgpu_bmap_clear_range() (a range inside one
 *   word in line) against a bit loop, for every range of a 3-word map;
 * - vgpu_gpu_sm_trace() (one mask test for the events it drops) against
 *   the events it acts on.
 */
#include <string.h>

#include "vgpu_test.h"
#include "bmap.h"
#include "gpu_internal.h"
#include "resource.h"
#include "trace.h"
#include "vgpu_test_rand.h"

/* A random map: free stretches and holes of random lengths. */
static void vgpu_fp_map(struct vgpu_test_rng *r, u64 *w, u32 nbits)
{
	u32 i = 0, n, mean = 1 + vgpu_test_below(r, 40);
	bool set = vgpu_test_below(r, 2);

	vgpu_bmap_zero(w, nbits);
	while (i < nbits) {
		n = 1 + vgpu_test_below(r, set ? 2 * mean : 1 + mean / 2);
		n = n < nbits - i ? n : nbits - i;
		if (set)
			vgpu_bmap_set_range(w, i, n);
		i += n;
		set = !set;
	}
}

static int vgpu_fp_naive(const u64 *w, u32 nbits, u32 len)
{
	u32 i, run = 0;

	for (i = 0; i < nbits; i++) {
		run = vgpu_bmap_test(w, i) ? run + 1 : 0;
		if (run == len)
			return i + 1 - len;
	}
	return -ENOSPC;
}

TEST(first_run_vs_references)
{
	struct vgpu_test_rng r = { 0xfa57001 };
	u64 w[VGPU_BMAP_WORDS];
	u32 n, nbits, len, end, cap;
	int want, got;

	for (n = 0; n < VGPU_TEST_SCALE(200000, 2000); n++) {
		nbits = 1 + vgpu_test_below(&r, n & 1 ? 256 : VGPU_BMAP_MAX_BITS);
		vgpu_fp_map(&r, w, nbits);
		len = 1 + vgpu_test_below(&r, vgpu_bmap_run_naive(w, nbits) + 3);
		want = vgpu_fp_naive(w, nbits, len);
		ASSERT_EQ(want, vgpu_bmap_find_run_xk(w, nbits, len));
		ASSERT_EQ(want, vgpu_bmap_find_run(w, nbits, len))
			TH_LOG("map %u width %u len %u", n, nbits, len);
		end = ~0U;
		cap = len + (n & 2 ? vgpu_test_below(&r, 300) : nbits);
		got = vgpu_bmap_first_run(w, nbits, len, cap, &end);
		ASSERT_EQ(want, got);
		if (got < 0)
			continue;
		/* [start, end) is free, maximal or cut at start + cap */
		ASSERT_LE(got + len, end);
		ASSERT_LE(end, nbits);
		ASSERT_LE(end, got + cap);
		ASSERT_TRUE(vgpu_bmap_range_all_set(w, got, end - got));
		if (end < nbits && end < got + cap)
			ASSERT_FALSE(vgpu_bmap_test(w, end));
	}
}

TEST(count_runs_vs_repeated_first_fit)
{
	struct vgpu_test_rng r = { 0xfa57002 };
	u64 w[VGPU_BMAP_WORDS], c[VGPU_BMAP_WORDS];
	u32 n, nbits, len, want, ref;
	int s;

	for (n = 0; n < VGPU_TEST_SCALE(50000, 1000); n++) {
		nbits = 1 + vgpu_test_below(&r, n & 1 ? 256 : VGPU_BMAP_MAX_BITS);
		vgpu_fp_map(&r, w, nbits);
		len = vgpu_test_below(&r, 24);
		want = vgpu_test_below(&r, 80);
		memcpy(c, w, sizeof(c));
		for (ref = 0; ref < want; ref++) {
			if (!len)
				continue;
			s = vgpu_bmap_find_run_xk(c, nbits, len);
			if (s < 0)
				break;
			vgpu_bmap_clear_range(c, s, len);
		}
		ASSERT_EQ(ref, vgpu_bmap_count_runs(w, nbits, len, want))
			TH_LOG("map %u width %u len %u want %u", n, nbits, len,
			       want);
	}
}

/*
 * The placement vgpu_sm_res_alloc_block() made before the fast path:
 * warp i in sub-partition (pointer + i) mod Q, first fit one warp at a
 * time.  Works on @m (a copy of the SM), fills @pl; false if it fails.
 */
static bool vgpu_fp_ref_alloc(struct vgpu_sm_res *m,
			      const struct vgpu_block_shape *s,
			      struct vgpu_block_place *pl)
{
	u32 i, p;
	int st;

	if (m->blocks_used >= m->max_blocks ||
	    s->barriers > m->max_barriers - m->barriers_used ||
	    s->warps > m->max_warps - m->warps_total)
		return false;
	st = vgpu_bmap_find_run_xk(m->smem, m->smem_units, s->smem_units);
	if (st < 0)
		return false;
	vgpu_bmap_clear_range(m->smem, st, s->smem_units);
	pl->smem_start = st;
	for (i = 0; i < s->warps; i++) {
		p = (m->split_ptr + i) % m->subparts;
		if (m->warps_used[p] >= m->warps_per_subpart)
			return false;
		st = s->reg_units ?
		     vgpu_bmap_find_run_xk(m->regs[p], m->reg_units,
					   s->reg_units) : 0;
		if (st < 0)
			return false;
		vgpu_bmap_clear_range(m->regs[p], st, s->reg_units);
		m->warps_used[p]++;
		pl->warp[i].subpart = p;
		pl->warp[i].reg_start = st;
	}
	return true;
}

static u32 vgpu_fp_reg_weight(const struct vgpu_sm_res *sm)
{
	u32 p, n = 0;

	for (p = 0; p < sm->subparts; p++)
		n += vgpu_bmap_weight(sm->regs[p], sm->reg_units);
	return n;
}

static void vgpu_fp_random(struct __test_metadata *_metadata,
			   const char *preset, u64 seed)
{
	static struct vgpu_block_place pl[VGPU_MAX_BLOCKS_PER_SM];
	struct vgpu_test_rng r = { seed };
	VGPU_TEST_BIG struct vgpu_block_place ref;
	VGPU_TEST_BIG struct vgpu_block_shape s;
	VGPU_TEST_BIG struct vgpu_sm_res sm, m;
	bool live[VGPU_MAX_BLOCKS_PER_SM] = { false };
	VGPU_TEST_BIG struct vgpu_config c;
	u32 n, b, i, w;
	bool ok;
	int ret;

	ASSERT_EQ(0, vgpu_config_preset(&c, preset));
	vgpu_sm_res_init(&sm, &c);
	for (n = 0; n < VGPU_TEST_SCALE(40000, 1000); n++) {
		b = vgpu_test_below(&r, c.max_blocks_per_sm);
		if (live[b]) {
			if (vgpu_test_below(&r, 3)) {
				vgpu_sm_res_free_block(&sm, &pl[b]);
				live[b] = false;
			} else {	/* free one warp only */
				vgpu_sm_res_free_warp(&sm, &pl[b],
						      vgpu_test_below(&r, pl[b].shape.warps));
			}
		} else {
			w = 1 + vgpu_test_below(&r, vgpu_test_below(&r, 2) ? 4 : 32);
			ret = vgpu_block_shape_init(&s, &c, 32 * w,
						    8 * vgpu_test_below(&r, 17),
						    128 * vgpu_test_below(&r, 64),
						    0, NULL);
			ASSERT_EQ(0, ret);
			m = sm;
			memset(&ref, 0, sizeof(ref));
			ok = vgpu_fp_ref_alloc(&m, &s, &ref);
			ret = vgpu_sm_res_alloc_block(&sm, &s, &pl[b]);
			ASSERT_EQ(ok ? 0 : -ENOSPC, ret) TH_LOG("step %u", n);
			if (!ret) {
				live[b] = true;
				ASSERT_EQ(ref.smem_start, pl[b].smem_start);
				for (i = 0; i < s.warps; i++) {
					ASSERT_EQ(ref.warp[i].subpart,
						  pl[b].warp[i].subpart);
					ASSERT_EQ(ref.warp[i].reg_start,
						  pl[b].warp[i].reg_start)
						TH_LOG("step %u warp %u", n, i);
					ASSERT_TRUE(pl[b].warp[i].held);
				}
				ASSERT_EQ(s.warps, pl[b].warps_held);
				ASSERT_EQ(0, memcmp(m.regs, sm.regs,
						    sizeof(sm.regs)));
				ASSERT_EQ(0, memcmp(m.smem, sm.smem,
						    sizeof(sm.smem)));
			}
		}
		ASSERT_EQ(vgpu_fp_reg_weight(&sm), sm.reg_free);
	}
	for (b = 0; b < c.max_blocks_per_sm; b++)
		if (live[b])
			vgpu_sm_res_free_block(&sm, &pl[b]);
	ASSERT_EQ(sm.subparts * sm.reg_units, sm.reg_free);
	ASSERT_EQ(0, sm.warps_total);
}

TEST(alloc_block_vs_per_warp_first_fit_small)
{
	vgpu_fp_random(_metadata, "small", 0xfa57003);
}

TEST(alloc_block_vs_per_warp_first_fit_h100)
{
	vgpu_fp_random(_metadata, "h100", 0xfa57004);
}

/* FNV-1a one byte at a time: the definition of trace.h. */
static u64 vgpu_fp_fnv(u64 h, u64 v, u32 bytes)
{
	u32 i;

	for (i = 0; i < bytes; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= VGPU_FNV64_PRIME;
	}
	return h;
}

static u64 vgpu_fp_value(struct vgpu_test_rng *r)
{
	u64 v = vgpu_test_rand64(r);

	switch (vgpu_test_below(r, 7)) {
	case 0:
		return 0;
	case 1:
		return v & 0xff;
	case 2:
		return v & 0xffffff;
	case 3:
		return VGPU_EV_NONE;
	case 4:
		return v & 0xff00;
	case 5:
		return v & 0xffff;
	default:
		return v;
	}
}

TEST(event_hash_vs_bytewise_fnv)
{
	struct vgpu_test_rng r = { 0xfa57005 };
	u64 h = VGPU_FNV64_OFFSET, ref = h, v;
	struct vgpu_event ev;
	u32 n, bytes;

	for (n = 0; n < VGPU_TEST_SCALE(1000000, 10000); n++) {
		ev.cycle = vgpu_fp_value(&r);
		ev.type = vgpu_fp_value(&r);
		ev.kernel = vgpu_fp_value(&r);
		ev.block = vgpu_fp_value(&r);
		ev.warp = vgpu_fp_value(&r);
		ev.sm = vgpu_fp_value(&r);
		ev.arg0 = vgpu_fp_value(&r);
		ev.arg1 = vgpu_fp_value(&r);
		h = vgpu_trace_hash_event(h, &ev);
		ref = vgpu_fp_fnv(ref, ev.cycle, 8);
		ref = vgpu_fp_fnv(ref, ev.type, 4);
		ref = vgpu_fp_fnv(ref, ev.kernel, 4);
		ref = vgpu_fp_fnv(ref, ev.block, 4);
		ref = vgpu_fp_fnv(ref, ev.warp, 4);
		ref = vgpu_fp_fnv(ref, ev.sm, 4);
		ref = vgpu_fp_fnv(ref, ev.arg0, 4);
		ref = vgpu_fp_fnv(ref, ev.arg1, 4);
		ASSERT_EQ(ref, h) TH_LOG("event %u", n);
		bytes = 1 + vgpu_test_below(&r, 8);
		v = vgpu_fp_value(&r);
		ASSERT_EQ(vgpu_fp_fnv(h, v, bytes),
			  vgpu_trace_hash_u64(h, v, bytes));
	}
}

TEST(set_clear_range_vs_bit_loop)
{
	struct vgpu_test_rng r = { 0xfa57006 };
	u64 w[3], ref[3];
	u32 start, len, i, op;

	for (op = 0; op < 2; op++)
		for (start = 0; start <= 192; start++)
			for (len = 0; len <= 192 - start; len++) {
				for (i = 0; i < 3; i++) {
					w[i] = vgpu_test_rand64(&r);
					ref[i] = w[i];
				}
				if (op)
					vgpu_bmap_set_range(w, start, len);
				else
					vgpu_bmap_clear_range(w, start, len);
				for (i = start; i < start + len; i++)
					vgpu_bmap_assign(ref, i, op);
				for (i = 0; i < 3; i++)
					ASSERT_EQ(ref[i], w[i])
						TH_LOG("op %u start %u len %u",
						       op, start, len);
			}
}

/*
 * vgpu_gpu_sm_trace() (one mask test for the events it does not keep)
 * against its definition: with no verbose sink and no block on the SM,
 * exactly LAUNCH, PUSH, SYNC and FAULT are buffered, LAUNCH, PUSH and
 * FAULT counted (the controller acts on them); types past 63 as well,
 * none of them kept.
 */
TEST(sm_trace_keeps_what_it_acts_on)
{
	static struct vgpu_gpu_sm gs;
	struct vgpu_event buf[4], ev;
	u32 type, keep, nev = 0, nlaunch = 0;

	memset(&ev, 0, sizeof(ev));
	gs.ev = buf;
	gs.evcap = 4;
	for (type = 0; type < 140; type++) {
		ev.type = type;
		ev.warp = 0;
		vgpu_gpu_sm_trace(&gs, &ev);
		keep = type == VGPU_EV_LAUNCH || type == VGPU_EV_PUSH ||
		       type == VGPU_EV_SYNC || type == VGPU_EV_FAULT;
		nev += keep;
		nlaunch += type == VGPU_EV_LAUNCH || type == VGPU_EV_PUSH ||
			   type == VGPU_EV_FAULT;
		ASSERT_EQ(nev, gs.nev) TH_LOG("type %u", type);
		ASSERT_EQ(nlaunch, gs.nlaunch) TH_LOG("type %u", type);
		ASSERT_EQ(0, gs.lost);
		gs.nev = 0;
		nev = 0;
	}
}

VGPU_TEST_SUITE(fastpath,
	VGPU_CASE(first_run_vs_references)
	VGPU_CASE(count_runs_vs_repeated_first_fit)
	VGPU_CASE(alloc_block_vs_per_warp_first_fit_small)
	VGPU_CASE(alloc_block_vs_per_warp_first_fit_h100)
	VGPU_CASE(event_hash_vs_bytewise_fnv)
	VGPU_CASE(set_clear_range_vs_bit_loop)
	VGPU_CASE(sm_trace_keeps_what_it_acts_on))
