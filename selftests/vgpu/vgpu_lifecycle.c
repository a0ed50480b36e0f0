// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_lifecycle.c - lifecycle stress of the module.
 *
 *   vgpu_lifecycle [--rounds N] [--procs P] [--seed S] [--dev ID]
 *		    [--ko PATH] [--slab-slack KIB] [--slab-objs N]
 *		    [--unload-rounds N]
 *
 * Each round: create /dev/vgpuID (random workers and preemption mode),
 * start P processes that submit kernels (short ones, long ones, and
 * spinning ones on a channel with a short hang timeout) and tell us once
 * their first kernel is in; SIGKILL one of them at random; delete the
 * device while the others still have it open (they must then see ENODEV
 * and exit); unload the module; load it again.  The module must unload
 * every round (no reference left behind), and after the last round the
 * kmalloc slab caches must hold no more than --slab-slack KiB (default
 * 256) above what they held after the first round, and no slab cache at
 * all more than --slab-objs objects (default 64; counts taken after an
 * RCU grace period and a flush of the per-CPU slabs).  No hung-task
 * report may appear (/proc/sys/kernel/hung_task_warnings); kmemleak is
 * checked by scripts/vm-run from the kernel log.
 * Then the module is unloaded and loaded --unload-rounds times (default
 * 25) while other processes create, delete and poke instances
 * (vgpu_lc_unload_churn()); the run ends with the guest's power-off,
 * whose walk over every device vm-run's log check covers too.
 * No sleeps: every step waits for the event it needs (a pipe, waitpid).
 * TAP on stdout; exit status 0 on success.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/vgpu_dispatch.h>

#define VGPU_LC_MODULE	"vgpu_dispatch"

static const struct vgpu_insn vgpu_lc_short[] = {
	{ .op = VGPU_OP_LOOP, .imm = VGPU_LOOP_IMM(20, 0) },
	{ .op = VGPU_OP_ALU },
	{ .op = VGPU_OP_BAR },
	{ .op = VGPU_OP_ENDLOOP },
	{ .op = VGPU_OP_EXIT },
};

static const struct vgpu_insn vgpu_lc_long[] = {
	{ .op = VGPU_OP_LOOP, .imm = VGPU_LOOP_IMM(3000, 0) },
	{ .op = VGPU_OP_LOCK, .a = 1 },
	{ .op = VGPU_OP_MMA },
	{ .op = VGPU_OP_UNLOCK, .a = 1 },
	{ .op = VGPU_OP_ENDLOOP },
	{ .op = VGPU_OP_EXIT },
};

static const struct vgpu_insn vgpu_lc_spin[] = {
	{ .op = VGPU_OP_SPIN },
	{ .op = VGPU_OP_EXIT },
};

static int vgpu_lc_sysfs(const char *file, const char *line)
{
	int fd = open(file, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, line, strlen(line)) < 0)
		err = errno;
	close(fd);
	return err;
}

#define VGPU_LC_MAX_CACHES	512

/* Every cache's /sys/kernel/slab/<cache>/shrink, opened once. */
static int vgpu_lc_shrink_fd[VGPU_LC_MAX_CACHES];
static int vgpu_lc_nr_shrink;

/*
 * Open the shrink files once, before the first snapshot: opening and
 * closing some 150 sysfs files per snapshot would leave as many files and
 * kernfs nodes waiting for their RCU callbacks (call_rcu(), kfree_rcu())
 * when /proc/slabinfo is read, some 10 slabs of filp and kmalloc-96 that
 * come and go with the callbacks' timing.
 */
static void vgpu_lc_shrink_open(void)
{
	char path[320];
	struct dirent *e;
	DIR *d;
	int fd;

	d = opendir("/sys/kernel/slab");
	if (!d)
		return;
	while ((e = readdir(d)) && vgpu_lc_nr_shrink < VGPU_LC_MAX_CACHES) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink", e->d_name);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd >= 0)
			vgpu_lc_shrink_fd[vgpu_lc_nr_shrink++] = fd;
	}
	closedir(d);
}

/*
 * Make /proc/slabinfo's counts exact: wait for an RCU grace period (objects
 * freed by RCU, such as the task structs of reaped submitters), then
 * flush the per-CPU slabs of every cache (shrink), whose objects SLUB
 * counts as active whether in use or not.
 */
static void vgpu_lc_settle(void)
{
	int i;

	for (i = 0; i < 2; i++)	/* MEMBARRIER_CMD_GLOBAL: synchronize_rcu() */
		syscall(__NR_membarrier, 1, 0);
	for (i = 0; i < vgpu_lc_nr_shrink; i++)
		if (pwrite(vgpu_lc_shrink_fd[i], "1", 1, 0) < 0)
			continue;	/* a cache that went away */
}

/**
 * struct vgpu_lc_slab - active objects of every slab cache
 * @n: caches
 * @name: cache names
 * @active: active objects per cache
 * @size: object size per cache
 * @per_slab: objects per slab per cache
 */
struct vgpu_lc_slab {
	int n;
	char name[VGPU_LC_MAX_CACHES][64];
	long long active[VGPU_LC_MAX_CACHES];
	long long size[VGPU_LC_MAX_CACHES];
	long long per_slab[VGPU_LC_MAX_CACHES];
};

static struct vgpu_lc_slab vgpu_lc_base, vgpu_lc_now;

/* Snapshot /proc/slabinfo after vgpu_lc_settle(); 0 or -1. */
static int vgpu_lc_slab_snap(struct vgpu_lc_slab *s)
{
	FILE *f;
	char line[512];

	vgpu_lc_settle();
	f = fopen("/proc/slabinfo", "r");
	if (!f)
		return -1;
	s->n = 0;
	while (fgets(line, sizeof(line), f) && s->n < VGPU_LC_MAX_CACHES) {
		if (sscanf(line, "%63s %lld %*d %lld %lld", s->name[s->n],
			   &s->active[s->n], &s->size[s->n],
			   &s->per_slab[s->n]) == 4)
			s->n++;
	}
	fclose(f);
	return s->n ? 0 : -1;
}

/*
 * The checkers' own bookkeeping, not objects of the kernel: debugobjects
 * refills its pool of tracking objects in batches, and kmemleak keeps one
 * object per tracked allocation (a leak shows in the allocation's cache).
 */
static int vgpu_lc_slab_ignored(const char *name)
{
	return !strcmp(name, "debug_objects_cache") ||
	       !strcmp(name, "kmemleak_object");
}

/*
 * Compare every cache against the baseline: the number of caches that grew
 * by more than @slack objects, or by more than one slab's worth where a
 * slab holds more (SLUB counts a CPU's current slab as wholly in use, so a
 * small-object cache moves by up to a slab with who allocated last: seen
 * +282 kmalloc-8 objects, 512 to a slab, after the whole suite), each one
 * printed, and in *@kmalloc the
 * growth of the kmalloc caches in bytes.  The five largest growths are
 * printed as diagnostics either way.
 */
static int vgpu_lc_slab_cmp(const struct vgpu_lc_slab *b,
			    const struct vgpu_lc_slab *s, long long slack,
			    long long *kmalloc, int verbose)
{
	long long delta[VGPU_LC_MAX_CACHES];
	int i, j, bad = 0, top;

	*kmalloc = 0;
	for (i = 0; i < s->n; i++) {
		long long was = 0;

		delta[i] = 0;
		if (vgpu_lc_slab_ignored(s->name[i]))
			continue;

		for (j = 0; j < b->n; j++)
			if (!strcmp(b->name[j], s->name[i])) {
				was = b->active[j];
				break;
			}
		delta[i] = s->active[i] - was;
		if (!strncmp(s->name[i], "kmalloc-", 8))
			*kmalloc += delta[i] * s->size[i];
		if (delta[i] > slack && delta[i] > s->per_slab[i]) {
			if (verbose)
				printf("# slab cache %s: %+lld objects (%lld bytes each)\n",
				       s->name[i], delta[i], s->size[i]);
			bad++;
		}
	}
	if (!verbose)
		return bad;
	for (top = 0; top < 5; top++) {
		j = -1;
		for (i = 0; i < s->n; i++)
			if (delta[i] > 0 && (j < 0 || delta[i] > delta[j]))
				j = i;
		if (j < 0)
			break;
		printf("# slab: %s %+lld objects\n", s->name[j], delta[j]);
		delta[j] = 0;
	}
	return bad;
}

/* /proc/sys/kernel/hung_task_warnings: decremented on every report. */
static long vgpu_lc_hung_warnings(void)
{
	FILE *f = fopen("/proc/sys/kernel/hung_task_warnings", "r");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int vgpu_lc_loaded(void)
{
	FILE *f = fopen("/proc/modules", "r");
	char line[256];
	int found = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, VGPU_LC_MODULE " ", sizeof(VGPU_LC_MODULE)))
			found = 1;
	fclose(f);
	return found;
}

static int vgpu_lc_insmod(const char *ko)
{
	int fd = open(ko, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return errno;
	ret = syscall(SYS_finit_module, fd, "", 0);
	ret = ret ? errno : 0;
	close(fd);
	return ret;
}

static int vgpu_lc_rmmod(void)
{
	return syscall(SYS_delete_module, VGPU_LC_MODULE, O_NONBLOCK) ? errno : 0;
}

static int vgpu_lc_submit(int fd, __u32 ch, const struct vgpu_insn *p,
			  __u32 n, __u32 grid, __u32 *handle)
{
	struct vgpu_submit_desc d;
	struct vgpu_submit sub;

	memset(&d, 0, sizeof(d));
	d.channel = ch;
	d.grid = grid;
	d.threads = 128;
	d.regs = 32;
	d.program = (uintptr_t)p;
	d.num_insns = n;
	memset(&sub, 0, sizeof(sub));
	sub.count = 1;
	sub.desc_size = sizeof(d);
	sub.descs = (uintptr_t)&d;
	if (ioctl(fd, VGPU_IOCTL_SUBMIT, &sub))
		return errno;
	*handle = d.handle;
	return 0;
}

/*
 * A submitter: keeps up to 32 kernels in flight until the device goes away
 * (ENODEV: exit 0).  Writes one byte to @ready after its first kernel.
 */
static void vgpu_lc_submitter(const char *path, int ready, unsigned int seed)
{
	struct vgpu_channel_create cc;
	__u32 ch[2], h[32], n = 0, i;
	int fd = open(path, O_RDWR | O_CLOEXEC), err, told = 0;

	if (fd < 0)
		_exit(errno == ENODEV || errno == ENOENT ? 20 : 21);
	for (i = 0; i < 2; i++) {
		memset(&cc, 0, sizeof(cc));
		cc.priority = 2 + i;
		cc.timeout_cycles = i ? 20000 : 0;	/* 1: spinning kernels */
		if (ioctl(fd, VGPU_IOCTL_CHANNEL_CREATE, &cc))
			_exit(errno == ENODEV ? 0 : 22);
		ch[i] = cc.handle;
	}
	for (;;) {
		unsigned int r = rand_r(&seed) % 8;

		if (n < 32) {
			if (r == 0)
				err = vgpu_lc_submit(fd, ch[1], vgpu_lc_spin, 2,
						     1, &h[n]);
			else if (r < 3)
				err = vgpu_lc_submit(fd, ch[0], vgpu_lc_long, 6,
						     1 + r, &h[n]);
			else
				err = vgpu_lc_submit(fd, ch[0], vgpu_lc_short, 5,
						     1 + r, &h[n]);
			if (err == ENODEV)
				_exit(0);
			if (err && err != EAGAIN)
				_exit(23);
			if (!err)
				n++;
			if (!err && !told) {
				told = 1;
				if (write(ready, "r", 1) != 1)
					_exit(24);
			}
		}
		/* release what finished; a full table waits a little */
		for (i = 0; i < n; i++) {
			struct vgpu_kernel_query q;

			memset(&q, 0, sizeof(q));
			q.handle = h[i];
			q.flags = VGPU_QUERY_RELEASE;
			if (!ioctl(fd, VGPU_IOCTL_QUERY, &q)) {
				h[i--] = h[--n];
				continue;
			}
			if (errno == ENODEV)
				_exit(0);
			if (errno != EBUSY)
				_exit(25);
		}
		if (n == 32) {
			struct vgpu_wait w;
			struct timespec ts;

			clock_gettime(CLOCK_MONOTONIC, &ts);
			memset(&w, 0, sizeof(w));
			w.count = n;
			w.handles = (uintptr_t)h;
			w.timeout_ns = (__s64)ts.tv_sec * 1000000000LL +
				       ts.tv_nsec + 50000000;
			if (ioctl(fd, VGPU_IOCTL_WAIT, &w) && errno == ENODEV)
				_exit(0);
		}
	}
}

static int vgpu_lc_round(int round, int procs, int dev, unsigned int *seed,
			 const char *ko, char *why, size_t whylen)
{
	static const char *const opts[] = {
		"small workers=1", "small workers=2 preempt=switch",
		"small preempt=warp", "small num_sms=2 workers=2",
	};
	char line[96], path[32], c;
	pid_t pid[16], victim;
	int ready[2], i, err, status, got;

	snprintf(line, sizeof(line), "%d %s", dev, opts[rand_r(seed) % 4]);
	err = vgpu_lc_sysfs("/sys/bus/vgpu/new_device", line);
	if (err) {
		snprintf(why, whylen, "new_device \"%s\": %s", line, strerror(err));
		return -1;
	}
	snprintf(path, sizeof(path), "/dev/vgpu%d", dev);
	if (pipe2(ready, O_CLOEXEC)) {
		snprintf(why, whylen, "pipe: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < procs; i++) {
		pid[i] = fork();
		if (pid[i] < 0) {
			snprintf(why, whylen, "fork: %s", strerror(errno));
			return -1;
		}
		if (!pid[i]) {
			close(ready[0]);
			vgpu_lc_submitter(path, ready[1],
					  *seed + round * 100 + i);
		}
	}
	close(ready[1]);
	for (got = 0; got < procs && read(ready[0], &c, 1) == 1; got++)
		;
	close(ready[0]);
	if (got < procs) {
		snprintf(why, whylen, "only %d of %d submitters started", got,
			 procs);
		for (i = 0; i < procs; i++)
			kill(pid[i], SIGKILL);
	} else {
		victim = rand_r(seed) % procs;
		kill(pid[victim], SIGKILL);
		if (waitpid(pid[victim], &status, 0) != pid[victim] ||
		    !WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL) {
			snprintf(why, whylen, "victim not killed (0x%x)", status);
			got = -1;
		}
		pid[victim] = 0;
	}
	/* delete the device under the survivors' open files */
	snprintf(line, sizeof(line), "%d", dev);
	err = vgpu_lc_sysfs("/sys/bus/vgpu/del_device", line);
	if (err && got == procs) {
		snprintf(why, whylen, "del_device: %s", strerror(err));
		got = -1;
	}
	for (i = 0; i < procs; i++) {
		if (!pid[i])
			continue;
		if (waitpid(pid[i], &status, 0) != pid[i] ||
		    ((!WIFEXITED(status) || WEXITSTATUS(status)) &&
		     got == procs)) {
			snprintf(why, whylen,
				 "submitter %d did not exit cleanly after del_device (0x%x)",
				 i, status);
			got = -1;
		}
	}
	if (got != procs)
		return -1;
	err = vgpu_lc_rmmod();
	if (err) {
		snprintf(why, whylen, "rmmod: %s", strerror(err));
		return -1;
	}
	err = vgpu_lc_insmod(ko);
	if (err) {
		snprintf(why, whylen, "insmod %s: %s", ko, strerror(err));
		return -1;
	}
	return 0;
}

/*
 * Unload under churn: instances of two IDs created and deleted in a loop
 * by VGPU_LC_CHURNERS processes (one SIGKILLed and replaced each round),
 * VGPU_LC_POKERS processes opening the device files, calling them and
 * asking for new instances all the time, while the module is unloaded and
 * loaded again @rounds times.  A new_device that got in while the module
 * was going away used to add a device that outlived the module: its name
 * stayed in /sys/devices (the next module's new_device of that ID then
 * hit sysfs' duplicate-name warning) and the power-off's device walk read
 * the freed module.  After every unload nothing of ours may be left in
 * sysfs, the writes may fail only with the documented errors, and the
 * kernel may log nothing (read from /dev/kmsg; scripts/vm-run checks the
 * rest of the log, power-off included).
 */
#define VGPU_LC_CHURNERS	6
#define VGPU_LC_POKERS		4

static const char *const vgpu_lc_churn_ids[] = { "3", "4" };

/*
 * Writes to new_device / del_device that failed for another reason, by
 * errno (shared with the children; the last slot for errnos beyond).
 */
#define VGPU_LC_ERRNOS	64
static int *vgpu_lc_unexpected;

static void vgpu_lc_note(int err)
{
	/*
	 * EEXIST / ENOENT: ID taken / free; EBUSY: the module is going
	 * away; ENOENT also: the bus files are gone (module unloaded);
	 * ENODEV: a write to a bus file being removed (kernfs).
	 */
	if (err && err != EEXIST && err != ENOENT && err != EBUSY &&
	    err != ENODEV)
		__atomic_add_fetch(&vgpu_lc_unexpected[err < VGPU_LC_ERRNOS ?
				   err : VGPU_LC_ERRNOS - 1], 1,
				   __ATOMIC_RELAXED);
}

static void vgpu_lc_churner(unsigned int seed)
{
	char line[32];
	const char *id;

	for (;;) {
		id = vgpu_lc_churn_ids[rand_r(&seed) % 2];
		snprintf(line, sizeof(line), "%s small", id);
		vgpu_lc_note(vgpu_lc_sysfs("/sys/bus/vgpu/new_device", line));
		vgpu_lc_note(vgpu_lc_sysfs("/sys/bus/vgpu/del_device", id));
	}
}

static void vgpu_lc_poker(unsigned int seed)
{
	static const char *const nodes[] = {
		"/dev/vgpu0", "/dev/vgpu3", "/dev/vgpu4",
	};
	struct vgpu_channel_create cc;
	struct vgpu_info info;
	char line[32];
	int fd;

	for (;;) {
		unsigned int r = rand_r(&seed);

		fd = open(nodes[r % 3], O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			/* errors are fine: the device may be gone meanwhile */
			memset(&info, 0, sizeof(info));
			memset(&cc, 0, sizeof(cc));
			cc.priority = 2;
			if (!ioctl(fd, VGPU_IOCTL_GET_INFO, &info))
				ioctl(fd, VGPU_IOCTL_CHANNEL_CREATE, &cc);
			close(fd);
		}
		snprintf(line, sizeof(line), "%s small",
			 vgpu_lc_churn_ids[(r >> 8) % 2]);
		vgpu_lc_note(vgpu_lc_sysfs("/sys/bus/vgpu/new_device", line));
	}
}

static pid_t vgpu_lc_spawn(void (*fn)(unsigned int), unsigned int seed)
{
	pid_t pid = fork();

	if (!pid)
		fn(seed);	/* never returns */
	return pid;
}

/* Anything of the module's bus or devices still in sysfs. */
static int vgpu_lc_leftover(char *what, size_t len)
{
	struct dirent *e;
	DIR *d;
	int found = 0;

	if (!access("/sys/bus/vgpu", F_OK)) {
		snprintf(what, len, "/sys/bus/vgpu");
		return 1;
	}
	d = opendir("/sys/devices");
	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "vgpu", 4)) {
			snprintf(what, len, "/sys/devices/%.64s", e->d_name);
			found = 1;
			break;
		}
	closedir(d);
	return found;
}

/*
 * Kernel log lines since @fd was opened (and moved to the end) that report
 * a problem; the first one in @what.
 */
static int vgpu_lc_kmsg_reports(int fd, char *what, size_t len)
{
	static const char *const bad[] = {
		"WARNING:", "BUG:", "Oops", "KASAN", "UBSAN", "Call Trace",
		"cannot create duplicate", "kobject_add_internal failed",
		"general protection", "refcount_t:", "lockdep", "corruption",
	};
	char rec[2048];
	ssize_t n;
	int found = 0;
	unsigned int i;

	if (fd < 0)
		return 0;
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on */
		if (n <= 0)
			break;
		rec[n] = '\0';
		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
			if (strstr(rec, bad[i])) {
				if (!found++) {
					char *msg = strchr(rec, ';');

					snprintf(what, len, "%.100s",
						 msg ? msg + 1 : rec);
					what[strcspn(what, "\n")] = '\0';
				}
				break;
			}
	}
	return found;
}

static int vgpu_lc_rmmod_wait(void)
{
	int err, tries;

	/* the pokers' open files hold the module a moment at a time */
	for (tries = 0; tries < 200000; tries++) {
		err = vgpu_lc_rmmod();
		if (err != EAGAIN && err != EWOULDBLOCK && err != EBUSY)
			return err;
		sched_yield();
	}
	return err;
}

static int vgpu_lc_unload_churn(int rounds, const char *ko, unsigned int seed,
				char *why, size_t whylen)
{
	pid_t churn[VGPU_LC_CHURNERS], poke[VGPU_LC_POKERS];
	int kmsg, i, r, err = 0, reports, victim;
	char what[160];

	vgpu_lc_unexpected = mmap(NULL, VGPU_LC_ERRNOS * sizeof(int),
				  PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (vgpu_lc_unexpected == MAP_FAILED) {
		snprintf(why, whylen, "mmap: %s", strerror(errno));
		return -1;
	}
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg >= 0)
		lseek(kmsg, 0, SEEK_END);
	for (i = 0; i < VGPU_LC_CHURNERS; i++)
		churn[i] = vgpu_lc_spawn(vgpu_lc_churner, seed + i);
	for (i = 0; i < VGPU_LC_POKERS; i++)
		poke[i] = vgpu_lc_spawn(vgpu_lc_poker, seed + 100 + i);
	for (r = 0; r < rounds && !err; r++) {
		victim = rand_r(&seed) % VGPU_LC_CHURNERS;
		kill(churn[victim], SIGKILL);
		waitpid(churn[victim], NULL, 0);
		churn[victim] = vgpu_lc_spawn(vgpu_lc_churner, seed + r * 10);
		err = vgpu_lc_rmmod_wait();
		if (err) {
			snprintf(why, whylen, "round %d: rmmod: %s", r,
				 strerror(err));
			break;
		}
		if (vgpu_lc_leftover(what, sizeof(what))) {
			snprintf(why, whylen,
				 "round %d: %.80s still there after rmmod", r,
				 what);
			err = -1;
			break;
		}
		err = vgpu_lc_insmod(ko);
		if (err)
			snprintf(why, whylen, "round %d: insmod: %s", r,
				 strerror(err));
	}
	for (i = 0; i < VGPU_LC_CHURNERS; i++)
		kill(churn[i], SIGKILL);
	for (i = 0; i < VGPU_LC_POKERS; i++)
		kill(poke[i], SIGKILL);
	for (i = 0; i < VGPU_LC_CHURNERS; i++)
		waitpid(churn[i], NULL, 0);
	for (i = 0; i < VGPU_LC_POKERS; i++)
		waitpid(poke[i], NULL, 0);
	printf("# %d unload rounds under churn\n", r);
	if (!err && !vgpu_lc_loaded() && vgpu_lc_insmod(ko)) {
		snprintf(why, whylen, "insmod: %s", strerror(errno));
		err = -1;
	}
	/* the IDs of the churn are free and usable again, cleanly */
	for (i = 0; i < 2 && !err; i++) {
		char line[32];

		vgpu_lc_sysfs("/sys/bus/vgpu/del_device", vgpu_lc_churn_ids[i]);
		snprintf(line, sizeof(line), "%s small", vgpu_lc_churn_ids[i]);
		err = vgpu_lc_sysfs("/sys/bus/vgpu/new_device", line);
		if (!err)
			err = vgpu_lc_sysfs("/sys/bus/vgpu/del_device",
					    vgpu_lc_churn_ids[i]);
		if (err)
			snprintf(why, whylen, "vgpu%s afterwards: %s",
				 vgpu_lc_churn_ids[i], strerror(err));
	}
	for (i = 0; i < VGPU_LC_ERRNOS; i++) {
		if (!vgpu_lc_unexpected[i])
			continue;
		printf("# %d new_device/del_device writes failed with %s\n",
		       vgpu_lc_unexpected[i], strerror(i));
		if (!err) {
			snprintf(why, whylen,
				 "new_device/del_device failed with an undocumented errno (%s)",
				 strerror(i));
			err = -1;
		}
	}
	reports = vgpu_lc_kmsg_reports(kmsg, what, sizeof(what));
	if (!err && reports) {
		snprintf(why, whylen, "%d kernel log reports, first: %.100s",
			 reports, what);
		err = -1;
	}
	if (kmsg >= 0)
		close(kmsg);
	munmap(vgpu_lc_unexpected, VGPU_LC_ERRNOS * sizeof(int));
	return err ? -1 : 0;
}

int main(int argc, char **argv)
{
	const char *ko = "/vgpu/vgpu_dispatch.ko";
	int rounds = 20, procs = 4, dev = 12, i, ok = 1, have_base = 0, bad;
	int unload_rounds = 25;
	long long slack = 256, slack_objs = 32, kmalloc;
	long hung0 = vgpu_lc_hung_warnings(), hung1;
	unsigned int seed = 1;
	struct timespec t0, t1;
	char why[160] = "";

	for (i = 1; i < argc; i++) {
		if (i + 1 >= argc)
			goto usage;
		if (!strcmp(argv[i], "--rounds"))
			rounds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--procs"))
			procs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--seed"))
			seed = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--dev"))
			dev = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--ko"))
			ko = argv[++i];
		else if (!strcmp(argv[i], "--slab-slack"))
			slack = atoll(argv[++i]);
		else if (!strcmp(argv[i], "--slab-objs"))
			slack_objs = atoll(argv[++i]);
		else if (!strcmp(argv[i], "--unload-rounds"))
			unload_rounds = atoi(argv[++i]);
		else
			goto usage;
	}
	if (rounds < 1 || procs < 2 || procs > 16 || dev < 1 || dev > 15 ||
	    dev == 3 || dev == 4 || unload_rounds < 0)
		goto usage;
	printf("TAP version 13\n1..6\n");
	fflush(stdout);
	if (!vgpu_lc_loaded() && vgpu_lc_insmod(ko)) {
		printf("not ok 1 lifecycle.rounds # insmod %s: %s\n", ko,
		       strerror(errno));
		printf("not ok 2 lifecycle.module_loaded_after\nnot ok 3 lifecycle.slab_back_to_baseline # skipped\n");
		printf("not ok 4 lifecycle.slab_caches_back_to_baseline # skipped\nnot ok 5 lifecycle.no_hung_task # skipped\n");
		printf("not ok 6 lifecycle.unload_under_churn # skipped\n");
		return 1;
	}
	vgpu_lc_shrink_open();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < rounds; i++) {
		if (vgpu_lc_round(i, procs, dev, &seed, ko, why, sizeof(why))) {
			ok = 0;
			break;
		}
		if (i == 0)
			have_base = !vgpu_lc_slab_snap(&vgpu_lc_base);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("# %d of %d rounds in %.1f s (%d submitters each, one SIGKILLed)\n",
	       i, rounds, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       procs);
	if (ok)
		printf("ok 1 lifecycle.rounds\n");
	else
		printf("not ok 1 lifecycle.rounds # round %d: %s\n", i, why);
	if (vgpu_lc_loaded()) {
		printf("ok 2 lifecycle.module_loaded_after\n");
	} else {
		printf("not ok 2 lifecycle.module_loaded_after\n");
		ok = 0;
	}
	/*
	 * Slab counts after the last round against those after round 1 (the
	 * caches are warm by then): the kmalloc caches in bytes, and every
	 * cache in objects, so that objects still referenced (which kmemleak
	 * does not report) but piling up round after round show too.
	 */
	if (!have_base || vgpu_lc_slab_snap(&vgpu_lc_now)) {
		printf("ok 3 lifecycle.slab_back_to_baseline # SKIP no /proc/slabinfo or no round\n");
		printf("ok 4 lifecycle.slab_caches_back_to_baseline # SKIP no /proc/slabinfo or no round\n");
	} else {
		/*
		 * Objects freed through call_rcu() (files, their LSM blobs)
		 * may still wait for their callbacks after the grace period
		 * vgpu_lc_settle() waited for: a cache over the slack is
		 * looked at again, up to 20 times 100 ms; a leak stays.
		 */
		for (i = 0; i < 20; i++) {
			if (!vgpu_lc_slab_cmp(&vgpu_lc_base, &vgpu_lc_now,
					      slack_objs, &kmalloc, 0) &&
			    kmalloc <= slack * 1024)
				break;
			usleep(100000);
			if (vgpu_lc_slab_snap(&vgpu_lc_now))
				break;
		}
		if (i)
			printf("# slab counts looked at %d more times\n", i);
		bad = vgpu_lc_slab_cmp(&vgpu_lc_base, &vgpu_lc_now, slack_objs,
				       &kmalloc, 1);
		if (kmalloc > slack * 1024) {
			printf("not ok 3 lifecycle.slab_back_to_baseline # kmalloc caches grew by %lld KiB (slack %lld)\n",
			       kmalloc / 1024, slack);
			ok = 0;
		} else {
			printf("ok 3 lifecycle.slab_back_to_baseline # kmalloc caches %+lld KiB after round 1\n",
			       kmalloc / 1024);
		}
		if (bad) {
			printf("not ok 4 lifecycle.slab_caches_back_to_baseline # %d of %d caches grew by more than %lld objects and a slab\n",
			       bad, vgpu_lc_now.n, slack_objs);
			ok = 0;
		} else {
			printf("ok 4 lifecycle.slab_caches_back_to_baseline # %d caches within %lld objects or a slab of round 1\n",
			       vgpu_lc_now.n, slack_objs);
		}
	}
	hung1 = vgpu_lc_hung_warnings();
	if (hung0 < 0 || hung1 < 0) {
		printf("ok 5 lifecycle.no_hung_task # SKIP no hung-task detector\n");
	} else if (hung1 != hung0) {
		printf("not ok 5 lifecycle.no_hung_task # %ld hung-task reports\n",
		       hung0 - hung1);
		ok = 0;
	} else {
		printf("ok 5 lifecycle.no_hung_task\n");
	}
	fflush(stdout);
	if (!unload_rounds) {
		printf("ok 6 lifecycle.unload_under_churn # SKIP --unload-rounds 0\n");
	} else if (vgpu_lc_unload_churn(unload_rounds, ko, seed, why,
					sizeof(why))) {
		printf("not ok 6 lifecycle.unload_under_churn # %s\n", why);
		ok = 0;
	} else {
		printf("ok 6 lifecycle.unload_under_churn\n");
	}
	return ok ? 0 : 1;
usage:
	fprintf(stderr, "usage: vgpu_lifecycle [--rounds N] [--procs P] [--seed S] [--dev ID] [--ko PATH] [--slab-slack KIB] [--slab-objs N] [--unload-rounds N]\n");
	return 2;
}
