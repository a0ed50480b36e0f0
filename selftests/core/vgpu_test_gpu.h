/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small driver of the global controller (driver/core/gpu.c and the
 * files beside it: table.c, queue.c, child.c, place.c, collect.c,
 * policy_default.c) for the core unit tests: device setup, kernels from
 * .vasm text, the epoch loop and the recorded event stream.
 */
#ifndef VGPU_TEST_GPU_H
#define VGPU_TEST_GPU_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include <vgpu/vasm.h>

#define VGPU_TG_MAX_K	32
#define VGPU_TG_MAX_POL	8

/**
 * struct vgpu_tg - a device under test
 * @g: the device
 * @mem: its memory
 * @pol: policy registry
 * @reg: entries of the policies a test registered (vgpu_tg_use_policy())
 * @nreg: entries of @reg used
 * @k: kernels
 * @nk: kernels used
 * @prog: their programs
 * @match: their LOOP links
 * @ev: every event the sink saw
 * @nev: their number
 * @cap: capacity of @ev
 * @reverse: advance SMs in reverse order (F51 layout independence)
 */
struct vgpu_tg {
	struct vgpu_gpu g;
	void *mem;
	struct list_head pol;
	struct vgpu_policy_reg reg[VGPU_TG_MAX_POL];
	u32 nreg;
	struct vgpu_gpu_kernel k[VGPU_TG_MAX_K];
	u32 nk;
	struct vgpu_vasm_prog prog[VGPU_TG_MAX_K];
	u16 match[VGPU_TG_MAX_K][VGPU_ISA_MAX_INSNS];
	struct vgpu_event *ev;
	size_t nev;
	size_t cap;
	bool reverse;
};

static inline void vgpu_tg_sink(void *cookie, const struct vgpu_event *ev)
{
	struct vgpu_tg *t = cookie;

	if (t->nev == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1024;
		t->ev = realloc(t->ev, t->cap * sizeof(*t->ev));
		if (!t->ev)
			abort();
	}
	t->ev[t->nev++] = *ev;
}

/*
 * Set up @t with @cfg / @p (NULL: small preset / defaults) and the host
 * callbacks @ops (NULL: none) with @host; 0 or errno.
 */
static inline int vgpu_tg_init_host(struct vgpu_tg *t,
				    const struct vgpu_config *cfg,
				    const struct vgpu_gpu_params *p,
				    const struct vgpu_gpu_host_ops *ops,
				    void *host)
{
	struct vgpu_gpu_params dp;
	struct vgpu_config dc;
	size_t size;
	u32 i;
	int ret;

	memset(t, 0, sizeof(*t));
	if (!cfg) {
		vgpu_config_preset(&dc, "small");
		cfg = &dc;
	}
	if (!p) {
		vgpu_gpu_params_default(&dp, cfg);
		p = &dp;
	}
	vgpu_policy_registry_init(&t->pol);
	size = vgpu_gpu_mem_size(cfg, p);
	t->mem = aligned_alloc(64, (size + 63) & ~(size_t)63);
	if (!t->mem)
		return -ENOMEM;
	ret = vgpu_gpu_init_host(&t->g, t->mem, size, cfg, p, &t->pol, ops,
				 host);
	if (ret)
		return ret;
	vgpu_gpu_set_sink(&t->g, vgpu_tg_sink, t);
	for (i = 0; i < 8; i++)
		vgpu_gpu_channel_add(&t->g, i, 0);
	return 0;
}

/* Set up @t with @cfg / @p (NULL: small preset / defaults); 0 or errno. */
static inline int vgpu_tg_init(struct vgpu_tg *t, const struct vgpu_config *cfg,
			       const struct vgpu_gpu_params *p)
{
	return vgpu_tg_init_host(t, cfg, p, NULL, NULL);
}

/* Parameters of the "small" preset in preemption mode @preempt, no windows. */
static inline void vgpu_tg_params_small(struct vgpu_gpu_params *p,
					u32 preempt)
{
	struct vgpu_config cfg;

	vgpu_config_preset(&cfg, "small");
	vgpu_gpu_params_default(p, &cfg);
	p->preempt = preempt;
	p->num_windows = 0;
}

/* @t's registry entry of @ops, registered, or NULL. */
static inline struct vgpu_policy_reg *
vgpu_tg_policy_reg(struct vgpu_tg *t, const struct vgpu_policy_ops *ops)
{
	u32 i;

	for (i = 0; i < t->nreg; i++)
		if (t->reg[i].ops == ops && !list_empty(&t->reg[i].node))
			return &t->reg[i];
	return NULL;
}

/* Register @ops in @t's registry through an entry @t keeps; 0 or errno. */
static inline int vgpu_tg_register_policy(struct vgpu_tg *t,
					  const struct vgpu_policy_ops *ops)
{
	struct vgpu_policy_reg *r;
	int ret;

	if (vgpu_tg_policy_reg(t, ops))
		return 0;
	if (t->nreg == VGPU_TG_MAX_POL)
		return -ENOSPC;
	r = &t->reg[t->nreg];
	memset(r, 0, sizeof(*r));
	r->ops = ops;
	ret = vgpu_policy_register(&t->pol, r);
	if (!ret)
		t->nreg++;
	return ret;
}

/* Register @ops (if it is not) and make it @t's policy; 0 or errno. */
static inline int vgpu_tg_use_policy(struct vgpu_tg *t,
				     const struct vgpu_policy_ops *ops)
{
	int ret = vgpu_tg_register_policy(t, ops);

	return ret ? ret : vgpu_gpu_set_policy(&t->g, &t->pol, ops->name);
}

/* Take @ops out of @t's registry (the device may still use it). */
static inline void vgpu_tg_unregister_policy(struct vgpu_tg *t,
					     const struct vgpu_policy_ops *ops)
{
	struct vgpu_policy_reg *r = vgpu_tg_policy_reg(t, ops);

	if (r)
		vgpu_policy_unregister(r);
}

static inline void vgpu_tg_fini(struct vgpu_tg *t)
{
	u32 i;

	vgpu_gpu_fini(&t->g);
	for (i = 0; i < t->nk; i++)
		vgpul_vasm_free(&t->prog[i]);
	free(t->ev);
	free(t->mem);
}

/* A kernel (not yet submitted) running the .vasm text @src. */
static inline struct vgpu_gpu_kernel *
vgpu_tg_kernel(struct vgpu_tg *t, u32 ch, u32 prio, u32 grid, u32 threads,
	       u64 arrival, const char *src)
{
	struct vgpu_gpu_kernel *k = &t->k[t->nk];
	char err[256];

	if (t->nk >= VGPU_TG_MAX_K ||
	    vgpul_vasm_assemble("test", src, strlen(src), 0, &t->prog[t->nk],
			       err, sizeof(err))) {
		fprintf(stderr, "# vgpu_tg_kernel: %s\n", err);
		abort();
	}
	memset(k, 0, sizeof(*k));
	k->args.id = t->nk;
	k->args.channel = ch;
	k->args.prio = prio;
	k->args.grid = grid;
	k->args.threads = threads;
	k->args.regs = 32;
	k->args.arrival = arrival;
	k->args.prog = t->prog[t->nk].insns;
	k->args.n_insns = t->prog[t->nk].n;
	k->args.match = t->match[t->nk];
	t->nk++;
	return k;
}

/* A valid one-block template (F15) of the .vasm text @src in @tmpl. */
static inline void vgpu_tg_template(struct vgpu_tg *t,
				    struct vgpu_gpu_template *tmpl,
				    const char *src)
{
	struct vgpu_gpu_kernel *k = vgpu_tg_kernel(t, 0, 0, 1, 32, 0, src);

	memset(tmpl, 0, sizeof(*tmpl));
	tmpl->grid = 1;
	tmpl->threads = 32;
	tmpl->regs = 32;
	tmpl->prog = k->args.prog;
	tmpl->n_insns = k->args.n_insns;
	tmpl->match = k->args.match;
}

/*
 * The host's check (vgpu_gpu_kernel_check()) and the core's submission
 * agree on kernel @k of device @t, and both give @want.
 */
#define VGPU_TG_AGREE(t, k, want) do {					\
	int c_ = vgpu_gpu_kernel_check(&(t)->g.cfg, &(t)->g.p, (k));	\
	int s_ = vgpu_gpu_submit(&(t)->g, (k));				\
	EXPECT_EQ((want), c_);						\
	EXPECT_EQ((want), s_);						\
} while (0)

/*
 * Event @ev is a dispatch (F23) at cycle @c of block @b on SM @s by path
 * @path (VGPU_PATH_*).
 */
#define VGPU_TG_EXPECT_DISPATCH(ev, c, s, b, path) do {			\
	ASSERT_NE(NULL, (ev));						\
	EXPECT_EQ((c), (ev)->cycle);					\
	EXPECT_EQ((s), (ev)->sm);					\
	EXPECT_EQ((b), (ev)->block);					\
	EXPECT_EQ((path), (ev)->arg0);					\
} while (0)

/* One epoch: the controller, then every SM. */
static inline void vgpu_tg_step(struct vgpu_tg *t)
{
	u32 i, n = t->g.cfg.num_sms;

	vgpu_gpu_dispatch(&t->g);
	for (i = 0; i < n; i++)
		vgpu_gpu_advance_sm(&t->g, t->reverse ? n - 1 - i : i);
}

/* Epochs until every kernel finished or the cycle passes @limit. */
static inline bool vgpu_tg_run(struct vgpu_tg *t, u64 limit)
{
	while (t->g.now <= limit) {
		vgpu_gpu_dispatch(&t->g);
		if (vgpu_gpu_idle(&t->g))
			return true;
		vgpu_gpu_advance_range(&t->g, 0, t->g.cfg.num_sms);
	}
	return false;
}

/* Epochs up to cycle @until (the boundary at @until is not run). */
static inline void vgpu_tg_until(struct vgpu_tg *t, u64 until)
{
	while (t->g.epoch_end < until || (!t->g.epoch_end && !t->nev &&
					  until))
		vgpu_tg_step(t);
}

/* The @nth (from 0) event of @type for kernel @kid, or NULL. */
static inline const struct vgpu_event *
vgpu_tg_find(const struct vgpu_tg *t, u32 type, u32 kid, u32 nth)
{
	size_t i;

	for (i = 0; i < t->nev; i++)
		if (t->ev[i].type == type && t->ev[i].kernel == kid && !nth--)
			return &t->ev[i];
	return NULL;
}

static inline u32 vgpu_tg_count(const struct vgpu_tg *t, u32 type, u32 kid)
{
	size_t i;
	u32 n = 0;

	for (i = 0; i < t->nev; i++)
		n += t->ev[i].type == type && t->ev[i].kernel == kid;
	return n;
}

#endif /* VGPU_TEST_GPU_H */
