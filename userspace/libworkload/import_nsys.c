// SPDX-License-Identifier: GPL-2.0
/*
 * import_nsys.c - Nsight Systems SQLite exports (`nsys export --type
 * sqlite`), read with libsqlite3.
 *
 * The kernels are the rows of CUPTI_ACTIVITY_KIND_KERNEL (one per launch,
 * timestamps in ns); shortName and demangledName are ids into StringIds
 * (id, value); globalPid is nsys's serialised global id whose bits 24..47
 * are the process id.  Other tables and columns are ignored; a required
 * column that is missing, NULL, not an integer or out of range is an
 * error naming the row and the column.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sqlite3.h>

#include "import_internal.h"

#define VGPU_NSYS_TABLE	"CUPTI_ACTIVITY_KIND_KERNEL"

/* Required integer columns, in the order of the SELECT. */
static const char *const vgpu_nsys_cols[] = {
	"start", "end", "deviceId", "streamId", "globalPid",
	"gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
	"registersPerThread", "staticSharedMemory", "dynamicSharedMemory",
};

#define VGPU_NSYS_NCOLS	(sizeof(vgpu_nsys_cols) / sizeof(vgpu_nsys_cols[0]))

/* Whether @table has column @col (1), not (0), or the table is absent (-1). */
static int vgpu_nsys_has_col(sqlite3 *db, const char *table, const char *col,
			     int *err)
{
	char sql[128];
	sqlite3_stmt *st;
	int rows = 0, found = 0, rc;

	snprintf(sql, sizeof(sql), "PRAGMA table_info(%s)", table);
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK) {
		*err = rc;
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *name = sqlite3_column_text(st, 1);

		rows++;
		if (name && !strcmp((const char *)name, col))
			found = 1;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		*err = rc;
		return -1;
	}
	*err = 0;
	return rows ? found : -1;
}

int vgpu_nsys_open(struct vgpu_rec_ctx *c, struct vgpu_nsys_cursor *cur)
{
	sqlite3 *db = NULL;
	const char *namecol = NULL;
	char sql[1024];
	size_t i, off;
	int rc, sqerr, ret = 0, has;

	memset(cur, 0, sizeof(*cur));
	rc = sqlite3_open_v2(c->path, &db, SQLITE_OPEN_READONLY, NULL);
	cur->db = db;
	if (rc != SQLITE_OK)
		return vgpu_rec_err(c, "(file)", "(sqlite)", "%s",
				    db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
	for (i = 0; i < VGPU_NSYS_NCOLS; i++) {
		has = vgpu_nsys_has_col(db, VGPU_NSYS_TABLE, vgpu_nsys_cols[i],
					&sqerr);
		if (has < 0 && sqerr)
			return vgpu_rec_err(c, "(file)", "(sqlite)", "%s",
					    sqlite3_errmsg(db));
		if (has < 0)
			return vgpu_rec_err(c, VGPU_NSYS_TABLE, "(table)",
					    "missing (no CUDA kernels in this export?)");
		if (!has)
			return vgpu_rec_err(c, VGPU_NSYS_TABLE,
					    vgpu_nsys_cols[i], "missing column");
	}
	if (vgpu_nsys_has_col(db, VGPU_NSYS_TABLE, "shortName", &sqerr) > 0)
		namecol = "shortName";
	else if (vgpu_nsys_has_col(db, VGPU_NSYS_TABLE, "demangledName",
				   &sqerr) > 0)
		namecol = "demangledName";
	if (!namecol)
		return vgpu_rec_err(c, VGPU_NSYS_TABLE, "shortName",
				    "missing column (and no demangledName)");
	cur->namecol = namecol;
	if (vgpu_nsys_has_col(db, "StringIds", "value", &sqerr) <= 0 ||
	    vgpu_nsys_has_col(db, "StringIds", "id", &sqerr) <= 0)
		return vgpu_rec_err(c, "StringIds", "(table)",
				    "missing, or without id and value");
	off = snprintf(sql, sizeof(sql), "SELECT k.rowid");
	for (i = 0; i < VGPU_NSYS_NCOLS; i++)
		off += snprintf(sql + off, sizeof(sql) - off, ", k.\"%s\"",
				vgpu_nsys_cols[i]);
	snprintf(sql + off, sizeof(sql) - off,
		 ", k.\"%s\", s.value FROM " VGPU_NSYS_TABLE
		 " AS k LEFT JOIN StringIds AS s ON s.id = k.\"%s\" ORDER BY k.start, k.rowid",
		 namecol, namecol);
	rc = sqlite3_prepare_v2(db, sql, -1, &cur->st, NULL);
	if (rc != SQLITE_OK)
		ret = vgpu_rec_err(c, VGPU_NSYS_TABLE, "(sqlite)", "%s",
				   sqlite3_errmsg(db));
	return ret;
}

int vgpu_nsys_step(struct vgpu_rec_ctx *c, struct vgpu_nsys_cursor *cur,
		   struct vgpu_rec_kernel *k)
{
	sqlite3_stmt *st = cur->st;
	const char *namecol = cur->namecol, *s;
	int64_t v[VGPU_NSYS_NCOLS];
	char row[48];
	size_t i;
	int rc;

	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return vgpu_rec_err(c, VGPU_NSYS_TABLE, "(sqlite)", "%s",
				    sqlite3_errmsg(cur->db));
	snprintf(row, sizeof(row), "row %lld",
		 (long long)sqlite3_column_int64(st, 0));
	for (i = 0; i < VGPU_NSYS_NCOLS; i++) {
		if (sqlite3_column_type(st, i + 1) != SQLITE_INTEGER)
			return vgpu_rec_err(c, row, vgpu_nsys_cols[i],
					    "expected an integer");
		v[i] = sqlite3_column_int64(st, i + 1);
		if (v[i] < 0)
			return vgpu_rec_err(c, row, vgpu_nsys_cols[i],
					    "negative (%lld)", (long long)v[i]);
		/* grid and block dimensions: 1..2^31-1 */
		if (i >= 5 && i <= 10 && (!v[i] || v[i] > INT32_MAX))
			return vgpu_rec_err(c, row, vgpu_nsys_cols[i],
					    "must be 1..2147483647 (%lld)",
					    (long long)v[i]);
		if (i >= 11 && v[i] > UINT32_MAX)
			return vgpu_rec_err(c, row, vgpu_nsys_cols[i],
					    "too large (%lld)", (long long)v[i]);
	}
	if (v[1] < v[0])
		return vgpu_rec_err(c, row, "end", "before start");
	if (sqlite3_column_type(st, VGPU_NSYS_NCOLS + 1) != SQLITE_INTEGER)
		return vgpu_rec_err(c, row, namecol, "expected a StringIds id");
	s = (const char *)sqlite3_column_text(st, VGPU_NSYS_NCOLS + 2);
	if (!s)
		return vgpu_rec_err(c, row, namecol,
				    "id %lld is not in StringIds",
				    (long long)sqlite3_column_int64(st,
						VGPU_NSYS_NCOLS + 1));
	if (v[12] + v[13] > UINT32_MAX)
		return vgpu_rec_err(c, row, "dynamicSharedMemory", "too large");
	memset(k, 0, sizeof(*k));
	vgpu_rec_set_name(k, s);
	snprintf(k->record, sizeof(k->record), "%s", row);
	k->timed = true;
	k->start = v[0];
	k->end = v[1];
	k->device = v[2];
	k->stream = v[3];
	k->pid = ((uint64_t)v[4] >> 24) & 0xffffff;
	for (i = 0; i < 3; i++) {
		k->grid[i] = v[5 + i];
		k->block[i] = v[8 + i];
	}
	k->regs = v[11];
	k->smem = v[12] + v[13];
	return 1;
}

void vgpu_nsys_close(struct vgpu_nsys_cursor *cur)
{
	sqlite3_finalize(cur->st);
	sqlite3_close(cur->db);
	memset(cur, 0, sizeof(*cur));
}

int vgpu_rec_load_nsys(struct vgpu_rec_ctx *c, struct vgpu_recording *rec)
{
	struct vgpu_nsys_cursor cur;
	struct vgpu_rec_kernel *k;
	int ret;

	ret = vgpu_nsys_open(c, &cur);
	while (!ret) {
		k = vgpu_rec_push(rec);
		if (!k) {
			ret = -ENOMEM;
			break;
		}
		ret = vgpu_nsys_step(c, &cur, k);
		if (ret <= 0) {
			rec->n--;
			break;
		}
		ret = 0;
	}
	vgpu_nsys_close(&cur);
	return ret;
}

uint64_t vgpu_nsys_rows(struct vgpu_nsys_cursor *cur)
{
	sqlite3_stmt *st;
	uint64_t n = 0;

	if (sqlite3_prepare_v2(cur->db, "SELECT count(*) FROM " VGPU_NSYS_TABLE,
			       -1, &st, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

int vgpu_nsys_rewind(struct vgpu_rec_ctx *c, struct vgpu_nsys_cursor *cur)
{
	if (sqlite3_reset(cur->st) != SQLITE_OK)
		return vgpu_rec_err(c, VGPU_NSYS_TABLE, "(sqlite)", "%s",
				    sqlite3_errmsg(cur->db));
	return 0;
}
