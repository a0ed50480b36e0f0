// SPDX-License-Identifier: GPL-2.0
/*
 * Conservation of the global controller: over 200 seeded random
 * workloads x every SM-choice policy (F25) x every preemption mode (F23),
 * every block of every kernel completes exactly once (switched-out and
 * split blocks included, F23, F24) and every resource of every SM, every
 * warp context and every save slot returns to the empty state.
 */
#include <string.h>

#include "vgpu_test.h"
#include "vgpu_test_gpu.h"
#include "vgpu_test_rand.h"

#define VGPU_CONS_SEEDS	VGPU_TEST_SCALE(200, 10)
#define VGPU_CONS_MAXB	(8 * 32)	/* grid x warps after a split */

static struct vgpu_tg T;
static struct vgpu_gpu_stats vgpu_cons_sum;
static u8 vgpu_cons_done[VGPU_TG_MAX_K][VGPU_CONS_MAXB];

static const char *const vgpu_cons_progs[] = {
	"LOOP 3*(1+wid%4)\nALU\nLOAD\nENDLOOP\nEXIT\n",
	"LOOP 2*(1+bid%3)\nMMA\nBAR\nALU\nENDLOOP\nEXIT\n",
	"LOCK 1\nALU\nALU\nUNLOCK 1\nLOOP 4\nCMP\nENDLOOP\nEXIT\n",
	"MOV\nLOOP 1+wid%3\nSTORE\nENDLOOP\nBRA\nEXIT\n",
	"LOOP 20*(1+wid%8)\nALU\nENDLOOP\nEXIT\n",
};

static const char *const vgpu_cons_policies[] = {
	"rr", "avail", "resource", "power", "combined",
};

/* Build and run one random workload; return a failure text or NULL. */
static const char *vgpu_cons_one(u32 seed, u32 pol, u32 mode)
{
	struct vgpu_test_rng r = { .s = seed * 7919ULL + 1 };
	struct vgpu_gpu_params p;
	struct vgpu_config cfg;
	struct vgpu_gpu_kernel *k;
	u32 nk, i, j, b, prog, prio;
	size_t e;

	vgpu_config_preset(&cfg, "small");
	cfg.num_sms = 2 + vgpu_test_below(&r, 3);
	vgpu_gpu_params_default(&p, &cfg);
	memcpy(p.policy, vgpu_cons_policies[pol],
	       strlen(vgpu_cons_policies[pol]) + 1);
	p.preempt = mode;
	p.g_max = 2 + vgpu_test_below(&r, 8);
	p.task_slots = 1 + vgpu_test_below(&r, 4);
	p.save_slots = 1 + vgpu_test_below(&r, 3);
	p.epoch = 16 << vgpu_test_below(&r, 3);
	if (vgpu_test_below(&r, 2))
		p.num_windows = 0;
	else
		for (i = 0; i < p.num_windows; i++)
			p.window[i] = 256 >> i;
	if (vgpu_tg_init(&T, &cfg, &p))
		return "init";
	/* a low-priority filler keeps every SM busy for a while */
	k = vgpu_tg_kernel(&T, 3, 3, 2 * cfg.num_sms, 1024, 0,
			   vgpu_cons_progs[vgpu_test_below(&r, 2) ? 1 : 4]);
	if (vgpu_gpu_submit(&T.g, k))
		return "submit filler";
	nk = 3 + vgpu_test_below(&r, 5);
	for (i = 1; i < nk; i++) {
		prog = vgpu_test_below(&r, ARRAY_SIZE(vgpu_cons_progs));
		prio = vgpu_test_below(&r, 4);
		/* high priorities tend to arrive on a busy device (F23 c) */
		k = vgpu_tg_kernel(&T, vgpu_test_below(&r, 4), prio,
				   1 + vgpu_test_below(&r, 6),
				   32 * (1 + vgpu_test_below(&r, 16)),
				   prio ? vgpu_test_below(&r, 300) :
					  200 + vgpu_test_below(&r, 1500),
				   vgpu_cons_progs[prog]);
		k->args.regs = 16 + vgpu_test_below(&r, 48);
		k->args.smem = vgpu_test_below(&r, 4) ? 0 :
			  1024 * vgpu_test_below(&r, 80);
		if (prog != 1 && !vgpu_test_below(&r, 3))
			k->args.flags |= VGPU_KF_INDEPENDENT;
		if (!vgpu_test_below(&r, 5))
			k->args.flags |= VGPU_KF_SEQUENTIAL;
		k->args.quota = vgpu_test_below(&r, 3);
		if (!vgpu_test_below(&r, 6))
			k->args.affinity[0] = 1 + vgpu_test_below(&r, 3);
		if (vgpu_gpu_submit(&T.g, k))
			return "submit";
	}
	if (!vgpu_tg_run(&T, 50000000))
		return "did not finish";
	memset(vgpu_cons_done, 0, sizeof(vgpu_cons_done));
	for (e = 0; e < T.nev; e++) {
		if (T.ev[e].type != VGPU_EV_BLOCK_DONE)
			continue;
		if (T.ev[e].kernel >= nk || T.ev[e].block >= VGPU_CONS_MAXB)
			return "bad block id";
		if (vgpu_cons_done[T.ev[e].kernel][T.ev[e].block]++)
			return "block completed twice";
	}
	for (i = 0; i < nk; i++) {
		k = &T.k[i];
		if (k->state != VGPU_KS_DONE || k->done_units != k->units ||
		    k->inflight || k->nsaved)
			return "kernel not done";
		for (b = 0, j = 0; b < VGPU_CONS_MAXB; b++)
			j += vgpu_cons_done[i][b];
		if (j != k->units)
			return "lost or extra blocks";
	}
	for (i = 0; i < cfg.num_sms; i++) {
		const struct vgpu_gpu_sm *gs = &T.g.sm[i];
		const struct vgpu_sm_res *res = &gs->sm.res;

		if (gs->sm.used || res->warps_total || res->blocks_used ||
		    res->barriers_used || gs->pool.nfree != gs->pool.size ||
		    gs->lost)
			return "SM not empty";
		if (vgpu_bmap_weight(res->smem, res->smem_units) !=
		    res->smem_units)
			return "shared memory leaked";
		for (j = 0; j < res->subparts; j++)
			if (vgpu_bmap_weight(res->regs[j], res->reg_units) !=
			    res->reg_units || res->warps_used[j])
				return "registers leaked";
	}
	j = 0;
	for (e = 0; e < 1; e++) {
		struct list_head *pos;

		list_for_each(pos, &T.g.saved_free)
			j++;
	}
	if (j != p.save_slots)
		return "save slot leaked";
	vgpu_cons_sum.preemptions += T.g.stats.preemptions;
	vgpu_cons_sum.resumes += T.g.stats.resumes;
	vgpu_cons_sum.splits += T.g.stats.splits;
	vgpu_cons_sum.evictions += T.g.stats.evictions;
	vgpu_cons_sum.blocks += T.g.stats.blocks;
	return NULL;
}

TEST(conservation)
{
	const char *why;
	u32 seed, pol, mode, runs = 0;

	for (seed = 0; seed < VGPU_CONS_SEEDS; seed++) {
		for (pol = 0; pol < ARRAY_SIZE(vgpu_cons_policies); pol++) {
			for (mode = 0; mode <= VGPU_PREEMPT_SWITCH; mode++) {
				why = vgpu_cons_one(seed, pol, mode);
				EXPECT_EQ(NULL, why) {
					TH_LOG("seed %u policy %s mode %u: %s",
					       seed, vgpu_cons_policies[pol],
					       mode, why);
				}
				vgpu_tg_fini(&T);
				runs++;
				if (why)
					return;
			}
		}
	}
	EXPECT_EQ(VGPU_CONS_SEEDS * ARRAY_SIZE(vgpu_cons_policies) * 3, runs);
	/* the interesting paths were taken */
	EXPECT_LT(0, vgpu_cons_sum.preemptions);
	EXPECT_LT(0, vgpu_cons_sum.resumes);
	EXPECT_LT(0, vgpu_cons_sum.splits);
	EXPECT_LT(0, vgpu_cons_sum.evictions);
	TH_LOG("%llu blocks, %llu preemptions, %llu resumes, %llu splits, %llu evictions",
	       (unsigned long long)vgpu_cons_sum.blocks,
	       (unsigned long long)vgpu_cons_sum.preemptions,
	       (unsigned long long)vgpu_cons_sum.resumes,
	       (unsigned long long)vgpu_cons_sum.splits,
	       (unsigned long long)vgpu_cons_sum.evictions);
}

VGPU_TEST_SUITE(gpu_conserve,
	VGPU_CASE(conservation))
