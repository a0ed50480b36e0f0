// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_bench.c - cost of the kernel path (F60):
 * SUBMIT alone and SUBMIT+WAIT of an empty kernel, each as a ratio to a
 * GET_INFO call measured in the same run (free-running clock; figures,
 * no targets: timings under emulation are not the product), and SUBMIT of
 * VGPU_MAX_SUBMIT (64) kernels per call, reported as kernels/s.  SUBMIT
 * alone and batched are timed behind a closed gate (F52): the kernels
 * wait there, so the scheduler does not compete with the submitting
 * thread for its CPU; they run and are reaped after each chunk, untimed.
 *
 * The three measurements run in ROUNDS rounds of ITERATIONS / ROUNDS
 * calls each, one after the other, so that a slow spell of the host hits
 * a numerator and its denominator alike; every round's ratios are printed
 * and the medians are the result.  Prints figures; asserts nothing.
 * `make bench-module` runs it in the VM.
 *
 * With --workers, the module's workers across CPUs instead (the
 * worker speed-up, F50): a device made afresh with one worker, then with
 * two, runs the same KERNELS compute-bound kernels (64 blocks of
 * vgpu_prog_long each) released together from a closed gate on a
 * free-running clock; each round times both, and the speed-up of two
 * workers over one is the median of the rounds' ratios (target >= 1.7 on
 * a two-CPU guest).
 *
 *   vgpu_bench [ITERATIONS [ROUNDS]]
 *   vgpu_bench --workers [KERNELS [ROUNDS]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "vgpu_test_util.h"

#define VGPU_BENCH_MAX_ROUNDS	64

struct vgpu_bench_round {
	double info_ns;
	double sub_ns;
	double subwait_ns;
	double batch_ns;
};

static double vgpu_bench_ns(__s64 t0, int n)
{
	return (double)(vgpu_test_now_ns() - t0) / n;
}

static int vgpu_bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double vgpu_bench_median(double *v, int n)
{
	qsort(v, n, sizeof(*v), vgpu_bench_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Run and release the @n kernels of @h (behind an open gate). */
static void vgpu_bench_reap(int fd, __u32 *h, int n)
{
	struct vgpu_kernel_query q;
	int i;

	vgpu_test_gate(fd, VGPU_GATE_OPEN, NULL);
	for (i = 0; i < n; i++) {
		vgpu_test_wait(fd, &h[i], 1, 0, VGPU_WAIT_FOREVER, NULL);
		vgpu_test_query(fd, h[i], VGPU_QUERY_RELEASE, &q);
	}
}

/*
 * ns per kernel of SUBMIT with VGPU_MAX_SUBMIT kernels a call, @n kernels
 * in chunks of at most @chunk behind the gate; -1 on failure.
 */
static double vgpu_bench_batch(int fd, __u32 ch, __u32 *h, int n,
			       __u32 chunk)
{
	static struct vgpu_submit_desc d[VGPU_MAX_SUBMIT];
	int done, todo, i, j, cnt;
	double ns = 0;
	__s64 t0;

	/* whole calls per chunk (the file's handle limit allows a few) */
	chunk = chunk < VGPU_MAX_SUBMIT ? VGPU_MAX_SUBMIT :
		chunk - chunk % VGPU_MAX_SUBMIT;
	for (done = 0; done < n; done += todo) {
		todo = n - done < (int)chunk ? n - done : (int)chunk;
		errno = vgpu_test_gate(fd, VGPU_GATE_CLOSE, NULL);
		if (errno) {
			perror("vgpu_bench: GATE");
			return -1;
		}
		for (i = 0; i < todo; i += cnt) {
			cnt = todo - i < VGPU_MAX_SUBMIT ? todo - i :
			      VGPU_MAX_SUBMIT;
			for (j = 0; j < cnt; j++)
				VGPU_DESC(&d[j], ch, vgpu_prog_empty);
			t0 = vgpu_test_now_ns();
			if (vgpu_test_submit(fd, d, cnt)) {
				perror("vgpu_bench: batched SUBMIT");
				return -1;
			}
			ns += vgpu_test_now_ns() - t0;
			for (j = 0; j < cnt; j++)
				h[i + j] = d[j].handle;
		}
		vgpu_bench_reap(fd, h, todo);
	}
	return ns / n;
}

/* One round of @n calls of each kind; 0 or -1 (perror printed). */
static int vgpu_bench_round(int fd, __u32 ch, __u32 *h, int n, __u32 chunk,
			    struct vgpu_bench_round *r)
{
	struct vgpu_kernel_query q;
	struct vgpu_submit_desc d;
	struct vgpu_info info;
	__u32 done, todo;
	__s64 t0;
	int i;

	/*
	 * Untimed pause: the previous round's deferred work (RCU callbacks
	 * freeing handle-table nodes, the controller's wake-up timer) runs
	 * now, not during the GET_INFO calls it would slow down and so make
	 * the ratios look better than they are.
	 */
	usleep(20000);
	t0 = vgpu_test_now_ns();
	for (i = 0; i < n; i++) {
		memset(&info, 0, sizeof(info));
		ioctl(fd, VGPU_IOCTL_GET_INFO, &info);
	}
	r->info_ns = vgpu_bench_ns(t0, n);

	/*
	 * SUBMIT alone, behind the gate: the kernels run and are reaped
	 * after each chunk (untimed), a chunk staying within the file's
	 * handle limit.
	 */
	r->sub_ns = 0;
	for (done = 0; done < n; done += todo) {
		todo = n - done < chunk ? n - done : chunk;
		errno = vgpu_test_gate(fd, VGPU_GATE_CLOSE, NULL);
		if (errno) {
			perror("vgpu_bench: GATE");
			return -1;
		}
		t0 = vgpu_test_now_ns();
		for (i = 0; i < todo; i++) {
			VGPU_DESC(&d, ch, vgpu_prog_empty);
			if (vgpu_test_submit(fd, &d, 1)) {
				perror("vgpu_bench: SUBMIT");
				return -1;
			}
			h[i] = d.handle;
		}
		r->sub_ns += vgpu_test_now_ns() - t0;
		vgpu_bench_reap(fd, h, todo);
	}
	r->sub_ns /= n;

	/* SUBMIT of VGPU_MAX_SUBMIT kernels a call, behind the gate */
	r->batch_ns = vgpu_bench_batch(fd, ch, h, n, chunk);
	if (r->batch_ns < 0)
		return -1;

	/* SUBMIT + WAIT (+ the release, which a real client also pays) */
	t0 = vgpu_test_now_ns();
	for (i = 0; i < n; i++) {
		VGPU_DESC(&d, ch, vgpu_prog_empty);
		if (vgpu_test_submit(fd, &d, 1) ||
		    vgpu_test_wait(fd, &d.handle, 1, 0, VGPU_WAIT_FOREVER, NULL) ||
		    vgpu_test_query(fd, d.handle, VGPU_QUERY_RELEASE, &q)) {
			perror("vgpu_bench: SUBMIT+WAIT");
			return -1;
		}
	}
	r->subwait_ns = vgpu_bench_ns(t0, n);
	return 0;
}

/* The instance the --workers rounds make afresh and delete. */
#define VGPU_BENCH_DEV	5

/*
 * ns from opening the gate to the last of @nk kernels done on a fresh
 * device with @workers workers; -1 on failure (perror printed).
 */
static double vgpu_bench_workers_once(int workers, int nk, __u32 *h)
{
	struct vgpu_kernel_query q;
	struct vgpu_submit_desc d;
	char opts[64];
	__u32 ch = 0;
	double ns;
	__s64 t0;
	int fd, i;

	snprintf(opts, sizeof(opts), " clock=free workers=%d", workers);
	errno = vgpu_test_new_device(VGPU_BENCH_DEV, opts);
	fd = errno ? -1 : vgpu_test_open(VGPU_BENCH_DEV);
	if (fd < 0 || vgpu_test_channel(fd, 2, 0, &ch) ||
	    vgpu_test_gate(fd, VGPU_GATE_CLOSE, NULL)) {
		perror("vgpu_bench: workers device");
		return -1;
	}
	if (vgpu_test_info(fd).workers != (__u32)workers) {
		fprintf(stderr, "vgpu_bench: %d workers asked, %u made\n",
			workers, vgpu_test_info(fd).workers);
		return -1;
	}
	for (i = 0; i < nk; i++) {
		VGPU_DESC(&d, ch, vgpu_prog_long);
		d.grid = 64;
		if (vgpu_test_submit(fd, &d, 1)) {
			perror("vgpu_bench: workers SUBMIT");
			return -1;
		}
		h[i] = d.handle;
	}
	t0 = vgpu_test_now_ns();
	vgpu_test_gate(fd, VGPU_GATE_OPEN, NULL);
	for (i = 0; i < nk; i++)
		if (vgpu_test_wait(fd, &h[i], 1, 0, VGPU_WAIT_FOREVER, NULL)) {
			perror("vgpu_bench: workers WAIT");
			return -1;
		}
	ns = vgpu_test_now_ns() - t0;
	for (i = 0; i < nk; i++)
		vgpu_test_query(fd, h[i], VGPU_QUERY_RELEASE, &q);
	close(fd);
	return ns;
}

static int vgpu_bench_workers(int nk, int rounds)
{
	double one, two, ratio[VGPU_BENCH_MAX_ROUNDS];
	char line[16];
	__u32 *h;
	int i;

	h = calloc(nk, sizeof(*h));
	if (!h)
		return 1;
	printf("kernels=%d blocks_per_kernel=64 rounds=%d\n", nk, rounds);
	for (i = 0; i < rounds; i++) {
		one = vgpu_bench_workers_once(1, nk, h);
		two = one < 0 ? -1 : vgpu_bench_workers_once(2, nk, h);
		if (two < 0)
			return 1;
		ratio[i] = one / two;
		printf("round %d: workers1_ns=%.0f workers2_ns=%.0f speedup %.2f\n",
		       i + 1, one, two, ratio[i]);
	}
	printf("speedup module 2/1 workers = %.2f (median; target >= 1.7)\n",
	       vgpu_bench_median(ratio, rounds));
	snprintf(line, sizeof(line), "%d", VGPU_BENCH_DEV);
	vgpu_test_sysfs("/sys/bus/vgpu/del_device", line);
	free(h);
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	int rounds = argc > 2 ? atoi(argv[2]) : 5;
	double info[VGPU_BENCH_MAX_ROUNDS], sub[VGPU_BENCH_MAX_ROUNDS];
	double subwait[VGPU_BENCH_MAX_ROUNDS], rsub[VGPU_BENCH_MAX_ROUNDS];
	double rsubwait[VGPU_BENCH_MAX_ROUNDS], batch[VGPU_BENCH_MAX_ROUNDS];
	struct vgpu_bench_round r;
	int fd = vgpu_test_open(0), i, per;
	struct vgpu_info gi;
	__u32 ch = 0, *h;

	if (argc > 1 && !strcmp(argv[1], "--workers")) {
		n = argc > 2 ? atoi(argv[2]) : 16;
		rounds = argc > 3 ? atoi(argv[3]) : 5;
		if (n < 1 || n > 256 || rounds < 1 ||
		    rounds > VGPU_BENCH_MAX_ROUNDS) {
			fprintf(stderr, "usage: vgpu_bench --workers [KERNELS (1..256) [ROUNDS (1..%d)]]\n",
				VGPU_BENCH_MAX_ROUNDS);
			return 2;
		}
		return vgpu_bench_workers(n, rounds);
	}
	if (rounds < 1 || rounds > VGPU_BENCH_MAX_ROUNDS || n < rounds) {
		fprintf(stderr, "usage: vgpu_bench [ITERATIONS [ROUNDS (1..%d)]]\n",
			VGPU_BENCH_MAX_ROUNDS);
		return 2;
	}
	per = n / rounds;
	h = calloc(per, sizeof(*h));
	if (fd < 0 || !h || vgpu_test_channel(fd, 2, 0, &ch)) {
		perror("vgpu_bench: setup");
		return 1;
	}
	gi = vgpu_test_info(fd);

	printf("iterations=%d rounds=%d\n", per * rounds, rounds);
	for (i = 0; i < rounds; i++) {
		if (vgpu_bench_round(fd, ch, h, per,
				     gi.max_kernels_per_file / 2, &r))
			return 1;
		info[i] = r.info_ns;
		sub[i] = r.sub_ns;
		subwait[i] = r.subwait_ns;
		rsub[i] = r.sub_ns / r.info_ns;
		rsubwait[i] = r.subwait_ns / r.info_ns;
		batch[i] = r.batch_ns;
		printf("round %d: get_info_ns=%.0f submit_ns=%.0f ", i + 1,
		       r.info_ns, r.sub_ns);
		printf("submit_wait_ns=%.0f batch64_ns=%.0f ratios %.2f %.2f\n",
		       r.subwait_ns, r.batch_ns, rsub[i], rsubwait[i]);
	}
	printf("get_info_ns=%.0f\n", vgpu_bench_median(info, rounds));
	printf("submit_ns=%.0f\n", vgpu_bench_median(sub, rounds));
	printf("submit_wait_ns=%.0f\n", vgpu_bench_median(subwait, rounds));
	printf("batch64_ns_per_kernel=%.0f\n", vgpu_bench_median(batch, rounds));
	printf("ratio submit/get_info = %.2f (median)\n",
	       vgpu_bench_median(rsub, rounds));
	printf("ratio submit_wait/get_info = %.2f (median)\n",
	       vgpu_bench_median(rsubwait, rounds));
	printf("batch64 kernels/s = %.0f (median)\n",
	       1e9 / vgpu_bench_median(batch, rounds));
	close(fd);
	return 0;
}
