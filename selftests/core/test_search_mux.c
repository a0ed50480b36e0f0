// SPDX-License-Identifier: GPL-2.0
/*
 * The time-multiplexed search as a device search mode (F43, seed 001
 * embodiment 7, [0185]-[0214]).
 *
 * - One shared unit per SM, as wide as its widest map (A, [0188]),
 *   searches all the SM's maps in C time periods (steps g1-g4): on the
 *   "small" preset the shared memory (1,312 units) alone, then the four
 *   register maps of 64 units side by side (256 <= 1,312): C = 2.
 * - The runs it finds are the exact ones ([0192]: one map in the unit is
 *   embodiment 4's search; several are searched at once without a run
 *   crossing from one group into the next, [0195]): blocks are placed as
 *   under the exact search, submission refuses only what never fits.
 * - A round takes C periods of search_latency cycles each ([0192]: a
 *   period is one or more clock cycles): a block's warps start C times
 *   the latency after its decision, live changes included.
 */
#include <stdint.h>
#include <string.h>

#include "vgpu_test.h"
#include "vgpu_test_gpu.h"
#include "check.h"
#include "gpu_config.h"
#include "names.h"

#define VGPU_SHORT	"LOOP 10\nALU\nENDLOOP\nEXIT\n"
#define VGPU_MEDIUM	"LOOP 300\nALU\nENDLOOP\nEXIT\n"

static struct vgpu_tg T;

/* The small preset with a scalar file of 1,024 registers in units of 64. */
static void small_sregs(struct vgpu_config *cfg)
{
	vgpu_config_preset(cfg, "small");
	cfg->sregs_per_subpart = 1024;
	cfg->sreg_unit = 64;
}

/*
 * Steps g1-g4 on an SM of the small preset: A = 1,312 (the shared memory
 * map, the widest), period 0 the shared memory alone, period 1 the four
 * register maps at bits 0, 64, 128, 192.  With a scalar file of 16 units
 * per sub-partition the four scalar maps join period 1 (256 + 64 bits):
 * still C = 2, nine maps.
 */
TEST(plan_of_an_sm)
{
	VGPU_TEST_BIG struct vgpu_bmap_periods plan;
	struct vgpu_config cfg;
	const char *bad;
	u32 i;

	vgpu_config_preset(&cfg, "small");
	ASSERT_EQ(0, vgpu_gpu_search_plan(&cfg, &plan));
	EXPECT_EQ(1312, plan.a);
	EXPECT_EQ(5, plan.nres);
	EXPECT_EQ(2, plan.nperiods);
	EXPECT_EQ(0, plan.period[0]);
	EXPECT_EQ(1, plan.mux[0].nfields);
	EXPECT_EQ(4, plan.mux[1].nfields);
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(1, plan.period[1 + i]);
		EXPECT_EQ(64 * i, plan.mux[1].lo[i]);
		EXPECT_EQ(64, plan.mux[1].width[i]);
	}
	small_sregs(&cfg);
	ASSERT_EQ(0, vgpu_config_validate(&cfg, &bad));
	ASSERT_EQ(0, vgpu_gpu_search_plan(&cfg, &plan));
	EXPECT_EQ(9, plan.nres);
	EXPECT_EQ(2, plan.nperiods);
	EXPECT_EQ(8, plan.mux[1].nfields);
	EXPECT_EQ(256 + 16 * 3, plan.mux[1].lo[7]);
	EXPECT_EQ(16, plan.mux[1].width[7]);
	/* h100: 1,824 units of shared memory, the same two periods */
	vgpu_config_preset(&cfg, "h100");
	ASSERT_EQ(0, vgpu_gpu_search_plan(&cfg, &plan));
	EXPECT_EQ(1824, plan.a);
	EXPECT_EQ(2, plan.nperiods);
}

/* The mode's name, its validation, its group. */
TEST(mode_named_and_validated)
{
	struct vgpu_gpu_params p;
	struct vgpu_config cfg;
	const char *bad = NULL;

	EXPECT_EQ(VGPU_SEARCH_MUX, vgpu_mode_parse(VGPU_MODE_SEARCH, "mux"));
	EXPECT_STREQ("mux", vgpu_mode_name(VGPU_MODE_SEARCH, VGPU_SEARCH_MUX));
	vgpu_config_preset(&cfg, "small");
	vgpu_gpu_params_default(&p, &cfg);
	p.search = VGPU_SEARCH_MUX;
	EXPECT_EQ(0, vgpu_gpu_params_validate(&p, &cfg, &bad));
	/* a group is the grouped search's only */
	p.search_group = 32;
	EXPECT_EQ(-EINVAL, vgpu_gpu_params_validate(&p, &cfg, &bad));
	EXPECT_STREQ("search_group", bad ? bad : "(none)");
	p.search_group = 0;
	p.search = VGPU_SEARCH_MUX + 1;
	bad = NULL;
	EXPECT_EQ(-EINVAL, vgpu_gpu_params_validate(&p, &cfg, &bad));
	EXPECT_STREQ("search", bad ? bad : "(none)");
}

/* A device of @cfg (NULL: small) searching in @search, latency @lat. */
static void dev(const struct vgpu_config *cfg, u32 search, u32 lat)
{
	struct vgpu_gpu_params p;
	struct vgpu_config c;

	if (!cfg) {
		vgpu_config_preset(&c, "small");
		cfg = &c;
	}
	vgpu_gpu_params_default(&p, cfg);
	p.search = search;
	p.search_latency = lat;
	if (vgpu_tg_init(&T, cfg, &p))
		abort();
}

/*
 * F43 with search_latency L: a block's warps start C * L = 2L cycles
 * after its decision (L under the exact search, the same device).
 */
TEST(latency_per_period)
{
	struct vgpu_gpu_kernel *k;
	u32 lat, mode;

	for (mode = 0; mode < 2; mode++) {
		for (lat = 0; lat <= VGPU_SEARCH_MAX_LATENCY; lat++) {
			dev(NULL, mode ? VGPU_SEARCH_MUX : VGPU_SEARCH_EXACT,
			    lat);
			k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 64, VGPU_SHORT);
			ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
			ASSERT_TRUE(vgpu_tg_run(&T, 100000));
			EXPECT_EQ(64, k->t.dispatch);
			EXPECT_EQ(64 + (mode ? 2 : 1) * lat, k->t.start)
				TH_LOG("mode %u latency %u", mode, lat);
			vgpu_tg_fini(&T);
		}
	}
}

/*
 * A live change of the search (vgpu_gpu_set_dispatch()) gives the next
 * decisions its latency: exact with none, then mux with 3 cycles a
 * period: the next kernel's warps start 6 cycles after its decision.
 */
TEST(live_change_takes_the_latency)
{
	struct vgpu_gpu_dispatch_opts o;
	struct vgpu_gpu_kernel *k;
	const char *bad = NULL;

	dev(NULL, VGPU_SEARCH_EXACT, 0);
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, 64, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_EQ(k->t.dispatch, k->t.start);
	vgpu_gpu_get_dispatch(&T.g, &o);
	o.search = VGPU_SEARCH_MUX;
	o.search_latency = 3;
	ASSERT_EQ(0, vgpu_gpu_set_dispatch(&T.g, &o, &bad));
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, T.g.now + 64, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_EQ(k->t.dispatch + 6, k->t.start);
	/* and back: latency 1 under exact */
	o.search = VGPU_SEARCH_EXACT;
	o.search_latency = 1;
	ASSERT_EQ(0, vgpu_gpu_set_dispatch(&T.g, &o, &bad));
	k = vgpu_tg_kernel(&T, 0, 0, 1, 32, T.g.now + 64, VGPU_SHORT);
	ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	ASSERT_TRUE(vgpu_tg_run(&T, 100000));
	EXPECT_EQ(k->t.dispatch + 1, k->t.start);
	vgpu_tg_fini(&T);
}

/*
 * Every SM's runs under F43 are the exact ones, shared memory, registers
 * and scalar registers, while kernels of mixed shapes come and go: the
 * runs are taken again from the maps (vgpu_gpu_sm_view()) with the exact
 * search at every boundary.
 */
TEST(runs_are_exact)
{
	const struct vgpu_sm_res *res;
	struct vgpu_gpu_kernel *k;
	struct vgpu_config cfg;
	u32 i, s, p, r, sr, want_r, want_sr, checks = 0;
	bool full;

	small_sregs(&cfg);
	dev(&cfg, VGPU_SEARCH_MUX, 0);
	for (i = 0; i < 12; i++) {
		k = vgpu_tg_kernel(&T, i % 4, 0, 3 + i % 5, 32 * (1 + i % 3),
				   16 * i, i % 2 ? VGPU_MEDIUM : VGPU_SHORT);
		k->args.regs = 24 + 40 * (i % 4);
		k->args.smem = 3000 * (i % 7);
		k->args.sregs = 64 * (i % 6);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
	}
	while (!vgpu_gpu_idle(&T.g) && T.g.now < 200000) {
		vgpu_tg_step(&T);
		for (s = 0; s < T.g.cfg.num_sms; s++) {
			T.g.fit_dirty[s] |= VGPU_GPU_RUNS_DIRTY;
			vgpu_gpu_sm_runs(&T.g, s);
			res = vgpu_gpu_sm_view(&T.g, s, &full);
			ASSERT_EQ(vgpu_bmap_run_exact(res->smem,
						      res->smem_units),
				  T.g.sm[s].run_smem);
			want_r = 0;
			want_sr = 0;
			for (p = 0; p < res->subparts; p++) {
				r = vgpu_bmap_run_exact(res->regs[p],
							res->reg_units);
				sr = vgpu_bmap_run_exact(res->sregs[p],
							 res->sreg_units);
				want_r = max(want_r, r);
				want_sr = max(want_sr, sr);
				ASSERT_EQ(min(r, sr * 64 / 16),
					  T.g.sm[s].runs_regs[p]);
			}
			ASSERT_EQ(want_r, T.g.sm[s].run_regs);
			ASSERT_EQ(want_sr, T.g.sm[s].run_sregs);
			checks++;
		}
	}
	EXPECT_TRUE(vgpu_gpu_idle(&T.g));
	EXPECT_GT(checks, 40);
	vgpu_tg_fini(&T);
}

/*
 * Placed as the exact search places: the same workload under exact and
 * under mux (latency 0) gives the same trace, bit for bit.  The issue's
 * block of 140,000 bytes of shared memory, which the sampled search never
 * finds room for, is taken and runs (what submission checks of F43 is
 * what it checks of the exact search).
 */
TEST(placed_as_exact)
{
	struct vgpu_gpu_kernel *k;
	u64 hash[2];
	u32 mode, i;

	for (mode = 0; mode < 2; mode++) {
		dev(NULL, mode ? VGPU_SEARCH_MUX : VGPU_SEARCH_EXACT, 0);
		for (i = 0; i < 8; i++) {
			k = vgpu_tg_kernel(&T, i % 3, i % 2, 2 + i, 64 + 32 * i,
					   40 * i, VGPU_MEDIUM);
			k->args.regs = 32 + 24 * (i % 4);
			k->args.smem = 9000 * (i % 5);
			ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
		}
		k = vgpu_tg_kernel(&T, 3, 0, 1, 32, 0, VGPU_SHORT);
		k->args.smem = 140000;
		EXPECT_EQ(0, vgpu_gpu_kernel_check(&T.g.cfg, &T.g.p, k));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k));
		ASSERT_TRUE(vgpu_tg_run(&T, 1000000));
		hash[mode] = vgpu_gpu_trace_hash(&T.g);
		vgpu_tg_fini(&T);
	}
	EXPECT_EQ(hash[0], hash[1]);
}

VGPU_TEST_SUITE(search_mux,
	VGPU_CASE(plan_of_an_sm)
	VGPU_CASE(mode_named_and_validated)
	VGPU_CASE(latency_per_period)
	VGPU_CASE(live_change_takes_the_latency)
	VGPU_CASE(runs_are_exact)
	VGPU_CASE(placed_as_exact))
