// SPDX-License-Identifier: GPL-2.0
/*
 * config.c - vgpuctl config: netlink DEV_GET / CONFIG_SET.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <vgpu/workload.h>

#include "vgpuctl.h"

static void vgpu_config_show(const struct vgpu_nl_dev *d)
{
	unsigned int i;

	printf("dev %u: %s\n", d->index, d->name);
	printf("  preset        %s\n", d->preset);
	printf("  sms           %u\n", d->num_sms);
	printf("  priorities    %u\n", d->num_prios);
	printf("  policy        %s\n", d->policy);
	printf("  preempt       %s\n", vgpul_nl_preempt_name(d->preempt));
	printf("  windows       ");
	if (!d->num_windows)
		printf("off");
	for (i = 0; i < d->num_windows; i++)
		printf("%s%u", i ? "," : "", d->windows[i]);
	printf("\n  epoch         %u\n", d->epoch);
	printf("  timeout       %llu\n", (unsigned long long)d->timeout);
	printf("  event-budget  %u\n", d->event_budget);
	printf("  clock         %s", d->clock ? "paced" : "free");
	if (d->clock)
		printf(" %u kHz", d->freq_khz);
	printf("\n  task-slots    %u\n", d->task_slots);
	printf("  sync-cost     %u\n", d->sync_cost);
	/* the dispatch options, the mode, the scalar file */
	printf("  pack          %s\n", vgpul_pack_name(d->opt[VGPU_NL_OPT_PACK]));
	printf("  search        %s", vgpul_search_name(d->opt[VGPU_NL_OPT_SEARCH]));
	if (d->opt[VGPU_NL_OPT_SEARCH_GROUP])
		printf(" group %u", d->opt[VGPU_NL_OPT_SEARCH_GROUP]);
	printf(", latency %u\n", d->opt[VGPU_NL_OPT_SEARCH_LATENCY]);
	printf("  throttle-sms  %u%s\n", d->opt[VGPU_NL_OPT_THROTTLE_SMS],
	       d->throttle ? " (throttle mode)" : "");
	printf("  combo         %u\n", d->opt[VGPU_NL_OPT_COMBO]);
	printf("  scalar-regs   ");
	if (d->sregs_per_subpart)
		printf("%u per sub-partition, unit %u\n", d->sregs_per_subpart,
		       d->sreg_unit);
	else
		printf("none\n");
}

/* The dispatch option keys, VGPU_NL_OPT_* order (the first two by name). */
static const char *const vgpu_config_opts[VGPU_NL_NUM_OPTS] = {
	"pack", "search", "search-group", "search-latency", "throttle-sms",
	"combo",
};

/* Key @k = @v of a dispatch option into @cfg: 1 done, 0 not one, -1 bad. */
static int vgpu_config_opt(const char *k, const char *v,
			   struct vgpu_nl_config *cfg)
{
	int i, m;

	for (i = 0; i < VGPU_NL_NUM_OPTS; i++)
		if (!strcmp(k, vgpu_config_opts[i]))
			break;
	if (i == VGPU_NL_NUM_OPTS)
		return 0;
	if (i == VGPU_NL_OPT_PACK || i == VGPU_NL_OPT_SEARCH) {
		m = i == VGPU_NL_OPT_PACK ? vgpul_pack_parse(v) :
					     vgpul_search_parse(v);
		if (m < 0)
			return -1;
		cfg->opt[i] = m;
	} else if (!vgpul_cli_u32(v, &cfg->opt[i])) {
		return -1;
	}
	cfg->set |= VGPU_NL_SET_OPT(i);
	return 1;
}

static int vgpu_parse_windows(const char *s, struct vgpu_nl_config *cfg)
{
	char buf[256], *tok, *save = NULL;

	cfg->num_windows = 0;
	if (!strcmp(s, "off") || !strcmp(s, "0"))
		return 0;
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (cfg->num_windows == VGPU_NL_MAX_WINDOWS ||
		    !vgpul_cli_u32(tok, &cfg->windows[cfg->num_windows]))
			return -EINVAL;
		cfg->num_windows++;
	}
	return cfg->num_windows ? 0 : -EINVAL;
}

static int vgpuctl_config(int argc, char **argv)
{
	struct vgpu_nl_config cfg;
	struct vgpu_nl_dev d;
	struct vgpu_nl *nl;
	int i, ret;

	if (vgpuctl_wants_help(argc, argv)) {
		vgpuctl_cmd_usage(stdout, "config");
		return 0;
	}
	memset(&cfg, 0, sizeof(cfg));
	for (i = 1; i < argc; i += 2) {
		const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v) {
			fprintf(stderr, "vgpuctl config: %s needs a value\n", k);
			return 2;
		}
		if (!strcmp(k, "policy")) {
			if (strlen(v) >= sizeof(cfg.policy))
				goto bad;
			snprintf(cfg.policy, sizeof(cfg.policy), "%s", v);
			cfg.set |= VGPU_NL_SET_POLICY;
		} else if (!strcmp(k, "preempt")) {
			ret = vgpul_nl_preempt_parse(v);
			if (ret < 0) {
				fprintf(stderr, "vgpuctl config: unknown preemption mode '%s' (drain, warp, switch)\n",
					v);
				return 2;
			}
			cfg.preempt = ret;
			cfg.set |= VGPU_NL_SET_PREEMPT;
		} else if (!strcmp(k, "windows")) {
			if (vgpu_parse_windows(v, &cfg))
				goto bad;
			cfg.set |= VGPU_NL_SET_WINDOWS;
		} else if (!strcmp(k, "timeout")) {
			if (!vgpul_cli_u64(v, &cfg.timeout))
				goto bad;
			cfg.set |= VGPU_NL_SET_TIMEOUT;
		} else if (!strcmp(k, "event-budget")) {
			if (!vgpul_cli_u32(v, &cfg.event_budget))
				goto bad;
			cfg.set |= VGPU_NL_SET_BUDGET;
		} else if (!strcmp(k, "sync-cost")) {
			if (!vgpul_cli_u32(v, &cfg.sync_cost))
				goto bad;
			cfg.set |= VGPU_NL_SET_SYNC_COST;
		} else if ((ret = vgpu_config_opt(k, v, &cfg))) {
			if (ret < 0)
				goto bad;
		} else {
			fprintf(stderr, "vgpuctl config: unknown key '%s' (policy, preempt, windows, timeout, event-budget, sync-cost, pack, search, search-group, search-latency, throttle-sms, combo)\n",
				k);
			return 2;
		}
		continue;
bad:
		fprintf(stderr, "vgpuctl config: bad value '%s' for %s\n", v, k);
		return 2;
	}
	if (vgpuctl_nl_or_complain("config", &nl))
		return 1;
	if (cfg.set) {
		ret = vgpul_nl_config_set(nl, vgpuctl_index, &cfg);
		if (ret) {
			if (ret == -ENOENT)
				fprintf(stderr, "vgpuctl config: unknown policy '%s' (rr, avail, resource, power)\n",
					cfg.policy);
			else if (ret == -EBUSY)
				fprintf(stderr, "vgpuctl config: throttle-sms cannot change while the device is in throttle mode\n");
			else if (ret == -EINVAL || ret == -ERANGE)
				fprintf(stderr, "vgpuctl config: the device rejected a value (%s; see the kernel's extack in Documentation/netlink.rst)\n",
					vgpul_strerror(ret));
			else
				vgpuctl_nl_error("config", "CONFIG_SET",
					      vgpuctl_index, ret);
			vgpul_nl_close(nl);
			return 1;
		}
	}
	ret = vgpul_nl_dev_get(nl, vgpuctl_index, &d);
	if (ret) {
		vgpuctl_nl_error("config", "DEV_GET", vgpuctl_index, ret);
		vgpul_nl_close(nl);
		return 1;
	}
	vgpu_config_show(&d);
	vgpul_nl_close(nl);
	return 0;
}

const struct vgpul_cli_cmd vgpuctl_cmd_config = {
	.name = "config",
	.usage = "[policy NAME] [preempt drain|warp|switch] [windows L1,L2,...|off]\n"
		 "          [timeout CYCLES] [event-budget N] [sync-cost CYCLES]\n"
		 "          [pack auto|block|sm] [search exact|grouped|sampled|mux]\n"
		 "          [search-group UNITS] [search-latency 0..3]\n"
		 "          [throttle-sms N] [combo 0..100]",
	.summary = "show the scheduler configuration of -d N, or change it (netlink\n"
		   "CONFIG_SET, needs CAP_NET_ADMIN)",
	.run = vgpuctl_config,
};
