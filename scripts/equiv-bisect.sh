#!/usr/bin/env bash
# equiv-bisect.sh: for every command of scripts/equiv-check.sh whose outputs
# differ between two commits, the commit of the first-parent chain between
# them at which they first stop being equal to BASE's, and the one after which
# they are HEAD's.
#
#   scripts/equiv-bisect.sh BASE HEAD
#
# The commands, the way they run and the comparison are equiv-check.sh's own:
# its section from "# ---- the commands" to the main loop is read and
# evaluated here, so the two cannot drift apart. The inputs are the work
# tree's configs/ and testdata/ (and $SHARED), as in equiv-check.sh.
#
# Every command runs with BASE's and HEAD's binaries; for each one that
# differs, two change points are bisected together over
# `git rev-list --first-parent BASE..HEAD`:
#   first: the first commit whose output differs from BASE's;
#   last:  the first commit from which on the output equals HEAD's.
# When they are the same commit the output changed once there (A -> B); when
# not, it changed more than once in between (A -> B -> C) and both points
# are reported. All open commands are bisected together: each step picks the
# commit that falls inside the most open intervals, builds it once and runs
# every command whose interval holds it, so most commands share a few builds.
# A command that changes and changes back between two probed commits
# (A -> B -> A) is not seen; the bisection assumes "equal to BASE" and "equal
# to HEAD" each flip once along the chain, and says so where it finds it does
# not (a probe outside an interval that contradicts it).
#
# Pure-Go binaries (CGO_ENABLED=0, -trimpath) are cached per commit in
# $BINS/<sha>/procgen (default: equiv-bins beside the repository, e.g.
# /work/equiv-bins), built in a temporary detached worktree /tmp/eb-<sha>.
#
# Output: WORK/result.tsv, one line per differing command:
#   ID <tab> first sha <tab> last sha <tab> first subject
# and WORK/verdict/<sha>/<ID>.{base,head}: equiv-check's verdict of that
# command at that commit against BASE and against HEAD (with the changed
# lines). With SWEEP=1 also every consecutive pair of the chain (see sweep
# below; ~15 s a commit here, none for a commit whose binary is the same
# as its parent's). WORK is $WORK (kept, reused: finished probes are not run again) or a
# temporary directory that is kept and printed. ONLY=REGEX limits the commands.
set -uo pipefail

die() { echo "equiv-bisect: $*" >&2; exit 2; }

[[ $# -eq 2 ]] || die "usage: $0 BASE HEAD"
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && git rev-parse --show-toplevel) || die "not in a git checkout"
BASE_REV=$(git -C "$REPO" rev-parse --verify "$1^{commit}") || die "BASE $1 is not a commit"
HEAD_REV=$(git -C "$REPO" rev-parse --verify "$2^{commit}") || die "HEAD $2 is not a commit"
SHARED=${SHARED:-$REPO/../shared}
BINS=${BINS:-$(cd "$REPO/.." && pwd)/equiv-bins}
TMP=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/equiv-bisect.XXXXXX")} || die "mktemp failed"
mkdir -p "$TMP" "$BINS" || die "cannot make $TMP or $BINS"
TMP=$(cd "$TMP" && pwd)
echo "equiv-bisect: work directory $TMP" >&2
START=$SECONDS

# The chain: C[0] = BASE, C[1..n] the first-parent commits up to HEAD.
mapfile -t C < <(echo "$BASE_REV"; git -C "$REPO" rev-list --reverse --first-parent "$BASE_REV..$HEAD_REV")
NC=${#C[@]}
[[ ${C[NC - 1]} == "$HEAD_REV" ]] || die "BASE is not on HEAD's first-parent chain"

# bin SHA: the cached binary of SHA, built when missing.
bin() {
	local sha=$1 out=$BINS/$1/procgen src=/tmp/eb-$1
	if [[ ! -x $out ]]; then
		local t=$SECONDS
		mkdir -p "$BINS/$sha"
		git -C "$REPO" worktree add --detach --quiet "$src" "$sha" || die "git worktree add $sha failed"
		(cd "$src" && CGO_ENABLED=0 go build -trimpath -o "$out.tmp" ./cmd/procgen) || {
			git -C "$REPO" worktree remove --force "$src"
			die "building $sha failed"
		}
		git -C "$REPO" worktree remove --force "$src" || die "git worktree remove $src failed"
		mv "$out.tmp" "$out"
		echo "equiv-bisect: built ${sha:0:7} in $((SECONDS - t)) s" >&2
	fi
	echo "$out"
}

# equiv-check.sh's commands, runner and comparison.
CHECK=$REPO/scripts/equiv-check.sh
LIB=$(sed -n '/^# ---- the commands/,/^N=0 NDIFF=0/p' "$CHECK" | sed '$d')
[[ $LIB == *"all_commands()"* && $LIB == *"compare_one()"* && $LIB == *"run_side()"* ]] ||
	die "cannot find the command list and comparison in $CHECK"
eval "$LIB"

mkdir -p "$TMP/bin" "$TMP/home" "$TMP/meta" "$TMP/out" "$TMP/verdict" "$TMP/refs"
ln -sfn "$(bin "$BASE_REV")" "$TMP/bin/base"
(cd "$REPO" && CGO_ENABLED=0 go build -o "$TMP/bin/meshstat" ./scripts/meshstat) || die "building scripts/meshstat failed"
rm -rf "$TMP/in"
mkdir -p "$TMP/in"
cp -r "$REPO/configs" "$REPO/testdata" "$TMP/in/"
HAVE_SHARED=0
if [[ -d $SHARED/corpus ]]; then
	ln -sfn "$(cd "$SHARED" && pwd)" "$TMP/shared"
	HAVE_SHARED=1
fi

declare -A CMD
IDS=()
while IFS=$'\t' read -r id cmd; do
	[[ -n ${ONLY:-} && ! $id =~ $ONLY ]] && continue
	CMD[$id]=$cmd
	IDS+=("$id")
done < <(mkdir -p "$TMP/list" && cd "$TMP/list" && all_commands)

# The references: every command's outputs with BASE's binary (side "base")
# and HEAD's (kept as side "ref"). A second root, $TMP/vs-head, sees "ref" as
# its base, so compare_one there compares a probe with HEAD's outputs.
mkdir -p "$TMP/out/base" "$TMP/meta/base" "$TMP/out/ref" "$TMP/meta/ref" "$TMP/vs-head/out" "$TMP/vs-head/meta"
ln -sfn "$(bin "$HEAD_REV")" "$TMP/bin/ref"
for d in out meta; do
	ln -sfn "$TMP/$d/ref" "$TMP/vs-head/$d/base"
	ln -sfn "$TMP/$d/head" "$TMP/vs-head/$d/head"
done
ln -sfn "$TMP/bin" "$TMP/vs-head/bin"
for id in "${IDS[@]}"; do
	for side in base ref; do
		[[ -f $TMP/meta/$side/$id/exit ]] && continue
		rm -rf "${TMP:?}/out/$side/$id"
		t=$SECONDS
		run_side "$side" "$id" "${CMD[$id]}"
		echo "$((SECONDS - t))" >"$TMP/meta/$side/$id/seconds"
	done
done
echo "equiv-bisect: references run ($((SECONDS - START)) s)" >&2

# probe I ID: run ID with C[I]'s binary; sets PB=1 when its outputs equal
# BASE's, PH=1 when they equal HEAD's; keeps both verdicts.
probe() {
	local i=$1 id=$2 sha=${C[$1]} v=$TMP/verdict/${C[$1]}
	mkdir -p "$v"
	if [[ ! -f $v/$id.head ]]; then
		ln -sfn "$(bin "$sha")" "$TMP/bin/head"
		rm -rf "${TMP:?}/out/head/$id" "${TMP:?}/meta/head/$id"
		mkdir -p "$TMP/out/head" "$TMP/meta/head"
		run_side head "$id" "${CMD[$id]}"
		compare_one "$id" >"$v/$id.base"
		(TMP=$TMP/vs-head; compare_one "$id") >"$v/$id.head"
		rm -rf "${TMP:?}/out/head/$id"
	fi
	PB=0 PH=0
	[[ $(head -c4 "$v/$id.base") == same ]] && PB=1
	[[ $(head -c4 "$v/$id.head") == same ]] && PH=1
	return 0
}

# The commands that differ; intervals: first change in (FL, FH], last change
# (first commit equal to HEAD's) in (LL, LH].
declare -A FL FH LL LH
OPEN=()
# A third root, $TMP/base-vs-head, compares the two references.
mkdir -p "$TMP/base-vs-head/out" "$TMP/base-vs-head/meta"
for d in out meta; do
	ln -sfn "$TMP/$d/base" "$TMP/base-vs-head/$d/base"
	ln -sfn "$TMP/$d/ref" "$TMP/base-vs-head/$d/head"
done
ln -sfn "$TMP/bin" "$TMP/base-vs-head/bin"
mkdir -p "$TMP/verdict/base-vs-head"
for id in "${IDS[@]}"; do
	(TMP=$TMP/base-vs-head; compare_one "$id") >"$TMP/verdict/base-vs-head/$id"
	if [[ $(head -c4 "$TMP/verdict/base-vs-head/$id") != same ]]; then
		FL[$id]=0 FH[$id]=$((NC - 1)) LL[$id]=0 LH[$id]=$((NC - 1))
		OPEN+=("$id")
	fi
done
echo "equiv-bisect: ${#IDS[@]} commands, ${#OPEN[@]} differ between ${BASE_REV:0:7} and ${HEAD_REV:0:7}" >&2

# Earlier probes (a resumed WORK) narrow the intervals before anything runs.
narrow() {
	local id=$1 i=$2
	if ((FL[$id] < i && i < FH[$id])); then
		if ((PB)); then FL[$id]=$i; else FH[$id]=$i; fi
	fi
	if ((LL[$id] < i && i < LH[$id])); then
		if ((PH)); then LH[$id]=$i; else LL[$id]=$i; fi
	fi
}
for id in "${OPEN[@]}"; do
	for ((i = 1; i < NC - 1; i++)); do
		[[ -f $TMP/verdict/${C[i]}/$id.head ]] || continue
		probe "$i" "$id"
		narrow "$id" "$i"
	done
done

step=0
while :; do
	# Each open interval votes for its midpoint; the commit inside the most
	# open intervals among those midpoints wins (ties: the earlier commit).
	declare -A votes=()
	best=-1 bestn=0
	for id in "${OPEN[@]}"; do
		((FH[$id] - FL[$id] > 1)) && votes[$(((FL[$id] + FH[$id]) / 2))]=1
		((LH[$id] - LL[$id] > 1)) && votes[$(((LL[$id] + LH[$id]) / 2))]=1
	done
	((${#votes[@]})) || break
	for m in "${!votes[@]}"; do
		n=0
		for id in "${OPEN[@]}"; do
			if ((FL[$id] < m && m < FH[$id])) || ((LL[$id] < m && m < LH[$id])); then n=$((n + 1)); fi
		done
		if ((n > bestn || (n == bestn && m < best))); then best=$m bestn=$n; fi
	done
	unset votes
	step=$((step + 1))
	t=$SECONDS
	for id in "${OPEN[@]}"; do
		if ((FL[$id] < best && best < FH[$id])) || ((LL[$id] < best && best < LH[$id])); then
			probe "$best" "$id"
			narrow "$id" "$best"
		fi
	done
	echo "equiv-bisect: step $step: ${C[best]:0:7} (#$best of $((NC - 1))), $bestn commands, $((SECONDS - t)) s" >&2
done

# Probes that contradict an interval: the output flipped more than once.
: >"$TMP/nonmonotone.txt"
for id in "${OPEN[@]}"; do
	for ((i = 1; i < NC - 1; i++)); do
		[[ -f $TMP/verdict/${C[i]}/$id.head ]] || continue
		probe "$i" "$id"
		if (((i < FH[$id]) != PB || (i >= LH[$id]) != PH)); then
			echo "$id: at #$i ${C[i]:0:7} equal to BASE $PB, to HEAD $PH; first #${FH[$id]}, last #${LH[$id]}" >>"$TMP/nonmonotone.txt"
		fi
	done
done
[[ -s $TMP/nonmonotone.txt ]] && { echo "equiv-bisect: outputs that flipped more than once:" >&2; cat "$TMP/nonmonotone.txt" >&2; }
# SWEEP=1: every command at every commit of the chain against the commit
# before it, so every change of every command is seen, also one that a later
# commit undoes. Root $TMP/sweep: side "base" holds C[i-1]'s outputs, side
# "head" C[i]'s; sweep/changes.tsv gets "#i <tab> sha <tab> ID <tab> verdict".
sweep() {
	local R=$TMP/sweep i id sha n
	mkdir -p "$R/bin" "$R/verdict" "$R/done"
	ln -sfn "$TMP/bin/meshstat" "$R/bin/meshstat"
	ln -sfn "$TMP/in" "$R/in"
	((HAVE_SHARED)) && ln -sfn "$TMP/shared" "$R/shared"
	touch "$R/changes.tsv"
	for ((i = 0; i < NC; i++)); do
		[[ -f $R/done/$i ]] && continue
		sha=${C[i]}
		ln -sfn "$(bin "$sha")" "$R/bin/head"
		# A commit that leaves the binary as it was (docs, tests, scripts)
		# writes what the commit before it wrote: nothing to run.
		if ((i > 0)) && [[ $(cat "$R/out/base.idx" 2>/dev/null) == $((i - 1)) ]] &&
			cmp -s "$(bin "$sha")" "$(bin "${C[i - 1]}")"; then
			echo "$i" >"$R/out/base.idx"
			touch "$R/done/$i"
			echo "equiv-bisect: sweep #$i ${sha:0:7}: the same binary as #$((i - 1))" >&2
			continue
		fi
		rm -rf "${R:?}/out/head" "${R:?}/meta/head"
		mkdir -p "$R/out/head" "$R/meta/head"
		local t=$SECONDS
		for id in "${IDS[@]}"; do (TMP=$R; run_side head "$id" "${CMD[$id]}"); done
		n=0
		if ((i > 0)); then
			[[ $(cat "$R/out/base.idx" 2>/dev/null) == $((i - 1)) ]] || die "sweep: outputs of #$((i - 1)) missing; remove $R to start again"
			mkdir -p "$R/verdict/$sha"
			for id in "${IDS[@]}"; do
				(TMP=$R; compare_one "$id") >"$R/verdict/$sha/$id" && continue
				n=$((n + 1))
				printf '#%d\t%s\t%s\t%s\n' "$i" "${sha:0:7}" "$id" "$(head -1 "$R/verdict/$sha/$id")" >>"$R/changes.tsv"
			done
		fi
		rm -rf "${R:?}/out/base" "${R:?}/meta/base"
		mv "$R/out/head" "$R/out/base"
		mv "$R/meta/head" "$R/meta/base"
		echo "$i" >"$R/out/base.idx"
		touch "$R/done/$i"
		echo "equiv-bisect: sweep #$i ${sha:0:7}: $n commands changed ($((SECONDS - t)) s)" >&2
	done
}
[[ ${SWEEP:-0} == 1 ]] && sweep

: >"$TMP/result.tsv"
for id in "${OPEN[@]}"; do
	f=${C[FH[$id]]} l=${C[LH[$id]]}
	printf '%s\t%s\t%s\t%s\n' "$id" "${f:0:7}" "${l:0:7}" "$(git -C "$REPO" log -1 --format=%s "$f")" >>"$TMP/result.tsv"
done
echo "equiv-bisect: ${#OPEN[@]} differing commands attributed in $step steps ($((SECONDS - START)) s); $TMP/result.tsv" >&2
cat "$TMP/result.tsv"
