#!/usr/bin/env bash
# PA-ATP sensitivity (docs/ina-reproduction.md): one factor at a time around a base point
# on a 4 x 4 x 8 leaf-spine (2:1 oversubscribed, 32 hosts), 4 jobs x 6 workers, the steady
# preset, Hadoop at load 0.5, 10 MiB; StrawAsyn, its two ablations and PA-ATP, 5 seeds.
# Usage: scripts/ina/sensitivity.sh [OUTDIR]  (SYNCSIM=path/to/syncsim; about 15 CPU-minutes)
set -euo pipefail
out=${1:-ina-sensitivity}
S=${SYNCSIM:-syncsim}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
cd "$out"
base=(--set spines=4 --set leaves=4 --set hosts_per_leaf=8 --set workers=6)
for spec in switch_mem_mib=0.25,0.5,1,2,10 jobs=2,4,8 gradient_scale=0.002,0.005,0.02 load=0.2,0.5,0.8 workload=hadoop,cachefollower; do
  name=${spec%%=*}
  jobs=(--set jobs=4)
  [ "$name" = jobs ] && jobs=()
  "$S" sweep ina-leafspine "${base[@]}" "${jobs[@]}" --vary "$spec" --vary protocol=strawasyn,strawasyn-pc,strawasyn-al,pa-atp \
    --trials 5 --parallel 2 --csv "$name.csv" --force --quiet
  python3 "$here/summarise.py" "$name.csv" > "$name.md"
done
