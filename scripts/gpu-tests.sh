#!/usr/bin/env bash
# scripts/gpu-tests.sh: the GPU tests of every package, on the GPU machine,
# from the test binaries `make gpu-bins` built here (BIN, default bin/;
# files ending in .xz are unpacked first, for a carry under its size limit).
# PROCGEN_REQUIRE_GPU=1, so a test that finds no GPU fails instead of
# skipping. The packages run in two lanes beside three lanes of rules' tests
# (-short: the long tables are CPU work), all sharing the one GPU; each
# package's log goes to LOGS (default $OUT/gpu-tests, else bin/gpu-tests),
# and a line per lane (rc, seconds, passes, failures, skips) to
# LOGS/summary.txt. RUN=regex narrows every package to matching tests.
# Exit status: 0 when every package passed.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=$(cd "${BIN:-bin}" && pwd) || exit 2
LOGS=${LOGS:-${OUT:-$BIN}/gpu-tests}
TIMEOUT=${TIMEOUT:-500s}
mkdir -p "$LOGS"
: > "$LOGS/summary.txt"
shopt -s nullglob
for f in "$BIN"/*.xz; do xz -d -f -T0 "$f"; done
chmod +x "$BIN"/*.test 2>/dev/null
export PROCGEN_REQUIRE_GPU=${PROCGEN_REQUIRE_GPU-1} # empty: skip where no GPU (a dry run)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$LOGS/gpu.txt" 2>&1
pattern=(); [[ -n ${RUN:-} ]] && pattern=(-test.run "$RUN")

run() { # run DIR NAME [args...]: one package's test binary from its own directory
	local d=$1 name=$2; shift 2
	local log="$LOGS/$name.log" t0=$SECONDS rc
	if [[ ! -x $BIN/$(basename "$d").test ]]; then
		echo "$name: no test binary $BIN/$(basename "$d").test" >> "$LOGS/summary.txt"
		return
	fi
	(cd "internal/$d" && "$BIN/$(basename "$d").test" -test.v -test.timeout "$TIMEOUT" "$@" > "$log" 2>&1)
	rc=$?
	echo "$name rc=$rc $((SECONDS - t0))s pass=$(grep -c -- '--- PASS' "$log") fail=$(grep -c -- '--- FAIL' "$log") skip=$(grep -c -- '--- SKIP' "$log")" >> "$LOGS/summary.txt"
}
laneA() { for d in flame flame/anim gpu; do run "$d" "$(echo "$d" | tr / _)" "${pattern[@]}"; done; }
laneB() { for d in pga lsys lsys/turtle forest forest/fit rules/golly rules/lifepack; do run "$d" "$(echo "$d" | tr / _)" "${pattern[@]}"; done; }
laneR() { # rules' tests, every third one from $1
	local list
	list=$(cd internal/rules && "$BIN/rules.test" -test.list "${RUN:-.*}" | grep '^Test' | awk -v i="$1" 'NR % 3 == i' | paste -sd'|')
	[[ -z $list ]] && return
	run rules "rules.$1" -test.short -test.run "^($list)\$"
}
t0=$SECONDS
laneA & laneB & laneR 0 & laneR 1 & laneR 2 &
wait
echo "total $((SECONDS - t0))s, commit $(cat "$BIN/COMMIT" 2>/dev/null)" >> "$LOGS/summary.txt"
cat "$LOGS/summary.txt"
for f in "$LOGS"/*.log; do grep -A15 -e '--- FAIL' "$f" | head -40; done
! grep -q -E 'rc=[1-9]|no test binary' "$LOGS/summary.txt"
