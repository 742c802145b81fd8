#!/usr/bin/env bash
# GPU-machine run for L-systems, over the binaries `make gpu-bins` left in
# bin/: the CUDA derivation and turtle tests (which must not skip), their
# benchmarks with medians, and the CLI on every configs/lsys system on both
# backends. Writes logs under $OUT (or /tmp/procgen-gpu).
set -uo pipefail
root=$(pwd)
out=${OUT:-/tmp/procgen-gpu}
mkdir -p "$out"
status=0
echo "commit $(cat bin/COMMIT)"

echo "== lsys: CUDA derivation tests (GPU string == CPU string)"
(cd internal/lsys && PROCGEN_REQUIRE_GPU=1 "$root/bin/lsys.test" -test.count=1 -test.v -test.run 'CUDA' \
  > "$out/lsys-tests.log" 2>&1) || status=1
grep -E '^(--- |ok|FAIL|PASS)|panic' "$out/lsys-tests.log" | head -40
echo "== lsys/turtle: CUDA interpretation tests (GPU geometry == CPU within 1e-5)"
(cd internal/lsys/turtle && PROCGEN_REQUIRE_GPU=1 "$root/bin/turtle.test" -test.count=1 -test.v -test.run 'CUDA' \
  > "$out/turtle-tests.log" 2>&1) || status=1
grep -E '^(--- |ok|FAIL|PASS)|panic' "$out/turtle-tests.log" | head -40

echo "== lsys: derivation benchmarks (median of 5)"
(cd internal/lsys && PROCGEN_REQUIRE_GPU=1 "$root/bin/lsys.test" -test.run '^$' -test.bench "DeriveCUDA" \
  -test.count 5 -test.timeout 20m > "$out/lsys.bench" 2>&1) || status=1
awk -f "$root/scripts/median.awk" "$out/lsys.bench" | grep -v 'ns/op\|B/op\|allocs/op'
echo "== lsys/turtle: interpretation benchmarks (median of 5)"
(cd internal/lsys/turtle && PROCGEN_REQUIRE_GPU=1 "$root/bin/turtle.test" -test.run '^$' \
  -test.bench 'CUDAInterpret$' -test.benchtime 5x -test.count 5 -test.timeout 20m > "$out/turtle.bench" 2>&1) || status=1
awk -f "$root/scripts/median.awk" "$out/turtle.bench" | grep -v 'ns/op\|B/op\|allocs/op'

echo "== the paper's seven systems (Table 2) on the CPU (16 cores) and the GPU, median of 5"
(cd internal/lsys/turtle && PROCGEN_REQUIRE_GPU=1 "$root/bin/turtle.test" -test.run '^$' -test.bench 'Paper' \
  -test.count 5 > "$out/paper.bench" 2>&1) || status=1
awk -f "$root/scripts/median.awk" "$out/paper.bench" | grep -v 'ns/op\|B/op\|allocs/op'

echo "== procgen lsys derive: every config on both backends, same string statistics"
geo=$(mktemp -d) # OBJ and JSON files: many, and large; only the verdicts are kept
for f in configs/lsys/*.l; do
  n=$(basename "$f" .l)
  for dev in cpu cuda; do
    ./bin/procgen -q --device $dev lsys derive "$f" -o "$geo/$n.$dev.json" -o "$geo/$n.$dev.obj" || status=1
  done
  keys='"(step|modules|params|total_modules|final_modules|segments|polygons|max_depth)"'
  if cmp -s <(grep -iE "$keys" "$geo/$n.cpu.json") <(grep -iE "$keys" "$geo/$n.cuda.json"); then
    echo "$n: same derivation and geometry statistics"
  else
    echo "$n: CPU and CUDA statistics DIFFER"; status=1
  fi
done
exit $status
