#!/usr/bin/env bash
# Selective reduce's straggler claims rerun with heterogeneous workers (docs/selective-reduce.md):
# all reduce, partial reduce and selective reduce (warm and cold start) on n = 40 and 200 with
# homogeneous workers (v100:1), two accelerator mixes, and 10 % of the workers persistently 4x slow
# or 30 % 2x slow; 5 seeds, paired; and the same at n = 40 with a 50 MB model, where compute and
# synchronisation take similar times. Usage: scripts/selective-reduce/stragglers.sh [OUTDIR]
# (SYNCSIM=path/to/syncsim; about half a CPU-minute)
set -euo pipefail
out=${1:-sr-stragglers}
S=${SYNCSIM:-syncsim}
sum="python3 $(cd "$(dirname "$0")" && pwd)/../crew/summarise.py"
mkdir -p "$out"
cd "$out"
sweep() { nice -n 10 "$S" sweep sr-cluster "$@" --vary scheme=allreduce,partial-reduce,selective-reduce \
  --vary start=warm,cold --trials 5 --parallel 2 --force --quiet; }
for n in 40 200 40s; do
  set_n=(--set n=${n%s})
  [ "$n" = 40s ] && set_n+=(--set model_mb=50)
  k=${n%s}
  sweep "${set_n[@]}" --vary worker_classes=v100:1,v100:0.5+p100:0.5,v100:0.5+k80:0.5 --csv classes_$n.csv
  sweep "${set_n[@]}" --set straggler_slowdown=4 --vary stragglers=0,$((k / 10)) --csv stragglers10_$n.csv
  sweep "${set_n[@]}" --set straggler_slowdown=2 --vary stragglers=0,$((3 * k / 10)) --csv stragglers30_$n.csv
done
{
for m in total_iteration avg_sync_time_s avg_sync_scale; do
  for f in classes stragglers10 stragglers30; do
    echo "## $f: $m by scheme (warm start)"
    $sum ${f}_40.csv ${f}_200.csv ${f}_40s.csv --metric $m --by scheme --ref selective-reduce --where start=warm
    echo
  done
done
echo "## classes: total_iteration against homogeneous workers, by scheme (warm start)"
$sum classes_40.csv classes_200.csv classes_40s.csv --metric total_iteration --by worker_classes --ref v100:1 --inverse --where start=warm
echo
for f in stragglers10 stragglers30; do
  echo "## $f: total_iteration against no stragglers, by scheme (warm start)"
  $sum ${f}_40.csv ${f}_200.csv ${f}_40s.csv --metric total_iteration --by stragglers --ref 0 --inverse --where start=warm
  echo
done
for f in classes stragglers10 stragglers30; do
  echo "## $f: selective reduce, warm against cold start"
  $sum ${f}_40.csv ${f}_200.csv ${f}_40s.csv --metric total_iteration --by start --ref warm --where scheme=selective-reduce
  echo
done
} > summary.md
