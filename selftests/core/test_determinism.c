// SPDX-License-Identifier: GPL-2.0
/*
 * Determinism (F51): 100 seeded random scenarios (random valid
 * programs with loops, barriers, locks and SPIN, random blocks arriving
 * at random cycles, random placement modes and priorities), each run
 * twice from scratch: equal trace hashes and event counts.  The second
 * run also cuts time into different epochs, which must not matter.
 */
#include "vgpu_test.h"
#include "vgpu_test_engine.h"
#include "vgpu_test_rand.h"

#define VGPU_DET_SCENARIOS	VGPU_TEST_SCALE(100, 5)
#define VGPU_DET_ACTIONS	40

static const char * const vgpu_det_ops[] = {
	"MOV", "LOAD", "STORE", "MMA", "CMP", "BRA", "ALU",
};

/* Append a random valid body; @wid: inside a wid-dependent loop. */
static void vgpu_det_body(struct vgpu_test_rng *r, char *buf, size_t len,
			  u32 depth, bool wid, u32 held, bool *spin)
{
	u32 n = 1 + vgpu_test_below(r, 4), i, m;
	size_t o;

	for (i = 0; i < n; i++) {
		u32 k = vgpu_test_below(r, 12);

		o = strlen(buf);
		if (k < 6) {
			snprintf(buf + o, len - o, "%s\n",
				 vgpu_det_ops[vgpu_test_below(r, 7)]);
		} else if (k < 8 && depth < 3) {
			u32 s = vgpu_test_below(r, 3);

			if (s == 0)
				snprintf(buf + o, len - o, "LOOP %u\n",
					 vgpu_test_below(r, 4));
			else
				snprintf(buf + o, len - o, "LOOP %u+%s%%%u\n",
					 vgpu_test_below(r, 3),
					 s == 1 ? "wid" : "bid",
					 1 + vgpu_test_below(r, 4));
			vgpu_det_body(r, buf, len, depth + 1, wid || s == 1,
				      held, spin);
			o = strlen(buf);
			snprintf(buf + o, len - o, "ENDLOOP\n");
		} else if (k < 9 && !wid && !held) {
			snprintf(buf + o, len - o, "BAR\n");
		} else if (k < 11 && depth < 3) {
			m = vgpu_test_below(r, 3);
			if (held & (1U << m))
				continue;
			snprintf(buf + o, len - o, "LOCK %u\n", m);
			vgpu_det_body(r, buf, len, depth + 1, wid,
				      held | (1U << m), spin);
			o = strlen(buf);
			snprintf(buf + o, len - o, "UNLOCK %u\n", m);
		} else if (!*spin && !vgpu_test_below(r, 8)) {
			snprintf(buf + o, len - o, "SPIN\n");
			*spin = true;
		}
	}
}

/**
 * struct vgpu_det_action - one step of a scenario
 * @run: cycles to run before the action
 * @kernel: kernel to add a block of
 * @prio: its priority
 * @mode: placement mode
 */
struct vgpu_det_action {
	u32 run;
	u32 kernel;
	u32 prio;
	u32 mode;
};

/**
 * struct vgpu_det_scenario - a random scenario
 * @src: program texts
 * @threads: threads per block
 * @nk: kernels
 * @act: actions
 */
struct vgpu_det_scenario {
	char src[3][4096];
	u32 threads[3];
	u32 nk;
	struct vgpu_det_action act[VGPU_DET_ACTIONS];
};

static void vgpu_det_make(struct vgpu_det_scenario *s, u64 seed)
{
	struct vgpu_test_rng r = { .s = seed };
	bool spin;
	u32 k, i;

	memset(s, 0, sizeof(*s));
	s->nk = 1 + vgpu_test_below(&r, 3);
	for (k = 0; k < s->nk; k++) {
		spin = false;
		vgpu_det_body(&r, s->src[k], sizeof(s->src[k]), 0, false, 0,
			      &spin);
		strcat(s->src[k], "EXIT\n");
		s->threads[k] = 32 * (1 + vgpu_test_below(&r, 12));
	}
	for (i = 0; i < VGPU_DET_ACTIONS; i++) {
		s->act[i].run = vgpu_test_below(&r, 4) ? vgpu_test_below(&r, 50) :
				vgpu_test_below(&r, 3000);
		s->act[i].kernel = vgpu_test_below(&r, s->nk);
		s->act[i].prio = vgpu_test_below(&r, 4);
		s->act[i].mode = vgpu_test_below(&r, 2);
	}
}

/* Run the epoch of @cycles cycles as one call or in random slices. */
static void vgpu_det_advance(struct vgpu_test_engine *te, u64 cycles,
			     struct vgpu_test_rng *slicer)
{
	u64 step;

	while (cycles) {
		step = slicer ? 1 + vgpu_test_below(slicer, 97) : cycles;
		step = min(step, cycles);
		vgpu_sm_run(&te->sm, step, 0);
		cycles -= step;
	}
}

static int vgpu_det_run(struct vgpu_test_engine *te,
			const struct vgpu_det_scenario *s, u64 seed, bool slice,
			u64 *hash, u64 *events)
{
	struct vgpu_test_rng slicer = { .s = seed ^ 0x5a5a };
	u32 i, k, added = 0;

	for (k = 0; k < te->nk; k++)
		vgpul_vasm_free(&te->prog[k]);
	te->nk = 0;
	te->record = false;
	if (vgpu_te_init(te))
		return -1;
	for (k = 0; k < s->nk; k++)
		if (vgpu_te_kernel(te, s->src[k], s->threads[k], k, 1000) != (int)k)
			return -1;
	for (i = 0; i < VGPU_DET_ACTIONS; i++) {
		const struct vgpu_det_action *a = &s->act[i];
		const struct vgpu_kernel_desc *kd = &te->k[a->kernel];

		vgpu_det_advance(te, a->run, slice ? &slicer : NULL);
		if (!vgpu_sm_block_add(&te->sm, kd, i, a->prio,
				       kd->sum.uses_bar ? VGPU_PLACE_BLOCK :
				       a->mode))
			added++;
	}
	vgpu_det_advance(te, 200000, NULL);
	for (k = 0; k < s->nk; k++)	/* SPIN kernels end by cancel */
		vgpu_sm_cancel_kernel(&te->sm, te->k[k].id);
	vgpu_det_advance(te, 10, NULL);
	if (!vgpu_te_res_empty(te))
		return -2;
	*hash = te->sm.hash;
	*events = te->sm.stats.events;
	return added;
}

TEST(hundred_scenarios_twice)
{
	struct vgpu_test_engine *a = vgpu_te_new(), *b = vgpu_te_new();
	struct vgpu_det_scenario *s = calloc(1, sizeof(*s));
	u64 ha, hb, ea, eb, seed, total = 0, distinct = 0, prev = 0;
	int ra, rb;

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	ASSERT_NE(NULL, s);
	for (seed = 1; seed <= VGPU_DET_SCENARIOS; seed++) {
		vgpu_det_make(s, seed * 0x9e3779b97f4a7c15ULL);
		ra = vgpu_det_run(a, s, seed, false, &ha, &ea);
		rb = vgpu_det_run(b, s, seed, true, &hb, &eb);
		ASSERT_LE(0, ra) TH_LOG("seed %llu:\n%s", (unsigned long long)seed,
					s->src[0]);
		ASSERT_EQ(ra, rb);
		ASSERT_EQ(ea, eb) TH_LOG("seed %llu", (unsigned long long)seed);
		ASSERT_EQ(ha, hb) TH_LOG("seed %llu", (unsigned long long)seed);
		total += ea;
		distinct += ha != prev;
		prev = ha;
	}
	EXPECT_LT(100 * VGPU_DET_SCENARIOS, total);
	EXPECT_EQ(VGPU_DET_SCENARIOS, distinct);
	free(s);
	vgpu_te_free(a);
	vgpu_te_free(b);
}

/* The hash is a pure function of the fields, in a fixed byte order. */
TEST(hash_definition)
{
	struct vgpu_event ev;
	u64 h = VGPU_FNV64_OFFSET, want = VGPU_FNV64_OFFSET;
	u8 bytes[36];
	u32 i;

	memset(&ev, 0xa5, sizeof(ev));	/* padding must not matter */
	ev.cycle = 0x0102030405060708ULL;
	ev.type = VGPU_EV_WARP_START;
	ev.kernel = 7;
	ev.block = 3;
	ev.warp = 2;
	ev.sm = 1;
	ev.arg0 = 0x11223344;
	ev.arg1 = 0;
	for (i = 0; i < 8; i++)
		bytes[i] = ev.cycle >> (8 * i);
	for (i = 0; i < 4; i++) {
		bytes[8 + i] = ev.type >> (8 * i);
		bytes[12 + i] = ev.kernel >> (8 * i);
		bytes[16 + i] = ev.block >> (8 * i);
		bytes[20 + i] = ev.warp >> (8 * i);
		bytes[24 + i] = ev.sm >> (8 * i);
		bytes[28 + i] = ev.arg0 >> (8 * i);
		bytes[32 + i] = ev.arg1 >> (8 * i);
	}
	for (i = 0; i < sizeof(bytes); i++) {
		want ^= bytes[i];
		want *= VGPU_FNV64_PRIME;
	}
	h = vgpu_trace_hash_event(h, &ev);
	EXPECT_EQ(want, h);
	EXPECT_STREQ("warp_start", vgpu_event_name(VGPU_EV_WARP_START));
	EXPECT_STREQ("unknown", vgpu_event_name(0));
}

#ifndef __KERNEL__	/* native only: sizes and time (testing.rst) */
/*
 * Rounds (driver/core/sm.c): an SM that runs its sub-partitions one at a
 * time over the cycles in which only local instructions can issue must
 * end every epoch exactly where one stepping every cycle ends (rounds off:
 * round_next past every cycle): same events, counters, power window
 * buckets, bucket boundaries and power.  Random scenarios as above, inside
 * long loops, beside pure ALU loops and a lock held over one (hold_max);
 * the default timing table (equal ready cycles from different latencies)
 * or random ones (all latencies 1: a warp alone issues every cycle; or up
 * to 255, windows of 16 to 4096 cycles, so that rounds cross bucket
 * boundaries and some gaps cover a whole window); state syncs (F17) half
 * the time; epochs of up to 5,000 cycles; half the kernels give their
 * warps several competition priorities.
 */
#define VGPU_DET_ROUND_SCENARIOS	60

static void vgpu_det_round_timing(struct vgpu_isa_timing *t,
				  struct vgpu_test_rng *r)
{
	bool ones = !vgpu_test_below(r, 4);	/* a warp alone issues each cycle */
	u32 c;

	vgpu_isa_timing_default(t);
	if (!vgpu_test_below(r, 3))	/* ALU 4, MOV 2, ctrl 1: equal ready cycles */
		return;
	for (c = 0; c < VGPU_ISA_NUM_CLASSES; c++)
		t->latency[c] = ones ? 1 :
			1 + vgpu_test_below(r, vgpu_test_below(r, 2) ?
					    8 : VGPU_MAX_LATENCY);
	t->ctrl_latency = ones ? 1 : 1 + vgpu_test_below(r, 4);
	t->hold_max = 1 + vgpu_test_below(r, 100);
	t->window = 16 * (1 + vgpu_test_below(r, 256));
}

static bool vgpu_det_round_same(const struct vgpu_sm *a,
				const struct vgpu_sm *b)
{
	return a->now == b->now && a->hash == b->hash &&
	       !memcmp(&a->stats, &b->stats, sizeof(a->stats)) &&
	       a->win_exp == b->win_exp && a->win_next == b->win_next &&
	       !memcmp(a->win_cnt, b->win_cnt, sizeof(a->win_cnt)) &&
	       vgpu_sm_power(a) == vgpu_sm_power(b) && a->used == b->used;
}

static int vgpu_det_round_setup(struct vgpu_test_engine *te,
				const struct vgpu_det_scenario *s,
				const struct vgpu_isa_timing *timing,
				char (*src)[8192], u32 sync, bool rounds)
{
	u32 k;

	for (k = 0; k < te->nk; k++)
		vgpul_vasm_free(&te->prog[k]);
	te->nk = 0;
	te->record = false;
	te->timing = *timing;
	if (vgpu_te_init(te))
		return -1;
	if (!rounds)
		te->sm.round_next = ~0ULL;
	te->sm.sync_cost = sync;	/* F17: warps start at start_wake */
	te->sm.search_latency = sync / 3;
	for (k = 0; k < s->nk; k++) {
		if (vgpu_te_kernel(te, src[k], s->threads[k], k, 1000) != (int)k)
			return -1;
		te->k[k].prio_wid_mod = k & 1 ? 3 : 0;
	}
	return 0;
}

TEST(rounds_match_cycle_loop)
{
	struct vgpu_test_engine *a = vgpu_te_new(), *b = vgpu_te_new();
	struct vgpu_det_scenario *s = calloc(1, sizeof(*s));
	char (*src)[8192] = calloc(3, sizeof(*src));
	struct vgpu_isa_timing timing;
	struct vgpu_test_rng r;
	u64 seed, cycles, step;
	u32 i, k, mode;
	int ra, rb;

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	ASSERT_NE(NULL, s);
	ASSERT_NE(NULL, src);
	for (seed = 1; seed <= VGPU_DET_ROUND_SCENARIOS; seed++) {
		r.s = seed * 0x2545f4914f6cdd1dULL;
		vgpu_det_make(s, seed * 0x9e3779b97f4a7c15ULL + 7);
		vgpu_det_round_timing(&timing, &r);
		for (k = 0; k < s->nk; k++) {
			s->src[k][strlen(s->src[k]) - strlen("EXIT\n")] = 0;
			snprintf(src[k], sizeof(src[k]),
				 "LOOP %u\nALU\nMOV\nCMP\nENDLOOP\n"
				 "LOOP %u\n%sENDLOOP\n"
				 "LOCK 3\nLOOP %u\nALU\nMOV\nENDLOOP\nUNLOCK 3\n"
				 "LOOP %u\nALU\nBRA\nLOAD\nMMA\nENDLOOP\nEXIT\n",
				 vgpu_test_below(&r, 300),
				 1 + vgpu_test_below(&r, 40), s->src[k],
				 vgpu_test_below(&r, 200),
				 vgpu_test_below(&r, 500));
		}
		k = vgpu_test_below(&r, 2) ? vgpu_test_below(&r, 300) : 0;
		ASSERT_EQ(0, vgpu_det_round_setup(a, s, &timing, src, k, true))
			TH_LOG("seed %llu:\n%s", (unsigned long long)seed, src[0]);
		ASSERT_EQ(0, vgpu_det_round_setup(b, s, &timing, src, k, false));
		for (i = 0; i < VGPU_DET_ACTIONS; i++) {
			const struct vgpu_det_action *act = &s->act[i];

			cycles = act->run;
			vgpu_sm_run(&a->sm, cycles, 0);
			vgpu_sm_run(&b->sm, cycles, 0);
			ASSERT_TRUE(vgpu_det_round_same(&a->sm, &b->sm))
				TH_LOG("seed %llu action %u", (unsigned long long)seed, i);
			mode = a->k[act->kernel].sum.uses_bar ? VGPU_PLACE_BLOCK :
							       act->mode;
			ra = vgpu_sm_block_add(&a->sm, &a->k[act->kernel], i,
					       act->prio, mode);
			rb = vgpu_sm_block_add(&b->sm, &b->k[act->kernel], i,
					       act->prio, mode);
			ASSERT_EQ(ra, rb);
		}
		for (cycles = 0; cycles < 30000; cycles += step) {
			step = 1 + vgpu_test_below(&r, 5000);
			vgpu_sm_run(&a->sm, step, 0);
			vgpu_sm_run(&b->sm, step, 0);
			ASSERT_TRUE(vgpu_det_round_same(&a->sm, &b->sm))
				TH_LOG("seed %llu at %llu", (unsigned long long)seed,
				       (unsigned long long)a->sm.now);
		}
		for (k = 0; k < s->nk; k++) {
			vgpu_sm_cancel_kernel(&a->sm, a->k[k].id);
			vgpu_sm_cancel_kernel(&b->sm, b->k[k].id);
		}
		ASSERT_TRUE(vgpu_det_round_same(&a->sm, &b->sm));
		ASSERT_TRUE(vgpu_te_res_empty(a));
	}
	free(src);
	free(s);
	vgpu_te_free(a);
	vgpu_te_free(b);
}
#endif

VGPU_TEST_SUITE(determinism,
	VGPU_CASE(hundred_scenarios_twice)
	VGPU_CASE(hash_definition)
	VGPU_NATIVE(rounds_match_cycle_loop))
