// SPDX-License-Identifier: GPL-2.0
/*
 * import_stream.c - a recording read kernel by kernel, in start order
 * (import_stream.h).
 *
 * Nsight SQLite: the reader's query is a cursor (ORDER BY start, rowid:
 * SQLite sorts through its own bounded sorter, spilling to temporary
 * files, when the table has no index on start).  Kineto JSON: the
 * incremental reader of import_kineto.c; a trace need not list its
 * kernels in start order, so they pass through a min-heap of
 * VGPU_REC_STREAM_WINDOW kernels keyed by (start, event index), the order
 * vgpul_rec_load() sorts them in; a kernel that starts before one already
 * returned is an error (import such a trace whole with vgpu-sim import).
 * Accel-Sim: kernelslist.g is read whole (one line per launch, no
 * timestamps) and handed out in its order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_internal.h"
#include "import_stream.h"

/* A kernel of the Kineto window and its event index. */
struct vgpu_rs_item {
	struct vgpu_rec_kernel k;
	size_t idx;
};

/**
 * struct vgpu_rec_stream - a recording read kernel by kernel
 * @format: VGPU_REC_*
 * @path: the file
 * @c: its load context (messages into @err)
 * @err: the first error
 * @nsys: Nsight: the cursor
 * @kin: Kineto: the reader
 * @heap: Kineto: the window, a min-heap by (start, event index)
 * @nheap: kernels in it
 * @kin_end: Kineto: the reader is at the end
 * @have_last: a kernel was returned
 * @last_start: the start of the last one
 * @last_idx: its event index
 * @rec: Accel-Sim: the recording, read whole
 * @next: kernels returned
 * @rows: Nsight: rows of the kernel table
 */
struct vgpu_rec_stream {
	int format;
	char *path;
	struct vgpu_rec_ctx c;
	char err[1024];
	struct vgpu_nsys_cursor nsys;
	struct vgpu_kin_reader *kin;
	struct vgpu_rs_item *heap;	/* the Kineto window */
	size_t nheap;
	bool kin_end;
	bool have_last;
	uint64_t last_start;		/* of the last kernel returned */
	size_t last_idx;
	struct vgpu_recording rec;	/* Accel-Sim, whole */
	size_t next;			/* kernels returned */
	uint64_t rows;			/* Nsight: kernels in the table */
};

const char *vgpu_rec_stream_path(const struct vgpu_rec_stream *s)
{
	return s->path;
}

static void vgpu_rs_seterr(struct vgpu_rec_stream *s, char *err,
			   size_t errlen, int ret)
{
	if (!err || !errlen)
		return;
	if (s->c.failed)
		snprintf(err, errlen, "%s", s->err);
	else
		snprintf(err, errlen, "%s: %s", s->path, strerror(-ret));
}

int vgpu_rec_stream_open(const char *path, int format,
			 struct vgpu_rec_stream **sp, char *err,
			 size_t errlen)
{
	struct vgpu_rec_stream *s;
	int ret;

	*sp = NULL;
	if (err && errlen)
		err[0] = 0;
	if (format == VGPU_REC_AUTO) {
		format = vgpul_rec_detect(path);
		if (format < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(-format));
			return format;
		}
	}
	s = calloc(1, sizeof(*s));
	if (!s || !(s->path = strdup(path))) {
		free(s);
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	s->format = format;
	s->c.path = s->path;
	s->c.err = s->err;
	s->c.errlen = sizeof(s->err);
	switch (format) {
	case VGPU_REC_NSYS:
		ret = vgpu_nsys_open(&s->c, &s->nsys);
		if (!ret)
			s->rows = vgpu_nsys_rows(&s->nsys);
		break;
	case VGPU_REC_KINETO:
		s->heap = malloc(VGPU_REC_STREAM_WINDOW * sizeof(*s->heap));
		ret = s->heap ? vgpu_kin_reader_open(&s->c, &s->kin) : -ENOMEM;
		break;
	case VGPU_REC_ACCELSIM:
		ret = vgpul_rec_load(path, format, &s->rec, s->err,
				    sizeof(s->err));
		if (ret)
			s->c.failed = 1;
		break;
	default:
		ret = vgpu_rec_err(&s->c, "(file)", "(format)",
				   "not a recording (nsys, kineto or accelsim)");
	}
	if (ret) {
		vgpu_rs_seterr(s, err, errlen, ret);
		vgpu_rec_stream_close(s);
		return ret;
	}
	*sp = s;
	return 0;
}

void vgpu_rec_stream_close(struct vgpu_rec_stream *s)
{
	if (!s)
		return;
	if (s->format == VGPU_REC_NSYS)
		vgpu_nsys_close(&s->nsys);
	vgpu_kin_reader_close(s->kin);
	vgpul_rec_free(&s->rec);
	free(s->heap);
	free(s->path);
	free(s);
}

static bool vgpu_rs_less(const struct vgpu_rs_item *a,
			 const struct vgpu_rs_item *b)
{
	return a->k.start < b->k.start ||
	       (a->k.start == b->k.start && a->idx < b->idx);
}

static void vgpu_rs_swap(struct vgpu_rs_item *a, struct vgpu_rs_item *b)
{
	struct vgpu_rs_item t = *a;

	*a = *b;
	*b = t;
}

/* Sift the heap's last item up. */
static void vgpu_rs_up(struct vgpu_rec_stream *s)
{
	size_t i = s->nheap - 1;

	while (i && vgpu_rs_less(&s->heap[i], &s->heap[(i - 1) / 2])) {
		vgpu_rs_swap(&s->heap[i], &s->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
}

/* Take the heap's least item into @k. */
static void vgpu_rs_pop(struct vgpu_rec_stream *s, struct vgpu_rec_kernel *k)
{
	size_t i = 0, l, m;

	*k = s->heap[0].k;
	s->last_start = s->heap[0].k.start;
	s->last_idx = s->heap[0].idx;
	s->have_last = true;
	s->heap[0] = s->heap[--s->nheap];
	for (;;) {
		l = 2 * i + 1;
		m = i;
		if (l < s->nheap && vgpu_rs_less(&s->heap[l], &s->heap[m]))
			m = l;
		if (l + 1 < s->nheap && vgpu_rs_less(&s->heap[l + 1], &s->heap[m]))
			m = l + 1;
		if (m == i)
			break;
		vgpu_rs_swap(&s->heap[i], &s->heap[m]);
		i = m;
	}
}

static int vgpu_rs_kineto(struct vgpu_rec_stream *s, struct vgpu_rec_kernel *k)
{
	struct vgpu_rs_item *it;
	int ret;

	while (!s->kin_end && s->nheap < VGPU_REC_STREAM_WINDOW) {
		it = &s->heap[s->nheap];
		ret = vgpu_kin_reader_next(&s->c, s->kin, &it->k);
		if (ret < 0)
			return ret;
		if (!ret) {
			s->kin_end = true;
			break;
		}
		/* the reader numbers events from 0 */
		it->idx = strtoull(it->k.record + strlen("traceEvents["),
				   NULL, 10);
		if (s->have_last && it->k.start < s->last_start)
			return vgpu_rec_err(&s->c, it->k.record, "ts",
					    "starts before a kernel already replayed (more than %u kernels out of start order; vgpu-sim import reads the trace whole)",
					    VGPU_REC_STREAM_WINDOW);
		s->nheap++;
		vgpu_rs_up(s);
	}
	if (!s->nheap)
		return 0;
	vgpu_rs_pop(s, k);
	return 1;
}

int vgpu_rec_stream_next(struct vgpu_rec_stream *s,
			 struct vgpu_rec_kernel *k, char *err, size_t errlen)
{
	int ret;

	switch (s->format) {
	case VGPU_REC_NSYS:
		ret = vgpu_nsys_step(&s->c, &s->nsys, k);
		s->next += ret > 0;
		break;
	case VGPU_REC_KINETO:
		ret = vgpu_rs_kineto(s, k);
		break;
	default:
		if (s->next == s->rec.n)
			return 0;
		*k = s->rec.k[s->next++];
		return 1;
	}
	if (ret < 0)
		vgpu_rs_seterr(s, err, errlen, ret);
	return ret;
}

double vgpu_rec_stream_progress(const struct vgpu_rec_stream *s)
{
	switch (s->format) {
	case VGPU_REC_NSYS:
		return s->rows ? (double)s->next / s->rows : 0;
	case VGPU_REC_KINETO:
		return vgpu_kin_reader_progress(s->kin);
	default:
		return s->rec.n ? (double)s->next / s->rec.n : 0;
	}
}

int vgpu_rec_stream_rewind(struct vgpu_rec_stream *s, char *err,
			   size_t errlen)
{
	int ret = 0;

	s->next = 0;
	s->nheap = 0;
	s->kin_end = false;
	s->have_last = false;
	switch (s->format) {
	case VGPU_REC_NSYS:
		ret = vgpu_nsys_rewind(&s->c, &s->nsys);
		break;
	case VGPU_REC_KINETO:
		vgpu_kin_reader_close(s->kin);
		s->kin = NULL;
		ret = vgpu_kin_reader_open(&s->c, &s->kin);
		break;
	default:
		break;
	}
	if (ret)
		vgpu_rs_seterr(s, err, errlen, ret);
	return ret;
}
