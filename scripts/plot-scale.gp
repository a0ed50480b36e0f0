# SPDX-License-Identifier: GPL-2.0
#
# The cost curve of `vgpu-sim bench scale` (Documentation/performance.rst):
# ns per block and ns per dispatch decision against the number of blocks,
# one line per SM count, from the benchmark's "cost sms=S blocks=B
# ns_per_block=X ns_per_decision=Y ..." lines.
#
#	build/vgpu-sim bench scale > scale.txt
#	gnuplot -e "in='scale.txt'; out='Documentation/images/scale.png'" \
#		scripts/plot-scale.gp
if (!exists("in")) in = "scale.txt"
if (!exists("out")) out = "scale.png"

# "S B X Y" rows of one SM count
rows(s) = sprintf("< awk '$1 == \"cost\" { split($2, a, \"=\"); split($3, b, \"=\"); split($4, c, \"=\"); split($5, d, \"=\"); if (a[2] == %d) print a[2], b[2], c[2], d[2] }' '%s'", s, in)

set terminal pngcairo size 1000,420 font ",10"
set output out
set multiplot layout 1,2 title "vgpu-sim bench scale: one-warp blocks, h100 kind, one thread"
set logscale x
set xlabel "blocks"
set grid
set key top left
set yrange [0:*]
set ylabel "ns per block (wall time / blocks)"
plot for [s in "4 132 1024 4096"] rows(int(s)) using 2:3 with linespoints title s." SMs"
set ylabel "ns per dispatch decision"
plot for [s in "4 132 1024 4096"] rows(int(s)) using 2:4 with linespoints title s." SMs"
unset multiplot
