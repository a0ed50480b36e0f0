#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - `make demo`: boot Debian's 6.1 kernel in QEMU, load
# vgpu_dispatch.ko and show what it emulates.  Later milestones grow this into
# the full scheduling scenario (Documentation/index.rst).
set -eu
cd "$(dirname "$0")/.."
make --no-print-directory vm-bin >/dev/null
echo "== vgpu-dispatch demo: booting the VM (QEMU, TCG) =="
scripts/vm-run --timeout 300 --modparams "num_devices=2" sh -c '
	echo "== module loaded: $(grep ^vgpu_dispatch /proc/modules)"
	echo "== device nodes:"; ls -l /dev/vgpu*
	for d in 0 1; do
		echo; echo "== vgpuctl -d $d info"
		vgpuctl -d $d info || exit 1
	done
'
echo "== demo done (serial log: build/vm/stock/console.log)"
