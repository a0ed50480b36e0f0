// SPDX-License-Identifier: GPL-2.0
/*
 * import.c - recorded kernel timelines as workloads (F68):
 * format detection, the mapping onto a preset (Documentation/
 * workloads.rst, "Recordings"), the synthesised programs, and writing a
 * workload file.  The three readers are import_nsys.c, import_kineto.c and
 * import_accelsim.c.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "import_internal.h"
#include "import_stream.h"
#include "workload_core.h"

static const char *const vgpu_rec_format_names[] = {
	[VGPU_REC_AUTO] = "auto",
	[VGPU_REC_NSYS] = "nsys",
	[VGPU_REC_KINETO] = "kineto",
	[VGPU_REC_ACCELSIM] = "accelsim",
	[VGPU_REC_WORKLOAD] = "workload",
};

int vgpul_rec_format_parse(const char *name)
{
	int i;

	for (i = 0; i < VGPU_REC_WORKLOAD; i++)
		if (!strcmp(name, vgpu_rec_format_names[i]))
			return i;
	return -1;
}

const char *vgpul_rec_format_name(int format)
{
	if (format < 0 || format > VGPU_REC_WORKLOAD)
		return "?";
	return vgpu_rec_format_names[format];
}

static bool vgpu_rec_ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcasecmp(s + a - b, suffix);
}

int vgpul_rec_detect(const char *path)
{
	static __thread char head[65536];
	struct stat st;
	size_t n;
	FILE *f;
	char *p;

	if (stat(path, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return VGPU_REC_ACCELSIM;
	f = fopen(path, "r");
	if (!f)
		return -errno;
	n = fread(head, 1, sizeof(head) - 1, f);
	fclose(f);
	head[n] = 0;
	if (n >= 16 && !memcmp(head, "SQLite format 3", 16))
		return VGPU_REC_NSYS;
	for (p = head; p < head + n && isspace((unsigned char)*p); p++)
		;
	if (*p == '[')
		return VGPU_REC_KINETO;
	/* a workload's "kernels" come early; a trace's events may be late */
	if (*p == '{')
		return strstr(p, "\"kernels\"") ? VGPU_REC_WORKLOAD :
		       strstr(p, "\"traceEvents\"") ||
		       vgpu_rec_ends_with(path, ".pt.trace.json") ?
		       VGPU_REC_KINETO : VGPU_REC_WORKLOAD;
	if (!strncmp(p, "-kernel name", 12) || strstr(head, ".traceg") ||
	    !strncmp(p, "Memcpy", 6))
		return VGPU_REC_ACCELSIM;
	if (vgpu_rec_ends_with(path, ".sqlite") ||
	    vgpu_rec_ends_with(path, ".db"))
		return VGPU_REC_NSYS;
	if (vgpu_rec_ends_with(path, ".traceg") ||
	    vgpu_rec_ends_with(path, ".g"))
		return VGPU_REC_ACCELSIM;
	return VGPU_REC_WORKLOAD;
}

int vgpul_rec_load(const char *path, int format, struct vgpu_recording *rec,
		  char *err, size_t errlen)
{
	struct vgpu_rec_ctx c = { .path = path, .err = err, .errlen = errlen };
	size_t len;
	char *text;
	int ret;

	memset(rec, 0, sizeof(*rec));
	if (err && errlen)
		err[0] = 0;
	if (format == VGPU_REC_AUTO) {
		format = vgpul_rec_detect(path);
		if (format < 0) {
			if (err && errlen)
				snprintf(err, errlen, "%s: %s", path,
					 strerror(-format));
			return format;
		}
	}
	rec->path = strdup(path);
	if (!rec->path)
		return -ENOMEM;
	rec->format = format;
	switch (format) {
	case VGPU_REC_NSYS:
		ret = vgpu_rec_load_nsys(&c, rec);
		break;
	case VGPU_REC_KINETO:
		text = vgpu_rec_read_file(path, &len);
		if (!text) {
			ret = -errno;
			if (err && errlen)
				snprintf(err, errlen, "%s: %s", path,
					 strerror(errno));
			return ret;
		}
		ret = vgpu_rec_load_kineto(&c, rec, text, len);
		free(text);
		break;
	case VGPU_REC_ACCELSIM:
		ret = vgpu_rec_load_accelsim(&c, rec);
		break;
	default:
		return vgpu_rec_err(&c, "(file)", "(format)",
				    "not a recording (nsys, kineto or accelsim)");
	}
	if (ret == -ENOMEM && err && errlen)
		snprintf(err, errlen, "%s: out of memory", path);
	if (!ret && !rec->n)
		ret = vgpu_rec_err(&c, "(file)", "(kernels)",
				   "no kernel launches recorded");
	return ret;
}

void vgpul_rec_free(struct vgpu_recording *rec)
{
	free(rec->k);
	free(rec->path);
	memset(rec, 0, sizeof(*rec));
}

uint32_t vgpul_rec_clock_mhz(const char *preset)
{
	if (!strcmp(preset, "small"))
		return 1000;
	if (!strcmp(preset, "a100"))
		return 1410;	/* A100 SXM4 boost clock */
	if (!strcmp(preset, "h100"))
		return 1980;	/* H100 SXM5 boost clock */
	return 0;
}

/* Append printf output to the growing text @t (@len, @cap). */
__attribute__((format(printf, 4, 5)))
static int vgpu_imp_cat(char **t, size_t *len, size_t *cap,
			const char *fmt, ...)
{
	va_list ap;
	char *nt;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(*t ? *t + *len : NULL, *t ? *cap - *len : 0, fmt,
			      ap);
		va_end(ap);
		if (n < 0)
			return -EINVAL;
		if (*t && *len + n < *cap) {
			*len += n;
			return 0;
		}
		nt = realloc(*t, *cap + n + 1024);
		if (!nt)
			return -ENOMEM;
		*t = nt;
		*cap += n + 1024;
	}
}

static const char *const vgpu_imp_class_mnem[VGPU_REC_CLASSES] = {
	"MOV", "LOAD", "STORE", "MMA", "CMP", "BRA", "ALU",
};

/*
 * "LOOP a / LOOP b / body / ENDLOOP / ENDLOOP" running @body about @n
 * times: one loop when @n fits a count, two nested ones otherwise.
 */
static int vgpu_imp_loop(char **t, size_t *len, size_t *cap, uint64_t n,
			 const char *body)
{
	uint64_t a, b;

	if (!n)
		return 0;
	a = (n + VGPU_ISA_MAX_LOOP_COUNT - 1) / VGPU_ISA_MAX_LOOP_COUNT;
	if (a > VGPU_ISA_MAX_LOOP_COUNT)
		a = VGPU_ISA_MAX_LOOP_COUNT;
	b = (n + a / 2) / a;
	if (b > VGPU_ISA_MAX_LOOP_COUNT)
		b = VGPU_ISA_MAX_LOOP_COUNT;
	if (a > 1)
		return vgpu_imp_cat(t, len, cap,
				    "LOOP %llu\nLOOP %llu\n%sENDLOOP\nENDLOOP\n",
				    (unsigned long long)a,
				    (unsigned long long)b, body);
	return vgpu_imp_cat(t, len, cap, "LOOP %llu\n%sENDLOOP\n",
			    (unsigned long long)b, body);
}

/*
 * End @text (@len bytes of @cap) with EXIT and assemble it into @prog,
 * unless @ret, an error of writing it, is set; @text is freed.
 */
static int vgpu_imp_assemble(char *text, size_t len, size_t cap, int ret,
			     struct vgpu_vasm_prog *prog)
{
	char msg[256];

	if (!ret)
		ret = vgpu_imp_cat(&text, &len, &cap, "EXIT\n");
	if (ret) {
		free(text);
		return ret;
	}
	ret = vgpul_vasm_assemble("import", text, len, 0, prog, msg,
				 sizeof(msg));
	free(text);
	return ret == -ENOMEM ? -ENOMEM : ret ? -EINVAL : 0;
}

/*
 * Duration model of the synthesised program (Documentation/workloads.rst,
 * "Duration"): a warp runs "LOOP N / LOAD x k / ENDLOOP / EXIT".  k is the
 * smallest number of LOADs per iteration for which the warps resident on
 * a sub-partition (w) never compete for its one issue per cycle:
 * (k + 1) * w <= k * latency(LOAD) + ctrl; an iteration then lasts
 * P = k * latency(LOAD) + ctrl cycles for every warp.  A block lasts
 * VGPU_IMP_C0 + (warp starts: one per sub-partition per cycle) + N * P;
 * the kernel runs in waves of occupancy x SMs blocks, each wave starting
 * at the epoch boundary after the previous one ended (half an epoch on
 * average).
 */
#define VGPU_IMP_DEFAULT_CHANNELS	64	/* vgpu_gpu_params_default() */
#define VGPU_IMP_C0	3	/* LOOP, the EXIT cycle, the first start */

/*
 * The shape of the synthesised program: LOADs per iteration (*@k) and
 * iterations (*@n); 0 or -E2BIG when a block never fits.
 */
static int vgpu_imp_shape(const struct vgpu_config *cfg, uint32_t threads,
			  uint32_t regs, uint32_t smem, uint32_t grid,
			  uint64_t cycles, uint64_t *kp, uint64_t *np,
			  bool *clamped)
{
	struct vgpu_isa_timing tm;
	struct vgpu_gpu_params p;
	struct vgpu_occupancy occ;
	uint64_t waves, per_block, fixed, n, lat, w, period, k;

	*clamped = false;
	if (vgpu_occupancy_formula(cfg, threads, regs, smem, 0, &occ) ||
	    !occ.blocks)
		return -E2BIG;
	vgpu_isa_timing_default(&tm);
	vgpu_gpu_params_default(&p, cfg);
	lat = tm.latency[VGPU_OP_LOAD - VGPU_OP_MOV];
	w = (occ.warps + cfg->subparts - 1) / cfg->subparts;
	if (w > cfg->warps_per_subpart)
		w = cfg->warps_per_subpart;
	for (k = 1; k < 8 && (k + 1) * w > k * lat + tm.ctrl_latency; k++)
		;
	period = k * lat + tm.ctrl_latency;
	if ((k + 1) * w > period)
		period = (k + 1) * w;
	waves = (grid + (uint64_t)occ.blocks * cfg->num_sms - 1) /
		((uint64_t)occ.blocks * cfg->num_sms);
	fixed = VGPU_IMP_C0 + w;
	per_block = cycles / waves;
	if (waves > 1)
		per_block = per_block > p.epoch / 2 ? per_block - p.epoch / 2 : 0;
	n = per_block > fixed ? (per_block - fixed + period / 2) / period : 0;
	if (!n) {
		n = 1;
		*clamped = waves * (fixed + period) > cycles + cycles / 10;
	}
	*kp = k;
	*np = n;
	return 0;
}

/* "LOOP n / LOAD x k / ENDLOOP / EXIT", assembled. */
static int vgpu_imp_build(uint64_t k, uint64_t n, struct vgpu_vasm_prog *prog)
{
	size_t len = 0, cap = 0, bl = 0;
	char body[128], *text = NULL;
	uint64_t i;
	int ret;

	for (i = 0; i < k; i++)
		bl += snprintf(body + bl, sizeof(body) - bl, "LOAD\n");
	ret = vgpu_imp_loop(&text, &len, &cap, n, body);
	return vgpu_imp_assemble(text, len, cap, ret, prog);
}

int vgpul_import_program(const char *preset, uint32_t threads,
			 uint32_t regs, uint32_t smem, uint32_t grid,
			 uint64_t cycles, struct vgpu_vasm_prog *prog,
			 bool *clamped)
{
	struct vgpu_config cfg;

	if (!preset || vgpu_config_preset(&cfg, preset))
		return -EINVAL;
	return vgpu_imp_program(&cfg, threads, regs, smem, grid, cycles, prog,
				clamped);
}

int vgpu_imp_program(const struct vgpu_config *cfg, uint32_t threads,
		     uint32_t regs, uint32_t smem, uint32_t grid,
		     uint64_t cycles, struct vgpu_vasm_prog *prog, bool *clamped)
{
	uint64_t k, n;
	int ret;

	memset(prog, 0, sizeof(*prog));
	ret = vgpu_imp_shape(cfg, threads, regs, smem, grid, cycles, &k, &n,
			     clamped);
	return ret ? ret : vgpu_imp_build(k, n, prog);
}

/*
 * The program of an Accel-Sim kernel with a trace body: per warp, the
 * mean number of instructions of each class, eight per loop iteration.
 */
static int vgpu_imp_counted(const struct vgpu_rec_kernel *rk,
			    struct vgpu_vasm_prog *prog)
{
	size_t len = 0, cap = 0, bl;
	uint64_t n, c, j;
	char body[64], *text = NULL;
	int ret = 0;

	memset(prog, 0, sizeof(*prog));
	for (c = 0; !ret && c < VGPU_REC_CLASSES; c++) {
		n = (rk->insns[c] + rk->warps / 2) / rk->warps;
		for (bl = 0, j = 0; j < 8; j++)
			bl += snprintf(body + bl, sizeof(body) - bl, "%s\n",
				       vgpu_imp_class_mnem[c]);
		ret = vgpu_imp_loop(&text, &len, &cap, n / 8, body);
		for (j = 0; !ret && j < n % 8; j++)
			ret = vgpu_imp_cat(&text, &len, &cap, "%s\n",
					   vgpu_imp_class_mnem[c]);
	}
	return vgpu_imp_assemble(text, len, cap, ret, prog);
}

/* An Accel-Sim kernel without a body: 100 ALU instructions per warp. */
#define VGPU_IMP_DEFAULT_PROG	"LOOP 100\nALU\nENDLOOP\nEXIT\n"

/* Why @rk cannot run on @cfg, or NULL; fills the products. */
static const char *vgpu_imp_fit(const struct vgpu_config *cfg,
				const struct vgpu_rec_kernel *rk,
				uint64_t *grid, uint64_t *threads,
				char *why, size_t whylen)
{
	struct vgpu_occupancy occ;

	*grid = (uint64_t)rk->grid[0] * rk->grid[1] * rk->grid[2];
	*threads = (uint64_t)rk->block[0] * rk->block[1] * rk->block[2];
	if (*grid > VGPU_MAX_GRID) {
		snprintf(why, whylen, "grid: %llu blocks (at most %lu)",
			 (unsigned long long)*grid, (unsigned long)VGPU_MAX_GRID);
		return why;
	}
	if (*threads > cfg->max_threads_per_block) {
		snprintf(why, whylen, "threads: %llu per block (at most %u)",
			 (unsigned long long)*threads,
			 cfg->max_threads_per_block);
		return why;
	}
	if (rk->regs > VGPU_MAX_REGS_PER_THREAD) {
		snprintf(why, whylen, "registers: %u per thread (at most %u)",
			 rk->regs, VGPU_MAX_REGS_PER_THREAD);
		return why;
	}
	if (rk->smem > cfg->smem_max_per_block) {
		snprintf(why, whylen,
			 "shared memory: %u bytes per block (at most %u)",
			 rk->smem, cfg->smem_max_per_block);
		return why;
	}
	if (vgpu_occupancy_formula(cfg, *threads, rk->regs, rk->smem, 0,
				   &occ) ||
	    !occ.blocks) {
		snprintf(why, whylen,
			 "a block (%llu threads, %u registers, %u bytes) never fits an SM",
			 (unsigned long long)*threads, rk->regs, rk->smem);
		return why;
	}
	return NULL;
}

/* A workload kernel name: the recorded one, made legal, and its index. */
static void vgpu_imp_name(char *dst, size_t len, const char *src, size_t idx)
{
	char base[48];
	size_t i;

	snprintf(base, sizeof(base), "%.47s", src);
	for (i = 0; base[i]; i++)
		if (!isgraph((unsigned char)base[i]) || base[i] == '=' ||
		    base[i] == '"' || base[i] == '\\')
			base[i] = '_';
	snprintf(dst, len, "%s#%zu", base, idx);
}

int vgpu_import_mapper_init(struct vgpu_import_mapper *m,
			    const struct vgpu_import_opts *opts, char *err,
			    size_t errlen)
{
	const char *bad;

	memset(m, 0, sizeof(*m));
	m->opts = opts;
	m->preset = opts && opts->preset ? opts->preset : "h100";
	if (vgpu_config_preset(&m->cfg, m->preset) ||
	    vgpu_config_validate(&m->cfg, &bad)) {
		snprintf(err, errlen, "unknown preset '%s' (small, a100, h100)",
			 m->preset);
		return -EINVAL;
	}
	vgpu_gpu_params_default(&m->params, &m->cfg);
	m->mhz = opts && opts->clock_mhz ? opts->clock_mhz :
		 vgpul_rec_clock_mhz(m->preset);
	m->max_channels = VGPU_GPU_MAX_CHANNELS;
	return 0;
}

void vgpu_import_mapper_fini(struct vgpu_import_mapper *m)
{
	unsigned int i;

	for (i = 0; i < VGPU_IMP_PCACHE; i++)
		vgpul_vasm_free(&m->cache[i].prog);
}

/* A copy of @src in @dst (both arrays). */
static int vgpu_imp_prog_copy(struct vgpu_vasm_prog *dst,
			      const struct vgpu_vasm_prog *src)
{
	*dst = *src;
	dst->insns = malloc(src->n * sizeof(*src->insns));
	dst->lines = src->lines ? malloc(src->n * sizeof(*src->lines)) : NULL;
	if (!dst->insns || (src->lines && !dst->lines)) {
		vgpul_vasm_free(dst);
		return -ENOMEM;
	}
	memcpy(dst->insns, src->insns, src->n * sizeof(*src->insns));
	if (src->lines)
		memcpy(dst->lines, src->lines, src->n * sizeof(*src->lines));
	return 0;
}

/* The synthesised program of @cycles, through the cache. */
static int vgpu_imp_timed(struct vgpu_import_mapper *m, uint32_t threads,
			  uint32_t regs, uint32_t smem, uint32_t grid,
			  uint64_t cycles, struct vgpu_vasm_prog *prog,
			  bool *clamped)
{
	struct vgpu_imp_pcache *e;
	uint64_t k, n;
	unsigned int i;
	int ret;

	memset(prog, 0, sizeof(*prog));
	ret = vgpu_imp_shape(&m->cfg, threads, regs, smem, grid, cycles, &k,
			     &n, clamped);
	if (ret)
		return ret;
	for (i = 0; i < VGPU_IMP_PCACHE; i++) {
		e = &m->cache[i];
		if (e->prog.n && e->k == k && e->n == n)
			return vgpu_imp_prog_copy(prog, &e->prog);
	}
	ret = vgpu_imp_build(k, n, prog);
	if (ret)
		return ret;
	e = &m->cache[m->cache_next];
	m->cache_next = (m->cache_next + 1) % VGPU_IMP_PCACHE;
	vgpul_vasm_free(&e->prog);
	if (!vgpu_imp_prog_copy(&e->prog, prog)) {
		e->k = k;
		e->n = n;
	}
	return 0;
}

/*
 * The channel of recording @r's (process, device, stream) of @rk, a new
 * one the first time; -EINVAL with @err set when there are too many.
 */
static int vgpu_imp_channel(struct vgpu_import_mapper *m, size_t r,
			    const char *path, const struct vgpu_rec_kernel *rk,
			    char *err, size_t errlen)
{
	uint32_t ch;

	for (ch = 0; ch < m->nch; ch++)
		if (m->chans[ch].rec == r && m->chans[ch].pid == rk->pid &&
		    m->chans[ch].device == rk->device &&
		    m->chans[ch].stream == rk->stream)
			return ch;
	if (m->nch == m->max_channels) {
		snprintf(err, errlen,
			 "%s: %s: more than %u (process, stream) pairs", path,
			 rk->record, m->max_channels);
		return -EINVAL;
	}
	m->chans[m->nch].rec = r;
	m->chans[m->nch].pid = rk->pid;
	m->chans[m->nch].device = rk->device;
	m->chans[m->nch].stream = rk->stream;
	return m->nch++;
}

int vgpu_import_scan_one(struct vgpu_import_mapper *m, size_t r,
			 const char *path, const struct vgpu_rec_kernel *rk,
			 char *err, size_t errlen)
{
	uint64_t grid, threads;
	char why[160];
	int ch;

	if (vgpu_imp_fit(&m->cfg, rk, &grid, &threads, why, sizeof(why)))
		return 0;
	ch = vgpu_imp_channel(m, r, path, rk, err, errlen);
	return ch < 0 ? ch : 1;
}

int vgpu_import_map_one(struct vgpu_import_mapper *m, size_t r,
			const char *path, uint64_t first,
			const struct vgpu_rec_kernel *rk, uint64_t index,
			struct vgpu_wl_kernel *k, char *err, size_t errlen)
{
	const struct vgpu_import_opts *opts = m->opts;
	uint64_t grid, threads, cyc;
	char why[160];
	bool clamped = false;
	uint32_t ch;
	int ret;

	m->st.kernels++;
	if (vgpu_imp_fit(&m->cfg, rk, &grid, &threads, why, sizeof(why))) {
		m->st.skipped++;
		if (opts && opts->report)
			fprintf(opts->report,
				"import: %s: %s (%s): skipped: %s\n",
				path, rk->record, rk->name, why);
		return 0;
	}
	ret = vgpu_imp_channel(m, r, path, rk, err, errlen);
	if (ret < 0)
		return ret;
	ch = ret;
	m->st.channels = m->nch;
	memset(k, 0, sizeof(*k));
	vgpu_imp_name(k->name, sizeof(k->name), rk->name, index);
	k->channel = ch;
	k->tenant = r;
	k->prio = opts && opts->priority ? opts->priority[r] : 0;
	k->grid = grid;
	k->threads = threads;
	k->regs = rk->regs;
	k->smem = rk->smem;
	k->arrival = opts && opts->offset ? opts->offset[r] : 0;
	if (rk->timed) {
		k->arrival += (uint64_t)((unsigned __int128)
			(rk->start - first) * m->mhz / 1000);
		cyc = (uint64_t)((unsigned __int128)
			(rk->end - rk->start) * m->mhz / 1000);
		ret = vgpu_imp_timed(m, threads, rk->regs, rk->smem, grid, cyc,
				     &k->prog, &clamped);
	} else if (rk->warps) {
		ret = vgpu_imp_counted(rk, &k->prog);
	} else {
		ret = vgpul_vasm_assemble("import", VGPU_IMP_DEFAULT_PROG,
					 strlen(VGPU_IMP_DEFAULT_PROG), 0,
					 &k->prog, NULL, 0);
	}
	if (ret) {
		snprintf(err, errlen, "%s: %s: %s", path, rk->record,
			 ret == -ENOMEM ? "out of memory" : "no program for it");
		return ret;
	}
	if (k->arrival > 1ULL << 48) {
		vgpul_vasm_free(&k->prog);
		snprintf(err, errlen, "%s: %s: arrival beyond 2^48 cycles",
			 path, rk->record);
		return -EINVAL;
	}
	m->st.mapped++;
	if (clamped) {
		m->st.clamped++;
		if (opts && opts->report)
			fprintf(opts->report,
				"import: %s: %s (%s): clamped: %llu ns is shorter than the shortest program\n",
				path, rk->record, rk->name,
				(unsigned long long)(rk->end - rk->start));
	}
	return 1;
}

int vgpul_import_map(const struct vgpu_recording *recs, size_t nrecs,
		    const struct vgpu_import_opts *opts,
		    struct vgpu_workload *wl, struct vgpu_import_stats *st,
		    char *err, size_t errlen)
{
	struct vgpu_import_mapper *m;
	uint64_t total = 0, first;
	size_t r, i;
	int ret = 0;

	memset(wl, 0, sizeof(*wl));
	memset(st, 0, sizeof(*st));
	if (vgpul_device_new(wl)) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (!nrecs || nrecs > VGPU_GPU_MAX_CHANNELS) {
		snprintf(err, errlen, "1 to %u recordings", VGPU_GPU_MAX_CHANNELS);
		return -EINVAL;
	}
	m = malloc(sizeof(*m));
	if (!m) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = vgpu_import_mapper_init(m, opts, err, errlen);
	if (ret) {
		free(m);
		return ret;
	}
	wl->dev->cfg = m->cfg;
	wl->dev->params = m->params;
	for (r = 0; r < nrecs; r++)
		total += recs[r].n;
	wl->kernels = calloc(total ? total : 1, sizeof(*wl->kernels));
	if (!wl->kernels) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	for (r = 0; r < nrecs && ret >= 0; r++) {
		first = UINT64_MAX;
		for (i = 0; i < recs[r].n; i++)
			if (recs[r].k[i].timed && recs[r].k[i].start < first)
				first = recs[r].k[i].start;
		for (i = 0; i < recs[r].n && ret >= 0; i++) {
			ret = vgpu_import_map_one(m, r, recs[r].path, first,
						  &recs[r].k[i], wl->nkernels,
						  &wl->kernels[wl->nkernels],
						  err, errlen);
			if (ret > 0)
				wl->nkernels++;
		}
	}
	*st = m->st;
	st->kernels = total;
	if (ret < 0)
		goto out;
	ret = 0;
	if (m->nch > wl->dev->params.max_channels)
		wl->dev->params.max_channels = m->nch;
	if (!wl->nkernels) {
		snprintf(err, errlen,
			 "no recorded kernel can run on %s (%llu skipped)",
			 m->preset, (unsigned long long)st->skipped);
		ret = -EINVAL;
	}
out:
	vgpu_import_mapper_fini(m);
	free(m);
	return ret;
}

/* One program as a JSON array of lines. */
static int vgpu_imp_write_prog(FILE *f, const struct vgpu_vasm_prog *prog)
{
	size_t len = vgpul_vasm_disassemble(prog->insns, prog->n, NULL, 0);
	char *text = malloc(len + 1), *line, *save = NULL;
	const char *sep = "";
	char *p;

	if (!text)
		return -ENOMEM;
	vgpul_vasm_disassemble(prog->insns, prog->n, text, len + 1);
	fprintf(f, "[");
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		for (p = line; *p == ' '; p++)
			;
		fprintf(f, "%s\"%s\"", sep, p);
		sep = ", ";
	}
	fprintf(f, "]");
	free(text);
	return 0;
}

int vgpul_workload_write(FILE *f, const struct vgpu_workload *wl)
{
	const struct vgpu_wl_kernel *k;
	uint32_t i;

	fprintf(f, "{\n  \"comment\": \"imported by vgpu-sim import (Documentation/workloads.rst)\",\n");
	fprintf(f, "  \"device\": { \"preset\": \"%s\"", wl->dev->cfg.name);
	if (wl->dev->params.max_channels != VGPU_IMP_DEFAULT_CHANNELS)
		fprintf(f, ", \"channels\": %u", wl->dev->params.max_channels);
	fprintf(f, " },\n  \"kernels\": [\n");
	for (i = 0; i < wl->nkernels; i++) {
		k = &wl->kernels[i];
		fprintf(f, "    { \"name\": \"%s\", \"channel\": %u, \"tenant\": %u, \"priority\": %u, \"arrival\": %llu, \"grid\": %u, \"threads\": %u, \"regs\": %u, \"smem\": %u,\n      \"program\": ",
			k->name, k->channel, k->tenant, k->prio,
			(unsigned long long)k->arrival, k->grid, k->threads,
			k->regs, k->smem);
		if (vgpu_imp_write_prog(f, &k->prog))
			return -ENOMEM;
		fprintf(f, " }%s\n", i + 1 < wl->nkernels ? "," : "");
	}
	fprintf(f, "  ]\n}\n");
	return ferror(f) ? -EIO : 0;
}

int vgpul_workload_load_any(const char *path, struct vgpu_workload *wl,
			   char *err, size_t errlen)
{
	struct vgpu_import_opts opts = { .report = stderr };
	struct vgpu_import_stats st;
	struct vgpu_recording rec;
	int fmt = vgpul_rec_detect(path), ret;

	if (fmt < 0 || fmt == VGPU_REC_WORKLOAD)
		return vgpul_workload_load(path, wl, err, errlen);
	memset(wl, 0, sizeof(*wl));
	ret = vgpul_rec_load(path, fmt, &rec, err, errlen);
	if (!ret)
		ret = vgpul_import_map(&rec, 1, &opts, wl, &st, err, errlen);
	vgpul_rec_free(&rec);
	return ret;
}
