// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_sched.c - the epochs the controller and worker threads run to drive
 * the core's global controller (F50-F53), and what SUBMIT, WAIT and
 * the objects' ioctls ask of it; see the DOC block in vgpu_sched.h.  The
 * threads themselves, and the scheduler's creation and teardown, are in
 * vgpu_sched_thread.c; the registry of policies it chooses from is
 * vgpu_policy.c.
 */
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "vgpu_compat.h"
#include "vgpu_drv.h"
#include "vgpu_sched.h"

/**
 * vgpu_sched_policy_set_locked() - switch a live device's policy (F27)
 * @s: the scheduler, locked
 * @name: policy name
 *
 * Under &vgpu_sched.lock the device is between two epochs: the new
 * policy makes the decisions of the next boundary on, nothing queued or
 * running is touched (vgpu_policy_use()).
 *
 * Return: 0, -ENOENT (not registered, or its module is going away), or
 * the error of the policy's init (the device kept its policy).
 */
int vgpu_sched_policy_set_locked(struct vgpu_sched *s, const char *name)
{
	lockdep_assert_held(&s->lock);
	return vgpu_policy_use(s->gpu, name);
}

/**
 * vgpu_sched_opts_default() - default scheduling options of a device
 * @o: options to fill
 * @cfg: the device configuration
 */
void vgpu_sched_opts_default(struct vgpu_sched_opts *o,
			     const struct vgpu_config *cfg)
{
	memset(o, 0, sizeof(*o));
	vgpu_gpu_params_default(&o->params, cfg);
	o->workers = 0;
	o->clock = VGPU_CLOCK_FREE;
	o->freq_khz = 1000000;	/* 1 GHz */
}

static const char *const vgpu_sched_clock_names[] = {
	[VGPU_CLOCK_FREE] = "free",
	[VGPU_CLOCK_PACED] = "paced",
};

/**
 * vgpu_sched_clock_name() - name of a clock mode
 * @clock: VGPU_CLOCK_*
 *
 * Return: "free", "paced", or "?" for another value (the convention of the
 * core's names.h).
 */
const char *vgpu_sched_clock_name(u32 clock)
{
	return clock < ARRAY_SIZE(vgpu_sched_clock_names) ?
	       vgpu_sched_clock_names[clock] : "?";
}

/**
 * vgpu_sched_clock_parse() - clock mode of a name
 * @name: "free" or "paced"
 *
 * Return: VGPU_CLOCK_*, or -EINVAL for another name.
 */
int vgpu_sched_clock_parse(const char *name)
{
	int i = match_string(vgpu_sched_clock_names,
			     ARRAY_SIZE(vgpu_sched_clock_names), name);

	return i < 0 ? -EINVAL : i;
}

/* Anything for the controller to do?  Called under s->lock. */
static bool vgpu_sched_busy_locked(struct vgpu_sched *s)
{
	struct vgpu_gpu *g = s->gpu;
	u32 i;

	lockdep_assert_held(&s->lock);
	/* only open queue kernels with nothing waiting: sleep (F14) */
	if (vgpu_gpu_idle(g) || vgpu_gpu_quiescent(g))
		return false;
	if (!g->gated)
		return true;
	/* gated: only what is already on the SMs keeps the clock running */
	for (i = 0; i < g->cfg.num_sms; i++)
		if (!vgpu_gpu_sm_empty(g, i))
			return true;
	return false;
}

/*
 * Recompute @s->work and wake the controller when work appeared, unless
 * @helper: a waiter running the epoch wakes it when it stops helping
 * (vgpu_sched_help_end()).
 */
static void vgpu_sched_kick_locked(struct vgpu_sched *s, bool helper)
{
	bool was = s->work;

	s->work = vgpu_sched_busy_locked(s);
	if (s->work && !was && !helper)
		wake_up(&s->ctl_wq);
}

/*
 * Wall time SUBMIT lets the controller sleep on (free-running clock): a
 * loop of SUBMIT and WAIT arms the timer about once per millisecond, not
 * once per kernel (under emulation a timer costs as much as a short
 * kernel); a kernel nobody waits for starts at most that much later.
 */
#define VGPU_SCHED_KICK_DELAY_NS	(1000 * NSEC_PER_USEC)

/* Anything queued or resident?  Lockless: decides wake-ups only. */
static bool vgpu_sched_has_work(struct vgpu_sched *s)
{
	return READ_ONCE(s->work) || !list_empty(&s->incoming) ||
	       !list_empty(&s->incoming_push);
}

/**
 * vgpu_sched_kick_fn() - the deferred wake-up of vgpu_sched_kick_soon()
 * @t: &vgpu_sched.kick_timer, set up by vgpu_sched_init()
 *
 * Runs in softirq context.
 *
 * Return: HRTIMER_NORESTART.
 */
enum hrtimer_restart vgpu_sched_kick_fn(struct hrtimer *t)
{
	struct vgpu_sched *s = container_of(t, struct vgpu_sched, kick_timer);

	/* pairs with the barriers in vgpu_sched_kick_soon() and help_end */
	smp_mb();
	/* a helping waiter wakes the controller when it stops */
	if (!atomic_read(&s->helpers) && vgpu_sched_has_work(s))
		wake_up(&s->ctl_wq);
	return HRTIMER_NORESTART;
}

/*
 * SUBMIT queued kernels: with the free-running clock let a waiter run
 * them (see the DOC block in vgpu_sched.h); wake the controller later if
 * none does.  Store-buffer pairs, each with a full barrier on both sides:
 * our queueing against the controller's @s->work = false before it
 * sleeps (it then rereads @s->incoming), and against the timer's dequeue
 * before its callback reads @s->incoming.
 */
static void vgpu_sched_kick_soon(struct vgpu_sched *s)
{
	if (s->opts.clock != VGPU_CLOCK_FREE) {
		wake_up(&s->ctl_wq);
		return;
	}
	/* order our queueing before the reads below: see above */
	smp_mb();
	/* the controller is running, or a helper will wake it */
	if (READ_ONCE(s->work))
		return;
	if (!hrtimer_is_queued(&s->kick_timer))
		hrtimer_start(&s->kick_timer,
			      ns_to_ktime(VGPU_SCHED_KICK_DELAY_NS),
			      HRTIMER_MODE_REL_SOFT);
}

/**
 * vgpu_sched_job_complete() - deliver a job's completion
 * @s: the scheduler, locked
 * @job: a kernel the core has finished with (&vgpu_gpu_host_ops.kernel_done),
 *	or that never reached it (cancelled while queued, refused at the
 *	boundary): done, failed or cancelled, @job->error set
 *
 * The one place a job becomes finished: counts it, publishes
 * &vgpu_job.finished and wakes its waiters.  The job stays allocated while
 * its handle exists.
 */
static void vgpu_sched_job_complete(struct vgpu_sched *s, struct vgpu_job *job)
{
	lockdep_assert_held(&s->lock);
	list_del_init(&job->live_node);
	if (job->linked)
		s->nr_live--;
	atomic_dec(&s->nr_unfinished);
	if (job->k.state == VGPU_KS_DONE) {
		s->stats.completed++;
	} else if (job->k.state == VGPU_KS_FAILED) {
		/* a LAUNCH in its tree went beyond a limit (F15) */
		s->stats.failed++;
		job->error = job->k.error;
	} else {
		s->stats.cancelled++;
	}
	atomic_inc(&job->owner->nr_done);
	/* pairs with vgpu_job_finished(): the state above is visible first */
	smp_store_release(&job->finished, true);
	vgpu_job_fence_signal(job);
	vgpu_job_bos_idle(job);
	wake_up_all(&s->done_wq);
}

static void vgpu_sched_link_pushes_locked(struct vgpu_sched *s);

/* Move what SUBMIT or QUEUE_PUSH queued on @from to @batch. */
static void vgpu_sched_take_locked(struct vgpu_sched *s,
				   struct list_head *from,
				   struct list_head *batch)
{
	lockdep_assert_held(&s->lock);
	spin_lock(&s->incoming_lock);
	list_splice_init(from, batch);
	spin_unlock(&s->incoming_lock);
}

/*
 * Hand the kernels SUBMIT queued to the core, in submission order: their
 * arrival counts from the clock now (the gate holds it still), their ids
 * follow submission order (F51: the same ids as vgpu-sim gives them).
 */
static void vgpu_sched_link_locked(struct vgpu_sched *s)
{
	struct vgpu_gpu *g = s->gpu;
	struct vgpu_job *job, *tmp;
	LIST_HEAD(batch);
	int ret;

	vgpu_sched_take_locked(s, &s->incoming, &batch);
	list_for_each_entry_safe(job, tmp, &batch, live_node) {
		list_del_init(&job->live_node);
		job->k.args.arrival = vgpu_clock_after(g->now, job->k.args.arrival);
		job->k.args.id = s->next_id++;
		/* the core numbers child kernels from there on (F15) */
		if (s->next_id == VGPU_GPU_CHILD_ID0)
			s->next_id = 0;
		/*
		 * SUBMIT made every check of the core that does not depend on
		 * its state (vgpu_gpu_kernel_prepare(): the core does not
		 * make them again), and the state it depends on is ours: the
		 * channel lives while its kernels do, ids are unique.  Should
		 * the core refuse all the same, the kernel finishes cancelled
		 * with the core's error.
		 */
		ret = vgpu_gpu_submit(g, &job->k);
		/* F14: its PUSH target finished or closed since SUBMIT */
		if (ret && job->push_target &&
		    vgpu_gpu_push_target_check(&job->k))
			ret = -EPIPE;
		if (ret) {
			job->k.state = VGPU_KS_CANCELLED;
			job->error = ret;
			vgpu_sched_job_complete(s, job);
			continue;
		}
		job->linked = true;
		list_add_tail(&job->live_node, &s->live);
		s->nr_live++;
		s->stats.submitted++;
		/* the dispatch at this boundary has not seen it yet */
		s->dispatched = false;
	}
	vgpu_sched_link_pushes_locked(s);
}

/*
 * Push record @qp is not needed any more: vgpu_sched_unlock() frees it
 * (and drops the reference on its kernel it may hold) once s->lock is
 * dropped.
 */
static void vgpu_sched_push_free_locked(struct vgpu_sched *s,
					struct vgpu_qpush *qp)
{
	lockdep_assert_held(&s->lock);
	list_add_tail(&qp->node, &s->push_dead);
}

/* The core is done with these push records (F14): free them. */
static void vgpu_sched_push_reap_locked(struct vgpu_sched *s)
{
	struct vgpu_gpu_push *p;

	lockdep_assert_held(&s->lock);
	while ((p = vgpu_gpu_push_reap(s->gpu)))
		vgpu_sched_push_free_locked(s, container_of(p, struct vgpu_qpush,
							    p));
}

/**
 * vgpu_sched_unlock() - drop &vgpu_sched.lock, then free what it retired
 * @s: the scheduler, locked
 *
 * Every path that may cancel a kernel or reap push records unlocks with
 * this: a queue kernel cancelled with 8,192 pushes in flight frees them
 * here, without the lock, so the other users of the device do not wait
 * for it.  The records count against &vgpu_limits.queued until freed.
 */
void vgpu_sched_unlock(struct vgpu_sched *s)
{
	struct vgpu_qpush *qp, *tmp;
	unsigned int n = 0;
	LIST_HEAD(dead);

	lockdep_assert_held(&s->lock);
	list_splice_init(&s->push_dead, &dead);
	mutex_unlock(&s->lock);
	list_for_each_entry_safe(qp, tmp, &dead, node) {
		if (qp->job)
			s->ops->put_job(qp->job);
		kfree(qp);
		atomic_dec(&s->nr_pushes);
		if (!(++n % VGPU_SCHED_BATCH))
			cond_resched();
	}
}

/*
 * Hand the pushes QUEUE_PUSH queued to the core, after the kernels (a push
 * names a kernel submitted before it), in push order (F14).  Their arrival
 * cycle was fixed by the ioctl.
 */
static void vgpu_sched_link_pushes_locked(struct vgpu_sched *s)
{
	struct vgpu_qpush *qp, *tmp;
	struct vgpu_job *job;
	LIST_HEAD(batch);

	vgpu_sched_take_locked(s, &s->incoming_push, &batch);
	list_for_each_entry_safe(qp, tmp, &batch, node) {
		list_del_init(&qp->node);
		job = qp->job;
		job->k.args.q_held -= qp->p.items;
		/*
		 * The ioctl made the core's check (vgpu_gpu_push_check()) and
		 * held the room for the items: only a finished kernel.
		 */
		if (!job->linked || job->finished ||
		    WARN_ON_ONCE(vgpu_gpu_queue_push(s->gpu, &job->k, &qp->p))) {
			vgpu_sched_push_free_locked(s, qp);
			continue;
		}
		/* the core's record lives until its kernel finishes at most */
		qp->job = NULL;
		s->ops->put_job(job);
		/* items arriving now join at this boundary, as in vgpu-sim */
		s->dispatched = false;
	}
}

/* Drop the pushes of @job not yet handed to the core (F14). */
static void vgpu_sched_push_purge_locked(struct vgpu_sched *s,
					 struct vgpu_job *job)
{
	struct vgpu_qpush *qp, *tmp;
	LIST_HEAD(drop);

	if (!job->k.args.q_held && !job->q_closing)
		return;
	spin_lock(&s->incoming_lock);
	list_for_each_entry_safe(qp, tmp, &s->incoming_push, node)
		if (qp->job == job)
			list_move_tail(&qp->node, &drop);
	spin_unlock(&s->incoming_lock);
	list_for_each_entry_safe(qp, tmp, &drop, node) {
		list_del(&qp->node);
		job->k.args.q_held -= qp->p.items;
		vgpu_sched_push_free_locked(s, qp);
	}
}

/**
 * vgpu_sched_push_locked() - queue a QUEUE_PUSH for the core (F14)
 * @s: the scheduler, locked
 * @qp: the push, its arrival cycle set, holding a reference on its kernel
 *
 * Like SUBMIT, the push goes on a queue the controller empties into the
 * core before its next dispatch, after the kernels SUBMIT queued.
 */
void vgpu_sched_push_locked(struct vgpu_sched *s, struct vgpu_qpush *qp)
{
	lockdep_assert_held(&s->lock);
	spin_lock(&s->incoming_lock);
	list_add_tail(&qp->node, &s->incoming_push);
	spin_unlock(&s->incoming_lock);
	wake_up(&s->ctl_wq);
}

/**
 * vgpu_sched_cancel_locked() - cancel a kernel
 * @s: the scheduler, locked
 * @job: the kernel
 * @error: why: -ECANCELED or -ETIMEDOUT
 */
void vgpu_sched_cancel_locked(struct vgpu_sched *s, struct vgpu_job *job,
			      int error)
{
	lockdep_assert_held(&s->lock);
	if (job->finished)
		return;
	vgpu_sched_push_purge_locked(s, job);
	job->error = error;
	if (job->linked) {
		/* the core calls back: vgpu_sched_kernel_done() */
		WARN_ON_ONCE(vgpu_gpu_cancel(s->gpu, &job->k));
		vgpu_sched_push_reap_locked(s);
	} else {
		/* still queued by SUBMIT: it never reaches the core */
		spin_lock(&s->incoming_lock);
		list_del_init(&job->live_node);
		spin_unlock(&s->incoming_lock);
		job->k.state = VGPU_KS_CANCELLED;
		vgpu_sched_job_complete(s, job);
	}
}

/*
 * Cycles of the device clock that were not skipped idle (someone's far
 * arrival): time a dispatched kernel could have run (F53, hang timeouts).
 */
static u64 vgpu_sched_busy_cycles(const struct vgpu_gpu *g)
{
	return g->now - g->skipped;
}

/* When @job, dispatched, hangs: the busy cycle past which it is hung. */
static u64 vgpu_sched_hang_at(const struct vgpu_job *job)
{
	return job->k.t.dispatch - job->k.t.skip_dispatch + job->timeout;
}

/*
 * A hang deadline may have passed (F53): cancel every dispatched kernel
 * past its own, in submission order, and note the earliest deadline left.
 */
static void vgpu_sched_hangs_locked(struct vgpu_sched *s)
{
	u64 busy = vgpu_sched_busy_cycles(s->gpu), at;
	struct vgpu_job *job, *tmp;

	s->hang_next = U64_MAX;
	list_for_each_entry_safe(job, tmp, &s->live, live_node) {
		if (job->k.t.dispatch == VGPU_GPU_NO_CYCLE)
			continue;
		at = vgpu_sched_hang_at(job);
		if (busy <= at) {
			s->hang_next = min(s->hang_next, at);
			continue;
		}
		s->stats.hangs++;
		vgpu_obs_hang(s, job);	/* tracepoint, netlink event */
		vgpu_sched_cancel_locked(s, job, -ETIMEDOUT);
	}
}

/*
 * After a dispatch: push records the core is done with, the policy's
 * refused answers, and hangs (F53) once the earliest deadline passed.
 * Completions came back through vgpu_sched_kernel_done().  Under s->lock.
 */
static void vgpu_sched_reap_locked(struct vgpu_sched *s)
{
	vgpu_obs_policy_errors(s);
	vgpu_sched_push_reap_locked(s);
	if (vgpu_sched_busy_cycles(s->gpu) > s->hang_next)
		vgpu_sched_hangs_locked(s);
}

/*
 * &vgpu_gpu_host_ops.kernel_done: the core finished @k, a job's (the core
 * makes this call for submitted kernels only), in vgpu_gpu_dispatch() or
 * vgpu_gpu_cancel(), under s->lock.  The job outlives that call: its
 * handle goes only after a QUERY saw it finished under s->lock, or with
 * its file, which cancels under s->lock first.
 */
static void vgpu_sched_kernel_done(void *host, struct vgpu_gpu_kernel *k)
{
	vgpu_sched_job_complete(host, container_of(k, struct vgpu_job, k));
}

/*
 * &vgpu_gpu_host_ops.event, under s->lock: to the event sink with the
 * job the event is about (none for a child kernel, F15); a dispatch may
 * bring the next hang deadline closer.
 */
static void vgpu_sched_event(void *host, const struct vgpu_event *ev,
			     const struct vgpu_gpu_kernel *k)
{
	const struct vgpu_job *job = NULL;
	struct vgpu_sched *s = host;

	lockdep_assert_held(&s->lock);
	if (k && !k->child.parent)
		job = container_of(k, struct vgpu_job, k);
	if (job && ev->type == VGPU_GEV_DISPATCH)
		s->hang_next = min(s->hang_next, vgpu_sched_hang_at(job));
	vgpu_obs_core_event(s->vdev, ev, job);
}

/*
 * &vgpu_gpu_host_ops.policy_exit, under s->lock: the watchdog ejected
 * @old and the core runs @now.  One log line, one POLICY_EXIT event, and
 * the device's pin moves from @old's module to @now's
 * (vgpu_policy_ejected(); the registry's lock nests inside s->lock).
 * @old's module may go as soon as that returns: its name was copied into
 * &vgpu_gpu.pstats before.
 */
static void vgpu_sched_policy_exit(void *host, struct vgpu_policy_reg *old,
				   struct vgpu_policy_reg *now, u32 reason)
{
	struct vgpu_sched *s = host;
	const struct vgpu_policy_stats *ps = &s->gpu->pstats;

	lockdep_assert_held(&s->lock);
	pr_warn_ratelimited("vgpu%u: policy %s ejected at cycle %llu: %s%s%s; now %s\n",
			    s->vdev->index, ps->exit_name, ps->exit_at,
			    vgpu_policy_exit_name(reason),
			    ps->exit_op < VGPU_POLICY_NUM_OPS ? " of op " : "",
			    ps->exit_op < VGPU_POLICY_NUM_OPS ?
			    vgpu_policy_op_name(ps->exit_op) : "",
			    now->ops->name);
	vgpu_obs_policy_exit(s);
	vgpu_policy_ejected(old, now);
}

/* How the core reports to the scheduler (vgpu_sched_init()). */
const struct vgpu_gpu_host_ops vgpu_sched_host_ops = {
	.kernel_done	= vgpu_sched_kernel_done,
	.event		= vgpu_sched_event,
	.policy_exit	= vgpu_sched_policy_exit,
};

/* The cycle the paced clock (F52) may have reached by now. */
static u64 vgpu_sched_paced_cycle(struct vgpu_sched *s)
{
	u64 ns = ktime_get_ns() - s->paced_start_ns;

	return s->paced_start_cycle +
	       mul_u64_u64_div_u64(ns, s->opts.freq_khz, NSEC_PER_MSEC);
}

static void vgpu_sched_pace(struct vgpu_sched *s, u64 now_cycle)
{
	u64 target;
	ktime_t t;

	/* no overflow however far the clock is */
	target = s->paced_start_ns +
		 mul_u64_u64_div_u64(now_cycle - s->paced_start_cycle,
				     NSEC_PER_MSEC, s->opts.freq_khz);
	if ((s64)(target - ktime_get_ns()) <= 0)
		return;
	t = ns_to_ktime(target);
	set_current_state(TASK_IDLE);
	schedule_hrtimeout(&t, HRTIMER_MODE_ABS);
}

static bool vgpu_worker_idle(struct vgpu_sched *s, struct vgpu_worker *w)
{
	u32 i;

	for (i = w->first_sm; i < w->first_sm + w->nsm; i++)
		if (!vgpu_gpu_sm_empty(s->gpu, i))
			return false;
	return true;
}

/**
 * vgpu_sched_worker_run() - advance the SMs of a worker nobody has claimed
 * @s: the scheduler, in an epoch
 * @w: a worker kicked in this epoch (vgpu_sched_advance())
 *
 * The worker's own thread and the thread running the epoch both call
 * this: each SM of @w's range is claimed once per epoch, by whichever
 * gets to it first, the worker usually.  So an epoch never waits for a
 * worker that has not started: one still waking up, or whose vCPU the
 * host is not running.  Which thread advances an SM never changes the
 * results (F51).
 */
void vgpu_sched_worker_run(struct vgpu_sched *s, struct vgpu_worker *w)
{
	u32 i;

	/*
	 * Fully ordered: a claim that reads the epoch's reset of @w->claim
	 * (a release) sees the dispatch before it; the decrement publishes
	 * the SM's state to the thread waiting for @s->pending.
	 */
	while ((i = atomic_inc_return(&w->claim) - 1) < w->nsm) {
		vgpu_gpu_advance_range(s->gpu, w->first_sm + i, 1);
		if (atomic_dec_and_test(&s->pending) &&
		    wq_has_sleeper(&s->epoch_wq))
			wake_up(&s->epoch_wq);
	}
}

/*
 * Wait for the SMs the workers claimed: a bounded spin first (an SM's
 * epoch is short, and under emulation a cross-CPU wake-up costs tens of
 * microseconds), then sleep.
 */
static void vgpu_sched_advance_wait(struct vgpu_sched *s)
{
	u64 end = local_clock() + VGPU_SCHED_SPIN_NS;

	while (atomic_read(&s->pending) && !need_resched() &&
	       local_clock() < end)
		cpu_relax();
	/* acquire: the workers' SMs are visible to the dispatch */
	wait_event(s->epoch_wq, !atomic_read_acquire(&s->pending));
}

/*
 * Advance every SM by one epoch.  Worker 0 is the thread running the epoch
 * (the controller, or a waiter helping); a worker whose SMs are all empty
 * is not kicked (this thread advances them, which costs next to nothing),
 * and when at most one worker has work this thread runs the whole epoch
 * alone.  Otherwise the kicked workers, spinning or woken, claim their own
 * SMs, and this thread, done with worker 0's, claims what they have not
 * started (vgpu_sched_worker_run()), then waits for the SMs in progress.
 * Which thread advances an SM never changes the results (F51).
 */
static void vgpu_sched_advance(struct vgpu_sched *s)
{
	struct vgpu_worker *w;
	u32 i, busy = 0, claimed = 0;

	for (i = 0; i < s->nworkers; i++) {
		w = &s->workers[i];
		w->kick = !vgpu_worker_idle(s, w);
		busy += w->kick;
	}
	for (i = 1; busy > 1 && i < s->nworkers; i++)
		if (s->workers[i].kick)
			claimed += s->workers[i].nsm;
	if (claimed) {
		atomic_set(&s->pending, claimed);
		/* a claim that reads a reset sees the dispatch and @pending */
		for (i = 1; i < s->nworkers; i++)
			if (s->workers[i].kick)
				atomic_set_release(&s->workers[i].claim, 0);
		/* workers read the core only after seeing the new epoch */
		smp_store_release(&s->epoch, s->epoch + 1);
		/* a spinning worker needs no wake-up (full barrier inside) */
		for (i = 1; i < s->nworkers; i++)
			if (s->workers[i].kick &&
			    wq_has_sleeper(&s->workers[i].wq))
				wake_up(&s->workers[i].wq);
	}
	for (i = 0; i < s->nworkers; i++) {
		w = &s->workers[i];
		if (!claimed || !i || !w->kick)
			vgpu_gpu_advance_range(s->gpu, w->first_sm, w->nsm);
	}
	if (!claimed)
		return;
	for (i = 1; i < s->nworkers; i++)
		if (s->workers[i].kick)
			vgpu_sched_worker_run(s, &s->workers[i]);
	vgpu_sched_advance_wait(s);
}

/*
 * One epoch (F51); returns with s->lock released.  The core sees the same
 * sequence of calls as in vgpu-sim (dispatch, advance, dispatch, ...): a
 * dispatch right after each advance collects that epoch's completions, so
 * waiters wake one epoch earlier than if it waited for the next round.
 */
static bool vgpu_sched_epoch_locked(struct vgpu_sched *s, bool helper)
{
	struct vgpu_gpu *g = s->gpu;

	lockdep_assert_held(&s->lock);
	vgpu_sched_link_locked(s);
	/*
	 * A waiter running this epoch (vgpu_sched_help()) may have linked
	 * the kernels the controller thread woke up for, and the thread, not
	 * seeing them or s->work, gone back to sleep: s->work tells
	 * vgpu_sched_help_end() to wake it, or the clock would stop once the
	 * waiter stops helping.
	 */
	vgpu_sched_kick_locked(s, helper);
	if (!s->work) {
		s->paced_idle = true;
		return false;
	}
	/*
	 * The paced clock (F52) restarts from here after idle time; the
	 * free-running clock reads no wall time (under emulation a clock
	 * read is a device access, and a SUBMIT + WAIT starts from idle).
	 */
	if (s->paced_idle && s->opts.clock == VGPU_CLOCK_PACED) {
		s->paced_start_ns = ktime_get_ns();
		s->paced_start_cycle = g->now;
		s->paced_idle = false;
	}
	/*
	 * The paced clock never skips ahead of the wall clock: one user's
	 * far arrival would otherwise send the controller to sleep until
	 * the wall clock caught up, and everyone's kernels with it.  It runs
	 * empty epochs at the paced rate instead.
	 */
	if (s->opts.clock == VGPU_CLOCK_PACED)
		g->skip_until = vgpu_sched_paced_cycle(s);
	/*
	 * This boundary has not seen a dispatch, or kernels or pushes came
	 * in since (perhaps while the gate was closed and the SMs empty, when
	 * no epoch runs): dispatch at it before the SMs move on.
	 */
	if (!s->dispatched) {
		vgpu_gpu_dispatch(g);
		vgpu_sched_reap_locked(s);
	}

	vgpu_obs_epoch(s);
	vgpu_sched_advance(s);
	vgpu_gpu_dispatch(g);
	s->dispatched = true;
	vgpu_sched_reap_locked(s);

	s->stats.epochs++;
	s->work = vgpu_sched_busy_locked(s);
	if (!s->work)
		s->paced_idle = true;
	return true;
}

/**
 * vgpu_sched_epoch() - one epoch of the controller thread (F51)
 * @s: the scheduler, unlocked
 *
 * Takes &vgpu_sched.lock for the epoch, then, with the paced clock (F52),
 * sleeps until the wall time that epoch stands for.
 */
void vgpu_sched_epoch(struct vgpu_sched *s)
{
	bool ran;
	u64 now;

	mutex_lock(&s->lock);
	ran = !s->stopped && vgpu_sched_epoch_locked(s, false);
	now = s->gpu->now;
	vgpu_sched_unlock(s);

	if (ran && s->opts.clock == VGPU_CLOCK_PACED)
		vgpu_sched_pace(s, now);
}

/**
 * vgpu_sched_help_begin() - a waiter may run epochs itself
 * @s: the scheduler
 *
 * Return: true, and the caller calls vgpu_sched_help() as it likes and
 * then vgpu_sched_help_end(); false with the paced clock (nothing to do).
 */
bool vgpu_sched_help_begin(struct vgpu_sched *s)
{
	if (s->opts.clock != VGPU_CLOCK_FREE)
		return false;
	atomic_inc(&s->helpers);
	return true;
}

/**
 * vgpu_sched_help_end() - a waiter stops running epochs
 * @s: the scheduler
 *
 * Wakes the controller if work is left: the epochs the waiter ran did
 * not, and neither did the timer of vgpu_sched_kick_soon() meanwhile.
 */
void vgpu_sched_help_end(struct vgpu_sched *s)
{
	atomic_dec(&s->helpers);
	/* pairs with smp_mb() in vgpu_sched_kick_fn() */
	smp_mb__after_atomic();
	vgpu_sched_kick(s);
}

/**
 * vgpu_sched_kick() - a thread is about to sleep until kernels finish
 * @s: the scheduler
 *
 * Wakes the controller now if work is queued or resident, rather than
 * when the deferred wake-up of SUBMIT fires (poll(), vgpu_sched_help_end()).
 */
void vgpu_sched_kick(struct vgpu_sched *s)
{
	if (vgpu_sched_has_work(s))
		wake_up(&s->ctl_wq);
}

/**
 * vgpu_sched_help() - run one epoch in the calling thread
 * @s: the scheduler, between vgpu_sched_help_begin() and _end()
 *
 * WAIT calls this instead of going to sleep while the kernels it waits for
 * are unfinished.  With the free-running clock (F52) the waiter runs the
 * epoch the controller thread would run next, which saves the two thread
 * hand-offs (wake the controller, wake the waiter) a short kernel otherwise
 * costs, the way busy polling saves an interrupt.  Nothing else changes:
 * the core sees the same sequence of calls whichever thread makes them
 * (F51).  The controller thread, not woken for the work the waiter does,
 * takes over at vgpu_sched_help_end() if work is left.
 *
 * Return: true when an epoch ran; false when the caller should sleep
 * instead (the controller held by the debugfs hang knob,
 * nothing to do, the device stopping, a signal or a reschedule pending).
 */
bool vgpu_sched_help(struct vgpu_sched *s)
{
	bool ran;

	/* the clock was checked by vgpu_sched_help_begin() */
	if (vgpu_obs_held(s) || signal_pending(current) || need_resched())
		return false;
	/* the controller thread's epoch is short: wait for it, then run one */
	if (mutex_lock_interruptible(&s->lock))
		return false;
	ran = !s->stopped && vgpu_sched_epoch_locked(s, true);
	vgpu_sched_unlock(s);
	return ran;
}

/**
 * vgpu_sched_opts_check() - are these scheduling options valid?
 * @o: the options
 * @cfg: the device configuration they are for
 * @bad: the name of the first invalid field, on failure
 *
 * The core's parameters (vgpu_gpu_params_validate()), the clock, the
 * workers and the policy, which must be registered.
 *
 * Return: 0 or -EINVAL.
 */
int vgpu_sched_opts_check(const struct vgpu_sched_opts *o,
			  const struct vgpu_config *cfg, const char **bad)
{
	if (vgpu_gpu_params_validate(&o->params, cfg, bad))
		return -EINVAL;
	*bad = o->clock > VGPU_CLOCK_PACED ? "clock" :
	       !o->freq_khz ? "freq_khz" :
	       o->workers > nr_cpu_ids ? "workers" :
	       !vgpu_policy_exists(o->params.policy) ? "policy" : NULL;
	return *bad ? -EINVAL : 0;
}

/**
 * vgpu_sched_channel_add() - allocate a core channel (F11)
 * @s: the scheduler
 * @prio: its priority
 * @core_ch: the core's channel number on success
 *
 * Return: 0 or -ENOSPC when the core has no free channel.
 */
int vgpu_sched_channel_add(struct vgpu_sched *s, u32 prio, u32 *core_ch)
{
	u32 max = s->opts.params.max_channels;
	unsigned long id;
	int ret = -ENOSPC;

	mutex_lock(&s->lock);
	id = find_first_zero_bit(s->chan_ids, max);
	if (id < max) {
		ret = vgpu_gpu_channel_add(s->gpu, id, prio);
		if (!ret) {
			__set_bit(id, s->chan_ids);
			*core_ch = id;
		}
	}
	mutex_unlock(&s->lock);
	return ret;
}

/**
 * vgpu_sched_channel_remove() - free a core channel
 * @s: the scheduler
 * @core_ch: the channel; every kernel of it must be finished
 */
void vgpu_sched_channel_remove(struct vgpu_sched *s, u32 core_ch)
{
	mutex_lock(&s->lock);
	WARN_ON(vgpu_gpu_channel_remove(s->gpu, core_ch));
	__clear_bit(core_ch, s->chan_ids);
	mutex_unlock(&s->lock);
}

/**
 * vgpu_sched_fn_enable() - give the core its functional memory (seed 004)
 * @s: the scheduler
 *
 * The registers, shared memory and save areas functional kernels compute
 * in (vgpu_gpu_fn_attach()), bounded by the device's configuration:
 * allocated by the first SUBMIT of a functional kernel, so that devices
 * that only time programs never pay for it, and kept until the device
 * goes.
 *
 * Return: 0; -ENOMEM; -EINVAL for a device whose warps are not
 * VGPU_ISA_LANES wide.
 */
int vgpu_sched_fn_enable(struct vgpu_sched *s)
{
	size_t size;
	void *mem;
	int ret = 0;

	if (READ_ONCE(s->fn_mem))
		return 0;
	size = vgpu_gpu_fn_bytes(s->gpu);
	mem = kvzalloc(size, GFP_KERNEL_ACCOUNT);
	if (!mem)
		return -ENOMEM;
	mutex_lock(&s->lock);
	if (!s->fn_mem) {
		ret = vgpu_gpu_fn_attach(s->gpu, mem, size);
		if (!ret) {
			WRITE_ONCE(s->fn_mem, mem);
			mem = NULL;
		}
	}
	mutex_unlock(&s->lock);
	kvfree(mem);
	return ret;
}

/**
 * vgpu_sched_submit() - queue kernels for the core, all or nothing
 * @s: the scheduler
 * @jobs: the kernels, every core check made (vgpu_job_create()); their
 *	@arrival field holds the delay after the clock at which the controller
 *	hands them to the core
 * @n: how many
 *
 * SUBMIT does not wait for the controller: the kernels go on a queue the
 * controller empties into the core before its next dispatch (and at once
 * when it is idle).  So a submission never waits for an epoch to end.
 *
 * Return: 0, or -EAGAIN when the device's queue is full.
 */
int vgpu_sched_submit(struct vgpu_sched *s, struct vgpu_job **jobs, u32 n)
{
	u32 i;

	if (vgpu_obs_should_fail(&s->vdev->obs.fail_submit))
		return -EAGAIN;
	if (atomic_add_return(n, &s->nr_unfinished) > s->vdev->limits.queued) {
		atomic_sub(n, &s->nr_unfinished);
		return -EAGAIN;
	}
	spin_lock(&s->incoming_lock);
	for (i = 0; i < n; i++)
		list_add_tail(&jobs[i]->live_node, &s->incoming);
	spin_unlock(&s->incoming_lock);
	vgpu_sched_kick_soon(s);
	return 0;
}

/**
 * vgpu_sched_gate() - take or drop one hold on the gate (F52)
 * @s: the scheduler
 * @hold: true to take a hold, false to drop one
 * @cycle: the device clock afterwards
 *
 * Return: 0.
 */
int vgpu_sched_gate(struct vgpu_sched *s, bool hold, u64 *cycle)
{
	mutex_lock(&s->lock);
	if (hold) {
		if (!s->gate_holds++)
			vgpu_gpu_gate(s->gpu, true);
	} else if (s->gate_holds && !--s->gate_holds) {
		vgpu_gpu_gate(s->gpu, false);
	}
	vgpu_sched_kick_locked(s, false);
	*cycle = s->gpu->now;
	mutex_unlock(&s->lock);
	return 0;
}
