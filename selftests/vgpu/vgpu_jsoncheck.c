// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_jsoncheck - parse vgpuctl's JSON in the VM (no python there) with
 * json-c and print what the shell tests compare (selftests/vgpu/vgpuctl.sh).
 *
 *   vgpu_jsoncheck stats FILE   "devs=N" then per device "dev=I name=S
 *                               sms=N prios=N channels=N submitted=N
 *                               completed=N blocks=N blocks_done=N"
 *   vgpu_jsoncheck trace FILE   "slices=N dispatches=N preempts=N
 *                               kernels=N" (X slices, dispatch and preempt
 *                               instants, distinct kernel tracks)
 *
 * Exit status 1 with a message when the file is not valid JSON of the
 * expected shape.
 */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

static int vgpu_jc_fail(const char *what)
{
	fprintf(stderr, "vgpu_jsoncheck: %s\n", what);
	return 1;
}

static long long vgpu_jc_int(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_int))
		return -1;
	return json_object_get_int64(v);
}

static int vgpu_jc_array_len(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_array))
		return -1;
	return json_object_array_length(v);
}

static int vgpu_jc_stats(json_object *root)
{
	json_object *d, *st, *name;
	size_t i, n;

	if (!json_object_is_type(root, json_type_array))
		return vgpu_jc_fail("stats: not an array");
	n = json_object_array_length(root);
	printf("devs=%zu\n", n);
	for (i = 0; i < n; i++) {
		d = json_object_array_get_idx(root, i);
		if (!json_object_object_get_ex(d, "stats", &st) ||
		    !json_object_object_get_ex(d, "name", &name) ||
		    !json_object_is_type(name, json_type_string))
			return vgpu_jc_fail("stats: device without stats or name");
		printf("dev=%lld name=%s sms=%d prios=%d channels=%d submitted=%lld completed=%lld blocks=%lld now=%lld\n",
		       vgpu_jc_int(d, "dev"), json_object_get_string(name),
		       vgpu_jc_array_len(d, "sm"),
		       vgpu_jc_array_len(d, "prio"),
		       vgpu_jc_array_len(d, "channels"),
		       vgpu_jc_int(st, "submitted"),
		       vgpu_jc_int(st, "completed"), vgpu_jc_int(st, "blocks"),
		       vgpu_jc_int(st, "now"));
	}
	return 0;
}

static int vgpu_jc_trace(json_object *root)
{
	json_object *evs, *e, *ph, *cat, *tid;
	long long tids[4096];
	size_t i, n, ntids = 0, j;
	long slices = 0, disp = 0, pre = 0;

	if (!json_object_object_get_ex(root, "traceEvents", &evs) ||
	    !json_object_is_type(evs, json_type_array))
		return vgpu_jc_fail("trace: no traceEvents array");
	n = json_object_array_length(evs);
	for (i = 0; i < n; i++) {
		e = json_object_array_get_idx(evs, i);
		if (!json_object_object_get_ex(e, "ph", &ph))
			return vgpu_jc_fail("trace: event without ph");
		if (!json_object_object_get_ex(e, "cat", &cat))
			continue;
		if (!strcmp(json_object_get_string(ph), "X")) {
			if (vgpu_jc_int(e, "ts") < 0 || vgpu_jc_int(e, "dur") < 0)
				return vgpu_jc_fail("trace: slice without ts/dur");
			slices++;
			json_object_object_get_ex(e, "tid", &tid);
			for (j = 0; j < ntids; j++)
				if (tids[j] == json_object_get_int64(tid))
					break;
			if (j == ntids && ntids < 4096)
				tids[ntids++] = json_object_get_int64(tid);
		} else if (!strcmp(json_object_get_string(cat), "dispatch")) {
			disp++;
		} else if (!strcmp(json_object_get_string(cat), "preempt")) {
			pre++;
		}
	}
	printf("slices=%ld dispatches=%ld preempts=%ld kernels=%zu\n", slices,
	       disp, pre, ntids);
	return 0;
}

int main(int argc, char **argv)
{
	json_object *root;
	int ret;

	if (argc != 3 || (strcmp(argv[1], "stats") && strcmp(argv[1], "trace"))) {
		fprintf(stderr, "usage: vgpu_jsoncheck stats|trace FILE\n");
		return 2;
	}
	root = json_object_from_file(argv[2]);
	if (!root) {
		fprintf(stderr, "vgpu_jsoncheck: %s: %s\n", argv[2],
			json_util_get_last_err());
		return 1;
	}
	ret = !strcmp(argv[1], "stats") ? vgpu_jc_stats(root) :
	      vgpu_jc_trace(root);
	json_object_put(root);
	return ret;
}
