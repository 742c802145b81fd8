#!/usr/bin/env bash
# GPU-machine run for the foundation and the flame renderer, over the binaries
# `make gpu-bins` left in bin/: the devices report, every GPU test (which must
# not skip), the fidelity table against flam3, and the benchmarks with medians.
# Expects the flam3 corpus copied to .gpu/shared/corpus/flames (../shared does
# not travel to the GPU machine):
#   mkdir -p .gpu/shared/corpus && cp -r ../shared/corpus/flames .gpu/shared/corpus/
# Writes logs under $OUT (or /tmp/procgen-gpu).
set -uo pipefail
root=$(pwd)
out=${OUT:-/tmp/procgen-gpu}
mkdir -p "$out"
status=0
echo "commit $(cat bin/COMMIT)"
./bin/procgen devices || status=1
./bin/procgen devices --json > "$out/devices.json"

echo "== gpu: tests and primitive benchmarks (2^28 uint32)"
PROCGEN_REQUIRE_GPU=1 ./bin/gpu.test -test.count=1 > "$out/gpu-tests.log" 2>&1 || status=1
tail -n 1 "$out/gpu-tests.log"
PROCGEN_REQUIRE_GPU=1 ./bin/gpu.test -test.run '^$' -test.bench . -test.count 5 > "$out/gpu.bench" 2>&1 || status=1
awk -f scripts/median.awk "$out/gpu.bench" | grep -v ns/op

# The flame test binary looks for ../../../shared and ../../testdata from its
# package directory: recreate that layout.
w=$(mktemp -d)
mkdir -p "$w/r/internal/flame"
ln -s "$root/.gpu/shared" "$w/shared"
ln -s "$root/testdata" "$w/r/testdata"
cd "$w/r/internal/flame"
echo "== flame: kernel load (JIT policy always on an empty cache, then cached, then never)"
CUDA_CACHE_DISABLE=1 "$root/bin/flame.test" -test.run '^TestCUDAKernelLoad$' -test.v 2>&1 | grep -E 'loaded in|FAIL'
echo "== procgen devices --prepare (then the renders below load the cached cubins)"
"$root/bin/procgen" devices --prepare > /dev/null || status=1
echo "== flame: CUDA tests, fidelity against flam3"
PROCGEN_REQUIRE_GPU=1 "$root/bin/flame.test" -test.count=1 -test.v \
  -test.run '^Test(CUDA(Matches|Large|Variations)|FidelityCUDA)' > "$out/flame-tests.log" 2>&1 || status=1
grep -E '^(--- |ok|FAIL)|within|GiB|MAD\(' "$out/flame-tests.log"
echo "== flame: benchmarks (800x592, quality 2000, supersample 4)"
PROCGEN_REQUIRE_GPU=1 "$root/bin/flame.test" -test.run '^$' -test.bench 'CUDAFrame' -test.count 5 > "$out/flame.bench" 2>&1 || status=1
awk -f "$root/scripts/median.awk" "$out/flame.bench" | grep -v ns/op
PROCGEN_REQUIRE_GPU=1 "$root/bin/flame.test" -test.run '^$' -test.bench 'CUDAStages' -test.benchtime 5x > "$out/stages.bench" 2>&1 || status=1
grep Benchmark "$out/stages.bench" | sed 's/  */ /g'
cd "$root"
echo "== end to end: procgen flame render, genome file to PNG file (median of 5)"
for g in simple heavy; do
  for i in 1 2 3 4 5; do
    /usr/bin/time -f "%e" ./bin/procgen -q flame render "testdata/flame/$g.flam3" --quality 2000 -o "$out/$g.png" 2>&1
  done | sort -n | sed -n 3p | sed "s/^/$g: /; s/$/ s/"
done
for g in simple heavy; do
  for i in 1 2 3 4 5; do
    /usr/bin/time -f "%e" ./bin/procgen -q --jit never flame render "testdata/flame/$g.flam3" --quality 2000 -o "$out/$g.png" 2>&1
  done | sort -n | sed -n 3p | sed "s/^/$g (--jit never): /; s/$/ s/"
done
./bin/procgen -v flame render testdata/flame/simple.flam3 --quality 2000 -o "$out/simple.png" 2>&1 | tail -n 12
exit $status
