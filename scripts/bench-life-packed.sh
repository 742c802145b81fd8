#!/usr/bin/env bash
# make bench-life-packed (on the GPU machine, after `make gpu-bins`): the
# whole command for Life on one 16384x16384 torus, given by notation so that
# the GPU runs it bit-packed (internal/rules/lifepack):
#   rules run --rule B3/S23:T16384,16384 --generate 1 --steps 1000 -o big.rle
# with --device cuda and auto (median of RUNS), and --kernel generated (the
# rules engine's own kernel, once) whose board must be the same file; the
# CPU runs 10 and 20 steps (once each: 1000 would take minutes), from which
# its 1000-step time is extrapolated (fixed cost + per-step cost).
# PROCGEN (default bin/procgen), RUNS (default 3).
set -uo pipefail
P=${PROCGEN:-bin/procgen}
RUNS=${RUNS:-3}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
R=(rules run --rule B3/S23:T16384,16384 --generate 1)
t() { # seconds of one whole command
	local t0 t1
	t0=$(date +%s.%N)
	"$P" -q "$@" > /dev/null || { echo fail; return; }
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
cuda=$(for _ in $(seq "$RUNS"); do t --device cuda "${R[@]}" --steps 1000 -o "$w/packed.rle"; done | median)
auto=$(for _ in $(seq "$RUNS"); do t --device auto "${R[@]}" --steps 1000 -o "$w/auto.rle"; done | median)
gen=$(t --device cuda "${R[@]}" --steps 1000 --kernel generated -o "$w/gen.rle")
same=no
cmp -s "$w/packed.rle" "$w/gen.rle" && cmp -s "$w/packed.rle" "$w/auto.rle" && same=yes
c10=$(t --device cpu "${R[@]}" --steps 10 -o "$w/c10.rle")
c20=$(t --device cpu "${R[@]}" --steps 20 -o "$w/c20.rle")
c1000=$(awk -v a="$c10" -v b="$c20" 'BEGIN { s = (b - a) / 10; printf "%.0f", a - 10 * s + 1000 * s }')
echo "Life 16384x16384 torus, 1000 steps, $(nproc) cores, $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
echo "| run | seconds |"
echo "|---|---:|"
echo "| cuda, bit-packed (median of $RUNS) | $cuda |"
echo "| auto (median of $RUNS) | $auto |"
echo "| cuda, --kernel generated (once) | $gen |"
echo "| cpu, 10 steps / 20 steps (once each) | $c10 / $c20 |"
echo "| cpu, 1000 steps (extrapolated) | $c1000 |"
echo "boards the same (packed, auto, generated): $same; cpu 1000 / cuda: $(awk -v a="$c1000" -v b="$cuda" 'BEGIN { printf "%.0fx", a / b }')"
