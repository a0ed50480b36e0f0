// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the recording importers (userspace/libworkload/import*.c,
 * F68): every mapped field of the small recordings in
 * selftests/core/import/ (expected values from their schemas and a hand
 * calculation: grid = gridX * gridY * gridZ, threads = blockX * blockY *
 * blockZ, arrival = (start - first start) x MHz / 1000), every error path
 * of the three readers, and the synthesised programs: a kernel run alone
 * through the core on its preset lasts its recorded duration within 10 %.
 * Run from the repository root.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sqlite3.h>

#include "kselftest_harness.h"
#include "vgpu_test_only.h"
#undef ARRAY_SIZE	/* the shim brings the kernel's */
/*
 * The harness kills a test after 30 s; duration_alone_within_10pct runs
 * 7 s alone under ASan and went past 30 s on a machine loaded 4 times
 * over (as vgpu_test.h does for the other suites).
 */
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT	300
#include "vgpu_test_gpu.h"
#include "occupancy.h"
#include <vgpu/import.h>
#include "import_internal.h"
#include "workload_core.h"

#define DATA	"selftests/core/import/"

/* A private scratch directory (removed by the caller's rm -r). */
static void vgpu_ti_tmpdir(char *dir, size_t len)
{
	snprintf(dir, len, "/tmp/vgpu-import-XXXXXX");
	if (!mkdtemp(dir))
		abort();
}

static void vgpu_ti_rmdir(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "# could not remove %s\n", dir);
}

static void vgpu_ti_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		abort();
}

/* Run an SQL script file into a new database @db. */
static int vgpu_ti_sqlite(const char *db, const char *sql_text)
{
	sqlite3 *h;
	char *msg = NULL;
	int rc;

	unlink(db);
	if (sqlite3_open(db, &h) != SQLITE_OK)
		return -1;
	rc = sqlite3_exec(h, sql_text, NULL, NULL, &msg);
	if (rc != SQLITE_OK)
		fprintf(stderr, "# sqlite: %s\n", msg ? msg : "?");
	sqlite3_free(msg);
	sqlite3_close(h);
	return rc == SQLITE_OK ? 0 : -1;
}

static char *vgpu_ti_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	long n;
	char *s;

	if (!f)
		abort();
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = malloc(n + 1);
	if (!s || fread(s, 1, n, f) != (size_t)n)
		abort();
	s[n] = 0;
	fclose(f);
	return s;
}

/* Fields of one expected workload kernel. */
struct vgpu_ti_want {
	const char *name;
	uint32_t channel, grid, threads, regs, smem;
	uint64_t arrival;
};

static void vgpu_ti_check(struct __test_metadata *_metadata,
			  const struct vgpu_workload *wl,
			  const struct vgpu_ti_want *w, uint32_t n)
{
	uint32_t i;

	ASSERT_EQ(n, wl->nkernels);
	for (i = 0; i < n; i++) {
		const struct vgpu_wl_kernel *k = &wl->kernels[i];

		EXPECT_STREQ(w[i].name, k->name);
		EXPECT_EQ(w[i].channel, k->channel) TH_LOG("kernel %u", i);
		EXPECT_EQ(0, k->tenant);
		EXPECT_EQ(0, k->prio);
		EXPECT_EQ(w[i].grid, k->grid) TH_LOG("kernel %u", i);
		EXPECT_EQ(w[i].threads, k->threads) TH_LOG("kernel %u", i);
		EXPECT_EQ(w[i].regs, k->regs) TH_LOG("kernel %u", i);
		EXPECT_EQ(w[i].smem, k->smem) TH_LOG("kernel %u", i);
		EXPECT_EQ(w[i].arrival, k->arrival) TH_LOG("kernel %u", i);
		EXPECT_LT(0, k->prog.n);
	}
}

/* Load @path as @fmt and map it onto h100 with the default clock. */
static int vgpu_ti_import(const char *path, int fmt, struct vgpu_workload *wl,
			  struct vgpu_import_stats *st, char *err, size_t len)
{
	struct vgpu_import_opts o = { .preset = "h100" };
	struct vgpu_recording rec;
	int ret;

	memset(wl, 0, sizeof(*wl));
	ret = vgpul_rec_load(path, fmt, &rec, err, len);
	if (!ret)
		ret = vgpul_import_map(&rec, 1, &o, wl, st, err, len);
	vgpul_rec_free(&rec);
	return ret;
}

/*
 * kineto-small.json: 1980 MHz (h100); sgemm at 0, GELU 2.5 us later on
 * stream 13 (4950 cycles), softmax 30 us later on stream 7 (59400).
 */
TEST(kineto_fields)
{
	static const struct vgpu_ti_want w[] = {
		{ "ampere_sgemm_128x64_nn#0", 0, 16 * 8, 128, 128, 32768, 0 },
		{ "void_at::native::vectorized_elementwise_kernel<#1", 1,
		  1024, 64 * 2 * 2, 24, 0, 4950 },
		{ "softmax_warp_forward#2", 0, 4 * 3 * 2, 32 * 4, 40, 1024,
		  59400 },
	};
	struct vgpu_import_stats st;
	struct vgpu_workload wl;
	struct vgpu_recording rec;
	char err[512];

	ASSERT_EQ(VGPU_REC_KINETO, vgpul_rec_detect(DATA "kineto-small.json"));
	ASSERT_EQ(0, vgpul_rec_load(DATA "kineto-small.json", VGPU_REC_AUTO,
				   &rec, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(3, rec.n);
	EXPECT_EQ(1700000000010000ULL, rec.k[0].start);
	EXPECT_EQ(1700000000030000ULL, rec.k[0].end);
	EXPECT_EQ(7, rec.k[0].stream);
	EXPECT_EQ(13, rec.k[1].stream);
	EXPECT_EQ(0, rec.k[0].device);
	EXPECT_STREQ("traceEvents[2]", rec.k[0].record);
	vgpul_rec_free(&rec);
	ASSERT_EQ(0, vgpu_ti_import(DATA "kineto-small.json", VGPU_REC_AUTO,
				    &wl, &st, err, sizeof(err)))
		TH_LOG("%s", err);
	vgpu_ti_check(_metadata, &wl, w, 3);
	EXPECT_EQ(3, st.kernels);
	EXPECT_EQ(3, st.mapped);
	EXPECT_EQ(0, st.skipped);
	EXPECT_EQ(2, st.channels);
	vgpul_workload_free(&wl);
}

/*
 * nsys-small.sql: three (process, stream) pairs, one kernel with 256
 * registers skipped; start order 1000000 (gemm), 1002000 (flash, pid
 * 5151), 1005000 (layer norm, stream 13), 1060000 (reduce): 0, 3960, 9900,
 * 118800 cycles.  Shared memory is static + dynamic.
 */
TEST(nsys_fields)
{
	static const struct vgpu_ti_want w[] = {
		{ "gemm_kernel#0", 0, 8 * 16, 256, 168, 16384 + 32768, 0 },
		{ "flash_fwd_kernel#1", 1, 4 * 8 * 2, 128, 255, 98304, 3960 },
		{ "layer_norm_fwd#2", 2, 2048, 32 * 4, 30, 0, 9900 },
		{ "reduce_sum_kernel#3", 0, 1, 1024, 16, 4096, 118800 },
	};
	struct vgpu_import_stats st;
	struct vgpu_workload wl;
	struct vgpu_recording rec;
	char dir[64], db[128], err[512], *sql;

	vgpu_ti_tmpdir(dir, sizeof(dir));
	snprintf(db, sizeof(db), "%s/small.sqlite", dir);
	sql = vgpu_ti_slurp(DATA "nsys-small.sql");
	ASSERT_EQ(0, vgpu_ti_sqlite(db, sql));
	free(sql);
	EXPECT_EQ(VGPU_REC_NSYS, vgpul_rec_detect(db));
	ASSERT_EQ(0, vgpul_rec_load(db, VGPU_REC_AUTO, &rec, err,
				   sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(5, rec.n);
	EXPECT_EQ(4242, rec.k[0].pid);
	EXPECT_EQ(5151, rec.k[1].pid);
	EXPECT_EQ(13, rec.k[2].stream);
	EXPECT_STREQ("row 1", rec.k[0].record);
	EXPECT_STREQ("row 3", rec.k[1].record);
	EXPECT_EQ(1040000, rec.k[0].end);
	vgpul_rec_free(&rec);
	ASSERT_EQ(0, vgpu_ti_import(db, VGPU_REC_AUTO, &wl, &st, err,
				    sizeof(err))) TH_LOG("%s", err);
	vgpu_ti_check(_metadata, &wl, w, 4);
	EXPECT_EQ(5, st.kernels);
	EXPECT_EQ(4, st.mapped);
	EXPECT_EQ(1, st.skipped);
	EXPECT_EQ(3, st.channels);
	vgpul_workload_free(&wl);
	vgpu_ti_rmdir(dir);
}

/* The class of each opcode of kernel-1.traceg, summed by hand. */
TEST(accelsim_fields)
{
	static const struct vgpu_ti_want w[] = {
		{ "_Z6vecAddPfS_S_i#0", 0, 2 * 3, 64, 24, 512, 0 },
		{ "_Z9reduceSumPfS_#1", 1, 8, 16 * 16, 32, 1024, 0 },
	};
	/* MOV, LOAD, STORE, MMA, CMP, BRA, ALU over both warps */
	static const uint64_t cls[VGPU_REC_CLASSES] = { 3, 3, 1, 1, 1, 3, 4 };
	struct vgpu_isa_summary sum;
	struct vgpu_import_stats st;
	struct vgpu_workload wl;
	struct vgpu_recording rec;
	char err[512];
	int c;

	EXPECT_EQ(VGPU_REC_ACCELSIM, vgpul_rec_detect(DATA "accelsim"));
	EXPECT_EQ(VGPU_REC_ACCELSIM,
		  vgpul_rec_detect(DATA "accelsim/kernelslist.g"));
	ASSERT_EQ(0, vgpul_rec_load(DATA "accelsim", VGPU_REC_AUTO, &rec, err,
				   sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(2, rec.n);
	EXPECT_EQ(2, rec.k[0].warps);
	for (c = 0; c < VGPU_REC_CLASSES; c++)
		EXPECT_EQ(cls[c], rec.k[0].insns[c]) TH_LOG("class %d", c);
	EXPECT_EQ(0, rec.k[1].warps);
	EXPECT_EQ(3, rec.k[1].stream);
	EXPECT_FALSE(rec.k[0].timed);
	EXPECT_STREQ("kernel-2.traceg", rec.k[1].record);
	vgpul_rec_free(&rec);
	ASSERT_EQ(0, vgpu_ti_import(DATA "accelsim/kernelslist.g",
				    VGPU_REC_ACCELSIM, &wl, &st, err,
				    sizeof(err))) TH_LOG("%s", err);
	vgpu_ti_check(_metadata, &wl, w, 2);
	/* per warp, rounded: 2 MOV 2 LOAD 1 STORE 1 MMA 1 CMP 2 BRA 2 ALU */
	ASSERT_EQ(0, vgpu_isa_summarize(wl.kernels[0].prog.insns,
					wl.kernels[0].prog.n, &sum));
	EXPECT_EQ(2, sum.class_count[0]);
	EXPECT_EQ(2, sum.class_count[1]);
	EXPECT_EQ(1, sum.class_count[2]);
	EXPECT_EQ(1, sum.class_count[3]);
	EXPECT_EQ(1, sum.class_count[4]);
	EXPECT_EQ(2, sum.class_count[5]);
	EXPECT_EQ(2, sum.class_count[6]);
	vgpul_workload_free(&wl);
}

/* Formats by content, then by extension. */
TEST(detect)
{
	char dir[64], path[128], *big;
	size_t i;

	EXPECT_EQ(VGPU_REC_WORKLOAD, vgpul_rec_detect("examples/standard-mix.json"));
	EXPECT_EQ(VGPU_REC_KINETO, vgpul_rec_detect(DATA "kineto-small.json"));
	EXPECT_EQ(VGPU_REC_ACCELSIM,
		  vgpul_rec_detect(DATA "accelsim/kernel-2.traceg"));
	EXPECT_EQ(-ENOENT, vgpul_rec_detect(DATA "no-such-file"));
	vgpu_ti_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/a.json", dir);
	vgpu_ti_write(path, "  [ {\"ph\": \"X\"} ]");
	EXPECT_EQ(VGPU_REC_KINETO, vgpul_rec_detect(path));
	/* the events after 20 KB of device properties */
	big = malloc(32768);
	ASSERT_NE(NULL, big);
	i = snprintf(big, 32768, "{\"deviceProperties\": [\"");
	memset(big + i, 'x', 20000);
	snprintf(big + i + 20000, 32768 - i - 20000,
		 "\"], \"traceEvents\": []}");
	vgpu_ti_write(path, big);
	free(big);
	EXPECT_EQ(VGPU_REC_KINETO, vgpul_rec_detect(path));
	vgpu_ti_write(path, "{ \"comment\": \"traceEvents\", \"kernels\": [] }");
	EXPECT_EQ(VGPU_REC_WORKLOAD, vgpul_rec_detect(path));
	snprintf(path, sizeof(path), "%s/x.db", dir);
	vgpu_ti_write(path, "not yet written");
	EXPECT_EQ(VGPU_REC_NSYS, vgpul_rec_detect(path));
	snprintf(path, sizeof(path), "%s/list", dir);
	vgpu_ti_write(path, "MemcpyHtoD,0x1,4\nkernel-1.traceg\n");
	EXPECT_EQ(VGPU_REC_ACCELSIM, vgpul_rec_detect(path));
	vgpu_ti_rmdir(dir);
	EXPECT_EQ(VGPU_REC_NSYS, vgpul_rec_format_parse("nsys"));
	EXPECT_EQ(-1, vgpul_rec_format_parse("workload"));
	EXPECT_STREQ("accelsim", vgpul_rec_format_name(VGPU_REC_ACCELSIM));
}

/* Opcode classes of Accel-Sim's SASS names. */
TEST(accelsim_classes)
{
	EXPECT_EQ(0, vgpu_rec_accelsim_class("MOV"));
	EXPECT_EQ(1, vgpu_rec_accelsim_class("LDG.E.128.CONSTANT.SYS"));
	EXPECT_EQ(1, vgpu_rec_accelsim_class("LDS.U.128"));
	EXPECT_EQ(2, vgpu_rec_accelsim_class("STG.E"));
	EXPECT_EQ(3, vgpu_rec_accelsim_class("HMMA.16816.F32"));
	EXPECT_EQ(4, vgpu_rec_accelsim_class("ISETP.GE.AND"));
	EXPECT_EQ(5, vgpu_rec_accelsim_class("BRA"));
	EXPECT_EQ(5, vgpu_rec_accelsim_class("EXIT"));
	EXPECT_EQ(6, vgpu_rec_accelsim_class("FFMA"));
	EXPECT_EQ(6, vgpu_rec_accelsim_class("LDGX"));	/* not LDG */
}

/*
 * An imported workload written as a workload file reads back with the
 * same fields and programs.
 */
TEST(write_roundtrip)
{
	struct vgpu_import_stats st;
	struct vgpu_workload a, b;
	char dir[64], out[128], err[512];
	uint32_t i;
	FILE *f;

	ASSERT_EQ(0, vgpu_ti_import(DATA "kineto-small.json", VGPU_REC_KINETO,
				    &a, &st, err, sizeof(err)));
	vgpu_ti_tmpdir(dir, sizeof(dir));
	snprintf(out, sizeof(out), "%s/w.json", dir);
	f = fopen(out, "w");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, vgpul_workload_write(f, &a));
	fclose(f);
	ASSERT_EQ(0, vgpul_workload_load(out, &b, err, sizeof(err)))
		TH_LOG("%s", err);
	ASSERT_EQ(a.nkernels, b.nkernels);
	EXPECT_STREQ("h100", b.dev->cfg.name);
	for (i = 0; i < a.nkernels; i++) {
		EXPECT_STREQ(a.kernels[i].name, b.kernels[i].name);
		EXPECT_EQ(a.kernels[i].channel, b.kernels[i].channel);
		EXPECT_EQ(a.kernels[i].arrival, b.kernels[i].arrival);
		EXPECT_EQ(a.kernels[i].grid, b.kernels[i].grid);
		EXPECT_EQ(a.kernels[i].threads, b.kernels[i].threads);
		EXPECT_EQ(a.kernels[i].regs, b.kernels[i].regs);
		EXPECT_EQ(a.kernels[i].smem, b.kernels[i].smem);
		ASSERT_EQ(a.kernels[i].prog.n, b.kernels[i].prog.n);
		EXPECT_EQ(0, memcmp(a.kernels[i].prog.insns,
				    b.kernels[i].prog.insns,
				    a.kernels[i].prog.n *
				    sizeof(struct vgpu_insn)));
	}
	vgpul_workload_free(&a);
	vgpul_workload_free(&b);
	vgpu_ti_rmdir(dir);
}

/* Tenants, priorities, offsets and a clock of 1000 MHz (1 cycle per ns). */
TEST(tenants_and_clock)
{
	struct vgpu_recording rec[2];
	uint32_t prio[2] = { 2, 1 };
	uint64_t off[2] = { 0, 5000 };
	struct vgpu_import_opts o = { .preset = "a100", .clock_mhz = 1000,
				      .priority = prio, .offset = off };
	struct vgpu_import_stats st;
	struct vgpu_workload wl;
	char err[512];

	ASSERT_EQ(0, vgpul_rec_load(DATA "kineto-small.json", VGPU_REC_AUTO,
				   &rec[0], err, sizeof(err)));
	ASSERT_EQ(0, vgpul_rec_load(DATA "accelsim", VGPU_REC_AUTO, &rec[1],
				   err, sizeof(err)));
	ASSERT_EQ(0, vgpul_import_map(rec, 2, &o, &wl, &st, err, sizeof(err)))
		TH_LOG("%s", err);
	ASSERT_EQ(5, wl.nkernels);
	EXPECT_STREQ("a100", wl.dev->cfg.name);
	EXPECT_EQ(4, st.channels);
	EXPECT_EQ(0, wl.kernels[0].tenant);
	EXPECT_EQ(2, wl.kernels[0].prio);
	EXPECT_EQ(2500, wl.kernels[1].arrival);
	EXPECT_EQ(30000, wl.kernels[2].arrival);
	EXPECT_EQ(1, wl.kernels[3].tenant);
	EXPECT_EQ(1, wl.kernels[3].prio);
	EXPECT_EQ(5000, wl.kernels[3].arrival);
	EXPECT_EQ(2, wl.kernels[3].channel);
	EXPECT_EQ(3, wl.kernels[4].channel);
	vgpul_workload_free(&wl);
	vgpul_rec_free(&rec[0]);
	vgpul_rec_free(&rec[1]);
}

/* Each case: one file's text and the message the load must give. */
struct vgpu_ti_bad {
	const char *text;
	const char *msg;
};

static void vgpu_ti_bad_files(struct __test_metadata *_metadata,
			      const char *name, int fmt,
			      const struct vgpu_ti_bad *b, size_t n)
{
	struct vgpu_recording rec;
	char dir[64], path[128], err[512], want[600];
	size_t i;

	vgpu_ti_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	for (i = 0; i < n; i++) {
		if (fmt == VGPU_REC_NSYS) {
			ASSERT_EQ(0, vgpu_ti_sqlite(path, b[i].text));
		} else {
			vgpu_ti_write(path, b[i].text);
		}
		err[0] = 0;
		EXPECT_EQ(-EINVAL, vgpul_rec_load(path, fmt, &rec, err,
						 sizeof(err)))
			TH_LOG("case %zu", i);
		snprintf(want, sizeof(want), "%s: %s", path, b[i].msg);
		EXPECT_EQ(0, strncmp(err, want, strlen(want)))
			TH_LOG("case %zu: got '%s', want '%s'", i, err, want);
		vgpul_rec_free(&rec);
	}
	vgpu_ti_rmdir(dir);
}

#define KEV(args) \
	"{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"x\"}, " \
	"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": 1, \"dur\": 2" \
	args "}]}"
#define KARGS(a) ", \"args\": {" a "}"
#define KOK_GRID "\"grid\": [1, 1, 1], "
#define KOK_BLOCK "\"block\": [32, 1, 1], "
#define KOK_REST "\"stream\": 7, \"registers per thread\": 32, \"shared memory\": 0"

TEST(kineto_errors)
{
	static const struct vgpu_ti_bad b[] = {
		{ "{\"traceEvents\": [", "1:18: (syntax): " },
		{ "{\"traceEvents\": []} x", "1:21: (syntax): trailing data" },
		{ "{\"schemaVersion\": 1}", "(top): traceEvents: missing" },
		{ "{\"traceEvents\": 3}", "(top): traceEvents: expected an array" },
		{ "{\"traceEvents\": [3]}", "traceEvents[0]: (event): expected an object" },
		{ "{\"traceEvents\": []}", "(file): (kernels): no kernel launches recorded" },
		{ "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"ts\": 1}]}",
		  "traceEvents[0]: name: missing" },
		{ "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": 4}]}",
		  "traceEvents[0]: name: expected a string" },
		{ "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"dur\": 2}]}",
		  "traceEvents[0]: ts: missing" },
		{ "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": \"1\"}]}",
		  "traceEvents[0]: ts: expected a number" },
		{ "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": 1, \"dur\": -2}]}",
		  "traceEvents[0]: dur: expected microseconds" },
		{ KEV(""), "traceEvents[1]: args: missing" },
		{ KEV(", \"args\": []"), "traceEvents[1]: args: expected an object" },
		{ KEV(KARGS(KOK_BLOCK KOK_REST)), "traceEvents[1]: args.grid: missing" },
		{ KEV(KARGS("\"grid\": [1, 1], " KOK_BLOCK KOK_REST)),
		  "traceEvents[1]: args.grid: expected [x, y, z]" },
		{ KEV(KARGS("\"grid\": [1, 0, 1], " KOK_BLOCK KOK_REST)),
		  "traceEvents[1]: args.grid: dimensions must be >= 1" },
		{ KEV(KARGS("\"grid\": [1, 1.5, 1], " KOK_BLOCK KOK_REST)),
		  "traceEvents[1]: args.grid: expected an integer" },
		{ KEV(KARGS(KOK_GRID KOK_REST)), "traceEvents[1]: args.block: missing" },
		{ KEV(KARGS(KOK_GRID KOK_BLOCK "\"registers per thread\": 32, \"shared memory\": 0")),
		  "traceEvents[1]: args.stream: missing" },
		{ KEV(KARGS(KOK_GRID KOK_BLOCK "\"stream\": -1, \"registers per thread\": 32, \"shared memory\": 0")),
		  "traceEvents[1]: args.stream: expected an integer in" },
		{ KEV(KARGS(KOK_GRID KOK_BLOCK "\"stream\": 7, \"shared memory\": 0")),
		  "traceEvents[1]: args.registers per thread: missing" },
		{ KEV(KARGS(KOK_GRID KOK_BLOCK "\"stream\": 7, \"registers per thread\": 32")),
		  "traceEvents[1]: args.shared memory: missing" },
		{ KEV(KARGS(KOK_GRID KOK_BLOCK KOK_REST ", \"device\": -3")),
		  "traceEvents[1]: args.device: expected an integer in" },
	};

	vgpu_ti_bad_files(_metadata, "t.json", VGPU_REC_KINETO, b,
			  sizeof(b) / sizeof(b[0]));
}

#define NSYS_TABLES \
	"CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);" \
	"INSERT INTO StringIds VALUES (1, 'k');"
#define NSYS_COLS(extra) \
	"CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT, end INT, deviceId INT," \
	" streamId INT, globalPid INT, gridX INT, gridY INT, gridZ INT, blockX INT," \
	" blockY INT, blockZ INT, registersPerThread INT, staticSharedMemory INT," \
	" dynamicSharedMemory INT" extra ");"
#define NSYS_ROW(vals) "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (" vals ");"

TEST(nsys_errors)
{
	static const struct vgpu_ti_bad b[] = {
		{ NSYS_TABLES, "CUPTI_ACTIVITY_KIND_KERNEL: (table): missing" },
		{ NSYS_TABLES "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT, end INT, shortName INT);",
		  "CUPTI_ACTIVITY_KIND_KERNEL: deviceId: missing column" },
		{ NSYS_TABLES NSYS_COLS(""),
		  "CUPTI_ACTIVITY_KIND_KERNEL: shortName: missing column" },
		{ NSYS_COLS(", shortName INT"), "StringIds: (table): missing" },
		{ NSYS_TABLES NSYS_COLS(", shortName INT"),
		  "(file): (kernels): no kernel launches recorded" },
		{ NSYS_TABLES NSYS_COLS(", shortName INT")
		  NSYS_ROW("10, 20, 0, 7, 0, 1, 1, 1, 32, 1, 1, 32, 0, NULL, 1"),
		  "row 1: dynamicSharedMemory: expected an integer" },
		{ NSYS_TABLES NSYS_COLS(", shortName INT")
		  NSYS_ROW("10, 20, 0, 7, 0, 1, 1, 1, 32, 1, 1, 32, 'x', 0, 1"),
		  "row 1: staticSharedMemory: expected an integer" },
		{ NSYS_TABLES NSYS_COLS(", shortName INT")
		  NSYS_ROW("10, 20, 0, -7, 0, 1, 1, 1, 32, 1, 1, 32, 0, 0, 1"),
		  "row 1: streamId: negative (-7)" },
		{ NSYS_TABLES NSYS_COLS(", shortName INT")
		  NSYS_ROW("10, 20, 0, 7, 0, 1, 0, 1, 32, 1, 1, 32, 0, 0, 1"),
		  "row 1: gridY: must be 1..2147483647 (0)" },
		{ NSYS_TABLES NSYS_COLS(", shortName INT")
		  NSYS_ROW("10, 20, 0, 7, 0, 1, 1, 1, 32, 1, 1, 32, 0, 0, 1")
		  NSYS_ROW("30, 20, 0, 7, 0, 1, 1, 1, 32, 1, 1, 32, 0, 0, 1"),
		  "row 2: end: before start" },
		{ NSYS_TABLES NSYS_COLS(", shortName INT")
		  NSYS_ROW("10, 20, 0, 7, 0, 1, 1, 1, 32, 1, 1, 32, 0, 0, 9"),
		  "row 1: shortName: id 9 is not in StringIds" },
		{ NSYS_TABLES NSYS_COLS(", demangledName INT")
		  NSYS_ROW("10, 20, 0, 7, 0, 1, 1, 1, 32, 1, 1, 32, 0, 0, NULL"),
		  "row 1: demangledName: expected a StringIds id" },
	};
	struct vgpu_recording rec;
	char dir[64], path[128], err[512];

	vgpu_ti_bad_files(_metadata, "t.sqlite", VGPU_REC_NSYS, b,
			  sizeof(b) / sizeof(b[0]));
	/* not a database at all, and a truncated one */
	vgpu_ti_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/x.sqlite", dir);
	vgpu_ti_write(path, "SQLite format 3 but not really a database file at all, no............................................................................");
	EXPECT_EQ(-EINVAL, vgpul_rec_load(path, VGPU_REC_AUTO, &rec, err,
					 sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "x.sqlite: (file): (sqlite): "))
		TH_LOG("%s", err);
	vgpul_rec_free(&rec);
	vgpu_ti_rmdir(dir);
}

#define AS_HEAD "-kernel name = k\n-grid dim = (2,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n-nregs = 16\n"

TEST(accelsim_errors)
{
	static const struct vgpu_ti_bad b[] = {
		{ "-grid dim = (2,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n-nregs = 16\n#BEGIN_TB\n#END_TB\n",
		  "(header): kernel name: missing" },
		{ "-kernel name = k\n", "(header): grid dim: missing" },
		{ "-kernel name = k\n-grid dim = (2,1)\n", "line 2: grid dim: expected (x,y,z)" },
		{ "-kernel name = k\n-grid dim = (2,0,1)\n", "line 2: grid dim: expected (x,y,z)" },
		{ "-kernel name = k\n-grid dim = (2,1,1)\n-block dim = 32\n",
		  "line 3: block dim: expected (x,y,z)" },
		{ "-kernel name = k\n-grid dim = (2,1,1)\n-block dim = (32,1,1)\n-shmem = lots\n",
		  "line 4: shmem: expected bytes" },
		{ "-kernel name = k\n-grid dim = (2,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n-nregs = -1\n",
		  "line 5: nregs: expected a register count" },
		{ AS_HEAD "-cuda stream id = x\n", "line 6: cuda stream id: expected a number" },
		{ AS_HEAD "-nonsense\n", "line 6: (header): expected '-key = value'" },
		{ AS_HEAD "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n0000 ffffffff 1 R1 MOV 0 0\n",
		  "(end): #END_TB: missing: the trace is truncated" },
		{ AS_HEAD "#BEGIN_TB\nwarp = 0\ninsts = 2\n0000 ffffffff 1 R1 MOV 0 0\n#END_TB\n",
		  "line 7: insts: 2 instructions announced, 1 traced" },
		{ AS_HEAD "#BEGIN_TB\nwarp = 0\ninsts = 1\n0000 ffffffff 1 R1 MOV 0 0\nwarp = 1\ninsts = 1\n#END_TB\n",
		  "line 10: insts: 1 instructions announced, 0 traced" },
		{ AS_HEAD "#BEGIN_TB\nwarp = 0\ninsts = 1\n0000 ffffffff x R1 MOV\n#END_TB\n",
		  "line 9: dest_num: expected 0..8" },
		{ AS_HEAD "#BEGIN_TB\nwarp = 0\ninsts = 1\n0000 ffffffff 2 R1 R2\n#END_TB\n",
		  "line 9: opcode: missing" },
		{ AS_HEAD "#BEGIN_TB\n#BEGIN_TB\n", "line 7: #BEGIN_TB: inside a block" },
		{ AS_HEAD "#END_TB\n", "line 6: #END_TB: without #BEGIN_TB" },
		{ AS_HEAD "warp = 0\n", "line 6: (body): outside #BEGIN_TB" },
		{ AS_HEAD "#BEGIN_TB\n0000 ffffffff 1 R1 MOV 0 0\n#END_TB\n",
		  "line 7: (body): instruction outside a warp" },
		{ AS_HEAD "#BEGIN_TB\ninsts = 3\n#END_TB\n",
		  "line 7: insts: expected a count after 'warp = W'" },
		{ AS_HEAD "#BEGIN_TB\nwarp = z\n#END_TB\n",
		  "line 7: warp: expected a warp number" },
	};
	struct vgpu_recording rec;
	char dir[64], path[256], list[160], err[512];

	vgpu_ti_bad_files(_metadata, "kernel-1.traceg", VGPU_REC_ACCELSIM, b,
			  sizeof(b) / sizeof(b[0]));
	/* kernelslist.g: an unknown command, a missing .traceg */
	vgpu_ti_tmpdir(dir, sizeof(dir));
	snprintf(list, sizeof(list), "%s/kernelslist.g", dir);
	vgpu_ti_write(list, "MemcpyHtoD,0x1,4\nlaunch kernel 1\n");
	EXPECT_EQ(-EINVAL, vgpul_rec_load(dir, VGPU_REC_AUTO, &rec, err,
					 sizeof(err)));
	snprintf(path, sizeof(path),
		 "%s: line 2: (command): expected kernel-N.traceg", list);
	EXPECT_EQ(0, strncmp(err, path, strlen(path))) TH_LOG("%s", err);
	vgpul_rec_free(&rec);
	vgpu_ti_write(list, "kernel-9.traceg\n");
	EXPECT_EQ(-ENOENT, vgpul_rec_load(list, VGPU_REC_ACCELSIM, &rec, err,
					 sizeof(err)));
	snprintf(path, sizeof(path), "%s/kernel-9.traceg: ", dir);
	EXPECT_EQ(0, strncmp(err, path, strlen(path))) TH_LOG("%s", err);
	vgpul_rec_free(&rec);
	vgpu_ti_rmdir(dir);
}

/* Kernels that cannot fit the preset are skipped, counted, reported. */
TEST(skipped_reasons)
{
	static const struct {
		const char *args;
		const char *why;
	} c[] = {
		{ "\"grid\": [1048577, 1, 1], \"block\": [32, 1, 1], \"registers per thread\": 32, \"shared memory\": 0",
		  "skipped: grid: 1048577 blocks" },
		{ "\"grid\": [1, 1, 1], \"block\": [32, 32, 2], \"registers per thread\": 32, \"shared memory\": 0",
		  "skipped: threads: 2048 per block" },
		{ "\"grid\": [1, 1, 1], \"block\": [32, 1, 1], \"registers per thread\": 300, \"shared memory\": 0",
		  "skipped: registers: 300 per thread" },
		{ "\"grid\": [1, 1, 1], \"block\": [32, 1, 1], \"registers per thread\": 32, \"shared memory\": 300000",
		  "skipped: shared memory: 300000 bytes per block" },
		{ "\"grid\": [1, 1, 1], \"block\": [1024, 1, 1], \"registers per thread\": 255, \"shared memory\": 0",
		  "skipped: a block (1024 threads, 255 registers, 0 bytes) never fits an SM" },
	};
	struct vgpu_import_opts o = { .preset = "h100" };
	struct vgpu_import_stats st;
	struct vgpu_recording rec;
	struct vgpu_workload wl;
	char dir[64], path[128], text[1024], err[512], *rep = NULL;
	size_t i, replen;

	vgpu_ti_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/s.json", dir);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(text, sizeof(text),
			 "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"big\", \"ts\": 1, \"dur\": 2, \"args\": {\"stream\": 1, %s}}, "
			 "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"fine\", \"ts\": 3, \"dur\": 2, \"args\": {\"stream\": 1, \"grid\": [1, 1, 1], \"block\": [32, 1, 1], \"registers per thread\": 32, \"shared memory\": 0}}]}",
			 c[i].args);
		vgpu_ti_write(path, text);
		ASSERT_EQ(0, vgpul_rec_load(path, VGPU_REC_AUTO, &rec, err,
					   sizeof(err))) TH_LOG("%s", err);
		o.report = open_memstream(&rep, &replen);
		ASSERT_EQ(0, vgpul_import_map(&rec, 1, &o, &wl, &st, err,
					     sizeof(err)));
		fclose(o.report);
		EXPECT_EQ(1, st.skipped);
		EXPECT_EQ(1, st.mapped);
		ASSERT_EQ(1, wl.nkernels);
		EXPECT_STREQ("fine#0", wl.kernels[0].name);
		EXPECT_NE(NULL, strstr(rep, "traceEvents[0] (big): "));
		EXPECT_NE(NULL, strstr(rep, c[i].why)) TH_LOG("%s", rep);
		free(rep);
		rep = NULL;
		vgpul_workload_free(&wl);
		vgpul_rec_free(&rec);
	}
	vgpu_ti_rmdir(dir);
}

/* Run @prog alone on @cfg as a kernel of @grid blocks; its cycles. */
static uint64_t vgpu_ti_alone(const struct vgpu_config *cfg, uint32_t grid,
			      uint32_t threads, uint32_t regs, uint32_t smem,
			      const struct vgpu_vasm_prog *prog)
{
	static struct vgpu_tg t;
	struct vgpu_gpu_params p;
	struct vgpu_gpu_kernel *k;
	uint64_t cycles;

	vgpu_gpu_params_default(&p, cfg);
	p.calibrate = 0;
	if (vgpu_tg_init(&t, cfg, &p))
		abort();
	k = &t.k[0];
	memset(k, 0, sizeof(*k));
	t.prog[0] = *prog;	/* not freed by vgpu_tg_fini(): nk stays 0 */
	k->args.grid = grid;
	k->args.threads = threads;
	k->args.regs = regs;
	k->args.smem = smem;
	k->args.prog = prog->insns;
	k->args.n_insns = prog->n;
	k->args.match = t.match[0];
	if (vgpu_gpu_submit(&t.g, k) || !vgpu_tg_run(&t, 1ULL << 32))
		abort();
	cycles = k->t.end - k->t.submit;
	memset(&t.prog[0], 0, sizeof(t.prog[0]));
	vgpu_tg_fini(&t);
	return cycles;
}

/*
 * The synthesised program lasts the recorded duration within 10 % when
 * the kernel runs alone: presets x block shapes
 * (threads, registers, shared memory) x grids (one block, one full wave,
 * 2.5 waves) x durations.
 */
TEST(duration_alone_within_10pct)
{
	static const struct { uint32_t threads, regs, smem; } shape[] = {
		{ 32, 32, 0 }, { 256, 64, 0 }, { 128, 168, 49152 },
		{ 1024, 16, 4096 }, { 96, 255, 98304 },
	};
	static const char *const presets[] = { "small", "a100", "h100" };
	static const uint32_t us[] = { 4, 25, 80 };
	struct vgpu_occupancy occ;
	struct vgpu_vasm_prog prog;
	struct vgpu_config cfg;
	uint64_t want, got, grids[3];
	uint32_t p, s, g, d, mhz, worst = 0, cases = 0;
	bool clamped;

	for (p = 0; p < 3; p++) {
		ASSERT_EQ(0, vgpu_config_preset(&cfg, presets[p]));
		mhz = vgpul_rec_clock_mhz(presets[p]);
		for (s = 0; s < sizeof(shape) / sizeof(shape[0]); s++) {
			ASSERT_EQ(0, vgpu_occupancy_formula(&cfg,
				shape[s].threads, shape[s].regs,
				shape[s].smem, 0, &occ));
			grids[0] = 1;
			grids[1] = occ.blocks * cfg.num_sms;
			grids[2] = grids[1] * 5 / 2;
			for (g = 0; g < 3; g++) {
				for (d = 0; d < 3; d++) {
					/* simulated warp-microseconds bound */
					if (grids[g] * ((shape[s].threads + 31) / 32) *
					    us[d] > 150000)
						continue;
					cases++;
					want = (uint64_t)us[d] * mhz;
					ASSERT_EQ(0, vgpul_import_program(presets[p],
						shape[s].threads, shape[s].regs,
						shape[s].smem, grids[g], want,
						&prog, &clamped));
					got = vgpu_ti_alone(&cfg, grids[g],
						shape[s].threads, shape[s].regs,
						shape[s].smem, &prog);
					vgpul_vasm_free(&prog);
					EXPECT_FALSE(clamped);
					EXPECT_GE(want / 10,
						  got > want ? got - want :
						  want - got)
						TH_LOG("%s %u threads %u regs %u smem, grid %llu, %u us: %llu cycles, want %llu",
						       presets[p],
						       shape[s].threads,
						       shape[s].regs,
						       shape[s].smem,
						       (unsigned long long)grids[g],
						       us[d],
						       (unsigned long long)got,
						       (unsigned long long)want);
					if ((got > want ? got - want : want - got) * 1000 / want > worst)
						worst = (got > want ? got - want : want - got) * 1000 / want;
				}
			}
		}
	}
	printf("# %u cases, worst deviation %u.%u %%\n", cases, worst / 10,
	       worst % 10);
	fflush(stdout);
	EXPECT_LE(60, cases);
}

/* A duration below the shortest program is clamped and says so. */
TEST(duration_clamped)
{
	struct vgpu_vasm_prog prog;
	struct vgpu_config cfg;
	bool clamped;

	ASSERT_EQ(0, vgpu_config_preset(&cfg, "h100"));
	ASSERT_EQ(0, vgpul_import_program("h100", 128, 32, 0, 1, 10, &prog,
					 &clamped));
	EXPECT_TRUE(clamped);
	vgpul_vasm_free(&prog);
	ASSERT_EQ(0, vgpul_import_program("h100", 128, 32, 0, 1, 10000, &prog,
					 &clamped));
	EXPECT_FALSE(clamped);
	vgpul_vasm_free(&prog);
	EXPECT_EQ(-E2BIG, vgpul_import_program("h100", 1024, 255, 0, 1, 10000,
					      &prog, &clamped));
}

VGPU_TEST_MAIN
