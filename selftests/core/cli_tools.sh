#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What vgpu-sim and vgpuctl share (userspace/cli): one number syntax for
# every option (decimal, or hexadecimal after 0x; "010" is ten in both
# tools), the help generated from the command descriptors, and help texts
# that speak of what a thing is, never of an issue or a specification
# number.  Needs no module.  Run from the repository root; prints TAP.
set -u
SIM=${VGPU_SIM:-build/vgpu-sim-asan}
CTL=${VGPUCTL:-build/vgpuctl}
. "$(dirname "$0")/tap.sh"

occ() { "$SIM" occupancy --preset a100 --regs 32 --threads "$1" 2>&1; }

echo "TAP version 13"
echo "1..9"
check "vgpu-sim: 0x100 threads are 256 threads" \
	"[ \"\$(occ 0x100)\" = \"\$(occ 256)\" ] && occ 256 | grep -q '^blocks='"
check "vgpu-sim: 0256 threads are 256 threads (decimal, not octal)" \
	"[ \"\$(occ 0256)\" = \"\$(occ 256)\" ]"
check "vgpu-sim: a negative, signed or suffixed number is a usage error" \
	"for v in -256 +256 256k 0x ''; do occ \"\$v\" > /dev/null; [ \$? = 2 ] || exit 1; done"
# no module on the host: the open fails, naming the device it tried
check "vgpuctl: -d 010 is /dev/vgpu10" \
	"\"$CTL\" -d 010 info 2>&1 | grep -q '/dev/vgpu10 '"
check "vgpuctl: -d 0xa is /dev/vgpu10, -d 0x10 is out of range" \
	"\"$CTL\" -d 0xa info 2>&1 | grep -q '/dev/vgpu10 ' &&
	 ! \"$CTL\" -d 0x10 info > /dev/null 2>&1"
# the help lists every command of the descriptors, each with its own --help
ctl_cmds=$("$CTL" --help | sed -n '/^commands:/,$s/^  \([a-z]\+\)  .*/\1/p' | tr '\n' ' ')
check "vgpuctl --help lists info ... top, each with a usage" \
	"[ \"\$(echo $ctl_cmds)\" = 'info stats config dev run compare trace top' ] &&
	 for c in $ctl_cmds; do \"$CTL\" \$c --help | grep -q \"^usage: vgpuctl \\[-d N\\] \$c\" || exit 1; done"
sim_cmds=$("$SIM" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]\+\)  .*/\1/p' | tr '\n' ' ')
check "vgpu-sim --help lists run, compare, import, replay, bench, each with a usage" \
	"for c in run compare import replay bench; do echo ' $sim_cmds ' | grep -q \" \$c \" || exit 1;
	 \"$SIM\" \$c --help | grep -q \"^Usage: vgpu-sim \$c\" || exit 1; done"
{
	"$CTL" --help
	for c in $ctl_cmds; do "$CTL" "$c" --help; done
	"$SIM" --help
	for c in $sim_cmds; do "$SIM" "$c" --help; done
	"$SIM" bench --help
	for b in bitmap exec dispatch scale replay; do "$SIM" bench "$b" --help; done
} > "$TMP/help" 2>&1
check "help texts name no issue, no F-number, no seed paragraph" \
	"[ -s $TMP/help ] && ! grep -n 'issue [0-9]\|\\<F[0-9][0-9]\\>\|seed [0-9]\|SPEC' $TMP/help"
check "both man pages format without a groff warning" \
	"! command -v groff > /dev/null || for m in Documentation/man/*.[13]; do
	 [ -z \"\$(groff -man -ww -z \$m 2>&1)\" ] || exit 1; done"
exit $fail
