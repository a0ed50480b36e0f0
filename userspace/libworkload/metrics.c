// SPDX-License-Identifier: GPL-2.0
/*
 * metrics.c - STP, ANTT and fairness of a multiprogram run (F67).
 */
#include <string.h>

#include <vgpu/metrics.h>

void vgpul_metrics_compute(const uint64_t *alone, const uint64_t *shared,
			  unsigned int n, struct vgpu_metrics *m)
{
	double np, np_min = 0, np_max = 0, slow = 0;
	unsigned int i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < n; i++) {
		if (!alone[i] || !shared[i])
			continue;
		np = (double)alone[i] / (double)shared[i];
		m->stp += np;
		slow += (double)shared[i] / (double)alone[i];
		if (!m->n || np < np_min)
			np_min = np;
		if (!m->n || np > np_max)
			np_max = np;
		m->n++;
	}
	if (!m->n)
		return;
	m->antt = slow / m->n;
	m->fairness = np_min / np_max;
}
