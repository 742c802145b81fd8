#!/usr/bin/env bash
# make bench-flam3-anim: flam3-animate against `procgen flame animate` on the
# same frames of a corpus animation, at the corpus references' settings
# (flam3's ss 0.4 and qs 0.5: 320x236, quality 1000), one process per frame
# for both, each program's runs alternating; prints the median over $REPEAT
# runs of the frames' summed wall time and CPU-seconds (user + system, from
# GNU time). procgen runs on --device cpu, and on cuda where a GPU is.
#
#   SEQ=path    (default: ../shared/corpus/flames/anim/sequences/A2_edge.flam3:
#               80 gaussian temporal samples, an edge between two genomes)
#   FRAMES="0 6 12"  THREADS=$(nproc)  REPEAT=3  FLAM3=flam3-animate  PROCGEN=bin/procgen
set -euo pipefail
cd "$(dirname "$0")/.."
SEQ=${SEQ:-../shared/corpus/flames/anim/sequences/A2_edge.flam3}
FRAMES=${FRAMES:-0 6 12}
NT=${THREADS:-$(nproc)}
REPEAT=${REPEAT:-3}
FLAM3=${FLAM3:-flam3-animate}
P=${PROCGEN:-bin/procgen}
TIMECMD=${TIMECMD:-/usr/bin/time}
command -v "$FLAM3" >/dev/null || { echo "bench-flam3-anim: $FLAM3 not found (apt install flam3)" >&2; exit 2; }
[ -x "$P" ] || { mkdir -p bin; go build -o "$P" ./cmd/procgen; }
[ -f "$SEQ" ] || { echo "bench-flam3-anim: $SEQ not found" >&2; exit 2; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

# run NAME CMD...: one frame's wall and CPU seconds appended to $w/NAME.
run() {
  local name=$1; shift
  "$TIMECMD" -f "%e %U %S" -o "$w/t" "$@" > /dev/null 2> "$w/err" || { cat "$w/err" >&2; exit 1; }
  awk '{ print $1, $2 + $3 }' "$w/t" >> "$w/$name"
}
devices="cpu"
"$P" devices 2>/dev/null | grep -q 'available:.*yes' && devices="cpu cuda"
for r in $(seq "$REPEAT"); do
  for f in $FRAMES; do
    run "flam3.$r" env in="$SEQ" frame="$f" ss=0.4 qs=0.5 nthreads="$NT" format=png enable_png_comments=0 \
      verbose=0 out="$w/flam3.png" "$FLAM3"
    for d in $devices; do
      run "$d.$r" env GOMAXPROCS="$NT" "$P" -q --device "$d" flame animate "$SEQ" --begin "$f" --end "$f" \
        --width 320 --height 236 --quality 1000 -o "$w/p%05d.png"
    done
  done
done
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
echo "$(basename "$SEQ"), frames $FRAMES at 320x236, quality 1000, $NT threads, $(nproc) cores; median of $REPEAT runs"
echo "procgen $("$P" version | head -1 | awk '{print $2}')"
echo
echo "| program | wall (s) | CPU-seconds |"
echo "|---|---:|---:|"
for name in flam3 $devices; do
  wall=$(for r in $(seq "$REPEAT"); do awk '{ s += $1 } END { print s }' "$w/$name.$r"; done | median)
  cpu=$(for r in $(seq "$REPEAT"); do awk '{ s += $2 } END { print s }' "$w/$name.$r"; done | median)
  label=$name
  [ "$name" = flam3 ] && label="flam3-animate"
  [ "$name" != flam3 ] && label="procgen --device $name"
  printf '| %s | %.2f | %.1f |\n' "$label" "$wall" "$cpu"
done
