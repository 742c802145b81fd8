#!/usr/bin/env bash
# make bench-anim: sustained animation speed of the whole `flame animate`
# command at cuburn's 1080p profile (1920x1080, 2500 samples per pixel,
# motion blur: 1024 temporal samples per frame), FRAMES frames of a flock
# edge, written as PNG files and as an mp4 (ffmpeg, libx264), median of
# $RUNS runs each; beside it the still renderer's iterate+accumulate rate
# on the frames' centre genomes (`-v` prints the iterate time), so the table
# shows what share of the still rate a whole animation run keeps.
# Run on the GPU machine from the repository root after `make gpu-bins`.
#   EDGE=path  (default: configs/flame/flock/edges/simple-a=simple-b.json)
#   DB=dir     --genome-db (default: the directory above the edge's)
#   DEVICE=cuda|cpu|auto  RUNS=5  FRAMES=120  OUTS="png mp4"
set -uo pipefail
RUNS=${RUNS:-5}
FRAMES=${FRAMES:-120}
DEVICE=${DEVICE:-cuda}
OUTS=${OUTS:-png mp4}
P=${PROCGEN:-bin/procgen}
EDGE=${EDGE:-configs/flame/flock/edges/simple-a=simple-b.json}
DB=${DB:-$(dirname "$(dirname "$EDGE")")}
PROFILE=${PROFILE:-configs/flame/flock/profiles/1080p.json}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
W=$(sed -n 's/.*"width": *\([0-9]*\).*/\1/p' "$PROFILE"); H=$(sed -n 's/.*"height": *\([0-9]*\).*/\1/p' "$PROFILE")
SPP=$(sed -n 's/.*"spp": *\([0-9]*\).*/\1/p' "$PROFILE")

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
anim() { # OUT: wall seconds of one whole command, "fail" on failure
  rm -rf "$w/out" "$w/a.mp4"; mkdir -p "$w/out"
  local t0 t1
  t0=$(date +%s.%N)
  if ! $P -q --device "$DEVICE" flame animate "$EDGE" --genome-db "$DB" --profile "$PROFILE" \
      --frames "$FRAMES" -o "$1" 2> "$w/err"; then echo fail; cat "$w/err" >&2; return; fi
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}

samples=$(awk -v f="$FRAMES" -v w="$W" -v h="$H" -v s="$SPP" 'BEGIN { printf "%.0f", f * w * h * s }')
echo "procgen $($P version | head -1 | awk '{print $2}') on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1), $(nproc) cores, --device $DEVICE"
echo "edge $(basename "$EDGE"), ${W}x${H}, $SPP spp, $FRAMES frames, median of $RUNS runs"
# A first run of a genome shape compiles its own iterate kernel (NVRTC, in
# the background while the built-in kernel renders the first frames) and
# caches it; the runs below load it from the cache, as every later run of
# the edge does. The first run's time is printed apart.
t0=$(date +%s.%N)
$P -q --device "$DEVICE" flame animate "$EDGE" --genome-db "$DB" --profile "$PROFILE" --frames "$FRAMES" \
  -o "$w/warm%04d.png" 2>/dev/null && rm -f "$w"/warm*.png
echo "first run (compiles and caches the edge's kernel): $(awk -v a="$t0" -v b="$(date +%s.%N)" -v f="$FRAMES" 'BEGIN { printf "%.2f s, %.2f frames/s", b - a, f / (b - a) }')"
# The still renderer's rate on the same genomes: every frame's centre genome
# without motion blur (a profile with frame_width 0), rendered by one command;
# all their samples over all their iterate seconds (-v prints both per frame).
# The rate varies along an edge (up to 2x where the attractor is compact and
# samples crowd onto the same buckets), so the whole edge is what compares.
printf '{ "type": "profile", "width": %s, "height": %s, "spp": %s, "frame_width": 0 }\n' "$W" "$H" "$SPP" > "$w/still.json"
still=$($P -v --device "$DEVICE" flame animate "$EDGE" --genome-db "$DB" --profile "$w/still.json" --frames "$FRAMES" \
    -o "$w/s%04d.png" 2>&1 \
  | sed -n 's/.*(iterate \([0-9.]*\) s[^)]*), [0-9]* temporal samples, \([0-9]*\) samples.*/\2 \1/p' \
  | awk '{ n += $1; t += $2 } END { if (t > 0) printf "%.3f\n", n / t / 1e9 }')
rm -f "$w"/s*.png
echo
echo "| output | wall (s) | frames/s | G samples/s | share of the still rate ($still G/s) |"
echo "|---|---:|---:|---:|---:|"
for o in $OUTS; do
  case $o in
    png) out="$w/out/f%04d.png" ;;
    *) out="$w/a.$o" ;;
  esac
  t=$(for i in $(seq "$RUNS"); do anim "$out"; done | grep -v fail | median)
  [ -n "$t" ] || { echo "| $o | fail | | | |"; continue; }
  awk -v o="$o" -v t="$t" -v f="$FRAMES" -v s="$samples" -v st="$still" 'BEGIN {
    printf "| %s | %.2f | %.2f | %.2f | %.0f %% |\n", o, t, f / t, s / t / 1e9, (st > 0 ? 100 * s / t / 1e9 / st : 0) }'
done
