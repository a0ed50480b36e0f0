// SPDX-License-Identifier: GPL-2.0
/*
 * vgpuctl - command-line interface of vgpu-dispatch (SPEC F66).
 *
 *   vgpuctl [-d N] info            version, capabilities and configuration
 *   vgpuctl run [opts] WORKLOAD    run a workload file through the module
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vgpu/vgpu.h>
#include <vgpu/workload.h>

static void vgpu_usage(FILE *f)
{
	fprintf(f,
		"usage: vgpuctl [-d N] COMMAND\n"
		"\n"
		"  -d N        use /dev/vgpuN (default 0)\n"
		"  -h, --help  this help\n"
		"\n"
		"commands:\n"
		"  info        version, capabilities and configuration of the device\n"
		"  run [--workers N] [--id ID] WORKLOAD\n"
		"              run a workload file (Documentation/workloads.rst) on a\n"
		"              fresh device instance made from its device section\n"
		"              (needs root for /sys/bus/vgpu); prints the kernel lines\n"
		"              and trace hash of vgpu-sim run\n");
}

#define VGPU_RUN_DEFAULT_ID	15

/* Write a line to a sysfs file; 0 or a negative errno. */
static int vgpu_sysfs_write(const char *path, const char *line)
{
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, line, strlen(line));
	if (n < 0)
		err = -errno;
	close(fd);
	return err;
}

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
	unsigned int i;
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
	want.epoch = p.epoch;
	want.g_max = p.g_max;
	want.task_slots = p.task_slots;
	want.switch_cost = p.switch_cost;
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
			" policy=%s preempt=%s epoch=%u g_max=%u task_slots=%u switch_cost=%u channels=%u windows=",
			p.policy, vgpu_preempt_name(p.preempt), p.epoch, p.g_max,
			p.task_slots, p.switch_cost, p.max_channels);
	if (!p.num_windows)
		off += snprintf(line + off, len - off, "0");
	for (i = 0; i < p.num_windows; i++)
		off += snprintf(line + off, len - off, "%s%u", i ? "," : "",
				p.window[i]);
	if (workers)
		off += snprintf(line + off, len - off, " workers=%u", workers);
	snprintf(line + off, len - off, "\n");
	return 0;
}

static int vgpu_run_submit(struct vgpu_dev *dev, const struct vgpu_workload *wl,
			   const uint32_t *chan, uint32_t *handles)
{
	struct vgpu_submit_desc d;
	struct vgpu_submit sub;
	const struct vgpu_wl_kernel *wk;
	uint32_t i;
	int ret;

	for (i = 0; i < wl->nkernels; i++) {
		wk = &wl->kernels[i];
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
			  (wk->flags & VGPU_KF_THROTTLE ? VGPU_KERNEL_THROTTLE : 0);
		d.priority = wk->prio;
		d.grid = wk->grid;
		d.threads = wk->threads;
		d.regs = wk->regs;
		d.smem = wk->smem;
		d.quota = wk->quota;
		d.num_insns = wk->prog.n;
		d.program = (uintptr_t)wk->prog.insns;
		for (uint32_t w = 0; w < VGPU_GPU_AFF_WORDS; w++) {
			if (wk->affinity[w]) {
				d.affinity = (uintptr_t)wk->affinity;
				d.affinity_bits = VGPU_GPU_AFF_WORDS * 64;
			}
		}
		d.arrival = wk->arrival;
		d.user_data = i;
		memset(&sub, 0, sizeof(sub));
		sub.count = 1;
		sub.desc_size = sizeof(d);
		sub.descs = (uintptr_t)&d;
		ret = vgpu_ioctl(dev->fd, VGPU_IOCTL_SUBMIT, &sub);
		if (ret) {
			fprintf(stderr, "vgpuctl run: SUBMIT of %s: %s\n", wk->name,
				vgpu_strerror(ret));
			return ret;
		}
		handles[i] = d.handle;
	}
	return 0;
}

static int vgpu_run_on(struct vgpu_dev *dev, const struct vgpu_workload *wl)
{
	uint32_t chan[VGPU_GPU_MAX_CHANNELS], prio[VGPU_GPU_MAX_CHANNELS];
	uint32_t *handles, i, nch = 0;
	struct vgpu_channel_create cc;
	struct vgpu_kernel_query q;
	struct vgpu_gate gate;
	struct vgpu_wait w;
	struct vgpu_info info;
	uint64_t makespan = 0;
	int ret;

	handles = calloc(wl->nkernels ? wl->nkernels : 1, sizeof(*handles));
	if (!handles)
		return -ENOMEM;
	/* channels 0..max used, so that the core numbers them as vgpu-sim */
	for (i = 0; i < VGPU_GPU_MAX_CHANNELS; i++)
		prio[i] = wl->cfg.num_prios - 1;
	for (i = 0; i < wl->nkernels; i++) {
		const struct vgpu_wl_kernel *wk = &wl->kernels[i];

		if (wk->channel + 1 > nch)
			nch = wk->channel + 1;
		if (wk->prio < prio[wk->channel])
			prio[wk->channel] = wk->prio;
	}
	memset(&gate, 0, sizeof(gate));
	gate.op = VGPU_GATE_CLOSE;
	ret = vgpu_ioctl(dev->fd, VGPU_IOCTL_GATE, &gate);
	for (i = 0; !ret && i < nch; i++) {
		memset(&cc, 0, sizeof(cc));
		cc.priority = prio[i];
		ret = vgpu_ioctl(dev->fd, VGPU_IOCTL_CHANNEL_CREATE, &cc);
		chan[i] = cc.handle;
	}
	if (!ret)
		ret = vgpu_run_submit(dev, wl, chan, handles);
	if (!ret) {
		memset(&gate, 0, sizeof(gate));
		gate.op = VGPU_GATE_OPEN;
		ret = vgpu_ioctl(dev->fd, VGPU_IOCTL_GATE, &gate);
	}
	for (i = 0; !ret && i < wl->nkernels; i += VGPU_MAX_WAIT) {
		memset(&w, 0, sizeof(w));
		w.flags = VGPU_WAIT_ALL;
		w.count = wl->nkernels - i < VGPU_MAX_WAIT ? wl->nkernels - i :
			  VGPU_MAX_WAIT;
		w.handles = (uintptr_t)&handles[i];
		w.timeout_ns = VGPU_WAIT_FOREVER;
		ret = vgpu_ioctl(dev->fd, VGPU_IOCTL_WAIT, &w);
	}
	for (i = 0; !ret && i < wl->nkernels; i++) {
		memset(&q, 0, sizeof(q));
		q.handle = handles[i];
		ret = vgpu_ioctl(dev->fd, VGPU_IOCTL_QUERY, &q);
		if (ret)
			break;
		if (q.state != VGPU_KSTATE_DONE) {
			fprintf(stderr, "vgpuctl run: kernel %s did not complete (error %d)\n",
				wl->kernels[i].name, q.error);
			ret = -EIO;
			break;
		}
		printf("kernel=%s submit=%llu start=%llu end=%llu turnaround=%llu\n",
		       wl->kernels[i].name, (unsigned long long)q.t_submit,
		       (unsigned long long)q.t_start,
		       (unsigned long long)q.t_complete,
		       (unsigned long long)(q.t_complete - q.t_submit));
		if (q.t_complete > makespan)
			makespan = q.t_complete;
	}
	if (!ret)
		ret = vgpu_get_info(dev, &info);
	if (!ret) {
		printf("makespan=%llu\n", (unsigned long long)makespan);
		printf("trace_hash=0x%016llx\n",
		       (unsigned long long)info.trace_hash);
	} else {
		fprintf(stderr, "vgpuctl run: %s\n", vgpu_strerror(ret));
	}
	free(handles);
	return ret;
}

static int vgpu_cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "workers", required_argument, NULL, 'w' },
		{ "id", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int workers = 0, id = VGPU_RUN_DEFAULT_ID;
	struct vgpu_workload wl;
	struct vgpu_dev dev;
	char err[512], line[512];
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+w:i:h", opts, NULL)) != -1) {
		switch (c) {
		case 'w':
			workers = strtoul(optarg, NULL, 0);
			break;
		case 'i':
			id = strtoul(optarg, NULL, 0);
			break;
		case 'h':
			vgpu_usage(stdout);
			return 0;
		default:
			vgpu_usage(stderr);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		vgpu_usage(stderr);
		return 2;
	}
	ret = vgpu_workload_load(argv[optind], &wl, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "vgpuctl run: %s\n", err);
		return 2;
	}
	ret = vgpu_run_device_line(&wl, id, workers, line, sizeof(line));
	if (ret)
		goto out_wl;
	ret = vgpu_sysfs_write("/sys/bus/vgpu/new_device", line);
	if (ret) {
		fprintf(stderr, "vgpuctl run: new_device \"%.*s\": %s%s\n",
			(int)strcspn(line, "\n"), line, vgpu_strerror(ret),
			ret == -EACCES ? " (needs root)" :
			ret == -EEXIST ? " (pick another --id)" : "");
		goto out_wl;
	}
	ret = vgpu_dev_open(id, &dev);
	if (!ret) {
		ret = vgpu_run_on(&dev, &wl);
		vgpu_dev_close(&dev);
	} else {
		fprintf(stderr, "vgpuctl run: /dev/vgpu%u: %s\n", id,
			vgpu_strerror(ret));
	}
	snprintf(line, sizeof(line), "%u\n", id);
	vgpu_sysfs_write("/sys/bus/vgpu/del_device", line);
out_wl:
	vgpu_workload_free(&wl);
	return ret ? 1 : 0;
}

static const char *const vgpu_preset_names[] = {
	[VGPU_PRESET_CUSTOM] = "custom",
	[VGPU_PRESET_SMALL] = "small",
	[VGPU_PRESET_A100] = "a100",
	[VGPU_PRESET_H100] = "h100",
};

static int vgpu_cmd_info(struct vgpu_dev *dev)
{
	const struct vgpu_dev_config *c;
	struct vgpu_info info;
	int ret;

	ret = vgpu_get_info(dev, &info);
	if (ret) {
		fprintf(stderr, "vgpuctl: GET_INFO on /dev/vgpu%u: %s\n",
			dev->index, vgpu_strerror(ret));
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
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "device", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	struct vgpu_dev dev;
	unsigned int index = 0;
	int c, ret;

	while ((c = getopt_long(argc, argv, "+hd:", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			vgpu_usage(stdout);
			return 0;
		case 'd':
			index = strtoul(optarg, NULL, 0);
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
	if (!strcmp(argv[optind], "run"))
		return vgpu_cmd_run(argc - optind, argv + optind);
	if (strcmp(argv[optind], "info")) {
		fprintf(stderr, "vgpuctl: unknown command '%s'\n", argv[optind]);
		vgpu_usage(stderr);
		return 2;
	}
	ret = vgpu_dev_open(index, &dev);
	if (ret) {
		fprintf(stderr, "vgpuctl: /dev/vgpu%u: %s\n", index,
			vgpu_strerror(ret));
		return 1;
	}
	ret = vgpu_cmd_info(&dev);
	vgpu_dev_close(&dev);
	return ret;
}
