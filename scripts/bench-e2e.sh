#!/usr/bin/env bash
# make bench-e2e: every job at a small, a medium and a large input, the whole
# command's wall time with --device cpu, cuda and auto (median of $RUNS runs,
# the devices interleaved round by round so that the host's drift falls on
# all three alike), the backend auto chose and its time against the faster
# of the two. The host is calibrated first (procgen devices --calibrate), so
# auto weighs with this host's factors.
# Run on the GPU machine from the repository root after `make gpu-bins`
# (bin/procgen with CUDA); prints a Markdown table. ONLY=regex picks cases by
# label ("small", "forest"). Inputs are the configs/
# and testdata/ that ship, and a synthetic stem map it writes itself.
# AB=OTHER/procgen compares two builds: every run of $P is followed by the
# same run of OTHER (the order swapping from round to round), each with its
# own calibration (XDG_CACHE_HOME) and output paths, and the table shows
# both builds' medians and the change.
set -uo pipefail
RUNS=${RUNS:-7}
P=${PROCGEN:-bin/procgen}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

# A synthetic stem map: N trees of one species, uniform over W x H metres.
stems() { # N W H FILE
  awk -v n="$1" -v w="$2" -v h="$3" 'BEGIN { srand(7); print "x,y,species,dbh";
    for (i = 0; i < n; i++) printf "%.2f,%.2f,sp,%.1f\n", rand()*w, rand()*h, 15 + rand()*45 }' > "$4"
}
stems 1000 200 100 "$w/s1e3.csv"
stems 100000 1000 500 "$w/s1e5.csv"
stems 20000 500 500 "$w/s2e4.csv"
# 2,500 lots on their own polygons (L, courtyard, U, trapezoid): 1.84 M
# terminals and a 222 MB GLB with courtyard.pga.
scripts/polygon-lots.sh 2500 "$w/poly.geojson"
# forest fit at the issue's size: 100 traps of 1 m^2 on a 30 m grid among
# 5,000 parents on 300 m x 300 m, their counts drawn from a Gaussian kernel
# (a = 8 m) by forest disperse --realize on 1 m cells.
# fit-10k: the same with the issue's 10,000 candidate parameter sets (the
# default is 4,096). The same with 500 parents (stronger seeds): an
# evaluation a tenth the size.
printf 'species:\n  sp: {kernel: gaussian, str: 20, a: 8, min_dbh: 10}\n' > "$w/g.yaml"
printf 'species:\n  sp: {kernel: gaussian, str: 200, a: 8, min_dbh: 10}\n' > "$w/g10.yaml"
for f in "5000 s5e3 g traps" "500 s5e2 g10 traps5e2"; do
  read -r n s g tr <<< "$f"
  stems "$n" 300 300 "$w/$s.csv"
  "$P" -q --device cpu forest disperse "$w/$s.csv" --species "$w/$g.yaml" --bounds 0,0,300,300 --realize --seed 7 \
    --formats csv -o "$w/rain-$s" || exit 1
  awk -F, 'BEGIN { print "x,y,area,count" } NR > 1 && ($1 - 15.5) % 30 == 0 && ($2 - 15.5) % 30 == 0 \
    { print $1 "," $2 ",1," $5 }' "$w/rain-$s/sp.csv" > "$w/$tr.csv"
done
cat > "$w/sp.yaml" <<'YAML'
species:
  sp: {str: 100, d: 1.32e-4, theta: 3, min_dbh: 10}
YAML

# Each case: a label, then the procgen arguments after the global flags.
cases=(
  "flame small|flame render testdata/flame/simple.flam3 --width 160 --quality 10 -o $w/f.png"
  "flame medium|flame render testdata/flame/heavy.flam3 --width 320 --quality 20 -o $w/f.png"
  "flame large|flame render testdata/flame/heavy.flam3 --width 800 --quality 200 -o $w/f.png"
  "lsys small|lsys derive configs/lsys/tree3d.l -o $w/t.obj"
  "lsys medium|lsys derive configs/lsys/koch-island.l -n 7 -o $w/k.json"
  "lsys large|lsys derive configs/lsys/koch-island.l -n 9 --max-modules 300000000 -o $w/k.json"
  "pga small|pga city configs/pga/skyscrapers.pga --grid 2x2 --stats-only"
  "pga medium|pga city configs/pga/skyscrapers.pga --grid 23x23 --stats-only"
  "pga large|pga city configs/pga/suburban.pga --grid 66x64 --stats-only"
  "pga glb|pga city configs/pga/city_overview.pga --grid 300x300 -o $w/c.glb"
  "pga polygons|pga city configs/pga/courtyard.pga --lots $w/poly.geojson -o $w/p.glb"
  "pga cuts|pga city configs/pga/roofs.pga --lots $w/poly.geojson -o $w/q.glb"
  "pga parts|pga city configs/pga/parts.pga --lots $w/poly.geojson -o $w/s.glb"
  "pga roof faces|pga city configs/pga/slopes.pga --lots $w/poly.geojson -o $w/h.glb"
  "pga gables|pga city configs/pga/gables.pga --grid 100x100 -o $w/gg.glb"
  "pga assets|pga city configs/pga/assets.pga --grid 100x100 -o $w/a.glb"
  "forest small|forest disperse $w/s1e3.csv --species $w/sp.yaml --formats csv -o $w/fo --force"
  "forest medium|forest disperse $w/s1e5.csv --species $w/sp.yaml --formats csv -o $w/fo --force"
  "forest large|forest disperse $w/s2e4.csv --species $w/sp.yaml --method exact --formats csv -o $w/fo --force"
  "forest fit|forest fit $w/s5e3.csv $w/traps.csv --kernel gaussian --counts poisson -o $w/fit.yaml"
  "forest fit-10k|forest fit $w/s5e3.csv $w/traps.csv --kernel gaussian --counts poisson --candidates 10000 -o $w/fit.yaml"
  "forest fit-small|forest fit $w/s5e2.csv $w/traps5e2.csv --kernel gaussian --counts poisson -o $w/fit.yaml"
  "rules small|rules run configs/rules/eca.rules --generate 1000 --steps 100 -o $w/r.json"
  "rules medium|rules run configs/rules/life.rules --generate 4096 --steps 200 -o $w/r.json"
  "rules large|rules run configs/rules/synthetic.rules --generate 2048 --steps 10 -o $w/r.json"
  # The floor under every cuda run: a process that opens the GPU (driver,
  # context) and exits, doing nothing else. On cpu it opens none, but its
  # report still starts the driver to list the GPUs.
  "device floor|devices --check"
)
# PGA_REAL_LOTS=FILE adds real footprints (a GeoJSON of buildings, not
# shipped: see TestFootprintsRealLots) built with roofs.pga (cuts and roofs
# on their pieces), footprints.pga (which inserts an asset: the device
# GLB takes its part from the host) and parts.pga (SubDiv across them).
# "pga assets" is assets.pga's air conditioners, one per bay of a city.
[[ -n ${PGA_REAL_LOTS:-} ]] && cases+=("pga real lots|pga city configs/pga/roofs.pga --lots $PGA_REAL_LOTS -o $w/r.glb"
  "pga real assets|pga city configs/pga/footprints.pga --lots $PGA_REAL_LOTS -o $w/r.glb"
  "pga real parts|pga city configs/pga/parts.pga --lots $PGA_REAL_LOTS -o $w/r.glb")

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
bins=("$P")
[[ -n ${AB:-} ]] && bins+=("$AB")
wall() { # build-index device args...: seconds of one run ("fail" when it fails)
  local b=$1 dev=$2; shift 2
  local t0 t1
  t0=$(date +%s.%N)
  if ! XDG_CACHE_HOME=$w/cache$b ${bins[$b]} -q --device "$dev" "$@" > /dev/null 2> "$w/err"; then echo fail; return; fi
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}

# The calibration auto applies in the runs below (each build's own cache).
calibrate() { # build-index: the calibration's summary
  if XDG_CACHE_HOME=$w/cache$1 ${bins[$1]} devices --calibrate > "$w/cal" 2> "$w/calerr"; then
    echo "calibrated first by procgen devices --calibrate ($(sed -n 's/.*wrote .* in \([0-9.]* s\) (\(cpu [^)]*\)).*/\2, in \1/p' "$w/calerr"))"
  else
    echo "procgen devices --calibrate failed ($(tail -1 "$w/calerr")): auto used the built-in constants"
  fi
}
version() { ${bins[$1]} version | head -1 | awk '{print $2}'; }
calib=$(calibrate 0)
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
if [[ -n ${AB:-} ]]; then
  calib_ab=$(calibrate 1)
  echo "procgen $(version 0) against $(version 1) on ${gpu:-no GPU}, $(nproc) cores; host $calib (A) and $calib_ab (B); median of $RUNS interleaved rounds (cpu, cuda, auto, the order rotating; A and B alternating), seconds, A / B"
  echo
  echo "| job | input | cpu A / B | cuda A / B | auto A / B | change cpu / cuda / auto |"
  echo "|---|---|---:|---:|---:|---:|"
else
  echo "procgen $(version 0) on ${gpu:-no GPU}, $(nproc) cores; host $calib; median of $RUNS interleaved rounds (cpu, cuda, auto, the order rotating), seconds"
  echo
  echo "| job | input | cpu | cuda | auto | auto chose (estimated work) | auto / best |"
  echo "|---|---|---:|---:|---:|---|---:|"
fi
for c in "${cases[@]}"; do
  label=${c%%|*}; args=${c#*|}
  [[ $label =~ ${ONLY:-.} ]] || continue
  declare -A t=() runs=()
  # The order rotates from round to round (cpu cuda auto, cuda auto cpu,
  # auto cpu cuda), so each device follows each other as often and any
  # effect of one run on the next falls on all three alike. (With a fixed
  # order, pga large measured auto at 1.26 and 1.30x cpu on two hosts
  # while both ran the same CPU code after a 4-ms probe.) With AB the two
  # builds alternate too, each writing its own outputs (a forest directory
  # one build wrote is not the other's to replace).
  order=(cpu cuda auto)
  for i in $(seq "$RUNS"); do
    for k in 0 1 2; do
      dev=${order[$(( (i + k) % 3 ))]}
      for j in $(seq 0 $(( ${#bins[@]} - 1 ))); do
        b=$(( (i + j) % ${#bins[@]} ))
        # shellcheck disable=SC2086
        runs[$b,$dev]+="$(wall $b $dev ${args//-o $w\//-o $w/b$b-}) "
      done
    done
  done
  for b in $(seq 0 $(( ${#bins[@]} - 1 ))); do
    for dev in cpu cuda auto; do
      # shellcheck disable=SC2086
      t[$b,$dev]=$(printf '%s\n' ${runs[$b,$dev]} | grep -v fail | median)
    done
  done
  shown=${args%% -o *}; shown=${shown//$w\//}
  if [[ -n ${AB:-} ]]; then
    change=$(for dev in cpu cuda auto; do
      awk -v a="${t[0,$dev]:-0}" -v b="${t[1,$dev]:-0}" 'BEGIN { if (a > 0 && b > 0) printf "%+.1f %%\n", 100 * (a / b - 1); else print "-" }'
    done | paste -sd/ | sed 's|/| / |g')
    echo "| ${label% *} | ${label#* }: \`$shown\` | ${t[0,cpu]:-fail} / ${t[1,cpu]:-fail} | ${t[0,cuda]:-fail} / ${t[1,cuda]:-fail} | ${t[0,auto]:-fail} / ${t[1,auto]:-fail} | $change |"
    unset t runs
    continue
  fi
  # shellcheck disable=SC2086
  XDG_CACHE_HOME=$w/cache0 $P -v --device auto $args > /dev/null 2> "$w/v" || true
  chose=$(grep -o 'device: [a-z]*' "$w/v" | head -1 | awk '{print $2}')
  work=$(sed -n 's/.*(auto: [^,]*, \([^:]*\):.*/\1/p' "$w/v" | head -1)
  ratio=$(awk -v a="${t[0,auto]:-0}" -v c="${t[0,cpu]:-0}" -v g="${t[0,cuda]:-0}" 'BEGIN {
    b = (g > 0 && g < c) ? g : c; if (b > 0) printf "%.2f", a / b; else print "-" }')
  echo "| ${label% *} | ${label#* }: \`$shown\` | ${t[0,cpu]:-fail} | ${t[0,cuda]:-fail} | ${t[0,auto]:-fail} | ${chose:-?} (${work:-?}) | $ratio |"
  unset t runs
done
