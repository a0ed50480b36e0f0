/* SPDX-License-Identifier: GPL-2.0 */
/*
 * import_internal.h - what the recording importers share (import.c,
 * import_nsys.c, import_kineto.c, import_accelsim.c).  Not installed.
 */
#ifndef VGPU_IMPORT_INTERNAL_H
#define VGPU_IMPORT_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <vgpu/import.h>

/**
 * struct vgpu_rec_ctx - one load: where its errors go
 * @path: the file named in messages
 * @err: the message buffer
 * @errlen: its size
 * @failed: an error was recorded (the first one wins)
 */
struct vgpu_rec_ctx {
	const char *path;
	char *err;
	size_t errlen;
	int failed;
};

/**
 * vgpu_rec_err() - record "FILE: RECORD: FIELD: message"
 * @c: the load
 * @record: which record ("row 3", "traceEvents[2]", "(file)")
 * @field: which field ("gridX", "args.grid", "(syntax)")
 * @fmt: printf format of the message
 *
 * Return: -EINVAL.
 */
int vgpu_rec_err(struct vgpu_rec_ctx *c, const char *record,
		 const char *field, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

struct json_object;
struct vgpu_config;

/**
 * vgpu_imp_program() - vgpul_import_program() on a configuration
 * @cfg: the device
 * @threads: threads per block
 * @regs: registers per thread
 * @smem: shared memory per block
 * @grid: blocks
 * @cycles: wanted duration alone on @cfg, in cycles
 * @prog: result (vgpul_vasm_free())
 * @clamped: set when @cycles is below the shortest program
 *
 * Return: 0, -E2BIG if the block never fits an SM of @cfg, -ENOMEM.
 */
int vgpu_imp_program(const struct vgpu_config *cfg, uint32_t threads,
		     uint32_t regs, uint32_t smem, uint32_t grid,
		     uint64_t cycles, struct vgpu_vasm_prog *prog, bool *clamped);

/**
 * vgpu_rec_json_parse() - parse one whole JSON document
 * @c: the load; a syntax error names its line and column
 * @text: the document, @len bytes (not NUL-terminated)
 * @len: its length
 * @root: out: the document (json_object_put() it) on success
 *
 * Return: 0; -ENOMEM; or -EINVAL, recorded in @c, for a syntax error or
 * anything but white space after the document.
 */
int vgpu_rec_json_parse(struct vgpu_rec_ctx *c, const char *text, size_t len,
			struct json_object **root);

/**
 * vgpu_rec_push() - append a zeroed kernel to @rec
 * @rec: the recording
 *
 * Return: the new kernel, or NULL when out of memory.
 */
struct vgpu_rec_kernel *vgpu_rec_push(struct vgpu_recording *rec);

/**
 * vgpu_rec_set_name() - copy a recorded name, truncated
 * @k: the kernel
 * @s: the name (NULL or empty: "kernel")
 */
void vgpu_rec_set_name(struct vgpu_rec_kernel *k, const char *s);

/**
 * vgpu_rec_read_file() - a whole file in memory, NUL-terminated
 * @path: the file
 * @len: its length
 *
 * Return: the text (free()), or NULL with errno set.
 */
char *vgpu_rec_read_file(const char *path, size_t *len);

int vgpu_rec_load_nsys(struct vgpu_rec_ctx *c, struct vgpu_recording *rec);

struct sqlite3;
struct sqlite3_stmt;

/**
 * struct vgpu_nsys_cursor - the kernel rows of an Nsight export, in
 *	start order
 * @db: the database
 * @st: the query
 * @namecol: the name column used (shortName or demangledName)
 */
struct vgpu_nsys_cursor {
	struct sqlite3 *db;
	struct sqlite3_stmt *st;
	const char *namecol;
};

/**
 * vgpu_nsys_open() - open @c->path and prepare the query
 * @c: the load
 * @cur: out: the cursor (vgpu_nsys_close() it, also after an error)
 *
 * Return: 0 or -EINVAL (recorded in @c).
 */
int vgpu_nsys_open(struct vgpu_rec_ctx *c, struct vgpu_nsys_cursor *cur);

/**
 * vgpu_nsys_step() - the next row as a kernel
 * @c: the load
 * @cur: the cursor
 * @k: out: the kernel
 *
 * Return: 1, 0 after the last row, or -EINVAL (recorded in @c).
 */
int vgpu_nsys_step(struct vgpu_rec_ctx *c, struct vgpu_nsys_cursor *cur,
		   struct vgpu_rec_kernel *k);

/**
 * vgpu_nsys_rows() - the rows of the kernel table (the progress bar's
 *	total)
 * @cur: an open cursor
 *
 * Return: their number, 0 if unknown.
 */
uint64_t vgpu_nsys_rows(struct vgpu_nsys_cursor *cur);

/**
 * vgpu_nsys_rewind() - run the query again from its first row
 * @c: the load
 * @cur: the cursor
 *
 * Return: 0 or -EINVAL (recorded in @c).
 */
int vgpu_nsys_rewind(struct vgpu_rec_ctx *c, struct vgpu_nsys_cursor *cur);

/**
 * vgpu_nsys_close() - finish the query and close the database
 * @cur: the cursor
 */
void vgpu_nsys_close(struct vgpu_nsys_cursor *cur);
int vgpu_rec_load_kineto(struct vgpu_rec_ctx *c, struct vgpu_recording *rec,
			 const char *text, size_t len);
/**
 * vgpu_kin_event() - one Kineto trace event as a kernel
 * @c: the load
 * @idx: its index in traceEvents (messages, order)
 * @ev: the event
 * @k: out: the kernel
 *
 * Return: 1 for a kernel, 0 for any other event, -EINVAL (recorded in @c)
 * for a kernel event with a missing or bad field.
 */
int vgpu_kin_event(struct vgpu_rec_ctx *c, size_t idx, struct json_object *ev,
		   struct vgpu_rec_kernel *k);

struct vgpu_kin_reader;

/**
 * vgpu_kin_reader_open() - open @c->path to read its events one by one
 * @c: the load
 * @rp: out: the reader
 *
 * Return: 0, -ENOMEM, or -EINVAL (recorded in @c).
 */
int vgpu_kin_reader_open(struct vgpu_rec_ctx *c, struct vgpu_kin_reader **rp);

/**
 * vgpu_kin_reader_next() - the next kernel event in file order
 * @c: the load
 * @r: the reader
 * @k: out: the kernel
 *
 * Return: 1, 0 at the end of a well-formed document, or a negative errno
 * (recorded in @c).
 */
int vgpu_kin_reader_next(struct vgpu_rec_ctx *c, struct vgpu_kin_reader *r,
			 struct vgpu_rec_kernel *k);

/**
 * vgpu_kin_reader_progress() - the share of the file read
 * @r: the reader
 *
 * Return: 0..1.
 */
double vgpu_kin_reader_progress(const struct vgpu_kin_reader *r);

/**
 * vgpu_kin_reader_close() - close a reader
 * @r: the reader, or NULL
 */
void vgpu_kin_reader_close(struct vgpu_kin_reader *r);

int vgpu_rec_load_accelsim(struct vgpu_rec_ctx *c, struct vgpu_recording *rec);

/**
 * vgpu_rec_accelsim_class() - the ISA class of a SASS opcode
 * @opcode: e.g. "LDG.E.128", "IMAD.MOV.U32", "HMMA.16816.F32"
 *
 * Return: 0..6 (MOV, LOAD, STORE, MMA, CMP, BRA, ALU).
 */
int vgpu_rec_accelsim_class(const char *opcode);

#endif /* VGPU_IMPORT_INTERNAL_H */
