// SPDX-License-Identifier: GPL-2.0
/*
 * The global controller: kernels and the task table (F10-F13, F16).
 *
 * Submission (fields, templates, affinity) and the core's fields of a
 * kernel entering the device; its end: completion (up its tree, F15),
 * cancellation and failure; at each boundary the kernels that arrive (F16
 * head insertion) and the task table: deallocated slots freed, channel
 * heads and child kernels admitted, occupants evicted (F13), in the
 * orders of policy_default.c.
 */
#include "vgpu_os.h"
#include "check.h"
#include "gpu_internal.h"
#include "policy_default.h"

/* The bits of SMs that exist in word @w of an affinity mask. */
static u64 vgpu_gpu_aff_valid(const struct vgpu_gpu *g, u32 w)
{
	u32 n = g->cfg.num_sms;

	if (n >= (w + 1) * 64)
		return ~0ULL;
	if (n <= w * 64)
		return 0;
	return BIT_ULL(n - w * 64) - 1;
}

/*
 * The mask names an SM of the device.  A checked kernel's mask names one
 * or none at all (vgpu_gpu_kernel_check()), so the device's words decide.
 */
static bool vgpu_gpu_aff_any(const struct vgpu_gpu *g,
			     const struct vgpu_gpu_kernel *k)
{
	u32 i;

	for (i = 0; i < g->top_words; i++)
		if (k->args.affinity[i])
			return true;
	return false;
}

/*
 * Link the templates of a submitted kernel once for its whole tree (F15):
 * vgpu_gpu_kernel_check() has passed them, so building their descriptors
 * cannot fail (checked all the same: a template is never half built).
 */
static int vgpu_gpu_tmpl_init(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	struct vgpu_gpu_template *t;
	struct vgpu_kernel_desc *d;
	u32 i;

	for (i = 0; i < k->args.n_tmpl; i++) {
		t = &k->args.tmpl[i];
		d = &t->desc;
		memset(d, 0, sizeof(*d));
		d->grid = t->grid;
		d->threads = t->threads;
		d->regs_per_thread = t->regs;
		d->smem_bytes = t->smem;
		if (vgpu_block_shape_init(&d->shape, &g->cfg, t->threads,
					  t->regs, t->smem, 0, NULL) ||
		    vgpu_kernel_desc_init(d, &g->cfg, t->prog, t->n_insns,
					  t->match))
			return -EINVAL;
	}
	return 0;
}

/*
 * Submitted kernel @k joins its tenant's entry (&vgpu_gpu.tenant): the
 * one with its id, else the first free one; none when all are taken (its
 * tenant's GPU time then reads 0).
 */
static void vgpu_gpu_tenant_get(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	u32 i, free = VGPU_GPU_NO_TENANT;

	for (i = 0; i < VGPU_GPU_MAX_TENANTS; i++) {
		if (!g->tenant[i].kernels) {
			if (free == VGPU_GPU_NO_TENANT)
				free = i;
		} else if (g->tenant[i].id == k->args.tenant) {
			break;
		}
	}
	if (i == VGPU_GPU_MAX_TENANTS)
		i = free;
	if (i == VGPU_GPU_NO_TENANT)
		return;
	g->tenant[i].id = k->args.tenant;
	g->tenant[i].kernels++;
	k->tenant_slot = i;
}

/**
 * vgpu_gpu_submit() - submit a kernel to its channel (F10, F11)
 * @g: the device
 * @k: caller-allocated descriptor with the F10 fields filled, a program
 *	that passed vgpu_isa_validate() and, for child kernels (F15), its
 *	templates and child budget with their storage; the core owns the
 *	other fields until vgpu_gpu_kernel_finished()
 *
 * A kernel vgpu_gpu_kernel_prepare() checked is not checked again here,
 * but for its blocks against the search mode in force.
 *
 * Return: 0; -EINVAL for a bad field (unknown flag, priority, empty grid,
 * invalid program, independent kernel with BAR or LAUNCH, empty affinity,
 * too many templates, a bad template, a LAUNCH of a template index not
 * below @k->n_tmpl in its program or a template's, a child budget above
 * VGPU_MAX_CHILDREN or without storage); -ENOENT if the channel does not
 * exist; -E2BIG if a block (its own or a template's) can never fit an
 * empty SM, or the device's search mode can never find room for it there
 * (vgpu_gpu_search_fits_empty()).
 */
int vgpu_gpu_submit(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	struct vgpu_kernel_desc *d = &k->desc;
	struct vgpu_block_shape shape;
	struct vgpu_isa_summary sum;
	struct vgpu_gpu_kernel *o;
	u64 valid;
	bool any, prepared;
	u32 i;
	int ret;

	/* the one check of a kernel's own fields (check.c), made once */
	prepared = k->prepared;
	if (prepared) {
		sum = d->sum;
		shape = d->shape;
		k->prepared = false;
	} else {
		ret = vgpu_gpu_kernel_check_sum(&g->cfg, &g->p, k, &sum, &shape);
		if (ret)
			return ret;
	}
	if (vgpu_gpu_push_target_check(k) || (sum.uses_functional && !g->fn))
		return -EINVAL;
	if (k->args.channel >= g->p.max_channels || !g->chan[k->args.channel].used)
		return -ENOENT;
	list_for_each_entry(o, &g->id_hash[k->args.id % VGPU_GPU_ID_BUCKETS],
			    id_node)
		if (o->args.id == k->args.id)
			return -EEXIST;
	memset(d, 0, sizeof(*d));
	d->id = k->args.id;
	d->prio = k->args.prio;
	/* a queue kernel's blocks are numbered as they launch (F14) */
	d->grid = k->args.flags & VGPU_KF_QUEUE ? ~0U : k->args.grid;
	d->threads = k->args.threads;
	d->regs_per_thread = k->args.regs;
	d->smem_bytes = k->args.smem;
	d->sregs = k->args.sregs;
	d->prio_wid_mod = k->args.prio_wid_mod;
	d->warp_prio = k->args.n_warp_prio ? k->args.warp_prio : NULL;
	d->slots = k->args.slots;
	d->priv_bytes = k->args.priv_bytes;
	d->insn_budget = k->args.insn_budget;
	/*
	 * vgpu_kernel_desc_init() from what the check made: the program is
	 * valid (its summary), the grid is not empty (a queue kernel's is
	 * ~0U), the priority is a level of the device, the block's shape
	 * has the barrier if the program has BAR.
	 */
	d->sum = sum;
	d->shape = shape;
	vgpu_isa_link_valid(k->args.prog, k->args.n_insns, k->args.match);
	d->prog = k->args.prog;
	d->match = k->args.match;
	d->n_insns = k->args.n_insns;
	/* word by word: SUBMIT pays this for every kernel (F60) */
	any = !k->args.no_affinity && vgpu_gpu_aff_any(g, k);
	k->aff_all = true;
	for (i = 0; i < g->top_words; i++) {
		valid = vgpu_gpu_aff_valid(g, i);
		k->args.affinity[i] = any ? k->args.affinity[i] & valid : valid;
		if (k->args.affinity[i] != valid)
			k->aff_all = false;
	}
	/* the words past the device's SMs name none */
	if (!k->args.no_affinity)
		memset(k->args.affinity + g->top_words, 0,
		       (VGPU_GPU_AFF_WORDS - g->top_words) * sizeof(u64));
	ret = vgpu_gpu_tmpl_init(g, k);
	/* the search mode may have changed since the host's check */
	if (!ret && prepared)
		ret = vgpu_gpu_kernel_search_check(&g->cfg, &g->p, k);
	if (ret)
		return ret;
	vgpu_gpu_kernel_enter(g, k);
	if (k->args.deadline)
		k->t.deadline_at = k->args.arrival + k->args.deadline;
	k->child.parent = NULL;
	k->child.root = k;
	k->child.depth = 0;
	k->child.tmpl_idx = 0;
	list_add_tail(&k->chan_node, &g->chan[k->args.channel].fifo);
	list_add_tail(&k->table_node, &g->kernels);
	list_add_tail(&k->id_node, &g->id_hash[k->args.id % VGPU_GPU_ID_BUCKETS]);
	g->nkernels++;
	vgpu_gpu_tenant_get(g, k);
	if (g->policy->submitted)
		g->policy->submitted(g, k);
	return 0;
}

/**
 * vgpu_gpu_kernel_enter() - the core's fields of a kernel entering the device
 * @g: the device
 * @k: the kernel, submitted or child
 */
void vgpu_gpu_kernel_enter(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	const struct vgpu_kernel_desc *d = &k->desc;

	/* F23: a block that may wait at a LAUNCH is never partial either */
	k->uses_bar = d->sum.uses_bar || d->sum.uses_launch_wait;
	INIT_LIST_HEAD(&k->id_node);
	if (g->policy->kernel_state_size)
		memset(k->policy_data, 0, g->policy->kernel_state_size);
	k->yield = false;
	k->t.resident = 0;
	k->t.yield_hold = 0;
	memset(&k->gt, 0, sizeof(k->gt));
	k->tenant_slot = VGPU_GPU_NO_TENANT;
	k->held = false;
	k->t.entered = 0;
	k->t.deadline_at = VGPU_GPU_NO_CYCLE;
	k->t.deadline_missed = false;
	k->displaced_at = 0;
	k->warps = d->shape.warps;
	k->eff_prio = k->args.prio;
	k->split = false;
	k->split_from = k->args.grid;
	k->units = k->args.grid;
	k->next_unit = 0;
	k->inflight = 0;
	k->done_units = 0;
	k->nsaved = 0;
	INIT_LIST_HEAD(&k->saved);
	k->quota_used = 0;
	k->slot = ~0U;
	k->preempted = 0;
	k->busy_arrival = false;
	k->seen = false;
	k->t.submit = k->args.arrival;
	k->t.dispatch = VGPU_GPU_NO_CYCLE;
	k->t.start = VGPU_GPU_NO_CYCLE;
	k->t.end = VGPU_GPU_NO_CYCLE;
	k->seq = g->seq++;
	k->state = VGPU_KS_QUEUED;
	vgpu_gpu_queue_enter(g, k);
	k->error = 0;
	k->child.launched = 0;
	k->child.children = 0;
	k->child.nsusp = 0;
	k->child.waiter = NULL;
	k->child.wait_sm = ~0U;
	k->child.wait_slot = 0;
	INIT_LIST_HEAD(&k->child.wait_node);
}

/**
 * vgpu_gpu_kernel_finished() - may the caller free the descriptor?
 * @k: a submitted kernel
 *
 * A submitted kernel finishes after every child of its tree (F15), so its
 * templates and child storage may go with it.
 *
 * Return: true once it is done, cancelled or failed.
 */
bool vgpu_gpu_kernel_finished(const struct vgpu_gpu_kernel *k)
{
	return k->state == VGPU_KS_DONE || k->state == VGPU_KS_CANCELLED ||
	       k->state == VGPU_KS_FAILED;
}

/* Put @k (or NULL) in task slot @s, keeping @slot_used in step. */
static void vgpu_gpu_slot_set(struct vgpu_gpu *g, u32 s,
			      struct vgpu_gpu_kernel *k)
{
	g->slot[s] = k;
	vgpu_bmap_assign(g->slot_used, s, k);
}

/*
 * @k leaves its slot: the slot keeps a deallocation request until the SMs
 * acknowledge it (vgpu_gpu_table_update(), F13).
 */
static void vgpu_gpu_slot_release(struct vgpu_gpu *g,
				  struct vgpu_gpu_kernel *k)
{
	if (k->slot != ~0U) {
		vgpu_gpu_dealloc_set(g, k->slot, true);
		vgpu_gpu_slot_set(g, k->slot, NULL);
		k->slot = ~0U;
	}
}

static void vgpu_gpu_kernel_retire(struct vgpu_gpu *g,
				   struct vgpu_gpu_kernel *k, u32 state)
{
	if (k->tenant_slot < VGPU_GPU_MAX_TENANTS &&
	    !--g->tenant[k->tenant_slot].kernels)
		memset(&g->tenant[k->tenant_slot], 0, sizeof(g->tenant[0]));
	k->tenant_slot = VGPU_GPU_NO_TENANT;
	if (k->held)
		vgpu_gpu_release(g, k);
	vgpu_gpu_slot_release(g, k);
	if (!list_empty(&k->chan_node))
		list_del_init(&k->chan_node);
	list_del_init(&k->table_node);
	list_del_init(&k->id_node);
	vgpu_gpu_queue_leave(g, k);
	g->nkernels--;
	k->state = state;
}

/*
 * Remove @k from the device: its undispatched blocks are dropped, its
 * resident, switched-out and suspended blocks removed at once with their
 * resources.  It ends in @state (VGPU_KS_CANCELLED or VGPU_KS_FAILED) with
 * @error; a failure is a VGPU_GEV_FAIL event, anything else a CANCEL.
 */
static void vgpu_gpu_stop(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			  u32 state, int error)
{
	struct vgpu_gpu_shadow *sh;
	struct list_head *e;
	u32 i, j, n = 0;

	/* nothing of it is on an SM unless a unit is in flight */
	for (i = 0; k->inflight && i < g->cfg.num_sms; i++) {
		n += vgpu_sm_cancel_kernel(&g->sm[i].sm, k->args.id);
		for (j = 0; j < VGPU_MAX_BLOCKS_PER_SM; j++) {
			sh = &g->sm[i].shadow[j];
			if (sh->k != k)
				continue;
			/* started in the epoch that just ended (F15 failure) */
			if (sh->start_at != VGPU_GPU_NO_CYCLE &&
			    !sh->start_seen)
				k->t.start = min(k->t.start, sh->start_at);
			if (sh->wait) {
				list_del_init(&sh->wait->child.wait_node);
				sh->wait->child.wait_sm = ~0U;
			}
			vgpu_gpu_charge_end(g, k, sh->at, g->now, sh->warps);
			memset(sh, 0, sizeof(*sh));
			g->sm[i].shadow_used &= ~BIT_ULL(j);
		}
	}
	while (!list_empty(&k->saved)) {
		e = k->saved.next;
		list_del(e);
		list_add(e, &g->saved_free);
	}
	if (k->child.parent)
		vgpu_gpu_unwait(g, k);
	n += k->nsaved + k->child.nsusp + k->units - k->next_unit;
	k->nsaved = 0;
	k->child.nsusp = 0;
	k->inflight = 0;
	k->error = error;
	if (state == VGPU_KS_FAILED) {
		k->t.end = g->now;	/* when it failed */
		g->stats.failed++;
		vgpu_gpu_emit(g, g->now, VGPU_GEV_FAIL, k, ~0U, ~0U, ~0U,
			      -error, n);
	} else {
		vgpu_gpu_emit(g, g->now, VGPU_GEV_CANCEL, k, ~0U, ~0U, ~0U, n,
			      0);
	}
	vgpu_gpu_kernel_retire(g, k, state);
	if (g->policy->cancelled)
		g->policy->cancelled(g, k);
	if (!k->child.parent)
		vgpu_gpu_host_done(g, k);
}

/**
 * vgpu_gpu_stop_tree() - stop the tree of a submitted kernel (F15)
 * @g: the device
 * @r: the submitted kernel at the root of the tree
 *
 * Its unfinished children, the most recent first, then @r.  Kernels whose
 * @error is set (the path of a failure) fail with it, the others are
 * cancelled.
 */
void vgpu_gpu_stop_tree(struct vgpu_gpu *g, struct vgpu_gpu_kernel *r)
{
	struct vgpu_gpu_kernel *c;
	u32 i;

	vgpu_gpu_fn_flush(g);	/* its buffers may go with it */
	for (i = r->child.launched; i--;) {
		c = &r->args.child_store[i];
		if (vgpu_gpu_kernel_finished(c))
			continue;
		if (c->error)
			vgpu_gpu_stop(g, c, VGPU_KS_FAILED, c->error);
		else
			vgpu_gpu_stop(g, c, VGPU_KS_CANCELLED, -ECANCELED);
	}
	if (r->error)
		vgpu_gpu_stop(g, r, VGPU_KS_FAILED, r->error);
	else
		vgpu_gpu_stop(g, r, VGPU_KS_CANCELLED, 0);
}

/**
 * vgpu_gpu_cancel() - cancel a kernel (F53) and its children (F15)
 * @g: the device, between two epochs
 * @k: a submitted, unfinished kernel
 *
 * Its undispatched blocks are dropped, its resident and switched-out
 * blocks removed at once with their resources, and so are those of every
 * unfinished child of its tree; nothing else is touched.  The descriptor,
 * its templates and its child storage are free when this returns.
 *
 * Return: 0, or -EINVAL if it already finished or is a child kernel (a
 * child goes with its tree).
 */
int vgpu_gpu_cancel(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	if (vgpu_gpu_kernel_finished(k) || k->state == VGPU_KS_NEW ||
	    k->child.parent)
		return -EINVAL;
	vgpu_gpu_stop_tree(g, k);
	return 0;
}

/**
 * vgpu_gpu_requeue() - requeue a kernel that has work again
 * @g: the device
 * @k: the kernel; a draining one goes back to the head of its channel
 */
void vgpu_gpu_requeue(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	if (k->state != VGPU_KS_DRAINING)
		return;
	k->state = VGPU_KS_QUEUED;
	vgpu_gpu_slot_release(g, k);
	/* a child enters the task table directly (F15) */
	list_add(&k->chan_node, k->child.parent ? &g->direct :
		 &g->chan[k->args.channel].fifo);
}

/* Has @k nothing left: no unit, suspended block or child (F15)? */
static bool vgpu_gpu_all_done(const struct vgpu_gpu_kernel *k)
{
	return k->done_units == k->units && !k->inflight && !k->nsaved &&
	       !k->child.nsusp && !k->child.children && !vgpu_gpu_q_open(k) &&
	       !vgpu_gpu_kernel_finished(k);
}

/**
 * vgpu_gpu_complete() - complete a kernel if nothing of it is left
 * @g: the device
 * @k: a kernel that may have completed
 *
 * @k may have completed: every unit done, nothing suspended, no child
 * left.  A parent completes after its children (F15), so its own
 * completion may follow, up the tree.
 */
void vgpu_gpu_complete(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	struct vgpu_gpu_kernel *p;

	while (k && vgpu_gpu_all_done(k)) {
		p = k->child.parent;
		vgpu_gpu_emit(g, k->t.end, VGPU_GEV_KERNEL_DONE, k, ~0U, ~0U,
			      ~0U, k->units, 0);
		vgpu_gpu_kernel_retire(g, k, VGPU_KS_DONE);
		if (k->t.end > k->t.deadline_at) {
			k->t.deadline_missed = true;
			g->stats.deadline_misses++;
		}
		if (g->policy->kernel_done)
			g->policy->kernel_done(g, k);
		if (p)
			vgpu_gpu_child_done(g, k);
		else
			vgpu_gpu_host_done(g, k);
		k = p;
	}
}

/* The kernel a channel presents: its oldest unfinished, arrived one. */
static struct vgpu_gpu_kernel *vgpu_gpu_chan_head(struct vgpu_gpu *g, u32 ch)
{
	struct vgpu_gpu_kernel *k;

	k = list_first_entry_or_null(&g->chan[ch].fifo,
				     struct vgpu_gpu_kernel, chan_node);
	if (!k || !vgpu_gpu_arrived(g, k))
		return NULL;
	return k;
}

static void vgpu_gpu_admit(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k,
			   u32 s)
{
	vgpu_gpu_slot_set(g, s, k);
	vgpu_gpu_dealloc_set(g, s, false);
	k->slot = s;
	k->state = VGPU_KS_ACTIVE;
	k->t.admit = g->admit_seq++;
	k->t.entered = g->now;
	vgpu_gpu_emit(g, g->now, VGPU_GEV_ADMIT, k, ~0U, ~0U, ~0U, s, 0);
	if (g->policy->arrived)
		g->policy->arrived(g, k);
}

/*
 * Waiting kernel @a before @b: the policy's order (@op, a constant of the
 * caller: the loops below are made once with the indirect call and once
 * without, so that the seeds' order costs no reload of the device's
 * fields after a call that never happens).
 */
static __always_inline bool vgpu_gpu_admit_first(struct vgpu_gpu *g, bool op,
						 struct vgpu_gpu_kernel *a,
						 struct vgpu_gpu_kernel *b)
{
	if (!op)
		return vgpu_gpu_older(a, b);
	if (!g->policy->admit_before(g, a, b))
		return false;
	/* a comparator for which a < b and b < a is not used (policy_watch.c) */
	return likely(!g->watch.order_checks) ||
	       vgpu_policy_order_check(g, VGPU_POLICY_OP_ADMIT_BEFORE, a, b);
}

/* The first waiting kernel in admission order, or NULL (F13, F15). */
static __always_inline struct vgpu_gpu_kernel *
vgpu_gpu_next_waiting(struct vgpu_gpu *g, bool op)
{
	struct vgpu_gpu_kernel *k, *w = NULL;
	u32 i, word;
	u64 m;

	/* only channels that exist hold kernels, in channel order */
	for (word = 0; word < DIV_ROUND_UP(g->p.max_channels, 64); word++) {
		for (m = g->chan_used[word]; m; m &= m - 1) {
			i = word * 64 + __ffs64(m);
			k = vgpu_gpu_chan_head(g, i);
			if (k && k->slot == ~0U &&
			    !vgpu_gpu_throttle_holds(g, k) &&
			    (!w || vgpu_gpu_admit_first(g, op, k, w)))
				w = k;
		}
	}
	/* children wait outside the channels, all of them (F15) */
	list_for_each_entry(k, &g->direct, chan_node)
		if (k->slot == ~0U && !vgpu_gpu_throttle_holds(g, k) &&
		    (!w || vgpu_gpu_admit_first(g, op, k, w)))
			w = k;
	return w;
}

/*
 * Eviction order (F13): the lowest priority, then the youngest in the
 * table: the time of entry into the table is a task's age there (seed 002
 * step 432), not its arrival.
 */
static __always_inline bool vgpu_gpu_evict_before(const struct vgpu_gpu_kernel *a,
						  const struct vgpu_gpu_kernel *b)
{
	if (a->eff_prio != b->eff_prio)
		return a->eff_prio > b->eff_prio;
	return a->t.admit > b->t.admit;
}

/*
 * The first free slot in *@free_slot (or ~0; a slot with a deallocation
 * request is not free yet), and the occupant to evict first, not being
 * deallocated, with its slot in *@low_slot: the policy's admission order
 * last, or by default vgpu_gpu_evict_before().
 */
static __always_inline struct vgpu_gpu_kernel *
vgpu_gpu_last_admitted(struct vgpu_gpu *g, bool op, u32 *free_slot,
		       u32 *low_slot)
{
	u32 i, w, nw = DIV_ROUND_UP(g->p.task_slots, 64), rest;
	struct vgpu_gpu_kernel *k, *low = NULL;
	u64 m, in;

	*free_slot = ~0U;
	*low_slot = 0;
	for (w = 0; w < nw; w++) {
		/* the slots of this word that exist, without a request */
		rest = g->p.task_slots - w * 64;
		in = (rest >= 64 ? ~0ULL : BIT_ULL(rest) - 1) &
		     ~g->slot_dealloc[w];
		m = in & ~g->slot_used[w];
		if (m && *free_slot == ~0U)
			*free_slot = w * 64 + __ffs64(m);
		/* the occupied ones, in slot order */
		for (m = in & g->slot_used[w]; m; m &= m - 1) {
			i = w * 64 + __ffs64(m);
			k = g->slot[i];
			if (!low || (op ? g->policy->admit_before(g, low, k) :
					  vgpu_gpu_evict_before(k, low))) {
				low = k;
				*low_slot = i;
			}
		}
	}
	return low;
}

/*
 * With a dealloc_latency: have the SMs acknowledged the deallocation
 * request of slot @s by now (dealloc_latency cycles after it)?  If so, the
 * slot is free from this boundary on: event "dealloc".
 */
static bool vgpu_gpu_dealloc_acked(struct vgpu_gpu *g, u32 s)
{
	struct vgpu_event ev = {
		.cycle = g->now, .type = VGPU_GEV_DEALLOC,
		.kernel = g->dealloc_kernel[s], .block = ~0U, .warp = ~0U,
		.sm = ~0U, .arg0 = s, .arg1 = (u32)g->dealloc_req[s],
	};

	if (g->now < g->dealloc_ack[s])
		return false;
	vgpu_gpu_put_event(g, &ev, NULL, true);
	return true;
}

/**
 * vgpu_gpu_table_update() - the task table at this boundary (F13)
 * @g: the device
 *
 * Free the slots whose deallocation request the SMs have acknowledged
 * (without a dealloc_latency, every request made before this boundary:
 * the SMs saw it during the epoch; with one, every request made that many
 * cycles ago or more), admit channel heads, evict if needed.  An eviction
 * is a deallocation request too: the victim stops issuing at once, and
 * its slot is free for the waiting kernel once the SMs acknowledged it
 * (seed 002: a slot is valid until deallocation is requested; step 408: a
 * slot with a request is skipped).  One eviction per boundary.
 */
void vgpu_gpu_table_update(struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *w, *low;
	bool op = g->policy->admit_before;
	u32 i, word, free_slot, low_slot;
	u64 m;

	for (word = 0; word < DIV_ROUND_UP(g->p.task_slots, 64); word++) {
		for (m = g->slot_dealloc[word]; m; m &= m - 1) {
			i = word * 64 + __ffs64(m);
			if (unlikely(g->p.dealloc_latency) &&
			    !vgpu_gpu_dealloc_acked(g, i))
				continue;
			if (g->slot[i]) {
				g->slot[i]->slot = ~0U;
				vgpu_gpu_slot_set(g, i, NULL);
			}
			g->slot_dealloc[word] &= ~BIT_ULL(i % 64);
		}
	}
	for (;;) {
		w = op ? vgpu_gpu_next_waiting(g, true) :
			 vgpu_gpu_next_waiting(g, false);
		if (!w)
			return;
		low = op ? vgpu_gpu_last_admitted(g, true, &free_slot,
						  &low_slot) :
			   vgpu_gpu_last_admitted(g, false, &free_slot,
						  &low_slot);
		if (free_slot != ~0U) {
			vgpu_gpu_admit(g, w, free_slot);
			continue;
		}
		/* displaced for a kernel that matched: wait for a completion */
		if (!low || w->displaced_at == g->done_blocks + 1 ||
		    !vgpu_gpu_may_evict(g, w, low))
			return;
		/* evict: it stops issuing and waits to resume later */
		vgpu_gpu_emit(g, g->now, VGPU_GEV_EVICT, low, ~0U, ~0U, ~0U,
			      low_slot, w->args.id);
		low->slot = ~0U;
		low->state = VGPU_KS_QUEUED;
		vgpu_gpu_dealloc_set(g, low_slot, true);
		vgpu_gpu_slot_set(g, low_slot, NULL);
		g->stats.evictions++;
		return;
	}
}

/* Are the SMs @first..@first+@n-1 free of blocks? */
static bool vgpu_gpu_sms_empty(const struct vgpu_gpu *g, u32 first, u32 n)
{
	u32 i;

	for (i = first; i < first + n; i++)
		if (g->sm[i].sm.used)
			return false;
	return true;
}

/* Give SMs 0..throttle_sms-1 @units of shared memory each (all empty). */
static void vgpu_gpu_throttle_smem(struct vgpu_gpu *g, u32 units)
{
	u32 i;

	for (i = 0; i < g->p.throttle_sms; i++)
		vgpu_sm_res_set_smem(&g->sm[i].sm.res, units);
}

/**
 * vgpu_gpu_throttle_update() - the throttle mode switch (F26)
 * @g: the device, at a boundary after the task table's update
 *
 * Seed 002 steps 412-454 and 413: when a kernel of the table indicates
 * throttle mode and the mode is off, no other kernel is admitted or
 * dispatched until every block on the SMs has ended (step 450); then the
 * mode goes on (452, 454): only throttle kernels run, on the first
 * throttle_sms SMs, and the device's shared memory is pooled among those
 * SMs, an equal part each (size and base per SM; at most what an SM's map
 * holds).  When no unfinished throttle kernel remains, the SMs get their
 * own shared memory back and the mode goes off (413).
 */
void vgpu_gpu_throttle_update(struct vgpu_gpu *g)
{
	u32 units = vgpu_config_smem_units(&g->cfg), share;
	struct vgpu_gpu_kernel *k;
	bool want = false;

	list_for_each_entry(k, &g->kernels, table_node)
		if ((k->args.flags & VGPU_KF_THROTTLE) && vgpu_gpu_arrived(g, k) &&
		    k->state != VGPU_KS_NEW && !vgpu_gpu_kernel_finished(k)) {
			want = true;
			break;
		}
	switch (g->throttle_state) {
	case VGPU_THROTTLE_OFF:
		g->p.throttle = 0;
		if (!want)
			break;
		g->throttle_state = VGPU_THROTTLE_DRAIN;
		fallthrough;
	case VGPU_THROTTLE_DRAIN:
		if (!want) {
			g->throttle_state = VGPU_THROTTLE_OFF;
			break;
		}
		if (!vgpu_gpu_sms_empty(g, 0, g->cfg.num_sms))
			break;
		share = min_t(u32, (u64)units * g->cfg.num_sms /
				   g->p.throttle_sms, VGPU_MAX_SMEM_UNITS);
		vgpu_gpu_throttle_smem(g, share);
		g->throttle_share = share;
		g->p.throttle = 1;
		g->throttle_state = VGPU_THROTTLE_ON;
		break;
	case VGPU_THROTTLE_ON:
		if (want || !vgpu_gpu_sms_empty(g, 0, g->p.throttle_sms))
			break;
		vgpu_gpu_throttle_smem(g, units);
		g->throttle_share = 0;
		g->p.throttle = 0;
		g->throttle_state = VGPU_THROTTLE_OFF;
		break;
	}
}

/**
 * vgpu_gpu_displace() - F20 with a full task table
 * @g: the device, after its dispatch rounds failed
 *
 * Seed 001 (embodiment 1) matches the waiting kernel of every channel;
 * seed 000 offers decisions to the task table only (F13).  They compose
 * here: when the table is full and a channel's waiting head matches an
 * SM, it takes the slot of an occupant that failed to match at this
 * boundary and has nothing on the SMs (the last such in admission order),
 * which goes back to waiting in its channel (an EVICT event).  The
 * occupant may evict again only once some block has completed.
 *
 * Return: true if a kernel was admitted so (run the rounds again).
 */
bool vgpu_gpu_displace(struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *k, *o = NULL, *w = NULL;
	bool op = g->policy->admit_before;
	u32 i, word, s = 0;
	u64 m;

	for (i = 0; i < g->p.task_slots; i++) {
		k = g->slot[i];
		if (!k)
			return false;	/* a free slot: not full */
		if (vgpu_gpu_dealloc_pending(g, i) || k->child.parent ||
		    !(g->failed[i / 64] & BIT_ULL(i % 64)) || k->inflight ||
		    k->nsaved || k->child.nsusp)
			continue;
		if (!o || vgpu_gpu_admit_first(g, op, o, k)) {
			o = k;
			s = i;
		}
	}
	if (!o)
		return false;
	for (word = 0; word < DIV_ROUND_UP(g->p.max_channels, 64); word++) {
		for (m = g->chan_used[word]; m; m &= m - 1) {
			k = vgpu_gpu_chan_head(g, word * 64 + __ffs64(m));
			if (k && k->slot == ~0U &&
			    (!w || vgpu_gpu_admit_first(g, op, k, w)) &&
			    vgpu_gpu_fits_now(g, k))
				w = k;
		}
	}
	if (!w)
		return false;
	vgpu_gpu_emit(g, g->now, VGPU_GEV_EVICT, o, ~0U, ~0U, ~0U, s, w->args.id);
	o->slot = ~0U;
	o->state = VGPU_KS_QUEUED;
	o->displaced_at = g->done_blocks + 1;
	vgpu_gpu_slot_set(g, s, NULL);
	g->stats.evictions++;
	g->failed[s / 64] &= ~BIT_ULL(s % 64);
	vgpu_gpu_admit(g, w, s);
	return true;
}

/*
 * F16: a HEAD kernel that arrives moves ahead of the kernels of its
 * channel that have neither started nor been admitted and are of its
 * priority or lower.
 */
static void vgpu_gpu_head_insert(struct vgpu_gpu *g, struct vgpu_gpu_kernel *k)
{
	struct vgpu_gpu_kernel *o;

	list_for_each_entry(o, &g->chan[k->args.channel].fifo, chan_node) {
		if (o == k)
			return;
		if (o->slot == ~0U && o->t.dispatch == VGPU_GPU_NO_CYCLE &&
		    o->eff_prio >= k->eff_prio) {
			list_move_tail(&k->chan_node, &o->chan_node);
			return;
		}
	}
}

/**
 * vgpu_gpu_arrivals() - kernels arriving at this boundary
 * @g: the device
 *
 * Their events and the busy test, then the arrivals of pushed items (F14).
 */
void vgpu_gpu_arrivals(struct vgpu_gpu *g)
{
	struct vgpu_gpu_kernel *k;
	bool busy;
	u32 i;

	list_for_each_entry(k, &g->kernels, table_node) {
		if (k->seen || k->args.arrival > g->now)
			continue;
		k->seen = true;
		busy = true;
		for (i = 0; i < g->cfg.num_sms && busy; i++)
			if (g->sm[i].sm.top_prio == VGPU_PRIO_NONE ||
			    g->sm[i].sm.top_prio <= k->eff_prio)
				busy = false;
		k->busy_arrival = busy;
		vgpu_gpu_emit(g, k->args.arrival, VGPU_GEV_SUBMIT, k, ~0U, ~0U, ~0U,
			      k->args.prio, k->args.channel);
		if (k->args.flags & VGPU_KF_HEAD)
			vgpu_gpu_head_insert(g, k);
	}
	vgpu_gpu_q_arrivals(g);
}
