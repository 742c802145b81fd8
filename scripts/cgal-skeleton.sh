#!/usr/bin/env bash
# Builds bin/cgal-skeleton, CGAL's straight skeleton as a reference for
# internal/pga/skeleton (TestSkeletonAgainstCGAL reads it; without it the
# test skips). Needs Debian's libcgal-dev (apt-get install libcgal-dev).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bin
g++ -O2 -std=c++17 -DNDEBUG -o bin/cgal-skeleton scripts/cgal/skeleton.cc -lgmp -lmpfr
echo "built bin/cgal-skeleton"
