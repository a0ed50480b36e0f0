/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_obs.h - observability of a device (F62-F65): the core's event
 * sink, per-device counters, debugfs (vgpu_debugfs.c), the generic netlink
 * family (vgpu_netlink.c), tracepoints (vgpu_trace.h) and fdinfo
 * (vgpu_fdinfo.c).
 */

/**
 * DOC: observability
 *
 * The core reports its events to the scheduler (&vgpu_gpu_host_ops.event),
 * with the kernel each is about, which passes them on to
 * vgpu_obs_core_event() with that kernel's job: from vgpu_gpu_dispatch(),
 * in the controller thread with &vgpu_sched.lock held, or from a cancel.
 * It fires the tracepoints, updates the counters of
 * &struct vgpu_obs and of the owning file (&struct vgpu_file_usage) and
 * multicasts netlink events within a per-epoch budget.
 *
 * Locking: every field of &struct vgpu_obs marked "sched" is protected by
 * &vgpu_sched.lock of its device.  The fail_* knobs are atomics; @hang is
 * read locklessly by the controller thread (READ_ONCE) and written by the
 * debugfs knob, which then wakes the controller.  No lock of this file is
 * taken with another held except &vgpu_sched.lock, which may be taken
 * under &vgpu_file.lock (fdinfo), as everywhere (vgpu_drv.h).
 */
#ifndef VGPU_OBS_H
#define VGPU_OBS_H

#include <linux/atomic.h>
#include <linux/types.h>

struct dentry;
struct seq_file;
struct file;
struct vgpu_device;
struct vgpu_file;
struct vgpu_sched;
struct vgpu_job;
struct vgpu_event;

#define VGPU_OBS_DEF_BUDGET	1024	/* netlink events per epoch */
#define VGPU_OBS_MAX_BUDGET	65536

/**
 * struct vgpu_obs_count - counters of one SM, channel or priority
 * @submitted: kernels submitted (channel, priority)
 * @completed: kernels completed (channel, priority)
 * @blocks: blocks (dispatch units) dispatched
 * @preempted: blocks switched out
 * @blocks_done: blocks completed
 *
 * Protected by &vgpu_sched.lock; they never go backwards.
 */
struct vgpu_obs_count {
	u64 submitted;
	u64 completed;
	u64 blocks;
	u64 preempted;
	u64 blocks_done;
};

#define VGPU_OBS_NVIEWS		11	/* debugfs views besides blocks/ */

/**
 * struct vgpu_obs_ref - what one debugfs view file refers to
 * @vdev: the device
 * @view: the view's index in vgpu_debugfs.c's table (VGPU_OBS_NVIEWS for
 *	a blocks/sm<N> file)
 * @arg: the view's argument: the SM index of a blocks/sm<N> file, else 0
 */
struct vgpu_obs_ref {
	struct vgpu_device *vdev;
	u32 view;
	u32 arg;
};

/**
 * enum vgpu_obs_group - the netlink family's multicast groups, in the
 *	order the family lists them (vgpu_netlink.c)
 * @VGPU_OBS_GROUP_EVENTS: scheduling events (VGPU_MCGRP_EVENTS)
 * @VGPU_OBS_GROUP_LOCKS: lock grants of the arbiter (VGPU_MCGRP_LOCKS)
 * @VGPU_OBS_NGROUPS: their number
 */
enum vgpu_obs_group {
	VGPU_OBS_GROUP_EVENTS,
	VGPU_OBS_GROUP_LOCKS,
	VGPU_OBS_NGROUPS
};

/**
 * struct vgpu_obs - observability state of one device
 * @dir: debugfs directory /sys/kernel/debug/vgpu/<name>, NULL once removed
 * @views: private data of the view files
 * @sm_refs: private data of the blocks/sm<N> files, one per SM
 * @sm: per-SM counters (sched)
 * @chan: per core channel number counters (sched)
 * @prio: per-priority counters (sched)
 * @fail_alloc: the next @fail_alloc kernel object creations in SUBMIT, or
 *	buffer object creations, fail with -ENOMEM (debugfs knob)
 * @fail_submit: the next @fail_submit submissions fail with -EAGAIN after
 *	every check passed (debugfs knob)
 * @hang: the controller does not advance while set (debugfs knob)
 * @budget: netlink events per epoch (sched)
 * @budget_epoch: epoch @budget_used counts for (sched)
 * @budget_used: events multicast in @budget_epoch, per multicast group
 *	(enum vgpu_obs_group): each has a budget of its own (sched)
 * @ev_seq: sequence number of the next netlink event, dropped ones
 *	included, per multicast group (sched)
 * @ev_sent: netlink events multicast (sched)
 * @ev_dropped: netlink events dropped over the budget or for lack of
 *	memory (sched)
 * @verbose: the core passes warp-level events (a warp-level tracepoint
 *	is enabled, or someone listens to "locks", vgpu_obs_epoch()) (sched)
 * @policy_errors: &vgpu_gpu_stats.policy_errors when the last
 *	VGPU_EVENT_POLICY_ERROR was sent (sched)
 */
struct vgpu_obs {
	struct dentry *dir;
	struct vgpu_obs_ref views[VGPU_OBS_NVIEWS];
	struct vgpu_obs_ref *sm_refs;
	struct vgpu_obs_count *sm;
	struct vgpu_obs_count *chan;
	struct vgpu_obs_count *prio;
	atomic_t fail_alloc;
	atomic_t fail_submit;
	bool hang;
	u32 budget;
	u64 budget_epoch;
	u32 budget_used[VGPU_OBS_NGROUPS];
	u64 ev_seq[VGPU_OBS_NGROUPS];
	u64 ev_sent;
	u64 ev_dropped;
	bool verbose;
	u64 policy_errors;
};

/**
 * struct vgpu_file_usage - what one open file used (fdinfo, F65)
 * @client_id: drm-client-id, unique per open file, given at first read
 * @busy_cycles: sum over the file's completed blocks of their resident
 *	cycles (block-cycles)
 * @blocks_done: blocks of the file's kernels completed
 * @submitted: kernels submitted
 * @completed: kernels completed
 *
 * @client_id is written under &vgpu_file.lock; the rest under
 * &vgpu_sched.lock.
 */
struct vgpu_file_usage {
	u64 client_id;
	u64 busy_cycles;
	u64 blocks_done;
	u64 submitted;
	u64 completed;
};

struct genl_family;

void vgpu_obs_set_family(struct genl_family *family);
int vgpu_obs_device_init(struct vgpu_device *vdev);
void vgpu_obs_device_remove(struct vgpu_device *vdev);
void vgpu_obs_device_fini(struct vgpu_device *vdev);
bool vgpu_obs_should_fail(atomic_t *knob);
bool vgpu_obs_held(struct vgpu_sched *s);
void vgpu_obs_epoch(struct vgpu_sched *s);
void vgpu_obs_hang(struct vgpu_sched *s, struct vgpu_job *job);
void vgpu_obs_policy_errors(struct vgpu_sched *s);
void vgpu_obs_policy_exit(struct vgpu_sched *s);
void vgpu_obs_core_event(struct vgpu_device *vdev, const struct vgpu_event *ev,
			 const struct vgpu_job *job);

int vgpu_debugfs_init(void);
void vgpu_debugfs_exit(void);
void vgpu_debugfs_device_add(struct vgpu_device *vdev);
void vgpu_debugfs_device_remove(struct vgpu_device *vdev);

int vgpu_netlink_init(void);
void vgpu_netlink_exit(void);

void vgpu_fdinfo_show(struct seq_file *m, struct file *file);

#endif /* VGPU_OBS_H */
