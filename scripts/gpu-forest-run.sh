#!/usr/bin/env bash
# GPU-machine run for forest dispersal, over the binaries `make gpu-bins`
# left in bin/: the CUDA tests (which must not skip), the CUDA benchmarks
# with medians, and the CLI on the two corpus plots on both backends.
# Expects the forest corpus copied to .gpu/shared/corpus/forest:
#   mkdir -p .gpu/shared/corpus && cp -r ../shared/corpus/forest .gpu/shared/corpus/
set -uo pipefail
root=$(pwd)
out=${OUT:-/tmp/procgen-gpu}
mkdir -p "$out"
status=0
echo "commit $(cat bin/COMMIT)"
# The test binary looks for ../../../shared from its package directory.
w=$(mktemp -d)
mkdir -p "$w/r/internal/forest"
ln -s "$root/.gpu/shared" "$w/shared"
ln -s "$root/cuda" "$w/r/cuda"
cd "$w/r/internal/forest"
echo "== forest: CUDA tests"
PROCGEN_REQUIRE_GPU=1 "$root/bin/forest.test" -test.count=1 -test.v -test.run 'CUDA|GPU' > "$out/forest-tests.log" 2>&1 || status=1
grep -E '^(--- |ok|FAIL|PASS)|panic' "$out/forest-tests.log" | head -30
echo "== forest: CUDA benchmarks (median of 5)"
PROCGEN_REQUIRE_GPU=1 "$root/bin/forest.test" -test.run '^$' \
  -test.bench 'BenchmarkCUDA(Exact50k|Exact500k|ExactBrute500k|FFT50k|FFT500k|FFTTorus500k)$' -test.count 5 \
  > "$out/forest.bench" 2>&1 || status=1
awk -f "$root/scripts/median.awk" "$out/forest.bench" | grep -v 'ns/op\|B/op\|allocs/op'
cd "$root"
echo "== procgen forest disperse on the corpus plots (whole command, seconds; compute time from summary.json)"
c=.gpu/shared/corpus/forest
cat > "$w/species.yaml" <<'YAML'
species:
  "*": {str: 100, d: 1.32e-4, theta: 3, min_dbh: 10}
YAML
for plot in bci bigwoods; do
  if [ $plot = bci ]; then
    args=("$c/bci_hec37_ViewFullTable.tsv" --dbh-unit mm --where Status=alive --where PlotCensusNumber=7)
  else
    args=("$c/bigwoods2015.csv" --dbh-col gbh14 --girth --where 'gbh14>0')
  fi
  for m in exact fft; do
    for dev in cpu cuda; do
      rm -rf "$w/o"
      t=$( { /usr/bin/time -f %e ./bin/procgen -q --device $dev forest disperse "${args[@]}" --species "$w/species.yaml" \
        --method $m --formats csv -o "$w/o" > /dev/null; } 2>&1 | tail -n 1) || status=1
      echo "$plot $m $dev: ${t} s; $(tr -d '\n ' < "$w/o/summary.json" | grep -o '"timings_s":{[^}]*}')"
    done
  done
done
exit $status
