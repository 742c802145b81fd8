#!/usr/bin/env bash
# Real seed traps for `procgen forest fit`: writes OUT/trees.csv and
# OUT/traps.csv from the Liriodendron example data of MASTIF (Jim Clark's
# lab, Duke University: liriodendronExample.rData in the public GitHub
# repositories jimclarkatduke/mastif and jimclarkatduke/mast; no data
# licence is stated, so the data stay out of this repository). Needs
# Rscript (Debian's r-base-core) to read the .rData.
#
#   scripts/mastif-duke.sh liriodendronExample.rData OUT [PLOT]
#
# PLOT (default DUKE_BW, Duke Forest's Blackwood division: 148 traps, 327
# mapped tulip trees, 1999-2015) picks the plot. Each trap's counts of
# liriTuli seeds are summed over the years, its area becomes m^2 x years
# (area x the fraction of each year it worked), so a fit's STR is seeds a
# year; each tree's DBH is its mean over the censuses. Coordinates are the
# data's UTM metres less one origin (the plot's south-west corner rounded
# down to 100 m), which trees and traps share.
set -euo pipefail
[[ $# -ge 2 ]] || { sed -n '2,17p' "$0" >&2; exit 2; }
command -v Rscript > /dev/null || { echo "mastif-duke.sh: Rscript not found (apt-get install r-base-core)" >&2; exit 1; }
mkdir -p "$2"
Rscript --vanilla - "$1" "$2" "${3:-DUKE_BW}" <<'R'
a <- commandArgs(TRUE)
load(a[1])
P <- a[3]
sd <- seedData[seedData$plot == P, ]
if (nrow(sd) == 0) stop(paste("no plot", P, "in", a[1]))
tr <- xytrap[xytrap$plot == P, ]
xt <- xytree[xytree$plot == P, ]
x0 <- floor(min(tr$x, xt$x) / 100) * 100
y0 <- floor(min(tr$y, xt$y) / 100) * 100
agg <- aggregate(cbind(liriTuli, eff = area * active) ~ trap, sd, sum)
m <- merge(tr, agg, by = "trap")
write.csv(data.frame(x = round(m$x - x0, 2), y = round(m$y - y0, 2), area = round(m$eff, 5), count = m$liriTuli),
  file.path(a[2], "traps.csv"), row.names = FALSE, quote = FALSE)
dm <- aggregate(diam ~ tree, treeData[treeData$plot == P, ], mean)
t2 <- merge(xt, dm, by = "tree")
write.csv(data.frame(x = round(t2$x - x0, 2), y = round(t2$y - y0, 2), species = "liriTuli", dbh = round(t2$diam, 1)),
  file.path(a[2], "trees.csv"), row.names = FALSE, quote = FALSE)
cat(sprintf("%s: %d traps, %d seeds, %d trees; origin UTM (%.0f, %.0f)\n", P, nrow(m), sum(m$liriTuli), nrow(t2), x0, y0))
R
