// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_obs.c - the core's event sink and the per-device observability
 * state (F62-F65); see the DOC block in vgpu_obs.h.
 */
#include <linux/slab.h>
#include <linux/wait.h>
#include <net/genetlink.h>

#include <linux/vgpu_netlink.h>

#include "vgpu_drv.h"
#include "vgpu_obs.h"

#define CREATE_TRACE_POINTS
#include "vgpu_trace.h"

/* POLICY_EXIT's reasons are the core's (driver/core/policy.h). */
static_assert((int)VGPU_POLICY_EXIT_NONE == (int)VGPU_POLICY_EXIT_REASON_NONE);
static_assert((int)VGPU_POLICY_EXIT_STALL == (int)VGPU_POLICY_EXIT_REASON_STALL);
static_assert((int)VGPU_POLICY_EXIT_ERRORS == (int)VGPU_POLICY_EXIT_REASON_ERRORS);

/* The netlink family events go to; NULL while it is not registered. */
static struct genl_family *vgpu_obs_family;

/**
 * vgpu_obs_set_family() - where netlink events go
 * @family: the registered "vgpu" family (vgpu_netlink.c), or NULL
 *
 * Module init and exit only, while no device exists.
 */
void vgpu_obs_set_family(struct genl_family *family)
{
	vgpu_obs_family = family;
}

/*
 * Begin an event for multicast group @grp (enum vgpu_obs_group).
 * @vdev: the device; &vgpu_sched.lock held
 * @grp: the group
 * @cmd: VGPU_CMD_EVENT or VGPU_CMD_LOCK_EVENT
 * @type: VGPU_EVENT_*
 * @cycle: virtual cycle
 * @kernel: kernel id
 * @block: block index or ~0
 * @sm: SM index or ~0
 * @prio: priority or ~0
 * @hdr: the message's header, for vgpu_obs_end()
 *
 * Every event takes a sequence number of its group; one over the group's
 * per-epoch budget, or that cannot be allocated, is counted as dropped.
 * Nothing is built when nobody listens to the group.
 *
 * Return: the message to add attributes to and pass to vgpu_obs_end(), or
 * NULL (counted if dropped).
 */
static struct sk_buff *vgpu_obs_begin(struct vgpu_device *vdev, u32 grp,
				      u8 cmd, u32 type, u64 cycle, u32 kernel,
				      u32 block, u32 sm, u32 prio, void **hdr)
{
	struct vgpu_obs *o = &vdev->obs;
	u64 seq = o->ev_seq[grp]++;
	struct sk_buff *msg;
	u32 i;

	lockdep_assert_held(&vdev->sched.lock);
	if (!vgpu_obs_family ||
	    !genl_has_listeners(vgpu_obs_family, &init_net, grp))
		return NULL;
	if (o->budget_epoch != vdev->sched.stats.epochs) {
		o->budget_epoch = vdev->sched.stats.epochs;
		for (i = 0; i < VGPU_OBS_NGROUPS; i++)
			o->budget_used[i] = 0;
	}
	if (o->budget_used[grp] >= o->budget)
		goto drop;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		goto drop;
	*hdr = genlmsg_put(msg, 0, 0, vgpu_obs_family, 0, cmd);
	if (!*hdr)
		goto drop_free;
	if (nla_put_u32(msg, VGPU_A_DEV_INDEX, vdev->index) ||
	    nla_put_u32(msg, VGPU_A_EV_TYPE, type) ||
	    nla_put_u64_64bit(msg, VGPU_A_EV_SEQ, seq, VGPU_A_PAD) ||
	    nla_put_u64_64bit(msg, VGPU_A_EV_CYCLE, cycle, VGPU_A_PAD) ||
	    nla_put_u32(msg, VGPU_A_EV_KERNEL, kernel) ||
	    nla_put_u32(msg, VGPU_A_EV_BLOCK, block) ||
	    nla_put_u32(msg, VGPU_A_EV_SM, sm) ||
	    nla_put_u32(msg, VGPU_A_EV_PRIO, prio))
		goto drop_free;
	return msg;

drop_free:
	nlmsg_free(msg);
drop:
	o->ev_dropped++;
	return NULL;
}

/*
 * Multicast @msg of vgpu_obs_begin() to group @grp, or drop it (@ok
 * false: an attribute did not fit).
 */
static void vgpu_obs_end(struct vgpu_device *vdev, u32 grp,
			 struct sk_buff *msg, void *hdr, bool ok)
{
	struct vgpu_obs *o = &vdev->obs;

	if (!ok) {
		nlmsg_free(msg);
		o->ev_dropped++;
		return;
	}
	genlmsg_end(msg, hdr);
	o->budget_used[grp]++;
	o->ev_sent++;
	genlmsg_multicast(vgpu_obs_family, msg, 0, grp, GFP_KERNEL);
}

/*
 * Multicast one event to the "events" group (vgpu_obs_begin()).
 * @exit: with VGPU_EVENT_POLICY_EXIT, the policy statistics naming the
 *	ejected policy, the reason and the op; else NULL
 */
static void vgpu_obs_send(struct vgpu_device *vdev, u32 type, u64 cycle,
			  u32 kernel, u32 block, u32 sm, u32 prio,
			  const struct vgpu_policy_stats *exit)
{
	struct sk_buff *msg;
	void *hdr;

	msg = vgpu_obs_begin(vdev, VGPU_OBS_GROUP_EVENTS, VGPU_CMD_EVENT, type,
			     cycle, kernel, block, sm, prio, &hdr);
	if (!msg)
		return;
	vgpu_obs_end(vdev, VGPU_OBS_GROUP_EVENTS, msg, hdr,
		     !exit ||
		     !(nla_put_string(msg, VGPU_A_POLICY, exit->exit_name) ||
		       nla_put_u32(msg, VGPU_A_EV_REASON, exit->exit_reason) ||
		       nla_put_u32(msg, VGPU_A_EV_OP,
				   exit->exit_op < VGPU_POLICY_NUM_OPS ?
				   exit->exit_op : VGPU_EV_NONE)));
}

/*
 * A lock granted by the arbiter (F35) to the "locks" group: the kernel,
 * block, warp, SM, the kernel's priority and the lock.
 */
static void vgpu_obs_send_lock(struct vgpu_device *vdev,
			       const struct vgpu_event *ev, u32 prio)
{
	struct sk_buff *msg;
	void *hdr;

	msg = vgpu_obs_begin(vdev, VGPU_OBS_GROUP_LOCKS, VGPU_CMD_LOCK_EVENT,
			     VGPU_EVENT_MUTEX, ev->cycle, ev->kernel,
			     ev->block, ev->sm, prio, &hdr);
	if (!msg)
		return;
	vgpu_obs_end(vdev, VGPU_OBS_GROUP_LOCKS, msg, hdr,
		     !(nla_put_u32(msg, VGPU_A_EV_WARP, ev->warp) ||
		       nla_put_u32(msg, VGPU_A_EV_MUTEX, ev->arg0)));
}

static void vgpu_obs_event(struct vgpu_device *vdev, u32 type, u64 cycle,
			   u32 kernel, u32 block, u32 sm, u32 prio)
{
	vgpu_obs_send(vdev, type, cycle, kernel, block, sm, prio, NULL);
}

static struct vgpu_obs_count *vgpu_obs_prio(struct vgpu_device *vdev, u32 prio)
{
	return prio < vdev->cfg.num_prios ? &vdev->obs.prio[prio] : NULL;
}

/*
 * One more of the counter at offset @off of struct vgpu_obs_count in each
 * of the event's counters @cnt that are there (its SM's, its priority's,
 * its channel's).
 */
static void vgpu_obs_inc(struct vgpu_obs_count *const cnt[3], size_t off)
{
	u32 i;

	for (i = 0; i < 3; i++)
		if (cnt[i])
			(*(u64 *)((u8 *)cnt[i] + off))++;
}

/**
 * vgpu_obs_core_event() - an event of the core (its host's event callback)
 * @vdev: the device; &vgpu_sched.lock held, in the controller thread
 *	(dispatch events) or in an ioctl (CANCEL)
 * @ev: the event
 * @job: the job it is about, or NULL (none, or a child kernel, F15)
 *
 * Fires the tracepoint, counts it and multicasts it.
 */
void vgpu_obs_core_event(struct vgpu_device *vdev, const struct vgpu_event *ev,
			 const struct vgpu_job *job)
{
	struct vgpu_sched *s = &vdev->sched;
	struct vgpu_obs *o = &vdev->obs;
	struct vgpu_obs_count *pc = NULL, *sc = NULL, *cnt[3];
	u32 dev = vdev->index, prio = VGPU_EV_NONE;

	lockdep_assert_held(&s->lock);
	if (ev->type == VGPU_GEV_CANCEL)
		return;
	if (job) {
		prio = job->k.args.prio;
		pc = vgpu_obs_prio(vdev, prio);
	}
	if (ev->sm < vdev->cfg.num_sms)
		sc = &o->sm[ev->sm];
	cnt[0] = sc;
	cnt[1] = pc;
	cnt[2] = job ? &o->chan[job->k.args.channel] : NULL;

	switch (ev->type) {
	case VGPU_GEV_SUBMIT:
		trace_vgpu_kernel_submit(dev, ev->kernel, ev->block, ev->warp,
					 ev->sm, ev->arg0, ev->cycle);
		/* a child's channel is its tree's: count submissions only */
		if (job && ev->arg1 < s->opts.params.max_channels)
			o->chan[ev->arg1].submitted++;
		if (pc)
			pc->submitted++;
		if (job)
			job->owner->usage.submitted++;
		vgpu_obs_event(vdev, VGPU_EVENT_SUBMIT, ev->cycle,
			       ev->kernel, ev->block, ev->sm, ev->arg0);
		break;
	case VGPU_GEV_DISPATCH:
		trace_vgpu_block_dispatch(dev, ev->kernel, ev->block, ev->warp,
					  ev->sm, prio, ev->cycle);
		vgpu_obs_inc(cnt, offsetof(struct vgpu_obs_count, blocks));
		vgpu_obs_event(vdev, VGPU_EVENT_DISPATCH, ev->cycle,
			       ev->kernel, ev->block, ev->sm, prio);
		break;
	case VGPU_GEV_PREEMPT:
		trace_vgpu_preempt(dev, ev->kernel, ev->block, ev->warp, ev->sm,
				   prio, ev->cycle);
		vgpu_obs_inc(cnt, offsetof(struct vgpu_obs_count, preempted));
		vgpu_obs_event(vdev, VGPU_EVENT_PREEMPT, ev->cycle,
			       ev->kernel, ev->block, ev->sm, prio);
		break;
	case VGPU_EV_WARP_START:
		trace_vgpu_warp_start(dev, ev->kernel, ev->block, ev->warp,
				      ev->sm, ev->arg1, ev->cycle);
		break;
	case VGPU_EV_BLOCK_DONE:
		trace_vgpu_block_complete(dev, ev->kernel, ev->block, ev->warp,
					  ev->sm, prio, ev->cycle);
		vgpu_obs_inc(cnt, offsetof(struct vgpu_obs_count, blocks_done));
		if (job) {
			job->owner->usage.busy_cycles += ev->arg1;
			job->owner->usage.blocks_done++;
		}
		break;
	case VGPU_GEV_KERNEL_DONE:
		trace_vgpu_kernel_complete(dev, ev->kernel, ev->block, ev->warp,
					   ev->sm, prio, ev->cycle);
		if (pc)
			pc->completed++;
		if (job) {
			o->chan[job->k.args.channel].completed++;
			job->owner->usage.completed++;
		}
		vgpu_obs_event(vdev, VGPU_EVENT_COMPLETE, ev->cycle,
			       ev->kernel, ev->block, ev->sm, prio);
		break;
	case VGPU_GEV_LAUNCH:	/* kernel: the child; sm, block: the launcher */
		trace_vgpu_kernel_launch(dev, ev->kernel, ev->block, ev->warp,
					 ev->sm, prio, ev->cycle);
		break;
	case VGPU_GEV_FAIL:
		trace_vgpu_kernel_fail(dev, ev->kernel, ev->block, ev->warp,
				       ev->sm, prio, ev->cycle);
		vgpu_obs_event(vdev, VGPU_EVENT_FAIL, ev->cycle,
			       ev->kernel, ev->block, ev->sm, prio);
		break;
	case VGPU_EV_SYNC:	/* F17; arg1: low 32 bits of the ready cycle */
		trace_vgpu_state_sync(dev, ev->sm, ev->kernel, ev->block,
				      ev->arg0, ev->cycle,
				      ev->cycle + (u32)(ev->arg1 -
							(u32)ev->cycle));
		break;
	case VGPU_GEV_PUSH:	/* F14 */
		trace_vgpu_queue_push(dev, ev->kernel, VGPU_EV_NONE, ev->arg0,
				      !!(ev->arg1 & VGPU_GPU_PUSH_CLOSE),
				      ev->cycle);
		break;
	case VGPU_GEV_COALESCE:
		trace_vgpu_queue_block(dev, ev->kernel, ev->block, ev->arg0,
				       ev->arg1, ev->cycle);
		break;
	case VGPU_GEV_ASSIGN:	/* F17; arg1: low 32 bits of the end */
		trace_vgpu_sm_assign(dev, ev->sm, ev->kernel, ev->block,
				     ev->arg0, ev->cycle,
				     ev->cycle + (u32)(ev->arg1 -
						       (u32)ev->cycle));
		break;
	case VGPU_GEV_DEALLOC:	/* F13; arg1: low 32 bits of the request */
		trace_vgpu_task_dealloc(dev, ev->kernel, ev->arg0,
					ev->cycle - (u32)((u32)ev->cycle -
							  ev->arg1),
					ev->cycle);
		break;
	case VGPU_EV_LOCK_ACQUIRE:
		if (ev->arg1 == VGPU_LOCK_HOW_FREE)
			break;
		trace_vgpu_mutex_arbitrate(dev, ev->kernel, ev->block,
					   ev->warp, ev->sm, ev->arg0,
					   ev->cycle);
		vgpu_obs_send_lock(vdev, ev, prio);
		break;
	default:
		break;
	}
}

/**
 * vgpu_obs_device_init() - observability of a new device
 * @vdev: the device; its scheduler is initialised, its threads idle
 *
 * Allocates the counters.  No kernel has been submitted yet: the core's
 * events, which vgpu_obs_core_event() counts, begin after this.
 *
 * Return: 0 or -ENOMEM.
 */
int vgpu_obs_device_init(struct vgpu_device *vdev)
{
	struct vgpu_obs *o = &vdev->obs;
	struct vgpu_sched *s = &vdev->sched;

	o->sm = kcalloc(vdev->cfg.num_sms, sizeof(*o->sm), GFP_KERNEL);
	o->chan = kcalloc(s->opts.params.max_channels, sizeof(*o->chan),
			  GFP_KERNEL);
	o->prio = kcalloc(vdev->cfg.num_prios, sizeof(*o->prio), GFP_KERNEL);
	o->sm_refs = kcalloc(vdev->cfg.num_sms, sizeof(*o->sm_refs),
			     GFP_KERNEL);
	if (!o->sm || !o->chan || !o->prio || !o->sm_refs) {
		vgpu_obs_device_fini(vdev);
		return -ENOMEM;
	}
	atomic_set(&o->fail_alloc, 0);
	atomic_set(&o->fail_submit, 0);
	o->budget = VGPU_OBS_DEF_BUDGET;
	return 0;
}

/**
 * vgpu_obs_device_remove() - the device is being destroyed
 * @vdev: the device; its threads are stopped
 *
 * Clears a forced hang.
 */
void vgpu_obs_device_remove(struct vgpu_device *vdev)
{
	WRITE_ONCE(vdev->obs.hang, false);
}

/**
 * vgpu_obs_device_fini() - free a device's observability state
 * @vdev: the device, last reference gone (or creation failed)
 */
void vgpu_obs_device_fini(struct vgpu_device *vdev)
{
	struct vgpu_obs *o = &vdev->obs;

	kfree(o->sm_refs);
	kfree(o->prio);
	kfree(o->chan);
	kfree(o->sm);
	o->sm_refs = NULL;
	o->prio = NULL;
	o->chan = NULL;
	o->sm = NULL;
}

/**
 * vgpu_obs_should_fail() - consume one forced failure of a fail_* knob
 * @knob: &vgpu_obs.fail_alloc or &vgpu_obs.fail_submit
 *
 * Return: true if the caller must fail (the knob was positive and is now
 * one less).
 */
bool vgpu_obs_should_fail(atomic_t *knob)
{
	return atomic_dec_if_positive(knob) >= 0;
}

/**
 * vgpu_obs_epoch() - before the SMs advance: does the core pass warp-level
 *	events?
 * @s: the scheduler, locked
 *
 * Only while the warp_start or mutex_arbitrate tracepoint is enabled, or
 * someone listens to the netlink group "locks": the other consumers (the
 * "events" group, counters) need block-level events only.
 */
void vgpu_obs_epoch(struct vgpu_sched *s)
{
	struct vgpu_obs *o = &s->vdev->obs;
	bool on = trace_vgpu_warp_start_enabled() ||
		  trace_vgpu_mutex_arbitrate_enabled() ||
		  (vgpu_obs_family &&
		   genl_has_listeners(vgpu_obs_family, &init_net,
				      VGPU_OBS_GROUP_LOCKS));

	lockdep_assert_held(&s->lock);
	if (on != o->verbose) {
		o->verbose = on;
		vgpu_gpu_set_verbose(s->gpu, on);
	}
}

/**
 * vgpu_obs_held() - is the controller held by the debugfs hang knob?
 * @s: the scheduler
 *
 * Return: the knob's value.
 */
bool vgpu_obs_held(struct vgpu_sched *s)
{
	return READ_ONCE(s->vdev->obs.hang);
}

/**
 * vgpu_obs_policy_errors() - tell listeners the policy erred
 * @s: the scheduler, locked, after a dispatch
 *
 * One VGPU_EVENT_POLICY_ERROR per dispatch in which the core refused at
 * least one answer of the policy (the count is in the statistics).
 */
void vgpu_obs_policy_errors(struct vgpu_sched *s)
{
	struct vgpu_device *vdev = s->vdev;
	u64 n = s->gpu->stats.policy_errors;

	lockdep_assert_held(&s->lock);
	if (n == vdev->obs.policy_errors)
		return;
	vdev->obs.policy_errors = n;
	vgpu_obs_event(vdev, VGPU_EVENT_POLICY_ERROR, s->gpu->now,
		       VGPU_EV_NONE, VGPU_EV_NONE, VGPU_EV_NONE,
		       VGPU_EV_NONE);
}

/**
 * vgpu_obs_policy_exit() - tell listeners the watchdog ejected the policy
 * @s: the scheduler, locked, in the dispatch that ejected it
 *
 * One VGPU_EVENT_POLICY_EXIT naming the policy (VGPU_A_POLICY), the reason
 * (VGPU_A_EV_REASON) and, for errors, the op (VGPU_A_EV_OP), from
 * &vgpu_gpu.pstats (driver/core/policy_watch.c).
 */
void vgpu_obs_policy_exit(struct vgpu_sched *s)
{
	lockdep_assert_held(&s->lock);
	vgpu_obs_send(s->vdev, VGPU_EVENT_POLICY_EXIT, s->gpu->now,
		      VGPU_EV_NONE, VGPU_EV_NONE, VGPU_EV_NONE, VGPU_EV_NONE,
		      &s->gpu->pstats);
}

/**
 * vgpu_obs_hang() - a kernel hit its channel's hang timeout (F53)
 * @s: the scheduler, locked
 * @job: the kernel, about to be cancelled with -ETIMEDOUT
 */
void vgpu_obs_hang(struct vgpu_sched *s, struct vgpu_job *job)
{
	struct vgpu_device *vdev = s->vdev;

	lockdep_assert_held(&s->lock);
	trace_vgpu_hang(vdev->index, job->k.args.id, VGPU_EV_NONE, VGPU_EV_NONE,
			VGPU_EV_NONE, job->k.args.prio, s->gpu->now);
	vgpu_obs_event(vdev, VGPU_EVENT_HANG, s->gpu->now, job->k.args.id,
		       VGPU_EV_NONE, VGPU_EV_NONE, job->k.args.prio);
}
