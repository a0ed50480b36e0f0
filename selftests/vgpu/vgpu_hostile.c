// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_hostile.c - careless and malicious users of one shared device.
 *
 *   vgpu_hostile [--seconds S] [--workers N] [--seed X]
 *
 * Two instances are made, /dev/vgpu11 (free-running clock) and
 * /dev/vgpu12 (paced, 1 MHz), both with the default limits.  For S seconds
 * (default 20):
 *
 *  - N workers (default 6), every other one as nobody, do random ioctls on
 *    both: channels made and destroyed, kernels submitted with arrivals
 *    from 0 to one past the device's max_arrival (which must be EINVAL),
 *    waited for, queried and released, and stale handles (destroyed
 *    channels, released kernels) tried again, which must stay ENOENT;
 *  - workers are SIGKILLed at random mid-ioctl and replaced;
 *  - one worker at a time checks read-only arguments on a fresh file: a
 *    CHANNEL_CREATE, SUBMIT, QUERY | RELEASE or GATE CLOSE whose result
 *    cannot be written back is EFAULT and leaves nothing behind (the next
 *    handle is still 1, the handle is still there, the gate not held);
 *  - a victim (root) keeps an idle open queue kernel on vgpu11 (hang
 *    timeout 2^33 cycles: more than the device runs in the test, less than
 *    two far arrivals skip) and runs one-block kernels on both devices, each
 *    of which must complete (a WAIT bounded by 60 s: liveness, not speed)
 *    while far arrivals make the clock skip; its queue kernel must not
 *    time out;
 *  - instance churn: /dev/vgpu13 is deleted while it is created again
 *    as soon as its index is free, over and over, with a debugfs reader
 *    busy; an instance that exists once the deleter is done has its
 *    debugfs directory.
 *
 * At the end both devices must be back to no live channel or kernel.
 * TAP on stdout; exit status 0 on success.  make check runs it for 20 s,
 * make check-fuzz-module for 300 s.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/vgpu_dispatch.h>

#include "vgpu_test_util.h"

#define H_FREE		11
#define H_PACED		12
#define H_CHURN		13
#define H_MAX_ARRIVAL	(1ULL << 32)
#define H_MAX_WORKERS	32
#define H_STALE		64

/* Counters shared by every process (MAP_SHARED). */
struct h_shared {
	unsigned long long ops;
	unsigned long long einval_far;	/* arrivals past max_arrival refused */
	unsigned long long far_ok;	/* arrivals of max_arrival accepted */
	unsigned long long stale_checks;
	unsigned long long ro_checks;
	unsigned long long bad_far;	/* past max_arrival and accepted */
	unsigned long long bad_stale;	/* a stale handle named something */
	unsigned long long bad_ro;	/* a read-only argument changed things */
	unsigned long long bad_errno;	/* an errno nobody documented */
};

static struct h_shared *sh;
static unsigned int seed = 1;

static unsigned int h_rand(unsigned int *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static __s64 h_now(void)
{
	return vgpu_test_now_ns();
}

/* Read-only arguments on a fresh file leave nothing behind. */
static void h_ro_check(int dev)
{
	struct vgpu_channel_create cc;
	struct vgpu_kernel_query q;
	struct vgpu_gate g;
	struct vgpu_submit sub;
	struct vgpu_submit_desc d;
	__u32 ch = 0, h = 0;
	int fd = vgpu_test_open(dev), i;

	if (fd < 0)
		return;
	memset(&cc, 0, sizeof(cc));
	cc.priority = 2;
	for (i = 0; i < 4; i++)
		if (vgpu_test_ro_ioctl(fd, VGPU_IOCTL_CHANNEL_CREATE, &cc, sizeof(cc)) !=
		    EFAULT)
			__atomic_add_fetch(&sh->bad_ro, 1, __ATOMIC_RELAXED);
	/* no channel was made: the first real one gets handle 1 */
	if (vgpu_test_channel(fd, 2, 0, &ch))
		goto out;
	if (ch != 1)
		__atomic_add_fetch(&sh->bad_ro, 1, __ATOMIC_RELAXED);
	VGPU_DESC(&d, ch, vgpu_prog_alu);
	memset(&sub, 0, sizeof(sub));
	sub.count = 1;
	sub.desc_size = sizeof(d);
	sub.descs = (uintptr_t)&d;
	if (vgpu_test_ro_ioctl(fd, VGPU_IOCTL_SUBMIT, &sub, sizeof(sub)) != EFAULT)
		__atomic_add_fetch(&sh->bad_ro, 1, __ATOMIC_RELAXED);
	if (vgpu_test_submit_at(fd, ch, 0, &h))
		goto out;
	if (h != 1)
		__atomic_add_fetch(&sh->bad_ro, 1, __ATOMIC_RELAXED);
	if (vgpu_test_wait(fd, &h, 1, 0, h_now() + 60000000000LL, NULL))
		goto out;
	memset(&q, 0, sizeof(q));
	q.handle = h;
	q.flags = VGPU_QUERY_RELEASE;
	if (vgpu_test_ro_ioctl(fd, VGPU_IOCTL_QUERY, &q, sizeof(q)) != EFAULT ||
	    vgpu_test_query(fd, h, 0, &q))
		__atomic_add_fetch(&sh->bad_ro, 1, __ATOMIC_RELAXED);
	memset(&g, 0, sizeof(g));
	g.op = VGPU_GATE_CLOSE;
	if (vgpu_test_ro_ioctl(fd, VGPU_IOCTL_GATE, &g, sizeof(g)) != EFAULT ||
	    vgpu_test_gate(fd, VGPU_GATE_OPEN, NULL) != EINVAL)
		__atomic_add_fetch(&sh->bad_ro, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&sh->ro_checks, 1, __ATOMIC_RELAXED);
out:
	close(fd);
}

/* Is @e an errno the uapi documents for these calls? */
static bool h_errno_ok(int e)
{
	return e == 0 || e == EINVAL || e == ENOENT || e == ENOSPC ||
	       e == EAGAIN || e == EPERM || e == ETIME || e == EBUSY ||
	       e == EINTR || e == ENOMEM || e == ENODEV;
}

static void h_worker(int idx, __s64 deadline)
{
	__u32 ch[2][8], stale_k[H_STALE], stale_c[H_STALE], live[2][64];
	unsigned int nch[2] = { 0 }, nlive[2] = { 0 }, nsk = 0, nsc = 0;
	unsigned int s = seed * 7919u + idx * 104729u + getpid();
	struct vgpu_channel_destroy cd;
	struct vgpu_kernel_query q;
	int fd[2], e, d, op;
	__u32 h, i;
	__u64 arr;

	if ((idx & 1) && (setresgid(65534, 65534, 65534) ||
			  setresuid(65534, 65534, 65534)))
		_exit(2);
	fd[0] = vgpu_test_open(H_FREE);
	fd[1] = vgpu_test_open(H_PACED);
	if (fd[0] < 0 || fd[1] < 0)
		_exit(3);
	while (h_now() < deadline) {
		d = h_rand(&s) & 1;
		op = h_rand(&s) % 100;
		e = 0;
		if (op < 10 && nch[d] < 8) {
			e = vgpu_test_channel(fd[d], 2 + (h_rand(&s) & 1), 0,
					      &ch[d][nch[d]]);
			if (!e)
				nch[d]++;
		} else if (op < 14 && nch[d]) {
			i = h_rand(&s) % nch[d];
			memset(&cd, 0, sizeof(cd));
			cd.handle = ch[d][i];
			e = ioctl(fd[d], VGPU_IOCTL_CHANNEL_DESTROY, &cd) ?
			    errno : 0;
			if (!e && !d)
				stale_c[nsc++ % H_STALE] = cd.handle;
			ch[d][i] = ch[d][--nch[d]];
			/* its kernels are gone with it (cancelled) */
		} else if (op < 60 && nch[d] && nlive[d] < 64) {
			switch (h_rand(&s) % 4) {
			case 0: arr = 0; break;
			case 1: arr = h_rand(&s) % 100000; break;
			case 2: arr = H_MAX_ARRIVAL; break;
			default: arr = H_MAX_ARRIVAL + 1 +
				       h_rand(&s) % 1000; break;
			}
			e = vgpu_test_submit_at(fd[d], ch[d][h_rand(&s) % nch[d]], arr,
				     &h);
			if (arr > H_MAX_ARRIVAL) {
				if (e == EINVAL)
					__atomic_add_fetch(&sh->einval_far, 1,
							   __ATOMIC_RELAXED);
				else if (!e)
					__atomic_add_fetch(&sh->bad_far, 1,
							   __ATOMIC_RELAXED);
				e = 0;
			} else if (!e) {
				live[d][nlive[d]++] = h;
				if (arr == H_MAX_ARRIVAL)
					__atomic_add_fetch(&sh->far_ok, 1,
							   __ATOMIC_RELAXED);
			}
		} else if (op < 85 && nlive[d]) {
			i = h_rand(&s) % nlive[d];
			e = vgpu_test_query(fd[d], live[d][i],
					    VGPU_QUERY_RELEASE, &q);
			if (!e || e == ENOENT) {
				/* a live handle is never ENOENT */
				if (e)
					__atomic_add_fetch(&sh->bad_stale, 1,
							   __ATOMIC_RELAXED);
				if (!e && !d)
					stale_k[nsk++ % H_STALE] = live[d][i];
				live[d][i] = live[d][--nlive[d]];
				e = 0;
			} else if (e == EBUSY) {
				e = 0;	/* not finished yet */
			}
		} else if (op < 95 && (nsk || nsc)) {
			/* stale handles stay unknown (vgpu11 only: the
			 * cyclic space of one file is never exhausted here)
			 */
			if (nsk) {
				h = stale_k[h_rand(&s) % (nsk < H_STALE ? nsk :
							  H_STALE)];
				if (vgpu_test_query(fd[0], h, 0, &q) != ENOENT)
					__atomic_add_fetch(&sh->bad_stale, 1,
							   __ATOMIC_RELAXED);
			}
			if (nsc) {
				memset(&cd, 0, sizeof(cd));
				cd.handle = stale_c[h_rand(&s) %
						    (nsc < H_STALE ? nsc :
						     H_STALE)];
				if (!ioctl(fd[0], VGPU_IOCTL_CHANNEL_DESTROY,
					   &cd) || errno != ENOENT)
					__atomic_add_fetch(&sh->bad_stale, 1,
							   __ATOMIC_RELAXED);
			}
			__atomic_add_fetch(&sh->stale_checks, 1,
					   __ATOMIC_RELAXED);
		} else if (op < 97) {
			h_ro_check(d ? H_PACED : H_FREE);
		} else if (nlive[d]) {
			/* wait a little for one of them */
			e = vgpu_test_wait(fd[d], &live[d][0], 1, 0,
					   h_now() + 2000000, NULL);
		}
		if (!h_errno_ok(e))
			__atomic_add_fetch(&sh->bad_errno, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&sh->ops, 1, __ATOMIC_RELAXED);
	}
	_exit(0);
}

static pid_t h_spawn(int idx, __s64 deadline)
{
	pid_t pid = fork();

	if (!pid)
		h_worker(idx, deadline);
	return pid;
}

/* new_device / del_device of H_CHURN with a debugfs reader busy. */
static void h_churn(__s64 deadline, int out)
{
	unsigned long rounds = 0, missing = 0;
	char buf[4096], msg[64];
	pid_t reader = fork();
	int fd;

	if (!reader) {
		while (h_now() < deadline) {
			fd = open("/sys/kernel/debug/vgpu/vgpu13/kernels",
				  O_RDONLY);
			if (fd < 0)
				continue;
			while (read(fd, buf, sizeof(buf)) > 0)
				;
			close(fd);
		}
		_exit(0);
	}
	/*
	 * Each round: the instance exists; a deleter removes it while we
	 * create it again as soon as the index is free.  Once the deleter is
	 * done, an instance that exists must have its debugfs directory.
	 */
	while (h_now() < deadline) {
		struct stat st;
		pid_t del;
		int ret;

		if (vgpu_test_sysfs("/sys/bus/vgpu/new_device", "13 small"))
			break;
		del = fork();
		if (!del)
			_exit(vgpu_test_sysfs("/sys/bus/vgpu/del_device", "13"));
		while ((ret = vgpu_test_sysfs("/sys/bus/vgpu/new_device",
					      "13 small")) == EEXIST &&
		       !waitpid(del, NULL, WNOHANG))
			;
		waitpid(del, NULL, 0);
		if (ret == EEXIST)
			vgpu_test_sysfs("/sys/bus/vgpu/new_device", "13 small");
		if (!stat("/dev/vgpu13", &st) &&
		    stat("/sys/kernel/debug/vgpu/vgpu13", &st))
			missing++;
		rounds++;
		vgpu_test_sysfs("/sys/bus/vgpu/del_device", "13");
	}
	waitpid(reader, NULL, 0);
	snprintf(msg, sizeof(msg), "%lu %lu\n", rounds, missing);
	if (write(out, msg, strlen(msg)) < 0)
		_exit(1);
	_exit(0);
}

/* Root's kernels on both devices complete; its queue kernel stays up. */
static void h_victim(__s64 deadline, int out)
{
	static const struct vgpu_insn p_item[] = {
		{ .op = VGPU_OP_ALU },
		{ .op = VGPU_OP_EXIT },
	};
	unsigned long done = 0, stuck = 0, bad = 0, qbad = 0;
	struct vgpu_submit_desc qd;
	struct vgpu_kernel_query q;
	struct vgpu_queue_push p;
	__u32 ch[2] = { 0 }, qch = 0, h;
	int fd[2], d, e;
	char msg[96];

	fd[0] = vgpu_test_open(H_FREE);
	fd[1] = vgpu_test_open(H_PACED);
	if (fd[0] < 0 || fd[1] < 0 ||
	    vgpu_test_channel(fd[0], 1, 0, &ch[0]) ||
	    vgpu_test_channel(fd[1], 1, 0, &ch[1]) ||
	    vgpu_test_channel(fd[0], 1, 1ULL << 33, &qch))
		_exit(1);
	/* on a channel of its own: an open queue holds its channel (F11) */
	VGPU_QDESC(&qd, qch, p_item, 1, 8, 100);
	if (vgpu_test_submit(fd[0], &qd, 1))
		_exit(1);
	memset(&p, 0, sizeof(p));
	p.handle = qd.handle;
	p.items = 1;
	if (ioctl(fd[0], VGPU_IOCTL_QUEUE_PUSH, &p))
		_exit(1);
	while (h_now() < deadline) {
		for (d = 0; d < 2; d++) {
			if (vgpu_test_submit_at(fd[d], ch[d], 0, &h))
				continue;
			e = vgpu_test_wait(fd[d], &h, 1, 0,
					   h_now() + 60000000000LL, NULL);
			if (e == ETIME) {
				struct vgpu_info in = vgpu_test_info(fd[d]);

				stuck++;
				vgpu_test_query(fd[d], h, 0, &q);
				printf("# victim: kernel on vgpu%d not done after 60 s: state %u t_submit %llu t_dispatch %llu, clock %llu, live kernels %u\n",
				       d ? H_PACED : H_FREE, q.state,
				       (unsigned long long)q.t_submit,
				       (unsigned long long)q.t_dispatch,
				       (unsigned long long)in.cycle,
				       in.live_kernels);
			}
			if (!e && !vgpu_test_query(fd[d], h,
						   VGPU_QUERY_RELEASE, &q)) {
				if (q.state == VGPU_KSTATE_DONE)
					done++;
				else
					bad++;
			}
		}
	}
	/* the open queue kernel is still running: no hang timeout fired */
	if (vgpu_test_query(fd[0], qd.handle, 0, &q) ||
	    q.state != VGPU_KSTATE_RUNNING || q.error)
		qbad++;
	snprintf(msg, sizeof(msg), "%lu %lu %lu %lu\n", done, stuck, bad,
		 qbad);
	if (write(out, msg, strlen(msg)) < 0)
		_exit(1);
	close(fd[0]);
	close(fd[1]);
	_exit(0);
}

static int h_tap_n;
static int h_failed;

static void h_ok(bool ok, const char *name, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printf("%sok %d hostile.%s # %s\n", ok ? "" : "not ", ++h_tap_n, name,
	       buf);
	if (!ok)
		h_failed = 1;
}

int main(int argc, char **argv)
{
	pid_t workers[H_MAX_WORKERS], churn, victim, pid;
	unsigned long kills = 0, spawned = 0, vdone = 0, vstuck = 0, vbad = 0;
	unsigned long vqbad = 1;
	unsigned long crounds = 0, cmissing = 0;
	int seconds = 20, n = 6, i, vp[2], cp[2], status;
	struct vgpu_info info[2];
	__s64 deadline, t;
	char buf[128];
	int fd;

	for (i = 1; i < argc - 1; i++) {
		if (!strcmp(argv[i], "--seconds"))
			seconds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--workers"))
			n = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--seed"))
			seed = strtoul(argv[++i], NULL, 0);
	}
	if (n < 1 || n > H_MAX_WORKERS || seconds < 1) {
		fprintf(stderr, "usage: vgpu_hostile [--seconds S] [--workers 1..%d] [--seed X]\n",
			H_MAX_WORKERS);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n1..7\n");
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || vgpu_test_new_device(H_FREE, "") ||
	    vgpu_test_new_device(H_PACED, " clock=paced freq_khz=1000")) {
		printf("Bail out! cannot make the devices\n");
		return 1;
	}
	memset(sh, 0, sizeof(*sh));
	deadline = h_now() + seconds * 1000000000LL;
	if (pipe(vp) || pipe(cp))
		return 1;
	victim = fork();
	if (!victim)
		h_victim(deadline, vp[1]);
	churn = fork();
	if (!churn)
		h_churn(deadline, cp[1]);
	for (i = 0; i < n; i++)
		workers[i] = h_spawn(i, deadline);
	spawned = n;
	/* SIGKILL a random worker every 50 ms or so and replace it */
	while ((t = h_now()) < deadline - 100000000LL) {
		struct timespec ts = { 0, 50000000 };

		nanosleep(&ts, NULL);	/* pacing the killer, no sync */
		i = h_rand(&seed) % n;
		if (kill(workers[i], SIGKILL) == 0) {
			waitpid(workers[i], &status, 0);
			kills++;
		}
		workers[i] = h_spawn(i, deadline);
		spawned++;
	}
	for (i = 0; i < n; i++)
		waitpid(workers[i], &status, 0);
	while ((pid = wait(&status)) > 0)
		;
	if (read(vp[0], buf, sizeof(buf) - 1) > 0 &&
	    sscanf(buf, "%lu %lu %lu %lu", &vdone, &vstuck, &vbad, &vqbad) != 4)
		vbad++;
	memset(buf, 0, sizeof(buf));
	if (read(cp[0], buf, sizeof(buf) - 1) > 0)
		sscanf(buf, "%lu %lu", &crounds, &cmissing);

	h_ok(sh->ops > 0 && !sh->bad_errno, "workers",
	     "%llu ops by %lu workers, %lu SIGKILLed, %llu undocumented errnos",
	     sh->ops, spawned, kills, sh->bad_errno);
	h_ok(!sh->bad_far && sh->einval_far, "arrival_limit",
	     "%llu past max_arrival refused, %llu accepted; %llu at it accepted",
	     sh->einval_far, sh->bad_far, sh->far_ok);
	h_ok(vdone && !vstuck && !vbad && !vqbad, "victim_never_stalled",
	     "%lu kernels done, %lu stuck past 60 s, %lu not done; queue kernel %s",
	     vdone, vstuck, vbad, vqbad ? "NOT running (timed out?)" : "running");
	h_ok(!sh->bad_stale, "stale_handles_enoent",
	     "%llu checks, %llu named something", sh->stale_checks,
	     sh->bad_stale);
	h_ok(!sh->bad_ro, "readonly_args", "%llu checks, %llu left something behind",
	     sh->ro_checks, sh->bad_ro);
	h_ok(crounds && !cmissing, "instance_churn",
	     "%lu delete-while-create rounds, %lu instances without debugfs",
	     crounds, cmissing);
	for (i = 0; i < 2; i++) {
		fd = vgpu_test_open(i ? H_PACED : H_FREE);
		info[i] = vgpu_test_info(fd);
		close(fd);
	}
	h_ok(!info[0].live_channels && !info[0].live_kernels &&
	     !info[1].live_channels && !info[1].live_kernels, "back_to_zero",
	     "live channels %u/%u, kernels %u/%u", info[0].live_channels,
	     info[1].live_channels, info[0].live_kernels,
	     info[1].live_kernels);
	vgpu_test_sysfs("/sys/bus/vgpu/del_device", "11");
	vgpu_test_sysfs("/sys/bus/vgpu/del_device", "12");
	return h_failed;
}
