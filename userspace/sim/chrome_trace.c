// SPDX-License-Identifier: GPL-2.0
/*
 * Chrome trace-event JSON of a run (opens in Perfetto's UI and in
 * chrome://tracing).  One thread track per SM; a complete ("X") slice per
 * block residency, named and coloured by kernel; a switch-out closes the
 * slice and adds an instant "preempt" marker; 1 cycle is shown as 1 us.
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

static void vgpu_ct_slice(FILE *f, const struct vgpu_workload *wl,
			  const struct vgpu_ct_open *o, uint64_t end,
			  const char *why, bool *first)
{
	fprintf(f, "%s\n{\"name\":\"", *first ? "" : ",");
	*first = false;
	vgpu_ct_name(f, wl->kernels[o->kernel].name);
	fprintf(f, "\",\"cat\":\"block\",\"ph\":\"X\",\"pid\":0,\"tid\":%u,"
		"\"ts\":%llu,\"dur\":%llu,\"cname\":\"%s\","
		"\"args\":{\"block\":%u,\"end\":\"%s\"}}",
		o->sm, (unsigned long long)o->start,
		(unsigned long long)(end - o->start),
		vgpu_ct_colors[o->kernel % (sizeof(vgpu_ct_colors) /
					    sizeof(vgpu_ct_colors[0]))],
		o->block, why);
}

int vgpu_chrome_trace_write(const char *path, const struct vgpu_workload *wl,
			    const struct vgpu_run *r, char *err, size_t errlen)
{
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
		"\"traceEvents\":[", wl->cfg.name);
	fprintf(f, "\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,"
		"\"args\":{\"name\":\"vgpu %s\"}}", wl->cfg.name);
	first = false;
	for (i = 0; i < wl->cfg.num_sms; i++)
		fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,"
			"\"tid\":%zu,\"args\":{\"name\":\"SM %zu\"}}", i, i);
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
		if (ev->type != VGPU_EV_BLOCK_DONE &&
		    ev->type != VGPU_GEV_PREEMPT &&
		    ev->type != VGPU_GEV_CANCEL)
			continue;
		for (j = 0; j < nopen; j++) {
			struct vgpu_ct_open *o = &open[j];

			if (o->kernel != ev->kernel ||
			    (ev->type != VGPU_GEV_CANCEL &&
			     (o->block != ev->block || o->sm != ev->sm)))
				continue;
			vgpu_ct_slice(f, wl, o, ev->cycle,
				      ev->type == VGPU_EV_BLOCK_DONE ? "done" :
				      ev->type == VGPU_GEV_PREEMPT ?
				      "preempted" : "cancelled", &first);
			if (ev->type == VGPU_GEV_PREEMPT)
				fprintf(f, ",\n{\"name\":\"preempt\",\"ph\":\"i\","
					"\"s\":\"t\",\"pid\":0,\"tid\":%u,"
					"\"ts\":%llu,\"args\":{\"by\":\"%s\"}}",
					o->sm, (unsigned long long)ev->cycle,
					ev->arg0 < wl->nkernels ?
					wl->kernels[ev->arg0].name : "?");
			*o = open[--nopen];
			if (ev->type != VGPU_GEV_CANCEL)
				break;
			j--;
		}
	}
	fprintf(f, "\n]}\n");
	free(open);
	if (fclose(f)) {
		snprintf(err, errlen, "%s: write error", path);
		return -1;
	}
	return 0;
oom:
	free(open);
	fclose(f);
	snprintf(err, errlen, "out of memory");
	return -1;
}
