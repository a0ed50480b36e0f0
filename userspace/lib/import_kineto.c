// SPDX-License-Identifier: GPL-2.0
/*
 * import_kineto.c - PyTorch profiler / Kineto Chrome-trace JSON, read
 * with libjson-c (issue 20).
 *
 * The document is an object with "traceEvents" (or a bare array of
 * events, as the Chrome trace-event format allows).  Kernels are the
 * complete events ("ph": "X") of category "kernel": "name", "ts" and
 * "dur" in microseconds, and "args" with "grid" and "block" ([x, y, z]),
 * "stream", "registers per thread", "shared memory" and, optionally,
 * "device" (else the event's "pid").  Every other event and field is
 * ignored.  A Kineto trace is one process: its streams are its channels.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <json-c/json.h>

#include "import_internal.h"

/* A number >= 0 in microseconds as whole nanoseconds. */
static int vgpu_kin_us(struct vgpu_rec_ctx *c, const char *rec,
		       const char *field, json_object *v, uint64_t *ns)
{
	double d;

	if (!v)
		return vgpu_rec_err(c, rec, field, "missing");
	if (!json_object_is_type(v, json_type_int) &&
	    !json_object_is_type(v, json_type_double))
		return vgpu_rec_err(c, rec, field, "expected a number");
	d = json_object_get_double(v);
	if (!(d >= 0) || d > 1e15)
		return vgpu_rec_err(c, rec, field,
				    "expected microseconds in 0..1e15");
	*ns = (uint64_t)llround(d * 1000.0);
	return 0;
}

/* An integer in 0..@max. */
static int vgpu_kin_uint(struct vgpu_rec_ctx *c, const char *rec,
			 const char *field, json_object *v, uint64_t max,
			 uint64_t *out)
{
	int64_t x;

	if (!v)
		return vgpu_rec_err(c, rec, field, "missing");
	if (!json_object_is_type(v, json_type_int))
		return vgpu_rec_err(c, rec, field, "expected an integer");
	errno = 0;
	x = json_object_get_int64(v);
	if (errno || x < 0 || (uint64_t)x > max)
		return vgpu_rec_err(c, rec, field,
				    "expected an integer in 0..%llu",
				    (unsigned long long)max);
	*out = x;
	return 0;
}

/* [x, y, z], each 1..2^31-1. */
static int vgpu_kin_dim3(struct vgpu_rec_ctx *c, const char *rec,
			 const char *field, json_object *v, uint32_t *dim)
{
	uint64_t x;
	size_t i;

	if (!v)
		return vgpu_rec_err(c, rec, field, "missing");
	if (!json_object_is_type(v, json_type_array) ||
	    json_object_array_length(v) != 3)
		return vgpu_rec_err(c, rec, field, "expected [x, y, z]");
	for (i = 0; i < 3; i++) {
		if (vgpu_kin_uint(c, rec, field,
				  json_object_array_get_idx(v, i), INT32_MAX,
				  &x))
			return -EINVAL;
		if (!x)
			return vgpu_rec_err(c, rec, field,
					    "dimensions must be >= 1");
		dim[i] = x;
	}
	return 0;
}

static json_object *vgpu_kin_get(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static int vgpu_kin_event(struct vgpu_rec_ctx *c, struct vgpu_recording *rec,
			  size_t idx, json_object *ev)
{
	json_object *ph, *cat, *args, *v;
	struct vgpu_rec_kernel *k;
	uint64_t ts, dur, x, smem;
	char r[48];

	snprintf(r, sizeof(r), "traceEvents[%zu]", idx);
	if (!json_object_is_type(ev, json_type_object))
		return vgpu_rec_err(c, r, "(event)", "expected an object");
	ph = vgpu_kin_get(ev, "ph");
	cat = vgpu_kin_get(ev, "cat");
	if (!ph || !cat || !json_object_is_type(ph, json_type_string) ||
	    !json_object_is_type(cat, json_type_string) ||
	    strcmp(json_object_get_string(ph), "X") ||
	    strcasecmp(json_object_get_string(cat), "kernel"))
		return 0;
	v = vgpu_kin_get(ev, "name");
	if (!v)
		return vgpu_rec_err(c, r, "name", "missing");
	if (!json_object_is_type(v, json_type_string))
		return vgpu_rec_err(c, r, "name", "expected a string");
	if (vgpu_kin_us(c, r, "ts", vgpu_kin_get(ev, "ts"), &ts) ||
	    vgpu_kin_us(c, r, "dur", vgpu_kin_get(ev, "dur"), &dur))
		return -EINVAL;
	args = vgpu_kin_get(ev, "args");
	if (!args)
		return vgpu_rec_err(c, r, "args", "missing");
	if (!json_object_is_type(args, json_type_object))
		return vgpu_rec_err(c, r, "args", "expected an object");
	k = vgpu_rec_push(rec);
	if (!k)
		return -ENOMEM;
	vgpu_rec_set_name(k, json_object_get_string(v));
	snprintf(k->record, sizeof(k->record), "%s", r);
	k->timed = true;
	k->start = ts;
	k->end = ts + dur;
	if (vgpu_kin_dim3(c, r, "args.grid", vgpu_kin_get(args, "grid"),
			  k->grid) ||
	    vgpu_kin_dim3(c, r, "args.block", vgpu_kin_get(args, "block"),
			  k->block) ||
	    vgpu_kin_uint(c, r, "args.stream", vgpu_kin_get(args, "stream"),
			  UINT32_MAX, &k->stream) ||
	    vgpu_kin_uint(c, r, "args.registers per thread",
			  vgpu_kin_get(args, "registers per thread"),
			  UINT16_MAX, &x))
		return -EINVAL;
	k->regs = x;
	if (vgpu_kin_uint(c, r, "args.shared memory",
			  vgpu_kin_get(args, "shared memory"), UINT32_MAX,
			  &smem))
		return -EINVAL;
	k->smem = smem;
	v = vgpu_kin_get(args, "device");
	if (!v)
		v = vgpu_kin_get(ev, "pid");
	if (v && json_object_is_type(v, json_type_int) &&
	    vgpu_kin_uint(c, r, "args.device", v, UINT32_MAX, &k->device))
		return -EINVAL;
	return 0;
}

static int vgpu_kin_cmp(const void *a, const void *b)
{
	const struct vgpu_rec_kernel *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* stable: the record names carry the event index */
	return strlen(x->record) != strlen(y->record) ?
	       (strlen(x->record) < strlen(y->record) ? -1 : 1) :
	       strcmp(x->record, y->record);
}

int vgpu_rec_load_kineto(struct vgpu_rec_ctx *c, struct vgpu_recording *rec,
			 const char *text, size_t len)
{
	json_object *root, *events = NULL;
	size_t i, n;
	int ret;

	ret = vgpu_rec_json_parse(c, text, len, &root);
	if (ret)
		return ret;
	if (json_object_is_type(root, json_type_array))
		events = root;
	else if (json_object_is_type(root, json_type_object))
		events = vgpu_kin_get(root, "traceEvents");
	if (!events) {
		ret = vgpu_rec_err(c, "(top)", "traceEvents", "missing");
		goto out;
	}
	if (!json_object_is_type(events, json_type_array)) {
		ret = vgpu_rec_err(c, "(top)", "traceEvents",
				   "expected an array");
		goto out;
	}
	n = json_object_array_length(events);
	for (i = 0; !ret && i < n; i++)
		ret = vgpu_kin_event(c, rec, i,
				     json_object_array_get_idx(events, i));
	if (!ret && rec->n)
		qsort(rec->k, rec->n, sizeof(*rec->k), vgpu_kin_cmp);
out:
	json_object_put(root);
	return ret;
}
