// SPDX-License-Identifier: GPL-2.0
/*
 * Chrome trace-event JSON of a run (opens in Perfetto's UI and in
 * chrome://tracing).  One thread track per SM; a complete ("X") slice per
 * block residency, named and coloured by kernel; a switch-out closes the
 * slice and adds an instant "preempt" marker; 1 cycle is shown as 1 us.
 * Child kernels (F15) are named after their submitted kernel and template
 * ("parent/t0", "parent/t0/t1", ...) in its colour; a LAUNCH is an instant
 * "launch" marker and a block that goes off its SM to wait for its child
 * closes its slice with end "suspended".
 * A state sync (F17) is a slice "sync" on its SM from the block's arrival
 * to the cycle its kernel's state is in place; with an assignment latency
 * a slice "assign" from the arrival to the end of the assignment.  Queue kernels (F14) get a
 * track "queues" (only in a workload that has one): an instant "push" per arrival of pushed items and one
 * "coalesce" per block formed (its items and why: full, timeout, close).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

/* Chrome's reserved colour names, one per kernel in turn. */
static const char *const vgpu_ct_colors[] = {
	"thread_state_running", "rail_response", "rail_animation",
	"thread_state_iowait", "rail_idle", "rail_load", "good", "bad",
	"terrible", "yellow", "olive", "generic_work", "startup",
	"heap_dump_stack_frame", "cq_build_running", "cq_build_passed",
};

struct vgpu_ct_open {
	uint32_t kernel, block, warp, sm;
	uint64_t start;
	bool used;
};

static void vgpu_ct_name(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
}

/* Child kernels by launch order (id - VGPU_GPU_CHILD_ID0), F15. */
struct vgpu_ct_child {
	uint32_t parent;
	uint32_t tmpl;
};

struct vgpu_ct_kids {
	struct vgpu_ct_child *c;
	size_t n;
	size_t cap;
};

/* The workload kernel at the root of @id's tree, or ~0 if unknown. */
static uint32_t vgpu_ct_root(const struct vgpu_workload *wl,
			     const struct vgpu_ct_kids *kids, uint32_t id)
{
	unsigned int depth;

	for (depth = 0; depth <= VGPU_MAX_DEPTH + 1; depth++) {
		if (id < wl->nkernels)
			return id;
		if (id < VGPU_GPU_CHILD_ID0 || id - VGPU_GPU_CHILD_ID0 >= kids->n)
			return ~0U;
		id = kids->c[id - VGPU_GPU_CHILD_ID0].parent;
	}
	return ~0U;
}

/* "name", or "root/tA/tB" for a child kernel. */
static void vgpu_ct_kname(FILE *f, const struct vgpu_workload *wl,
			  const struct vgpu_ct_kids *kids, uint32_t id,
			  unsigned int depth)
{
	const struct vgpu_ct_child *c;

	if (id < wl->nkernels) {
		vgpu_ct_name(f, wl->kernels[id].name);
		return;
	}
	if (id < VGPU_GPU_CHILD_ID0 || id - VGPU_GPU_CHILD_ID0 >= kids->n ||
	    depth > VGPU_MAX_DEPTH) {
		fprintf(f, "kernel %u", id);
		return;
	}
	c = &kids->c[id - VGPU_GPU_CHILD_ID0];
	vgpu_ct_kname(f, wl, kids, c->parent, depth + 1);
	fprintf(f, "/t%u", c->tmpl);
}

static void vgpu_ct_slice(FILE *f, const struct vgpu_workload *wl,
			  const struct vgpu_ct_kids *kids,
			  const struct vgpu_ct_open *o, uint64_t end,
			  const char *why, bool *first)
{
	uint32_t root = vgpu_ct_root(wl, kids, o->kernel);

	fprintf(f, "%s\n{\"name\":\"", *first ? "" : ",");
	*first = false;
	vgpu_ct_kname(f, wl, kids, o->kernel, 0);
	fprintf(f, "\",\"cat\":\"block\",\"ph\":\"X\",\"pid\":0,\"tid\":%u,"
		"\"ts\":%llu,\"dur\":%llu,\"cname\":\"%s\","
		"\"args\":{\"block\":%u,\"end\":\"%s\"}}",
		o->sm, (unsigned long long)o->start,
		(unsigned long long)(end - o->start),
		vgpu_ct_colors[(root == ~0U ? 0 : root) %
			       (sizeof(vgpu_ct_colors) /
				sizeof(vgpu_ct_colors[0]))],
		o->block, why);
}

/*
 * F17: the SM syncs (or, event "assign", is being assigned the kernel)
 * from @ev->cycle to arg1 (low 32 bits of the cycle).
 */
static void vgpu_ct_sync(FILE *f, const struct vgpu_workload *wl,
			 const struct vgpu_ct_kids *kids,
			 const struct vgpu_event *ev)
{
	uint32_t dur = ev->arg1 - (uint32_t)ev->cycle;

	fprintf(f, ",\n{\"name\":\"%s\",\"cat\":\"sync\",\"ph\":\"X\","
		"\"pid\":0,\"tid\":%u,\"ts\":%llu,\"dur\":%u,"
		"\"cname\":\"grey\",\"args\":{\"kernel\":\"",
		ev->type == VGPU_GEV_ASSIGN ? "assign" : "sync", ev->sm,
		(unsigned long long)ev->cycle, dur);
	vgpu_ct_kname(f, wl, kids, ev->kernel, 0);
	fprintf(f, "\",\"from\":\"");
	if (ev->arg0 == VGPU_EV_NONE)
		fprintf(f, "(none)");
	else
		vgpu_ct_kname(f, wl, kids, ev->arg0, 0);
	fprintf(f, "\",\"block\":%u}}", ev->block);
}

/* F14: pushed items arrived, or a queue block formed, on track "queues". */
static void vgpu_ct_queue(FILE *f, const struct vgpu_workload *wl,
			  const struct vgpu_ct_kids *kids,
			  const struct vgpu_event *ev)
{
	static const char *const why[] = { "full", "timeout", "close" };
	bool push = ev->type == VGPU_GEV_PUSH;

	fprintf(f, ",\n{\"name\":\"%s\",\"ph\":\"i\",\"s\":\"t\",\"pid\":0,"
		"\"tid\":%u,\"ts\":%llu,\"args\":{\"kernel\":\"",
		push ? "push" : "coalesce", wl->dev->cfg.num_sms,
		(unsigned long long)ev->cycle);
	vgpu_ct_kname(f, wl, kids, ev->kernel, 0);
	if (push)
		fprintf(f, "\",\"items\":%u,\"close\":%s}}", ev->arg0,
			ev->arg1 & VGPU_GPU_PUSH_CLOSE ? "true" : "false");
	else
		fprintf(f, "\",\"block\":%u,\"items\":%u,\"why\":\"%s\"}}",
			ev->block, ev->arg0, ev->arg1 < 3 ? why[ev->arg1] : "?");
}

/* Remember child @ev->kernel of a VGPU_GEV_LAUNCH and mark the launch. */
static int vgpu_ct_launch(FILE *f, const struct vgpu_workload *wl,
			  struct vgpu_ct_kids *kids, const struct vgpu_event *ev)
{
	struct vgpu_ct_child *n;

	if (ev->kernel - VGPU_GPU_CHILD_ID0 == kids->n) {
		if (kids->n == kids->cap) {
			kids->cap = kids->cap ? 2 * kids->cap : 64;
			n = realloc(kids->c, kids->cap * sizeof(*n));
			if (!n)
				return -1;
			kids->c = n;
		}
		kids->c[kids->n].parent = ev->arg0;
		kids->c[kids->n++].tmpl = ev->arg1 & 0xff;
	}
	fprintf(f, ",\n{\"name\":\"launch\",\"ph\":\"i\",\"s\":\"t\",\"pid\":0,"
		"\"tid\":%u,\"ts\":%llu,\"args\":{\"child\":\"", ev->sm,
		(unsigned long long)ev->cycle);
	vgpu_ct_kname(f, wl, kids, ev->kernel, 0);
	fprintf(f, "\",\"block\":%u,\"wait\":%s,\"depth\":%u}}", ev->block,
		(ev->arg1 >> 8) & VGPU_LAUNCH_WAIT ? "true" : "false",
		ev->arg1 >> 16);
	return 0;
}

int vgpu_chrome_trace_write(const char *path, const struct vgpu_workload *wl,
			    const struct vgpu_run *r, char *err, size_t errlen)
{
	struct vgpu_ct_kids kids = { 0 };
	struct vgpu_ct_open *open = NULL;
	size_t nopen = 0, cap = 0, i, j;
	const struct vgpu_event *ev;
	bool first = true;
	FILE *f;

	f = fopen(path, "w");
	if (!f) {
		snprintf(err, errlen, "%s: cannot write", path);
		return -1;
	}
	fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"unit\":"
		"\"1 us = 1 virtual cycle\",\"device\":\"%s\"},"
		"\"traceEvents\":[", wl->dev->cfg.name);
	fprintf(f, "\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,"
		"\"args\":{\"name\":\"vgpu %s\"}}", wl->dev->cfg.name);
	first = false;
	for (i = 0; i < wl->dev->cfg.num_sms; i++)
		fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,"
			"\"tid\":%zu,\"args\":{\"name\":\"SM %zu\"}}", i, i);
	for (i = 0; i < wl->nkernels; i++) {
		if (!(wl->kernels[i].flags & VGPU_KF_QUEUE))
			continue;
		fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\","
			"\"pid\":0,\"tid\":%u,\"args\":{\"name\":"
			"\"queues\"}}", wl->dev->cfg.num_sms);
		break;
	}
	for (i = 0; i < r->nev; i++) {
		ev = &r->ev[i];
		if ((ev->type == VGPU_EV_WARP_START && ev->warp == 0) ||
		    (ev->type == VGPU_GEV_DISPATCH &&
		     ev->arg0 == VGPU_PATH_RESUME)) {
			if (nopen == cap) {
				struct vgpu_ct_open *n;

				cap = cap ? 2 * cap : 256;
				n = realloc(open, cap * sizeof(*n));
				if (!n)
					goto oom;
				open = n;
			}
			open[nopen++] = (struct vgpu_ct_open){
				ev->kernel, ev->block, 0, ev->sm,
				ev->cycle, true };
			continue;
		}
		if (ev->type == VGPU_GEV_LAUNCH) {
			if (vgpu_ct_launch(f, wl, &kids, ev))
				goto oom;
			continue;
		}
		if (ev->type == VGPU_EV_SYNC || ev->type == VGPU_GEV_ASSIGN) {
			vgpu_ct_sync(f, wl, &kids, ev);
			continue;
		}
		if (ev->type == VGPU_GEV_PUSH || ev->type == VGPU_GEV_COALESCE) {
			vgpu_ct_queue(f, wl, &kids, ev);
			continue;
		}
		/* only a block that left its SM ends its slice (F15) */
		if (ev->type == VGPU_GEV_SUSPEND && !ev->arg1)
			continue;
		if (ev->type != VGPU_EV_BLOCK_DONE &&
		    ev->type != VGPU_GEV_PREEMPT &&
		    ev->type != VGPU_GEV_SUSPEND &&
		    ev->type != VGPU_GEV_CANCEL &&
		    ev->type != VGPU_GEV_FAIL)
			continue;
		for (j = 0; j < nopen; j++) {
			struct vgpu_ct_open *o = &open[j];
			bool all = ev->type == VGPU_GEV_CANCEL ||
				   ev->type == VGPU_GEV_FAIL;

			if (o->kernel != ev->kernel ||
			    (!all && (o->block != ev->block || o->sm != ev->sm)))
				continue;
			vgpu_ct_slice(f, wl, &kids, o, ev->cycle,
				      ev->type == VGPU_EV_BLOCK_DONE ? "done" :
				      ev->type == VGPU_GEV_PREEMPT ?
				      "preempted" :
				      ev->type == VGPU_GEV_SUSPEND ?
				      "suspended" :
				      ev->type == VGPU_GEV_FAIL ? "failed" :
				      "cancelled", &first);
			if (ev->type == VGPU_GEV_PREEMPT) {
				fprintf(f, ",\n{\"name\":\"preempt\",\"ph\":\"i\","
					"\"s\":\"t\",\"pid\":0,\"tid\":%u,"
					"\"ts\":%llu,\"args\":{\"by\":\"",
					o->sm, (unsigned long long)ev->cycle);
				/* a yield: the policy switched it out */
				if (ev->arg0 == VGPU_EV_NONE)
					fprintf(f, "policy");
				else
					vgpu_ct_kname(f, wl, &kids, ev->arg0,
						      0);
				fprintf(f, "\"}}");
			}
			*o = open[--nopen];
			if (!all)
				break;
			j--;
		}
	}
	fprintf(f, "\n]}\n");
	free(open);
	free(kids.c);
	if (fclose(f)) {
		snprintf(err, errlen, "%s: write error", path);
		return -1;
	}
	return 0;
oom:
	free(open);
	free(kids.c);
	fclose(f);
	snprintf(err, errlen, "out of memory");
	return -1;
}
