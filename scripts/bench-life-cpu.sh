#!/bin/sh
# Times the whole command `procgen rules run configs/rules/life.rules` on one
# W x H board for STEPS steps on the CPU (reading the board from JSON and
# writing it as JSON) against scripts/life-loop.c, a plain one-thread C Life
# loop compiled here with gcc -O2, the two taking turns RUNS times; prints
# the median wall time of each and their ratio, after checking that both end
# in the same board. Usage: scripts/bench-life-cpu.sh [PROCGEN] (default
# bin/procgen); W, H, STEPS, RUNS (512, 512, 100, 5) and CC from the
# environment. Run from the repository root.
set -eu
PG=${1:-bin/procgen}
W=${W:-512} H=${H:-512} STEPS=${STEPS:-100} RUNS=${RUNS:-5}
LIFE=configs/rules/life.rules
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
${CC:-gcc} -O2 -o "$DIR/life-loop" scripts/life-loop.c
RUN="$PG -q --device cpu --seed 1 rules run $LIFE -D W=$W -D H=$H"
$RUN --generate 1 --steps 0 -o "$DIR/in.json"
$RUN --generate 1 --steps 0 -o "$DIR/in.cells"

# now: nanoseconds since the epoch.
now() { date +%s%N; }
c_times="" pg_times=""
for _ in $(seq "$RUNS"); do
	t0=$(now)
	"$DIR/life-loop" "$DIR/in.cells" "$DIR/c.cells" "$W" "$H" "$STEPS"
	t1=$(now)
	$RUN --states "$DIR/in.json" --steps "$STEPS" -o "$DIR/out.json"
	t2=$(now)
	c_times="$c_times $((t1 - t0))" pg_times="$pg_times $((t2 - t1))"
done

# The same board at the end: the rows with a live cell, numbered (.cells
# leaves trailing dead cells and rows off).
$RUN --states "$DIR/out.json" --steps 0 -o "$DIR/pg.cells"
rows() { awk '!/^!/ { n++; if ($0 != "") print n ": " $0 }' "$1"; }
rows "$DIR/c.cells" >"$DIR/c.rows"
rows "$DIR/pg.cells" >"$DIR/pg.rows"
if ! cmp -s "$DIR/c.rows" "$DIR/pg.rows"; then
	echo "bench-life-cpu: procgen and the C loop end in different boards" >&2
	exit 1
fi

median() { printf '%s\n' $1 | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
c=$(median "$c_times") pg=$(median "$pg_times")
awk -v c="$c" -v pg="$pg" -v w="$W" -v h="$H" -v s="$STEPS" -v n="$RUNS" -v cores="$(nproc)" 'BEGIN {
	printf "Life %dx%d, %d steps, median of %d, %d cores: C loop (gcc -O2, one thread) %.3f s, procgen rules run (JSON in and out) %.3f s, ratio %.2f\n",
		w, h, s, n, cores, c / 1e9, pg / 1e9, pg / c
}'
