#!/usr/bin/env bash
# CREW Figs. 4-11 as docs/crew.md reports them (5 seeds; Fig. 4 10), one CSV and one
# Markdown summary per figure. Usage: scripts/crew/figs.sh OUTDIR [fig4 fig5 ... fig11]
# (SYNCSIM=path/to/syncsim; all figures take about 5 CPU-hours, most of it Figs. 5, 7 and 9
# on N2, whose partial reduces move about 20,000 chunk transfers each).
set -euo pipefail
out=${1:-crew-figs}
shift || true
figs=${*:-fig4 fig5 fig6 fig7 fig8 fig9 fig10 fig11}
S=${SYNCSIM:-syncsim}
sum="python3 $(cd "$(dirname "$0")" && pwd)/summarise.py"
mkdir -p "$out"
cd "$out"
sweep() { nice -n 10 "$S" sweep "$@" --parallel 2 --force --quiet; }
for f in $figs; do
  case $f in
  fig4)
    sweep crew-single --vary network=n1,n2 --vary scheme=crew,opr,blink,toa,ring,a2a,ps --trials 10 --csv fig4.csv
    sweep crew-single --vary network=n1,n2 --vary scheme=crew,opr --vary pipeline=chunk,block --trials 10 --csv fig4_pipeline.csv
    $sum fig4.csv --metric pr_time_s --by scheme --ref crew --inverse > fig4.md
    $sum fig4_pipeline.csv --metric pr_time_s --by pipeline --ref chunk --inverse > fig4_pipeline.md
    $sum fig4_pipeline.csv --metric t_split_s --by pipeline --where pipeline=chunk > fig4_t.md ;;
  fig5)
    # CREW, OPR and A2A at the paper's defaults (N-A, FL); CREW and OPR also E-D with FS (the
    # paper's "1.5-2x" comparison) and with block store-and-forward (what pipelining changes).
    sweep crew-training --vary network=n1,n2 --vary trace=t1,t2 --vary p=5,10 --vary scheme=crew,opr,a2a --trials 5 --csv fig5.csv
    sweep crew-training --vary network=n1,n2 --vary trace=t1,t2 --vary p=5,10 --vary scheme=crew,opr \
      --set split=e-d --set scheduling=fs --trials 5 --csv fig5_edfs.csv
    sweep crew-training --vary network=n1,n2 --vary trace=t1,t2 --vary p=5,10 --vary scheme=crew,opr \
      --set pipeline=block --trials 5 --csv fig5_block.csv
    $sum fig5.csv --metric rounds_per_worker --by scheme --ref crew > fig5.md
    $sum fig5.csv fig5_edfs.csv --metric rounds_per_worker --by split --ref n-a --ignore scheduling --where scheme=crew > fig5_split.md
    $sum fig5.csv fig5_block.csv --metric rounds_per_worker --by pipeline --ref chunk > fig5_pipeline.md ;;
  fig6)
    sweep crew-training --vary network=n1,n2 --vary trace=t1,t2 --vary p=5,10 --vary scatter=blocking,non-blocking \
      --vary control_ms=0,100 --trials 5 --csv fig6.csv
    $sum fig6.csv --metric rounds_per_worker --by scatter --ref non-blocking > fig6.md ;;
  fig7)
    sweep crew-training --vary network=n1,n2 --vary trace=t1,t2 --vary p=5,10 --vary scheduling=fl,fs,tl,c1,c2 --trials 5 --csv fig7.csv
    $sum fig7.csv --metric rounds_per_worker --by scheduling --ref fl --inverse > fig7.md ;;
  fig8)
    sweep crew-training --vary p=5,10 --vary faulty_links=0,1,2,4,8,16 --trials 5 --csv fig8.csv
    $sum fig8.csv --metric rounds_per_worker --by faulty_links --ref 0 --inverse > fig8.md ;;
  fig9)
    sweep crew-training --set trace=t2 --set duration_s=100 --vary network=n1,n2 --vary p=4,5,10,12 \
      --vary compute_scale=1,2,3,4,5,6 --trials 5 --csv fig9.csv
    $sum fig9.csv --metric rounds_per_worker --by compute_scale --ref 1 --inverse > fig9.md ;;
  fig10)
    sweep crew-training --set duration_s=100 --vary network=n1,n2 --vary trace=t1,t2 --vary model_scale=1,2,4,8 \
      --trials 5 --csv fig10.csv
    $sum fig10.csv --metric rounds_per_worker --by model_scale --ref 1 --inverse > fig10.md ;;
  fig11)
    sweep crew-training --set network=n2 --set trace=t2 --vary split=e-d,n-a --vary bw_noise=0,0.1,0.2,0.3,0.4,0.5 \
      --trials 5 --csv fig11.csv
    $sum fig11.csv --metric pr_time_s --by split --ref n-a --inverse > fig11.md
    $sum fig11.csv --metric pr_time_s --by bw_noise --ref 0 --inverse --where split=n-a > fig11_noise.md ;;
  *) echo "unknown figure $f" >&2; exit 2 ;;
  esac
done
