/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgpu_sched.h - the module side of the scheduler: the core's global
 * controller (driver/core/gpu.h) driven by kernel threads, and the kernel
 * objects userspace submits (F50-F53, F60).
 */

/**
 * DOC: threads and epochs
 *
 * Each device has one controller thread and nworkers worker threads, each
 * worker bound to a CPU and owning a fixed, contiguous range of SMs (F50).
 * An epoch (F51) is::
 *
 *	controller: lock; hand queued kernels to the core; kick the workers
 *	workers:    vgpu_gpu_advance_range() over their own SMs, in parallel
 *	            (worker 0 is the controller thread itself; workers
 *	            without work are not kicked, see vgpu_sched_advance())
 *	controller: claim the SMs a kicked worker has not started; wait for
 *	            the SMs in progress; vgpu_gpu_dispatch() at the new
 *	            boundary, which reports each completion as it happens
 *	            (vgpu_sched_host_ops); check for hangs; unlock
 *
 * A worker waits for the next epoch spinning for up to VGPU_SCHED_SPIN_NS,
 * then sleeps on its wait queue, and is woken only when it sleeps: epochs
 * are short (tens of microseconds under emulation) and a cross-CPU wake-up
 * costs about as much.  The SMs of a kicked worker are claimed one at a
 * time (vgpu_sched_worker_run()), by the worker or, once done with its
 * own, by the thread running the epoch, so an epoch never waits for a
 * worker that has not started; which thread advances an SM never changes
 * the results (F51).
 *
 * The controller holds &vgpu_sched.lock for the whole epoch, so ioctls that
 * change the core (cancel, gate, channels) and snapshots (debugfs, netlink)
 * happen only between two epochs, and the workers, which take no lock, only
 * touch the SMs they claimed.  SUBMIT does not wait for that: it puts its kernels
 * on &vgpu_sched.incoming (a spinlock) and the controller hands them to the
 * core at the next boundary, or at once when it is idle.
 * The core's results do not depend on how SMs are spread over workers.
 * With nothing queued or resident the controller sleeps on @ctl_wq and the
 * workers on their own wait queues: an idle device uses no CPU.
 *
 * Paced clock mode (F52) maps virtual cycles to wall time at freq_khz;
 * free-running mode runs epochs back to back.
 *
 * With the free-running clock a thread in WAIT runs the epochs itself
 * (vgpu_sched_help()) rather than sleep while the controller runs them,
 * and SUBMIT does not wake the controller at once but arms
 * @kick_timer: a waiter usually finishes a short kernel before it fires,
 * and then neither thread pays for a cross-CPU wake-up nor contends for
 * &vgpu_sched.lock (F60: SUBMIT + WAIT of an empty kernel costs about as
 * much as the epoch it needs).  The timer wakes the controller if work is
 * left and no waiter is helping; a waiter that stops helping with work
 * left wakes it (vgpu_sched_help_end()), and so does poll() with nothing
 * to report (vgpu_sched_kick()).  A kernel nobody waits for starts at
 * most VGPU_SCHED_KICK_DELAY_NS later in wall time; virtual time, and so
 * every result, is the same.
 *
 * Lock order (outer first): vgpu_file.lock, vgpu_sched.lock,
 * vgpu_device.lock; vgpu_policies_lock (vgpu_policy.c) nests inside
 * vgpu_sched.lock (vgpu_policy_use(), and vgpu_policy_ejected() from the
 * core's dispatch when its watchdog ejects a policy); vgpu_sched.incoming_lock
 * (a spinlock) is innermost.
 */
#ifndef VGPU_SCHED_H
#define VGPU_SCHED_H

#include <linux/hrtimer.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>

#include <linux/vgpu_dispatch.h>

#include "gpu.h"

struct vgpu_device;
struct vgpu_file;
struct vgpu_channel;

#define VGPU_CLOCK_FREE		0	/* epochs back to back */
#define VGPU_CLOCK_PACED	1	/* freq_khz virtual cycles per ms */

/**
 * struct vgpu_sched_opts - per-device scheduling options (new_device)
 * @params: the core's scheduling parameters (policy, preemption, epoch...)
 * @workers: worker threads; 0 = one per online CPU, at most num_sms
 * @clock: VGPU_CLOCK_*
 * @freq_khz: virtual frequency of the paced clock
 */
struct vgpu_sched_opts {
	struct vgpu_gpu_params params;
	u32 workers;
	u32 clock;
	u32 freq_khz;
};

struct vgpu_job;
struct vgpu_bo;
struct dma_fence;

/**
 * struct vgpu_sched_backend_ops - what the scheduler hands back to its user
 * @put_job: drop a reference the scheduler held on a job (a push record's
 *	on its kernel, F14); may free it.  Called without &vgpu_sched.lock.
 *
 * As &drm_sched_backend_ops.free_job: the scheduler does not call into the
 * layer that makes jobs (vgpu_kernel.c), it is given this table.
 */
struct vgpu_sched_backend_ops {
	void (*put_job)(struct vgpu_job *job);
};

/**
 * struct vgpu_worker - one worker thread (F50)
 * @task: the thread (NULL for worker 0: the controller thread does its
 *	share)
 * @sched: its scheduler
 * @cpu: the CPU it is bound to
 * @first_sm: first SM it owns
 * @nsm: SMs it owns
 * @seen: last epoch it ran
 * @kick: its SMs have work in the current epoch; written by the thread
 *	running the epoch only
 * @claim: SMs of its range claimed in the current epoch, by itself or by
 *	the thread running the epoch (vgpu_sched_worker_run()); at least
 *	@nsm when none is left
 * @wq: where it sleeps between epochs
 */
struct vgpu_worker {
	struct task_struct *task;
	struct vgpu_sched *sched;
	unsigned int cpu;
	u32 first_sm;
	u32 nsm;
	unsigned long seen;
	bool kick;
	atomic_t claim;
	wait_queue_head_t wq;
};

/**
 * struct vgpu_sched_stats - device counters (64-bit, never go backwards)
 * @submitted: kernels submitted
 * @completed: kernels completed
 * @cancelled: kernels cancelled (by CANCEL, channel destroy or close)
 * @hangs: kernels cancelled by their channel's hang timeout (F53)
 * @epochs: epochs run
 * @failed: kernels that failed (a LAUNCH beyond a limit in their tree, F15)
 * @teardown_max: most kernels a teardown (close, channel destroy) cancelled
 *	in one hold of &vgpu_sched.lock (at most VGPU_SCHED_BATCH)
 */
struct vgpu_sched_stats {
	u64 submitted;
	u64 completed;
	u64 cancelled;
	u64 hangs;
	u64 epochs;
	u64 failed;
	u64 teardown_max;
};

/**
 * struct vgpu_sched - the scheduler of one device
 * @vdev: the device
 * @ops: the backend ops of its user, immutable
 * @lock: serialises every call into the core except the workers' SM
 *	advance, which runs while the controller holds it
 * @gpu: the core's global controller, in @mem; protected by @lock
 * @mem: memory of the core (vgpu_gpu_mem_size())
 * @fn_mem: functional memory of the core (vgpu_gpu_fn_bytes()), allocated
 *	by the first SUBMIT of a functional kernel (vgpu_sched_fn_enable()),
 *	NULL before; set under @lock, never cleared before vgpu_sched_fini()
 * @opts: options, immutable
 * @search: the core's search mode (low word) and group (high word) in
 *	force (vgpu_sched_search_word()), for SUBMIT's check without @lock
 *	(vgpu_gpu_kernel_prepare()); written under @lock with WRITE_ONCE()
 * @ctl: controller thread
 * @ctl_wq: the controller sleeps here while the device is idle
 * @workers: worker threads
 * @nworkers: their number
 * @epoch: current epoch number; written by the controller
 * @pending: SMs of the kicked workers not yet advanced in the current
 *	epoch
 * @epoch_wq: the thread running an epoch sleeps here until @pending is 0
 * @done_wq: WAIT and poll() sleep here; woken at every kernel completion
 * @live: kernels handed to the core and unfinished (&vgpu_job.live_node),
 *	in submission order; walked only when a hang deadline passed;
 *	protected by @lock
 * @nr_live: entries in @live; protected by @lock
 * @incoming: kernels SUBMIT queued for the controller to hand to the core
 *	(&vgpu_job.live_node); protected by @incoming_lock
 * @incoming_push: QUEUE_PUSHes for the controller to hand to the core
 *	after the kernels of @incoming (&vgpu_qpush.node, F14); protected by
 *	@incoming_lock
 * @incoming_lock: protects @incoming and @incoming_push; innermost lock
 * @nr_pushes: push records allocated (on their way, in the core or on
 *	@push_dead), at most &vgpu_limits.queued (-EAGAIN beyond)
 * @push_dead: push records nobody needs any more (&vgpu_qpush.node),
 *	freed by vgpu_sched_unlock() once @lock is dropped, so that a
 *	teardown of thousands does not hold @lock while it frees; protected
 *	by @lock
 * @nr_unfinished: kernels submitted and not finished, queued ones included
 * @gate_holds: files holding the gate (F52); protected by @lock
 * @chan_ids: core channel numbers in use; protected by @lock
 * @next_id: kernel id for the next submission; protected by @lock
 * @stats: counters; protected by @lock
 * @work: something is queued or resident; written under @lock
 * @dispatched: the core has dispatched at the current boundary, the SMs
 *	have not moved and no kernel or push was linked since; protected by
 *	@lock
 * @stopped: the device is being removed: no epoch runs any more;
 *	protected by @lock
 * @hang_next: no dispatched kernel hangs before this many busy cycles
 *	(&vgpu_gpu.now - &vgpu_gpu.skipped), U64_MAX if none is dispatched;
 *	lowered by each dispatch, recomputed when passed; protected by @lock
 * @paced_idle: the device was idle since the paced clock's origin was set;
 *	protected by @lock
 * @paced_start_ns: wall time of the paced clock's origin
 * @paced_start_cycle: virtual cycle of the paced clock's origin
 * @kick_timer: the controller's deferred wake-up (free-running clock)
 * @helpers: threads in WAIT running epochs (vgpu_sched_help_begin())
 */
struct vgpu_sched {
	struct vgpu_device *vdev;
	const struct vgpu_sched_backend_ops *ops;
	struct mutex lock; /* see above */
	struct vgpu_gpu *gpu;
	void *mem;
	void *fn_mem;
	struct vgpu_sched_opts opts;
	u64 search;
	struct task_struct *ctl;
	wait_queue_head_t ctl_wq;
	struct vgpu_worker *workers;
	u32 nworkers;
	unsigned long epoch;
	atomic_t pending;
	wait_queue_head_t epoch_wq;
	wait_queue_head_t done_wq;
	struct list_head live;
	u32 nr_live;
	struct list_head incoming;
	struct list_head incoming_push;
	spinlock_t incoming_lock; /* protects @incoming, @incoming_push */
	atomic_t nr_pushes;
	struct list_head push_dead;
	atomic_t nr_unfinished;
	u32 gate_holds;
	unsigned long *chan_ids;
	u32 next_id;
	struct vgpu_sched_stats stats;
	bool work;
	bool dispatched;
	bool stopped;
	u64 hang_next;
	bool paced_idle;
	u64 paced_start_ns;
	u64 paced_start_cycle;
	struct hrtimer kick_timer;
	atomic_t helpers;
};

/* The search mode and group of @p as one word (&vgpu_sched.search). */
static inline u64 vgpu_sched_search_word(const struct vgpu_gpu_params *p)
{
	return (u64)p->search_group << 32 | p->search;
}

/* Programs up to this long live in their &struct vgpu_job. */
#define VGPU_JOB_INLINE_INSNS	8

/*
 * Kernels cancelled, or push records freed, in a row by a teardown: a file
 * closing with 4,096 kernels drops &vgpu_sched.lock between batches, so
 * the other users of the device are not held up for all of them.
 */
#define VGPU_SCHED_BATCH	16

/**
 * struct vgpu_job - a kernel submitted through a file (a job, in the DRM
 * scheduler's word; the core's &vgpu_gpu_kernel is inside)
 * @k: the core's descriptor; protected by &vgpu_sched.lock
 * @prog: the program, copied from userspace and validated: in
 *	@prog_inline, or one allocation holding @prog then @match
 * @match: LOOP/ENDLOOP links of @prog, filled by the core
 * @tmpl: its child templates (F15), @k.args.n_tmpl entries with their programs
 *	and links, or NULL; the core uses them until @k is finished
 * @child_store: descriptors of its tree's children, @k.args.child_budget of
 *	them (F15), or NULL
 * @push_target: the queue kernel its PUSH instructions feed (F14), a
 *	reference held until this job is freed; NULL without PUSH
 * @dev_push: (queue kernel, F14) records of the PUSHes feeding it,
 *	@k.args.n_dev_push of them, or NULL; the core uses them until @k is
 *	finished
 * @bytes: program bytes charged to the owner, the templates' and the push
 *	records' included
 * @owner: the file it belongs to
 * @ch: its channel
 * @handle: handle in the owner's table, immutable
 * @user_data: as submitted, immutable
 * @timeout: hang timeout in virtual cycles (its channel's), immutable
 * @error: 0, -ECANCELED, -ETIMEDOUT, or the core's error of a failed
 *	kernel (-ELOOP, -EDQUOT, F15); protected by &vgpu_sched.lock
 * @finished: the core is done with @k; set under &vgpu_sched.lock, read
 *	locklessly by waiters
 * @linked: handed to the core; protected by &vgpu_sched.lock
 * @q_last: arrival cycle of its latest push; protected by
 *	&vgpu_sched.lock
 * @q_closing: a push with VGPU_QUEUE_CLOSE was made; protected by
 *	&vgpu_sched.lock
 * @fence: its out-fence (VGPU_KERNEL_FENCE_OUT, vgpu_fence.c) until it is
 *	signalled, or NULL; protected by &vgpu_sched.lock once submitted
 * @bo: the buffers its SUBMIT named, buffer slot i in entry i
 *	(vgpu_bo.c), each with a reference held until the handle is
 *	released (or the SUBMIT failed); written before the job is submitted
 * @slots: the same buffers as the core's functional kernels see them
 *	(base, size, read-only or constant), slot i for entry i of @bo; the rest
 *	unnamed
 * @nbo: entries of @bo; 0 once the references are dropped
 * @bo_active: the job counts in &vgpu_bo.active of each of @bo: from SUBMIT
 *	until it finishes (vgpu_job_bos_idle()); protected by
 *	&vgpu_sched.lock once submitted
 * @live_node: link in &vgpu_sched.incoming, then in &vgpu_sched.live while
 *	unfinished
 * @ch_node: link in &vgpu_channel.kernels while the handle exists
 * @ref: the handle table holds one reference, every waiter one
 * @prog_inline: short programs, saving SUBMIT two allocations (F60)
 * @match_inline: their links
 */
struct vgpu_job {
	struct vgpu_gpu_kernel k;
	struct vgpu_insn *prog;
	u16 *match;
	struct vgpu_gpu_template *tmpl;
	struct vgpu_gpu_kernel *child_store;
	struct vgpu_job *push_target;
	struct vgpu_gpu_push *dev_push;
	u64 bytes;
	struct vgpu_file *owner;
	struct vgpu_channel *ch;
	u32 handle;
	u64 user_data;
	u64 timeout;
	int error;
	bool finished;
	bool linked;
	u64 q_last;
	bool q_closing;
	struct dma_fence *fence;
	struct vgpu_bo *bo[VGPU_MAX_BUFFER_SLOTS];
	struct vgpu_lane_slot slots[VGPU_MAX_BUFFER_SLOTS];
	u32 nbo;
	bool bo_active;
	struct list_head live_node;
	struct list_head ch_node;
	struct kref ref;
	struct vgpu_insn prog_inline[VGPU_JOB_INLINE_INSNS];
	u16 match_inline[VGPU_JOB_INLINE_INSNS];
};

/**
 * struct vgpu_qpush - a QUEUE_PUSH on its way to the core (F14)
 * @p: the core's record; the core owns it from vgpu_gpu_queue_push() until
 *	vgpu_gpu_push_reap() returns it
 * @job: its kernel, a reference held while the push is on
 *	&vgpu_sched.incoming_push
 * @node: link in &vgpu_sched.incoming_push
 */
struct vgpu_qpush {
	struct vgpu_gpu_push p;
	struct vgpu_job *job;
	struct list_head node;
};

bool vgpu_policy_exists(const char *name);
int vgpu_policy_use(struct vgpu_gpu *g, const char *name);
void vgpu_policy_ejected(struct vgpu_policy_reg *old,
			 struct vgpu_policy_reg *now);
int vgpu_policy_gpu_init(struct vgpu_gpu *g, void *mem, size_t size,
			 const struct vgpu_config *cfg,
			 const struct vgpu_gpu_params *p,
			 const struct vgpu_gpu_host_ops *ops, void *host);
void vgpu_policy_gpu_fini(struct vgpu_gpu *g);

const char *vgpu_sched_clock_name(u32 clock);
int vgpu_sched_clock_parse(const char *name);
void vgpu_sched_opts_default(struct vgpu_sched_opts *o,
			     const struct vgpu_config *cfg);
int vgpu_sched_opts_check(const struct vgpu_sched_opts *o,
			  const struct vgpu_config *cfg, const char **bad);
int vgpu_sched_init(struct vgpu_sched *s, struct vgpu_device *vdev,
		    const struct vgpu_sched_opts *opts,
		    const struct vgpu_sched_backend_ops *ops);
void vgpu_sched_stop(struct vgpu_sched *s);
bool vgpu_sched_help_begin(struct vgpu_sched *s);
bool vgpu_sched_help(struct vgpu_sched *s);
void vgpu_sched_help_end(struct vgpu_sched *s);
void vgpu_sched_kick(struct vgpu_sched *s);
void vgpu_sched_fini(struct vgpu_sched *s);

/*
 * Wall time a worker spins for the next epoch, and the thread running an
 * epoch for the workers' SMs, before sleeping (vgpu_sched_advance()).
 */
#define VGPU_SCHED_SPIN_NS	(100 * NSEC_PER_USEC)

extern const struct vgpu_gpu_host_ops vgpu_sched_host_ops;

/* vgpu_sched_thread.c's threads and timer run these (vgpu_sched.c) */
void vgpu_sched_epoch(struct vgpu_sched *s);
void vgpu_sched_worker_run(struct vgpu_sched *s, struct vgpu_worker *w);
enum hrtimer_restart vgpu_sched_kick_fn(struct hrtimer *t);

int vgpu_sched_channel_add(struct vgpu_sched *s, u32 prio, u32 *core_ch);
void vgpu_sched_channel_remove(struct vgpu_sched *s, u32 core_ch);
int vgpu_sched_fn_enable(struct vgpu_sched *s);
int vgpu_sched_submit(struct vgpu_sched *s, struct vgpu_job **jobs, u32 n);
void vgpu_sched_push_locked(struct vgpu_sched *s, struct vgpu_qpush *qp);
void vgpu_sched_unlock(struct vgpu_sched *s);
void vgpu_sched_cancel_locked(struct vgpu_sched *s, struct vgpu_job *job,
			      int error);
int vgpu_sched_gate(struct vgpu_sched *s, bool hold, u64 *cycle);
int vgpu_sched_policy_set_locked(struct vgpu_sched *s, const char *name);

#endif /* VGPU_SCHED_H */
