/* SPDX-License-Identifier: GPL-2.0 */
/*
 * import_internal.h - the recording readers (import_nsys.c,
 * import_kineto.c, import_accelsim.c) as import.c and import_stream.c
 * call them, and the program synthesis of import.c.  What the readers
 * use in turn is in recording.h.  Not installed.
 */
#ifndef VGPU_IMPORT_INTERNAL_H
#define VGPU_IMPORT_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <vgpu/import.h>

#include "recording.h"

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
