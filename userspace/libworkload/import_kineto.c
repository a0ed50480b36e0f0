// SPDX-License-Identifier: GPL-2.0
/*
 * import_kineto.c - PyTorch profiler / Kineto Chrome-trace JSON, read
 * with libjson-c.
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
#include <sys/stat.h>
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

int vgpu_kin_event(struct vgpu_rec_ctx *c, size_t idx, json_object *ev,
		   struct vgpu_rec_kernel *k)
{
	json_object *ph, *cat, *args, *v;
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
		return 0;	/* not a kernel */
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
	memset(k, 0, sizeof(*k));
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
	return 1;
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
	struct vgpu_rec_kernel k, *nk;
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
	for (i = 0; !ret && i < n; i++) {
		ret = vgpu_kin_event(c, i, json_object_array_get_idx(events, i),
				     &k);
		if (ret > 0) {
			nk = vgpu_rec_push(rec);
			if (!nk)
				ret = -ENOMEM;
			else
				*nk = k;
		}
		if (ret > 0)
			ret = 0;
	}
	if (!ret && rec->n)
		qsort(rec->k, rec->n, sizeof(*rec->k), vgpu_kin_cmp);
out:
	json_object_put(root);
	return ret;
}

/*
 * The incremental reader (vgpu-sim replay).  json-c
 * parses a whole document into one tree: a trace of a million events is
 * a tree of tens of millions of objects.  json-c has no event (SAX)
 * interface, but its tokener parses a value fed in pieces and says where
 * the value ended.  So this reader walks the document's two outer levels
 * itself (the top object, its keys, the traceEvents array and the commas
 * between elements) and hands each value to the tokener: every event is
 * one small tree, freed before the next; the values of other keys are
 * parsed (a syntax error anywhere is an error) and dropped.  The file is
 * read VGPU_KIN_CHUNK bytes at a time.  Memory: one chunk, one event.
 */
#define VGPU_KIN_CHUNK	65536

enum vgpu_kin_state {
	VGPU_KIN_START,		/* before the document */
	VGPU_KIN_OBJ_FIRST,	/* after the top '{' */
	VGPU_KIN_OBJ_KEY,	/* a key of the top object comes */
	VGPU_KIN_OBJ_NEXT,	/* ',' or '}' of the top object comes */
	VGPU_KIN_ARR_FIRST,	/* after the events' '[' */
	VGPU_KIN_ARR_VALUE,	/* an event comes */
	VGPU_KIN_ARR_NEXT,	/* ',' or ']' of the events comes */
	VGPU_KIN_AFTER,		/* after the document */
	VGPU_KIN_DONE,
};

/**
 * struct vgpu_kin_reader - a Kineto trace read value by value
 * @f: the file
 * @tok: tokeners for values one and two levels deep
 * @state: where in the document's two outer levels the reader is
 * @bare: the document is the events array itself
 * @seen_events: traceEvents was met
 * @idx: index of the next event
 * @pos: next byte of @buf
 * @len: bytes in @buf
 * @line: line of @buf[@pos]
 * @col: its column
 * @read: bytes read from @f so far
 * @size: the file's size (progress)
 * @buf: the chunk being read
 */
struct vgpu_kin_reader {
	FILE *f;
	json_tokener *tok[2];
	enum vgpu_kin_state state;
	bool bare;		/* the document is the events array */
	bool seen_events;
	size_t idx;		/* index of the next event */
	size_t pos, len;	/* of buf */
	size_t line, col;	/* of buf[pos] */
	size_t read, size;	/* bytes read so far, in the file */
	char buf[VGPU_KIN_CHUNK];
};

/* The next byte without taking it; -1 at the end; -2 on a read error. */
static int vgpu_kin_peek(struct vgpu_kin_reader *r)
{
	if (r->pos == r->len) {
		r->len = fread(r->buf, 1, sizeof(r->buf), r->f);
		r->pos = 0;
		r->read += r->len;
		if (!r->len)
			return ferror(r->f) ? -2 : -1;
	}
	return (unsigned char)r->buf[r->pos];
}

/* Take @n bytes of buf (they are there), keeping line and column. */
static void vgpu_kin_take(struct vgpu_kin_reader *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (r->buf[r->pos + i] == '\n') {
			r->line++;
			r->col = 1;
		} else {
			r->col++;
		}
	}
	r->pos += n;
}

static int vgpu_kin_syntax(struct vgpu_rec_ctx *c, struct vgpu_kin_reader *r,
			   const char *msg)
{
	char at[48];

	snprintf(at, sizeof(at), "%zu:%zu", r->line, r->col);
	return vgpu_rec_err(c, at, "(syntax)", "%s", msg);
}

/* Skip white space; the next byte (or -1 at the end), or -EIO. */
static int vgpu_kin_ws(struct vgpu_rec_ctx *c, struct vgpu_kin_reader *r)
{
	int ch;

	for (;;) {
		ch = vgpu_kin_peek(r);
		if (ch == -2)
			return vgpu_rec_err(c, "(file)", "(read)", "%s",
					    strerror(EIO));
		if (ch != ' ' && ch != '\n' && ch != '\t' && ch != '\r')
			return ch;
		vgpu_kin_take(r, 1);
	}
}

/*
 * The ',' or @close ('}' or ']') after a member or an element, taken; or
 * a negative error.
 */
static int vgpu_kin_next(struct vgpu_rec_ctx *c, struct vgpu_kin_reader *r,
			 int close)
{
	int ch = vgpu_kin_ws(c, r);

	if (ch < -1)
		return ch;
	if (ch != ',' && ch != close)
		return vgpu_kin_syntax(c, r,
				       ch < 0 ? json_tokener_error_desc(json_tokener_error_parse_eof) :
				       close == '}' ? "expected ',' or '}'" :
				       "expected ',' or ']'");
	vgpu_kin_take(r, 1);
	return ch;
}

/*
 * One JSON value through the tokener, fed chunk by chunk.  @level: how
 * deep the value sits (1: in the top object or array, 2: an event of
 * "traceEvents"), so that it may nest as deep as in a whole-document
 * parse and no deeper.
 */
static int vgpu_kin_value(struct vgpu_rec_ctx *c, struct vgpu_kin_reader *r,
			  int level, json_object **out)
{
	json_tokener *tok = r->tok[level > 1];
	enum json_tokener_error jerr;
	json_object *o;
	size_t n, end;
	int ch;

	json_tokener_reset(tok);
	for (;;) {
		ch = vgpu_kin_peek(r);
		if (ch == -2)
			return vgpu_rec_err(c, "(file)", "(read)", "%s",
					    strerror(EIO));
		if (ch == -1)
			return vgpu_kin_syntax(c, r,
				json_tokener_error_desc(json_tokener_error_parse_eof));
		n = r->len - r->pos;
		o = json_tokener_parse_ex(tok, r->buf + r->pos, n);
		jerr = json_tokener_get_error(tok);
		end = json_tokener_get_parse_end(tok);
		if (o) {
			vgpu_kin_take(r, end);
			*out = o;
			return 0;
		}
		if (jerr != json_tokener_continue) {
			vgpu_kin_take(r, end);
			return vgpu_kin_syntax(c, r,
					       json_tokener_error_desc(jerr));
		}
		vgpu_kin_take(r, n);
	}
}

/* Drop one value (parsed: its syntax is checked). */
static int vgpu_kin_skip(struct vgpu_rec_ctx *c, struct vgpu_kin_reader *r)
{
	json_object *o;
	int ret = vgpu_kin_value(c, r, 1, &o);

	if (!ret)
		json_object_put(o);
	return ret;
}

int vgpu_kin_reader_open(struct vgpu_rec_ctx *c, struct vgpu_kin_reader **rp)
{
	struct vgpu_kin_reader *r;
	struct stat st;

	*rp = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->tok[0] = json_tokener_new_ex(JSON_TOKENER_DEFAULT_DEPTH - 1);
	r->tok[1] = json_tokener_new_ex(JSON_TOKENER_DEFAULT_DEPTH - 2);
	if (!r->tok[0] || !r->tok[1]) {
		vgpu_kin_reader_close(r);
		return -ENOMEM;
	}
	r->f = fopen(c->path, "r");
	if (!r->f) {
		int e = errno;

		vgpu_kin_reader_close(r);
		return vgpu_rec_err(c, "(file)", "(open)", "%s", strerror(e));
	}
	r->line = 1;
	r->col = 1;
	if (!fstat(fileno(r->f), &st))
		r->size = st.st_size;
	*rp = r;
	return 0;
}

void vgpu_kin_reader_close(struct vgpu_kin_reader *r)
{
	if (!r)
		return;
	if (r->f)
		fclose(r->f);
	if (r->tok[0])
		json_tokener_free(r->tok[0]);
	if (r->tok[1])
		json_tokener_free(r->tok[1]);
	free(r);
}

/* The next event of the document (1), its end (0), or an error. */
static int vgpu_kin_reader_event(struct vgpu_rec_ctx *c,
				 struct vgpu_kin_reader *r, json_object **ev)
{
	json_object *key;
	bool events;
	int ch, ret;

	for (;;) {
		switch (r->state) {
		case VGPU_KIN_START:
			ch = vgpu_kin_ws(c, r);
			if (ch < -1)
				return ch;
			if (ch == '[') {
				vgpu_kin_take(r, 1);
				r->bare = true;
				r->state = VGPU_KIN_ARR_FIRST;
			} else if (ch == '{') {
				vgpu_kin_take(r, 1);
				r->state = VGPU_KIN_OBJ_FIRST;
			} else {
				ret = vgpu_kin_skip(c, r);
				if (ret)
					return ret;
				r->state = VGPU_KIN_AFTER;
			}
			break;
		case VGPU_KIN_OBJ_FIRST:
			ch = vgpu_kin_ws(c, r);
			if (ch < -1)
				return ch;
			if (ch == '}') {
				vgpu_kin_take(r, 1);
				r->state = VGPU_KIN_AFTER;
			} else {
				r->state = VGPU_KIN_OBJ_KEY;
			}
			break;
		case VGPU_KIN_OBJ_KEY:
			ch = vgpu_kin_ws(c, r);
			if (ch < -1)
				return ch;
			if (ch != '"')
				return vgpu_kin_syntax(c, r,
						       "expected a key string");
			ret = vgpu_kin_value(c, r, 1, &key);
			if (ret)
				return ret;
			events = json_object_is_type(key, json_type_string) &&
				 !strcmp(json_object_get_string(key),
					 "traceEvents");
			json_object_put(key);
			/* a whole-document parse keeps the last: refuse both */
			if (events && r->seen_events)
				return vgpu_rec_err(c, "(top)", "traceEvents",
						    "given twice");
			ch = vgpu_kin_ws(c, r);
			if (ch < -1)
				return ch;
			if (ch != ':')
				return vgpu_kin_syntax(c, r, "expected ':'");
			vgpu_kin_take(r, 1);
			ch = vgpu_kin_ws(c, r);
			if (ch < -1)
				return ch;
			if (events && ch == '[') {
				vgpu_kin_take(r, 1);
				r->seen_events = true;
				r->state = VGPU_KIN_ARR_FIRST;
				break;
			}
			ret = vgpu_kin_skip(c, r);
			if (ret)
				return ret;
			if (events)
				return vgpu_rec_err(c, "(top)", "traceEvents",
						    "expected an array");
			r->state = VGPU_KIN_OBJ_NEXT;
			break;
		case VGPU_KIN_OBJ_NEXT:
			ch = vgpu_kin_next(c, r, '}');
			if (ch < 0)
				return ch;
			r->state = ch == ',' ? VGPU_KIN_OBJ_KEY : VGPU_KIN_AFTER;
			break;
		case VGPU_KIN_ARR_FIRST:
			ch = vgpu_kin_ws(c, r);
			if (ch < -1)
				return ch;
			if (ch == ']') {
				vgpu_kin_take(r, 1);
				r->seen_events = true;
				r->state = r->bare ? VGPU_KIN_AFTER :
					   VGPU_KIN_OBJ_NEXT;
			} else {
				r->state = VGPU_KIN_ARR_VALUE;
			}
			break;
		case VGPU_KIN_ARR_VALUE:
			ret = vgpu_kin_value(c, r, r->bare ? 1 : 2, ev);
			if (ret)
				return ret;
			r->state = VGPU_KIN_ARR_NEXT;
			return 1;
		case VGPU_KIN_ARR_NEXT:
			ch = vgpu_kin_next(c, r, ']');
			if (ch < 0)
				return ch;
			if (ch == ',') {
				r->state = VGPU_KIN_ARR_VALUE;
			} else {
				r->seen_events = true;
				r->state = r->bare ? VGPU_KIN_AFTER :
					   VGPU_KIN_OBJ_NEXT;
			}
			break;
		case VGPU_KIN_AFTER:
			ch = vgpu_kin_ws(c, r);
			if (ch < -1)
				return ch;
			if (ch != -1)
				return vgpu_kin_syntax(c, r,
					"trailing data after the document");
			r->state = VGPU_KIN_DONE;
			if (!r->seen_events)
				return vgpu_rec_err(c, "(top)", "traceEvents",
						    "missing");
			return 0;
		default:
			return 0;
		}
	}
}

int vgpu_kin_reader_next(struct vgpu_rec_ctx *c, struct vgpu_kin_reader *r,
			 struct vgpu_rec_kernel *k)
{
	json_object *ev;
	int ret;

	for (;;) {
		ret = vgpu_kin_reader_event(c, r, &ev);
		if (ret <= 0)
			return ret;
		ret = vgpu_kin_event(c, r->idx++, ev, k);
		json_object_put(ev);
		if (ret)
			return ret;
	}
}

double vgpu_kin_reader_progress(const struct vgpu_kin_reader *r)
{
	if (!r->size)
		return 0;
	return (double)(r->read - (r->len - r->pos)) / r->size;
}
