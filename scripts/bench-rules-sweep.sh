#!/bin/sh
# Times a forest-fire sweep of 5 x 5 values x 8 replicates as one command
# against the 200 separate commands it replaces, and checks that their CSV
# rows are equal. Usage: scripts/bench-rules-sweep.sh [PROCGEN] (default:
# procgen on PATH). Run from the repository root.
set -eu
PG=${1:-procgen}
FF=configs/rules/forestfire.rules
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
ARGS="--device cpu rules run $FF --generate 1 --steps 200 --record count(cell==1)"
t0=$(date +%s.%N)
$PG -q $ARGS -D P=0.01:0.05:0.01 -D F=0.0001,0.0002,0.0005,0.001,0.002 --replicates 8 --seed 1 \
	-o "$DIR/sweep.csv" --record-out "$DIR/sweep-rec.csv"
t1=$(date +%s.%N)
for P in 0.01 0.02 0.03 0.04 0.05; do
	for F in 0.0001 0.0002 0.0005 0.001 0.002; do
		for r in 0 1 2 3 4 5 6 7; do
			$PG -q $ARGS -D P=$P -D F=$F --seed $((1 + r)) -o "$DIR/s.csv" --record-out "$DIR/r.csv"
			tail -n +2 "$DIR/s.csv" | sed "s/^/$P,$F,$r,/" >>"$DIR/joined.csv"
			tail -n +2 "$DIR/r.csv" | sed "s/^/$P,$F,$r,/" >>"$DIR/joined-rec.csv"
		done
	done
done
t2=$(date +%s.%N)
tail -n +2 "$DIR/sweep.csv" | cmp - "$DIR/joined.csv"
tail -n +2 "$DIR/sweep-rec.csv" | cmp - "$DIR/joined-rec.csv"
echo "rows equal; sweep: $(echo "$t1 - $t0" | bc) s, 200 separate runs: $(echo "$t2 - $t1" | bc) s"
