// SPDX-License-Identifier: GPL-2.0
/*
 * import_accelsim.c - Accel-Sim traces (NVBit tracer).
 *
 * kernelslist.g names the launches in order, one kernel-N.traceg per
 * line (relative to the list), between memory copies ("MemcpyHtoD,...",
 * ignored).  A .traceg starts with a header of "-key = value" lines, of
 * which "kernel name", "grid dim" and "block dim" ("(x,y,z)"), "shmem",
 * "nregs" are required and "cuda stream id" is read (default 0).  The body,
 * when there, is "#BEGIN_TB" / "thread block = x,y,z" / "warp = W" /
 * "insts = N" / N instruction lines / "#END_TB"; each instruction line is
 * "[line] PC mask dest_num [dests] opcode ...", and the opcode's class is
 * counted.  A warp with fewer or more lines than its "insts", or a block
 * without "#END_TB", is a truncated or malformed trace.  Accel-Sim records
 * no timestamps.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "import_internal.h"

/* VGPU_REC_CLASSES order: MOV, LOAD, STORE, MMA, CMP, BRA, ALU. */
enum {
	VGPU_AS_MOV, VGPU_AS_LOAD, VGPU_AS_STORE, VGPU_AS_MMA, VGPU_AS_CMP,
	VGPU_AS_BRA, VGPU_AS_ALU,
};

static const struct {
	const char *op;
	int cls;
} vgpu_as_ops[] = {
	{ "MOV", VGPU_AS_MOV }, { "MOV32I", VGPU_AS_MOV },
	{ "SHFL", VGPU_AS_MOV }, { "S2R", VGPU_AS_MOV }, { "CS2R", VGPU_AS_MOV },
	{ "S2UR", VGPU_AS_MOV }, { "SEL", VGPU_AS_MOV }, { "PRMT", VGPU_AS_MOV },
	{ "P2R", VGPU_AS_MOV }, { "R2P", VGPU_AS_MOV }, { "R2UR", VGPU_AS_MOV },
	{ "LD", VGPU_AS_LOAD }, { "LDG", VGPU_AS_LOAD }, { "LDS", VGPU_AS_LOAD },
	{ "LDL", VGPU_AS_LOAD }, { "LDC", VGPU_AS_LOAD },
	{ "LDSM", VGPU_AS_LOAD }, { "LDGSTS", VGPU_AS_LOAD },
	{ "ULDC", VGPU_AS_LOAD }, { "TEX", VGPU_AS_LOAD },
	{ "TLD", VGPU_AS_LOAD }, { "TLD4", VGPU_AS_LOAD },
	{ "ATOM", VGPU_AS_LOAD }, { "ATOMG", VGPU_AS_LOAD },
	{ "ATOMS", VGPU_AS_LOAD }, { "RED", VGPU_AS_LOAD },
	{ "ST", VGPU_AS_STORE }, { "STG", VGPU_AS_STORE },
	{ "STS", VGPU_AS_STORE }, { "STL", VGPU_AS_STORE },
	{ "HMMA", VGPU_AS_MMA }, { "IMMA", VGPU_AS_MMA },
	{ "DMMA", VGPU_AS_MMA }, { "BMMA", VGPU_AS_MMA },
	{ "HGMMA", VGPU_AS_MMA }, { "IGMMA", VGPU_AS_MMA },
	{ "QGMMA", VGPU_AS_MMA },
	{ "ISETP", VGPU_AS_CMP }, { "FSETP", VGPU_AS_CMP },
	{ "DSETP", VGPU_AS_CMP }, { "HSETP2", VGPU_AS_CMP },
	{ "PSETP", VGPU_AS_CMP }, { "PLOP3", VGPU_AS_CMP },
	{ "FCHK", VGPU_AS_CMP }, { "VOTE", VGPU_AS_CMP },
	{ "BRA", VGPU_AS_BRA }, { "BRX", VGPU_AS_BRA }, { "JMP", VGPU_AS_BRA },
	{ "JMX", VGPU_AS_BRA }, { "CALL", VGPU_AS_BRA }, { "RET", VGPU_AS_BRA },
	{ "EXIT", VGPU_AS_BRA }, { "BSSY", VGPU_AS_BRA },
	{ "BSYNC", VGPU_AS_BRA }, { "BREAK", VGPU_AS_BRA },
	{ "SYNC", VGPU_AS_BRA }, { "WARPSYNC", VGPU_AS_BRA },
	{ "BAR", VGPU_AS_BRA }, { "BMOV", VGPU_AS_BRA },
};

int vgpu_rec_accelsim_class(const char *opcode)
{
	size_t i, n = strcspn(opcode, ".");

	for (i = 0; i < sizeof(vgpu_as_ops) / sizeof(vgpu_as_ops[0]); i++)
		if (strlen(vgpu_as_ops[i].op) == n &&
		    !strncmp(opcode, vgpu_as_ops[i].op, n))
			return vgpu_as_ops[i].cls;
	return VGPU_AS_ALU;
}

/* "(x,y,z)" with each 1..2^31-1. */
static bool vgpu_as_dim3(const char *s, uint32_t *dim)
{
	unsigned long long v[3];
	int end = 0;

	if (sscanf(s, " (%llu , %llu , %llu ) %n", &v[0], &v[1], &v[2],
		   &end) != 3 || s[end])
		return false;
	for (end = 0; end < 3; end++) {
		if (!v[end] || v[end] > INT32_MAX)
			return false;
		dim[end] = v[end];
	}
	return true;
}

static bool vgpu_as_uint(const char *s, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoull(s, &end, 0);
	while (isspace((unsigned char)*end))
		end++;
	if (errno || *end || v > max)
		return false;
	*out = v;
	return true;
}

/* Strip the end-of-line blanks of @s in place. */
static void vgpu_as_chomp(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
}

/* Per-warp state of a traceg body. */
struct vgpu_as_body {
	bool in_tb;
	bool in_warp;
	uint64_t want;	/* "insts = N" of the current warp */
	uint64_t got;	/* its instruction lines so far */
	unsigned long long warp_line;
};

static int vgpu_as_warp_end(struct vgpu_rec_ctx *c, struct vgpu_as_body *b)
{
	char rec[48];

	if (b->in_warp && b->got != b->want) {
		snprintf(rec, sizeof(rec), "line %llu", b->warp_line);
		return vgpu_rec_err(c, rec, "insts",
				    "%llu instructions announced, %llu traced (truncated?)",
				    (unsigned long long)b->want,
				    (unsigned long long)b->got);
	}
	b->in_warp = false;
	return 0;
}

/* One instruction line: count its opcode's class. */
static int vgpu_as_insn(struct vgpu_rec_ctx *c, const char *rec, char *line,
			bool lineinfo, struct vgpu_rec_kernel *k)
{
	char *tok, *save = NULL;
	uint64_t ndst, i, skip = lineinfo ? 3 : 2;

	tok = strtok_r(line, " \t", &save);
	for (i = 0; tok && i < skip; i++)
		tok = strtok_r(NULL, " \t", &save);
	if (!tok || !vgpu_as_uint(tok, 8, &ndst))
		return vgpu_rec_err(c, rec, "dest_num",
				    "expected 0..8 after PC and mask");
	for (i = 0; tok && i <= ndst; i++)
		tok = strtok_r(NULL, " \t", &save);
	if (!tok || !isalpha((unsigned char)tok[0]))
		return vgpu_rec_err(c, rec, "opcode", "missing");
	k->insns[vgpu_rec_accelsim_class(tok)]++;
	return 0;
}

/* One kernel-N.traceg. */
static int vgpu_as_traceg(struct vgpu_rec_ctx *c, struct vgpu_recording *rec,
			  const char *path)
{
	const char *saved = c->path;
	bool have[5] = { false }, lineinfo = false, header = true;
	struct vgpu_as_body b = { 0 };
	struct vgpu_rec_kernel *k;
	unsigned long long lineno = 0;
	size_t cap = 0;
	char *line = NULL, *eq, *val, r[48];
	uint64_t x;
	const char *base;
	FILE *f;
	int ret = 0;

	c->path = path;
	f = fopen(path, "r");
	if (!f) {
		ret = -errno;
		if (c->err && c->errlen && !c->failed)
			snprintf(c->err, c->errlen, "%s: %s", path,
				 strerror(errno));
		c->failed = 1;
		goto out;
	}
	k = vgpu_rec_push(rec);
	if (!k) {
		ret = -ENOMEM;
		goto out;
	}
	base = strrchr(path, '/');
	snprintf(k->record, sizeof(k->record), "%s", base ? base + 1 : path);
	while (!ret && getline(&line, &cap, f) > 0) {
		lineno++;
		vgpu_as_chomp(line);
		snprintf(r, sizeof(r), "line %llu", lineno);
		if (header && line[0] == '-') {
			eq = strchr(line, '=');
			if (!eq) {
				ret = vgpu_rec_err(c, r, "(header)",
						   "expected '-key = value'");
				break;
			}
			*eq = 0;
			val = eq + 1;
			while (isspace((unsigned char)*val))
				val++;
			vgpu_as_chomp(line);
			if (!strcmp(line, "-kernel name")) {
				vgpu_rec_set_name(k, val);
				have[0] = true;
			} else if (!strcmp(line, "-grid dim")) {
				if (!vgpu_as_dim3(val, k->grid))
					ret = vgpu_rec_err(c, r, "grid dim",
							   "expected (x,y,z), each >= 1");
				have[1] = true;
			} else if (!strcmp(line, "-block dim")) {
				if (!vgpu_as_dim3(val, k->block))
					ret = vgpu_rec_err(c, r, "block dim",
							   "expected (x,y,z), each >= 1");
				have[2] = true;
			} else if (!strcmp(line, "-shmem")) {
				if (!vgpu_as_uint(val, UINT32_MAX, &x))
					ret = vgpu_rec_err(c, r, "shmem",
							   "expected bytes");
				k->smem = x;
				have[3] = true;
			} else if (!strcmp(line, "-nregs")) {
				if (!vgpu_as_uint(val, UINT16_MAX, &x))
					ret = vgpu_rec_err(c, r, "nregs",
							   "expected a register count");
				k->regs = x;
				have[4] = true;
			} else if (!strcmp(line, "-cuda stream id")) {
				if (!vgpu_as_uint(val, UINT64_MAX, &k->stream))
					ret = vgpu_rec_err(c, r,
							   "cuda stream id",
							   "expected a number");
			} else if (!strcmp(line, "-enable lineinfo")) {
				lineinfo = !!strcmp(val, "0");
			}
			continue;
		}
		if (!line[0] || (line[0] == '#' && strcmp(line, "#BEGIN_TB") &&
				 strcmp(line, "#END_TB")))
			continue;
		if (header) {
			static const char *const names[] = {
				"kernel name", "grid dim", "block dim",
				"shmem", "nregs",
			};
			int i;

			header = false;
			for (i = 0; i < 5; i++)
				if (!have[i]) {
					ret = vgpu_rec_err(c, "(header)",
							   names[i],
							   "missing");
					break;
				}
			if (ret)
				break;
		}
		eq = strchr(line, '=');
		if (!strcmp(line, "#BEGIN_TB")) {
			if (b.in_tb)
				ret = vgpu_rec_err(c, r, "#BEGIN_TB",
						   "inside a block (no #END_TB before)");
			b.in_tb = true;
		} else if (!strcmp(line, "#END_TB")) {
			if (!b.in_tb)
				ret = vgpu_rec_err(c, r, "#END_TB",
						   "without #BEGIN_TB");
			if (!ret)
				ret = vgpu_as_warp_end(c, &b);
			b.in_tb = false;
		} else if (!b.in_tb) {
			ret = vgpu_rec_err(c, r, "(body)",
					   "outside #BEGIN_TB ... #END_TB");
		} else if (!strncmp(line, "thread block", 12)) {
			ret = vgpu_as_warp_end(c, &b);
		} else if (!strncmp(line, "warp", 4) && eq) {
			ret = vgpu_as_warp_end(c, &b);
			if (!ret && !vgpu_as_uint(eq + 1, UINT32_MAX, &x))
				ret = vgpu_rec_err(c, r, "warp",
						   "expected a warp number");
			b.in_warp = true;
			b.want = 0;
			b.got = 0;
			b.warp_line = lineno;
			k->warps++;
		} else if (!strncmp(line, "insts", 5) && eq) {
			if (!b.in_warp || !vgpu_as_uint(eq + 1, UINT64_MAX,
							&b.want))
				ret = vgpu_rec_err(c, r, "insts",
						   "expected a count after 'warp = W'");
		} else if (b.in_warp) {
			b.got++;
			ret = vgpu_as_insn(c, r, line, lineinfo, k);
		} else {
			ret = vgpu_rec_err(c, r, "(body)",
					   "instruction outside a warp");
		}
	}
	if (!ret && ferror(f))
		ret = vgpu_rec_err(c, "(file)", "(read)", "read error");
	if (!ret && header) {
		static const char *const names[] = {
			"kernel name", "grid dim", "block dim", "shmem",
			"nregs",
		};
		int i;

		for (i = 0; i < 5; i++)
			if (!have[i]) {
				ret = vgpu_rec_err(c, "(header)", names[i],
						   "missing");
				break;
			}
	}
	if (!ret && b.in_tb)
		ret = vgpu_rec_err(c, "(end)", "#END_TB",
				   "missing: the trace is truncated");
out:
	free(line);
	if (f)
		fclose(f);
	c->path = saved;
	return ret;
}

int vgpu_rec_load_accelsim(struct vgpu_rec_ctx *c, struct vgpu_recording *rec)
{
	char list[4096], file[4096], r[48], *line = NULL, *p;
	const char *saved;
	unsigned long long lineno = 0;
	size_t cap = 0, dirlen;
	const char *slash;
	struct stat st;
	FILE *f;
	int ret = 0;

	if (!stat(c->path, &st) && S_ISDIR(st.st_mode))
		snprintf(list, sizeof(list), "%s/kernelslist.g", c->path);
	else if (strlen(c->path) > 7 &&
		 !strcmp(c->path + strlen(c->path) - 7, ".traceg"))
		return vgpu_as_traceg(c, rec, c->path);
	else
		snprintf(list, sizeof(list), "%s", c->path);
	slash = strrchr(list, '/');
	dirlen = slash ? (size_t)(slash - list) : 0;
	saved = c->path;
	c->path = list;
	f = fopen(list, "r");
	if (!f) {
		c->path = saved;
		ret = -errno;
		if (c->err && c->errlen)
			snprintf(c->err, c->errlen, "%s: %s", list,
				 strerror(errno));
		c->failed = 1;
		return ret;
	}
	while (!ret && getline(&line, &cap, f) > 0) {
		lineno++;
		vgpu_as_chomp(line);
		for (p = line; isspace((unsigned char)*p); p++)
			;
		if (!*p || *p == '#' || !strncmp(p, "Memcpy", 6))
			continue;
		snprintf(r, sizeof(r), "line %llu", lineno);
		if (strlen(p) < 8 || strcmp(p + strlen(p) - 7, ".traceg") ||
		    strchr(p, ',')) {
			ret = vgpu_rec_err(c, r, "(command)",
					   "expected kernel-N.traceg or MemcpyHtoD/DtoH,...");
			break;
		}
		if (p[0] == '/' || !slash)
			snprintf(file, sizeof(file), "%s", p);
		else
			snprintf(file, sizeof(file), "%.*s/%s", (int)dirlen,
				 list, p);
		ret = vgpu_as_traceg(c, rec, file);
	}
	if (!ret && ferror(f))
		ret = vgpu_rec_err(c, "(file)", "(read)", "read error");
	free(line);
	fclose(f);
	c->path = saved;
	return ret;
}
