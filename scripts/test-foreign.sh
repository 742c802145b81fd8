#!/usr/bin/env bash
# test-foreign.sh: procgen's Go tests for other platforms, run here under an
# emulator: linux/arm64 under qemu-user (qemu-aarch64) and windows/amd64
# under wine. For each target it cross-compiles one test binary per package
# (CGO_ENABLED=0 go test -c, the pure-Go build) and runs it in the package's
# folder, as go test would, with -test.short.
#
# Usage: scripts/test-foreign.sh [GOOS/GOARCH ...]   (default: both targets)
#
# A missing emulator is installed with apt-get (Debian's qemu-user, wine64;
# root). Where it cannot be installed or does not start, that target prints
# "SKIP <target>: <why>" and counts as skipped, not failed. Exit status: 1 if
# any package failed on any target, else 0. The last line is the tally of
# packages: "foreign: N passed, N failed, N skipped".
#
# What an emulator cannot do is left out, by name:
# - qemu-user without binfmt_misc (containers) cannot run a guest binary that
#   execs itself: testscript runs procgen as a copy of the test binary, so
#   cmd/procgen's TestScripts is skipped on linux/arm64 (its unit tests run).
# - internal/forest's TestFFTAccuracy is too slow under qemu (see below).
#
# Environment: FOREIGN_PKGS (an extended regular expression: only packages
# whose import path matches run; default all), FOREIGN_TEST_RUN (a -test.run pattern), FOREIGN_TIMEOUT
# (go test's -test.timeout per package; default 10m), OUT (binaries' folder;
# default a temporary one, removed on exit).
set -uo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
GO=${GO:-go}
TIMEOUT=${FOREIGN_TIMEOUT:-10m}
if [ -n "${OUT:-}" ]; then
	mkdir -p "$OUT"
else
	OUT=$(mktemp -d)
	trap 'rm -rf "$OUT"' EXIT
fi
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(linux/arm64 windows/amd64)

passed=0 failed=0 skipped=0
failures=()
apt_updated=0

# install PKG...: apt-get install, once apt-get update has run; quiet.
install() {
	command -v apt-get > /dev/null || { echo "no apt-get"; return 1; }
	[ "$(id -u)" = 0 ] || { echo "not root, cannot apt-get install $*"; return 1; }
	if [ $apt_updated = 0 ]; then
		apt-get update -q -o DPkg::Lock::Timeout=120 > /dev/null 2>&1 || { echo "apt-get update failed"; return 1; }
		apt_updated=1
	fi
	DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -q --no-install-recommends \
		-o DPkg::Lock::Timeout=120 "$@" \
		> "$OUT/apt.log" 2>&1 || { echo "apt-get install $* failed: $(tail -n 1 "$OUT/apt.log")"; return 1; }
}

# emulator TARGET: prints the command that runs a binary of TARGET here
# (empty for the host's own), or a reason on stderr and returns 1.
emulator() {
	local host why
	host=$($GO env GOOS)/$($GO env GOARCH)
	case $1 in
	"$host") echo "" ;;
	linux/arm64)
		if ! command -v qemu-aarch64 > /dev/null; then
			why=$(install qemu-user) || { echo "$why" >&2; return 1; }
			command -v qemu-aarch64 > /dev/null || { echo "qemu-user installed no qemu-aarch64" >&2; return 1; }
		fi
		echo qemu-aarch64
		;;
	windows/amd64)
		# Debian's wine64 puts its loader in /usr/lib/wine; the wine package
		# (with its 32-bit half) adds /usr/bin/wine.
		local w
		w=$(PATH=$PATH:/usr/lib/wine command -v wine64 || command -v wine || true)
		if [ -z "$w" ]; then
			why=$(install wine64) || { echo "$why" >&2; return 1; }
			w=$(PATH=$PATH:/usr/lib/wine command -v wine64 || command -v wine || true)
			[ -n "$w" ] || { echo "wine64 installed no wine64 or wine command" >&2; return 1; }
		fi
		echo "$w"
		;;
	*)
		echo "no emulator known for $1" >&2
		return 1
		;;
	esac
}

# run_target TARGET: every package's tests under TARGET's emulator.
run_target() {
	local target=$1 goos=${1%/*} goarch=${1#*/} emu why exe="" skipflag=""
	if ! emu=$(emulator "$target" 2> "$OUT/why"); then
		why=$(cat "$OUT/why")
		echo "SKIP $target: ${why:-emulator unavailable}"
		skipped=$((skipped + 1))
		return
	fi
	[ "$goos" = windows ] && exe=.exe
	if [ "$goos" = windows ]; then
		# wine's first start makes its prefix (~/.wine): a minute, once. Its
		# messages about missing display and sound are noise here.
		export WINEDEBUG=${WINEDEBUG:--all} WINEPREFIX=${WINEPREFIX:-$HOME/.wine-procgen}
		if ! $emu cmd /c exit > "$OUT/wineboot.log" 2>&1; then
			echo "SKIP $target: $emu does not start: $(tail -n 1 "$OUT/wineboot.log")"
			skipped=$((skipped + 1))
			return
		fi
	fi
	# A Go binary that runs no test shows whether the emulator can start
	# Go programs at all: wine 8 (Debian 12) cannot start Go >= 1.22, which
	# needs ProcessPrng from bcryptprimitives.dll.
	local probe=$OUT/probe-$goos-$goarch$exe
	if ! GOOS=$goos GOARCH=$goarch CGO_ENABLED=0 $GO test -c -o "$probe" ./internal/phase > "$OUT/build.log" 2>&1; then
		cat "$OUT/build.log"
		failures+=("$target: probe build"); failed=$((failed + 1)); return
	fi
	if ! $emu "$probe" -test.run '^$' > "$OUT/probe.log" 2>&1; then
		echo "SKIP $target: ${emu##*/} ($($emu --version 2>/dev/null | head -n 1)) cannot start a $($GO env GOVERSION) binary: $(grep -m 1 . "$OUT/probe.log")"
		skipped=$((skipped + 1))
		return
	fi
	if [ "$target" = linux/arm64 ]; then
		# TestFFTAccuracy sums a dispersal kernel over every cell pair of
		# five plots as its exact reference: under qemu it ran past 10
		# minutes (2 cores), and it checks arithmetic, not the platform.
		skipflag="-test.skip=^TestFFTAccuracy$"
		[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || skipflag="-test.skip=^TestScripts$|^TestFFTAccuracy$"
	fi
	local pkgs
	pkgs=$(GOOS=$goos GOARCH=$goarch CGO_ENABLED=0 $GO list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}|{{.Dir}}{{end}}' ./...) || {
		failures+=("$target: go list"); failed=$((failed + 1)); return; }
	echo "== $target (${emu:-native}) $(date -u +%T)"
	local line pkg dir bin start rc
	for line in $pkgs; do
		if [ -n "${FOREIGN_PKGS:-}" ] && ! grep -Eq -- "$FOREIGN_PKGS" <<< "${line%%|*}"; then
			continue
		fi
		pkg=${line%%|*} dir=${line#*|}
		bin=$OUT/$goos-$goarch/$(echo "${pkg#*/procgen/}" | tr / _).test$exe
		mkdir -p "$(dirname "$bin")"
		if ! GOOS=$goos GOARCH=$goarch CGO_ENABLED=0 $GO test -c -o "$bin" "$pkg" > "$OUT/build.log" 2>&1; then
			cat "$OUT/build.log"
			echo "FAIL $target $pkg (test binary does not build)"
			failures+=("$target $pkg (build)"); failed=$((failed + 1))
			continue
		fi
		start=$(date +%s)
		local args=(-test.short -test.count=1 "-test.timeout=$TIMEOUT")
		[ -n "${FOREIGN_TEST_RUN:-}" ] && args+=("-test.run=$FOREIGN_TEST_RUN")
		[ -n "$skipflag" ] && args+=("$skipflag")
		(cd "$dir" && $emu "$bin" "${args[@]}") > "$OUT/test.log" 2>&1
		rc=$?
		if [ $rc = 0 ]; then
			echo "ok   $target $pkg $(($(date +%s) - start))s"
			passed=$((passed + 1))
		else
			tail -n 60 "$OUT/test.log"
			echo "FAIL $target $pkg (exit $rc, $(($(date +%s) - start))s)"
			failures+=("$target $pkg"); failed=$((failed + 1))
		fi
		rm -f "$bin"
	done
}

for t in "${TARGETS[@]}"; do
	run_target "$t"
done
for f in "${failures[@]}"; do echo "failed: $f"; done
echo "foreign: $passed passed, $failed failed, $skipped skipped"
[ $failed = 0 ]
