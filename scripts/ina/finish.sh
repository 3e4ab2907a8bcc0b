#!/usr/bin/env bash
# Issue 22, item 4: SwitchML and ATP over every point of PA-ATP Figs. 12-14
# (ina-leafspine's steady defaults), run until every job finishes (max_ms
# at its default, 10 s of simulated time), seed 1, with the CPU cost of
# each point (--timing's wall_s, run one at a time). Fig. 13's 8-job point
# is Fig. 12's 12-worker point. Usage: scripts/ina/finish.sh [OUTDIR]
# (SYNCSIM=path/to/syncsim to use a built binary).
set -euo pipefail
out=${1:-ina-finish}
S=${SYNCSIM:-syncsim}
mkdir -p "$out"
cd "$out"
run() { /usr/bin/time -v "$S" sweep ina-leafspine "$@" --vary protocol=switchml,atp --parallel 1 --timing --force --quiet; }
run --vary workers=12:24:4 --csv fig12.csv 2> fig12.time
run --vary jobs=16:32:8 --csv fig13.csv 2> fig13.time
run --vary workload=hadoop,cachefollower --vary load=0.2:0.8:0.2 --csv fig14.csv 2> fig14.time
