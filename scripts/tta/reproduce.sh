#!/usr/bin/env bash
# Time to accuracy under every scheme, 5 seeds per point, as docs/tta.md
# reports it. Usage: scripts/tta/reproduce.sh [OUTDIR] [PART...]
# PART is dssync, sr, crew or ina (default: all four). SYNCSIM=path/to/syncsim
# uses a built binary. Wall time on a 2-core machine shared with other work:
# about 1 h (dssync), 40 min (sr), 50 min (crew), 1.5 h (ina); a learning run
# of dssync or sr-cluster alone costs 8-9 s of CPU (docs/performance.md).
set -euo pipefail
out=${1:-tta-repro}
shift || true
parts=${*:-dssync sr crew ina}
S=${SYNCSIM:-syncsim}
mkdir -p "$out"
cd "$out"
run() { "$S" sweep "$@" --trials 5 --parallel 2 --timing --force --quiet; }
# tab OUT.md REF METRICS CSV...: each point's metrics as median [min-max] over the seeds, then
# every metric's paired ratio, seed by seed, of the reference (REF: k=v, or several separated by
# spaces for a joint baseline) to each other value.
tab() {
  local out=$1 ref=$2 metrics=$3 r
  shift 3
  local of=()
  for r in $ref; do of+=(--of "$r"); done
  {
    "$S" summarise "$@" --metric "$metrics"
    for m in ${metrics//,/ }; do
      echo
      "$S" summarise "$@" --metric "$m" "${of[@]}" --changes-only
    done
  } >"$out"
}
for p in $parts; do
  case $p in
  dssync)
    # DS-Sync Sec. V: MLP on MNIST to 0.95 under each contention scenario.
    run dssync --set scenario=both --set scheme=asp --set asp_lr=same --set learn_model=mlp --set lr=0.5 --set iterations=500 --csv asp-same.csv
    run dssync --vary scenario=static,inter-rack,both --vary scheme=dssync,allreduce,tree-allreduce,hier-allreduce,asp,gossip \
      --set learn_model=mlp --set lr=0.5 --set iterations=500 --csv dssync.csv --series-dir dssync-series
    tab dssync.md scheme=dssync final_acc,swa_acc,iters_to_target,tta_s,iter_time_ms dssync.csv
    for sc in static inter-rack both; do
      "$S" plot dssync-series --from-series learning --x t_s --bin 10 --y test_acc --series scheme \
        --where scenario=$sc --where scheme=dssync,allreduce,hier-allreduce,asp,gossip --y-range 0.88:0.97 -o dssync_$sc.png
    done
    ;;
  sr)
    # Selective reduce Sec. II-C, Eq. 1: softmax on MNIST to 0.90, n = 40, as p varies.
    common=(--set learn_model=softmax --set model_mb=100 --set duration_s=400 --set lr=0.5 --set eval_every=5 --vary partition=iid,dirichlet)
    run sr-cluster --set scheme=allreduce "${common[@]}" --csv sr-ar.csv
    run sr-cluster --set scheme=partial-reduce --vary p_frac=0.05,0.1,0.2,0.3,0.5 "${common[@]}" --csv sr-pr.csv
    run sr-cluster --set scheme=selective-reduce --vary p_frac=0.1,0.3 "${common[@]}" --csv sr-sr.csv
    # p_frac has no effect on all reduce, whose rows carry the default 0.3: the joint baseline.
    tab sr.md "scheme=allreduce p_frac=0.3" final_acc,iters_to_target,tta_s,avg_sync_time_s sr-ar.csv sr-pr.csv sr-sr.csv
    ;;
  crew)
    # CREW Fig. 3: rounds to 0.95 (MLP on MNIST), 8 workers, p = 4, IID and non-IID.
    run crew-training --set n=8 --set p=4 --set network=n2 --set duration_s=10000 --set learn_model=mlp --set lr=0.5 \
      --set eval_every=10 --set eval_samples=1000 --vary partition=iid,dirichlet --vary scheme=crew,a2a --csv crew.csv
    tab crew.md scheme=crew final_acc,iters_to_target,tta_s,pr_time_s,rounds_per_worker crew.csv
    ;;
  ina)
    # PA-ATP Fig. 11: two jobs at load 0.6, time to 90% (MLP on MNIST).
    run ina-testbed --set run_length=quick --set iterations=120 --set load=0.6 --set learn_model=mlp --set lr=0.5 \
      --set target_acc=0.9 --set eval_every=5 --vary protocol=byteps,switchml,atp,strawasyn,pa-atp --csv ina.csv
    tab ina.md protocol=pa-atp final_acc,iters_to_target,tta_s,tta_max_s,ajct_ms ina.csv
    ;;
  *) echo "unknown part $p (dssync, sr, crew, ina)" >&2; exit 2 ;;
  esac
done
