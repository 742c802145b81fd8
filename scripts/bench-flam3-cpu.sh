#!/usr/bin/env bash
# Samples per CPU-second of flam3-render and `procgen --device cpu flame render`
# on corpus genomes, at the corpus references' framing (400 wide, flam3's ss
# from refs/settings.tsv) and quality 1000, one thread and all threads.
#
#   scripts/bench-flam3-cpu.sh [N]      N genomes spread evenly over the corpus (default 4; 0: all)
#
# Environment:
#   FLAM3_DIR   flam3 install prefix (default .flam3: bin/flam3-render, built from
#               .flam3/src by this script when missing; put scottdraves/flam3's
#               source there first, e.g. git clone https://github.com/scottdraves/flam3 .flam3/src)
#   PROCGEN     procgen binary (default: go build ./cmd/procgen into bin/procgen-bench)
#   CORPUS      flam3 corpus (default ../shared/corpus/flames)
#   QUALITY     samples per output pixel (default 1000)
#   THREADS     thread counts to run, space separated (default "1 $(nproc)")
#   ONLY        extended regexp: only genomes whose name matches (overrides N)
#   TIMECMD     GNU time (default /usr/bin/time)
#   REPEAT      runs of each program per genome and thread count, alternating,
#               keeping each one's least CPU time (default 1; on a shared or
#               virtual machine 3 steadies the figures)
#
# CPU-seconds are user+system time from /usr/bin/time (getrusage of the whole
# process: parsing, iteration, density estimation, filtering and PNG writing,
# for both programs), never wall time. Samples are the render's own count
# (quality * zoom^2 * width * height, the same formula in both); procgen
# prints it and flam3 renders the same number. ratio = procgen's samples per
# CPU-second / flam3's at the same thread count (>= 1: procgen is faster).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-4}
FLAM3_DIR=${FLAM3_DIR:-$PWD/.flam3}
CORPUS=${CORPUS:-../shared/corpus/flames}
QUALITY=${QUALITY:-1000}
THREADS=${THREADS:-"1 $(nproc)"}
ONLY=${ONLY:-}
REPEAT=${REPEAT:-1}

die() { echo "bench-flam3-cpu: $*" >&2; exit 1; }
TIMECMD=${TIMECMD:-/usr/bin/time}
[ -x "$TIMECMD" ] || die "$TIMECMD is missing (apt-get install time, or set TIMECMD)"
[ -f "$CORPUS/refs/settings.tsv" ] || die "no corpus at $CORPUS (set CORPUS)"

FLAM3=$FLAM3_DIR/bin/flam3-render
if [ ! -x "$FLAM3" ]; then
	[ -x "$FLAM3_DIR/src/configure" ] ||
		die "no $FLAM3 and no flam3 source in $FLAM3_DIR/src (git clone https://github.com/scottdraves/flam3 $FLAM3_DIR/src; needs libxml2, libpng, libjpeg dev headers)"
	echo "building flam3 into $FLAM3_DIR (its default flags: -O3 -ffast-math) ..." >&2
	(cd "$FLAM3_DIR/src" && ./configure --prefix="$FLAM3_DIR" --enable-shared=no >"$FLAM3_DIR/configure.log" 2>&1 &&
		make -j"$(nproc)" >"$FLAM3_DIR/make.log" 2>&1 && make install >>"$FLAM3_DIR/make.log" 2>&1) ||
		die "flam3 build failed: see $FLAM3_DIR/configure.log and $FLAM3_DIR/make.log"
fi
if [ -z "${PROCGEN:-}" ]; then
	PROCGEN=bin/procgen-bench
	go build -o "$PROCGEN" ./cmd/procgen
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Rows of settings.tsv: genome width height genome_width genome_quality flam3_ss ...
mapfile -t rows < <(tail -n +2 "$CORPUS/refs/settings.tsv")
pick=()
if [ -n "$ONLY" ]; then
	for r in "${rows[@]}"; do [[ ${r%%$'\t'*} =~ $ONLY ]] && pick+=("$r"); done
elif [ "$N" -le 0 ] || [ "$N" -ge "${#rows[@]}" ]; then
	pick=("${rows[@]}")
else
	for ((i = 0; i < N; i++)); do pick+=("${rows[i * ${#rows[@]} / N]}"); done
fi
[ "${#pick[@]}" -gt 0 ] || die "no genome selected"

# cpusec FILE: user+system seconds that /usr/bin/time -f '%U %S' wrote last.
cpusec() { tail -n 1 "$1" | awk '{printf "%.3f", $1 + $2}'; }
rate() { awk -v s="$1" -v c="$2" 'BEGIN { printf "%.2f", s / c / 1e6 }'; }

declare -A tot_s tot_f tot_p
printf '%-36s %7s %10s | %8s %8s | %8s %8s | %6s\n' genome threads Msamples flam3_s 'flam3_M/s' procgen_s 'procgen_M/s' ratio
for r in "${pick[@]}"; do
	IFS=$'\t' read -r name width height gw gq ss qs _ <<<"$r"
	genome=$CORPUS/genomes/$name.flam3
	q=$(awk -v q="$QUALITY" -v gq="$gq" 'BEGIN { printf "%.10g", q / gq }')
	for t in $THREADS; do
		fc= pc=
		for ((rep = 0; rep < REPEAT; rep++)); do
			# procgen first: it reports the sample count.
			GOMAXPROCS=$t "$TIMECMD" -o "$tmp/pt" -f '%U %S' \
				"$PROCGEN" --device cpu -v flame render "$genome" --width "$width" --height "$height" \
				--quality "$QUALITY" -o "$tmp/p.png" 2>"$tmp/plog" || { cat "$tmp/plog" >&2; die "procgen failed on $name"; }
			samples=$(sed -n 's/.*x[0-9]*, \([0-9]*\) samples).*/\1/p' "$tmp/plog" | tail -n 1)
			[ -n "$samples" ] || { cat "$tmp/plog" >&2; die "no sample count in procgen's output for $name"; }
			nthreads=$t ss=$ss qs=$q isaac_seed=bench verbose=0 out=$tmp/f.png \
				"$TIMECMD" -o "$tmp/ft" -f '%U %S' "$FLAM3" <"$genome" >"$tmp/flog" 2>&1 ||
				{ cat "$tmp/flog" >&2; die "flam3-render failed on $name"; }
			fc=$(awk -v a="${fc:-1e99}" -v b="$(cpusec "$tmp/ft")" 'BEGIN { printf "%.3f", b < a ? b : a }')
			pc=$(awk -v a="${pc:-1e99}" -v b="$(cpusec "$tmp/pt")" 'BEGIN { printf "%.3f", b < a ? b : a }')
		done
		fr=$(rate "$samples" "$fc")
		pr=$(rate "$samples" "$pc")
		printf '%-36s %7s %10.1f | %8s %8s | %8s %8s | %6s\n' "${name:0:36}" "$t" \
			"$(awk -v s="$samples" 'BEGIN{print s/1e6}')" "$fc" "$fr" "$pc" "$pr" \
			"$(awk -v a="$pr" -v b="$fr" 'BEGIN { printf "%.3f", a / b }')"
		tot_s[$t]=$(awk -v a="${tot_s[$t]:-0}" -v b="$samples" 'BEGIN{printf "%.0f", a + b}')
		tot_f[$t]=$(awk -v a="${tot_f[$t]:-0}" -v b="$fc" 'BEGIN{printf "%.3f", a + b}')
		tot_p[$t]=$(awk -v a="${tot_p[$t]:-0}" -v b="$pc" 'BEGIN{printf "%.3f", a + b}')
	done
done
for t in $THREADS; do
	fr=$(rate "${tot_s[$t]}" "${tot_f[$t]}")
	pr=$(rate "${tot_s[$t]}" "${tot_p[$t]}")
	printf '%-36s %7s %10.1f | %8s %8s | %8s %8s | %6s\n' "TOTAL (${#pick[@]} genomes)" "$t" \
		"$(awk -v s="${tot_s[$t]}" 'BEGIN{print s/1e6}')" "${tot_f[$t]}" "$fr" "${tot_p[$t]}" "$pr" \
		"$(awk -v a="$pr" -v b="$fr" 'BEGIN { printf "%.3f", a / b }')"
done
