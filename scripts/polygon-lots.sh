#!/usr/bin/env bash
# scripts/polygon-lots.sh N FILE [SEED]: a GeoJSON of N lots in metres on a
# 45 m grid, in turn an L, a block round a courtyard (a hole), a U and a
# trapezoid, each with its sizes, its turn and its floors drawn from SEED:
# lots that stand on their own polygons, for benchmarks of `procgen pga
# city --lots` (make bench-e2e) at sizes no shipped file has. The numbers
# come from the script's own generator (Park and Miller's), not awk's
# rand(), so every awk writes the same file (mawk 1.3.4 of 2020 and of
# 2024 wrote different ones).
set -euo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 N FILE [SEED]" >&2; exit 2; }
[[ $1 =~ ^[1-9][0-9]{0,6}$ && ${3:-7} =~ ^[0-9]{1,9}$ ]] || { echo "$0: N must be 1 to 9999999 and SEED 0 to 999999999" >&2; exit 2; }
awk -v n="$1" -v seed="${3:-7}" '
function ring(k,   s, i, x, y, c, sn) {
  c = cos(turn); sn = sin(turn); s = "["
  for (i = 0; i <= k; i++) {
    x = px[i % k] - w / 2; y = py[i % k] - d / 2
    s = s sprintf("%s[%.3f,%.3f]", i ? "," : "", ox + x * c - y * sn, oy + x * sn + y * c)
  }
  return s "]"
}
function pt(i, x, y) { px[i] = x; py[i] = y }
# The minimal standard generator of Park and Miller: exact in doubles.
function rnd() { state = (state * 16807) % 2147483647; return state / 2147483647 }
BEGIN {
  state = seed % 2147483646 + 1; cols = int(sqrt(n)); if (cols * cols < n) cols++
  print "{\"type\": \"FeatureCollection\", \"crs\": null, \"features\": ["
  for (i = 0; i < n; i++) {
    ox = (i % cols) * 45; oy = int(i / cols) * 45
    w = 24 + 6 * rnd(); d = 24 + 6 * rnd(); a = 8 + 4 * rnd(); b = 8 + 4 * rnd()
    turn = 6.283185307179586 * rnd(); hole = ""
    if (i % 4 == 0) { pt(0,0,0); pt(1,w,0); pt(2,w,b); pt(3,a,b); pt(4,a,d); pt(5,0,d); outer = ring(6) }
    else if (i % 4 == 1) {
      pt(0,0,0); pt(1,w,0); pt(2,w,d); pt(3,0,d); outer = ring(4)
      pt(0,a,b); pt(1,a,d-b); pt(2,w-a,d-b); pt(3,w-a,b); hole = "," ring(4)
    } else if (i % 4 == 2) {
      pt(0,0,0); pt(1,w,0); pt(2,w,d); pt(3,w-a,d); pt(4,w-a,b); pt(5,a,b); pt(6,a,d); pt(7,0,d); outer = ring(8)
    } else { pt(0,0,0); pt(1,w,0); pt(2,w-a,d); pt(3,a,d); outer = ring(4) }
    printf "%s{\"type\": \"Feature\", \"id\": \"%d\", \"properties\": {\"floors\": %d}, \"geometry\": {\"type\": \"Polygon\", \"coordinates\": [%s%s]}}\n", i ? "," : "", i, 2 + int(5 * rnd()), outer, hole
  }
  print "]}"
}' > "$2"
