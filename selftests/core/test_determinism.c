// SPDX-License-Identifier: GPL-2.0
/*
 * Determinism (SPEC F51): 100 seeded random scenarios (random valid
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

VGPU_TEST_SUITE(determinism,
	VGPU_CASE(hundred_scenarios_twice)
	VGPU_CASE(hash_definition))
