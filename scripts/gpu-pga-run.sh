#!/usr/bin/env bash
# GPU-machine run for the PGA evaluator, over the test binary `make gpu-bins`
# left in bin/ (or PGA_TEST): the CUDA tests (which must not skip), one
# compute-sanitizer pass on small scenes, and the CUDA benchmarks (device ms
# and terminals/s per scene, scheduler and flag setting, CPU beside them)
# with medians of 5. Expects the corpus grammars copied to .gpu/pga:
#   mkdir -p .gpu/pga && cp ../shared/corpus/pga/grammars/*.pga .gpu/pga/
set -uo pipefail
out=${OUT:-/tmp/procgen-gpu}
mkdir -p "$out"
t=${PGA_TEST:-bin/pga.test}
export PGA_CORPUS=${PGA_CORPUS:-.gpu/pga} PGA_CONFIGS=${PGA_CONFIGS:-configs/pga} PROCGEN_REQUIRE_GPU=1
status=0
[ -f bin/COMMIT ] && echo "commit $(cat bin/COMMIT)"
echo "== pga: CUDA tests"
"$t" -test.count=1 -test.v -test.run 'CUDA' > "$out/pga-tests.log" 2>&1 || status=1
grep -E '^(--- |ok|FAIL|PASS)|^    --- (FAIL|SKIP)|panic|^scene ' "$out/pga-tests.log" | head -40
echo "== pga: compute-sanitizer on small scenes"
if command -v compute-sanitizer > /dev/null; then
  timeout 300 compute-sanitizer --tool memcheck --error-exitcode 1 "$t" -test.count=1 \
    -test.run 'CUDAEquivalenceScenes/(Tree4,3|CityOverview)' > "$out/pga-sanitizer.log" 2>&1 || status=1
  tail -3 "$out/pga-sanitizer.log"
fi
echo "== pga: CUDA benchmarks (median of 5; dev-ms is device time of evaluation and mesh)"
"$t" -test.run '^$' -test.bench 'CUDA' -test.benchtime 3x -test.count 5 > "$out/pga.bench" 2>&1 || status=1
awk -f scripts/median.awk "$out/pga.bench" | grep -v 'ns/op\|B/op\|allocs/op'
exit $status
