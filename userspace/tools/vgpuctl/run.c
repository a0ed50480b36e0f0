// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - vgpuctl run (and the body of vgpuctl compare, compare.c): a
 * workload file or a recording through a fresh device instance of the
 * module, then each kernel (and each tenant) alone; the lines of vgpu-sim
 * run (F67).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "vgpuctl.h"
#include <vgpu/workload.h>
#include <vgpu/import.h>
#include <vgpu/metrics.h>
#include <vgpu/report.h>

#include "cli.h"

#define VGPU_RUN_DEFAULT_ID	15
#define VGPU_CMP_MAX		16	/* policies of vgpuctl compare */
#define VGPU_RUN_MAX_SHAPE	256	/* --priority, --offset arguments */

/*
 * The new_device line of device @id for a workload's device section
 * (vgpul_workload_new_device()), or an error when the section sets
 * something new_device cannot express.
 */
static int vgpu_run_device_line(const struct vgpu_workload *wl, unsigned int id,
				unsigned int workers, char *line, size_t len)
{
	char err[256];
	size_t off;
	int ret;

	off = snprintf(line, len, "%u ", id);
	ret = vgpul_workload_new_device(wl, line + off, len - off, err,
					sizeof(err));
	if (ret) {
		fprintf(stderr, "vgpuctl run: %s\n", err);
		return ret;
	}
	off += strlen(line + off);
	/* the run's own device: arrivals as far as workload files allow */
	off += snprintf(line + off, len - off, " max_arrival=%llu",
			1ULL << 48);
	if (workers)
		off += snprintf(line + off, len - off, " workers=%u", workers);
	snprintf(line + off, len - off, "\n");
	return 0;
}

static bool vgpu_run_quiet;	/* run -q: no progress on stderr */

/* Results of one run through the module, per workload kernel. */
struct vgpu_run_res {
	struct vgpu_kernel_query q;
	bool ran;
};

/*
 * Kernel @i takes part in the run: every kernel, or with @only >= 0 that
 * one alone and the queue kernel its PUSH instructions feed (F14), as in
 * vgpu-sim run.
 */
static bool vgpu_run_wanted(const struct vgpu_workload *wl, int only,
			    uint32_t i)
{
	return only < 0 || i == (uint32_t)only ||
	       wl->kernels[only].push_to == i + 1;
}

/* A workload kernel's (or template's) VGPUL_KF_* as uapi VGPU_KERNEL_*. */
static uint32_t vgpu_run_uflags(uint32_t f)
{
	return (f & VGPUL_KF_INDEPENDENT ? VGPU_KERNEL_INDEPENDENT : 0) |
	       (f & VGPUL_KF_SEQUENTIAL ? VGPU_KERNEL_SEQUENTIAL : 0) |
	       (f & VGPUL_KF_THROTTLE ? VGPU_KERNEL_THROTTLE : 0) |
	       (f & VGPUL_KF_HEAD ? VGPU_KERNEL_HEAD : 0) |
	       (f & VGPUL_KF_QUEUE ? VGPU_KERNEL_QUEUE : 0);
}

/*
 * Where the check of a shared run's buffers goes (kept until the run's
 * lines are printed), and whether it failed.
 */
struct vgpu_run_chk {
	FILE *out;
	int failed;
};

/*
 * The buffers of a functional workload in one run (seed 004): a buffer
 * object each on the file of the tenant whose kernels name it (the
 * caller's file when no kernel of the run does), mapped and filled with
 * its initial words.
 */
struct vgpu_run_bufs {
	uint32_t n;
	struct vgpu_dev **of;	/* the file holding buffer i */
	uint32_t *handle;
	void **addr;
	uint64_t *size;
};

static void vgpu_run_bufs_fini(struct vgpu_run_bufs *b)
{
	uint32_t i;

	for (i = 0; i < b->n; i++) {
		if (b->addr[i])
			vgpul_bo_unmap(b->addr[i], b->size[i]);
		/* the run's kernels finished: nothing names it any more */
		if (b->handle[i])
			vgpul_bo_destroy(b->of[i], b->handle[i]);
	}
	free(b->of);
	free(b->handle);
	free(b->addr);
	free(b->size);
	memset(b, 0, sizeof(*b));
}

static int vgpu_run_bufs_init(struct vgpu_run_bufs *b, struct vgpu_dev *dev,
			      struct vgpu_dev *const *kd,
			      const struct vgpu_workload *wl, const bool *mine,
			      const char *what)
{
	uint32_t i, j, k, nb, n, flags, slot[VGPUL_WL_MAX_SLOTS];
	bool fn = false;
	struct vgpu_info info;
	uint64_t off;
	int ret;

	memset(b, 0, sizeof(*b));
	n = vgpul_workload_num_buffers(wl);
	for (i = 0; i < wl->nkernels; i++)
		if (mine[i] && vgpul_workload_kernel_functional(wl, i))
			fn = true;
	if (!n && !fn)
		return 0;
	ret = vgpul_get_info(dev, &info);
	if (ret) {
		fprintf(stderr, "vgpuctl run: %s: GET_INFO: %s\n", what,
			vgpul_strerror(ret));
		return ret;
	}
	if ((n && !(info.caps & VGPU_CAP_BUFFERS)) ||
	    (fn && !(info.caps & VGPU_CAP_FUNCTIONAL))) {
		fprintf(stderr, "vgpuctl run: the module does not run functional workloads (no %s)\n",
			n && !(info.caps & VGPU_CAP_BUFFERS) ?
			"VGPU_CAP_BUFFERS" : "VGPU_CAP_FUNCTIONAL");
		return -EOPNOTSUPP;
	}
	b->of = calloc(n + 1, sizeof(*b->of));
	b->handle = calloc(n + 1, sizeof(*b->handle));
	b->addr = calloc(n + 1, sizeof(*b->addr));
	b->size = calloc(n + 1, sizeof(*b->size));
	if (!b->of || !b->handle || !b->addr || !b->size) {
		vgpu_run_bufs_fini(b);
		return -ENOMEM;
	}
	b->n = n;
	for (i = 0; i < n; i++)
		b->of[i] = dev;
	for (k = 0; k < wl->nkernels; k++) {
		if (!mine[k])
			continue;
		nb = vgpul_workload_kernel_buffers(wl, k, slot, NULL);
		for (j = 0; j < nb; j++)
			b->of[slot[j]] = kd[k];
	}
	for (i = 0; i < n; i++) {
		vgpul_workload_buffer(wl, i, &b->size[i], &flags);
		ret = vgpul_bo_create(b->of[i], b->size[i], flags,
				      &b->handle[i], &off);
		if (!ret)
			ret = vgpul_bo_map(b->of[i], off, b->size[i],
					   &b->addr[i]);
		if (ret) {
			fprintf(stderr, "vgpuctl run: %s: buffer %s: %s\n", what,
				vgpul_workload_buffer(wl, i, NULL, NULL),
				vgpul_strerror(ret));
			vgpu_run_bufs_fini(b);
			return ret;
		}
		vgpul_workload_buffer_fill(wl, i, b->addr[i]);
	}
	return 0;
}

/*
 * The buffers of a run against their expectations, with the errno of
 * each functional kernel that failed: 0 when all hold, else 1.
 */
static int vgpu_run_bufs_check(const struct vgpu_workload *wl,
			       const struct vgpu_run_bufs *b,
			       const struct vgpu_kernel_query *q,
			       const bool *mine, FILE *out)
{
	int *kerr, ret;
	uint32_t i;

	kerr = calloc(wl->nkernels + 1, sizeof(*kerr));
	if (!kerr) {
		fprintf(stderr, "vgpuctl run: out of memory\n");
		return 1;
	}
	for (i = 0; i < wl->nkernels; i++)
		if (mine[i] && vgpul_workload_kernel_functional(wl, i) &&
		    q[i].state == VGPU_KSTATE_FAILED)
			kerr[i] = q[i].error;
	ret = vgpul_workload_check(wl, b->addr, kerr, out);
	free(kerr);
	return ret ? 1 : 0;
}

static int vgpu_run_submit(struct vgpu_dev *const *kd,
			   const struct vgpu_workload *wl, int only,
			   const uint32_t *chan, uint32_t *handles,
			   const struct vgpu_run_bufs *bufs)
{
	uint32_t slot[VGPUL_WL_MAX_SLOTS], bh[VGPUL_WL_MAX_SLOTS];
	struct vgpu_template tmpl[VGPU_MAX_TEMPLATES];
	const struct vgpu_wl_template *wt;
	struct vgpu_submit_desc d;
	const struct vgpu_wl_kernel *wk;
	uint32_t i, j, w;
	int ret;

	for (i = 0; i < wl->nkernels; i++) {
		if (!vgpu_run_wanted(wl, only, i))
			continue;
		wk = &wl->kernels[i];
		/* F14: PUSH feeds an earlier queue kernel of the same file */
		if (wk->push_to && vgpu_run_wanted(wl, only, wk->push_to - 1) &&
		    kd[wk->push_to - 1] != kd[i]) {
			fprintf(stderr, "vgpuctl run: kernel %s: its push_to kernel is of another tenant (another file)\n",
				wk->name);
			return -EINVAL;
		}
		if (wk->prio_wid_mod || wk->cancel_at) {
			fprintf(stderr, "vgpuctl run: kernel %s: prio_wid_mod and cancel_at cannot go through the uapi\n",
				wk->name);
			return -EINVAL;
		}
		memset(&d, 0, sizeof(d));
		d.channel = chan[wk->channel];
		d.flags = VGPU_KERNEL_PRIORITY | vgpu_run_uflags(wk->flags);
		d.priority = wk->prio;
		d.grid = wk->grid;
		d.queue_n = wk->queue_n;
		d.queue_cap = wk->queue_cap;
		d.queue_timeout = wk->queue_timeout;
		d.threads = wk->threads;
		d.regs = wk->regs;
		d.smem = wk->smem;
		d.quota = wk->quota;
		d.deadline = wk->deadline;
		/* F35 levels per warp and scalar registers (VER3) */
		d.warp_prio = wk->n_warp_prio ? (uintptr_t)wk->warp_prio : 0;
		d.num_warp_prio = wk->n_warp_prio;
		d.sregs = wk->sregs;
		/* F14 PUSH target and records (VER4) */
		d.push_to = wk->push_to &&
			    vgpu_run_wanted(wl, only, wk->push_to - 1) ?
			    handles[wk->push_to - 1] : 0;
		d.push_records = wk->records;
		d.num_insns = wk->prog.n;
		d.program = (uintptr_t)wk->prog.insns;
		for (w = 0; w < VGPUL_WL_AFF_WORDS; w++) {
			if (wk->affinity[w]) {
				d.affinity = (uintptr_t)wk->affinity;
				d.affinity_bits = VGPUL_WL_AFF_WORDS * 64;
			}
		}
		/* F15: the child templates travel with the kernel */
		memset(tmpl, 0, sizeof(tmpl));
		for (j = 0; j < wk->n_templates; j++) {
			wt = &wk->templates[j];
			tmpl[j].grid = wt->grid;
			tmpl[j].threads = wt->threads;
			tmpl[j].regs = wt->regs;
			tmpl[j].smem = wt->smem;
			tmpl[j].flags = vgpu_run_uflags(wt->flags);
			tmpl[j].num_insns = wt->prog.n;
			tmpl[j].program = (uintptr_t)wt->prog.insns;
		}
		if (wk->n_templates) {
			d.templates = (uintptr_t)tmpl;
			d.num_templates = wk->n_templates;
			d.template_size = sizeof(tmpl[0]);
		}
		d.child_budget = wk->child_budget;
		/* seed 004: the buffers it names, slot by slot (VER6) */
		d.num_buffers = vgpul_workload_kernel_buffers(wl, i, slot,
							      &d.private_bytes);
		d.insn_budget = vgpul_workload_kernel_budget(wl, i);
		for (j = 0; j < d.num_buffers; j++)
			bh[j] = bufs->handle[slot[j]];
		d.buffers = d.num_buffers ? (uintptr_t)bh : 0;
		d.arrival = only >= 0 ? 0 : wk->arrival;
		d.user_data = i;
		ret = vgpul_submit(kd[i], &d);
		if (ret) {
			fprintf(stderr, "vgpuctl run: SUBMIT of %s: %s\n", wk->name,
				vgpul_strerror(ret));
			return ret;
		}
		handles[i] = d.handle;
	}
	return 0;
}

/*
 * The pushes of the queue kernels (F14), after every kernel, in kernel
 * then file order (as vgpu-sim makes them), under the gate: each arrives
 * at its cycle of the workload.
 */
static int vgpu_run_pushes(struct vgpu_dev *const *kd,
			   const struct vgpu_workload *wl, int only,
			   const uint32_t *handles)
{
	const struct vgpu_wl_kernel *wk;
	uint32_t i, j;
	int ret;

	for (i = 0; i < wl->nkernels; i++) {
		if (!vgpu_run_wanted(wl, only, i))
			continue;
		wk = &wl->kernels[i];
		for (j = 0; j < wk->n_pushes; j++) {
			ret = vgpul_queue_push(kd[i], handles[i],
					      wk->pushes[j].items,
					      wk->pushes[j].close ?
					      VGPU_QUEUE_CLOSE : 0,
					      vgpul_wl_push_at(wk->pushes[j].at,
							      wk->arrival,
							      only >= 0),
					      NULL);
			if (ret) {
				fprintf(stderr, "vgpuctl run: QUEUE_PUSH %u of %s: %s\n",
					j, wk->name, vgpul_strerror(ret));
				return ret;
			}
		}
	}
	return 0;
}

/* Progress on stderr (a tty only): kernels finished and the clock. */
static void vgpu_run_progress(struct vgpu_dev *dev,
			      struct vgpu_dev *const *kd, const char *what,
			      const uint32_t *handles, const bool *mine,
			      uint32_t n)
{
	struct vgpu_kernel_query q;
	struct vgpu_info info;
	uint32_t i, done = 0, total = 0;

	for (i = 0; i < n; i++) {
		if (!mine[i])
			continue;
		total++;
		if (!vgpul_query(kd[i], handles[i], 0, &q) &&
		    q.state >= VGPU_KSTATE_DONE)
			done++;
	}
	if (vgpul_get_info(dev, &info))
		info.cycle = 0;
	fprintf(stderr, "\r\033[Kvgpuctl run: %s: %u/%u kernels finished, cycle %llu",
		what, done, total, (unsigned long long)info.cycle);
}

/*
 * The open files of a run: one per tenant of the workload (the module's
 * tenants are its open files, &vgpu_gpu_kernel_args.tenant), the first tenant
 * on the caller's @dev.
 */
struct vgpu_run_files {
	struct vgpu_dev *of[VGPUL_WL_MAX_CHANNELS];	/* by tenant */
	struct vgpu_dev more[VGPUL_WL_MAX_CHANNELS];
	bool opened[VGPUL_WL_MAX_CHANNELS];
};

static int vgpu_run_files_open(struct vgpu_run_files *f, struct vgpu_dev *dev,
			       unsigned int id, const struct vgpu_workload *wl,
			       const bool *mine)
{
	uint32_t i, t;
	int ret;

	for (i = 0; i < wl->nkernels; i++) {
		t = wl->kernels[i].tenant;
		if (!mine[i] || f->of[t])
			continue;
		if (dev) {
			f->of[t] = dev;
			dev = NULL;
			continue;
		}
		ret = vgpul_dev_open(id, &f->more[t]);
		if (ret) {
			vgpuctl_open_error("run", id, ret);
			return ret;
		}
		f->opened[t] = true;
		f->of[t] = &f->more[t];
	}
	return 0;
}

static void vgpu_run_files_close(struct vgpu_run_files *f)
{
	uint32_t t;

	for (t = 0; t < VGPUL_WL_MAX_CHANNELS; t++)
		if (f->opened[t])
			vgpul_dev_close(&f->more[t]);
}

/* Wait for every kernel of @wl on @dev's files, a tenant at a time. */
static int vgpu_run_wait(struct vgpu_dev *dev, const struct vgpu_run_files *f,
			 const struct vgpu_workload *wl, const char *what,
			 const uint32_t *handles, const bool *mine, uint32_t *wh,
			 struct vgpu_dev *const *kd)
{
	bool tty = !vgpu_run_quiet && vgpuctl_fancy_tty(2);
	uint32_t i, n, t, cnt;
	int ret = 0;

	for (t = 0; !ret && t < VGPUL_WL_MAX_CHANNELS; t++) {
		if (!f->of[t])
			continue;
		for (i = 0, n = 0; i < wl->nkernels; i++)
			if (mine[i] && wl->kernels[i].tenant == t)
				wh[n++] = handles[i];
		for (i = 0; !ret && i < n; i += VGPU_MAX_WAIT) {
			cnt = n - i < VGPU_MAX_WAIT ? n - i : VGPU_MAX_WAIT;
			for (;;) {
				ret = vgpul_wait(f->of[t], &wh[i], cnt,
						VGPU_WAIT_ALL,
						tty ? vgpul_deadline_ns(250000000) :
						VGPU_WAIT_FOREVER, NULL);
				if (ret != -ETIME || !tty)
					break;
				vgpu_run_progress(dev, kd, what, handles, mine,
						  wl->nkernels);
			}
		}
	}
	if (tty)
		fprintf(stderr, "\r\033[K");
	return ret;
}

/*
 * Run the workload (or only kernel @only, arriving at 0) on device @id,
 * open as @dev: gate closed, channels, submissions, gate open, wait,
 * query.  Each further tenant of the workload gets a file of its own.
 */
static int vgpu_run_on(struct vgpu_dev *dev, unsigned int id,
		       const struct vgpu_workload *wl, int only,
		       const char *what, struct vgpu_run_res *res,
		       struct vgpu_run_chk *check)
{
	struct vgpu_run_bufs bufs = { 0 };
	struct vgpu_kernel_query *q = NULL;
	uint32_t chan[VGPUL_WL_MAX_CHANNELS], prio[VGPUL_WL_MAX_CHANNELS];
	uint32_t tenant[VGPUL_WL_MAX_CHANNELS];
	uint32_t *handles, *wh, i, nch = 0;
	struct vgpu_run_files *f;
	struct vgpu_dev **kd;
	bool *mine;
	int ret;

	handles = calloc(wl->nkernels + 1, sizeof(*handles));
	wh = calloc(wl->nkernels + 1, sizeof(*wh));
	mine = calloc(wl->nkernels + 1, sizeof(*mine));
	kd = calloc(wl->nkernels + 1, sizeof(*kd));
	f = calloc(1, sizeof(*f));
	if (!handles || !wh || !mine || !kd || !f) {
		ret = -ENOMEM;
		goto out;
	}
	/* channels 0..max used, so that the core numbers them as vgpu-sim */
	for (i = 0; i < VGPUL_WL_MAX_CHANNELS; i++) {
		prio[i] = vgpul_workload_num_prios(wl) - 1;
		tenant[i] = VGPUL_WL_MAX_CHANNELS;
	}
	for (i = 0; i < wl->nkernels; i++) {
		const struct vgpu_wl_kernel *wk = &wl->kernels[i];

		if (!vgpu_run_wanted(wl, only, i))
			continue;
		mine[i] = true;
		if (wk->channel + 1 > nch)
			nch = wk->channel + 1;
		if (wk->prio < prio[wk->channel])
			prio[wk->channel] = wk->prio;
		tenant[wk->channel] = wk->tenant;
	}
	ret = vgpu_run_files_open(f, dev, id, wl, mine);
	if (ret)
		goto out;
	for (i = 0; i < wl->nkernels; i++)
		kd[i] = mine[i] ? f->of[wl->kernels[i].tenant] : dev;
	ret = vgpul_gate(dev, VGPU_GATE_CLOSE, NULL);
	for (i = 0; !ret && i < nch; i++)
		ret = vgpul_channel_create(tenant[i] < VGPUL_WL_MAX_CHANNELS ?
					  f->of[tenant[i]] : dev,
					  prio[i], 0, &chan[i]);
	if (ret) {
		fprintf(stderr, "vgpuctl run: %s: %s%s\n", what,
			i ? "CHANNEL_CREATE" : "GATE", vgpul_strerror(ret));
		goto out;
	}
	ret = vgpu_run_bufs_init(&bufs, dev, kd, wl, mine, what);
	if (ret)
		goto out;
	ret = vgpu_run_submit(kd, wl, only, chan, handles, &bufs);
	if (!ret)
		ret = vgpu_run_pushes(kd, wl, only, handles);
	if (ret)
		goto out;
	ret = vgpul_gate(dev, VGPU_GATE_OPEN, NULL);
	if (ret) {
		fprintf(stderr, "vgpuctl run: %s: GATE: %s\n", what,
			vgpul_strerror(ret));
		goto out;
	}
	ret = vgpu_run_wait(dev, f, wl, what, handles, mine, wh, kd);
	if (ret) {
		fprintf(stderr, "vgpuctl run: %s: WAIT: %s\n", what,
			vgpul_strerror(ret));
		goto out;
	}
	for (i = 0; i < wl->nkernels; i++) {
		if (!mine[i])
			continue;
		ret = vgpul_query(kd[i], handles[i], VGPU_QUERY_RELEASE,
				 &res[i].q);
		if (ret) {
			fprintf(stderr, "vgpuctl run: %s: QUERY of %s: %s\n",
				what, wl->kernels[i].name, vgpul_strerror(ret));
			goto out;
		}
		res[i].ran = true;
	}
	/* functional workloads: what the kernels computed (seed 004) */
	if (check && bufs.n) {
		q = calloc(wl->nkernels + 1, sizeof(*q));
		for (i = 0; q && i < wl->nkernels; i++)
			q[i] = res[i].q;
		check->failed = q ? vgpu_run_bufs_check(wl, &bufs, q, mine,
							check->out) : 1;
		free(q);
	}
out:
	vgpu_run_bufs_fini(&bufs);
	if (f)
		vgpu_run_files_close(f);
	free(f);
	free(kd);
	free(handles);
	free(wh);
	free(mine);
	return ret;
}

/* Create device @id from @line, run, destroy it. */
static int vgpu_run_fresh(const struct vgpu_workload *wl, unsigned int id,
			  const char *line, int only, const char *what,
			  struct vgpu_run_res *res, uint64_t *trace_hash,
			  struct vgpu_run_chk *check)
{
	struct vgpu_info info;
	struct vgpu_dev dev;
	int ret, ret2;

	ret = vgpul_dev_add(id, strchr(line, ' ') + 1);
	if (ret) {
		fprintf(stderr, "vgpuctl run: new_device \"%.*s\": ",
			(int)strcspn(line, "\n"), line);
		if (ret == -EEXIST)
			fprintf(stderr, "device %u exists (pick another with --id / --alone-id, or vgpuctl dev del %u)\n",
				id, id);
		else if (ret == -ENOENT)
			fprintf(stderr, "/sys/bus/vgpu missing: the module is not loaded (sudo modprobe vgpu_dispatch)\n");
		else if (ret == -EACCES || ret == -EPERM)
			fprintf(stderr, "permission denied (device instances need root)\n");
		else
			fprintf(stderr, "%s\n", vgpul_strerror(ret));
		return ret;
	}
	ret = vgpul_dev_open(id, &dev);
	if (!ret) {
		ret = vgpu_run_on(&dev, id, wl, only, what, res, check);
		if (!ret && trace_hash) {
			ret = vgpul_get_info(&dev, &info);
			*trace_hash = info.trace_hash;
		}
		vgpul_dev_close(&dev);
	} else {
		vgpuctl_open_error("run", id, ret);
	}
	ret2 = vgpul_dev_del(id);
	if (ret2 && !ret) {
		vgpuctl_dev_error("run", "del_device", ret2);
		ret = ret2;
	}
	return ret;
}

/*
 * Did kernel @i arrive while the device was busy with lower-priority work
 * only?  The uapi cannot see every SM, so this is the kernel-level view of
 * Documentation/workloads.rst's rule: some kernel of lower priority was
 * running at the arrival and none of equal or higher priority was.
 */
static bool vgpu_run_busy_arrival(const struct vgpu_workload *wl,
				  const struct vgpu_run_res *res, uint32_t i)
{
	uint64_t t = res[i].q.t_submit;
	bool lower = false;
	uint32_t j;

	for (j = 0; j < wl->nkernels; j++) {
		const struct vgpu_kernel_query *q = &res[j].q;

		if (j == i || !res[j].ran || q->t_start == VGPU_NO_CYCLE ||
		    q->t_start > t || q->t_complete <= t)
			continue;
		if (wl->kernels[j].prio > wl->kernels[i].prio)
			lower = true;
		else
			return false;
	}
	return lower;
}

/**
 * struct vgpu_run_sum - what vgpuctl run and compare measure
 * @turnaround: per workload kernel, 0 if it did not complete (malloc'd)
 * @makespan: completion of the last kernel
 * @lat_max: largest preemption latency
 * @m: STP, ANTT, fairness (F67), with the alone runs
 * @hash: trace hash of the shared run (F51)
 * @kt: per workload kernel, its times in the shared run (malloc'd)
 * @check: the check of the shared run's buffers (functional workloads,
 *	seed 004): failed when a buffer missed its expectation
 * @check_text: its lines (malloc'd), @check_len bytes
 * @check_len: their length
 */
struct vgpu_run_sum {
	uint64_t *turnaround;
	uint64_t makespan;
	uint64_t lat_max;
	struct vgpu_metrics m;
	uint64_t hash;
	struct vgpul_ktimes *kt;
	struct vgpu_run_chk check;
	char *check_text;
	size_t check_len;
};

/* A kernel's times in a run through the module, for the report. */
static void vgpu_run_ktime(const struct vgpu_kernel_query *q,
			   struct vgpul_ktimes *t)
{
	t->submit = q->t_submit;
	t->start = q->t_start == VGPU_NO_CYCLE ? VGPUL_NO_CYCLE : q->t_start;
	t->end = q->t_complete;
	t->state = q->state == VGPU_KSTATE_DONE ? VGPUL_KT_DONE :
		   q->state == VGPU_KSTATE_FAILED ? VGPUL_KT_FAILED :
		   VGPUL_KT_CANCELLED;
	t->error = q->error;
}

/*
 * The shared run of @wl on device @id, then with @alone each kernel alone
 * on @alone_id; kernel= lines to @out if not NULL.  0 or an errno.
 */
static int vgpu_run_measure(const struct vgpu_workload *wl, unsigned int id,
			    unsigned int alone_id, unsigned int workers,
			    bool alone, FILE *out, struct vgpu_run_sum *sum)
{
	uint64_t *t_alone = NULL, lat;
	struct vgpu_run_res *res = NULL, *ares = NULL;
	char line[512], what[96];
	uint32_t i;
	int ret;

	memset(sum, 0, sizeof(*sum));
	ret = vgpu_run_device_line(wl, id, workers, line, sizeof(line));
	if (ret)
		return ret;
	res = calloc(wl->nkernels + 1, sizeof(*res));
	ares = calloc(wl->nkernels + 1, sizeof(*ares));
	t_alone = calloc(wl->nkernels + 1, sizeof(*t_alone));
	sum->turnaround = calloc(wl->nkernels + 1, sizeof(*sum->turnaround));
	sum->kt = calloc(wl->nkernels + 1, sizeof(*sum->kt));
	if (!res || !ares || !t_alone || !sum->turnaround || !sum->kt) {
		fprintf(stderr, "vgpuctl run: out of memory\n");
		ret = -ENOMEM;
		goto out;
	}
	sum->check.out = open_memstream(&sum->check_text, &sum->check_len);
	if (!sum->check.out) {
		ret = -ENOMEM;
		goto out;
	}
	ret = vgpu_run_fresh(wl, id, line, -1, "shared run", res, &sum->hash,
			     &sum->check);
	fclose(sum->check.out);
	sum->check.out = NULL;
	if (ret)
		goto out;
	for (i = 0; i < wl->nkernels; i++) {
		const struct vgpu_kernel_query *q = &res[i].q;

		vgpu_run_ktime(q, &sum->kt[i]);
		sum->turnaround[i] = vgpul_report_kernel(out,
							 wl->kernels[i].name,
							 &sum->kt[i]);
		if (sum->kt[i].state != VGPUL_KT_DONE)
			continue;
		if (q->t_complete > sum->makespan)
			sum->makespan = q->t_complete;
		if (q->t_start != VGPU_NO_CYCLE &&
		    vgpu_run_busy_arrival(wl, res, i)) {
			lat = q->t_start - q->t_submit;
			if (lat > sum->lat_max)
				sum->lat_max = lat;
		}
	}
	if (out)
		fflush(out);
	for (i = 0; alone && i < wl->nkernels; i++) {
		if (!sum->turnaround[i])
			continue;
		vgpu_run_device_line(wl, alone_id, workers, line,
				     sizeof(line));
		snprintf(what, sizeof(what), "alone run of %s",
			 wl->kernels[i].name);
		ret = vgpu_run_fresh(wl, alone_id, line, i, what, ares, NULL,
				     NULL);
		if (ret)
			goto out;
		if (ares[i].q.state != VGPU_KSTATE_DONE) {
			fprintf(stderr, "vgpuctl run: %s did not complete (error %d)\n",
				what, ares[i].q.error);
			ret = -EIO;
			goto out;
		}
		t_alone[i] = ares[i].q.t_complete - ares[i].q.t_submit;
	}
	if (alone)
		vgpul_metrics_compute(t_alone, sum->turnaround, wl->nkernels,
				     &sum->m);
out:
	free(res);
	free(ares);
	free(t_alone);
	return ret;
}

/* Where a tenant runs alone: the --alone-id device, --workers. */
struct vgpu_run_alone {
	unsigned int id;
	unsigned int workers;
};

/* One tenant's kernels alone through the module (vgpul_run_fn). */
static int vgpu_run_tenant_alone(void *cookie, const struct vgpu_workload *wl,
				 struct vgpul_ktimes *t, char *err,
				 size_t errlen)
{
	const struct vgpu_run_alone *ra = cookie;
	struct vgpu_run_res *res;
	char line[512];
	uint32_t i;
	int ret;

	res = calloc(wl->nkernels + 1, sizeof(*res));
	if (!res) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = vgpu_run_device_line(wl, ra->id, ra->workers, line,
				   sizeof(line));
	if (!ret)
		ret = vgpu_run_fresh(wl, ra->id, line, -1, "tenant alone", res,
				     NULL, NULL);
	for (i = 0; !ret && i < wl->nkernels; i++)
		vgpu_run_ktime(&res[i].q, &t[i]);
	if (ret)
		snprintf(err, errlen, "%s", vgpul_strerror(ret));
	free(res);
	return ret;
}

static void vgpu_run_table(const struct vgpu_workload *wl,
			   const char *const *pol,
			   const struct vgpu_run_sum *sum, unsigned int n);

int vgpuctl_run_workload(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "workers", required_argument, NULL, 'w' },
		{ "id", required_argument, NULL, 'i' },
		{ "alone-id", required_argument, NULL, 'a' },
		{ "preempt", required_argument, NULL, 'p' },
		{ "policy", required_argument, NULL, 'P' },
		{ "no-alone", no_argument, NULL, 'n' },
		{ "priority", required_argument, NULL, 'R' },
		{ "offset", required_argument, NULL, 'O' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int workers = 0, id = VGPU_RUN_DEFAULT_ID;
	unsigned int alone_id = VGPU_RUN_DEFAULT_ID - 1;
	bool alone = true, compare = !strcmp(argv[0], "compare");
	const char *pol[VGPU_CMP_MAX];
	struct vgpu_run_sum sum[VGPU_CMP_MAX];
	struct vgpu_workload wl;
	const char *shape_prio[VGPU_RUN_MAX_SHAPE];
	const char *shape_off[VGPU_RUN_MAX_SHAPE];
	unsigned int npol = 0, n, j, nprio = 0, noff = 0;
	char err[512];
	int c, ret, mode, preempt = -1, status = 0;

	memset(sum, 0, sizeof(sum));
	while ((c = vgpuctl_getopt(argc, argv, "+w:i:a:p:P:nqh", opts,
				   &status)) > 0) {
		switch (c) {
		case 'w':
		case 'i':
		case 'a':
			if (!vgpul_cli_u32(optarg, c == 'w' ? &workers :
					    c == 'i' ? &id : &alone_id)) {
				fprintf(stderr, "vgpuctl %s: bad number '%s'\n",
					argv[0], optarg);
				return 2;
			}
			break;
		case 'p':
			mode = vgpul_preempt_parse(optarg);
			if (mode < 0) {
				fprintf(stderr, "vgpuctl %s: unknown preemption mode '%s' (drain, warp, switch)\n",
					argv[0], optarg);
				return 2;
			}
			preempt = mode;
			break;
		case 'P':
			if (strlen(optarg) >= VGPUL_WL_POLICY_LEN) {
				fprintf(stderr, "vgpuctl %s: policy name too long\n",
					argv[0]);
				return 2;
			}
			if (npol == VGPU_CMP_MAX) {
				fprintf(stderr, "vgpuctl %s: at most %d policies\n",
					argv[0], VGPU_CMP_MAX);
				return 2;
			}
			pol[npol++] = optarg;
			break;
		case 'n':
			alone = false;
			break;
		case 'R':
		case 'O':
			if (nprio == VGPU_RUN_MAX_SHAPE ||
			    noff == VGPU_RUN_MAX_SHAPE) {
				fprintf(stderr, "vgpuctl %s: too many --%s\n",
					argv[0], c == 'R' ? "priority" : "offset");
				return 2;
			}
			if (c == 'R')
				shape_prio[nprio++] = optarg;
			else
				shape_off[noff++] = optarg;
			break;
		case 'q':
			vgpu_run_quiet = true;
			break;
		}
	}
	if (!c)
		return status;
	if (optind + 1 != argc) {
		fprintf(stderr, "vgpuctl %s: which workload file?\n", argv[0]);
		vgpuctl_cmd_usage(stderr, argv[0]);
		return 2;
	}
	if (compare && npol < 1) {
		fprintf(stderr, "vgpuctl compare: which policies? (--policy, twice or more)\n");
		return 2;
	}
	if (id == alone_id) {
		fprintf(stderr, "vgpuctl %s: --id and --alone-id must differ\n",
			argv[0]);
		return 2;
	}
	ret = vgpul_workload_load_any(argv[optind], &wl, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "vgpuctl %s: %s\n", argv[0], err);
		vgpul_workload_free(&wl);
		return 2;
	}
	/* the options that change the workload: the last --preempt */
	if (preempt >= 0)
		vgpul_workload_set_preempt(&wl, preempt);
	if (vgpul_tenant_args(&wl, shape_prio, nprio, shape_off, noff, err,
			      sizeof(err))) {
		fprintf(stderr, "vgpuctl %s: %s\n", argv[0], err);
		vgpul_workload_free(&wl);
		return 2;
	}
	/* run: the last --policy; compare: each in turn */
	n = compare ? npol : 1;
	for (j = 0; j < n; j++) {
		if (npol)
			vgpul_workload_set_policy(&wl,
						  pol[compare ? j : npol - 1]);
		ret = vgpu_run_measure(&wl, id, alone_id, workers, alone,
				       compare ? NULL : stdout, &sum[j]);
		if (ret)
			goto out;
	}
	if (compare) {
		vgpu_run_table(&wl, pol, sum, n);
		/* functional workloads: a mismatch under any policy */
		for (j = 0; j < n; j++)
			if (sum[j].check.failed)
				ret = -EIO;
		goto out;
	}
	vgpul_report_summary(stdout, &(struct vgpul_summary){
		.makespan = sum[0].makespan, .metrics = alone, .m = sum[0].m,
		.lat_max = sum[0].lat_max, .hash = sum[0].hash });
	/* each tenant alone, on the --alone-id device */
	if (alone) {
		struct vgpu_run_alone ra = { alone_id, workers };

		fflush(stdout);
		if (vgpul_report_tenants(stdout, &wl, sum[0].kt,
					 vgpu_run_tenant_alone, &ra, err,
					 sizeof(err))) {
			fprintf(stderr, "vgpuctl run: %s\n", err);
			ret = -EIO;
		}
	}
	/* functional workloads: the buffers against their expectations */
	if (sum[0].check_len)
		fwrite(sum[0].check_text, 1, sum[0].check_len, stdout);
	if (sum[0].check.failed)
		ret = -EIO;
out:
	for (j = 0; j < VGPU_CMP_MAX; j++) {
		free(sum[j].turnaround);
		free(sum[j].kt);
		free(sum[j].check_text);
	}
	vgpul_workload_free(&wl);
	return ret ? 1 : 0;
}

/* vgpuctl compare: one column per policy (as vgpu-sim compare). */
static void vgpu_run_table(const struct vgpu_workload *wl,
			   const char *const *pol,
			   const struct vgpu_run_sum *sum, unsigned int n)
{
	char label[96];
	unsigned int j;
	uint32_t k;

	printf("%-24s", "policy");
	for (j = 0; j < n; j++)
		printf(" %16s", pol[j]);
	printf("\n");
#define VGPU_RUN_ROW(label, fmt, expr) do {				\
	printf("%-24s", label);						\
	for (j = 0; j < n; j++)						\
		printf(" %16" fmt, expr);				\
	printf("\n");							\
} while (0)
	VGPU_RUN_ROW("makespan", PRIu64, sum[j].makespan);
	VGPU_RUN_ROW("stp", ".3f", sum[j].m.stp);
	VGPU_RUN_ROW("antt", ".3f", sum[j].m.antt);
	VGPU_RUN_ROW("fairness", ".3f", sum[j].m.fairness);
	VGPU_RUN_ROW("preempt_latency_max", PRIu64, sum[j].lat_max);
	printf("%-24s", "trace_hash");
	for (j = 0; j < n; j++)
		printf(" %016" PRIx64, sum[j].hash);
	printf("\n");
	for (k = 0; k < wl->nkernels; k++) {
		snprintf(label, sizeof(label), "turnaround %s",
			 wl->kernels[k].name);
		VGPU_RUN_ROW(label, PRIu64, sum[j].turnaround[k]);
	}
	/* functional workloads: each run's buffers (vgpu-sim compare's row) */
	if (vgpul_workload_num_buffers(wl))
		VGPU_RUN_ROW("buffers", "s",
			     sum[j].check.failed ? "MISMATCH" : "ok");
#undef VGPU_RUN_ROW
}

const struct vgpul_cli_cmd vgpuctl_cmd_run = {
	.name = "run",
	.usage = "[--preempt MODE] [--policy NAME] [--workers N] [--id ID]\n"
		 "          [--alone-id ID] [--no-alone] [-q|--quiet]\n"
		 "          [--priority TENANT=P] [--offset TENANT=CYCLES] WORKLOAD",
	.summary = "run a workload file or a recording on a fresh device instance\n"
		   "(root), each tenant on an open file of its own, then each\n"
		   "kernel and each tenant alone; prints the lines of vgpu-sim\n"
		   "run (times, STP, ANTT, fairness, preemption latency, trace\n"
		   "hash, tenants); progress on stderr when it is a terminal,\n"
		   "unless -q; --priority and --offset shape the tenants' mix",
	.run = vgpuctl_run_workload,
};
