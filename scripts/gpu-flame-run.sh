#!/usr/bin/env bash
# GPU-machine run for the flame renderer: tests (CUDA vs Go variations, GPU vs
# CPU, fidelity against flam3 on the corpus), then benchmarks and an
# end-to-end CLI timing. Expects bin/ from `make gpu-bins` and the corpus
# copied to .gpu/shared/corpus/flames (../shared does not travel).
set -uo pipefail
root=$(pwd)
out=${OUT:-/tmp/procgen-gpu}
# The test binary looks for ../../../shared and ../../testdata relative to
# its package directory: recreate that layout.
w=$(mktemp -d)
mkdir -p "$w/r/internal/flame"
ln -s "$root/.gpu/shared" "$w/shared"
ln -s "$root/testdata" "$w/r/testdata"
cd "$w/r/internal/flame"
echo "commit $(cat "$root/bin/COMMIT")"
"$root/bin/procgen" devices
PROCGEN_REQUIRE_GPU=1 "$root/bin/flame.test" -test.count=1 -test.v -test.run "${RUN:-^Test(CUDA(Matches|Large|Variations)|FidelityCUDA)}" 2>&1 | tee "$out/flame-tests.log" \
  | grep -E '^(=== RUN|--- |ok|FAIL|PASS)|fidelity|within|MAD|GiB|panic|_test.go' | grep -v '=== RUN' | head -150
PROCGEN_REQUIRE_GPU=1 "$root/bin/flame.test" -test.run '^$' -test.bench "${BENCH:-CUDA}" -test.count "${COUNT:-3}" 2>&1 | tee "$out/flame.bench" | grep Benchmark
awk -f "$root/scripts/median.awk" "$out/flame.bench"
cd "$root"
for i in 1 2 3; do
  /usr/bin/time -f "end-to-end %e s" ./bin/procgen -q flame render testdata/flame/simple.flam3 -o "$out/simple.png"
done
./bin/procgen -q flame render .gpu/shared/corpus/flames/genomes/01_es243-10333_Aenima.flam3 -o "$out/aenima.png"
