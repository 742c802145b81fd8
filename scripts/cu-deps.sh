#!/bin/sh
# cu-deps.sh FILE.cu: the cuda/ headers FILE.cu includes, directly or through
# other headers, one per line; the Makefile rebuilds a kernel family only
# when one of them (or the .cu itself) changed.
set -eu
todo="$1"
seen=""
while [ -n "$todo" ]; do
  set -- $todo
  f=$1; shift; todo="$*"
  for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
    p="cuda/$h"
    [ -f "$p" ] || continue
    case " $seen " in *" $p "*) continue ;; esac
    seen="$seen $p"
    todo="$todo $p"
  done
done
for p in $seen; do echo "$p"; done
