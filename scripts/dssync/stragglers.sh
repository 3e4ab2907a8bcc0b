#!/usr/bin/env bash
# DS-Sync with compute stragglers and mixed accelerators (docs/dssync.md): every scheme under
# Table III's and Table V's scenarios (both, static), WideResNet-28-10, with one persistent
# straggler at 2x and 4x and with half the workers P100s; iteration and communication time,
# 5 seeds, paired. Usage: scripts/dssync/stragglers.sh [OUTDIR]  (SYNCSIM=...; about a CPU-minute)
set -euo pipefail
out=${1:-dssync-stragglers}
S=${SYNCSIM:-syncsim}
sum="python3 $(cd "$(dirname "$0")" && pwd)/../crew/summarise.py"
mkdir -p "$out"
cd "$out"
sweep() { nice -n 10 "$S" sweep dssync "$@" --vary scenario=both,static \
  --vary scheme=dssync,allreduce,tree-allreduce,hier-allreduce,asp,gossip --trials 5 --parallel 2 --force --quiet; }
sweep --vary stragglers=0,1 --vary straggler_slowdown=2,4 --csv stragglers.csv
sweep --vary worker_classes=v100:1,v100:0.5+p100:0.5 --csv classes.csv
{
for m in iter_time_ms iter_time_min_ms comm_time_ms; do
  echo "## stragglers: $m by scheme"
  $sum stragglers.csv --metric $m --by scheme --ref dssync --inverse
  echo
  echo "## stragglers: $m against none, by scheme"
  $sum stragglers.csv --metric $m --by stragglers --ref 0 --inverse
  echo
  echo "## classes: $m by scheme"
  $sum classes.csv --metric $m --by scheme --ref dssync --inverse
  echo
  echo "## classes: $m against homogeneous, by scheme"
  $sum classes.csv --metric $m --by worker_classes --ref v100:1 --inverse
  echo
done
} > summary.md
