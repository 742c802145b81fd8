#!/usr/bin/env bash
# equiv-check.sh: do two commits of procgen write the same files for every
# shipped input?
#
#   scripts/equiv-check.sh BASE [HEAD]        (make equiv BASE=<commit> [HEAD=<commit>])
#
# BASE and HEAD are commits; without HEAD the work tree (uncommitted changes
# included) is the second side. Each side's pure-Go procgen (CGO_ENABLED=0) is
# built in a temporary git worktree under a temporary directory that is removed
# at exit. Then the same commands (every input of a job under configs/ and
# testdata/, --help of every command, and, when $SHARED exists, a sample of the
# shared corpora) run with each binary, one after the other in the same empty
# directory, with --device cpu and a fixed --seed, HOME and XDG directories of
# their own and no PROCGEN_*, SLURM_* or Kubernetes shard variables. The inputs
# are the work tree's (the script's own checkout), the same files for both sides.
#
# Compared per command: the exit status, standard output and standard error
# (the commands run with -q, so stderr holds only warnings and errors), the
# list of files written, and every file: meshes (.obj, .mtl, .glb) by what they
# describe (vertex, face, triangle and line counts, materials, bounds; see
# scripts/meshstat), everything else (PNG, JPEG, y4m, CSV, ASC, JSON, RLE,
# text, accumulations) byte for byte after these normalisations, each of
# something that differs from run to run of one binary (found by running
# BASE = HEAD):
#   JSON: the values of keys ending in "_ms" or "_s" (timings such as
#   "evaluate_ms", "compute_s" and rates such as "terminals_per_ms") are
#   measured wall time; they become 0. A forest directory's
#   .procgen-manifest.json holds summary.json's size, which follows those
#   timings, so the size of the manifest's .json entries is blanked too;
#   every entry's hash (sha256 up to manifest version 1, xxh64 from 2: the
#   files hashed are compared themselves), inode and change time (ino,
#   ctime_ns) and the manifest's version are left out (and the commas at
#   line ends, which follow what is left out).
#   stdout and stderr: the JSON timings above (JSON written to -o -), and the
#   timings of the human summaries ("evaluate 21.26 ms", "598 terminals/ms")
#   become "N". pga's "rule X: more than N shapes (MaxShapes)" names the rule
#   of whichever thread's batch of shapes crossed the shared counter first
#   (internal/pga/cpu.go tick), which varies from run to run of one binary
#   (menger_sponge_3.pga: SubY, ZDiscard, A...), so the rule name is dropped.
#
# One line per command: "same  ID" or "DIFF  ID: ..." followed by one indented
# line per differing file. Exit status 0 when every command is the same, 1 when
# any differs, 2 on a usage or build error.
#
# Environment: SHARED (default ../shared beside the repository) the shared
# corpora; KEEP=1 keeps the temporary directory (its path is printed) to look
# at the outputs; ONLY=REGEX runs only the commands whose ID matches;
# DIFF_LINES=N shows up to N changed lines of a differing text file (8).
set -uo pipefail

die() { echo "equiv-check: $*" >&2; exit 2; }

[[ $# -ge 1 && $# -le 2 && $1 != -* ]] || die "usage: $0 BASE [HEAD]   (HEAD: default the work tree)"
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && git rev-parse --show-toplevel) || die "not in a git checkout"
BASE_REV=$(git -C "$REPO" rev-parse --verify "$1^{commit}") || die "BASE $1 is not a commit"
HEAD_REV=
if [[ $# -eq 2 ]]; then
	HEAD_REV=$(git -C "$REPO" rev-parse --verify "$2^{commit}") || die "HEAD $2 is not a commit"
fi
SHARED=${SHARED:-$REPO/../shared}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/equiv-check.XXXXXX") || die "mktemp failed"
cleanup() {
	for w in "$TMP"/src-*; do
		[[ -d $w ]] && git -C "$REPO" worktree remove --force "$w" >/dev/null 2>&1
	done
	git -C "$REPO" worktree prune >/dev/null 2>&1
	if [[ ${KEEP:-0} == 1 ]]; then echo "equiv-check: kept $TMP" >&2; else rm -rf "$TMP"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# build SIDE REV: procgen of REV (the work tree when REV is empty) as $TMP/bin/SIDE.
build() {
	local side=$1 rev=$2 src=$REPO
	if [[ -n $rev ]]; then
		src=$TMP/src-$side
		git -C "$REPO" worktree add --detach --quiet "$src" "$rev" || die "git worktree add $rev failed"
	fi
	(cd "$src" && CGO_ENABLED=0 go build -trimpath -o "$TMP/bin/$side" ./cmd/procgen) ||
		die "building procgen at ${rev:-the work tree} failed"
}

START=$SECONDS
mkdir -p "$TMP/bin" "$TMP/home" "$TMP/out/base" "$TMP/out/head" "$TMP/meta/base" "$TMP/meta/head"
echo "equiv-check: BASE $BASE_REV, HEAD ${HEAD_REV:-work tree of $REPO}" >&2
build base "$BASE_REV"
build head "$HEAD_REV"
(cd "$REPO" && CGO_ENABLED=0 go build -o "$TMP/bin/meshstat" ./scripts/meshstat) || die "building scripts/meshstat failed"
echo "equiv-check: built in $((SECONDS - START)) s" >&2

# The inputs, the same files for both sides, at the same short relative paths.
mkdir -p "$TMP/in"
cp -r "$REPO/configs" "$REPO/testdata" "$TMP/in/"
HAVE_SHARED=0
if [[ -d $SHARED/corpus ]]; then
	ln -s "$(cd "$SHARED" && pwd)" "$TMP/shared"
	HAVE_SHARED=1
fi

# ---- the commands ---------------------------------------------------------
# Each line: ID, a tab, a bash command run in an empty directory $TMP/work.
# pg runs procgen with the fixed global flags; pgh runs it bare (help, compare).
# IN is the inputs' directory and SH the shared corpora, both relative to a
# directory beside them (the globs below expand in $TMP/list).
IN=../in
SH=../shared
emit() { printf '%s\t%s\n' "$1" "$2"; }
id_of() { local s=${1#"$IN"/}; s=${s#configs/}; s=${s//\//_}; echo "${s// /_}"; }

help_commands() {
	# Every command and sub-command BASE has, from its own help, as "a b c".
	local queue=("") cmd sub
	while ((${#queue[@]})); do
		cmd=${queue[0]}
		queue=("${queue[@]:1}")
		echo "$cmd"
		# shellcheck disable=SC2086
		for sub in $("$TMP/bin/base" $cmd --help 2>/dev/null |
			awk '/^Available Commands:/ { on = 1; next } on && /^$/ { on = 0 } on { print $1 }'); do
			[[ $sub == help ]] && continue
			queue+=("${cmd:+$cmd }$sub")
		done
	done
}

flame_commands() {
	local f e n
	for f in "$IN"/configs/flame/*.flam3 "$IN"/testdata/flame/*.flam3; do
		emit "flame-render_$(id_of "$f")" "pg flame render $f --width 64 --quality 5 -o out.png"
	done
	f=$IN/testdata/flame/simple.flam3
	emit flame-render-jpeg "pg flame render $IN/configs/flame/demo.flam3 --width 64 --quality 5 -o out.jpg"
	emit flame-render-png16 "pg flame render $f --width 48 --quality 5 --png16 -o out.png"
	emit flame-render-from-png "pg flame render $f --width 48 --quality 5 -o a.png && pg flame render a.png --quality 3 -o b.png"
	emit flame-render-stdin "pg flame render - --width 40 --quality 3 -o out.png < $f"
	emit flame-render-folder "pg flame render $IN/testdata/flame/ --width 32 --quality 3 -o renders/"
	emit flame-render-shard-merge "pg flame render $f --width 40 --quality 4 --shard 0/2 -o p0.accum && pg flame render $f --width 40 --quality 4 --shard 1/2 -o p1.accum && pg flame merge p0.accum p1.accum -o merged.png"
	local two="$IN/testdata/flame/simple.flam3 $IN/testdata/flame/heavy.flam3"
	emit flame-sequence "pg flame sequence $two --loop-frames 3 --edge-frames 3 -o seq.flam3"
	emit flame-sequence-rotate "pg flame sequence $IN/configs/flame/demo.flam3 --rotate --loop-frames 4 -o rot.flam3"
	emit flame-sequence-inter "pg flame sequence $two --inter --edge-frames 4 --stagger 0.5 -o inter.flam3"
	emit flame-sequence-stdout "pg flame sequence $two --inter --edge-frames 2 -o -"
	emit flame-animate "pg flame sequence $two --loop-frames 2 --edge-frames 2 -o seq.flam3 && pg flame animate seq.flam3 --width 32 --quality 3 --begin 0 --end 3 -o f%03d.png && pg flame animate seq.flam3 --width 24 --quality 3 --begin 1 --end 2 --dtime 0.5 -o anim.y4m"
	for e in "$IN"/configs/flame/flock/edges/*.json; do
		emit "flame-animate_$(id_of "$e")" "pg flame animate '$e' --profile $IN/configs/flame/flock/profiles/1080p.json --frames 3 --width 32 --height 18 --quality 3 -o f%02d.png && pg flame animate '$e' --profile $IN/configs/flame/flock/profiles/1080p.json --frames 2 --width 16 --height 8 --quality 3 -o edge.y4m"
	done
	for n in "$IN"/configs/flame/flock/nodes/*.json; do
		emit "flame-animate_$(id_of "$n")" "pg flame animate $n --frames 2 --width 24 --height 16 --quality 3 -o n%d.png && pg flame animate $n --still --width 24 --height 16 --quality 3 -o s%d.png"
	done
	emit compare "pg --seed 1 flame render $f --width 48 --quality 5 -o a.png && pg --seed 2 flame render $f --width 48 --quality 5 -o b.png && pgh compare a.png b.png --json --diff diff.png; echo compare-exit=\$?; pgh compare a.png a.png --max-mad 0"
}

lsys_commands() {
	local f
	for f in "$IN"/configs/lsys/*.l; do
		emit "lsys-derive_$(id_of "$f")" "pg lsys derive $f -n 3 --image-width 96 --image-height 96 -o out.obj -o out.glb -o out.json -o out.png -o out.txt"
	done
	for f in "$IN"/configs/lsys/{tree3d,bush-fig125}.l; do
		emit "lsys-cylinders_$(id_of "$f")" "pg lsys derive $f -n 3 --cylinders 6 -o tube.obj -o tube.glb"
	done
	emit lsys-all-steps "pg lsys derive $IN/configs/lsys/koch-island.l -n 2 --all-steps -o steps.txt && pg lsys derive $IN/configs/lsys/koch-island.l -n 2 --format json -o -"
	# The L-system paper's seven benchmark systems (configs/lsys; the shared
	# corpus only describes them) at their full derivation length: JSON stats
	# (string lengths, geometry counts and bounds), no geometry files.
	for f in hilbert3d koch-island row-of-trees plant2d tree3d stochastic-plant context-plant; do
		emit "lsys-bench_$f" "pg lsys derive $IN/configs/lsys/$f.l -o stats.json"
	done
}

# grid GRAMMAR: the lots for a grammar: one for the trees (a tree8_3 is 23k
# terminals, 36 MB of OBJ and GLB a lot), four for the rest.
grid() { case ${1##*/} in *tree*) echo 1x1 ;; *) echo 2x2 ;; esac; }

pga_commands() {
	local f
	for f in "$IN"/configs/pga/*.pga; do
		emit "pga-city_$(id_of "$f")" "pg pga city $f --grid $(grid "$f") -o city.obj -o city.glb -o city.json"
	done
	emit pga-city-lots "pg pga city $IN/configs/pga/suburban.pga --lots $IN/configs/pga/town.geojson -o town.obj -o town.json"
	emit pga-city-stats-only "pg pga city $IN/configs/pga/skyscrapers.pga --grid 4x3 --stats-only -o stats.json; pg pga city $IN/configs/pga/skyscrapers.pga --grid 2x2 --stats-only"
	emit pga-city-seed "pg --seed 7 pga city $IN/configs/pga/tower.pga --grid 3x2 -o city.obj -o city.json"
}

forest_commands() {
	local s="$IN/configs/forest/example-stems.csv --species $IN/configs/forest/example-species.yaml"
	emit forest-default "pg forest disperse $s -o rain"
	emit forest-default-name "pg forest disperse $s --formats csv"
	emit forest-exact-where "pg forest disperse $s --method exact --where 'dbh>20' --formats csv,asc -o big"
	emit forest-exact-cutoff "pg forest disperse $s --method exact --cutoff 20 --formats csv -o cut"
	emit forest-multires "pg forest disperse $s --method multires --formats csv -o mr"
	emit forest-torus "pg forest disperse $s --boundary torus --formats asc -o torus"
	emit forest-buffer "pg forest disperse $s --boundary buffer --margin 10 --formats asc -o buffer"
	emit forest-realize "pg --seed 7 forest disperse $s --realize --formats csv,asc -o r"
	emit forest-force "pg forest disperse $s --formats csv -o rain && pg forest disperse $s --formats asc -o rain --force"
}

rules_commands() {
	local r=$IN/configs/rules
	emit rules-eca "pg rules run $r/eca.rules --generate 8 -D RULE=110 --steps 16 -o eca.json --stats fired.csv"
	emit rules-life-boards "pg rules run $r/life.rules --states $r/boards.csv --steps 10 -o final.csv && pg rules run $r/life.rules --states $r/boards.csv --steps 3 -o final.json"
	emit rules-life-rle "pg rules run $r/life.rules -D W=16 -D H=12 --generate 1 --steps 5 -o out.rle"
	emit rules-life-frames "pg rules run $r/life.rules -D W=16 -D H=16 --generate 2 --steps 6 --frames fr --frames-every 2 -o final.png"
	emit rules-life-trace "pg rules run $r/life.rules --generate 4 --steps 3 --trace 0,3 --trace-out trace.jsonl"
	emit rules-life-interpreter "pg rules run $r/life.rules --generate 16 --steps 8 --kernel interpreter -o final.json"
	emit rules-sandpile "pg rules run $r/sandpile.rules --generate 4 --until-fixpoint --stats fired.csv -o sp.json"
	emit rules-synthetic "pg rules run $r/synthetic.rules --generate 64 --schedule simple --layout A --steps 3 -o out.json"
	emit rules-forestfire "pg --seed 7 rules run $r/forestfire.rules --generate 1 --steps 30 --record 'count(cell == 1)' --record 'count(cell == 2)' --record-out history.csv -o fire.json"
}

other_commands() {
	local c
	while read -r c; do
		emit "help_${c// /_}" "pgh $c --help"
	done < <(help_commands)
	emit config-show "pgh config show --origin"
	emit completion-bash "pgh completion bash"
}

shared_commands() {
	((HAVE_SHARED)) || return 0
	local f t
	local c=corpus/flames
	for f in $(cd "$SHARED/$c/genomes" && ls -- *.flam3 | sort | head -20); do
		emit "shared-flame_${f%.flam3}" "pg flame render $SH/$c/genomes/$f --width 48 --quality 3 -o out.png"
	done
	for f in $(cd "$SHARED/$c/artists/flames" 2>/dev/null && ls -- *.flam3 *.flame 2>/dev/null | sort | head -5); do
		emit "shared-artist_${f%.*}" "pg flame render '$SH/$c/artists/flames/$f' --width 48 --quality 3 -o out.png"
	done
	for f in A1_loop A2_edge A3_hand; do
		[[ -f $SHARED/corpus/flames/anim/sequences/$f.flam3 ]] || continue
		# Two frames from the first keyframe's time on.
		t=$(grep -o 'time="[^"]*"' "$SHARED/corpus/flames/anim/sequences/$f.flam3" | head -1 | tr -dc '0-9.-')
		emit "shared-animate_$f" "pg flame animate $SH/corpus/flames/anim/sequences/$f.flam3 --width 32 --quality 3 --begin ${t:-0} --end $(awk -v t="${t:-0}" 'BEGIN { print t + 1 }') -o f%04d.png"
	done
	for f in $(cd "$SHARED/$c/flock/edges" 2>/dev/null && ls -- *=*.json | sort | head -2); do
		emit "shared-flock_${f%.json}" "pg flame animate '$SH/$c/flock/edges/$f' --frames 2 --width 32 --height 18 --quality 3 -o f%02d.png"
	done
	for f in "$SHARED"/corpus/pga/grammars/*.pga; do
		emit "shared-pga_$(basename "$f" .pga)" "pg pga city $SH/corpus/pga/grammars/$(basename "$f") --grid $(grid "$f") -o city.obj -o city.glb -o city.json"
	done
}

all_commands() {
	flame_commands
	lsys_commands
	pga_commands
	forest_commands
	rules_commands
	other_commands
	shared_commands
}

# ---- running and comparing ------------------------------------------------

# run SIDE ID CMD: run CMD with SIDE's binary in an empty $TMP/work, then move
# what it wrote to $TMP/out/SIDE/ID and its exit status and output to meta/.
run_side() {
	local side=$1 id=$2 cmd=$3
	local meta=$TMP/meta/$1/$2
	rm -rf "$TMP/work" "$TMP/home"
	mkdir -p "$TMP/work" "$TMP/home" "$meta"
	(
		cd "$TMP/work" || exit 2
		exec env -i PATH="$PATH" HOME="$TMP/home" XDG_CONFIG_HOME="$TMP/home/.config" \
			XDG_CACHE_HOME="$TMP/home/.cache" LANG=C LC_ALL=C TZ=UTC PG="$TMP/bin/$side" \
			bash -c 'pg() { "$PG" --device cpu -q --seed 1 "$@"; }; pgh() { "$PG" "$@"; }; '"$cmd"
	) >"$meta/stdout" 2>"$meta/stderr" </dev/null
	echo $? >"$meta/exit"
	mv "$TMP/work" "$TMP/out/$side/$id"
}

JSON_TIMES='s/^([[:space:]]*"[A-Za-z0-9_]*_m?s"):[[:space:]]*[-+0-9.eE]+/\1: 0/'
TEXT_TIMES='s/[0-9]+(\.[0-9]+)? ms\b/N ms/g; s/[0-9]+(\.[0-9]+)? ([A-Za-z]+)\/ms\b/N \2\/ms/g'
SHAPE_RACE='s/rule "[^"]*": more than ([0-9]+) shapes \(MaxShapes\)/rule "(a race)": more than \1 shapes (MaxShapes)/'

# norm FILE: FILE as compared (see the header). JSON is pretty-printed one key a
# line by procgen, so the keys are replaced line by line.
norm() {
	case $1 in
	*/.procgen-manifest.json)
		awk '/"name":/ { js = ($0 ~ /\.json",?$/) }
			js && /"size":/ { sub(/:.*/, ": \"(normalised)\"" (/,$/ ? "," : "")) }
			/"(ino|ctime_ns|sha256|xxh64|procgen_manifest)":/ { next }
			{ sub(/,$/, ""); print }' "$1" ;;
	*.json) sed -E "$JSON_TIMES" "$1" ;;
	*/stdout | */stderr) sed -E -e "$JSON_TIMES" -e "$TEXT_TIMES" -e "$SHAPE_RACE" "$1" ;;
	*) cat "$1" ;;
	esac
}

# how A B: one phrase saying how two differing non-mesh files differ.
how() {
	local a=$1 b=$2 sa sb at
	sa=$(stat -c %s "$a") sb=$(stat -c %s "$b")
	at=$(cmp <(norm "$a") <(norm "$b") 2>/dev/null | sed -nE 's/.*differ: (byte [0-9]+), (line [0-9]+)/\1, \2/p')
	case $a in
	*.png | *.jpg | *.jpeg | *.y4m | *.accum | *.tif)
		echo "bytes differ (${at:-sizes}; $sa -> $sb bytes)" ;;
	*)
		local ln=${at##*line } la lb
		la=$(norm "$a" | sed -n "${ln:-1}p" | cut -c1-100)
		lb=$(norm "$b" | sed -n "${ln:-1}p" | cut -c1-100)
		echo "text differs at ${at:-end of the shorter file} ($sa -> $sb bytes): '$la' -> '$lb'"
		# The first changed lines, to judge the change without digging.
		diff -U0 <(norm "$a") <(norm "$b") | grep -vE '^(@@|--- |\+\+\+ )' | head -n "${DIFF_LINES:-8}" |
			cut -c1-160 | sed 's/^/            /' ;;
	esac
}

# compare ID: prints the verdict line, returns 1 when anything differs.
compare_one() {
	local id=$1 b=$TMP/out/base/$1 h=$TMP/out/head/$1 mb=$TMP/meta/base/$1 mh=$TMP/meta/head/$1
	local -a d=()
	local f r
	[[ $(<"$mb/exit") == $(<"$mh/exit") ]] || d+=("exit status $(<"$mb/exit") -> $(<"$mh/exit")")
	for f in stdout stderr; do
		cmp -s <(norm "$mb/$f") <(norm "$mh/$f") || d+=("$f: $(how "$mb/$f" "$mh/$f")")
	done
	local lb lh
	lb=$(cd "$b" && find . ! -type d | sort)
	lh=$(cd "$h" && find . ! -type d | sort)
	while read -r f; do [[ -n $f ]] && d+=("${f#./}: only in BASE"); done < <(comm -23 <(echo "$lb") <(echo "$lh"))
	while read -r f; do [[ -n $f ]] && d+=("${f#./}: only in HEAD"); done < <(comm -13 <(echo "$lb") <(echo "$lh"))
	while read -r f; do
		[[ -n $f ]] || continue
		case $f in
		*.obj | *.mtl | *.glb)
			r=$("$TMP/bin/meshstat" -cmp "$b/$f" "$h/$f" 2>&1) || d+=("${f#./}: mesh: $r") ;;
		*)
			cmp -s <(norm "$b/$f") <(norm "$h/$f") || d+=("${f#./}: $(how "$b/$f" "$h/$f")") ;;
		esac
	done < <(comm -12 <(echo "$lb") <(echo "$lh"))
	if ((${#d[@]} == 0)); then
		echo "same  $id"
		return 0
	fi
	echo "DIFF  $id: ${#d[@]} difference(s)"
	printf '        %s\n' "${d[@]}"
	return 1
}

N=0 NDIFF=0
while IFS=$'\t' read -r id cmd; do
	[[ -n ${ONLY:-} && ! $id =~ $ONLY ]] && continue
	run_side base "$id" "$cmd"
	run_side head "$id" "$cmd"
	N=$((N + 1))
	compare_one "$id" || NDIFF=$((NDIFF + 1))
done < <(mkdir -p "$TMP/list" && cd "$TMP/list" && all_commands)

echo "equiv-check: $N commands, $NDIFF differ ($((SECONDS - START)) s; BASE $BASE_REV, HEAD ${HEAD_REV:-work tree})"
((HAVE_SHARED)) || echo "equiv-check: no shared corpora at $SHARED (set SHARED=): configs/ and testdata/ only"
((NDIFF == 0))
