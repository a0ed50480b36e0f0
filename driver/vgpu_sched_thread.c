// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_sched_thread.c - a device's scheduler brought up and torn down:
 * its core, its controller thread and worker threads, bound to CPUs
 * (F50), each creation step undone by its own label.  The epochs the
 * threads run are vgpu_sched.c's, a layer below (scripts/check-layering).
 */
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>

#include "vgpu_compat.h"
#include "vgpu_drv.h"
#include "vgpu_sched.h"

/*
 * F50: bind the running thread to its CPU.  Done by the thread itself:
 * newer kernels give a kthread its default affinity when it starts, after
 * a set_cpus_allowed_ptr() made before the first wake-up (seen on 7.2).
 * Not kthread_bind(): the scheduler may still move the thread if its CPU
 * goes offline.
 */
static void vgpu_sched_bind_self(u32 cpu)
{
	set_cpus_allowed_ptr(current, cpumask_of(cpu));
}

static int vgpu_sched_ctl_fn(void *arg)
{
	struct vgpu_sched *s = arg;

	vgpu_sched_bind_self(s->workers[0].cpu);
	while (!kthread_should_stop()) {
		/* the debugfs hang knob holds the controller (vgpu_obs.h) */
		wait_event_idle(s->ctl_wq,
				((READ_ONCE(s->work) || !list_empty(&s->incoming) ||
				  !list_empty(&s->incoming_push)) &&
				 !vgpu_obs_held(s)) || kthread_should_stop());
		if (kthread_should_stop())
			break;
		vgpu_sched_epoch(s);
		cond_resched();
	}
	return 0;
}

/*
 * Wait for the next epoch: a bounded spin first (the controller's part of
 * an epoch, between two of the worker's, is short), then sleep on @w->wq.
 */
static void vgpu_sched_worker_wait(struct vgpu_sched *s, struct vgpu_worker *w)
{
	u64 end = local_clock() + VGPU_SCHED_SPIN_NS;

	while (READ_ONCE(s->epoch) == w->seen && !kthread_should_stop() &&
	       !need_resched() && local_clock() < end)
		cpu_relax();
	/* acquire pairs with the release in vgpu_sched_advance() */
	wait_event_idle(w->wq, smp_load_acquire(&s->epoch) != w->seen ||
			kthread_should_stop());
}

static int vgpu_sched_worker_fn(void *arg)
{
	struct vgpu_worker *w = arg;
	struct vgpu_sched *s = w->sched;

	vgpu_sched_bind_self(w->cpu);
	for (;;) {
		vgpu_sched_worker_wait(s, w);
		if (kthread_should_stop())
			break;
		/* acquire: the core's state of this epoch is visible */
		w->seen = smp_load_acquire(&s->epoch);
		vgpu_sched_worker_run(s, w);
	}
	return 0;
}

static void vgpu_sched_stop_threads(struct vgpu_sched *s)
{
	u32 i;

	if (s->ctl) {
		kthread_stop(s->ctl);
		s->ctl = NULL;
	}
	for (i = 0; s->workers && i < s->nworkers; i++) {
		if (s->workers[i].task)
			kthread_stop(s->workers[i].task);
		s->workers[i].task = NULL;
	}
}

static int vgpu_sched_start_workers(struct vgpu_sched *s)
{
	u32 nsms = s->gpu->cfg.num_sms, per, extra, first = 0, i;
	unsigned int cpu = cpumask_first(cpu_online_mask);
	struct vgpu_worker *w;
	int ret;

	s->nworkers = s->opts.workers ? s->opts.workers : num_online_cpus();
	s->nworkers = clamp_t(u32, s->nworkers, 1, nsms);
	s->workers = kcalloc(s->nworkers, sizeof(*s->workers), GFP_KERNEL);
	if (!s->workers)
		return -ENOMEM;

	per = nsms / s->nworkers;
	extra = nsms % s->nworkers;
	for (i = 0; i < s->nworkers; i++) {
		w = &s->workers[i];
		w->sched = s;
		w->first_sm = first;
		w->nsm = per + (i < extra ? 1 : 0);
		w->cpu = cpu;
		first += w->nsm;
		init_waitqueue_head(&w->wq);
		/* nothing to claim before its first epoch */
		atomic_set(&w->claim, w->nsm);
		cpu = cpumask_next(cpu, cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(cpu_online_mask);
		if (!i)
			continue;	/* worker 0 is the controller thread */
		w->task = kthread_create(vgpu_sched_worker_fn, w, "vgpu%u/w%u",
					 s->vdev->index, i);
		if (IS_ERR(w->task)) {
			ret = PTR_ERR(w->task);
			w->task = NULL;
			goto err_threads_stop;
		}
		/* bound to one CPU each, round-robin over the online ones (F50) */
		set_cpus_allowed_ptr(w->task, cpumask_of(w->cpu));
		wake_up_process(w->task);
	}
	return 0;

err_threads_stop:
	vgpu_sched_stop_threads(s);
	kfree(s->workers);
	s->workers = NULL;
	return ret;
}

/**
 * vgpu_sched_init() - create a device's core and its threads
 * @s: the scheduler to initialise
 * @vdev: its device
 * @opts: options, checked by vgpu_sched_opts_check()
 * @ops: the backend ops it hands jobs back through
 *
 * Each step is undone by its own label on failure, and @s->gpu is NULL
 * afterwards.
 *
 * Return: 0, -EINVAL for a policy unregistered meanwhile, -ENOMEM, or the
 * error of kthread creation.
 */
int vgpu_sched_init(struct vgpu_sched *s, struct vgpu_device *vdev,
		    const struct vgpu_sched_opts *opts,
		    const struct vgpu_sched_backend_ops *ops)
{
	const struct vgpu_config *cfg = &vdev->cfg;
	size_t size;
	int ret;

	memset(s, 0, sizeof(*s));
	s->vdev = vdev;
	s->ops = ops;
	s->opts = *opts;
	mutex_init(&s->lock);
	init_waitqueue_head(&s->ctl_wq);
	init_waitqueue_head(&s->done_wq);
	init_waitqueue_head(&s->epoch_wq);
	INIT_LIST_HEAD(&s->live);
	INIT_LIST_HEAD(&s->incoming);
	INIT_LIST_HEAD(&s->incoming_push);
	INIT_LIST_HEAD(&s->push_dead);
	atomic_set(&s->nr_pushes, 0);
	s->paced_idle = true;
	s->hang_next = U64_MAX;
	spin_lock_init(&s->incoming_lock);
	atomic_set(&s->nr_unfinished, 0);
	atomic_set(&s->helpers, 0);
	hrtimer_setup(&s->kick_timer, vgpu_sched_kick_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL_SOFT);

	ret = -ENOMEM;
	s->gpu = kzalloc(sizeof(*s->gpu), GFP_KERNEL);
	if (!s->gpu)
		goto err_mutex_destroy;
	size = vgpu_gpu_mem_size(cfg, &s->opts.params);
	s->mem = kvzalloc(size, GFP_KERNEL);
	if (!s->mem)
		goto err_gpu_free;
	s->chan_ids = bitmap_zalloc(s->opts.params.max_channels, GFP_KERNEL);
	if (!s->chan_ids)
		goto err_mem_free;

	ret = vgpu_policy_gpu_init(s->gpu, s->mem, size, cfg, &s->opts.params,
				   &vgpu_sched_host_ops, s);
	if (ret) {
		pr_debug("vgpu_dispatch: %s: policy %s: unknown or refused (%d)\n",
			 vdev->name, s->opts.params.policy, ret);
		goto err_chan_free;
	}
	WRITE_ONCE(s->search, vgpu_sched_search_word(&s->gpu->p));

	ret = vgpu_sched_start_workers(s);
	if (ret)
		goto err_gpu_fini;
	/* the controller also advances worker 0's SMs, on worker 0's CPU */
	s->ctl = kthread_create(vgpu_sched_ctl_fn, s, "vgpu%u/ctl", vdev->index);
	if (IS_ERR(s->ctl)) {
		ret = PTR_ERR(s->ctl);
		s->ctl = NULL;
		goto err_workers_stop;
	}
	set_cpus_allowed_ptr(s->ctl, cpumask_of(s->workers[0].cpu));
	wake_up_process(s->ctl);
	return 0;

err_workers_stop:
	vgpu_sched_stop_threads(s);
	kfree(s->workers);
err_gpu_fini:
	vgpu_policy_gpu_fini(s->gpu);
err_chan_free:
	bitmap_free(s->chan_ids);
err_mem_free:
	kvfree(s->mem);
err_gpu_free:
	kfree(s->gpu);
	s->gpu = NULL;
err_mutex_destroy:
	mutex_destroy(&s->lock);
	return ret;
}

/**
 * vgpu_sched_stop() - stop a device's threads (device removal)
 * @s: the scheduler
 *
 * Nothing runs afterwards; files still open can only cancel and free what
 * they own.  Waiters are woken and see the device gone.
 */
void vgpu_sched_stop(struct vgpu_sched *s)
{
	/* after the epoch in progress, if any, no thread starts another */
	mutex_lock(&s->lock);
	s->stopped = true;
	mutex_unlock(&s->lock);
	vgpu_sched_stop_threads(s);
	/* a SUBMIT racing with this may arm it again: cancelled in _fini() */
	hrtimer_cancel(&s->kick_timer);
	wake_up_all(&s->done_wq);
}

/**
 * vgpu_sched_fini() - free a device's core (last reference gone)
 * @s: the scheduler; its threads are stopped and no kernel is live
 */
void vgpu_sched_fini(struct vgpu_sched *s)
{
	vgpu_sched_stop_threads(s);
	hrtimer_cancel(&s->kick_timer);
	WARN_ON(!list_empty(&s->live) || !list_empty(&s->incoming) ||
		!list_empty(&s->incoming_push) || !list_empty(&s->push_dead) ||
		atomic_read(&s->nr_pushes));
	kfree(s->workers);
	vgpu_policy_gpu_fini(s->gpu);
	bitmap_free(s->chan_ids);
	kvfree(s->fn_mem);
	kvfree(s->mem);
	kfree(s->gpu);
	s->gpu = NULL;
	mutex_destroy(&s->lock);
}
