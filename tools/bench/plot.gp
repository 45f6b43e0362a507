# SPDX-License-Identifier: GPL-2.0
#
# Plot of the host bench: input MB/s per corpus file, one panel per
# direction, one bar per implementation. Called by scripts/bench.sh:
#   gnuplot -e "u8='A.dat'; u16='B.dat'; out='C.png'" plot.gp
# The .dat files are the CSV rows of one direction, comma separated:
#   file,direction,bytes,scalar,simd,iconv,icu,ssse3,simdutf fallback,
#   westmere,haswell,icelake (0: not measured)
set terminal pngcairo size 1600,1000 font ",9"
set output out
set datafile separator ","
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set grid ytics
set ylabel "input MB/s"
set xtics rotate by -45 scale 0
set key top left
set multiplot layout 2,1 title "utfconv host bench: codec (-O2) scalar and SIMD paths vs glibc iconv vs ICU vs simdutf haswell and icelake, min over rounds"
set title "UTF-8 -> UTF-16LE"
plot u8 using 4:xtic(1) title "utfconv scalar", '' using 5 title "utfconv SIMD", \
	'' using 6 title "glibc iconv", '' using 7 title "ICU", \
	'' using 11 title "simdutf haswell", '' using 12 title "simdutf icelake"
set title "UTF-16LE -> UTF-8"
plot u16 using 4:xtic(1) title "utfconv scalar", '' using 5 title "utfconv SIMD", \
	'' using 6 title "glibc iconv", '' using 7 title "ICU", \
	'' using 11 title "simdutf haswell", '' using 12 title "simdutf icelake"
unset multiplot
