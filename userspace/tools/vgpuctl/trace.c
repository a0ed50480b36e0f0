// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - vgpuctl trace: the netlink events as Chrome trace-event JSON.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vgpuctl.h"

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
	uint64_t next_lock_seq[16];
	bool lock_seen[16];
	uint64_t grants, grants_lost;
};

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

/* A lock grant (F35, the "locks" group): an instant on its SM's track. */
static int vgpu_tr_lock(const struct vgpu_nl_lock_ev *lock, void *arg)
{
	const struct vgpu_nl_ev *ev = &lock->ev;
	struct vgpu_tr *t = arg;

	if (ev->dev >= 16 || (t->dev >= 0 && ev->dev != (uint32_t)t->dev))
		return 0;
	t->events++;
	t->grants++;
	if (t->lock_seen[ev->dev] && ev->seq > t->next_lock_seq[ev->dev])
		t->grants_lost += ev->seq - t->next_lock_seq[ev->dev];
	t->lock_seen[ev->dev] = true;
	t->next_lock_seq[ev->dev] = ev->seq + 1;
	vgpu_tr_track(t, ev->dev, ev->sm);
	fprintf(t->f, ",\n{\"name\":\"lock %u\",\"cat\":\"lock\",\"ph\":\"i\",\"s\":\"t\",\"pid\":%u,\"tid\":%u,\"ts\":%llu,\"args\":{\"kernel\":%u,\"block\":%u,\"warp\":%u,\"lock\":%u,\"prio\":%u}}",
		lock->mutex, ev->dev, ev->sm, (unsigned long long)ev->cycle,
		ev->kernel, ev->block, lock->warp, lock->mutex, ev->prio);
	return 0;
}

static int vgpuctl_trace(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "count", required_argument, NULL, 'c' },
		{ "locks", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vgpu_tr t;
	struct vgpu_nl *nl;
	const char *out = NULL;
	unsigned int count = 0;
	bool locks = false;
	pid_t child = -1;
	int c, ret, status = 0, rc = 0;

	memset(&t, 0, sizeof(t));
	t.dev = vgpuctl_index_set ? (int)vgpuctl_index : -1;
	while ((c = vgpuctl_getopt(argc, argv, "+o:c:lh", opts, &rc)) > 0) {
		switch (c) {
		case 'l':
			locks = true;
			break;
		case 'o':
			out = optarg;
			break;
		case 'c':
			if (!vgpul_cli_u32(optarg, &count)) {
				fprintf(stderr, "vgpuctl trace: bad count '%s'\n",
					optarg);
				return 2;
			}
			break;
		}
	}
	if (!c)
		return rc;
	rc = 0;
	if (!out) {
		fprintf(stderr, "vgpuctl trace: -o OUT.json is required\n");
		vgpuctl_cmd_usage(stderr, "trace");
		return 2;
	}
	if (vgpuctl_nl_or_complain("trace", &nl))
		return 1;
	ret = vgpul_nl_subscribe(nl, vgpu_tr_event, &t);
	if (ret) {
		fprintf(stderr, "vgpuctl trace: joining the \"events\" group: %s\n",
			vgpul_strerror(ret));
		vgpul_nl_close(nl);
		return 1;
	}
	ret = locks ? vgpul_nl_subscribe_locks(nl, vgpu_tr_lock, &t) : 0;
	if (ret) {
		fprintf(stderr, "vgpuctl trace: joining the \"locks\" group: %s\n",
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
	signal(SIGINT, vgpuctl_on_signal);
	signal(SIGTERM, vgpuctl_on_signal);
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
		if (vgpuctl_stop)
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
	if (locks)
		fprintf(stderr, "vgpuctl trace: %llu lock grants, %llu lost\n",
			(unsigned long long)t.grants,
			(unsigned long long)t.grants_lost);
	free(t.k);
	vgpul_nl_close(nl);
	return rc;
}

const struct vgpul_cli_cmd vgpuctl_cmd_trace = {
	.name = "trace",
	.usage = "-o OUT.json [-c COUNT] [--locks] [-- CMD [ARGS...]]",
	.summary = "record netlink events (of -d N, or every device) as Chrome trace\n"
		   "JSON for Perfetto, while CMD runs, until COUNT events or Ctrl-C;\n"
		   "--locks: the arbiter's lock grants too (\"locks\" group)",
	.run = vgpuctl_trace,
};
