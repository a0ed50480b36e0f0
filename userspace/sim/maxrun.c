// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu-sim maxrun: largest free run of bitmaps read from stdin (F40-F43).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "bmap.h"

/**
 * enum vgpu_sim_maxrun_mode - --mode of maxrun
 * @VGPU_SIM_MR_EXACT: exact (F40)
 * @VGPU_SIM_MR_GROUPED: grouped:Z (F41)
 * @VGPU_SIM_MR_SAMPLED: sampled[:k1,k2,...] (F42)
 * @VGPU_SIM_MR_MUX: mux:W1,W2[,...] (F43)
 */
enum vgpu_sim_maxrun_mode {
	VGPU_SIM_MR_EXACT,
	VGPU_SIM_MR_GROUPED,
	VGPU_SIM_MR_SAMPLED,
	VGPU_SIM_MR_MUX,
};

/* Parse "a,b,c" into @v (at most @max entries); false on any error. */
static bool vgpu_sim_parse_list(const char *s, uint32_t *v, uint32_t max,
				uint32_t *n)
{
	char buf[512], *tok, *save = NULL;

	if (strlen(s) >= sizeof(buf) || !*s || s[strlen(s) - 1] == ',')
		return false;
	strcpy(buf, s);
	*n = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (*n >= max || !vgpul_cli_u32(tok, &v[*n]))
			return false;
		(*n)++;
	}
	return *n > 0 && !strstr(s, ",,") && *s != ',';
}

/*
 * Parse one hexadecimal line into @w (@nbits wide).  Returns NULL or an
 * error message.
 */
static const char *vgpu_sim_parse_hex(char *line, u64 *w, uint32_t nbits)
{
	size_t len, i, digit;
	char *s = line;
	unsigned int v;

	len = strlen(s);
	while (len && strchr(" \t\r\n", s[len - 1]))
		s[--len] = '\0';
	while (*s == ' ' || *s == '\t')
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	len = strlen(s);
	if (!len)
		return "empty bitmap";
	memset(w, 0, VGPU_BMAP_NWORDS(nbits) * sizeof(u64));
	for (i = 0; i < len; i++) {
		char ch = s[len - 1 - i];

		if (ch >= '0' && ch <= '9')
			v = ch - '0';
		else if (ch >= 'a' && ch <= 'f')
			v = ch - 'a' + 10;
		else if (ch >= 'A' && ch <= 'F')
			v = ch - 'A' + 10;
		else
			return "not a hexadecimal number";
		if (!v)
			continue;
		for (digit = 0; digit < 4; digit++) {
			size_t bit = 4 * i + digit;

			if (!(v & (1u << digit)))
				continue;
			if (bit >= nbits)
				return "bitmap wider than --width";
			w[bit / 64] |= 1ULL << (bit % 64);
		}
	}
	return NULL;
}

static int vgpu_sim_maxrun(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "width", required_argument, NULL, 'w' },
		{ "mode", required_argument, NULL, 'm' },
		{ "need", required_argument, NULL, 'n' },
		{ "skip-primes", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum vgpu_sim_maxrun_mode mode = VGPU_SIM_MR_EXACT;
	uint32_t width = 0, need = 0, groups = 0, list[64], nlist = 0, i;
	const char *modestr = "exact", *err;
	bool have_need = false, skip_primes = false;
	u32 runs[VGPU_BMAP_MUX_MAX_FIELDS];
	struct vgpu_bmap_samples samples;
	struct vgpu_bmap_mux mux;
	static struct vgpu_bmap_mux_scratch scratch;
	u64 w[VGPU_BMAP_WORDS];
	unsigned long lineno = 0;
	char *line = NULL;
	size_t cap = 0;
	struct vgpu_sim_getopt g = { .cmd = &vgpu_sim_cmd_maxrun,
				     .opts = opts, .quiet = true,
				     .no_args = true };
	int c;

	while ((c = vgpu_sim_getopt(&g, argc, argv)) > 0) {
		switch (c) {
		case 'w':
			if (!vgpul_cli_u32(optarg, &width) || !width ||
			    width > VGPU_BMAP_MAX_BITS)
				return vgpu_sim_usage_error("maxrun",
					"--width must be 1..%u", VGPU_BMAP_MAX_BITS);
			break;
		case 'm':
			modestr = optarg;
			break;
		case 'n':
			if (!vgpul_cli_u32(optarg, &need))
				return vgpu_sim_usage_error("maxrun",
					"bad --need '%s'", optarg);
			have_need = true;
			break;
		case 'p':
			skip_primes = true;
			break;
		}
	}
	if (!c)
		return g.status;
	if (!width)
		return vgpu_sim_usage_error("maxrun", "--width is required");

	if (!strcmp(modestr, "exact")) {
		mode = VGPU_SIM_MR_EXACT;
	} else if (!strncmp(modestr, "grouped:", 8)) {
		mode = VGPU_SIM_MR_GROUPED;
		if (!vgpul_cli_u32(modestr + 8, &groups) || !groups ||
		    groups > width || width % groups)
			return vgpu_sim_usage_error("maxrun",
				"grouped:Z needs Z dividing --width %u", width);
	} else if (!strcmp(modestr, "sampled") ||
		   !strncmp(modestr, "sampled:", 8)) {
		mode = VGPU_SIM_MR_SAMPLED;
		vgpu_bmap_samples_pow2(&samples, width);
		if (modestr[7] == ':') {
			if (!vgpu_sim_parse_list(modestr + 8, list,
						 VGPU_BMAP_MAX_SAMPLES, &nlist))
				return vgpu_sim_usage_error("maxrun",
					"bad shift list '%s'", modestr + 8);
			samples.n = nlist;
			for (i = 0; i < nlist; i++) {
				if (list[i] > 65535)
					return vgpu_sim_usage_error("maxrun",
						"shift %u too large", list[i]);
				samples.k[i] = list[i];
			}
		}
		samples.skip_primes = skip_primes;
		if (vgpu_bmap_samples_check(&samples))
			return vgpu_sim_usage_error("maxrun",
				"shift list must increase with non-decreasing gaps");
	} else if (!strncmp(modestr, "mux:", 4)) {
		mode = VGPU_SIM_MR_MUX;
		if (!vgpu_sim_parse_list(modestr + 4, list,
					 VGPU_BMAP_MUX_MAX_FIELDS, &nlist) ||
		    vgpu_bmap_mux_init(&mux, width, list, nlist))
			return vgpu_sim_usage_error("maxrun",
				"mux:W1,W2[,...] needs 1..%u field widths >= 1 "
				"summing to at most --width (<= %u)",
				VGPU_BMAP_MUX_MAX_FIELDS, VGPU_BMAP_MUX_MAX_BITS);
	} else {
		return vgpu_sim_usage_error("maxrun", "unknown --mode '%s'",
					    modestr);
	}
	if (skip_primes && mode != VGPU_SIM_MR_SAMPLED)
		return vgpu_sim_usage_error("maxrun",
					    "--skip-primes needs --mode sampled");

	while (getline(&line, &cap, stdin) != -1) {
		u32 run = 0;

		lineno++;
		err = vgpu_sim_parse_hex(line, w, width);
		if (err) {
			fflush(stdout);
			fprintf(stderr, "vgpu-sim maxrun: line %lu: %s\n",
				lineno, err);
			free(line);
			return VGPU_SIM_EXIT_USAGE;
		}
		switch (mode) {
		case VGPU_SIM_MR_EXACT:
			run = vgpu_bmap_run_exact(w, width);
			break;
		case VGPU_SIM_MR_GROUPED:
			run = vgpu_bmap_run_grouped(w, width, groups);
			break;
		case VGPU_SIM_MR_SAMPLED:
			run = vgpu_bmap_run_sampled(w, width, &samples);
			break;
		case VGPU_SIM_MR_MUX:
			vgpu_bmap_run_mux(w, &mux, runs, &scratch);
			for (i = 0; i < mux.nfields; i++) {
				if (have_need)
					printf("%s%s", i ? " " : "",
					       runs[i] >= need ? "fit" : "nofit");
				else
					printf("%s%u", i ? " " : "", runs[i]);
			}
			printf("\n");
			continue;
		}
		if (have_need)
			printf("%s\n", run >= need ? "fit" : "nofit");
		else
			printf("%u\n", run);
	}
	free(line);
	return 0;
}

const struct vgpul_cli_cmd vgpu_sim_cmd_maxrun = {
	.name = "maxrun",
	.summary = "largest free run of hexadecimal bitmaps on stdin",
	.usage = "--width N [--mode exact|grouped:Z|sampled[:k1,k2,...]|"
		 "mux:W1,W2[,...]]\n"
		 "       [--need K] [--skip-primes]\n"
		 "Reads one hexadecimal bitmap per line (bit i set = unit i free,\n"
		 "bit 0 least significant) and prints its largest free run; for\n"
		 "mux one number per field from the least significant up.  With\n"
		 "--need K prints fit or nofit instead.  sampled defaults to the\n"
		 "powers of two; --skip-primes ignores prime shifts.",
	.run = vgpu_sim_maxrun,
};
