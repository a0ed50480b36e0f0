// SPDX-License-Identifier: GPL-2.0
/*
 * cli.c - the command-line pieces vgpu-sim and vgpuctl share (cli.h): the
 * generated command list, the number syntax and the tenant options.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void vgpul_cli_list(FILE *f, const struct vgpul_cli_cmd *const *cmds,
		    size_t n)
{
	const char *s, *nl;
	size_t i, w = 0;

	for (i = 0; i < n; i++)
		if (strlen(cmds[i]->name) > w)
			w = strlen(cmds[i]->name);
	for (i = 0; i < n; i++) {
		fprintf(f, "  %-*s  ", (int)w, cmds[i]->name);
		for (s = cmds[i]->summary; (nl = strchr(s, '\n')); s = nl + 1)
			fprintf(f, "%.*s\n  %-*s  ", (int)(nl - s), s, (int)w,
				"");
		fprintf(f, "%s\n", s);
	}
}

const struct vgpul_cli_cmd *vgpul_cli_find(const struct vgpul_cli_cmd *const *cmds,
					   size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(cmds[i]->name, name))
			return cmds[i];
	return NULL;
}

bool vgpul_cli_u64(const char *s, uint64_t *v)
{
	unsigned long long x;
	int base = 10;
	char *end;

	if (!s)
		return false;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') ||
		      (*s >= 'A' && *s <= 'F')))
			return false;
	} else if (*s < '0' || *s > '9') {
		return false;	/* no sign, no blank, not empty */
	}
	errno = 0;
	x = strtoull(s, &end, base);
	if (errno || *end)
		return false;
	*v = x;
	return true;
}

bool vgpul_cli_u32(const char *s, uint32_t *v)
{
	uint64_t x;

	if (!vgpul_cli_u64(s, &x) || x > UINT32_MAX)
		return false;
	*v = (uint32_t)x;
	return true;
}

bool vgpul_tenant_pair(const char *s, uint32_t n, uint32_t *tenant,
		       uint64_t *value)
{
	const char *eq = strchr(s, '=');
	char num[24];
	uint64_t t, v;

	if (!eq || eq == s || eq - s >= (long)sizeof(num))
		return false;
	memcpy(num, s, eq - s);
	num[eq - s] = 0;
	if (!vgpul_cli_u64(num, &t) || t >= n || !vgpul_cli_u64(eq + 1, &v))
		return false;
	*tenant = (uint32_t)t;
	*value = v;
	return true;
}

int vgpul_tenant_args(struct vgpu_workload *wl, const char *const *prio_arg,
		      unsigned int np, const char *const *off_arg,
		      unsigned int no, char *err, size_t errlen)
{
	uint32_t n = vgpul_workload_tenants(wl), t, i;
	uint32_t levels = vgpul_workload_num_prios(wl);
	uint64_t *offset;
	int *prio, ret = 0;
	uint64_t v;
	char why[256];

	if (!np && !no)
		return 0;
	prio = calloc(n + 1, sizeof(*prio));
	offset = calloc(n + 1, sizeof(*offset));
	if (!prio || !offset) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	for (t = 0; t < n; t++)
		prio[t] = -1;
	for (i = 0; i < np; i++) {
		if (!vgpul_tenant_pair(prio_arg[i], n, &t, &v) || v >= levels) {
			snprintf(err, errlen,
				 "bad --priority '%s' (TENANT=P, TENANT < %u, P < %u)",
				 prio_arg[i], n, levels);
			ret = -EINVAL;
			goto out;
		}
		prio[t] = v;
	}
	for (i = 0; i < no; i++) {
		if (!vgpul_tenant_pair(off_arg[i], n, &t, &v) ||
		    v > VGPUL_WL_MAX_ARRIVAL) {
			snprintf(err, errlen,
				 "bad --offset '%s' (TENANT=CYCLES, TENANT < %u)",
				 off_arg[i], n);
			ret = -EINVAL;
			goto out;
		}
		offset[t] = v;
	}
	for (t = 0; t < n && !ret; t++) {
		ret = vgpul_workload_shape(wl, t, prio[t], offset[t], why,
					   sizeof(why));
		if (ret)
			snprintf(err, errlen, "tenant %u: %s", t, why);
	}
out:
	free(prio);
	free(offset);
	return ret;
}
