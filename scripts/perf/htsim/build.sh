#!/usr/bin/env bash
# scripts/perf/htsim/build.sh HTSIM_SRC OUTDIR: builds htsim's library from
# a csg-htsim checkout (HTSIM_SRC, the directory holding sim/) and the R1
# driver against it. HTSIM_SRC/sim is copied to OUTDIR/sim and built there
# (the checkout stays clean; objects already in it are reused); the driver
# lands at OUTDIR/r1_incast. JOBS sets make's parallelism (default 1).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${1:?usage: build.sh HTSIM_SRC OUTDIR}
out=${2:?usage: build.sh HTSIM_SRC OUTDIR}
if [[ ! -f $src/sim/Makefile ]]; then
	echo "build.sh: $src/sim/Makefile not found; HTSIM_SRC must be a csg-htsim checkout" >&2
	exit 2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [[ $(cd "$src/sim" && pwd) != "$out/sim" ]]; then
	cp -rp "$src/sim" "$out/"
fi
make -C "$out/sim" -j"${JOBS:-1}" libhtsim.a
g++ -std=c++11 -O3 -Wall -I"$out/sim" "$here/r1_incast.cpp" "$out/sim/libhtsim.a" -o "$out/r1_incast"
echo "built $out/r1_incast"
