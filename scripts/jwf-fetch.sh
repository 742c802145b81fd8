# Sourced by jwf-harness.sh and jwf-filter-harness.sh: the JWildfire commit
# both reference builds use, and get, which fetches one of its files.
# shellcheck shell=sh
COMMIT=33407f0b246b0bf03cf2413ff450b0ed07271498
# get PATH FILE: JWildfire's PATH at COMMIT into FILE, unless FILE is there;
# from JWF_GIT (a clone or bare mirror, read with git show) when it is set,
# else from GitHub. A failed fetch leaves no FILE behind.
get() {
	[ -s "$2" ] && return 0
	if [ -n "${JWF_GIT:-}" ]; then
		git --git-dir="$JWF_GIT" show "$COMMIT:$1" >"$2.part" && mv "$2.part" "$2"
	else
		curl -fsSL "https://raw.githubusercontent.com/thargor6/JWildfire/$COMMIT/$1" -o "$2"
	fi
}
