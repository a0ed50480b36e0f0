// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_nlfuzz.c - fuzzer of the generic netlink family "vgpu".
 *
 *   vgpu_nlfuzz [--msgs N] [--seed S] [--procs P] [--dev ID]
 *
 * P processes (one of them unprivileged, uid nobody) send N requests in all
 * over raw generic netlink sockets: every command number (the three request
 * commands, EVENT, and unknown ones), doit and dump, random sets of valid,
 * reply-only and unknown attributes with random sizes and payloads, nested
 * and truncated attributes, short and over-long headers and trailing bytes.
 * Requests that change a device (CONFIG_SET) only ever name /dev/vgpuID, a
 * device the fuzzer creates and, from a churn process, deletes and
 * re-creates while requests are in flight; the others may name any index.
 *
 * Every reply must be success or one of the errnos Documentation/netlink.rst
 * documents: EINVAL, EPERM, EOPNOTSUPP, EMSGSIZE, and ERANGE (policy ranges),
 * ENODEV (no such device) and ENOENT (unknown policy).  Anything else, a
 * request without an answer, or a child killed by a signal fails the run.
 * TAP on stdout; exit status 0 on success.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/vgpu_netlink.h>

#define VGPU_NF_NERR	134
#define VGPU_NF_NCMD	6	/* UNSPEC, 3 requests, EVENT, unknown */
#define VGPU_NF_BAD_MAX	16
#define VGPU_NF_BUF	65536

static const char *const vgpu_nf_names[VGPU_NF_NCMD] = {
	"UNSPEC", "DEV_GET", "STATS_GET", "CONFIG_SET", "EVENT", "unknown",
};

struct vgpu_nf_shared {
	unsigned long count[VGPU_NF_NCMD][2][VGPU_NF_NERR]; /* [cmd][dump][err] */
	unsigned long msgs, replies, noreply, churn;
	unsigned long nbad;
	struct {
		int cmd, dump, err, uid;
	} bad[VGPU_NF_BAD_MAX];
};

static struct vgpu_nf_shared *vgpu_nf_sh;

struct vgpu_nf {
	int sock;
	__u16 family;
	__u32 seq;
	unsigned long long rng;
	int dev;
	char buf[VGPU_NF_BUF] __attribute__((aligned(8)));
};

static unsigned long long vgpu_nf_rand(struct vgpu_nf *f)
{
	f->rng ^= f->rng >> 12;
	f->rng ^= f->rng << 25;
	f->rng ^= f->rng >> 27;
	return f->rng * 0x2545F4914F6CDD1DULL;
}

static unsigned int vgpu_nf_below(struct vgpu_nf *f, unsigned int n)
{
	return n ? (unsigned int)(vgpu_nf_rand(f) >> 33) % n : 0;
}

static int vgpu_nf_chance(struct vgpu_nf *f, unsigned int percent)
{
	return vgpu_nf_below(f, 100) < percent;
}

static void vgpu_nf_add(unsigned long *c)
{
	__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
}

static int vgpu_nf_open(void)
{
	struct timeval tv = { .tv_sec = 20 };
	int s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	int one = 1, big = 1 << 20;

	if (s < 0)
		return -1;
	/* a lost answer fails the run instead of hanging it */
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(s, SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
	setsockopt(s, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	return s;
}

/* Append an attribute; returns the new length. */
static size_t vgpu_nf_put(char *msg, size_t len, __u16 type, const void *data,
			  __u16 dlen)
{
	struct nlattr *a = (void *)(msg + len);

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + dlen;
	if (dlen)
		memcpy(a + 1, data, dlen);
	memset((char *)(a + 1) + dlen, 0, NLA_ALIGN(dlen) - dlen);
	return len + NLA_HDRLEN + NLA_ALIGN(dlen);
}

/*
 * Receive until the answer to @seq: an NLMSG_ERROR (doit, or a failed dump)
 * or NLMSG_DONE (dump).  Returns the positive errno, 0, or -1 when none came.
 */
static int vgpu_nf_answer(struct vgpu_nf *f, __u32 seq)
{
	for (;;) {
		ssize_t n = recv(f->sock, f->buf, sizeof(f->buf), 0);
		struct nlmsghdr *h;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS)	/* our own receive queue */
				continue;
			return -1;
		}
		for (h = (void *)f->buf; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);

				return -e->error;
			}
			if (h->nlmsg_type == NLMSG_DONE) {
				int err = 0;

				if (h->nlmsg_len >= NLMSG_LENGTH(sizeof(int)))
					memcpy(&err, NLMSG_DATA(h), sizeof(err));
				return -err;
			}
		}
	}
}

static int vgpu_nf_resolve(struct vgpu_nf *f)
{
	char msg[128] __attribute__((aligned(8)));
	struct nlmsghdr *h = (void *)msg;
	struct genlmsghdr *g = NLMSG_DATA(h);
	size_t len = NLMSG_LENGTH(GENL_HDRLEN);
	int n;

	memset(msg, 0, sizeof(msg));
	len = vgpu_nf_put(msg, len, CTRL_ATTR_FAMILY_NAME, VGPU_FAMILY_NAME,
			  sizeof(VGPU_FAMILY_NAME));
	h->nlmsg_len = len;
	h->nlmsg_type = GENL_ID_CTRL;
	h->nlmsg_flags = NLM_F_REQUEST;
	h->nlmsg_seq = ++f->seq;
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	if (send(f->sock, msg, len, 0) != (ssize_t)len)
		return -1;
	n = recv(f->sock, f->buf, sizeof(f->buf), 0);
	h = (void *)f->buf;
	if (n < 0 || !NLMSG_OK(h, n) || h->nlmsg_type != GENL_ID_CTRL)
		return -1;
	{
		struct nlattr *a = (void *)((char *)NLMSG_DATA(h) + GENL_HDRLEN);
		int rem = h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);

		while (rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
		       a->nla_len <= rem) {
			if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID) {
				memcpy(&f->family, a + 1, sizeof(f->family));
				return 0;
			}
			rem -= NLA_ALIGN(a->nla_len);
			a = (void *)((char *)a + NLA_ALIGN(a->nla_len));
		}
	}
	return -1;
}

/* One random attribute appended to @msg (at most ~300 bytes). */
static size_t vgpu_nf_attr(struct vgpu_nf *f, char *msg, size_t len, int cmd)
{
	static const char *const policies[] = {
		"rr", "avail", "nope", "", "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr",
	};
	char data[300];
	__u32 u32v;
	__u64 u64v;
	unsigned int type, dlen, i;

	switch (vgpu_nf_below(f, 12)) {
	case 0:
	case 1:
		u32v = vgpu_nf_chance(f, 50) ? f->dev : vgpu_nf_below(f, 20);
		if (cmd == VGPU_CMD_CONFIG_SET)
			u32v = f->dev;
		return vgpu_nf_put(msg, len, VGPU_A_DEV_INDEX, &u32v, 4);
	case 2: {
		const char *p = policies[vgpu_nf_below(f, 5)];

		if (vgpu_nf_chance(f, 80))
			return vgpu_nf_put(msg, len, VGPU_A_POLICY, p,
					   strlen(p) + 1);
		/* not NUL-terminated */
		return vgpu_nf_put(msg, len, VGPU_A_POLICY, p, strlen(p));
	}
	case 3:
		u32v = vgpu_nf_below(f, 5);
		return vgpu_nf_put(msg, len, VGPU_A_PREEMPT, &u32v, 4);
	case 4: {
		__u32 w[40];
		unsigned int n = vgpu_nf_below(f, 10), prev = 1 << 20;

		for (i = 0; i < n && i < 40; i++) {
			w[i] = vgpu_nf_chance(f, 80) ? prev / 2 :
			       (__u32)vgpu_nf_rand(f);
			prev = w[i] ? w[i] : 1;
		}
		dlen = n * 4;
		if (vgpu_nf_chance(f, 15))
			dlen += 1 + vgpu_nf_below(f, 3);
		if (vgpu_nf_chance(f, 5))
			dlen = 4 * (20 + vgpu_nf_below(f, 20));
		memset(data, 0, sizeof(data));
		memcpy(data, w, n * 4);
		return vgpu_nf_put(msg, len, VGPU_A_WINDOWS, data, dlen);
	}
	case 5:
		u64v = vgpu_nf_chance(f, 50) ? 1000 + vgpu_nf_below(f, 1000000) :
		       vgpu_nf_rand(f) >> vgpu_nf_below(f, 64);
		return vgpu_nf_put(msg, len, VGPU_A_TIMEOUT, &u64v, 8);
	case 6:
		u32v = vgpu_nf_chance(f, 50) ? 1 + vgpu_nf_below(f, 65536) :
		       (__u32)vgpu_nf_rand(f);
		return vgpu_nf_put(msg, len, VGPU_A_EVENT_BUDGET, &u32v, 4);
	case 7: {
		/* a nest of random stats attributes (reply-only) */
		char inner[64];
		size_t il = 0;

		memset(inner, 0, sizeof(inner));
		u64v = vgpu_nf_rand(f);
		il = vgpu_nf_put(inner, il, vgpu_nf_below(f, 26), &u64v, 8);
		il = vgpu_nf_put(inner, il, vgpu_nf_below(f, 26), &u64v, 4);
		return vgpu_nf_put(msg, len,
				   (VGPU_A_STATS + vgpu_nf_below(f, 4)) |
				   (vgpu_nf_chance(f, 50) ? NLA_F_NESTED : 0),
				   inner, il);
	}
	default:
		/* any type, any size, any bytes, maybe with flag bits */
		type = vgpu_nf_below(f, 40);
		if (vgpu_nf_chance(f, 10))
			type |= NLA_F_NESTED;
		if (vgpu_nf_chance(f, 5))
			type |= NLA_F_NET_BYTEORDER;
		dlen = vgpu_nf_chance(f, 70) ? vgpu_nf_below(f, 17) :
		       vgpu_nf_below(f, sizeof(data));
		for (i = 0; i < dlen; i++)
			data[i] = (char)vgpu_nf_rand(f);
		return vgpu_nf_put(msg, len, type, data, dlen);
	}
}

static int vgpu_nf_allowed(int err)
{
	switch (err) {
	case 0:
	case EINVAL:
	case EPERM:
	case EOPNOTSUPP:
	case EMSGSIZE:
	case ERANGE:
	case ENODEV:
	case ENOENT:
		return 1;
	}
	return 0;
}

static void vgpu_nf_bad(int cmd, int dump, int err)
{
	unsigned long i = __atomic_fetch_add(&vgpu_nf_sh->nbad, 1,
					     __ATOMIC_RELAXED);

	if (i >= VGPU_NF_BAD_MAX)
		return;
	vgpu_nf_sh->bad[i].cmd = cmd;
	vgpu_nf_sh->bad[i].dump = dump;
	vgpu_nf_sh->bad[i].err = err;
	vgpu_nf_sh->bad[i].uid = getuid();
}

static void vgpu_nf_one(struct vgpu_nf *f)
{
	static char msg[4096] __attribute__((aligned(8)));
	struct nlmsghdr *h = (void *)msg;
	struct genlmsghdr *g = NLMSG_DATA(h);
	size_t len = NLMSG_LENGTH(GENL_HDRLEN), sent;
	unsigned int i, nattr = vgpu_nf_below(f, 6), r = vgpu_nf_below(f, 100);
	int cmd, dump, slot, err;

	if (r < 85)
		cmd = 1 + vgpu_nf_below(f, 3);
	else if (r < 90)
		cmd = vgpu_nf_chance(f, 50) ? VGPU_CMD_UNSPEC : VGPU_CMD_EVENT;
	else
		cmd = vgpu_nf_below(f, 256);
	dump = vgpu_nf_chance(f, 30);
	memset(msg, 0, sizeof(msg));
	for (i = 0; i < nattr; i++)
		len = vgpu_nf_attr(f, msg, len, cmd);
	/* CONFIG_SET always names our device, and only that */
	if (cmd == VGPU_CMD_CONFIG_SET) {
		__u32 d = f->dev;

		len = vgpu_nf_put(msg, len, VGPU_A_DEV_INDEX, &d, 4);
	}
	sent = len;
	switch (vgpu_nf_below(f, 20)) {
	case 0:		/* trailing bytes shorter than an attribute */
		sent = len + 1 + vgpu_nf_below(f, 3);
		break;
	case 1:		/* cut inside the last attribute */
		if (len > NLMSG_LENGTH(GENL_HDRLEN) + 1)
			sent = len - 1 - vgpu_nf_below(f, 3);
		break;
	case 2:		/* truncated generic netlink header */
		sent = NLMSG_HDRLEN + vgpu_nf_below(f, GENL_HDRLEN);
		break;
	default:
		break;
	}
	h->nlmsg_len = sent;
	h->nlmsg_type = f->family;
	h->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | (dump ? NLM_F_DUMP : 0);
	h->nlmsg_seq = ++f->seq;
	g->cmd = cmd;
	g->version = vgpu_nf_chance(f, 90) ? VGPU_FAMILY_VERSION :
		     vgpu_nf_below(f, 256);
	if (vgpu_nf_chance(f, 5))
		g->reserved = vgpu_nf_rand(f);
	vgpu_nf_add(&vgpu_nf_sh->msgs);
	if (send(f->sock, msg, NLMSG_ALIGN(sent), 0) < 0) {
		/* the kernel refused the datagram itself */
		err = errno;
	} else {
		err = vgpu_nf_answer(f, h->nlmsg_seq);
		if (err < 0) {
			vgpu_nf_add(&vgpu_nf_sh->noreply);
			vgpu_nf_bad(cmd, dump, ETIMEDOUT);
			return;
		}
		vgpu_nf_add(&vgpu_nf_sh->replies);
	}
	slot = cmd <= VGPU_CMD_EVENT ? cmd : 5;
	__atomic_fetch_add(&vgpu_nf_sh->count[slot][dump][err < VGPU_NF_NERR ?
							   err : VGPU_NF_NERR - 1],
			   1, __ATOMIC_RELAXED);
	if (!vgpu_nf_allowed(err))
		vgpu_nf_bad(cmd, dump, err);
}

static int vgpu_nf_sysfs(const char *file, const char *line)
{
	int fd = open(file, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, line, strlen(line)) < 0)
		err = errno;
	close(fd);
	return err;
}

static void vgpu_nf_worker(int index, unsigned long msgs,
			   unsigned long long seed, int dev, int unpriv,
			   int tick_fd)
{
	struct vgpu_nf *f = calloc(1, sizeof(*f));
	unsigned long i;

	if (!f)
		_exit(3);
	if (unpriv && (setgid(65534) || setuid(65534))) {
		perror("vgpu_nlfuzz: setuid");
		_exit(3);
	}
	f->rng = (seed + 1) * 0x9E3779B97F4A7C15ULL ^ ((__u64)index << 40) ^ 1;
	f->dev = dev;
	f->sock = vgpu_nf_open();
	if (f->sock < 0 || vgpu_nf_resolve(f)) {
		fprintf(stderr, "vgpu_nlfuzz: family \"%s\" not found\n",
			VGPU_FAMILY_NAME);
		_exit(4);
	}
	for (i = 0; i < msgs; i++) {
		if (i % 64 == 63 && tick_fd >= 0 &&
		    write(tick_fd, "t", 1) < 0 && errno != EAGAIN)
			_exit(5);
		vgpu_nf_one(f);
	}
	_exit(0);
}

/* Delete and re-create the fuzzed device on the workers' ticks. */
static void vgpu_nf_churn(int dev, int tick_fd)
{
	char line[64], c;
	unsigned long n = 0;
	int err;

	while (read(tick_fd, &c, 1) == 1) {
		if (n++ & 1) {
			snprintf(line, sizeof(line), "%d small workers=1", dev);
			err = vgpu_nf_sysfs("/sys/bus/vgpu/new_device", line);
			if (err && err != EEXIST)
				_exit(6);
		} else {
			snprintf(line, sizeof(line), "%d", dev);
			err = vgpu_nf_sysfs("/sys/bus/vgpu/del_device", line);
			if (err && err != ENOENT)
				_exit(7);
		}
		vgpu_nf_add(&vgpu_nf_sh->churn);
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	unsigned long msgs = 50000, tot[VGPU_NF_NERR] = { 0 };
	unsigned long long seed = 1;
	int procs = 3, dev = 10, i, c, d, e, tick[2], status, crashed = 0, ok;
	struct vgpu_nf_shared *s;
	struct timespec t0, t1;
	pid_t churn, *pids;
	char line[64];

	for (i = 1; i < argc; i++) {
		if (i + 1 >= argc)
			goto usage;
		if (!strcmp(argv[i], "--msgs"))
			msgs = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--seed"))
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--procs"))
			procs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--dev"))
			dev = atoi(argv[++i]);
		else
			goto usage;
	}
	if (procs < 2 || dev < 1 || dev > 15 || !msgs)
		goto usage;
	printf("TAP version 13\n1..1\n");
	fflush(stdout);
	s = vgpu_nf_sh = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc(procs, sizeof(*pids));
	if (s == MAP_FAILED || !pids || pipe2(tick, O_CLOEXEC)) {
		perror("vgpu_nlfuzz: setup");
		return 1;
	}
	fcntl(tick[1], F_SETFL, O_NONBLOCK);
	snprintf(line, sizeof(line), "%d small workers=1", dev);
	e = vgpu_nf_sysfs("/sys/bus/vgpu/new_device", line);
	if (e && e != EEXIST) {
		printf("not ok 1 vgpu_nlfuzz.errnos_documented # new_device \"%s\": %s\n",
		       line, strerror(e));
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	churn = fork();
	if (!churn) {
		close(tick[1]);
		vgpu_nf_churn(dev, tick[0]);
	}
	close(tick[0]);
	for (i = 0; i < procs; i++) {
		pids[i] = fork();
		if (!pids[i])
			vgpu_nf_worker(i, msgs / procs + 1, seed, dev,
				       i == procs - 1, i == 0 ? tick[1] : -1);
	}
	close(tick[1]);
	for (i = 0; i < procs; i++) {
		if (pids[i] < 0 || waitpid(pids[i], &status, 0) != pids[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status)) {
			printf("# worker %d failed (status 0x%x)\n", i, status);
			crashed++;
		}
	}
	if (churn < 0 || waitpid(churn, &status, 0) != churn ||
	    !WIFEXITED(status) || WEXITSTATUS(status)) {
		printf("# churn process failed (status 0x%x)\n", status);
		crashed++;
	}
	snprintf(line, sizeof(line), "%d", dev);
	e = vgpu_nf_sysfs("/sys/bus/vgpu/del_device", line);
	if (e && e != ENOENT)
		crashed++;
	clock_gettime(CLOCK_MONOTONIC, &t1);

	printf("# %lu requests in %.1f s, %lu answered, %lu unanswered, seed %llu, %d processes (the last as nobody), %lu device add/del\n",
	       s->msgs, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       s->replies, s->noreply, seed, procs, s->churn);
	for (c = 0; c < VGPU_NF_NCMD; c++) {
		for (d = 0; d < 2; d++) {
			unsigned long n = 0;

			for (e = 0; e < VGPU_NF_NERR; e++)
				n += s->count[c][d][e];
			if (!n)
				continue;
			printf("# %-10s %-4s %7lu:", vgpu_nf_names[c],
			       d ? "dump" : "doit", n);
			for (e = 0; e < VGPU_NF_NERR; e++) {
				if (!s->count[c][d][e])
					continue;
				tot[e] += s->count[c][d][e];
				printf(" %s=%lu",
				       e ? strerrorname_np(e) ?: "?" : "ok",
				       s->count[c][d][e]);
			}
			printf("\n");
		}
	}
	printf("# total          ");
	for (e = 0; e < VGPU_NF_NERR; e++)
		if (tot[e])
			printf(" %s=%lu", e ? strerrorname_np(e) ?: "?" : "ok",
			       tot[e]);
	printf("\n");
	for (i = 0; i < (int)s->nbad && i < VGPU_NF_BAD_MAX; i++)
		printf("# UNDOCUMENTED: cmd %d %s as uid %d: %s (%d)\n",
		       s->bad[i].cmd, s->bad[i].dump ? "dump" : "doit",
		       s->bad[i].uid, strerrorname_np(s->bad[i].err) ?: "?",
		       s->bad[i].err);
	ok = !s->nbad && !crashed;
	printf("%s 1 vgpu_nlfuzz.errnos_documented (%lu requests, %lu undocumented, %d crashed)\n",
	       ok ? "ok" : "not ok", s->msgs, s->nbad, crashed);
	return ok ? 0 : 1;
usage:
	fprintf(stderr, "usage: vgpu_nlfuzz [--msgs N] [--seed S] [--procs P>=2] [--dev ID]\n");
	return 2;
}
