// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_bench.c - cost of the kernel path (issue "The module", SPEC F60):
 * SUBMIT alone and SUBMIT+WAIT of an empty kernel, each as a ratio to a
 * GET_INFO call measured in the same run (targets: SUBMIT <= 5x,
 * SUBMIT+WAIT <= 20x, free-running clock).  SUBMIT alone is timed behind
 * a closed gate (F52): the kernels wait there, so the scheduler does not
 * compete with the submitting thread for its CPU; they run and are reaped
 * after each chunk, untimed.  Prints figures; asserts nothing.
 * `make bench-module` runs it in the VM.
 *
 *   vgpu_bench [ITERATIONS]
 */
#include <stdio.h>
#include <stdlib.h>

#include "vgpu_test_util.h"

static double vgpu_bench_ns(__s64 t0, int n)
{
	return (double)(vgpu_test_now_ns() - t0) / n;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000, i, fd = vgpu_test_open(0);
	struct vgpu_kernel_query q;
	struct vgpu_submit_desc d;
	struct vgpu_info info;
	double info_ns, sub_ns, subwait_ns;
	__u32 ch = 0, *h, chunk, done, todo;
	__s64 t0;

	h = calloc(n, sizeof(*h));
	if (fd < 0 || !h || vgpu_test_channel(fd, 2, 0, &ch)) {
		perror("vgpu_bench: setup");
		return 1;
	}

	t0 = vgpu_test_now_ns();
	for (i = 0; i < n; i++) {
		memset(&info, 0, sizeof(info));
		ioctl(fd, VGPU_IOCTL_GET_INFO, &info);
	}
	info_ns = vgpu_bench_ns(t0, n);

	/*
	 * SUBMIT alone, behind the gate: the kernels run and are reaped
	 * after each chunk (untimed), a chunk staying within the file's
	 * handle limit.
	 */
	chunk = info.max_kernels_per_file / 2;
	sub_ns = 0;
	for (done = 0; done < n; done += todo) {
		todo = n - done < chunk ? n - done : chunk;
		if (vgpu_test_gate(fd, VGPU_GATE_CLOSE, NULL)) {
			perror("vgpu_bench: GATE");
			return 1;
		}
		t0 = vgpu_test_now_ns();
		for (i = 0; i < todo; i++) {
			VGPU_DESC(&d, ch, vgpu_prog_empty);
			if (vgpu_test_submit(fd, &d, 1)) {
				perror("vgpu_bench: SUBMIT");
				return 1;
			}
			h[i] = d.handle;
		}
		sub_ns += vgpu_test_now_ns() - t0;
		vgpu_test_gate(fd, VGPU_GATE_OPEN, NULL);
		for (i = 0; i < todo; i++) {
			vgpu_test_wait(fd, &h[i], 1, 0, VGPU_WAIT_FOREVER, NULL);
			vgpu_test_query(fd, h[i], VGPU_QUERY_RELEASE, &q);
		}
	}
	sub_ns /= n;

	/* SUBMIT + WAIT (+ the release, which a real client also pays) */
	t0 = vgpu_test_now_ns();
	for (i = 0; i < n; i++) {
		VGPU_DESC(&d, ch, vgpu_prog_empty);
		if (vgpu_test_submit(fd, &d, 1) ||
		    vgpu_test_wait(fd, &d.handle, 1, 0, VGPU_WAIT_FOREVER, NULL) ||
		    vgpu_test_query(fd, d.handle, VGPU_QUERY_RELEASE, &q)) {
			perror("vgpu_bench: SUBMIT+WAIT");
			return 1;
		}
	}
	subwait_ns = vgpu_bench_ns(t0, n);

	printf("iterations=%d\n", n);
	printf("get_info_ns=%.0f\n", info_ns);
	printf("submit_ns=%.0f\n", sub_ns);
	printf("submit_wait_ns=%.0f\n", subwait_ns);
	printf("ratio submit/get_info = %.2f (target <= 5)\n", sub_ns / info_ns);
	printf("ratio submit_wait/get_info = %.2f (target <= 20)\n",
	       subwait_ns / info_ns);
	close(fd);
	return 0;
}
