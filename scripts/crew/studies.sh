#!/usr/bin/env bash
# CREW studies beyond the figures (docs/crew.md), at the defaults (chunk pipelining), 5 seeds, paired:
#   fig8       why 16 faulty links cost more at p = 5 than at p = 10: detection time, failover mode, Eq. 3's scope
#   fig9       whether Fig. 9's reversal on N1 comes from N1 being slower: N1 at 1x and 3x its bandwidths
#   fluct      CREW against OPR when WAN bandwidths change (walk, redraw), re-planning from probes or not
#   stragglers CREW and OPR with persistent stragglers and mixed accelerators, p = 5 and 10
#   spot       Figs. 6, 7, 10 and 11 at chunk pipelining, one workload each
# Usage: scripts/crew/studies.sh OUTDIR [fig8 fig9 fluct stragglers spot]  (SYNCSIM=...; about an hour of CPU)
set -euo pipefail
out=${1:-crew-studies}
shift || true
which=${*:-fig8 fig9 fluct stragglers spot}
S=${SYNCSIM:-syncsim}
sum="python3 $(cd "$(dirname "$0")" && pwd)/summarise.py"
mkdir -p "$out"
cd "$out"
sweep() { nice -n 10 "$S" sweep crew-training "$@" --trials 5 --parallel 2 --force --quiet; }
for w in $which; do
  case $w in
  fig8)
    sweep --vary p=5,10 --csv fig8_none.csv
    sweep --vary p=5,10 --set faulty_links=16 --vary detect_ms=100,1000,3000 --csv fig8_detect.csv
    sweep --vary p=5,10 --set faulty_links=16 --vary failover=move,split --vary eq3_scope=task,running --csv fig8_failover.csv
    # the same with block store-and-forward, the first reproduction's model
    sweep --vary p=5,10 --vary faulty_links=0,16 --set pipeline=block --csv fig8_block.csv
    sweep --vary p=5,10 --set faulty_links=16 --vary detect_ms=100,3000 --set pipeline=block --csv fig8_block_detect.csv
    {
      $sum fig8_none.csv fig8_detect.csv --metric rounds_per_worker --by faulty_links --ref 0 --ignore detect_ms --ignore fault_to_s --inverse
      echo
      $sum fig8_block.csv fig8_block_detect.csv --metric rounds_per_worker --by faulty_links --ref 0 --ignore detect_ms --ignore fault_to_s --inverse
      echo
      $sum fig8_detect.csv --metric failovers --by p --ref 5
      echo
      $sum fig8_detect.csv --metric abandoned_rounds --by p --ref 5
      echo
      $sum fig8_failover.csv --metric rounds_per_worker --by failover --ref move --inverse
      echo
      $sum fig8_failover.csv --metric rounds_per_worker --by eq3_scope --ref task --inverse
      echo
      $sum fig8_none.csv --metric prs --by p --ref 5 --inverse
    } > fig8.md ;;
  fig9)
    sweep --set trace=t2 --set duration_s=100 --set network=n1 --set p=10 --vary bw_scale=1,3 --vary compute_scale=1,6 --csv fig9_n1.csv
    {
      $sum fig9_n1.csv --metric rounds_per_worker --by compute_scale --ref 1 --inverse
      echo
      $sum fig9_n1.csv --metric pr_time_s --by compute_scale --ref 1 --inverse
    } > fig9.md ;;
  fluct)
    sweep --vary scheme=crew,opr --csv fluct_static.csv
    sweep --vary scheme=crew,opr --set bw_model=walk --set bw_period_s=5 --set bw_walk_step=0.1 --vary bw_probe_s=1,-1 --csv fluct_walk5.csv
    sweep --vary scheme=crew,opr --set bw_model=walk --set bw_period_s=1 --set bw_walk_step=0.3 --vary bw_probe_s=1,-1 --csv fluct_walk1.csv
    sweep --vary scheme=crew,opr --set bw_model=redraw --set bw_period_s=5 --vary bw_probe_s=1,-1 --csv fluct_redraw.csv
    {
      for f in fluct_static fluct_walk5 fluct_walk1 fluct_redraw; do
        echo "### $f"
        $sum $f.csv --metric rounds_per_worker --by scheme --ref crew
        echo
      done
      $sum fluct_walk5.csv fluct_walk1.csv fluct_redraw.csv --metric rounds_per_worker --by bw_probe_s --ref 1 --where scheme=crew
      echo
      $sum fluct_static.csv fluct_walk5.csv fluct_walk1.csv fluct_redraw.csv --metric rounds_per_worker --by bw_model --ref static --ignore bw_probe_s --ignore bw_period_s --ignore bw_walk_step --inverse
    } > fluct.md ;;
  stragglers)
    sweep --vary scheme=crew,opr --vary p=5,10 --vary worker_classes=v100:1,v100:0.5+k80:0.5 --csv str_classes.csv
    sweep --vary scheme=crew,opr --vary p=5,10 --set straggler_slowdown=4 --vary stragglers=0,6 --csv str_k.csv
    {
      $sum str_classes.csv --metric rounds_per_worker --by scheme --ref crew
      echo
      $sum str_classes.csv --metric rounds_per_worker --by worker_classes --ref v100:1 --inverse
      echo
      $sum str_k.csv --metric rounds_per_worker --by scheme --ref crew
      echo
      $sum str_k.csv --metric rounds_per_worker --by stragglers --ref 0 --inverse
      echo
      $sum str_k.csv --metric rounds_min --by stragglers --ref 0 --inverse
    } > stragglers.md ;;
  spot)
    sweep --set network=n2 --set control_ms=100 --vary scatter=blocking,non-blocking --csv fig6.csv
    sweep --vary scheduling=fl,fs,tl,c1,c2 --csv fig7.csv
    sweep --set duration_s=100 --vary model_scale=1,8 --csv fig10.csv
    sweep --set network=n2 --set trace=t2 --vary split=e-d,n-a --vary bw_noise=0,0.5 --csv fig11.csv
    {
      $sum fig6.csv --metric rounds_per_worker --by scatter --ref non-blocking
      echo
      $sum fig7.csv --metric rounds_per_worker --by scheduling --ref fl --inverse
      echo
      $sum fig10.csv --metric rounds_per_worker --by model_scale --ref 1 --inverse
      echo
      $sum fig11.csv --metric pr_time_s --by split --ref n-a --inverse
      echo
      $sum fig11.csv --metric pr_time_s --by bw_noise --ref 0 --inverse
    } > spot.md ;;
  *) echo "unknown study $w" >&2; exit 2 ;;
  esac
done
