/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the SM engine tests (F30, F33-F35, F51): an SM of the
 * "small" preset (a100 per-SM limits), its warp pool, programs from .vasm
 * text and an event recorder.
 */
#ifndef VGPU_TEST_ENGINE_H
#define VGPU_TEST_ENGINE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm.h"
#include "power.h"
#include <vgpu/vasm.h>

#define VGPU_TEST_MAX_EVENTS	65536
#define VGPU_TEST_MAX_KERNELS	8

/**
 * struct vgpu_test_engine - one SM under test
 * @cfg: configuration (preset small unless changed before vgpu_te_init())
 * @timing: timing table
 * @pool: warp context pool
 * @warps: its storage
 * @sm: the SM
 * @k: kernels
 * @prog: their assembled programs
 * @match: their LOOP links
 * @nk: kernels in use
 * @ev: recorded events (when @record)
 * @nev: events recorded
 * @record: record events into @ev
 * @win: the SM's power window (vgpu_sm_set_window()), sized for @timing
 */
struct vgpu_test_engine {
	struct vgpu_config cfg;
	struct vgpu_isa_timing timing;
	struct vgpu_worker_pool pool;
	struct vgpu_warp warps[VGPU_MAX_WARPS_PER_SM];
	struct vgpu_sm sm;
	struct vgpu_kernel_desc k[VGPU_TEST_MAX_KERNELS];
	struct vgpu_vasm_prog prog[VGPU_TEST_MAX_KERNELS];
	u16 match[VGPU_TEST_MAX_KERNELS][VGPU_ISA_MAX_INSNS];
	u32 nk;
	struct vgpu_event ev[VGPU_TEST_MAX_EVENTS];
	u32 nev;
	bool record;
	u8 *win;
};

static void vgpu_te_record(void *cookie, const struct vgpu_event *ev)
{
	struct vgpu_test_engine *te = cookie;

	if (te->nev < VGPU_TEST_MAX_EVENTS)
		te->ev[te->nev++] = *ev;
}

/* Allocate and initialise with the default timing; NULL on failure. */
static inline struct vgpu_test_engine *vgpu_te_new(void)
{
	struct vgpu_test_engine *te = calloc(1, sizeof(*te));

	if (!te)
		return NULL;
	vgpu_config_preset(&te->cfg, "small");
	vgpu_isa_timing_default(&te->timing);
	te->record = true;
	return te;
}

/* (Re)initialise the SM and the pool from te->cfg / te->timing. */
static inline int vgpu_te_init(struct vgpu_test_engine *te)
{
	int ret;

	vgpu_worker_pool_init(&te->pool, te->warps, te->cfg.max_warps_per_sm);
	ret = vgpu_sm_init(&te->sm, &te->cfg, &te->timing, &te->pool, 0);
	if (!ret) {
		free(te->win);
		te->win = malloc(vgpu_sm_window_bytes(&te->cfg, &te->timing));
		if (!te->win)
			return -ENOMEM;
		vgpu_sm_set_window(&te->sm, te->win);
	}
	if (!ret && te->record)
		vgpu_sm_set_trace(&te->sm, vgpu_te_record, te);
	te->nev = 0;
	return ret;
}

/*
 * Add kernel from .vasm @src with @threads threads per block, priority
 * @prio, grid @grid; returns its index or -1 (message on stderr).
 */
static inline int vgpu_te_kernel(struct vgpu_test_engine *te, const char *src,
				 u32 threads, u32 prio, u32 grid)
{
	struct vgpu_kernel_desc *k;
	char err[256];
	u32 i = te->nk;

	if (i >= VGPU_TEST_MAX_KERNELS)
		return -1;
	if (vgpul_vasm_assemble("test", src, strlen(src), 0, &te->prog[i],
			       err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	k = &te->k[i];
	memset(k, 0, sizeof(*k));
	k->id = 100 + i;
	k->prio = prio;
	k->grid = grid;
	k->threads = threads;
	k->regs_per_thread = 32;
	if (vgpu_kernel_desc_init(k, &te->cfg, te->prog[i].insns,
				  te->prog[i].n, te->match[i]))
		return -1;
	te->nk++;
	return i;
}

static inline void vgpu_te_free(struct vgpu_test_engine *te)
{
	u32 i;

	if (!te)
		return;
	for (i = 0; i < te->nk; i++)
		vgpul_vasm_free(&te->prog[i]);
	free(te->win);
	free(te);
}

/* Run until the SM is idle or @max cycles passed; returns cycles run. */
static inline u64 vgpu_te_run_idle(struct vgpu_test_engine *te, u64 max)
{
	u64 spent = 0;

	while (!vgpu_sm_idle(&te->sm) && spent < max)
		spent += vgpu_sm_run(&te->sm, max - spent, VGPU_SM_RUN_STOP_BLOCK);
	return spent;
}

/* Index of the n-th event of @type for (block, warp), or -1. */
static inline int vgpu_te_find(const struct vgpu_test_engine *te, u32 type,
			       u32 kernel, u32 block, u32 warp, u32 nth)
{
	u32 i;

	for (i = 0; i < te->nev; i++) {
		const struct vgpu_event *e = &te->ev[i];

		if (e->type == type && e->kernel == kernel &&
		    e->block == block && e->warp == warp && !nth--)
			return i;
	}
	return -1;
}

/* The resources, compared with a freshly initialised SM (F33). */
static inline bool vgpu_te_res_empty(const struct vgpu_test_engine *te)
{
	struct vgpu_sm_res fresh;

	vgpu_sm_res_init(&fresh, &te->cfg);
	fresh.split_ptr = te->sm.res.split_ptr;	/* F31 pointer rotates */
	return !memcmp(&fresh, &te->sm.res, sizeof(fresh)) &&
	       te->pool.nfree == te->pool.size && !te->sm.used &&
	       te->sm.top_prio == VGPU_PRIO_NONE && !te->sm.ready_sp;
}

#endif /* VGPU_TEST_ENGINE_H */
