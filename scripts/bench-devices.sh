#!/usr/bin/env bash
# make bench-devices: one GPU against every GPU of the host (--devices 0
# against --devices all), whole-command wall time, median of $RUNS runs:
# an animation (frames dealt over the devices), a batch of genomes (genomes
# dealt) and one large still (its samples split). Run on a multi-GPU machine
# from the repository root after `make gpu-bins`, with the flame corpus at
# $CORPUS (default ../shared/corpus/flames; copy it along where ../shared does
# not travel). Prints a Markdown table.
set -uo pipefail
RUNS=${RUNS:-3}
P=${PROCGEN:-bin/procgen}
CORPUS=${CORPUS:-../shared/corpus/flames}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
mkdir -p "$w/genomes"
ls "$CORPUS"/genomes/*.flam3 | head -n 16 | xargs -I{} cp {} "$w/genomes/"

cases=(
  "animate 48 frames 1280x720 q1000 (A2 edge, motion blur)|flame animate $CORPUS/anim/sequences/A2_edge.flam3 --end 47 --width 1280 --height 720 --quality 1000 -o $w/f%04d.png"
  "render 16 genomes 1280x720 q2000|flame render $w/genomes --width 1280 --height 720 --quality 2000 -o $w/out"
  "render one still 3840x2160 q4000 (heavy)|flame render testdata/flame/heavy.flam3 --width 3840 --height 2160 --quality 4000 -o $w/big.png"
)
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
wall() { # devices args...
  local devs=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  "$P" -q --device cuda --devices "$devs" "$@" > /dev/null 2> "$w/err" || { sed 's/^/  /' "$w/err" >&2; echo fail; return; }
  t1=$(date +%s.%N)
  echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }'
}
n=$("$P" devices --json | grep -c '"ordinal"')
echo "commit $(cat bin/COMMIT 2>/dev/null), $n devices: $(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | xargs)"
"$P" devices --prepare > /dev/null
echo
echo "| case | --devices 0 | --devices all | speed-up |"
echo "|---|---|---|---|"
for c in "${cases[@]}"; do
  label=${c%%|*}; args=${c#*|}
  rm -rf "$w/out" "$w"/f*.png
  wall 0 $args > /dev/null # warm-up
  one=$(for i in $(seq "$RUNS"); do rm -rf "$w/out"; wall 0 $args; done | median)
  all=$(for i in $(seq "$RUNS"); do rm -rf "$w/out"; wall all $args; done | median)
  echo "| $label | $one s | $all s | $(awk -v a="$one" -v b="$all" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }') |"
done
