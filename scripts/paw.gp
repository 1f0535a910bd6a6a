# paw.gp -- render one paw .dat file to PNG. Called by scripts/plot-dat, which passes:
#   datafile, outfile, plottitle, xlabel, ylabel (with units), nrows, labels (1: first column is a
#   name such as a STREAM kernel), logx (1: logarithmic x axis), single (1: one row, whose x is xonly).
# Columns: SIZE AVG MIN MAX STDDEV MEDIAN NLOOP NREPS.
set terminal pngcairo size 900,600 noenhanced font ",10"
set output outfile
set title plottitle
set xlabel xlabel
set ylabel ylabel
set grid
set key top left
set yrange [0:*]
if (labels) {
    set style fill solid 0.6 border -1
    set xrange [-0.5 : nrows - 0.5]
    plot datafile using ($0):6:3:4:(0.3):xtic(1) with boxerrorbars title "median (bars: min..max)"
} else {
    if (logx) { set logscale x 2 }
    if (single) { set xrange [xonly * 0.5 : xonly * 1.5] }
    plot datafile using 1:2:3:4 with yerrorlines title "average (bars: min..max)", \
         datafile using 1:6 with linespoints dashtype 2 title "median"
}
