#!/usr/bin/env bash
# Installs nvcc and the CUDA headers from Debian's non-free archive (CUDA 11.8 on bookworm).
# Idempotent: does nothing when nvcc is already on PATH. Needs root (or sudo) and apt.
# nvcc 11.8 builds sm_80/sm_90 SASS and compute_90 PTX, which newer drivers run.
set -euo pipefail

if command -v nvcc >/dev/null 2>&1; then
  echo "install-cuda: nvcc already present: $(command -v nvcc)"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-cuda: apt-get not found; install the CUDA toolkit by hand" >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-cuda: must run as root (or with sudo available)" >&2; exit 1
  fi
fi

# Add contrib/non-free next to the existing main entry: same mirror, same suites.
list=/etc/apt/sources.list.d/procgen-nonfree.sources
if [ ! -f "$list" ]; then
  src=""
  for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && grep -q 'debian' "$f" && { src="$f"; break; }
  done
  if [ -n "$src" ]; then
    # Keep only the first stanza (the main Debian archive) and swap its components.
    awk 'BEGIN{RS="";ORS="\n\n"} NR==1' "$src" \
      | sed -e 's/^Components:.*/Components: contrib non-free/' | $SUDO tee "$list" >/dev/null
  else
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
    printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: %s %s-updates\nComponents: contrib non-free\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      "$codename" "$codename" | $SUDO tee "$list" >/dev/null
  fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends nvidia-cuda-toolkit
nvcc --version | tail -n 2
