// SPDX-License-Identifier: GPL-2.0
/*
 * The example policies (examples/policies/NAME.c), loaded the way
 * vgpu-sim loads them (build/policies/NAME.so, dlopen), each in a scenario
 * that shows what it does differently from the seeds' order: the same
 * scenario runs under the default ("rr") and under the policy, and the
 * outcome the policy's definition implies is checked on both sides.
 */
#include <dlfcn.h>
#include <string.h>

#include "kselftest_harness.h"
#include "vgpu_test_only.h"
#undef ARRAY_SIZE	/* the shim brings the kernel's */
#include "vgpu_test_gpu.h"

static struct vgpu_tg T;

#define VGPU_SHORT	"LOOP 10\nALU\nENDLOOP\nEXIT\n"
#define VGPU_LONG	"LOOP 2000\nALU\nENDLOOP\nEXIT\n"

/* Set up T with @p (NULL: defaults), under policy @name or the default. */
static int setup(const struct vgpu_gpu_params *p, const char *name)
{
	const struct vgpu_policy_ops **ops;
	char path[64];
	void *h;
	int ret;

	ret = vgpu_tg_init(&T, NULL, p);
	if (ret || !name)
		return ret;
	snprintf(path, sizeof(path), "build/policies/%s.so", name);
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "# %s\n", dlerror());
		return -ENOENT;
	}
	ops = dlsym(h, "vgpu_policy_ops");
	if (!ops || !*ops)
		return -ENOENT;
	return vgpu_tg_use_policy(&T, *ops);
}

/* Cycle of the @nth DISPATCH of @k, ~0 if none. */
static u64 dispatch_at(const struct vgpu_gpu_kernel *k, u32 nth)
{
	const struct vgpu_event *ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH,
						   k->args.id, nth);

	return ev ? ev->cycle : ~0ULL;
}

/*
 * fifo: 8 blocks of a priority-3 kernel fill the 8 block slots at cycle
 * 0 and run LOOP 2000 (at least 2,000 cycles); a priority-0 block arrives
 * at 128.  Warp preemption gives it a slot at once under the seeds'
 * rules; in submission order nothing is preempted, so it waits for a
 * block of the older kernel to end.
 */
TEST(fifo_never_overtakes)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *lo, *hi;
	int round;

	for (round = 0; round < 2; round++) {
		vgpu_tg_params_small(&p, VGPU_PREEMPT_WARP);
		ASSERT_EQ(0, setup(&p, round ? "fifo" : NULL));
		lo = vgpu_tg_kernel(&T, 0, 3, 8, 1024, 0, VGPU_LONG);
		hi = vgpu_tg_kernel(&T, 1, 0, 1, 64, 128, VGPU_SHORT);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, lo));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, hi));
		ASSERT_TRUE(vgpu_tg_run(&T, 10000000));
		ASSERT_EQ(VGPU_KS_DONE, hi->state);
		if (round) {
			EXPECT_LE(2000, dispatch_at(hi, 0));
			EXPECT_EQ(0, T.g.stats.preemptions);
		} else {
			EXPECT_GT(2000, dispatch_at(hi, 0));
		}
		EXPECT_EQ(0, T.g.stats.policy_errors);
		vgpu_tg_fini(&T);
	}
}

/*
 * prio: two channels of one priority, 8 blocks each, every block half an
 * SM, arriving at 0 (the first channel's kernel submitted first).  The
 * seeds alternate decisions between the channels (F21), so the second
 * channel gets SMs at cycle 0; in strict order the older kernel takes all
 * 8 slots and the second waits for one of its blocks to end.
 */
TEST(prio_does_not_alternate)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *a, *b;
	int round;

	for (round = 0; round < 2; round++) {
		vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
		ASSERT_EQ(0, setup(&p, round ? "prio" : NULL));
		a = vgpu_tg_kernel(&T, 0, 1, 8, 1024, 0, VGPU_LONG);
		b = vgpu_tg_kernel(&T, 1, 1, 8, 1024, 0, VGPU_LONG);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
		ASSERT_TRUE(vgpu_tg_run(&T, 100000000));
		ASSERT_EQ(VGPU_KS_DONE, b->state);
		EXPECT_EQ(0, dispatch_at(a, 0));
		if (round) {
			EXPECT_EQ(0, dispatch_at(a, 7));
			EXPECT_LT(0, dispatch_at(b, 0));
		} else {
			EXPECT_EQ(0, dispatch_at(b, 0));
		}
		EXPECT_EQ(0, T.g.stats.policy_errors);
		vgpu_tg_fini(&T);
	}
}

/*
 * fair: two channels of one priority, 32 blocks each filling half an SM;
 * channel 0's blocks run 2,000 loop iterations, channel 1's 200, and
 * both have a BAR (never placed warp by warp, F23 (b), so every freed
 * slot is a decision).  The seeds alternate decisions (F21) and each
 * freed slot goes to whichever channel's turn it is, so the long blocks
 * come to hold most slots and the short kernel waits behind them.
 * Charged by the warp-cycles its blocks held, the long channel falls
 * behind and channel 1 gets the freed slots: its kernel completes in
 * less than half the time.
 */
TEST(fair_shares_gpu_time)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *big, *small;
	u64 end[2];
	int round;

	for (round = 0; round < 2; round++) {
		vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
		ASSERT_EQ(0, setup(&p, round ? "fair" : NULL));
		big = vgpu_tg_kernel(&T, 0, 1, 32, 1024, 0,
				     "LOOP 2000\nALU\nBAR\nENDLOOP\nEXIT\n");
		small = vgpu_tg_kernel(&T, 1, 1, 32, 1024, 0,
				       "LOOP 200\nALU\nBAR\nENDLOOP\nEXIT\n");
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, big));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, small));
		ASSERT_TRUE(vgpu_tg_run(&T, 100000000));
		ASSERT_EQ(VGPU_KS_DONE, small->state);
		ASSERT_EQ(VGPU_KS_DONE, big->state);
		end[round] = small->t.end;
		EXPECT_EQ(0, T.g.stats.policy_errors);
		vgpu_tg_fini(&T);
	}
	TH_LOG("short kernel ends at %llu (seeds) and %llu (fair)",
	       (unsigned long long)end[0], (unsigned long long)end[1]);
	EXPECT_LT(end[1] * 2, end[0]);
}

/*
 * timeslice: switch mode, two channels of one priority, 8 blocks each of
 * 1,024 threads (the 8 block slots of the device), each block longer than
 * the slice of 10,000 cycles.  The seeds alternate decisions (F21): both
 * start at cycle 0, on half the SMs each, and nothing is preempted among
 * equals.  Under the timeslice the first channel owns the first slice and
 * takes every slot; at the first boundary at or after 10,000 its blocks
 * are switched out (PREEMPT by no kernel) and the second channel starts.
 */
TEST(timeslice_rotates_channels)
{
	const char *prog = "LOOP 2000\nALU\nENDLOOP\nEXIT\n";
	const struct vgpu_event *ev;
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *a, *b;
	int round;

	for (round = 0; round < 2; round++) {
		vgpu_tg_params_small(&p, VGPU_PREEMPT_SWITCH);
		p.save_slots = 16;
		ASSERT_EQ(0, setup(&p, round ? "timeslice" : NULL));
		a = vgpu_tg_kernel(&T, 0, 1, 8, 1024, 0, prog);
		b = vgpu_tg_kernel(&T, 1, 1, 8, 1024, 0, prog);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, a));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, b));
		ASSERT_TRUE(vgpu_tg_run(&T, 100000000));
		ASSERT_EQ(VGPU_KS_DONE, a->state);
		ASSERT_EQ(VGPU_KS_DONE, b->state);
		EXPECT_EQ(8, a->done_units);
		EXPECT_EQ(8, b->done_units);
		ev = vgpu_tg_find(&T, VGPU_GEV_PREEMPT, a->args.id, 0);
		if (round) {
			EXPECT_EQ(0, dispatch_at(a, 7));
			EXPECT_LE(10000, dispatch_at(b, 0));
			ASSERT_NE(NULL, ev);
			EXPECT_LE(10000, ev->cycle);
			EXPECT_GT(10000 + 64, ev->cycle);
			EXPECT_EQ(VGPU_EV_NONE, ev->arg0);
			EXPECT_EQ(dispatch_at(b, 0), ev->cycle);
		} else {
			EXPECT_EQ(0, dispatch_at(b, 0));
			EXPECT_EQ(NULL, ev);
			EXPECT_EQ(0, T.g.stats.preemptions);
		}
		EXPECT_EQ(0, T.g.stats.policy_errors);
		vgpu_tg_fini(&T);
	}
}

/*
 * partition: two channels of one priority, 8 blocks each, two blocks per
 * SM.  The seeds alternate decisions over the SMs in round robin: the
 * first channel gets SMs 0 and 2, the second 1 and 3.  Partitioned in
 * two shares, channel 0 runs only on SMs 0-1 and channel 1 only on SMs
 * 2-3, whatever is free elsewhere.
 */
TEST(partition_confines_channels)
{
	const struct vgpu_event *ev;
	struct vgpu_gpu_kernel *k[2];
	struct vgpu_gpu_params p;
	int round, c, i;

	for (round = 0; round < 2; round++) {
		vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
		ASSERT_EQ(0, setup(&p, round ? "partition" : NULL));
		for (c = 0; c < 2; c++) {
			k[c] = vgpu_tg_kernel(&T, c, 1, 8, 1024, 0, VGPU_LONG);
			ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k[c]));
		}
		ASSERT_TRUE(vgpu_tg_run(&T, 100000000));
		for (c = 0; c < 2; c++) {
			ASSERT_EQ(VGPU_KS_DONE, k[c]->state);
			for (i = 0; round && i < 8; i++) {
				ev = vgpu_tg_find(&T, VGPU_GEV_DISPATCH,
						  k[c]->args.id, i);
				ASSERT_NE(NULL, ev);
				EXPECT_EQ(c, ev->sm / 2);
			}
		}
		/* the seeds: a block per decision, alternating, round robin */
		if (!round) {
			EXPECT_EQ(2, vgpu_tg_find(&T, VGPU_GEV_DISPATCH,
						  k[0]->args.id, 1)->sm);
		}
		EXPECT_EQ(0, T.g.stats.policy_errors);
		vgpu_tg_fini(&T);
	}
}

/*
 * edf: two channels of one priority, 8 blocks each of 1,024 threads (the
 * device's 8 block slots), every block about 64,000 cycles.  The first
 * kernel's deadline is 1,000,000 cycles, the second's 100,000.  The seeds
 * alternate decisions (F21): each gets 4 slots, the second needs two
 * waves, about 128,000 cycles, and misses.  Earliest deadline first gives
 * the second all 8 slots at once: one wave, done in time.
 */
TEST(edf_meets_the_tight_deadline)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *loose, *tight;
	int round;

	for (round = 0; round < 2; round++) {
		vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
		ASSERT_EQ(0, setup(&p, round ? "edf" : NULL));
		loose = vgpu_tg_kernel(&T, 0, 1, 8, 1024, 0, VGPU_LONG);
		tight = vgpu_tg_kernel(&T, 1, 1, 8, 1024, 0, VGPU_LONG);
		loose->args.deadline = 1000000;
		tight->args.deadline = 100000;
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, loose));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, tight));
		ASSERT_TRUE(vgpu_tg_run(&T, 100000000));
		ASSERT_EQ(VGPU_KS_DONE, tight->state);
		ASSERT_EQ(VGPU_KS_DONE, loose->state);
		EXPECT_FALSE(loose->t.deadline_missed);
		if (round) {
			EXPECT_GE(100000, tight->t.end);
			EXPECT_FALSE(tight->t.deadline_missed);
			EXPECT_EQ(0, T.g.stats.deadline_misses);
		} else {
			EXPECT_LT(100000, tight->t.end);
			EXPECT_TRUE(tight->t.deadline_missed);
			EXPECT_EQ(1, T.g.stats.deadline_misses);
		}
		EXPECT_EQ(0, T.g.stats.policy_errors);
		vgpu_tg_fini(&T);
	}
}

/* Block-cycles of kernel @kid resident before @until (its blocks' GPU time). */
static u64 busy_of(u32 kid, u64 until)
{
	static u64 at[4096];
	const struct vgpu_event *e;
	u64 busy = 0, end;
	size_t i;

	for (i = 0; i < T.nev; i++) {
		e = &T.ev[i];
		if (e->kernel != kid || e->block >= 4096)
			continue;
		if (e->type == VGPU_GEV_DISPATCH)
			at[e->block] = e->cycle;
		if (e->type != VGPU_EV_BLOCK_DONE)
			continue;
		end = e->cycle < until ? e->cycle : until;
		if (end > at[e->block])
			busy += end - at[e->block];
	}
	return busy;
}

/*
 * Block-cycles of kernels 0 and 1 resident before @until (both kernels'
 * blocks have 32 warps, so this is GPU time).
 */
static void busy_before(u64 until, u64 *busy)
{
	busy[0] = busy_of(0, until);
	busy[1] = busy_of(1, until);
}

/*
 * fair, the defining case: two tenants (channels) of one priority with
 * the same total work, one in 64 blocks of 2,000 iterations, the other
 * in 640 blocks of 200 (BAR kernels, as above).  While both have work,
 * the seeds' alternation gives the long blocks most of the GPU time; fair
 * gives each tenant the same within 5 %.
 */
TEST(fair_equal_gpu_time)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *k[2];
	u64 busy[2], until, hi, lo;
	int round;

	for (round = 0; round < 2; round++) {
		vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
		ASSERT_EQ(0, setup(&p, round ? "fair" : NULL));
		k[0] = vgpu_tg_kernel(&T, 0, 1, 64, 1024, 0,
				      "LOOP 2000\nALU\nBAR\nENDLOOP\nEXIT\n");
		k[1] = vgpu_tg_kernel(&T, 1, 1, 640, 1024, 0,
				      "LOOP 200\nALU\nBAR\nENDLOOP\nEXIT\n");
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k[0]));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k[1]));
		ASSERT_TRUE(vgpu_tg_run(&T, 1000000000));
		ASSERT_EQ(VGPU_KS_DONE, k[0]->state);
		ASSERT_EQ(VGPU_KS_DONE, k[1]->state);
		/* the window in which both had work */
		until = k[0]->t.end < k[1]->t.end ? k[0]->t.end : k[1]->t.end;
		busy_before(until, busy);
		hi = busy[0] > busy[1] ? busy[0] : busy[1];
		lo = busy[0] > busy[1] ? busy[1] : busy[0];
		TH_LOG("%s: GPU time %llu and %llu before cycle %llu",
		       round ? "fair" : "seeds", (unsigned long long)busy[0],
		       (unsigned long long)busy[1],
		       (unsigned long long)until);
		ASSERT_LT(0, lo);
		if (round) {
			EXPECT_LE((hi - lo) * 100, hi * 5);
		} else {
			EXPECT_GT((hi - lo) * 100, hi * 50);
		}
		vgpu_tg_fini(&T);
	}
}

/*
 * fair per tenant: tenant A has three channels, tenant B one, each
 * channel one kernel of the same blocks.  Shared by channel, A holds
 * three quarters of the GPU time while all have work; shared by tenant
 * first, A and B get the same within 5 %.  The first round gives every
 * kernel tenant 0 (one tenant: the channels share), the second puts
 * channel 3 in tenant 7.
 */
TEST(fair_tenants_equal_gpu_time)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *k[4];
	u64 a, b, until, hi, lo;
	int round, i;

	for (round = 0; round < 2; round++) {
		vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
		ASSERT_EQ(0, setup(&p, "fair"));
		for (i = 0; i < 4; i++) {
			k[i] = vgpu_tg_kernel(&T, i, 1, 400, 1024, 0,
					      "LOOP 200\nALU\nBAR\nENDLOOP\nEXIT\n");
			k[i]->args.tenant = round && i == 3 ? 7 : 0;
			ASSERT_EQ(0, vgpu_gpu_submit(&T.g, k[i]));
		}
		ASSERT_TRUE(vgpu_tg_run(&T, 1000000000));
		until = ~0ULL;
		for (i = 0; i < 4; i++) {
			ASSERT_EQ(VGPU_KS_DONE, k[i]->state);
			if (k[i]->t.end < until)
				until = k[i]->t.end;
		}
		a = busy_of(0, until) + busy_of(1, until) + busy_of(2, until);
		b = busy_of(3, until);
		TH_LOG("%s: tenant A %llu, tenant B %llu before cycle %llu",
		       round ? "two tenants" : "one tenant",
		       (unsigned long long)a, (unsigned long long)b,
		       (unsigned long long)until);
		hi = a > b ? a : b;
		lo = a > b ? b : a;
		ASSERT_LT(0, lo);
		if (round) {
			EXPECT_LE((hi - lo) * 100, hi * 5);
		} else {
			EXPECT_GT((hi - lo) * 100, hi * 50);
		}
		vgpu_tg_fini(&T);
	}
}

/*
 * las: three channels of one priority on the device's 8 block slots,
 * every block 1,024 threads with a BAR (placed whole, so every freed slot
 * is a decision) and the same length: 8 blocks run side by side for one
 * "wave" W of about 96,000 cycles.  Two hogs of 16 blocks arrive at 0;
 * a newcomer of 8 blocks arrives at 144,000 (1.5 W), in the middle of the
 * hogs' second wave.  At the third wave (2 W) the seeds alternate between
 * the three channels (F21): the newcomer gets about a third of each wave
 * and needs three, done near 5 W, a turnaround near 3.5 W.  Least
 * attained service gives it every slot of the third wave, since it has
 * had no GPU time and each hog 8 blocks x 32 warps x W (under las the
 * first hog takes the first wave, whose decisions all come at one
 * boundary, and the second hog the second): done near 3 W, a turnaround
 * near 1.5 W, less than half.
 */
#define VGPU_LAS_PROG	"LOOP 2000\nALU\nBAR\nENDLOOP\nEXIT\n"

TEST(las_serves_the_newcomer_first)
{
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *hog[2], *late;
	u64 turn[2];
	int round;

	for (round = 0; round < 2; round++) {
		vgpu_tg_params_small(&p, VGPU_PREEMPT_DRAIN);
		ASSERT_EQ(0, setup(&p, round ? "las" : NULL));
		hog[0] = vgpu_tg_kernel(&T, 0, 1, 16, 1024, 0, VGPU_LAS_PROG);
		hog[1] = vgpu_tg_kernel(&T, 1, 1, 16, 1024, 0, VGPU_LAS_PROG);
		late = vgpu_tg_kernel(&T, 2, 1, 8, 1024, 144000, VGPU_LAS_PROG);
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, hog[0]));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, hog[1]));
		ASSERT_EQ(0, vgpu_gpu_submit(&T.g, late));
		ASSERT_TRUE(vgpu_tg_run(&T, 100000000));
		ASSERT_EQ(VGPU_KS_DONE, hog[0]->state);
		ASSERT_EQ(VGPU_KS_DONE, hog[1]->state);
		ASSERT_EQ(VGPU_KS_DONE, late->state);
		turn[round] = late->t.end - late->args.arrival;
		if (round) {
			/* every block of it in the third wave */
			EXPECT_EQ(dispatch_at(late, 0), dispatch_at(late, 7));
			EXPECT_GT(hog[0]->t.end, late->t.end);
			EXPECT_GT(hog[1]->t.end, late->t.end);
		} else {
			EXPECT_LT(dispatch_at(late, 0), dispatch_at(late, 7));
		}
		EXPECT_EQ(0, T.g.stats.policy_errors);
		vgpu_tg_fini(&T);
	}
	TH_LOG("the newcomer's turnaround: %llu (seeds), %llu (las)",
	       (unsigned long long)turn[0], (unsigned long long)turn[1]);
	EXPECT_LT(turn[1] * 2, turn[0]);
}

VGPU_TEST_MAIN
