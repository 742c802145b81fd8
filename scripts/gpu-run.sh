#!/usr/bin/env bash
# Runs on the GPU machine (no Go toolchain there) over the binaries that
# `make gpu-bins` left in bin/: every GPU test binary, the devices report, and
# the GPU benchmarks (median of several runs is computed by scripts/median.awk).
# Usage: scripts/gpu-run.sh [tests|bench|all]   (default all)
set -uo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
out=${OUT:-/tmp/procgen-gpu}
mkdir -p "$out"
status=0
echo "commit $(cat bin/COMMIT 2>/dev/null || echo unknown)"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader || true
./bin/procgen devices || status=1
if [ "$what" = tests ] || [ "$what" = all ]; then
  for t in bin/*.test; do
    echo "== $t"
    PROCGEN_REQUIRE_GPU=1 "$t" -test.count=1 -test.v 2>&1 | tee "$out/$(basename "$t").log" \
      | grep -E '^(--- FAIL|FAIL|ok|PASS)|panic' || true
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  done
fi
if [ "$what" = bench ] || [ "$what" = all ]; then
  for t in bin/*.test; do
    echo "== bench $t"
    PROCGEN_REQUIRE_GPU=1 "$t" -test.run '^$' -test.bench "${BENCH:-.}" -test.count "${COUNT:-5}" 2>&1 \
      | tee "$out/$(basename "$t").bench" | grep -E '^Benchmark' || status=1
  done
  echo "== medians"
  cat "$out"/*.bench | awk -f scripts/median.awk
fi
exit $status
