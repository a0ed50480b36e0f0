// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_debugfs.c - /sys/kernel/debug/vgpu/<device>/ (F62).
 *
 * Every view is a snapshot: it is formatted into a private buffer while
 * &vgpu_sched.lock is held (the controller holds it for a whole epoch, so
 * the tables are consistent with each other) and copied to the reader after
 * the lock is dropped.  The functional views (fn_warps, fn_block) read the
 * data of functional warps through the core's fn_debug.h the same way.
 * A file holds a reference on its device while open,
 * and debugfs_remove_recursive() at device destruction waits for reads in
 * progress, so a read never sees a freed device.  The fail_* and hang knobs
 * are for tests only (Documentation/debugfs.rst).
 */
#include <linux/debugfs.h>
#include <linux/mm.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "fn_debug.h"
#include "names.h"
#include "vgpu_drv.h"
#include "vgpu_obs.h"

#define VGPU_DBG_MIN_BUF	(16 * 1024)
#define VGPU_DBG_MAX_BUF	(64 * 1024 * 1024)

static struct dentry *vgpu_debugfs_root;

typedef void (*vgpu_dbg_fn)(struct seq_buf *sb, struct vgpu_device *vdev,
			    struct vgpu_gpu *g, u32 arg);

/**
 * struct vgpu_dbg_view - one read-only view
 * @name: file name
 * @fn: prints the snapshot, called under &vgpu_sched.lock
 */
struct vgpu_dbg_view {
	const char *name;
	vgpu_dbg_fn fn;
};

/* seq_buf_puts() and seq_buf_putc() are not exported in 6.1 */
static void vgpu_dbg_puts(struct seq_buf *sb, const char *str)
{
	seq_buf_printf(sb, "%s", str);
}

static void vgpu_dbg_putc(struct seq_buf *sb, char c)
{
	seq_buf_printf(sb, "%c", c);
}

static const char *vgpu_dbg_state(u32 state)
{
	static const char *const names[] = {
		[VGPU_KS_NEW] = "new", [VGPU_KS_QUEUED] = "queued",
		[VGPU_KS_ACTIVE] = "active", [VGPU_KS_DRAINING] = "draining",
		[VGPU_KS_DONE] = "done", [VGPU_KS_CANCELLED] = "cancelled",
		[VGPU_KS_FAILED] = "failed",
	};

	return state < ARRAY_SIZE(names) ? names[state] : "?";
}

/* A cycle, or "-" for VGPU_GPU_NO_CYCLE. */
static void vgpu_dbg_cycle(struct seq_buf *sb, u64 c)
{
	if (c == VGPU_GPU_NO_CYCLE)
		vgpu_dbg_puts(sb, " -");
	else
		seq_buf_printf(sb, " %llu", c);
}

static void vgpu_dbg_config(struct seq_buf *sb, struct vgpu_device *vdev,
			    struct vgpu_gpu *g, u32 arg)
{
	const struct vgpu_config *c = &vdev->cfg;
	struct vgpu_sched *s = &vdev->sched;
	const struct vgpu_gpu_params *p = &s->gpu->p;
	u32 i;

	seq_buf_printf(sb, "name %s\npreset %s\nnum_sms %u\nsubparts %u\n",
		       vdev->name, c->name, c->num_sms, c->subparts);
	seq_buf_printf(sb, "regs_per_subpart %u\nreg_unit %u\n",
		       c->regs_per_subpart, c->reg_unit);
	seq_buf_printf(sb, "warps_per_subpart %u\nmax_warps_per_sm %u\n",
		       c->warps_per_subpart, c->max_warps_per_sm);
	seq_buf_printf(sb, "max_blocks_per_sm %u\nmax_barriers_per_sm %u\n",
		       c->max_blocks_per_sm, c->max_barriers_per_sm);
	seq_buf_printf(sb, "smem_per_sm %u\nsmem_unit %u\nsmem_reserve %u\n",
		       c->smem_per_sm, c->smem_unit, c->smem_reserve);
	seq_buf_printf(sb, "smem_max_per_block %u\nmax_threads_per_block %u\n",
		       c->smem_max_per_block, c->max_threads_per_block);
	seq_buf_printf(sb, "warp_size %u\nnum_prios %u\n", c->warp_size,
		       c->num_prios);
	seq_buf_printf(sb, "sregs_per_subpart %u\nsreg_unit %u\n",
		       c->sregs_per_subpart, c->sreg_unit);
	seq_buf_printf(sb, "policy %s\nsm_choice %s\n", p->policy,
		       p->sm_choice[0] ? p->sm_choice : "-");
	seq_buf_printf(sb, "preempt %s\npack %s\nepoch %u\ng_max %u\n",
		       vgpu_mode_name(VGPU_MODE_PREEMPT, p->preempt),
		       vgpu_mode_name(VGPU_MODE_PACK, p->pack), p->epoch, p->g_max);
	seq_buf_printf(sb, "task_slots %u\nmax_channels %u\n", p->task_slots,
		       p->max_channels);
	vgpu_dbg_puts(sb, "windows");
	for (i = 0; i < p->num_windows; i++)
		seq_buf_printf(sb, " %u", p->window[i]);
	seq_buf_printf(sb, "%s\nswitch_cost %u\nthrottle %u\n",
		       p->num_windows ? "" : " off", p->switch_cost,
		       p->throttle);
	seq_buf_printf(sb, "throttle_sms %u\nthrottle_share %u\n",
		       p->throttle_sms, s->gpu->throttle_share);
	seq_buf_printf(sb, "save_slots %u\nsync_cost %u\n", p->save_slots,
		       p->sync_cost);
	seq_buf_printf(sb, "search %s\nsearch_group %u\nsearch_latency %u\n",
		       vgpu_mode_name(VGPU_MODE_SEARCH, p->search), p->search_group,
		       p->search_latency);
	seq_buf_printf(sb, "combo %u\nres_weight %u,%u,%u,%u\n", p->combo,
		       p->res_weight[0], p->res_weight[1], p->res_weight[2],
		       p->res_weight[3]);
	seq_buf_printf(sb, "clock %s\nfreq_khz %u\nworkers %u\n",
		       vgpu_sched_clock_name(s->opts.clock),
		       s->opts.freq_khz, s->nworkers);
	seq_buf_printf(sb, "default_timeout %llu\nqueued_limit %u\n",
		       READ_ONCE(vdev->limits.default_timeout),
		       vdev->limits.queued);
	seq_buf_printf(sb, "max_arrival %llu\nclock_skipped %llu\n",
		       vdev->limits.max_arrival, g->skipped);
	seq_buf_printf(sb, "default_prio %u\nevent_budget %u\n",
		       vdev->default_prio, vdev->obs.budget);
	seq_buf_printf(sb, "assign_latency %u\ndealloc_latency %u\n",
		       p->assign_latency, p->dealloc_latency);
}

static void vgpu_dbg_kernels(struct seq_buf *sb, struct vgpu_device *vdev,
			     struct vgpu_gpu *g, u32 arg)
{
	struct vgpu_gpu_kernel *k;

	seq_buf_printf(sb, "# %u kernels at cycle %llu\n", g->nkernels, g->now);
	vgpu_dbg_puts(sb, "# id channel prio eff_prio state grid units next ");
	vgpu_dbg_puts(sb, "inflight done saved slot t_submit t_dispatch t_start ");
	vgpu_dbg_puts(sb, "parent depth children suspended head ");
	vgpu_dbg_puts(sb, "queue:waiting/pending/ready/state\n");
	list_for_each_entry(k, &g->kernels, table_node) {
		seq_buf_printf(sb, "%u %u %u %u %s %u %u %u %u %u %u",
			       k->args.id, k->args.channel, k->args.prio, k->eff_prio,
			       vgpu_dbg_state(k->state), k->args.grid, k->units,
			       k->next_unit, k->inflight, k->done_units,
			       k->nsaved);
		if (k->slot == ~0U)
			vgpu_dbg_puts(sb, " -");
		else
			seq_buf_printf(sb, " %u", k->slot);
		vgpu_dbg_cycle(sb, k->t.submit);
		vgpu_dbg_cycle(sb, k->t.dispatch);
		vgpu_dbg_cycle(sb, k->t.start);
		/* F15: who launched it, how deep, what it waits for */
		if (k->child.parent)
			seq_buf_printf(sb, " %u", k->child.parent->args.id);
		else
			vgpu_dbg_puts(sb, " -");
		seq_buf_printf(sb, " %u %u %u %u", k->child.depth, k->child.children,
			       k->child.nsusp, !!(k->args.flags & VGPU_KF_HEAD));
		/* F14: items waiting, on their way, blocks they may launch */
		if (k->args.flags & VGPU_KF_QUEUE)
			seq_buf_printf(sb, " %u/%u/%u/%s\n", k->q.wait,
				       k->q.pending, k->q.ready,
				       k->q.closed ? "closed" :
				       k->q.closing ? "closing" : "open");
		else
			vgpu_dbg_puts(sb, " -\n");
	}
}

static void vgpu_dbg_tasks(struct seq_buf *sb, struct vgpu_device *vdev,
			   struct vgpu_gpu *g, u32 arg)
{
	struct vgpu_gpu_kernel *k;
	u32 i;

	vgpu_dbg_puts(sb, "# slot kernel prio state t_submit dealloc\n");
	for (i = 0; i < g->p.task_slots; i++) {
		k = g->slot[i];
		if (!k) {
			seq_buf_printf(sb, "%u - - free - %u\n", i,
				       vgpu_gpu_dealloc_pending(g, i));
			continue;
		}
		seq_buf_printf(sb, "%u %u %u %s %llu %u\n", i, k->args.id,
			       k->eff_prio, vgpu_dbg_state(k->state),
			       k->t.submit, vgpu_gpu_dealloc_pending(g, i));
	}
}

static void vgpu_dbg_channels(struct seq_buf *sb, struct vgpu_device *vdev,
			      struct vgpu_gpu *g, u32 arg)
{
	const struct vgpu_gpu_channel *c;
	struct vgpu_gpu_kernel *k;
	u32 i;

	vgpu_dbg_puts(sb, "# channel prio selected fifo...\n");
	for (i = 0; i < g->p.max_channels; i++) {
		c = &g->chan[i];
		if (!c->used)
			continue;
		seq_buf_printf(sb, "%u %u 0x%x", i, c->prio, c->selected);
		list_for_each_entry(k, &c->fifo, chan_node)
			seq_buf_printf(sb, " %u", k->args.id);
		vgpu_dbg_putc(sb, '\n');
	}
}

static void vgpu_dbg_windows(struct seq_buf *sb, struct vgpu_device *vdev,
			     struct vgpu_gpu *g, u32 arg)
{
	u32 i, period = 0, w;

	for (i = 0; i < g->p.num_windows; i++)
		period += g->p.window[i];
	seq_buf_printf(sb, "num_windows %u\nlengths", g->p.num_windows);
	for (i = 0; i < g->p.num_windows; i++)
		seq_buf_printf(sb, " %u", g->p.window[i]);
	seq_buf_printf(sb, "\nperiod %u\nnow %llu\n", period, g->now);
	w = vgpu_gpu_window_at(g, g->now);
	if (w == ~0U) {
		vgpu_dbg_puts(sb, "window -\npromoted -\ncounter -\n");
		return;
	}
	/* window s promotes priority s (F22) */
	seq_buf_printf(sb, "window %u\npromoted %u\ncounter %llu\n", w, w,
		       g->now - div_u64(g->now, period) * period);
}

static void vgpu_dbg_sm(struct seq_buf *sb, struct vgpu_device *vdev,
			struct vgpu_gpu *g, u32 arg)
{
	const struct vgpu_sm_res *r;
	const struct vgpu_sm *sm;
	u32 i, j, hist[VGPU_SM_WIN_HIST];

	vgpu_dbg_puts(sb, "# sm top_prio avail power free_warps blocks barriers ");
	vgpu_dbg_puts(sb, "smem_free regs_free/subpart assigned phase ");
	vgpu_dbg_puts(sb, "ready_at ");
	vgpu_dbg_puts(sb, "syncs | power history: ");
	vgpu_dbg_puts(sb, "instructions per window sixteenth, oldest first\n");
	for (i = 0; i < g->cfg.num_sms; i++) {
		sm = &g->sm[i].sm;
		r = vgpu_gpu_sm_res(g, i);
		seq_buf_printf(sb, "%u", i);
		if (sm->top_prio == VGPU_PRIO_NONE)
			vgpu_dbg_puts(sb, " -");
		else
			seq_buf_printf(sb, " %u", sm->top_prio);
		seq_buf_printf(sb, " %llu %llu %u %u/%u %u/%u %u",
			       vgpu_gpu_sm_free(g, i),
			       vgpu_gpu_sm_power(g, i),
			       r->max_warps - r->warps_total, r->blocks_used,
			       r->max_blocks, r->barriers_used, r->max_barriers,
			       vgpu_bmap_weight(r->smem, r->smem_units));
		for (j = 0; j < r->subparts; j++)
			seq_buf_printf(sb, "%c%u", j ? ',' : ' ',
				       vgpu_bmap_weight(r->regs[j], r->reg_units));
		/* F17: the SM table's kernel, state, when the SM is ready */
		if (g->sm[i].hs.kernel == VGPU_EV_NONE)
			vgpu_dbg_puts(sb, " -");
		else
			seq_buf_printf(sb, " %u", g->sm[i].hs.kernel);
		seq_buf_printf(sb, " %s %llu %llu |",
			       vgpu_sm_phase_name(vgpu_gpu_sm_state(g, i)),
			       g->sm[i].hs.ready_at, sm->stats.syncs);
		vgpu_sm_window_hist(sm, hist);
		for (j = 0; j < VGPU_SM_WIN_HIST; j++)
			seq_buf_printf(sb, " %u", hist[j]);
		vgpu_dbg_putc(sb, '\n');
	}
}

static void vgpu_dbg_blocks(struct seq_buf *sb, struct vgpu_device *vdev,
			    struct vgpu_gpu *g, u32 smi)
{
	const struct vgpu_sm_block *b;
	const struct vgpu_sm *sm = &g->sm[smi].sm;
	u64 m;
	u32 s, w;

	seq_buf_printf(sb, "# sm %u at cycle %llu\n", smi, sm->now);
	vgpu_dbg_puts(sb, "# slot kernel block prio mode warps unstarted running ");
	vgpu_dbg_puts(sb, "finished smem_start items ready_at | ");
	vgpu_dbg_puts(sb, "subpart:reg_start per warp\n");
	for (m = sm->used; m; m &= m - 1) {
		s = __ffs64(m);
		b = &sm->block[s];
		seq_buf_printf(sb, "%u %u %u %u %s %u %u %u %u %u %u %llu |",
			       s, b->kernel->id, b->block_idx, b->prio,
			       b->mode == VGPU_PLACE_WARP ? "warp" : "block",
			       b->n_warps, b->n_warps - b->next_start,
			       b->next_start - b->n_done, b->n_done,
			       b->place.smem_start, b->items, b->ready_at);
		for (w = 0; w < b->n_warps; w++) {
			const struct vgpu_warp_place *wp = &b->place.warp[w];

			if (wp->held)
				seq_buf_printf(sb, " %u:%u", wp->subpart,
					       wp->reg_start);
			else
				vgpu_dbg_puts(sb, " -");
		}
		vgpu_dbg_putc(sb, '\n');
	}
}

static void vgpu_dbg_map(struct seq_buf *sb, const u64 *map, u32 nbits)
{
	u32 i;

	for (i = 0; i < nbits; i++)
		vgpu_dbg_putc(sb, vgpu_bmap_test(map, i) ? '.' : '#');
	seq_buf_printf(sb, " free %u run %u\n", vgpu_bmap_weight(map, nbits),
		       vgpu_bmap_run_exact(map, nbits));
}

static void vgpu_dbg_bitmaps(struct seq_buf *sb, struct vgpu_device *vdev,
			     struct vgpu_gpu *g, u32 arg)
{
	const struct vgpu_sm_res *r;
	u32 i, j;

	vgpu_dbg_puts(sb, "# '#' used unit, '.' free unit; free units and largest free run\n");
	for (i = 0; i < g->cfg.num_sms; i++) {
		r = vgpu_gpu_sm_res(g, i);
		for (j = 0; j < r->subparts; j++) {
			seq_buf_printf(sb, "sm%u regs%u ", i, j);
			vgpu_dbg_map(sb, r->regs[j], r->reg_units);
		}
		seq_buf_printf(sb, "sm%u smem ", i);
		vgpu_dbg_map(sb, r->smem, r->smem_units);
	}
}

static void vgpu_dbg_mutexes(struct seq_buf *sb, struct vgpu_device *vdev,
			     struct vgpu_gpu *g, u32 arg)
{
	const struct vgpu_mutex_arb *a;
	const struct vgpu_sm_block *b;
	const struct vgpu_sm *sm;
	u32 i, s, j, owner;
	u64 m;

	vgpu_dbg_puts(sb, "# sm slot kernel block | mutex:owner (- free) | ");
	vgpu_dbg_puts(sb, "fifo warp>mutex@owner\n");
	for (i = 0; i < g->cfg.num_sms; i++) {
		sm = &g->sm[i].sm;
		for (m = sm->used; m; m &= m - 1) {
			s = __ffs64(m);
			b = &sm->block[s];
			a = &b->arb;
			seq_buf_printf(sb, "%u %u %u %u |", i, s, b->kernel->id,
				       b->block_idx);
			for (j = 0; j < VGPU_ISA_MAX_MUTEX; j++) {
				owner = vgpu_mutex_owner(a, j);
				if (owner == VGPU_MUTEX_NOBODY)
					seq_buf_printf(sb, " %u:-", j);
				else
					seq_buf_printf(sb, " %u:%u", j, owner);
			}
			vgpu_dbg_puts(sb, " |");
			for (j = 0; j < a->count; j++) {
				const struct vgpu_mutex_req *q =
					&a->fifo[(a->head + j) % VGPU_MAX_BLOCK_WARPS];

				if (q->owner == VGPU_MUTEX_NOBODY)
					seq_buf_printf(sb, " %u>%u@-", q->warp,
						       q->mutex);
				else
					seq_buf_printf(sb, " %u>%u@%u", q->warp,
						       q->mutex, q->owner);
			}
			vgpu_dbg_putc(sb, '\n');
		}
	}
}

static void vgpu_dbg_stats(struct seq_buf *sb, struct vgpu_device *vdev,
			   struct vgpu_gpu *g, u32 arg)
{
	struct vgpu_sched *s = &vdev->sched;
	const struct vgpu_gpu_stats *gs = &s->gpu->stats;
	struct vgpu_obs *o = &vdev->obs;
	u32 i;

	seq_buf_printf(sb, "now %llu\nsubmitted %llu\ncompleted %llu\n",
		       s->gpu->now, s->stats.submitted, s->stats.completed);
	seq_buf_printf(sb, "cancelled %llu\nhangs %llu\nepochs %llu\nlive %u\n",
		       s->stats.cancelled, s->stats.hangs, s->stats.epochs,
		       s->nr_live);
	seq_buf_printf(sb, "decisions %llu\nblocks %llu\npreemptions %llu\n",
		       gs->decisions, gs->blocks, gs->preemptions);
	seq_buf_printf(sb, "resumes %llu\nsplits %llu\nevictions %llu\n",
		       gs->resumes, gs->splits, gs->evictions);
	seq_buf_printf(sb, "failed_rounds %llu\nevents %llu\n",
		       gs->failed_rounds, gs->events);
	seq_buf_printf(sb, "events_sent %llu\nevents_dropped %llu\n",
		       o->ev_sent, o->ev_dropped);
	seq_buf_printf(sb, "events_lost %llu\n", vgpu_gpu_events_lost(s->gpu));
	seq_buf_printf(sb, "children %llu\nsuspensions %llu\nfailed %llu\n",
		       gs->children, gs->suspensions, s->stats.failed);
	seq_buf_printf(sb, "queue_items %llu\nqueue_blocks %llu\n",
		       gs->queue_items, gs->queue_blocks);
	seq_buf_printf(sb, "queue_partial %llu\nsyncs %llu\n",
		       gs->queue_partial, vgpu_gpu_syncs(s->gpu));
	seq_buf_printf(sb, "push_records %d\npolicy_errors %llu\n",
		       atomic_read(&s->nr_pushes), gs->policy_errors);
	seq_buf_printf(sb, "deadline_misses %llu\nteardown_max %llu\n",
		       gs->deadline_misses, s->stats.teardown_max);
	seq_buf_printf(sb, "faults %llu\nfn_memory %zu\n", gs->faults,
		       READ_ONCE(s->fn_mem) ? vgpu_gpu_fn_bytes(s->gpu) : 0);
	seq_buf_printf(sb, "guard_bytes %u\nguards_broken %llu\n",
		       (u32)VGPU_MEM_GUARD, gs->guards_broken);
	vgpu_dbg_puts(sb, "# sm blocks preempted blocks_done issued warps_done syncs\n");
	for (i = 0; i < vdev->cfg.num_sms; i++) {
		const struct vgpu_sm_stats *ss = &s->gpu->sm[i].sm.stats;

		seq_buf_printf(sb, "sm%u %llu %llu %llu %llu %llu %llu\n", i,
			       o->sm[i].blocks, o->sm[i].preempted,
			       o->sm[i].blocks_done, ss->issued,
			       ss->warps_done, ss->syncs);
	}
	vgpu_dbg_puts(sb, "# prio submitted completed blocks preempted blocks_done\n");
	for (i = 0; i < vdev->cfg.num_prios; i++)
		seq_buf_printf(sb, "prio%u %llu %llu %llu %llu %llu\n", i,
			       o->prio[i].submitted, o->prio[i].completed,
			       o->prio[i].blocks, o->prio[i].preempted,
			       o->prio[i].blocks_done);
}

static void vgpu_dbg_trace_hash(struct seq_buf *sb, struct vgpu_device *vdev,
				struct vgpu_gpu *g, u32 arg)
{
	seq_buf_printf(sb, "0x%016llx\n", vgpu_gpu_trace_hash(g));
}

static const char *vgpu_dbg_warp_state(u32 state)
{
	static const char *const names[] = {
		[VGPU_WARP_FREE] = "free", [VGPU_WARP_READY] = "ready",
		[VGPU_WARP_AT_BARRIER] = "barrier",
		[VGPU_WARP_WAIT_LOCK] = "lock", [VGPU_WARP_SPIN] = "spin",
		[VGPU_WARP_SUSPENDED] = "suspended",
		[VGPU_WARP_DONE] = "done", [VGPU_WARP_WAIT_LAUNCH] = "launch",
		[VGPU_WARP_WAIT_MEM] = "mem", [VGPU_WARP_FAULTED] = "faulted",
	};

	return state < ARRAY_SIZE(names) && names[state] ? names[state] : "?";
}

/* The view of the started, live warp @w of the block in @slot, if any. */
static bool vgpu_dbg_fn_warp(const struct vgpu_sm *sm, u32 slot, u32 w,
			     struct vgpu_fn_warp_view *v)
{
	u32 idx = sm->block[slot].warp[w];

	return idx < sm->pool->size && !vgpu_fn_warp_view(sm, idx, v) &&
	       v->slot == slot;
}

static void vgpu_dbg_fn_preds(struct seq_buf *sb,
			      const struct vgpu_fn_warp_view *v)
{
	u32 p;

	for (p = 0; p < VGPU_ISA_NUM_PREDS; p++)
		seq_buf_printf(sb, " %08x", v->pred[p]);
	vgpu_dbg_putc(sb, '\n');
}

/* One line per started, live functional warp of each SM (seed 004). */
static void vgpu_dbg_fn_warps(struct seq_buf *sb, struct vgpu_device *vdev,
			      struct vgpu_gpu *g, u32 arg)
{
	struct vgpu_fn_warp_view v;
	const struct vgpu_sm *sm;
	u32 i, s, w;
	u64 m;

	if (!g->fn) {
		vgpu_dbg_puts(sb, "no functional memory\n");
		return;
	}
	seq_buf_printf(sb, "# functional warps at cycle %llu\n", g->now);
	vgpu_dbg_puts(sb, "# sm slot kernel block warp state pc live active ");
	vgpu_dbg_puts(sb, "depth | p0 p1 p2 p3 p4 p5 p6 p7\n");
	for (i = 0; i < g->cfg.num_sms; i++) {
		sm = &g->sm[i].sm;
		for (m = sm->used; m; m &= m - 1) {
			s = __ffs64(m);
			for (w = 0; w < sm->block[s].n_warps; w++) {
				if (!vgpu_dbg_fn_warp(sm, s, w, &v))
					continue;
				seq_buf_printf(sb, "%u %u %u %u %u %s %u %08x %08x %u |",
					       i, s, v.kernel, v.block, v.wid,
					       vgpu_dbg_warp_state(v.state),
					       v.pc, v.live, v.active,
					       v.depth);
				vgpu_dbg_fn_preds(sb, &v);
			}
		}
	}
}

/**
 * struct vgpu_dbg_sel - the block an open fn_block file shows
 * @sm: its SM
 * @slot: its slot there
 * @kernel: the id of the kernel the slot held when it was chosen
 * @unit: and that block's index (&vgpu_sm_block.block_idx)
 * @block: its block in the kernel's grid (@unit, or for a unit of a split
 *	kernel, F24, the block it is a warp of)
 * @chosen: a block was chosen
 *
 * Protected by &vgpu_sched.lock: written and read under it only.
 */
struct vgpu_dbg_sel {
	u32 sm;
	u32 slot;
	u32 kernel;
	u32 unit;
	u32 block;
	bool chosen;
};

/* The block of @sel if it is still in its slot, else NULL. */
static const struct vgpu_sm_block *
vgpu_dbg_sel_block(struct vgpu_gpu *g, const struct vgpu_dbg_sel *sel)
{
	const struct vgpu_sm *sm = &g->sm[sel->sm].sm;
	const struct vgpu_sm_block *b = &sm->block[sel->slot];
	u32 size;

	if (!vgpu_fn_block_smem_view(sm, sel->slot, &size) ||
	    b->kernel->id != sel->kernel || b->block_idx != sel->unit)
		return NULL;
	return b;
}

/*
 * Registers per lane, one row per register; the predicates; private
 * memory, one row per word.
 */
static void vgpu_dbg_fn_regs(struct seq_buf *sb,
			     const struct vgpu_fn_warp_view *v)
{
	u32 r, l, word;

	seq_buf_printf(sb, "warp %u state %s pc %u live %08x active %08x depth %u\n",
		       v->wid, vgpu_dbg_warp_state(v->state), v->pc, v->live,
		       v->active, v->depth);
	for (r = 0; r < v->nregs; r++) {
		seq_buf_printf(sb, "r%u", r);
		for (l = 0; l < VGPU_ISA_LANES; l++)
			seq_buf_printf(sb, " %08x",
				       v->regs[r * VGPU_ISA_LANES + l]);
		vgpu_dbg_putc(sb, '\n');
	}
	vgpu_dbg_puts(sb, "preds");
	vgpu_dbg_fn_preds(sb, v);
	for (r = 0; r + 4 <= v->priv_bytes; r += 4) {
		seq_buf_printf(sb, "priv+%u", r);
		for (l = 0; l < VGPU_ISA_LANES; l++) {
			memcpy(&word, v->priv + (size_t)l * v->priv_bytes + r,
			       sizeof(word));
			seq_buf_printf(sb, " %08x", word);
		}
		vgpu_dbg_putc(sb, '\n');
	}
}

/* The chosen block's warps and shared memory (fn_block). */
static void vgpu_dbg_fn_block(struct seq_buf *sb, struct vgpu_gpu *g,
			      const struct vgpu_dbg_sel *sel)
{
	const struct vgpu_sm_block *b;
	struct vgpu_fn_warp_view v;
	const struct vgpu_sm *sm;
	u32 size, w, off, word;
	const u8 *smem;

	if (!g->fn) {
		vgpu_dbg_puts(sb, "no functional memory\n");
		return;
	}
	if (!sel->chosen) {
		vgpu_dbg_puts(sb, "# no block chosen: write \"SM SLOT\"\n");
		return;
	}
	b = vgpu_dbg_sel_block(g, sel);
	if (!b) {
		seq_buf_printf(sb, "sm %u slot %u: kernel %u block %u is gone\n",
			       sel->sm, sel->slot, sel->kernel, sel->block);
		return;
	}
	sm = &g->sm[sel->sm].sm;
	smem = vgpu_fn_block_smem_view(sm, sel->slot, &size);
	seq_buf_printf(sb, "# sm %u slot %u kernel %u block %u warps %u smem %u at cycle %llu\n",
		       sel->sm, sel->slot, sel->kernel, sel->block, b->n_warps,
		       size, g->now);
	for (w = 0; w < b->n_warps; w++) {
		if (vgpu_dbg_fn_warp(sm, sel->slot, w, &v))
			vgpu_dbg_fn_regs(sb, &v);
		else
			seq_buf_printf(sb, "warp %u not started or exited\n",
				       w);
	}
	seq_buf_printf(sb, "smem %u\n", size);
	for (off = 0; off + 4 <= size; off += 4) {
		if (!(off % 32))
			seq_buf_printf(sb, "%s%06x:", off ? "\n" : "", off);
		memcpy(&word, smem + off, sizeof(word));
		seq_buf_printf(sb, " %08x", word);
	}
	if (size)
		vgpu_dbg_putc(sb, '\n');
}

/*
 * The policy as the watchdog sees it (driver/core/policy_watch.c): the
 * one in use and whether it replaced an ejected one, the last ejection,
 * the yields and the refused answers per op.
 */
static void vgpu_dbg_policy(struct seq_buf *sb, struct vgpu_device *vdev,
			    struct vgpu_gpu *g, u32 arg)
{
	const struct vgpu_policy_stats *ps = &g->pstats;
	bool op = ps->exit_op < VGPU_POLICY_NUM_OPS;
	u32 i;

	seq_buf_printf(sb, "name %s\nstate %s\n", g->policy->name,
		       ps->ejected ? "ejected" : "active");
	seq_buf_printf(sb, "ejections %llu\nexit_policy %s\nexit_reason %s\n",
		       ps->ejections, ps->ejections ? ps->exit_name : "-",
		       vgpu_policy_exit_name(ps->exit_reason));
	seq_buf_printf(sb, "exit_op %s\nexit_cycle %llu\n",
		       op ? vgpu_policy_op_name(ps->exit_op) : "-",
		       ps->exit_at);
	seq_buf_printf(sb, "yields %llu\nyields_refused %llu\npreemptions %llu\n",
		       ps->yields, ps->yields_refused, ps->preemptions);
	for (i = 0; i < VGPU_POLICY_NUM_OPS; i++)
		seq_buf_printf(sb, "errors_%s %llu\n", vgpu_policy_op_name(i),
			       ps->errors[i]);
}

/* The views of a device's directory, then blocks/sm<N>'s. */
static const struct vgpu_dbg_view vgpu_dbg_views[VGPU_OBS_NVIEWS + 1] = {
	{ "config", vgpu_dbg_config },
	{ "kernels", vgpu_dbg_kernels },
	{ "tasks", vgpu_dbg_tasks },
	{ "channels", vgpu_dbg_channels },
	{ "windows", vgpu_dbg_windows },
	{ "sm", vgpu_dbg_sm },
	{ "bitmaps", vgpu_dbg_bitmaps },
	{ "mutexes", vgpu_dbg_mutexes },
	{ "stats", vgpu_dbg_stats },
	{ "trace_hash", vgpu_dbg_trace_hash },
	{ "policy", vgpu_dbg_policy },
	[VGPU_OBS_NVIEWS] = { "blocks", vgpu_dbg_blocks },
};

/**
 * struct vgpu_dbg_open - state of one open view
 * @vdev: the device, referenced
 * @fn: the view, or NULL for fn_block
 * @arg: the view's argument (SM index of blocks/sm<N>)
 * @sel: the block fn_block shows
 */
struct vgpu_dbg_open {
	struct vgpu_device *vdev;
	vgpu_dbg_fn fn;
	u32 arg;
	struct vgpu_dbg_sel sel;
};

static int vgpu_dbg_show(struct seq_file *m, void *unused)
{
	struct vgpu_dbg_open *d = m->private;
	struct vgpu_sched *s = &d->vdev->sched;
	size_t size = VGPU_DBG_MIN_BUF;
	struct seq_buf sb;
	char *buf;

	for (;;) {
		buf = kvmalloc(size, GFP_KERNEL);
		if (!buf)
			return -ENOMEM;
		seq_buf_init(&sb, buf, size);
		mutex_lock(&s->lock);
		if (d->fn)
			d->fn(&sb, d->vdev, s->gpu, d->arg);
		else
			vgpu_dbg_fn_block(&sb, s->gpu, &d->sel);
		mutex_unlock(&s->lock);
		if (!seq_buf_has_overflowed(&sb))
			break;
		kvfree(buf);
		if (size >= VGPU_DBG_MAX_BUF)
			return -EFBIG;
		size *= 2;
	}
	seq_write(m, buf, seq_buf_used(&sb));
	kvfree(buf);
	return 0;
}

static int vgpu_dbg_open_view(struct file *file, struct vgpu_device *vdev,
			      vgpu_dbg_fn fn, u32 arg)
{
	struct vgpu_dbg_open *d;
	int ret;

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->vdev = vdev;
	d->fn = fn;
	d->arg = arg;
	ret = single_open(file, vgpu_dbg_show, d);
	if (ret) {
		kfree(d);
		return ret;
	}
	/* debugfs holds off removal during open: the device is alive */
	vgpu_device_get(d->vdev);
	return 0;
}

static int vgpu_dbg_open(struct inode *inode, struct file *file)
{
	struct vgpu_obs_ref *ref = inode->i_private;

	return vgpu_dbg_open_view(file, ref->vdev, vgpu_dbg_views[ref->view].fn,
				  ref->arg);
}

static int vgpu_dbg_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;
	struct vgpu_dbg_open *d = m->private;

	vgpu_device_put(d->vdev);
	kfree(d);
	return single_release(inode, file);
}

static const struct file_operations vgpu_dbg_view_fops = {
	.owner		= THIS_MODULE,
	.open		= vgpu_dbg_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= vgpu_dbg_release,
};

/* fn_warps: a view whose file's private data is the device. */
static int vgpu_dbg_fn_warps_open(struct inode *inode, struct file *file)
{
	return vgpu_dbg_open_view(file, inode->i_private, vgpu_dbg_fn_warps, 0);
}

static const struct file_operations vgpu_dbg_fn_warps_fops = {
	.owner		= THIS_MODULE,
	.open		= vgpu_dbg_fn_warps_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= vgpu_dbg_release,
};

/* fn_block: the view of the block this open file chose. */
static int vgpu_dbg_fn_block_open(struct inode *inode, struct file *file)
{
	return vgpu_dbg_open_view(file, inode->i_private, NULL, 0);
}

/*
 * "SM SLOT" chooses the functional block in that slot of that SM for this
 * open file: -EINVAL for anything else or a position the device does not
 * have, -ENOENT when the slot holds no functional block.
 */
static ssize_t vgpu_dbg_fn_block_write(struct file *file,
				       const char __user *ubuf, size_t count,
				       loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	struct vgpu_dbg_open *d = m->private;
	struct vgpu_sched *s = &d->vdev->sched;
	const struct vgpu_sm_block *b;
	struct vgpu_dbg_sel sel = { };
	u32 size;
	char buf[32], *p, *tok;

	if (!count || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	p = strim(buf);
	tok = strsep(&p, " \t");
	if (!p || kstrtou32(tok, 10, &sel.sm) ||
	    kstrtou32(skip_spaces(p), 10, &sel.slot) ||
	    sel.sm >= d->vdev->cfg.num_sms ||
	    sel.slot >= d->vdev->cfg.max_blocks_per_sm)
		return -EINVAL;
	mutex_lock(&s->lock);
	if (!s->gpu->fn ||
	    !vgpu_fn_block_smem_view(&s->gpu->sm[sel.sm].sm, sel.slot,
				     &size)) {
		mutex_unlock(&s->lock);
		return -ENOENT;
	}
	b = &s->gpu->sm[sel.sm].sm.block[sel.slot];
	sel.kernel = b->kernel->id;
	sel.unit = b->block_idx;
	/* a unit's index is block * warps + warp (struct vgpu_kernel_desc) */
	sel.block = b->kernel->orig ?
		    b->block_idx / b->kernel->orig->shape.warps : b->block_idx;
	sel.chosen = true;
	d->sel = sel;
	mutex_unlock(&s->lock);
	return count;
}

static const struct file_operations vgpu_dbg_fn_block_fops = {
	.owner		= THIS_MODULE,
	.open		= vgpu_dbg_fn_block_open,
	.read		= seq_read,
	.write		= vgpu_dbg_fn_block_write,
	.llseek		= seq_lseek,
	.release	= vgpu_dbg_release,
};

/* The hang knob: 1 holds the controller, 0 lets it go on. */
static ssize_t vgpu_dbg_hang_read(struct file *file, char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct vgpu_device *vdev = file->private_data;
	char buf[3];

	buf[0] = READ_ONCE(vdev->obs.hang) ? '1' : '0';
	buf[1] = '\n';
	buf[2] = '\0';
	return simple_read_from_buffer(ubuf, count, ppos, buf, 2);
}

static ssize_t vgpu_dbg_hang_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	struct vgpu_device *vdev = file->private_data;
	bool val;
	int ret;

	ret = kstrtobool_from_user(ubuf, count, &val);
	if (ret)
		return ret;
	WRITE_ONCE(vdev->obs.hang, val);
	if (!val)
		wake_up(&vdev->sched.ctl_wq);
	return count;
}

static const struct file_operations vgpu_dbg_hang_fops = {
	.owner		= THIS_MODULE,
	.open		= simple_open,
	.read		= vgpu_dbg_hang_read,
	.write		= vgpu_dbg_hang_write,
	.llseek		= default_llseek,
};

/**
 * vgpu_debugfs_device_add() - create /sys/kernel/debug/vgpu/<name>/
 * @vdev: the new device
 */
void vgpu_debugfs_device_add(struct vgpu_device *vdev)
{
	struct vgpu_obs *o = &vdev->obs;
	struct dentry *dir, *blocks;
	char name[16];
	u32 i;

	dir = debugfs_create_dir(vdev->name, vgpu_debugfs_root);
	if (IS_ERR(dir))
		return;
	o->dir = dir;
	for (i = 0; i < VGPU_OBS_NVIEWS; i++) {
		o->views[i].vdev = vdev;
		o->views[i].view = i;
		debugfs_create_file(vgpu_dbg_views[i].name, 0400, dir,
				    &o->views[i], &vgpu_dbg_view_fops);
	}
	blocks = debugfs_create_dir("blocks", dir);
	for (i = 0; i < vdev->cfg.num_sms; i++) {
		o->sm_refs[i].vdev = vdev;
		o->sm_refs[i].view = VGPU_OBS_NVIEWS;
		o->sm_refs[i].arg = i;
		snprintf(name, sizeof(name), "sm%u", i);
		debugfs_create_file(name, 0400, blocks, &o->sm_refs[i],
				    &vgpu_dbg_view_fops);
	}
	debugfs_create_file("fn_warps", 0400, dir, vdev, &vgpu_dbg_fn_warps_fops);
	debugfs_create_file("fn_block", 0600, dir, vdev, &vgpu_dbg_fn_block_fops);
	debugfs_create_atomic_t("fail_alloc", 0600, dir, &o->fail_alloc);
	debugfs_create_atomic_t("fail_submit", 0600, dir, &o->fail_submit);
	debugfs_create_file("hang", 0600, dir, vdev, &vgpu_dbg_hang_fops);
}

/**
 * vgpu_debugfs_device_remove() - remove a device's debugfs directory
 * @vdev: the device
 *
 * Waits for reads and writes in progress; later ones on files still open
 * fail with -EIO.  Idempotent.
 */
void vgpu_debugfs_device_remove(struct vgpu_device *vdev)
{
	debugfs_remove_recursive(vdev->obs.dir);
	vdev->obs.dir = NULL;
}

/**
 * vgpu_debugfs_init() - create /sys/kernel/debug/vgpu
 *
 * Return: 0 (debugfs failures are not errors).
 */
int vgpu_debugfs_init(void)
{
	vgpu_debugfs_root = debugfs_create_dir("vgpu", NULL);
	return 0;
}

/**
 * vgpu_debugfs_exit() - remove /sys/kernel/debug/vgpu
 */
void vgpu_debugfs_exit(void)
{
	debugfs_remove_recursive(vgpu_debugfs_root);
	vgpu_debugfs_root = NULL;
}
