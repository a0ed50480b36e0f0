// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of userspace/cli/cli.c, the command-line pieces vgpu-sim and
 * vgpuctl share: the one number syntax of every option (decimal, or
 * hexadecimal after 0x; a leading zero is decimal), TENANT=VALUE pairs
 * and the command list of --help generated from the descriptors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "vgpu_test_only.h"
#include "cli.h"

TEST(numbers_decimal_and_hex)
{
	uint64_t v = 99;
	uint32_t w = 99;

	EXPECT_TRUE(vgpul_cli_u64("0", &v));
	EXPECT_EQ(0, v);
	EXPECT_TRUE(vgpul_cli_u64("010", &v));
	EXPECT_EQ(10, v);		/* decimal, not octal */
	EXPECT_TRUE(vgpul_cli_u64("0x10", &v));
	EXPECT_EQ(16, v);
	EXPECT_TRUE(vgpul_cli_u64("0X1f", &v));
	EXPECT_EQ(31, v);
	EXPECT_TRUE(vgpul_cli_u64("0x0010", &v));
	EXPECT_EQ(16, v);
	EXPECT_TRUE(vgpul_cli_u64("18446744073709551615", &v));
	EXPECT_EQ(UINT64_MAX, v);
	EXPECT_TRUE(vgpul_cli_u64("0xffffffffffffffff", &v));
	EXPECT_EQ(UINT64_MAX, v);
	EXPECT_TRUE(vgpul_cli_u32("4294967295", &w));
	EXPECT_EQ(UINT32_MAX, w);
	EXPECT_TRUE(vgpul_cli_u32("0x20", &w));
	EXPECT_EQ(32, w);
}

TEST(numbers_rejected)
{
	static const char *const bad[] = {
		"", "-1", "+1", " 1", "1 ", "1x", "0x", "0x-1", "0x 1", "x10",
		"1e3", "1.0", "0b1", "0xg", "18446744073709551616",
		"0x10000000000000000",
	};
	uint64_t v = 7;
	uint32_t w = 7;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_FALSE(vgpul_cli_u64(bad[i], &v)) TH_LOG("'%s'", bad[i]);
		EXPECT_FALSE(vgpul_cli_u32(bad[i], &w)) TH_LOG("'%s'", bad[i]);
	}
	EXPECT_FALSE(vgpul_cli_u64(NULL, &v));
	EXPECT_FALSE(vgpul_cli_u32("4294967296", &w));
	EXPECT_FALSE(vgpul_cli_u32("0x100000000", &w));
	/* a failed parse leaves the value alone */
	EXPECT_EQ(7, v);
	EXPECT_EQ(7, w);
}

TEST(tenant_pairs)
{
	uint64_t value = 0;
	uint32_t tenant = 0;

	EXPECT_TRUE(vgpul_tenant_pair("1=5000", 2, &tenant, &value));
	EXPECT_EQ(1, tenant);
	EXPECT_EQ(5000, value);
	EXPECT_TRUE(vgpul_tenant_pair("01=0x10", 2, &tenant, &value));
	EXPECT_EQ(1, tenant);
	EXPECT_EQ(16, value);
	EXPECT_FALSE(vgpul_tenant_pair("2=1", 2, &tenant, &value));
	EXPECT_FALSE(vgpul_tenant_pair("=1", 2, &tenant, &value));
	EXPECT_FALSE(vgpul_tenant_pair("1=", 2, &tenant, &value));
	EXPECT_FALSE(vgpul_tenant_pair("1", 2, &tenant, &value));
	EXPECT_FALSE(vgpul_tenant_pair("-1=1", 2, &tenant, &value));
	EXPECT_FALSE(vgpul_tenant_pair("1=-1", 2, &tenant, &value));
}

static int vgpu_test_nop(int argc, char **argv)
{
	return 0;
}

TEST(help_list_from_descriptors)
{
	static const struct vgpul_cli_cmd a = {
		.name = "run", .usage = "", .summary = "first line\nsecond line",
		.run = vgpu_test_nop,
	};
	static const struct vgpul_cli_cmd b = {
		.name = "compare", .usage = "", .summary = "one line",
		.run = vgpu_test_nop,
	};
	static const struct vgpul_cli_cmd *const cmds[] = { &a, &b };
	char buf[256] = "";
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	ASSERT_NE(NULL, f);
	vgpul_cli_list(f, cmds, 2);
	fclose(f);
	EXPECT_STREQ("  run      first line\n"
		     "           second line\n"
		     "  compare  one line\n", buf);
	EXPECT_EQ(&b, vgpul_cli_find(cmds, 2, "compare"));
	EXPECT_EQ(NULL, vgpul_cli_find(cmds, 2, "comp"));
}

VGPU_TEST_MAIN
