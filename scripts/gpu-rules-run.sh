#!/bin/sh
# The rules GPU checks and benchmarks, run on the GPU machine (no Go there).
# Here: make kernels; go test -c -tags cuda -o bin/rules/rules.test ./internal/rules;
# go build -tags cuda -o bin/rules/procgen ./cmd/procgen; copy bin/rules and a
# work tree holding configs/rules and an empty internal/rules (the test
# binary reads ../../configs/rules from its package directory) to the GPU
# machine, then run this from the directory that holds bin/rules:
#   WORK=.gpu/rules sh scripts/gpu-rules-run.sh      (BENCH, COUNT, BENCHTIME to narrow)
# The benchmark output goes to $OUT/rules-bench.txt (or ./rules-bench.txt);
# scripts/rules-table.awk turns it into the table beside the paper's figures.
set -e
ROOT=$(pwd)
BIN=$ROOT/bin/rules
WORK=${WORK:-.}
OUTDIR=${OUT:-$ROOT}
export PROCGEN_REQUIRE_GPU=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader || true
cat "$BIN/COMMIT" 2>/dev/null || true
cd "$WORK/internal/rules"
if [ "${TESTS:-1}" = 1 ]; then
	"$BIN/rules.test" -test.run 'CUDA' -test.v 2>&1 | grep -v '^=== RUN' | tail -40
fi
if [ -n "${CLI:-}" ]; then
	cd "$ROOT/$WORK"
	sh "$CLI"
	cd "$ROOT/$WORK/internal/rules"
fi
if [ "${BENCH:-Table}" != none ]; then
	"$BIN/rules.test" -test.run '^$' -test.bench "${BENCH:-^BenchmarkTable\$}" -test.count "${COUNT:-5}" \
		-test.benchtime "${BENCHTIME:-20x}" > "$OUTDIR/rules-bench.txt" 2>&1 || true
	tail -5 "$OUTDIR/rules-bench.txt"
	grep -c 'ms/app' "$OUTDIR/rules-bench.txt" || true
fi
