#!/usr/bin/env bash
# Issue 22, item 3 at small scale: on the paper's fabric (ina-leafspine's
# defaults: 8x8x16, 8 jobs x 12 workers, Hadoop at 0.5), AJCT and the
# per-job diagnostics at gradient_scale 0.005 (every INA protocol, 5
# seeds), 0.02 (StrawAsyn, StrawAsyn+AL and PA-ATP, 2 seeds) and 0.05 (the same, 1 seed:
# what the machine afforded); 3 iterations, the first left out.
# Usage: scripts/ina/regime.sh [OUTDIR] (SYNCSIM=path/to/syncsim to use a
# built binary). The 0.2 and 1.0 scales are not run here (hours of CPU per
# point at the engine's present speed).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-ina-regime}
S=${SYNCSIM:-syncsim}
A=strawasyn,strawasyn-al,pa-atp
mkdir -p "$out"
cd "$out"
run() { /usr/bin/time -v "$S" sweep ina-leafspine "$@" --timing --force --quiet; }
run --vary gradient_scale=0.005 --vary protocol=switchml,atp,strawasyn,strawasyn-pc,$A --trials 5 --parallel 2 --csv regime_0.005.csv 2> regime_0.005.time
run --vary gradient_scale=0.02 --vary protocol=$A --trials 2 --parallel 1 --csv regime_0.02.csv 2> regime_0.02.time
run --vary gradient_scale=0.05 --vary protocol=$A --trials 1 --parallel 1 --csv regime_0.05.csv 2> regime_0.05.time
for f in regime_0.005 regime_0.02 regime_0.05; do
  python3 "$here/summarise.py" $f.csv > $f.md
  for m in awd_bound_frac aecn_marks agg_occ_mean_frac agg_occ_max_frac collision_seqs exhaustion_seqs drops; do
    python3 "$here/summarise.py" $f.csv --metric $m >> $f.md
  done
done
