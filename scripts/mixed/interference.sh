#!/usr/bin/env bash
# INA and partial-reduce tenants on one leaf-spine (docs/selective-reduce.md, "Partial reduce on a
# shared fabric"): how an INA job's completion time moves as partial-reduce jobs are added, and how a
# partial-reduce job's synchronisations move as INA jobs are added; without background and with
# Hadoop at fabric-basis load 0.3 after ina-leafspine's 12 ms warm-up; 5 seeds, paired.
# Usage: scripts/mixed/interference.sh [OUTDIR]  (SYNCSIM=path/to/syncsim; a few CPU-minutes)
set -euo pipefail
out=${1:-mixed-interference}
S=${SYNCSIM:-syncsim}
sum="python3 $(cd "$(dirname "$0")" && pwd)/../crew/summarise.py"
mkdir -p "$out"
cd "$out"
common=(--set ring_jobs=0 --set workers=4 --set gradient_mb=4 --set pr_workers=4 --set pr_p=2 --set pr_mb=2
  --set pr_compute_ms=0.5 --set iterations=6 --set warmup_ms=12 --vary load=0,0.3 --trials 5 --parallel 2 --force --quiet)
nice -n 10 "$S" sweep mixed-fabric --set ina_jobs=1 --vary pr_jobs=0,1,2 "${common[@]}" --csv ina_vs_pr.csv
nice -n 10 "$S" sweep mixed-fabric --set pr_jobs=1 --vary ina_jobs=0,1,2 "${common[@]}" --csv pr_vs_ina.csv
nice -n 10 "$S" sweep mixed-fabric --set pr_jobs=1 --set pr_scheme=selective-reduce --vary ina_jobs=0,1,2 "${common[@]}" --csv sr_vs_ina.csv
# The same with the INA jobs' protocol varied (BytePS synchronises over DCTCP like the rings).
nice -n 10 "$S" sweep mixed-fabric --set pr_jobs=1 --vary ina_jobs=0,2 --vary protocol=pa-atp,byteps,atp --set ring_jobs=0 \
  --set workers=4 --set gradient_mb=4 --set pr_workers=4 --set pr_p=2 --set pr_mb=2 --set pr_compute_ms=0.5 --set iterations=6 \
  --set load=0 --trials 5 --parallel 2 --force --quiet --csv pr_vs_protocol.csv
{
  echo "## INA job completion as partial-reduce jobs are added"
  $sum ina_vs_pr.csv --metric ina_jct_ms --by pr_jobs --ref 0 --inverse
  echo
  $sum ina_vs_pr.csv --metric ina_iter_ms --by pr_jobs --ref 0 --inverse
  echo
  echo "## partial-reduce synchronisation as INA jobs are added"
  $sum pr_vs_ina.csv --metric pr_sync_ms --by ina_jobs --ref 0 --inverse
  echo
  $sum pr_vs_ina.csv --metric pr_jct_ms --by ina_jobs --ref 0 --inverse
  echo
  echo "## selective-reduce synchronisation as INA jobs are added"
  $sum sr_vs_ina.csv --metric pr_sync_ms --by ina_jobs --ref 0 --inverse
  echo
  $sum sr_vs_ina.csv --metric pr_scale --by ina_jobs --ref 0
  echo
  echo "## partial-reduce synchronisation beside 2 INA jobs, by their protocol"
  $sum pr_vs_protocol.csv --metric pr_sync_ms --by ina_jobs --ref 0 --inverse --ignore protocol
} > summary.md
