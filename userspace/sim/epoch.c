// SPDX-License-Identifier: GPL-2.0
/*
 * Advancing the SMs of an epoch on several threads (F50, F51).
 *
 * Inside an epoch each SM's engine writes only that SM's state (its engine,
 * warp pool, shadow and event buffer; driver/core/gpu.h), so the SMs can
 * advance in any order on any thread: the controller merges their events
 * at the boundary in (cycle, SM, sequence) order, and the trace is the
 * same bit for bit whatever the number of threads (the module's workers
 * rely on the same property).
 *
 * A team is the calling thread (member 0) plus n - 1 helpers.  Each member
 * has a home range of the SMs, the same in every epoch, so that an SM's
 * state stays in the cache of the core that advanced it last time.  Each
 * epoch, every member claims chunks of consecutive SMs from its own range
 * and then from the others' (SMs differ in load, so the work is not split
 * up front), and adds what it advanced to the done count once, at the
 * end; the caller returns once every SM is done.  It never waits for a
 * helper that has not claimed anything: on a busy machine a helper that is
 * not running costs nothing, and one that wakes late finds no work left
 * (or works on the next epoch, whose claims it sees after the dispatch).
 * The claim counters, the epoch generation and the done count each have a
 * cache line of their own: a member claiming work does not take the line
 * the others are spinning on.  Epochs are short (64 cycles by default), so
 * members wait for the next epoch and for each other by spinning a little
 * before sleeping on a condition variable; and an epoch in which fewer
 * than VGPU_TEAM_MIN_BUSY SMs per member hold blocks is not worth a
 * hand-off: the caller advances it alone.  The environment variable
 * VGPU_SIM_TEAM_MIN_BUSY overrides that figure (0: always hand off; for
 * tests).
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "run.h"

/* Spins before a member sleeps (about 0.2 ms on the build machine). */
#define VGPU_TEAM_SPIN		20000

/* SMs holding blocks, per member, for an epoch to be handed off. */
#define VGPU_TEAM_MIN_BUSY	4

/* Claims per member's range and epoch, for balance. */
#define VGPU_TEAM_CLAIMS	8

#define VGPU_TEAM_LINE		64

struct vgpu_sim_team;

/**
 * struct vgpu_team_member - one member of a team, on cache lines of its own
 * @next: first SM of its home range not yet claimed in this epoch
 * @end: end of its home range (exclusive)
 * @t: its team
 * @id: its index, 0 for the caller
 * @th: its thread (helpers)
 */
struct vgpu_team_member {
	atomic_uint next;
	u32 end;
	struct vgpu_sim_team *t;
	u32 id;
	pthread_t th;
} __attribute__((aligned(VGPU_TEAM_LINE)));

/**
 * struct vgpu_sim_team - the threads advancing one device's SMs
 * @g: the device
 * @n: members, the caller included
 * @chunk: SMs claimed at a time
 * @min_busy: SMs holding blocks needed for an epoch to be handed off
 * @m: the members, @n of them
 * @gen: epoch generation; a change starts the helpers
 * @stop: the helpers exit
 * @done: SMs advanced in this epoch
 * @sleepers: helpers asleep on @go
 * @waiting: the caller is asleep on @finished
 * @lock: protects the sleeps
 * @go: a new epoch (or @stop)
 * @finished: the last SM is done
 */
struct vgpu_sim_team {
	struct vgpu_gpu *g;
	u32 n;
	u32 chunk;
	u32 min_busy;
	struct vgpu_team_member *m;
	atomic_uint gen __attribute__((aligned(VGPU_TEAM_LINE)));
	atomic_bool stop;
	atomic_uint done __attribute__((aligned(VGPU_TEAM_LINE)));
	atomic_uint sleepers __attribute__((aligned(VGPU_TEAM_LINE)));
	atomic_bool waiting;
	pthread_mutex_t lock;
	pthread_cond_t go;
	pthread_cond_t finished;
};

static inline void vgpu_team_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/*
 * Claim chunks of SMs, from member @me's range first, until none is left.
 * A claim (seq_cst) that sees a counter reset for an epoch sees that
 * epoch's dispatch; adding to @done publishes the SMs' state to the
 * caller.  The count is added once, after the last claim: until then the
 * epoch cannot end, so every claim of one call is of the same epoch.
 */
static void vgpu_team_work(struct vgpu_sim_team *t, u32 me)
{
	u32 nsm = t->g->cfg.num_sms, did = 0, first, n, i;
	struct vgpu_team_member *m;

	for (i = 0; i < t->n; i++) {
		m = &t->m[(me + i) % t->n];
		while ((first = atomic_fetch_add(&m->next, t->chunk)) <
		       m->end) {
			n = min(t->chunk, m->end - first);
			vgpu_gpu_advance_range(t->g, first, n);
			did += n;
		}
	}
	if (did && atomic_fetch_add(&t->done, did) + did == nsm && me &&
	    atomic_load(&t->waiting)) {
		pthread_mutex_lock(&t->lock);
		pthread_cond_signal(&t->finished);
		pthread_mutex_unlock(&t->lock);
	}
}

static void *vgpu_team_helper(void *arg)
{
	struct vgpu_team_member *me = arg;
	struct vgpu_sim_team *t = me->t;
	unsigned int seen = 0, i;

	for (;;) {
		for (i = 0; i < VGPU_TEAM_SPIN &&
		     atomic_load(&t->gen) == seen && !atomic_load(&t->stop); i++)
			vgpu_team_relax();
		if (atomic_load(&t->gen) == seen && !atomic_load(&t->stop)) {
			pthread_mutex_lock(&t->lock);
			atomic_fetch_add(&t->sleepers, 1);
			while (atomic_load(&t->gen) == seen &&
			       !atomic_load(&t->stop))
				pthread_cond_wait(&t->go, &t->lock);
			atomic_fetch_sub(&t->sleepers, 1);
			pthread_mutex_unlock(&t->lock);
		}
		if (atomic_load(&t->stop))
			return NULL;
		seen = atomic_load(&t->gen);
		vgpu_team_work(t, me->id);
	}
}

/**
 * vgpu_sim_team_start() - a team of @threads threads for device @g
 * @tp: out: the team, or NULL when @threads <= 1 (the caller alone)
 * @g: the device
 * @threads: members, the caller included
 *
 * Return: 0 or a negative errno (nothing to stop then).
 */
int vgpu_sim_team_start(struct vgpu_sim_team **tp, struct vgpu_gpu *g,
			u32 threads)
{
	u32 i, v, nsm = g->cfg.num_sms;
	struct vgpu_sim_team *t;
	const char *env;
	int ret;

	*tp = NULL;
	if (threads <= 1)
		return 0;
	if (posix_memalign((void **)&t, VGPU_TEAM_LINE, sizeof(*t)))
		return -ENOMEM;
	memset(t, 0, sizeof(*t));
	if (posix_memalign((void **)&t->m, VGPU_TEAM_LINE,
			   threads * sizeof(*t->m))) {
		free(t);
		return -ENOMEM;
	}
	memset(t->m, 0, threads * sizeof(*t->m));
	t->g = g;
	t->min_busy = VGPU_TEAM_MIN_BUSY * threads;
	env = getenv("VGPU_SIM_TEAM_MIN_BUSY");
	if (env && vgpul_cli_u32(env, &v))
		t->min_busy = v;
	t->chunk = nsm / (VGPU_TEAM_CLAIMS * threads);
	if (!t->chunk)
		t->chunk = 1;
	for (i = 0; i < threads; i++) {
		t->m[i].t = t;
		t->m[i].id = i;
		t->m[i].end = (u64)nsm * (i + 1) / threads;
		/* nothing to claim until the first hand-off */
		atomic_init(&t->m[i].next, t->m[i].end);
	}
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->go, NULL);
	pthread_cond_init(&t->finished, NULL);
	for (i = 1; i < threads; i++) {
		ret = pthread_create(&t->m[i].th, NULL, vgpu_team_helper,
				     &t->m[i]);
		if (ret) {
			t->n = i;
			vgpu_sim_team_stop(t);
			return -ret;
		}
	}
	t->n = threads;
	*tp = t;
	return 0;
}

/**
 * vgpu_sim_team_advance() - advance every SM of the device to the epoch end
 * @t: the team, or NULL: the caller advances them alone
 * @g: the device (the team's)
 *
 * The same as vgpu_gpu_advance_range(g, 0, num_sms), on every member of
 * the team; returns when all SMs are done.
 */
void vgpu_sim_team_advance(struct vgpu_sim_team *t, struct vgpu_gpu *g)
{
	u32 i, busy = 0, nsm;

	for (i = 0; t && i < g->cfg.num_sms && busy < t->min_busy; i++)
		busy += !vgpu_gpu_sm_empty(g, i);
	if (!t || busy < t->min_busy) {
		vgpu_gpu_advance_range(g, 0, g->cfg.num_sms);
		return;
	}
	atomic_store(&t->done, 0);
	/* seq_cst: a claim that sees a reset sees the dispatch's writes */
	for (i = 0; i < t->n; i++)
		atomic_store(&t->m[i].next, i ? t->m[i - 1].end : 0);
	atomic_fetch_add(&t->gen, 1);
	if (atomic_load(&t->sleepers)) {
		pthread_mutex_lock(&t->lock);
		pthread_cond_broadcast(&t->go);
		pthread_mutex_unlock(&t->lock);
	}
	vgpu_team_work(t, 0);
	nsm = g->cfg.num_sms;
	for (i = 0; i < VGPU_TEAM_SPIN && atomic_load(&t->done) != nsm; i++)
		vgpu_team_relax();
	if (atomic_load(&t->done) != nsm) {
		pthread_mutex_lock(&t->lock);
		atomic_store(&t->waiting, true);
		while (atomic_load(&t->done) != nsm)
			pthread_cond_wait(&t->finished, &t->lock);
		atomic_store(&t->waiting, false);
		pthread_mutex_unlock(&t->lock);
	}
}

/**
 * vgpu_sim_team_stop() - stop and free a team
 * @t: the team, or NULL
 */
void vgpu_sim_team_stop(struct vgpu_sim_team *t)
{
	u32 i;

	if (!t)
		return;
	pthread_mutex_lock(&t->lock);
	atomic_store(&t->stop, true);
	pthread_cond_broadcast(&t->go);
	pthread_mutex_unlock(&t->lock);
	for (i = 1; i < t->n; i++)
		pthread_join(t->m[i].th, NULL);
	pthread_cond_destroy(&t->finished);
	pthread_cond_destroy(&t->go);
	pthread_mutex_destroy(&t->lock);
	free(t->m);
	free(t);
}
