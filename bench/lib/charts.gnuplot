# The charts of bench/run, drawn by bench/lib/charts: gnuplot -e "data = 'DIR'; out = 'DIR'" this.
# data holds r1.dat (connections, then median min max of petstore req/s, nginx req/s, petstore p99
# us, nginx p99 us), r3.dat (connections, then median min max of durable creates/s and of p99 us)
# and values.gp: rounds, tics, the ranges of the log p99 axes, the disk's and LMDB alone's
# medians, and for each target t_* its marker (t_*_x, t_*_y), the line below the chart that names
# it with its figure and verdict (t_*_title) and the colour of both (t_*_color, red when missed).
# A target without a figure has y NaN and an empty title: no marker, no line.
load data.'/values.gp'
r1 = data.'/r1.dat'
r3 = data.'/r3.dat'

set encoding utf8
set terminal svg size 640,400 dynamic enhanced font 'sans,11' background rgb 'white'
set datafile missing '?'
set grid xtics ytics lc rgb '#dddddd' lt 1
set border 3
set tics nomirror
set key opaque box lc rgb '#bbbbbb' samplen 2 spacing 1.1
set logscale x 2
set xlabel 'connections (wrk -t1; log scale)' offset 0,0.3
subtitle = sprintf('medians of %d rounds, bars from the minimum to the maximum', rounds)
log_tics = '(10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, ' . \
  '500000, 1000000)'

petstore = 'lc rgb "#1f77b4" lw 2 pt 7 ps 0.8'
nginx = 'lc rgb "#ff7f0e" lw 2 pt 5 ps 0.8'
lmdb = 'lc rgb "#2ca02c" lw 2 pt 7 ps 0.8'
mark = 'ps 1.2 notitle'  # a target's marker

# Target lines below the plot, up to three: bottom(N) leaves room for N of them, and line I is
# the (I + 1)th of three from the top (a chart with one uses line 2, the lowest).
line_height = 0.05
bottom(n) = 0.13 + n * line_height
target_line(i, title, color, pt) = (title eq '') ? 'unset label '.(10 + i) : \
  sprintf("set label %d \"%s\" at screen 0.1, screen %g left point pt %d ps 1.2 lc rgb '%s' %s", \
    10 + i, title, 0.03 + (2 - i) * line_height, pt, color, \
    sprintf("offset 1.2,0 textcolor rgb '%s'", color))

# --- R1 throughput ------------------------------------------------------------------------------
set output out.'/r1-throughput.svg'
set title "R1: GET /v1/pets?limit=20, petstore (memory) and nginx\n".subtitle
eval 'set xtics '.r1_xtics
set xrange [r1_xmin / 1.6 : r1_xmax * 1.6]
set ylabel 'requests/s'
set yrange [0:*]
set format y '%.0f'
set key bottom right
set bmargin at screen bottom(1)
eval target_line(2, t_r1_title, t_r1_color, 9)
plot r1 using 1:2:3:4 with yerrorlines @petstore title 'petstore, memory', \
     r1 using 1:5:6:7 with yerrorlines @nginx title 'nginx, static file', \
     r1 every ::0::0 using (t_r1_x):(t_r1_y) with points pt 9 lc rgb t_r1_color @mark
unset label

# --- R1 p99 -------------------------------------------------------------------------------------
set output out.'/r1-p99.svg'
set title "R1: p99 latency of GET /v1/pets?limit=20 (no target)\n".subtitle
set ylabel 'p99 latency (µs, log scale)'
set logscale y 10
eval 'set ytics '.log_tics
set format y '%.0f'
set key top left
set bmargin
eval 'set yrange ['.r1_p99_range.']'
plot r1 using 1:8:9:10 with yerrorlines @petstore title 'petstore, memory', \
     r1 using 1:11:12:13 with yerrorlines @nginx title 'nginx, static file'

# --- R3 durable creates -------------------------------------------------------------------------
set output out.'/r3-durable.svg'
set title "R3: durable POST /v1/pets on LMDB, beside the disk's sync rate\n".subtitle
eval 'set xtics '.r3_xtics
set xrange [r3_xmin / 1.6 : r3_xmax * 1.6]
set ylabel 'creates/s (each 201 after its sync)'
unset logscale y
set yrange [0:*]
set ytics autofreq
set format y '%.0f'
set key top left
set bmargin at screen bottom(3)
eval target_line(0, t_disk_title, t_disk_color, 9)
eval target_line(1, t_r2_title, t_r2_color, 11)
eval target_line(2, t_lmdb_title, t_lmdb_color, 13)
plot r3 using 1:2:3:4 with yerrorlines @lmdb title 'petstore on LMDB, creates/s', \
     disk_rate with lines lc rgb '#555555' lw 2 dt 2 title 'disk, fdatasync appends/s', \
     lmdb_rate with lines lc rgb '#9467bd' lw 2 dt 4 \
       title (lmdb_rate == lmdb_rate ? 'LMDB alone, synced commits/s' : ''), \
     r3 every ::0::0 using (t_disk_x):(t_disk_y) with points pt 9 lc rgb t_disk_color @mark, \
     r3 every ::0::0 using (t_r2_x):(t_r2_y) with points pt 11 lc rgb t_r2_color @mark, \
     r3 every ::0::0 using (t_lmdb_x):(t_lmdb_y) with points pt 13 lc rgb t_lmdb_color @mark
unset label

# --- R3 p99 -------------------------------------------------------------------------------------
set output out.'/r3-p99.svg'
set title "R3: p99 latency of durable POST /v1/pets on LMDB\n".subtitle
set ylabel 'p99 latency (µs, log scale)'
set logscale y 10
eval 'set ytics '.log_tics
set format y '%.0f'
set key top left
set bmargin at screen bottom(1)
eval 'set yrange ['.r3_p99_range.']'
eval target_line(2, t_p99_title, t_p99_color, 9)
plot r3 using 1:5:6:7 with yerrorlines @lmdb title 'petstore on LMDB', \
     disk_latency with lines lc rgb '#555555' lw 2 dt 2 title 'disk, median fdatasync latency', \
     r3 every ::0::0 using (t_p99_x):(t_p99_y) with points pt 9 lc rgb t_p99_color @mark

set output
