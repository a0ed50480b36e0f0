// SPDX-License-Identifier: GPL-2.0
/*
 * vgpuctl - command-line interface of vgpu-dispatch (SPEC F66, F67).
 *
 *   vgpuctl [-d N] info              version, capabilities, configuration
 *   vgpuctl [-d N] stats [-j]        counters (netlink STATS_GET)
 *   vgpuctl [-d N] config [KEY VAL]  show or change the scheduler (CONFIG_SET)
 *   vgpuctl dev add|del|list         device instances
 *   vgpuctl run [opts] WORKLOAD      run a workload file through the module
 *   vgpuctl trace -o OUT [-- CMD]    netlink events as Chrome trace JSON
 *   vgpuctl [-d N] top               live SM occupancy and channel progress
 *
 * Documentation/man/vgpuctl.1 describes every command.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <vgpu/vgpu.h>
#include <vgpu/workload.h>
#include <vgpu/import.h>
#include <vgpu/metrics.h>

struct vgpu_cmd {
	const char *name;
	const char *usage;
	const char *help;
	int (*run)(int argc, char **argv);
};

static unsigned int vgpu_index;		/* -d N */
static bool vgpu_index_set;
static const struct vgpu_cmd vgpu_cmds[];

static void vgpu_usage(FILE *f)
{
	const struct vgpu_cmd *c;

	fprintf(f,
		"usage: vgpuctl [-d N] COMMAND [ARGS]\n"
		"\n"
		"  -d, --device N  use /dev/vgpuN (default 0)\n"
		"  -h, --help      this help; vgpuctl COMMAND --help for a command\n"
		"\n"
		"commands:\n");
	for (c = vgpu_cmds; c->name; c++)
		fprintf(f, "  %-7s %s\n", c->name, c->help);
}

static void vgpu_cmd_usage(FILE *f, const char *name)
{
	const struct vgpu_cmd *c;

	for (c = vgpu_cmds; c->name; c++)
		if (!strcmp(c->name, name))
			fprintf(f, "usage: vgpuctl [-d N] %s %s\n\n%s\n", c->name,
				c->usage, c->help);
}

/* True when argv[1] asks for help (-h / --help anywhere before "--"). */
static bool vgpu_wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return true;
	return false;
}

/* An error message for a failed open of /dev/vgpuN. */
static void vgpu_open_error(const char *cmd, unsigned int index, int err)
{
	if (err == -ENOENT)
		fprintf(stderr, "vgpuctl %s: /dev/vgpu%u does not exist: %s\n",
			cmd, index,
			access("/sys/bus/vgpu", F_OK) ?
			"the module is not loaded (sudo modprobe vgpu_dispatch, or insmod driver/vgpu_dispatch.ko)" :
			"no such device instance (vgpuctl dev list; vgpuctl dev add N)");
	else if (err == -EACCES || err == -EPERM)
		fprintf(stderr, "vgpuctl %s: /dev/vgpu%u: permission denied (run as root or get read-write access to the node)\n",
			cmd, index);
	else
		fprintf(stderr, "vgpuctl %s: /dev/vgpu%u: %s\n", cmd, index,
			vgpul_strerror(err));
}

static int vgpu_open_or_complain(const char *cmd, struct vgpu_dev *dev)
{
	int ret = vgpul_dev_open(vgpu_index, dev);

	if (ret)
		vgpu_open_error(cmd, vgpu_index, ret);
	return ret;
}

static int vgpu_nl_or_complain(const char *cmd, struct vgpu_nl **nl)
{
	int ret = vgpul_nl_open(nl);

	if (ret == -EPROTONOSUPPORT)
		fprintf(stderr, "vgpuctl %s: no generic netlink family \"vgpu\": the module is not loaded (sudo modprobe vgpu_dispatch, or insmod driver/vgpu_dispatch.ko)\n",
			cmd);
	else if (ret)
		fprintf(stderr, "vgpuctl %s: netlink: %s\n", cmd,
			vgpul_strerror(ret));
	return ret;
}

static void vgpu_nl_error(const char *cmd, const char *what, unsigned int dev,
			  int err)
{
	if (err == -ENODEV)
		fprintf(stderr, "vgpuctl %s: no device %u (vgpuctl dev list)\n",
			cmd, dev);
	else if (err == -EPERM)
		fprintf(stderr, "vgpuctl %s: %s: permission denied: needs CAP_NET_ADMIN (run as root)\n",
			cmd, what);
	else
		fprintf(stderr, "vgpuctl %s: %s on device %u: %s\n", cmd, what,
			dev, vgpul_strerror(err));
}

static void vgpu_dev_error(const char *cmd, const char *file, int err)
{
	if (err == -ENOENT)
		fprintf(stderr, "vgpuctl %s: /sys/bus/vgpu does not exist: the module is not loaded (sudo modprobe vgpu_dispatch)\n",
			cmd);
	else if (err == -EACCES || err == -EPERM)
		fprintf(stderr, "vgpuctl %s: /sys/bus/vgpu/%s: permission denied (device instances need root)\n",
			cmd, file);
	else if (err == -EEXIST)
		fprintf(stderr, "vgpuctl %s: the device index is in use (vgpuctl dev list)\n",
			cmd);
	else if (err == -ENODEV)
		fprintf(stderr, "vgpuctl %s: no such device instance (vgpuctl dev list)\n",
			cmd);
	else
		fprintf(stderr, "vgpuctl %s: /sys/bus/vgpu/%s: %s%s\n", cmd,
			file, vgpul_strerror(err),
			err == -EINVAL ? " (bad index, preset or option; see Documentation/uapi.rst)" : "");
}

/* Redraw / progress only on a terminal that can take escape sequences. */
static bool vgpu_fancy_tty(int fd)
{
	const char *term = getenv("TERM");

	return isatty(fd) && term && *term && strcmp(term, "dumb");
}

static bool vgpu_parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && !*end;
}

static bool vgpu_parse_u32(const char *s, unsigned int *v)
{
	uint64_t x;

	if (!vgpu_parse_u64(s, &x) || x > UINT32_MAX)
		return false;
	*v = x;
	return true;
}

/* ------------------------------------------------------------------ run */

#define VGPU_RUN_DEFAULT_ID	15
#define VGPU_CMP_MAX		16	/* policies of vgpuctl compare */

/*
 * The new_device line for a workload's device section, or an error when
 * the section sets something new_device cannot express.
 */
static int vgpu_run_device_line(const struct vgpu_workload *wl, unsigned int id,
				unsigned int workers, char *line, size_t len)
{
	struct vgpu_gpu_params want, p = wl->params;
	struct vgpu_config base;
	const char *preset = NULL;
	static const char *const presets[] = { "small", "a100", "h100" };
	unsigned int i, save_slots;
	size_t off;

	for (i = 0; i < 3 && !preset; i++) {
		if (vgpu_config_preset(&base, presets[i]))
			continue;
		base.num_sms = wl->cfg.num_sms;
		base.preset = wl->cfg.preset;
		memcpy(base.name, wl->cfg.name, sizeof(base.name));
		if (!memcmp(&base, &wl->cfg, sizeof(base)))
			preset = presets[i];
	}
	if (!preset) {
		fprintf(stderr, "vgpuctl run: the device configuration is not a preset with an optional num_sms\n");
		return -EINVAL;
	}
	vgpu_config_preset(&base, preset);
	vgpu_gpu_params_default(&want, &wl->cfg);
	/* what new_device can set */
	memcpy(want.policy, p.policy, sizeof(want.policy));
	want.preempt = p.preempt;
	want.pack = p.pack;
	want.epoch = p.epoch;
	want.g_max = p.g_max;
	want.task_slots = p.task_slots;
	want.switch_cost = p.switch_cost;
	want.sync_cost = p.sync_cost;
	save_slots = want.save_slots;
	want.save_slots = p.save_slots;
	want.max_channels = p.max_channels;
	want.num_windows = p.num_windows;
	memcpy(want.window, p.window, sizeof(want.window));
	if (memcmp(&want, &p, sizeof(p))) {
		fprintf(stderr, "vgpuctl run: the workload sets scheduling parameters new_device cannot express\n");
		return -EINVAL;
	}
	off = snprintf(line, len, "%u %s", id, preset);
	if (wl->cfg.num_sms != base.num_sms)
		off += snprintf(line + off, len - off, " num_sms=%u",
				wl->cfg.num_sms);
	off += snprintf(line + off, len - off,
			" policy=%s preempt=%s pack=%s epoch=%u g_max=%u task_slots=%u switch_cost=%u channels=%u windows=",
			p.policy, vgpul_preempt_name(p.preempt),
			vgpul_pack_name(p.pack), p.epoch, p.g_max,
			p.task_slots, p.switch_cost, p.max_channels);
	if (!p.num_windows)
		off += snprintf(line + off, len - off, "0");
	for (i = 0; i < p.num_windows; i++)
		off += snprintf(line + off, len - off, "%s%u", i ? "," : "",
				p.window[i]);
	if (p.save_slots != save_slots)	/* F15: child-mix.json */
		off += snprintf(line + off, len - off, " save_slots=%u",
				p.save_slots);
	if (p.sync_cost)	/* F17 */
		off += snprintf(line + off, len - off, " sync_cost=%u",
				p.sync_cost);
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

static int vgpu_run_submit(struct vgpu_dev *const *kd,
			   const struct vgpu_workload *wl, int only,
			   const uint32_t *chan, uint32_t *handles)
{
	struct vgpu_template tmpl[VGPU_MAX_TEMPLATES];
	const struct vgpu_wl_template *wt;
	struct vgpu_submit_desc d;
	const struct vgpu_wl_kernel *wk;
	uint32_t i, j, w;
	int ret;

	for (i = 0; i < wl->nkernels; i++) {
		if (only >= 0 && i != (uint32_t)only)
			continue;
		wk = &wl->kernels[i];
		if (wk->push_to || wk->records) {
			fprintf(stderr, "vgpuctl run: kernel %s: push_to and queue records (PUSH, F14) cannot go through the uapi yet\n",
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
		d.flags = VGPU_KERNEL_PRIORITY |
			  (wk->flags & VGPU_KF_INDEPENDENT ? VGPU_KERNEL_INDEPENDENT : 0) |
			  (wk->flags & VGPU_KF_SEQUENTIAL ? VGPU_KERNEL_SEQUENTIAL : 0) |
			  (wk->flags & VGPU_KF_THROTTLE ? VGPU_KERNEL_THROTTLE : 0) |
			  (wk->flags & VGPU_KF_HEAD ? VGPU_KERNEL_HEAD : 0) |
			  (wk->flags & VGPU_KF_QUEUE ? VGPU_KERNEL_QUEUE : 0);
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
		d.num_insns = wk->prog.n;
		d.program = (uintptr_t)wk->prog.insns;
		for (w = 0; w < VGPU_GPU_AFF_WORDS; w++) {
			if (wk->affinity[w]) {
				d.affinity = (uintptr_t)wk->affinity;
				d.affinity_bits = VGPU_GPU_AFF_WORDS * 64;
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
			tmpl[j].flags =
				(wt->flags & VGPU_KF_INDEPENDENT ? VGPU_KERNEL_INDEPENDENT : 0) |
				(wt->flags & VGPU_KF_SEQUENTIAL ? VGPU_KERNEL_SEQUENTIAL : 0);
			tmpl[j].num_insns = wt->prog.n;
			tmpl[j].program = (uintptr_t)wt->prog.insns;
		}
		if (wk->n_templates) {
			d.templates = (uintptr_t)tmpl;
			d.num_templates = wk->n_templates;
			d.template_size = sizeof(tmpl[0]);
		}
		d.child_budget = wk->child_budget;
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
		if (only >= 0 && i != (uint32_t)only)
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
 * tenants are its open files, &vgpu_gpu_kernel.tenant), the first tenant
 * on the caller's @dev.
 */
struct vgpu_run_files {
	struct vgpu_dev *of[VGPU_GPU_MAX_CHANNELS];	/* by tenant */
	struct vgpu_dev more[VGPU_GPU_MAX_CHANNELS];
	bool opened[VGPU_GPU_MAX_CHANNELS];
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
			vgpu_open_error("run", id, ret);
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

	for (t = 0; t < VGPU_GPU_MAX_CHANNELS; t++)
		if (f->opened[t])
			vgpul_dev_close(&f->more[t]);
}

/* Wait for every kernel of @wl on @dev's files, a tenant at a time. */
static int vgpu_run_wait(struct vgpu_dev *dev, const struct vgpu_run_files *f,
			 const struct vgpu_workload *wl, const char *what,
			 const uint32_t *handles, const bool *mine, uint32_t *wh,
			 struct vgpu_dev *const *kd)
{
	bool tty = !vgpu_run_quiet && vgpu_fancy_tty(2);
	uint32_t i, n, t, cnt;
	int ret = 0;

	for (t = 0; !ret && t < VGPU_GPU_MAX_CHANNELS; t++) {
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
		       const char *what, struct vgpu_run_res *res)
{
	uint32_t chan[VGPU_GPU_MAX_CHANNELS], prio[VGPU_GPU_MAX_CHANNELS];
	uint32_t tenant[VGPU_GPU_MAX_CHANNELS];
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
	for (i = 0; i < VGPU_GPU_MAX_CHANNELS; i++) {
		prio[i] = wl->cfg.num_prios - 1;
		tenant[i] = VGPU_GPU_MAX_CHANNELS;
	}
	for (i = 0; i < wl->nkernels; i++) {
		const struct vgpu_wl_kernel *wk = &wl->kernels[i];

		if (only >= 0 && i != (uint32_t)only)
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
		ret = vgpul_channel_create(tenant[i] < VGPU_GPU_MAX_CHANNELS ?
					  f->of[tenant[i]] : dev,
					  prio[i], 0, &chan[i]);
	if (ret) {
		fprintf(stderr, "vgpuctl run: %s: %s%s\n", what,
			i ? "CHANNEL_CREATE" : "GATE", vgpul_strerror(ret));
		goto out;
	}
	ret = vgpu_run_submit(kd, wl, only, chan, handles);
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
out:
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
			  struct vgpu_run_res *res, uint64_t *trace_hash)
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
		ret = vgpu_run_on(&dev, id, wl, only, what, res);
		if (!ret && trace_hash) {
			ret = vgpul_get_info(&dev, &info);
			*trace_hash = info.trace_hash;
		}
		vgpul_dev_close(&dev);
	} else {
		vgpu_open_error("run", id, ret);
	}
	ret2 = vgpul_dev_del(id);
	if (ret2 && !ret) {
		vgpu_dev_error("run", "del_device", ret2);
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
 */
struct vgpu_run_sum {
	uint64_t *turnaround;
	uint64_t makespan;
	uint64_t lat_max;
	struct vgpu_metrics m;
	uint64_t hash;
};

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
	if (!res || !ares || !t_alone || !sum->turnaround) {
		fprintf(stderr, "vgpuctl run: out of memory\n");
		ret = -ENOMEM;
		goto out;
	}
	ret = vgpu_run_fresh(wl, id, line, -1, "shared run", res, &sum->hash);
	if (ret)
		goto out;
	for (i = 0; i < wl->nkernels; i++) {
		const struct vgpu_kernel_query *q = &res[i].q;

		if (q->state == VGPU_KSTATE_FAILED) {	/* F15 limit */
			if (out)
				fprintf(out, "kernel=%s submit=%llu start=%lld end=failed error=%d\n",
					wl->kernels[i].name,
					(unsigned long long)q->t_submit,
					q->t_start == VGPU_NO_CYCLE ? -1LL :
					(long long)q->t_start, q->error);
			continue;
		}
		if (q->state != VGPU_KSTATE_DONE) {
			if (out)
				fprintf(out, "kernel=%s submit=%llu start=%lld end=cancelled\n",
					wl->kernels[i].name,
					(unsigned long long)q->t_submit,
					q->t_start == VGPU_NO_CYCLE ? -1LL :
					(long long)q->t_start);
			continue;
		}
		sum->turnaround[i] = q->t_complete - q->t_submit;
		/* a queue kernel closed without items never started (F14) */
		if (out)
			fprintf(out, "kernel=%s submit=%llu start=%lld end=%llu turnaround=%llu\n",
				wl->kernels[i].name,
				(unsigned long long)q->t_submit,
				q->t_start == VGPU_NO_CYCLE ? -1LL :
				(long long)q->t_start,
				(unsigned long long)q->t_complete,
				(unsigned long long)sum->turnaround[i]);
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
		ret = vgpu_run_fresh(wl, alone_id, line, i, what, ares, NULL);
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

static void vgpu_run_table(const struct vgpu_workload *wl,
			   const char *const *pol,
			   const struct vgpu_run_sum *sum, unsigned int n);

static int vgpu_cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "workers", required_argument, NULL, 'w' },
		{ "id", required_argument, NULL, 'i' },
		{ "alone-id", required_argument, NULL, 'a' },
		{ "preempt", required_argument, NULL, 'p' },
		{ "policy", required_argument, NULL, 'P' },
		{ "no-alone", no_argument, NULL, 'n' },
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
	unsigned int npol = 0, n, j;
	char err[512];
	int c, ret, mode;

	memset(sum, 0, sizeof(sum));
	optind = 1;
	while ((c = getopt_long(argc, argv, "+w:i:a:p:P:nqh", opts, NULL)) != -1) {
		switch (c) {
		case 'w':
		case 'i':
		case 'a':
			if (!vgpu_parse_u32(optarg, c == 'w' ? &workers :
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
			break;
		case 'P':
			if (strlen(optarg) >= VGPU_POLICY_NAME_LEN) {
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
		case 'q':
			vgpu_run_quiet = true;
			break;
		case 'h':
			vgpu_cmd_usage(stdout, argv[0]);
			return 0;
		default:
			vgpu_cmd_usage(stderr, argv[0]);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "vgpuctl %s: which workload file?\n", argv[0]);
		vgpu_cmd_usage(stderr, argv[0]);
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
	/* second pass over the options that change the workload */
	optind = 1;
	while ((c = getopt_long(argc, argv, "+w:i:a:p:P:nqh", opts, NULL)) != -1)
		if (c == 'p')
			wl.params.preempt = vgpul_preempt_parse(optarg);
	/* run: the last --policy; compare: each in turn */
	n = compare ? npol : 1;
	for (j = 0; j < n; j++) {
		if (npol)
			snprintf(wl.params.policy, sizeof(wl.params.policy),
				 "%s", pol[compare ? j : npol - 1]);
		ret = vgpu_run_measure(&wl, id, alone_id, workers, alone,
				       compare ? NULL : stdout, &sum[j]);
		if (ret)
			goto out;
	}
	if (compare) {
		vgpu_run_table(&wl, pol, sum, n);
		goto out;
	}
	printf("makespan=%llu\n", (unsigned long long)sum[0].makespan);
	if (alone)
		printf("stp=%.3f\nantt=%.3f\nfairness=%.3f\n", sum[0].m.stp,
		       sum[0].m.antt, sum[0].m.fairness);
	printf("preempt_latency_max=%llu\n",
	       (unsigned long long)sum[0].lat_max);
	printf("trace_hash=0x%016llx\n", (unsigned long long)sum[0].hash);
out:
	for (j = 0; j < VGPU_CMP_MAX; j++)
		free(sum[j].turnaround);
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
#undef VGPU_RUN_ROW
}

/* ----------------------------------------------------------------- info */

static const char *const vgpu_preset_names[] = {
	[VGPU_PRESET_CUSTOM] = "custom",
	[VGPU_PRESET_SMALL] = "small",
	[VGPU_PRESET_A100] = "a100",
	[VGPU_PRESET_H100] = "h100",
};

static int vgpu_cmd_info(int argc, char **argv)
{
	const struct vgpu_dev_config *c;
	struct vgpu_info info;
	struct vgpu_dev dev;
	int ret;

	if (argc > 1) {
		vgpu_cmd_usage(stderr, "info");
		return 2;
	}
	if (vgpu_open_or_complain("info", &dev))
		return 1;
	ret = vgpul_get_info(&dev, &info);
	vgpul_dev_close(&dev);
	if (ret) {
		fprintf(stderr, "vgpuctl info: GET_INFO on /dev/vgpu%u: %s\n",
			vgpu_index, vgpul_strerror(ret));
		return 1;
	}
	c = &info.config;
	printf("device:     /dev/vgpu%u\n", info.dev_index);
	printf("version:    %u.%u.%u\n", info.version_major,
	       info.version_minor, info.version_patch);
	printf("caps:       0x%llx\n", (unsigned long long)info.caps);
	printf("preset:     %s (%.16s)\n",
	       c->preset < 4 ? vgpu_preset_names[c->preset] : "?", c->name);
	printf("sms:        %u x %u sub-partitions\n", c->num_sms, c->subparts);
	printf("registers:  %u per sub-partition, unit %u\n",
	       c->regs_per_subpart, c->reg_unit);
	printf("warps:      %u per sub-partition, %u per SM, %u threads each\n",
	       c->warps_per_subpart, c->max_warps_per_sm, c->warp_size);
	printf("blocks:     %u per SM, %u threads max, %u barriers per SM\n",
	       c->max_blocks_per_sm, c->max_threads_per_block,
	       c->max_barriers_per_sm);
	printf("shared mem: %u B per SM, unit %u B, %u B reserved per block, %u B max per block\n",
	       c->smem_per_sm, c->smem_unit, c->smem_reserve,
	       c->smem_max_per_block);
	printf("priorities: %u (0 is the highest)\n", c->num_prios);
	printf("workers:    %u\n", info.workers);
	printf("cycle:      %llu\n", (unsigned long long)info.cycle);
	printf("trace_hash: 0x%016llx\n", (unsigned long long)info.trace_hash);
	return 0;
}

/* ---------------------------------------------------------------- stats */

static void vgpu_json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		if ((unsigned char)*s >= 0x20)
			putchar(*s);
	}
	putchar('"');
}

static void vgpu_counters_json(const struct vgpu_nl_counters *c)
{
	bool first = true;
	unsigned int a;

	putchar('{');
	for (a = VGPU_A_STATS_ID; a <= VGPU_A_STATS_MAX; a++) {
		if (!(c->present & (1ULL << a)))
			continue;
		printf("%s\"%s\":%llu", first ? "" : ",", vgpul_nl_stat_name(a),
		       (unsigned long long)c->v[a]);
		first = false;
	}
	putchar('}');
}

static void vgpu_counters_array_json(const char *name,
				     const struct vgpu_nl_counters *c,
				     unsigned int n)
{
	unsigned int i;

	printf(",\"%s\":[", name);
	for (i = 0; i < n; i++) {
		if (i)
			putchar(',');
		vgpu_counters_json(&c[i]);
	}
	putchar(']');
}

/* One table: a header of counter names, then a row per entry. */
static void vgpu_counters_table(const char *title,
				const struct vgpu_nl_counters *c,
				unsigned int n)
{
	unsigned int i, a;

	if (!n)
		return;
	printf("%s:\n ", title);
	for (a = VGPU_A_STATS_ID; a <= VGPU_A_STATS_MAX; a++)
		if (c[0].present & (1ULL << a))
			printf(" %12s", vgpul_nl_stat_name(a));
	putchar('\n');
	for (i = 0; i < n; i++) {
		putchar(' ');
		for (a = VGPU_A_STATS_ID; a <= VGPU_A_STATS_MAX; a++)
			if (c[0].present & (1ULL << a))
				printf(" %12llu", (unsigned long long)c[i].v[a]);
		putchar('\n');
	}
}

static int vgpu_cmd_stats(int argc, char **argv)
{
	struct vgpu_nl_dev devs[16];
	struct vgpu_nl_stats st;
	struct vgpu_nl *nl;
	bool json = false;
	int i, n, ret, a;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			vgpu_cmd_usage(stdout, "stats");
			return 0;
		} else {
			fprintf(stderr, "vgpuctl stats: unknown argument '%s'\n",
				argv[i]);
			vgpu_cmd_usage(stderr, "stats");
			return 2;
		}
	}
	if (vgpu_nl_or_complain("stats", &nl))
		return 1;
	if (vgpu_index_set) {
		ret = vgpul_nl_dev_get(nl, vgpu_index, &devs[0]);
		n = ret ? ret : 1;
	} else {
		n = vgpul_nl_dev_list(nl, devs, 16);
	}
	if (n < 0) {
		vgpu_nl_error("stats", "DEV_GET", vgpu_index, n);
		vgpul_nl_close(nl);
		return 1;
	}
	if (json)
		putchar('[');
	for (i = 0; i < n && i < 16; i++) {
		ret = vgpul_nl_stats_get(nl, devs[i].index, &st);
		if (ret == -ENODEV && !vgpu_index_set)
			continue;	/* deleted meanwhile */
		if (ret) {
			if (json)
				printf("]\n");
			fflush(stdout);
			vgpu_nl_error("stats", "STATS_GET", devs[i].index, ret);
			vgpul_nl_close(nl);
			return 1;
		}
		if (json) {
			printf("%s{\"dev\":%u,\"name\":", i ? "," : "",
			       devs[i].index);
			vgpu_json_str(devs[i].name);
			printf(",\"stats\":");
			vgpu_counters_json(&st.dev);
			vgpu_counters_array_json("sm", st.sm, st.n_sm);
			vgpu_counters_array_json("prio", st.prio, st.n_prio);
			vgpu_counters_array_json("channels", st.chan,
						 st.n_chan);
			putchar('}');
		} else {
			printf("%sdev %u: %s\n", i ? "\n" : "", devs[i].index,
			       devs[i].name);
			for (a = VGPU_A_STATS_NOW; a <= VGPU_A_STATS_MAX; a++)
				if (st.dev.present & (1ULL << a))
					printf("  %-16s %llu\n",
					       vgpul_nl_stat_name(a),
					       (unsigned long long)st.dev.v[a]);
			vgpu_counters_table("sm", st.sm, st.n_sm);
			vgpu_counters_table("prio", st.prio, st.n_prio);
			vgpu_counters_table("channels", st.chan, st.n_chan);
		}
		vgpul_nl_stats_free(&st);
	}
	if (json)
		printf("]\n");
	vgpul_nl_close(nl);
	return 0;
}

/* --------------------------------------------------------------- config */

static void vgpu_config_show(const struct vgpu_nl_dev *d)
{
	unsigned int i;

	printf("dev %u: %s\n", d->index, d->name);
	printf("  preset        %s\n", d->preset);
	printf("  sms           %u\n", d->num_sms);
	printf("  priorities    %u\n", d->num_prios);
	printf("  policy        %s\n", d->policy);
	printf("  preempt       %s\n", vgpul_nl_preempt_name(d->preempt));
	printf("  windows       ");
	if (!d->num_windows)
		printf("off");
	for (i = 0; i < d->num_windows; i++)
		printf("%s%u", i ? "," : "", d->windows[i]);
	printf("\n  epoch         %u\n", d->epoch);
	printf("  timeout       %llu\n", (unsigned long long)d->timeout);
	printf("  event-budget  %u\n", d->event_budget);
	printf("  clock         %s", d->clock ? "paced" : "free");
	if (d->clock)
		printf(" %u kHz", d->freq_khz);
	printf("\n  task-slots    %u\n", d->task_slots);
	printf("  sync-cost     %u\n", d->sync_cost);
}

static int vgpu_parse_windows(const char *s, struct vgpu_nl_config *cfg)
{
	char buf[256], *tok, *save = NULL;

	cfg->num_windows = 0;
	if (!strcmp(s, "off") || !strcmp(s, "0"))
		return 0;
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (cfg->num_windows == VGPU_NL_MAX_WINDOWS ||
		    !vgpu_parse_u32(tok, &cfg->windows[cfg->num_windows]))
			return -EINVAL;
		cfg->num_windows++;
	}
	return cfg->num_windows ? 0 : -EINVAL;
}

static int vgpu_cmd_config(int argc, char **argv)
{
	struct vgpu_nl_config cfg;
	struct vgpu_nl_dev d;
	struct vgpu_nl *nl;
	int i, ret;

	if (vgpu_wants_help(argc, argv)) {
		vgpu_cmd_usage(stdout, "config");
		return 0;
	}
	memset(&cfg, 0, sizeof(cfg));
	for (i = 1; i < argc; i += 2) {
		const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v) {
			fprintf(stderr, "vgpuctl config: %s needs a value\n", k);
			return 2;
		}
		if (!strcmp(k, "policy")) {
			if (strlen(v) >= sizeof(cfg.policy))
				goto bad;
			snprintf(cfg.policy, sizeof(cfg.policy), "%s", v);
			cfg.set |= VGPU_NL_SET_POLICY;
		} else if (!strcmp(k, "preempt")) {
			ret = vgpul_nl_preempt_parse(v);
			if (ret < 0) {
				fprintf(stderr, "vgpuctl config: unknown preemption mode '%s' (drain, warp, switch)\n",
					v);
				return 2;
			}
			cfg.preempt = ret;
			cfg.set |= VGPU_NL_SET_PREEMPT;
		} else if (!strcmp(k, "windows")) {
			if (vgpu_parse_windows(v, &cfg))
				goto bad;
			cfg.set |= VGPU_NL_SET_WINDOWS;
		} else if (!strcmp(k, "timeout")) {
			if (!vgpu_parse_u64(v, &cfg.timeout))
				goto bad;
			cfg.set |= VGPU_NL_SET_TIMEOUT;
		} else if (!strcmp(k, "event-budget")) {
			if (!vgpu_parse_u32(v, &cfg.event_budget))
				goto bad;
			cfg.set |= VGPU_NL_SET_BUDGET;
		} else if (!strcmp(k, "sync-cost")) {
			if (!vgpu_parse_u32(v, &cfg.sync_cost))
				goto bad;
			cfg.set |= VGPU_NL_SET_SYNC_COST;
		} else {
			fprintf(stderr, "vgpuctl config: unknown key '%s' (policy, preempt, windows, timeout, event-budget, sync-cost)\n",
				k);
			return 2;
		}
		continue;
bad:
		fprintf(stderr, "vgpuctl config: bad value '%s' for %s\n", v, k);
		return 2;
	}
	if (vgpu_nl_or_complain("config", &nl))
		return 1;
	if (cfg.set) {
		ret = vgpul_nl_config_set(nl, vgpu_index, &cfg);
		if (ret) {
			if (ret == -ENOENT)
				fprintf(stderr, "vgpuctl config: unknown policy '%s' (rr, avail, resource, power)\n",
					cfg.policy);
			else if (ret == -EINVAL || ret == -ERANGE)
				fprintf(stderr, "vgpuctl config: the device rejected a value (%s; see the kernel's extack in Documentation/netlink.rst)\n",
					vgpul_strerror(ret));
			else
				vgpu_nl_error("config", "CONFIG_SET",
					      vgpu_index, ret);
			vgpul_nl_close(nl);
			return 1;
		}
	}
	ret = vgpul_nl_dev_get(nl, vgpu_index, &d);
	if (ret) {
		vgpu_nl_error("config", "DEV_GET", vgpu_index, ret);
		vgpul_nl_close(nl);
		return 1;
	}
	vgpu_config_show(&d);
	vgpul_nl_close(nl);
	return 0;
}

/* ------------------------------------------------------------------ dev */

static int vgpu_cmd_dev(int argc, char **argv)
{
	struct vgpu_nl_dev devs[16];
	struct vgpu_nl *nl;
	unsigned int id;
	char opts[400];
	size_t off = 0;
	int i, n, ret;

	if (vgpu_wants_help(argc, argv)) {
		vgpu_cmd_usage(stdout, "dev");
		return 0;
	}
	if (argc < 2 || (strcmp(argv[1], "list") && argc < 3)) {
		vgpu_cmd_usage(stderr, "dev");
		return 2;
	}
	if (!strcmp(argv[1], "list")) {
		if (vgpu_nl_or_complain("dev list", &nl))
			return 1;
		n = vgpul_nl_dev_list(nl, devs, 16);
		vgpul_nl_close(nl);
		if (n < 0) {
			vgpu_nl_error("dev list", "DEV_GET", 0, n);
			return 1;
		}
		for (i = 0; i < n && i < 16; i++)
			printf("vgpu%u %s preset=%s sms=%u policy=%s preempt=%s\n",
			       devs[i].index, devs[i].name, devs[i].preset,
			       devs[i].num_sms, devs[i].policy,
			       vgpul_nl_preempt_name(devs[i].preempt));
		return 0;
	}
	if (!vgpu_parse_u32(argv[2], &id) || id > 15) {
		fprintf(stderr, "vgpuctl dev: bad device index '%s' (0-15)\n",
			argv[2]);
		return 2;
	}
	if (!strcmp(argv[1], "add")) {
		opts[0] = 0;
		for (i = 3; i < argc; i++) {
			n = snprintf(opts + off, sizeof(opts) - off, "%s%s",
				     off ? " " : "", argv[i]);
			if (n < 0 || (size_t)n >= sizeof(opts) - off) {
				fprintf(stderr, "vgpuctl dev add: options too long\n");
				return 2;
			}
			off += n;
		}
		ret = vgpul_dev_add(id, opts);
		if (ret) {
			vgpu_dev_error("dev add", "new_device", ret);
			return 1;
		}
		printf("/dev/vgpu%u created\n", id);
		return 0;
	}
	if (!strcmp(argv[1], "del")) {
		if (argc != 3) {
			vgpu_cmd_usage(stderr, "dev");
			return 2;
		}
		ret = vgpul_dev_del(id);
		if (ret) {
			vgpu_dev_error("dev del", "del_device", ret);
			return 1;
		}
		printf("/dev/vgpu%u destroyed\n", id);
		return 0;
	}
	fprintf(stderr, "vgpuctl dev: unknown subcommand '%s' (add, del, list)\n",
		argv[1]);
	return 2;
}

/* ---------------------------------------------------------------- trace */

struct vgpu_tr_kernel {
	uint32_t dev, kernel, prio;
	uint64_t t_submit, t_first;
	uint32_t blocks, preempts;
};

struct vgpu_tr {
	FILE *f;
	int dev;			/* -1: every device */
	struct vgpu_tr_kernel *k;
	size_t nk, capk;
	uint64_t tracks[16][4];		/* per device: SM tracks named (256) */
	uint32_t procs;			/* bit d: process_name of device d */
	uint64_t next_seq[16];
	bool seq_seen[16];
	uint64_t events, dispatches, preempts, slices, lost;
};

static volatile sig_atomic_t vgpu_stop;

static void vgpu_on_signal(int sig)
{
	vgpu_stop = 1;
}

static void vgpu_tr_meta(struct vgpu_tr *t, uint32_t dev, uint32_t tid,
			 const char *fmt, uint32_t arg)
{
	fprintf(t->f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":\"",
		dev, tid);
	fprintf(t->f, fmt, arg);
	fprintf(t->f, "\"}}");
}

static void vgpu_tr_track(struct vgpu_tr *t, uint32_t dev, uint32_t sm)
{
	if (!(t->procs & (1u << dev))) {
		t->procs |= 1u << dev;
		fprintf(t->f, ",\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%u,\"args\":{\"name\":\"vgpu%u\"}}",
			dev, dev);
	}
	if (sm < 256 && !(t->tracks[dev][sm / 64] & (1ULL << (sm % 64)))) {
		t->tracks[dev][sm / 64] |= 1ULL << (sm % 64);
		vgpu_tr_meta(t, dev, sm, "SM %u", sm);
	}
}

static struct vgpu_tr_kernel *vgpu_tr_find(struct vgpu_tr *t, uint32_t dev,
					   uint32_t kernel)
{
	size_t i;

	for (i = 0; i < t->nk; i++)
		if (t->k[i].dev == dev && t->k[i].kernel == kernel)
			return &t->k[i];
	return NULL;
}

/* Chrome's reserved colour names, as in vgpu-sim's trace. */
static const char *const vgpu_tr_colors[] = {
	"thread_state_running", "rail_response", "rail_animation",
	"thread_state_iowait", "rail_idle", "rail_load", "good", "bad",
};

static int vgpu_tr_event(const struct vgpu_nl_ev *ev, void *arg)
{
	struct vgpu_tr *t = arg;
	struct vgpu_tr_kernel *k;
	const char *color;

	if (ev->dev >= 16 || (t->dev >= 0 && ev->dev != (uint32_t)t->dev))
		return 0;
	t->events++;
	if (t->seq_seen[ev->dev] && ev->seq > t->next_seq[ev->dev])
		t->lost += ev->seq - t->next_seq[ev->dev];
	t->seq_seen[ev->dev] = true;
	t->next_seq[ev->dev] = ev->seq + 1;
	vgpu_tr_track(t, ev->dev, ev->sm);
	k = vgpu_tr_find(t, ev->dev, ev->kernel);
	color = vgpu_tr_colors[ev->kernel % (sizeof(vgpu_tr_colors) /
					     sizeof(vgpu_tr_colors[0]))];
	switch (ev->type) {
	case VGPU_EVENT_SUBMIT:
		if (!k) {
			if (t->nk == t->capk) {
				struct vgpu_tr_kernel *nk;

				t->capk = t->capk ? 2 * t->capk : 64;
				nk = realloc(t->k, t->capk * sizeof(*nk));
				if (!nk)
					return -ENOMEM;
				t->k = nk;
			}
			k = &t->k[t->nk++];
		}
		*k = (struct vgpu_tr_kernel){ ev->dev, ev->kernel, ev->prio,
					      ev->cycle, VGPU_NO_CYCLE, 0, 0 };
		vgpu_tr_meta(t, ev->dev, 1000 + ev->kernel, "kernel %u",
			     ev->kernel);
		break;
	case VGPU_EVENT_DISPATCH:
		t->dispatches++;
		if (k) {
			k->blocks++;
			if (k->t_first == VGPU_NO_CYCLE)
				k->t_first = ev->cycle;
		}
		fprintf(t->f, ",\n{\"name\":\"k%u b%u\",\"cat\":\"dispatch\",\"ph\":\"i\",\"s\":\"t\",\"pid\":%u,\"tid\":%u,\"ts\":%llu,\"cname\":\"%s\",\"args\":{\"kernel\":%u,\"block\":%u}}",
			ev->kernel, ev->block, ev->dev, ev->sm,
			(unsigned long long)ev->cycle, color, ev->kernel,
			ev->block);
		break;
	case VGPU_EVENT_PREEMPT:
		t->preempts++;
		if (k)
			k->preempts++;
		fprintf(t->f, ",\n{\"name\":\"preempt\",\"cat\":\"preempt\",\"ph\":\"i\",\"s\":\"t\",\"pid\":%u,\"tid\":%u,\"ts\":%llu,\"args\":{\"kernel\":%u,\"block\":%u}}",
			ev->dev, ev->sm, (unsigned long long)ev->cycle,
			ev->kernel, ev->block);
		break;
	case VGPU_EVENT_COMPLETE:
	case VGPU_EVENT_HANG:
		if (!k)
			break;
		t->slices++;
		fprintf(t->f, ",\n{\"name\":\"kernel %u\",\"cat\":\"kernel\",\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"ts\":%llu,\"dur\":%llu,\"cname\":\"%s\",\"args\":{\"prio\":%u,\"first_dispatch\":%lld,\"blocks_dispatched\":%u,\"preemptions\":%u,\"end\":\"%s\"}}",
			ev->kernel, ev->dev, 1000 + ev->kernel,
			(unsigned long long)k->t_submit,
			(unsigned long long)(ev->cycle - k->t_submit), color,
			k->prio, k->t_first == VGPU_NO_CYCLE ? -1LL :
			(long long)k->t_first, k->blocks, k->preempts,
			ev->type == VGPU_EVENT_HANG ? "hang" : "complete");
		*k = t->k[--t->nk];
		break;
	}
	return 0;
}

static int vgpu_cmd_trace(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "count", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vgpu_tr t;
	struct vgpu_nl *nl;
	const char *out = NULL;
	unsigned int count = 0;
	pid_t child = -1;
	int c, ret, status = 0, rc = 0;

	memset(&t, 0, sizeof(t));
	t.dev = vgpu_index_set ? (int)vgpu_index : -1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+o:c:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'c':
			if (!vgpu_parse_u32(optarg, &count)) {
				fprintf(stderr, "vgpuctl trace: bad count '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'h':
			vgpu_cmd_usage(stdout, "trace");
			return 0;
		default:
			vgpu_cmd_usage(stderr, "trace");
			return 2;
		}
	}
	if (!out) {
		fprintf(stderr, "vgpuctl trace: -o OUT.json is required\n");
		vgpu_cmd_usage(stderr, "trace");
		return 2;
	}
	if (vgpu_nl_or_complain("trace", &nl))
		return 1;
	ret = vgpul_nl_subscribe(nl, vgpu_tr_event, &t);
	if (ret) {
		fprintf(stderr, "vgpuctl trace: joining the \"events\" group: %s\n",
			vgpul_strerror(ret));
		vgpul_nl_close(nl);
		return 1;
	}
	t.f = strcmp(out, "-") ? fopen(out, "w") : stdout;
	if (!t.f) {
		fprintf(stderr, "vgpuctl trace: cannot write %s: %s\n", out,
			strerror(errno));
		vgpul_nl_close(nl);
		return 1;
	}
	fprintf(t.f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"unit\":\"1 us = 1 virtual cycle\",\"source\":\"vgpuctl trace (netlink events)\"},\"traceEvents\":[\n{\"name\":\"trace\",\"ph\":\"M\",\"pid\":0,\"args\":{}}");
	signal(SIGINT, vgpu_on_signal);
	signal(SIGTERM, vgpu_on_signal);
	if (optind < argc) {
		if (!strcmp(argv[optind], "--"))
			optind++;
		fflush(NULL);
		child = fork();
		if (child < 0) {
			fprintf(stderr, "vgpuctl trace: fork: %s\n",
				strerror(errno));
			rc = 1;
			goto out;
		}
		if (!child) {
			execvp(argv[optind], argv + optind);
			fprintf(stderr, "vgpuctl trace: cannot run %s: %s\n",
				argv[optind], strerror(errno));
			_exit(127);
		}
	} else {
		fprintf(stderr, "vgpuctl trace: recording to %s; Ctrl-C stops\n",
			out);
	}
	for (;;) {
		ret = vgpul_nl_recv_events(nl, 200);
		if (ret < 0) {
			fprintf(stderr, "vgpuctl trace: receiving events: %s\n",
				vgpul_strerror(ret));
			rc = 1;
			break;
		}
		if (count && t.events >= count)
			break;
		if (child > 0 && waitpid(child, &status, WNOHANG) == child) {
			/* everything the run caused is queued: drain it */
			while (vgpul_nl_recv_events(nl, 0) > 0)
				;
			child = -1;
			rc = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
			break;
		}
		if (vgpu_stop)
			break;
	}
	if (child > 0) {
		kill(child, SIGTERM);
		waitpid(child, &status, 0);
	}
out:
	fprintf(t.f, "\n]}\n");
	if (t.f != stdout ? fclose(t.f) : fflush(t.f)) {
		fprintf(stderr, "vgpuctl trace: write error on %s\n", out);
		rc = 1;
	}
	fprintf(stderr, "vgpuctl trace: %llu events (%llu dispatches, %llu preemptions, %llu kernel slices), %llu lost, %llu overruns -> %s\n",
		(unsigned long long)t.events,
		(unsigned long long)t.dispatches,
		(unsigned long long)t.preempts, (unsigned long long)t.slices,
		(unsigned long long)t.lost,
		(unsigned long long)vgpul_nl_overruns(nl), out);
	free(t.k);
	vgpul_nl_close(nl);
	return rc;
}

/* ------------------------------------------------------------------ top */

/* Per-SM blocks and free warps from debugfs' sm view, if readable. */
static int vgpu_top_debugfs(const char *name, unsigned int nsm,
			    unsigned int *blocks, unsigned int *free_warps)
{
	char path[128], line[512];
	unsigned int sm, fw, b, n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/vgpu/%s/sm", name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		if (sscanf(line, "%u %*s %*s %*s %u %u/", &sm, &fw, &b) != 3 ||
		    sm >= nsm)
			continue;
		blocks[sm] = b;
		free_warps[sm] = fw;
		n++;
	}
	fclose(f);
	return n ? 0 : -EIO;
}

static void vgpu_bar(unsigned int used, unsigned int max, unsigned int width)
{
	unsigned int i, fill = max ? (used * width + max - 1) / max : 0;

	putchar('[');
	for (i = 0; i < width; i++)
		putchar(i < fill ? '#' : '.');
	putchar(']');
}

static int vgpu_top_once(struct vgpu_nl *nl, const struct vgpu_info *info,
			 bool clear)
{
	unsigned int blocks[VGPU_MAX_SMS], fw[VGPU_MAX_SMS], i, nsm;
	const struct vgpu_dev_config *c = &info->config;
	const struct vgpu_nl_counters *s;
	struct vgpu_nl_stats st;
	struct vgpu_nl_dev d;
	bool dbg;
	int ret;

	ret = vgpul_nl_dev_get(nl, vgpu_index, &d);
	if (!ret)
		ret = vgpul_nl_stats_get(nl, vgpu_index, &st);
	if (ret) {
		vgpu_nl_error("top", "netlink", vgpu_index, ret);
		return ret;
	}
	nsm = c->num_sms < VGPU_MAX_SMS ? c->num_sms : VGPU_MAX_SMS;
	dbg = !vgpu_top_debugfs(d.name, nsm, blocks, fw);
	if (clear)
		printf("\033[H\033[2J");
	s = &st.dev;
	printf("vgpuctl top - /dev/vgpu%u %s (%s, %u SMs)  cycle %llu  policy %s  preempt %s\n",
	       vgpu_index, d.name, d.preset, c->num_sms,
	       (unsigned long long)s->v[VGPU_A_STATS_NOW], d.policy,
	       vgpul_nl_preempt_name(d.preempt));
	printf("kernels: %llu submitted, %llu completed, %llu cancelled, %llu hangs; blocks %llu, preemptions %llu, events dropped %llu\n\n",
	       (unsigned long long)s->v[VGPU_A_STATS_SUBMITTED],
	       (unsigned long long)s->v[VGPU_A_STATS_COMPLETED],
	       (unsigned long long)s->v[VGPU_A_STATS_CANCELLED],
	       (unsigned long long)s->v[VGPU_A_STATS_HANGS],
	       (unsigned long long)s->v[VGPU_A_STATS_BLOCKS],
	       (unsigned long long)s->v[VGPU_A_STATS_PREEMPTIONS],
	       (unsigned long long)s->v[VGPU_A_STATS_EVENTS_DROPPED]);
	printf("  SM  blocks %-22s  warps %-22s  done\n", "", "");
	for (i = 0; i < nsm && i < st.n_sm; i++) {
		const struct vgpu_nl_counters *m = &st.sm[i];
		unsigned int b, w;

		if (dbg) {
			b = blocks[i];
			w = c->max_warps_per_sm - fw[i];
		} else {	/* resident = placed - switched out - finished */
			b = m->v[VGPU_A_STATS_BLOCKS] -
			    m->v[VGPU_A_STATS_PREEMPTIONS] -
			    m->v[VGPU_A_STATS_BLOCKS_DONE] -
			    m->v[VGPU_A_STATS_BLOCKS_CANCELLED];
			w = 0;
		}
		printf("  %2u  %3u/%-3u ", i, b, c->max_blocks_per_sm);
		vgpu_bar(b, c->max_blocks_per_sm, 20);
		if (dbg) {
			printf("  %3u/%-3u ", w, c->max_warps_per_sm);
			vgpu_bar(w, c->max_warps_per_sm, 20);
		} else {
			printf("  %-30s", "(debugfs not readable)");
		}
		printf("  %llu\n",
		       (unsigned long long)m->v[VGPU_A_STATS_BLOCKS_DONE]);
	}
	printf("\n  channel prio  submitted  completed  progress\n");
	for (i = 0; i < st.n_chan; i++) {
		const struct vgpu_nl_counters *ch = &st.chan[i];
		uint64_t sub = ch->v[VGPU_A_STATS_SUBMITTED];
		uint64_t done = ch->v[VGPU_A_STATS_COMPLETED];

		printf("  %7llu %4llu %10llu %10llu  ",
		       (unsigned long long)ch->v[VGPU_A_STATS_ID],
		       (unsigned long long)ch->v[VGPU_A_STATS_PRIO],
		       (unsigned long long)sub, (unsigned long long)done);
		vgpu_bar(done, sub, 20);
		putchar('\n');
	}
	if (!st.n_chan)
		printf("  (no channels)\n");
	fflush(stdout);
	vgpul_nl_stats_free(&st);
	return 0;
}

static int vgpu_cmd_top(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "iterations", required_argument, NULL, 'n' },
		{ "interval", required_argument, NULL, 'i' },
		{ "batch", no_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int iters = 0, interval = 1000, k;
	bool batch = !vgpu_fancy_tty(1);
	struct vgpu_info info;
	struct vgpu_dev dev;
	struct vgpu_nl *nl;
	struct timespec ts;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+n:i:bh", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
		case 'i':
			if (!vgpu_parse_u32(optarg, c == 'n' ? &iters : &interval)) {
				fprintf(stderr, "vgpuctl top: bad number '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'b':
			batch = true;
			break;
		case 'h':
			vgpu_cmd_usage(stdout, "top");
			return 0;
		default:
			vgpu_cmd_usage(stderr, "top");
			return 2;
		}
	}
	if (optind != argc) {
		vgpu_cmd_usage(stderr, "top");
		return 2;
	}
	if (vgpu_open_or_complain("top", &dev))
		return 1;
	ret = vgpul_get_info(&dev, &info);
	vgpul_dev_close(&dev);
	if (ret) {
		fprintf(stderr, "vgpuctl top: GET_INFO: %s\n",
			vgpul_strerror(ret));
		return 1;
	}
	if (vgpu_nl_or_complain("top", &nl))
		return 1;
	signal(SIGINT, vgpu_on_signal);
	for (k = 0; !vgpu_stop && (!iters || k < iters); k++) {
		if (k && batch)
			printf("\n");
		ret = vgpu_top_once(nl, &info, !batch);
		if (ret)
			break;
		if (iters && k + 1 == iters)
			break;
		/* display refresh period, not synchronisation */
		ts.tv_sec = interval / 1000;
		ts.tv_nsec = (interval % 1000) * 1000000L;
		nanosleep(&ts, NULL);
	}
	vgpul_nl_close(nl);
	return ret ? 1 : 0;
}

/* ----------------------------------------------------------------- main */

static const struct vgpu_cmd vgpu_cmds[] = {
	{ "info", "",
	  "version, capabilities and configuration of /dev/vgpuN (GET_INFO)",
	  vgpu_cmd_info },
	{ "stats", "[-j|--json]",
	  "device, per-SM, per-priority and per-channel counters (netlink\n"
	  "          STATS_GET) of -d N or of every device; -j: JSON array",
	  vgpu_cmd_stats },
	{ "config", "[policy NAME] [preempt drain|warp|switch] [windows L1,L2,...|off]\n"
	  "          [timeout CYCLES] [event-budget N] [sync-cost CYCLES]",
	  "show the scheduler configuration of -d N, or change it (netlink\n"
	  "          CONFIG_SET, needs CAP_NET_ADMIN)",
	  vgpu_cmd_config },
	{ "dev", "add ID [PRESET] [key=value...] | del ID | list",
	  "create or destroy device instances (/sys/bus/vgpu, root), list devices",
	  vgpu_cmd_dev },
	{ "run", "[--preempt MODE] [--policy NAME] [--workers N] [--id ID]\n"
	  "          [--alone-id ID] [--no-alone] [-q|--quiet] WORKLOAD",
	  "run a workload file on a fresh device instance (root), then each\n"
	  "          kernel alone; prints the lines of vgpu-sim run (times, STP,\n"
	  "          ANTT, fairness, preemption latency, trace hash); progress\n"
	  "          on stderr when it is a terminal, unless -q",
	  vgpu_cmd_run },
	{ "compare", "--policy NAME --policy NAME [...] [--preempt MODE]\n"
	  "          [--workers N] [--id ID] [--alone-id ID] [--no-alone] [-q]\n"
	  "          WORKLOAD",
	  "run a workload through the module under each policy (built in, or\n"
	  "          a loaded vgpu_policy_NAME.ko) and print one table, a column\n"
	  "          per policy: the metrics of run and each kernel's turnaround\n"
	  "          (as vgpu-sim compare, issue 17)",
	  vgpu_cmd_run },
	{ "trace", "-o OUT.json [-c COUNT] [-- CMD [ARGS...]]",
	  "record netlink events (of -d N, or every device) as Chrome trace\n"
	  "          JSON for Perfetto, while CMD runs, until COUNT events or Ctrl-C",
	  vgpu_cmd_trace },
	{ "top", "[-n ITERATIONS] [-i MS] [-b]",
	  "live per-SM occupancy and per-channel progress of -d N; -b: no\n"
	  "          screen clearing (default when stdout is not a terminal)",
	  vgpu_cmd_top },
	{ NULL, NULL, NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "device", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	const struct vgpu_cmd *cmd;
	int c;

	while ((c = getopt_long(argc, argv, "+hd:", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			vgpu_usage(stdout);
			return 0;
		case 'd':
			if (!vgpu_parse_u32(optarg, &vgpu_index) ||
			    vgpu_index > 15) {
				fprintf(stderr, "vgpuctl: bad device index '%s' (0-15)\n",
					optarg);
				return 2;
			}
			vgpu_index_set = true;
			break;
		default:
			vgpu_usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		vgpu_usage(stderr);
		return 2;
	}
	for (cmd = vgpu_cmds; cmd->name; cmd++) {
		if (strcmp(cmd->name, argv[optind]))
			continue;
		if (cmd->run != vgpu_cmd_trace && cmd->run != vgpu_cmd_run &&
		    vgpu_wants_help(argc - optind, argv + optind)) {
			vgpu_cmd_usage(stdout, cmd->name);
			return 0;
		}
		return cmd->run(argc - optind, argv + optind);
	}
	fprintf(stderr, "vgpuctl: unknown command '%s'\n", argv[optind]);
	vgpu_usage(stderr);
	return 2;
}
