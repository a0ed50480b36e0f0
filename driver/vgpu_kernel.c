// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_kernel.c - kernels submitted through a file, &struct vgpu_job: the
 * ioctls SUBMIT, WAIT, QUERY, CANCEL and QUEUE_PUSH (F10, F14, F53,
 * F60).
 *
 * A job lives in its file's kernel table under a handle.  The
 * table's reference and any waiter's keep it allocated; the core stops
 * looking at it once it is finished (completed or cancelled), and a handle
 * is only released (QUERY with VGPU_QUERY_RELEASE, or close) after that.
 */
#include <linux/bitmap.h>
#include <linux/capability.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "vgpu_compat.h"
#include "vgpu_drv.h"
#include "check.h"
#include "isa.h"

/*
 * Every &struct vgpu_job (SUBMIT makes one per kernel, F60).  Hardened
 * usercopy: user data is copied into the inline program only.
 */
static struct kmem_cache *vgpu_job_cache;

/**
 * vgpu_jobs_init() - create the slab cache of kernel objects
 *
 * Return: 0 or -ENOMEM.
 */
int vgpu_jobs_init(void)
{
	vgpu_job_cache =
		kmem_cache_create_usercopy("vgpu_job", sizeof(struct vgpu_job),
					   0, 0,
					   offsetof(struct vgpu_job, prog_inline),
					   sizeof_field(struct vgpu_job,
							prog_inline),
					   NULL);
	return vgpu_job_cache ? 0 : -ENOMEM;
}

/**
 * vgpu_jobs_exit() - destroy the slab cache; every job is freed (no file
 * is open)
 */
void vgpu_jobs_exit(void)
{
	kmem_cache_destroy(vgpu_job_cache);
}

/* Zero bytes @from to @to of @job. */
static void vgpu_job_zero(struct vgpu_job *job, size_t from, size_t to)
{
	memset((u8 *)job + from, 0, to - from);
}

/*
 * Clear a job but for what is written before anyone reads it: the
 * affinity mask (read by the core only when SUBMIT gives one, which
 * vgpu_job_create() then writes whole), the block descriptors
 * (vgpu_gpu_submit() builds @desc, a split copies it into @split_desc)
 * and the inline program (copied from the user, read up to its length).
 * They are half the job's 1.7 KiB.
 */
static void vgpu_job_clear(struct vgpu_job *job)
{
	BUILD_BUG_ON(offsetofend(struct vgpu_job, k.args.affinity) >
		     offsetof(struct vgpu_job, k.desc));
	BUILD_BUG_ON(offsetofend(struct vgpu_job, k.desc) !=
		     offsetof(struct vgpu_job, k.split_desc));
	BUILD_BUG_ON(offsetofend(struct vgpu_job, k.split_desc) >
		     offsetof(struct vgpu_job, prog_inline));
	vgpu_job_zero(job, 0, offsetof(struct vgpu_job, k.args.affinity));
	vgpu_job_zero(job, offsetofend(struct vgpu_job, k.args.affinity),
		      offsetof(struct vgpu_job, k.desc));
	vgpu_job_zero(job, offsetofend(struct vgpu_job, k.split_desc),
		      offsetof(struct vgpu_job, prog_inline));
	vgpu_job_zero(job, offsetofend(struct vgpu_job, prog_inline),
		      sizeof(*job));
}

/* A cleared kernel object (vgpu_job_clear()). */
static struct vgpu_job *vgpu_job_alloc(void)
{
	struct vgpu_job *job = kmem_cache_alloc(vgpu_job_cache, GFP_KERNEL);

	if (job)
		vgpu_job_clear(job);
	return job;
}

/*
 * Free @job, then drop the reference it holds on its PUSH target (F14)
 * and free that one too if it was the last, and so on: iteratively, as a
 * chain of queue kernels feeding each other is as long as a file makes it.
 */
static void vgpu_job_free(struct vgpu_job *job)
{
	struct vgpu_job *next;
	u32 i;

	do {
		next = job->push_target;
		/* 0 once its handle was released: only a failed SUBMIT's */
		vgpu_job_bos_put(job);
		for (i = 0; job->tmpl && i < job->k.args.n_tmpl; i++) {
			kvfree(job->tmpl[i].match);
			kvfree(job->tmpl[i].prog);
		}
		kfree(job->tmpl);
		kvfree(job->child_store);
		kvfree(job->dev_push);
		if (job->prog != job->prog_inline)
			kvfree(job->prog);	/* @match is in the same block */
		kmem_cache_free(vgpu_job_cache, job);
		job = next;
	} while (job && refcount_dec_and_test(&job->ref.refcount));
}

static void vgpu_job_release(struct kref *ref)
{
	vgpu_job_free(container_of(ref, struct vgpu_job, ref));
}

/* Drop a reference on a job; the last one frees it. */
static void vgpu_job_put(struct vgpu_job *job)
{
	kref_put(&job->ref, vgpu_job_release);
}

/* What the scheduler hands back through (vgpu_sched_init()). */
const struct vgpu_sched_backend_ops vgpu_job_backend_ops = {
	.put_job	= vgpu_job_put,
};

/* The job of @handle in @vf, or NULL.  Under vf->lock. */
static struct vgpu_job *vgpu_job_lookup(struct vgpu_file *vf, u32 handle)
{
	lockdep_assert_held(&vf->lock);
	return xa_load(&vf->kernels, handle);
}

/*
 * Give @job the next handle of @vf, cyclically in 1..2^31 - 1: a released
 * handle names nothing until the handle space wraps.  Under vf->lock.
 * SUBMIT bounds the file's kernels (kernels_per_file) beforehand.
 *
 * Return: 0, -EBUSY (every handle in use) or -ENOMEM.
 */
static int vgpu_job_handle_add(struct vgpu_file *vf, struct vgpu_job *job)
{
	int ret;

	lockdep_assert_held(&vf->lock);
	ret = xa_alloc_cyclic(&vf->kernels, &job->handle, job, xa_limit_31b,
			      &vf->next_kernel, GFP_KERNEL);
	return ret < 0 ? ret : 0;
}

/* Take @job's handle out of @vf's table.  Under vf->lock. */
static void vgpu_job_handle_del(struct vgpu_file *vf, struct vgpu_job *job)
{
	lockdep_assert_held(&vf->lock);
	xa_erase(&vf->kernels, job->handle);
}

/* Drop @job's handle; it must be finished.  Under vf->lock. */
static void vgpu_job_unlink(struct vgpu_file *vf, struct vgpu_job *job)
{
	lockdep_assert_held(&vf->lock);
	vgpu_job_handle_del(vf, job);
	if (job->ch)
		list_del(&job->ch_node);
	job->ch = NULL;
	vf->nr_kernels--;
	vf->nr_children -= job->k.args.child_budget;
	vf->prog_bytes -= job->bytes;
	atomic_dec(&vf->nr_done);
	/* while the file is known to be open: the job may outlive it */
	vgpu_job_bos_put(job);
	vgpu_job_put(job);
}

/* A teardown cancelled @n kernels in this hold of s->lock: keep the most. */
static void vgpu_jobs_teardown_note(struct vgpu_sched *s, unsigned int n)
{
	lockdep_assert_held(&s->lock);
	if (n > s->stats.teardown_max)
		s->stats.teardown_max = n;
}

/*
 * Cancel @job in a teardown, s->lock held; every VGPU_SCHED_BATCH kernels
 * (*@n counts them) the lock is dropped once, so that a teardown of
 * thousands does not hold up the other users of the device.
 */
static void vgpu_jobs_teardown_cancel(struct vgpu_sched *s,
				      struct vgpu_job *job, unsigned int *n)
{
	vgpu_sched_cancel_locked(s, job, -ECANCELED);
	if (++*n < VGPU_SCHED_BATCH)
		return;
	vgpu_jobs_teardown_note(s, *n);
	*n = 0;
	vgpu_sched_unlock(s);
	cond_resched();
	mutex_lock(&s->lock);
}

/**
 * vgpu_jobs_cancel_channel() - cancel every kernel of a channel
 * @vf: the owning file, locked
 * @ch: the channel; its kernels lose their channel link
 *
 * &vgpu_sched.lock is dropped every VGPU_SCHED_BATCH kernels: a channel of
 * thousands does not hold up the other users of the device.
 */
void vgpu_jobs_cancel_channel(struct vgpu_file *vf, struct vgpu_channel *ch)
{
	struct vgpu_sched *s = &vf->vdev->sched;
	struct vgpu_job *job;
	unsigned int n = 0;

	lockdep_assert_held(&vf->lock);
	mutex_lock(&s->lock);
	while ((job = list_first_entry_or_null(&ch->kernels, struct vgpu_job,
					       ch_node))) {
		vgpu_jobs_teardown_cancel(s, job, &n);
		list_del(&job->ch_node);	/* the list is under vf->lock */
		job->ch = NULL;
	}
	vgpu_jobs_teardown_note(s, n);
	vgpu_sched_unlock(s);
}

/**
 * vgpu_jobs_release_all() - cancel and free every kernel of a file
 * @vf: the file, locked, being released
 *
 * Linear in the file's kernels, and &vgpu_sched.lock is dropped every
 * VGPU_SCHED_BATCH of them (nothing else can reach the file's kernels, the
 * core has forgotten the ones already cancelled): closing a file with
 * 4,096 queued kernels does not hold up the other users of the device.
 */
void vgpu_jobs_release_all(struct vgpu_file *vf)
{
	struct vgpu_sched *s = &vf->vdev->sched;
	struct vgpu_job *job;
	unsigned long handle;
	unsigned int n = 0;

	lockdep_assert_held(&vf->lock);
	mutex_lock(&s->lock);
	xa_for_each(&vf->kernels, handle, job)
		vgpu_jobs_teardown_cancel(s, job, &n);
	vgpu_jobs_teardown_note(s, n);
	vgpu_sched_unlock(s);
	/* the file goes: no handle to drop one by one, no count to keep */
	n = 0;
	xa_for_each(&vf->kernels, handle, job) {
		if (job->ch)
			list_del(&job->ch_node);
		job->ch = NULL;
		vgpu_job_bos_put(job);
		vgpu_job_put(job);
		if (!(++n % VGPU_SCHED_BATCH))
			cond_resched();
	}
	xa_destroy(&vf->kernels);
	vf->nr_kernels = 0;
	vf->nr_children = 0;
	vf->prog_bytes = 0;
	atomic_set(&vf->nr_done, 0);
}

/*
 * Check one descriptor against the uapi rules: its flags and pads, the
 * uapi's maxima, the bounds of what SUBMIT allocates and copies for it, its
 * priority.  What the core would refuse, vgpu_gpu_kernel_check() tells
 * once the kernel is built (vgpu_job_create()).
 */
static int vgpu_desc_check(const struct vgpu_device *vdev,
			   const struct vgpu_submit_desc *d)
{
	const struct vgpu_config *cfg = &vdev->cfg;
	u32 min_bits = round_up(cfg->num_sms, 64);

	if (d->flags & ~VGPU_KERNEL_FLAGS_ALL || d->pad2 || d->handle ||
	    d->pad3)
		return -EINVAL;
	if (d->grid > VGPU_MAX_GRID)
		return -EINVAL;
	/* F15: templates and the child budget, allocated for it */
	if (d->num_templates > VGPU_MAX_TEMPLATES ||
	    d->child_budget > VGPU_MAX_CHILDREN)
		return -EINVAL;
	if (!d->num_templates && (d->templates || d->template_size))
		return -EINVAL;
	if (d->num_templates && (d->template_size < VGPU_TEMPLATE_SIZE_VER0 ||
				 d->template_size > PAGE_SIZE ||
				 d->template_size % 8))
		return -EINVAL;
	if (d->flags & VGPU_KERNEL_PRIORITY) {
		if (d->priority >= cfg->num_prios)
			return -EINVAL;
		if (d->priority < vdev->default_prio && !capable(CAP_SYS_NICE))
			return -EPERM;
	} else if (d->priority) {
		return -EINVAL;
	}
	if (!d->threads || d->threads > cfg->max_threads_per_block)
		return -EINVAL;
	if (!d->regs || d->regs > VGPU_MAX_REGS_PER_THREAD)
		return -EINVAL;
	if (d->smem > cfg->smem_max_per_block)
		return -EINVAL;
	if (!d->num_insns || d->num_insns > VGPU_ISA_MAX_INSNS)
		return -EINVAL;
	if (d->arrival > vdev->limits.max_arrival)
		return -EINVAL;
	if (!d->affinity != !d->affinity_bits)
		return -EINVAL;
	if (d->affinity && (d->affinity_bits % 64 || d->affinity_bits < min_bits ||
			    d->affinity_bits > VGPU_MAX_AFFINITY_BITS))
		return -EINVAL;
	/* F35: one level per warp, bounded before anything is copied */
	if (!d->warp_prio != !d->num_warp_prio ||
	    d->num_warp_prio > VGPU_MAX_BLOCK_WARPS)
		return -EINVAL;
	/* F14: a queue kernel's records of PUSHes, allocated for it */
	if (d->push_records && (!(d->flags & VGPU_KERNEL_QUEUE) ||
				d->push_records > d->queue_cap))
		return -EINVAL;
	return 0;
}

static bool vgpu_job_finished(struct vgpu_job *job)
{
	/* pairs with the release in vgpu_sched_job_complete() */
	return smp_load_acquire(&job->finished);
}

/*
 * F14: the queue kernel @d's PUSH instructions feed, referenced into
 * @job; a kernel of @vf that can still take items.  Under vf->lock, which
 * QUEUE_PUSH holds when it closes a queue.
 */
static int vgpu_job_push_target(struct vgpu_file *vf, struct vgpu_job *job,
				const struct vgpu_submit_desc *d)
{
	struct vgpu_job *q;

	lockdep_assert_held(&vf->lock);
	if (!d->push_to)
		return 0;
	q = vgpu_job_lookup(vf, d->push_to);
	if (!q)
		return -ENOENT;
	if (!(q->k.args.flags & VGPU_KF_QUEUE) || vgpu_job_finished(q) ||
	    q->q_closing)
		return -EINVAL;
	kref_get(&q->ref);
	job->push_target = q;
	job->k.args.push_to = &q->k;
	return 0;
}

/* What a kernel's or a template's flags mean to the core. */
static u32 vgpu_kernel_flags(u32 flags)
{
	return (flags & VGPU_KERNEL_INDEPENDENT ? VGPU_KF_INDEPENDENT : 0) |
	       (flags & VGPU_KERNEL_SEQUENTIAL ? VGPU_KF_SEQUENTIAL : 0) |
	       (flags & VGPU_KERNEL_THROTTLE ? VGPU_KF_THROTTLE : 0) |
	       (flags & VGPU_KERNEL_HEAD ? VGPU_KF_HEAD : 0) |
	       (flags & VGPU_KERNEL_QUEUE ? VGPU_KF_QUEUE : 0);
}

/*
 * Copy, validate and charge the child templates of @d into @job (F15).
 * On error what was allocated stays in @job for vgpu_job_free().
 */
static int vgpu_job_templates(struct vgpu_job *job,
			      const struct vgpu_submit_desc *d,
			      const struct vgpu_config *cfg)
{
	u8 __user *ut = u64_to_user_ptr(d->templates);
	struct vgpu_gpu_template *gt;
	struct vgpu_isa_error err;
	struct vgpu_template t;
	struct vgpu_insn *prog;
	u32 i;
	int ret;

	if (!d->num_templates)
		return 0;
	job->tmpl = kcalloc(d->num_templates, sizeof(*job->tmpl), GFP_KERNEL);
	if (!job->tmpl)
		return -ENOMEM;
	job->k.args.n_tmpl = d->num_templates;
	for (i = 0; i < d->num_templates; i++) {
		ret = copy_struct_from_user(&t, sizeof(t),
					    ut + (size_t)i * d->template_size,
					    d->template_size);
		if (ret)
			return ret;
		if (t.flags & ~VGPU_TEMPLATE_FLAGS_ALL ||
		    !t.grid || t.grid > VGPU_MAX_GRID ||
		    !t.threads || t.threads > cfg->max_threads_per_block ||
		    !t.regs || t.regs > VGPU_MAX_REGS_PER_THREAD ||
		    t.smem > cfg->smem_max_per_block ||
		    !t.num_insns || t.num_insns > VGPU_ISA_MAX_INSNS)
			return -EINVAL;
		gt = &job->tmpl[i];
		prog = kvmalloc_array(t.num_insns, sizeof(*prog), GFP_KERNEL);
		gt->prog = prog;
		gt->match = kvmalloc_array(t.num_insns, sizeof(*gt->match),
					   GFP_KERNEL);
		if (!prog || !gt->match)
			return -ENOMEM;
		if (copy_from_user(prog, u64_to_user_ptr(t.program),
				   array_size(t.num_insns, sizeof(*prog))))
			return -EFAULT;
		ret = vgpu_isa_validate(prog, t.num_insns, &err);
		if (ret) {
			pr_debug("vgpu_dispatch: template %u rejected: rule %u at instruction %u\n",
				 i, err.rule, err.index);
			return ret;
		}
		gt->grid = t.grid;
		gt->threads = t.threads;
		gt->regs = t.regs;
		gt->smem = t.smem;
		gt->flags = vgpu_kernel_flags(t.flags);
		gt->n_insns = t.num_insns;
		job->bytes += (u64)t.num_insns * sizeof(*prog);
	}
	job->k.args.tmpl = job->tmpl;
	return 0;
}

/*
 * Copy @len bytes (an affinity mask of at most VGPU_GPU_AFF_WORDS words, or
 * warp levels) from user address @uptr into the job, through the stack in
 * pieces of 128 bytes: hardened usercopy lets user data into the job's
 * inline program only.
 */
static int vgpu_job_copy_in(void *dst, u64 uptr, u32 len)
{
	u64 buf[16];
	u32 n;

	BUILD_BUG_ON(sizeof(buf) < VGPU_MAX_BLOCK_WARPS);
	BUILD_BUG_ON(VGPU_GPU_AFF_WORDS * 64 != VGPU_MAX_AFFINITY_BITS);
	if (WARN_ON_ONCE(len > VGPU_GPU_AFF_WORDS * sizeof(u64)))
		return -EINVAL;
	for (; len; len -= n, uptr += n, dst += n) {
		n = min_t(u32, len, sizeof(buf));
		if (copy_from_user(buf, u64_to_user_ptr(uptr), n))
			return -EFAULT;
		memcpy(dst, buf, n);
	}
	return 0;
}

/* Kernels of a SUBMIT whose pointers live on its stack. */
#define VGPU_SUBMIT_ONSTACK	8

/* Build one kernel object from a checked descriptor. */
static int vgpu_job_create(struct vgpu_file *vf,
			   const struct vgpu_submit_desc *d,
			   struct vgpu_job **out)
{
	struct vgpu_device *vdev = vf->vdev;
	struct vgpu_gpu_params p = {};
	struct vgpu_isa_error err;
	struct vgpu_channel *ch;
	struct vgpu_job *job;
	u64 search;
	int ret;

	lockdep_assert_held(&vf->lock);
	ch = xa_load(&vf->channels, d->channel);
	if (!ch)
		return -ENOENT;

	if (vgpu_obs_should_fail(&vdev->obs.fail_alloc))	/* debugfs knob */
		return -ENOMEM;
	job = vgpu_job_alloc();
	if (!job)
		return -ENOMEM;
	kref_init(&job->ref);
	INIT_LIST_HEAD(&job->live_node);
	INIT_LIST_HEAD(&job->ch_node);
	job->owner = vf;
	job->ch = ch;
	job->user_data = d->user_data;
	job->timeout = ch->timeout;

	if (d->num_insns <= VGPU_JOB_INLINE_INSNS) {
		job->prog = job->prog_inline;
		job->match = job->match_inline;
	} else {
		/* num_insns is bounded by vgpu_desc_check(): no overflow */
		job->prog = kvmalloc(d->num_insns * (sizeof(*job->prog) +
						    sizeof(*job->match)),
				    GFP_KERNEL);
		ret = -ENOMEM;
		if (!job->prog)
			goto err_free;
		job->match = (u16 *)(job->prog + d->num_insns);
	}
	ret = -EFAULT;
	if (copy_from_user(job->prog, u64_to_user_ptr(d->program),
			   array_size(d->num_insns, sizeof(*job->prog))))
		goto err_free;
	ret = vgpu_isa_validate_flags(job->prog, d->num_insns,
				      VGPU_ISA_FUNCTIONAL, &err);
	if (ret) {
		pr_debug("vgpu_dispatch: program rejected: rule %u at instruction %u\n",
			 err.rule, err.index);
		goto err_free;
	}
	/* through the stack: the job cache takes user data only in prog_inline */
	if (d->affinity) {
		/* the core reads all of a mask given (words past the SMs too) */
		memset(job->k.args.affinity + d->affinity_bits / 64, 0,
		       sizeof(job->k.args.affinity) - d->affinity_bits / 8);
		ret = vgpu_job_copy_in(job->k.args.affinity, d->affinity,
				       d->affinity_bits / 8);
		if (ret)
			goto err_free;
	}
	ret = vgpu_job_copy_in(job->k.args.warp_prio, d->warp_prio,
			       d->num_warp_prio);
	if (ret)
		goto err_free;
	job->k.args.n_warp_prio = d->num_warp_prio;

	ret = vgpu_job_templates(job, d, &vdev->cfg);
	if (ret)
		goto err_free;
	if (d->child_budget) {
		job->child_store = kvmalloc_array(d->child_budget,
						  sizeof(*job->child_store),
						  GFP_KERNEL);
		ret = -ENOMEM;
		if (!job->child_store)
			goto err_free;
	}
	job->k.args.child_budget = d->child_budget;
	job->k.args.child_store = job->child_store;
	ret = vgpu_job_push_target(vf, job, d);
	if (ret)
		goto err_free;
	ret = vgpu_job_bos_name(vf, job, d);
	if (ret)
		goto err_free;
	if (d->push_records) {
		/* charged as program bytes: refuse before allocating */
		ret = -ENOSPC;
		if ((u64)d->push_records * sizeof(*job->dev_push) >
		    vdev->limits.prog_bytes_per_file)
			goto err_free;
		job->dev_push = kvcalloc(d->push_records,
					 sizeof(*job->dev_push), GFP_KERNEL);
		ret = -ENOMEM;
		if (!job->dev_push)
			goto err_free;
		job->bytes += (u64)d->push_records * sizeof(*job->dev_push);
	}
	job->k.args.dev_push = job->dev_push;
	job->k.args.n_dev_push = d->push_records;
	/* uapi: a mask given names SMs (an all-zero one means all to the core) */
	ret = -EINVAL;
	if (d->affinity && !memchr_inv(job->k.args.affinity, 0, d->affinity_bits / 8))
		goto err_free;

	job->k.args.channel = ch->core_ch;
	job->k.args.prio = d->flags & VGPU_KERNEL_PRIORITY ? d->priority : ch->prio;
	job->k.args.grid = d->grid;
	job->k.args.threads = d->threads;
	job->k.args.regs = d->regs;
	job->k.args.smem = d->smem;
	job->k.args.sregs = d->sregs;
	job->k.args.flags = vgpu_kernel_flags(d->flags);
	job->k.args.queue_n = d->queue_n;
	job->k.args.queue_cap = d->queue_cap;
	job->k.args.queue_timeout = d->queue_timeout;
	job->k.args.quota = d->quota;
	job->k.args.deadline = d->deadline;
	job->k.args.tenant = vf->tenant;
	job->k.args.arrival = d->arrival;	/* relative; vgpu_sched_submit() adds now */
	/* the core then neither scans nor checks the (zero) mask */
	job->k.args.no_affinity = !d->affinity;
	/* until the controller hands it to the core, nothing has happened */
	job->k.state = VGPU_KS_NEW;
	job->k.t.submit = VGPU_GPU_NO_CYCLE;
	job->k.t.dispatch = VGPU_GPU_NO_CYCLE;
	job->k.t.start = VGPU_GPU_NO_CYCLE;
	job->k.t.end = VGPU_GPU_NO_CYCLE;
	job->k.args.prog = job->prog;
	job->k.args.match = job->match;
	job->k.args.n_insns = d->num_insns;
	job->bytes += (u64)d->num_insns * sizeof(struct vgpu_insn);
	/*
	 * What the core would refuse: the submission is all or nothing, so
	 * every kernel is checked before any goes in, and the controller's
	 * vgpu_gpu_submit() then takes it.
	 */
	/* functional programs (seed 004) compute in the named buffers */
	job->k.args.fn = true;
	job->k.args.priv_bytes = d->private_bytes;
	job->k.args.insn_budget = d->insn_budget;
	job->k.args.slots = job->slots;
	/* the search mode in force (the core checks it again at link) */
	search = READ_ONCE(vdev->sched.search);
	p.search = lower_32_bits(search);
	p.search_group = upper_32_bits(search);
	ret = vgpu_gpu_kernel_prepare(&vdev->cfg, &p, &job->k);
	if (!ret && job->k.desc.sum.uses_functional)
		ret = vgpu_sched_fn_enable(&vdev->sched);
	if (ret)
		goto err_free;
	*out = job;
	return 0;

err_free:
	vgpu_job_free(job);
	return ret;
}

/*
 * Write each kernel's handle (@give) or 0 (taking them back, best effort)
 * into the caller's descriptors.  -EFAULT if one could not be written.
 */
static int vgpu_submit_put_handles(const struct vgpu_submit *sub,
				   u8 __user *udescs, struct vgpu_job **jobs,
				   u32 n, bool give)
{
	u32 __user *uh;
	u32 i;

	for (i = 0; i < n; i++) {
		uh = (u32 __user *)(udescs + (size_t)i * sub->desc_size +
				    offsetof(struct vgpu_submit_desc, handle));
		if (put_user(give ? jobs[i]->handle : 0, uh) && give)
			return -EFAULT;
	}
	return 0;
}

/**
 * vgpu_ioctl_submit() - VGPU_IOCTL_SUBMIT: one kernel or a batch, all or
 * nothing
 * @vf: the file
 * @arg: struct vgpu_submit
 *
 * Return: 0; -EINVAL (flags, pads, count, desc_size, a descriptor or its
 * program); -EPERM (a privileged priority without CAP_SYS_NICE); -E2BIG (a
 * block that can never fit an SM, or unknown non-zero descriptor bytes);
 * -EFAULT; -ENOENT (a channel, PUSH target or buffer not of this file);
 * -ENOSPC (kernel handles, child descriptors or program bytes of the file
 * at their limit, push records included); -EAGAIN
 * (the device's queue is full); -ENOMEM; -EMFILE (no file descriptor for an
 * out-fence); -EOPNOTSUPP (an out-fence without CONFIG_SYNC_FILE).
 */
int vgpu_ioctl_submit(struct vgpu_file *vf, void *arg)
{
	struct vgpu_device *vdev = vf->vdev;
	struct vgpu_submit *sub = arg;
	/* the common single-kernel SUBMIT allocates only its kernel */
	struct vgpu_job *jobs_buf[VGPU_SUBMIT_ONSTACK], **jobs = jobs_buf;
	struct vgpu_submit_desc d;
	struct vgpu_fence_out *fo = NULL;
	u8 __user *udescs;
	u64 bytes = 0, ndesc = 0, fenced = 0;
	u32 i, n = 0;
	int ret;

	if (sub->flags & ~VGPU_SUBMIT_FLAGS_ALL || sub->pad)
		return -EINVAL;
	if (!sub->count || sub->count > VGPU_MAX_SUBMIT)
		return -EINVAL;
	if (sub->desc_size < VGPU_SUBMIT_DESC_SIZE_VER0 ||
	    sub->desc_size > PAGE_SIZE || sub->desc_size % 8)
		return -EINVAL;
	udescs = u64_to_user_ptr(sub->descs);

	if (sub->count > VGPU_SUBMIT_ONSTACK) {
		jobs = kcalloc(sub->count, sizeof(*jobs), GFP_KERNEL);
		if (!jobs)
			return -ENOMEM;
	}

	mutex_lock(&vf->lock);
	for (n = 0; n < sub->count; n++) {
		u8 __user *ud = udescs + (size_t)n * sub->desc_size;

		ret = copy_struct_from_user(&d, sizeof(d), ud, sub->desc_size);
		if (ret)
			goto err_unwind;
		ret = vgpu_desc_check(vdev, &d);
		if (!ret)
			ret = vgpu_fence_desc_check(&d, sub->desc_size);
		if (!ret)
			ret = vgpu_bo_desc_check(&d);
		if (ret)
			goto err_unwind;
		if (d.flags & VGPU_KERNEL_FENCE_OUT)
			fenced |= BIT_ULL(n);
		/* the handle is written back after the commit: probe it now */
		if (put_user(0, (u32 __user *)(ud +
				offsetof(struct vgpu_submit_desc, handle)))) {
			ret = -EFAULT;
			goto err_unwind;
		}
		/* child descriptors count too (F15): refuse before allocating */
		ndesc += 1 + d.child_budget;
		ret = -ENOSPC;
		if (vf->nr_kernels + vf->nr_children + ndesc >
		    vdev->limits.kernels_per_file)
			goto err_unwind;
		ret = vgpu_job_create(vf, &d, &jobs[n]);
		if (ret)
			goto err_unwind;
		bytes += jobs[n]->bytes;
	}

	ret = -ENOSPC;
	if (vf->prog_bytes + bytes > vdev->limits.prog_bytes_per_file)
		goto err_unwind;

	for (i = 0; i < n; i++) {
		ret = vgpu_job_handle_add(vf, jobs[i]);
		if (ret) {
			while (i--)
				vgpu_job_handle_del(vf, jobs[i]);
			goto err_unwind;
		}
	}

	/*
	 * Hand the handles out before committing, so that a descriptor that
	 * became unwritable since it was probed (another thread's munmap)
	 * leaves nothing queued.  Nobody sees them meanwhile: lookups take
	 * vf->lock.
	 */
	ret = vgpu_submit_put_handles(sub, udescs, jobs, n, true);
	/* out-fences: made and written back now, installed after the commit */
	if (!ret)
		ret = vgpu_fence_out_prepare(vf, jobs, n, fenced, udescs,
					     sub->desc_size, &fo);
	if (!ret)
		ret = vgpu_sched_submit(&vdev->sched, jobs, n);
	if (ret) {
		vgpu_fence_out_abort(fo, jobs, udescs, sub->desc_size);
		vgpu_submit_put_handles(sub, udescs, jobs, n, false);
		for (i = 0; i < n; i++)
			vgpu_job_handle_del(vf, jobs[i]);
		goto err_unwind;
	}
	vgpu_fence_out_commit(fo);

	for (i = 0; i < n; i++)
		list_add_tail(&jobs[i]->ch_node, &jobs[i]->ch->kernels);
	vf->nr_kernels += n;
	vf->nr_children += ndesc - n;
	vf->prog_bytes += bytes;
	mutex_unlock(&vf->lock);
	if (jobs != jobs_buf)
		kfree(jobs);
	return ret;

err_unwind:
	mutex_unlock(&vf->lock);
	while (n--)
		vgpu_job_free(jobs[n]);
	if (jobs != jobs_buf)
		kfree(jobs);
	return ret;
}

/* Are the waited-for kernels done (any / all)?  Lowest finished index. */
static bool vgpu_wait_done(struct vgpu_job **jobs, u32 n, bool all, u32 *first)
{
	u32 i, done = 0;

	*first = n;
	for (i = 0; i < n; i++) {
		if (!vgpu_job_finished(jobs[i]))
			continue;
		if (*first == n)
			*first = i;
		done++;
	}
	return all ? done == n : done > 0;
}

static bool vgpu_wait_cond(struct vgpu_device *vdev, struct vgpu_job **jobs,
			   u32 n, bool all, u32 *first)
{
	return vgpu_wait_done(jobs, n, all, first) || !vgpu_device_alive(vdev);
}

/* Has the absolute CLOCK_MONOTONIC @deadline of a WAIT passed? */
static bool vgpu_wait_expired(s64 deadline)
{
	return deadline != VGPU_WAIT_FOREVER && deadline <= (s64)ktime_get_ns();
}

/* Handles WAIT copies onto its stack rather than allocating. */
#define VGPU_WAIT_ONSTACK	8

/* Epochs a waiter may run itself before it sleeps (vgpu_sched_help()). */
#define VGPU_WAIT_HELP_EPOCHS	64

/**
 * vgpu_ioctl_wait() - VGPU_IOCTL_WAIT
 * @vf: the file
 * @arg: struct vgpu_wait
 *
 * Return: 0; -EINVAL (flags, pad, first, count); -EFAULT; -ENOENT (a handle
 * not of this file); -ETIME (the absolute CLOCK_MONOTONIC timeout passed);
 * -ERESTARTSYS (signal); -ENODEV (the device was removed meanwhile).
 */
int vgpu_ioctl_wait(struct vgpu_file *vf, void *arg)
{
	struct vgpu_device *vdev = vf->vdev;
	struct vgpu_wait *w = arg;
	bool all = w->flags & VGPU_WAIT_ALL;
	wait_queue_head_t *wq;
	bool help;
	/* the common short waits need no allocation */
	struct vgpu_job *jobs_buf[VGPU_WAIT_ONSTACK], **jobs = jobs_buf;
	u32 handles_buf[VGPU_WAIT_ONSTACK], *handles = handles_buf;
	u32 i, n = 0, first = 0;
	ktime_t timeout;
	s64 rem, now;
	int ret;

	if (w->flags & ~VGPU_WAIT_FLAGS_ALL || w->pad || w->first)
		return -EINVAL;
	if (!w->count || w->count > VGPU_MAX_WAIT)
		return -EINVAL;

	if (w->count > VGPU_WAIT_ONSTACK) {
		handles = memdup_user(u64_to_user_ptr(w->handles),
				      array_size(w->count, sizeof(u32)));
		if (IS_ERR(handles))
			return PTR_ERR(handles);
		jobs = kcalloc(w->count, sizeof(*jobs), GFP_KERNEL);
		ret = -ENOMEM;
		if (!jobs)
			goto out_handles;
	} else if (copy_from_user(handles, u64_to_user_ptr(w->handles),
				  array_size(w->count, sizeof(u32)))) {
		return -EFAULT;
	}

	mutex_lock(&vf->lock);
	for (n = 0; n < w->count; n++) {
		jobs[n] = vgpu_job_lookup(vf, handles[n]);
		if (!jobs[n]) {
			mutex_unlock(&vf->lock);
			ret = -ENOENT;
			goto out_put;
		}
		kref_get(&jobs[n]->ref);
	}
	mutex_unlock(&vf->lock);

	/*
	 * Free-running clock: run epochs here rather than sleep while the
	 * controller runs them (vgpu_sched_help()); bounded, then sleep.
	 * The deadline bounds the helping too: an epoch of a busy device
	 * may be long.
	 */
	help = !vgpu_wait_expired(w->timeout_ns) &&
	       vgpu_sched_help_begin(&vdev->sched);
	for (i = 0; help && i < VGPU_WAIT_HELP_EPOCHS; i++) {
		if (vgpu_wait_cond(vdev, jobs, n, all, &first) ||
		    (i && vgpu_wait_expired(w->timeout_ns)) ||
		    !vgpu_sched_help(&vdev->sched))
			break;
	}
	if (help)
		vgpu_sched_help_end(&vdev->sched);

	wq = &vdev->sched.done_wq;
	if (w->timeout_ns == VGPU_WAIT_FOREVER) {
		ret = wait_event_interruptible(*wq, vgpu_wait_cond(vdev, jobs, n,
								   all, &first));
	} else {
		/*
		 * Compare before subtracting: a deadline far in the past
		 * (say S64_MIN) minus now would wrap to a huge sleep.
		 */
		now = ktime_get_ns();
		rem = w->timeout_ns > now ? w->timeout_ns - now : 0;
		if (rem <= 0) {
			ret = vgpu_wait_cond(vdev, jobs, n, all, &first) ? 0 : -ETIME;
		} else {
			timeout = ns_to_ktime(rem);
#define VGPU_WAIT_COND vgpu_wait_cond(vdev, jobs, n, all, &first)
			ret = wait_event_interruptible_hrtimeout(*wq, VGPU_WAIT_COND,
								 timeout);
#undef VGPU_WAIT_COND
		}
	}
	if (!ret && !vgpu_wait_done(jobs, n, all, &first))
		ret = -ENODEV;
	if (!ret) {
		w->first = first;
		w->pad = 0;
	}

out_put:
	for (i = 0; i < n; i++)
		vgpu_job_put(jobs[i]);
	if (jobs != jobs_buf)
		kfree(jobs);
out_handles:
	if (handles != handles_buf)
		kfree(handles);
	return ret;
}

static u32 vgpu_kstate_to_uapi(u32 state)
{
	switch (state) {
	case VGPU_KS_ACTIVE:
	case VGPU_KS_DRAINING:
		return VGPU_KSTATE_RUNNING;
	case VGPU_KS_DONE:
		return VGPU_KSTATE_DONE;
	case VGPU_KS_CANCELLED:
		return VGPU_KSTATE_CANCELLED;
	case VGPU_KS_FAILED:
		return VGPU_KSTATE_FAILED;
	default:
		return VGPU_KSTATE_QUEUED;
	}
}

/**
 * vgpu_ioctl_query() - VGPU_IOCTL_QUERY
 * @vf: the file
 * @arg: struct vgpu_kernel_query
 *
 * Return: 0; -EINVAL (flags, non-zero output fields on input); -ENOENT;
 * -EBUSY (VGPU_QUERY_RELEASE of an unfinished kernel).
 */
int vgpu_ioctl_query(struct vgpu_file *vf, void *arg)
{
	struct vgpu_sched *s = &vf->vdev->sched;
	struct vgpu_kernel_query *q = arg;
	u32 handle = q->handle, flags = q->flags;
	struct vgpu_job *job;
	bool finished;
	int ret = 0;

	if (flags & ~VGPU_QUERY_FLAGS_ALL)
		return -EINVAL;
	if (q->state || q->error || q->t_submit || q->t_dispatch ||
	    q->t_complete || q->blocks_done || q->preemptions || q->user_data ||
	    q->t_start || q->t_deadline || q->status || q->pad)
		return -EINVAL;

	mutex_lock(&vf->lock);
	job = vgpu_job_lookup(vf, handle);
	if (!job) {
		ret = -ENOENT;
		goto out;
	}
	mutex_lock(&s->lock);
	memset(q, 0, sizeof(*q));
	q->handle = handle;
	q->flags = flags;
	q->state = vgpu_kstate_to_uapi(job->k.state);
	q->error = job->error;
	q->t_submit = job->k.t.submit;
	q->t_dispatch = job->k.t.dispatch;
	q->t_complete = vgpu_gpu_kernel_finished(&job->k) ? job->k.t.end :
			VGPU_NO_CYCLE;
	q->t_start = job->k.t.start;
	/* the core sets the deadline when the kernel reaches it */
	q->t_deadline = job->k.t.submit == VGPU_GPU_NO_CYCLE ? VGPU_NO_CYCLE :
			job->k.t.deadline_at;
	if (job->k.t.deadline_missed)
		q->status |= VGPU_KSTATUS_DEADLINE_MISSED;
	/* a queue kernel's blocks are those its items launched (F14) */
	if (job->k.args.flags & VGPU_KF_QUEUE)
		q->blocks_done = job->k.done_units;
	else
		q->blocks_done = job->k.state == VGPU_KS_DONE ? job->k.args.grid :
				 min(job->k.done_units, job->k.args.grid);
	q->preemptions = job->k.preempted;
	q->user_data = job->user_data;
	/*
	 * Decide on the release from the same snapshot: a kernel that
	 * finishes once s->lock is dropped must not be released with the
	 * state it had before (found by make soak).
	 */
	finished = vgpu_job_finished(job);
	mutex_unlock(&s->lock);

	/* the release itself waits for the result to reach the caller */
	if ((flags & VGPU_QUERY_RELEASE) && !finished)
		ret = -EBUSY;
out:
	mutex_unlock(&vf->lock);
	return ret;
}

/**
 * vgpu_ioctl_query_commit() - the release of a VGPU_QUERY_RELEASE
 * @vf: the file
 * @arg: struct vgpu_kernel_query, copied back to the caller
 *
 * Runs once the result of vgpu_ioctl_query() has reached the caller, so a
 * result that could not be copied back leaves the handle in place.  The
 * kernel was finished in the snapshot and stays so; a concurrent release
 * of the same handle has left nothing to do.
 */
void vgpu_ioctl_query_commit(struct vgpu_file *vf, void *arg)
{
	struct vgpu_kernel_query *q = arg;
	struct vgpu_job *job;

	if (!(q->flags & VGPU_QUERY_RELEASE))
		return;
	mutex_lock(&vf->lock);
	job = vgpu_job_lookup(vf, q->handle);
	if (job && vgpu_job_finished(job))
		vgpu_job_unlink(vf, job);
	mutex_unlock(&vf->lock);
}

/**
 * vgpu_ioctl_cancel() - VGPU_IOCTL_CANCEL
 * @vf: the file
 * @arg: struct vgpu_kernel_cancel
 *
 * Return: 0 (also for a kernel already finished); -EINVAL; -ENOENT.
 */
int vgpu_ioctl_cancel(struct vgpu_file *vf, void *arg)
{
	struct vgpu_sched *s = &vf->vdev->sched;
	struct vgpu_kernel_cancel *c = arg;
	struct vgpu_job *job;
	int ret = 0;

	if (c->flags)
		return -EINVAL;
	mutex_lock(&vf->lock);
	job = vgpu_job_lookup(vf, c->handle);
	if (job) {
		mutex_lock(&s->lock);
		vgpu_sched_cancel_locked(s, job, -ECANCELED);
		vgpu_sched_unlock(s);
	} else {
		ret = -ENOENT;
	}
	mutex_unlock(&vf->lock);
	return ret;
}

/**
 * vgpu_ioctl_queue_push() - VGPU_IOCTL_QUEUE_PUSH (F14)
 * @vf: the file
 * @arg: struct vgpu_queue_push
 *
 * The items arrive at the device clock plus @arrival (raised to the
 * kernel's previous push), fixed here and reported in @cycle; the push
 * then goes the way of a SUBMIT: on the device's incoming queue, to the
 * core before the controller's next dispatch, after the kernels submitted
 * before it.  The core's checks are made here so that it never refuses.
 *
 * Return: 0; -EINVAL (flags, pad, cycle, arrival, no items without
 * VGPU_QUEUE_CLOSE, items above queue_cap, not a queue kernel, closed by
 * an earlier push, finished); -ENOENT (not a kernel of this file);
 * -ENOSPC (more than queue_cap items would wait, pushes on their way
 * included); -EAGAIN (the device's push records at their limit); -ENOMEM.
 */
int vgpu_ioctl_queue_push(struct vgpu_file *vf, void *arg)
{
	struct vgpu_sched *s = &vf->vdev->sched;
	struct vgpu_queue_push *qp = arg;
	bool close = qp->flags & VGPU_QUEUE_CLOSE;
	struct vgpu_qpush *rec;
	struct vgpu_job *job;
	u64 at;
	int ret;

	if (qp->flags & ~VGPU_QUEUE_FLAGS_ALL || qp->pad || qp->cycle ||
	    qp->arrival > vf->vdev->limits.max_arrival ||
	    (!qp->items && !close))
		return -EINVAL;
	rec = kzalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return -ENOMEM;

	mutex_lock(&vf->lock);
	job = vgpu_job_lookup(vf, qp->handle);
	if (!job) {
		ret = -ENOENT;
		goto out_file;
	}
	rec->p.items = qp->items;
	rec->p.flags = close ? VGPU_GPU_PUSH_CLOSE : 0;
	mutex_lock(&s->lock);
	ret = -EINVAL;
	if (job->finished || job->q_closing)	/* perhaps not in the core yet */
		goto out_sched;
	/* the core's one check; the items on their way are held in q_held */
	ret = vgpu_gpu_push_check(&job->k, &rec->p);
	if (ret)
		goto out_sched;
	ret = -EAGAIN;
	if (atomic_inc_return(&s->nr_pushes) > vf->vdev->limits.queued) {
		atomic_dec(&s->nr_pushes);
		goto out_sched;
	}
	at = max(vgpu_clock_after(s->gpu->now, qp->arrival), job->q_last);
	job->q_last = at;
	job->k.args.q_held += qp->items;
	job->q_closing |= close;
	rec->p.arrival = at;
	kref_get(&job->ref);
	rec->job = job;
	vgpu_sched_push_locked(s, rec);
	rec = NULL;
	qp->cycle = at;
	qp->pad = 0;
	ret = 0;
out_sched:
	mutex_unlock(&s->lock);
out_file:
	mutex_unlock(&vf->lock);
	kfree(rec);
	return ret;
}
