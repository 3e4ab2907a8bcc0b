#!/usr/bin/env bash
# PA-ATP Figs. 10 and 12-15 at the steady defaults, 5 seeds per point, as
# docs/ina-reproduction.md reports them. Usage: scripts/ina/reproduce.sh [OUTDIR]
# (SYNCSIM=path/to/syncsim to use a built binary; about 1.8 CPU-hours on 2 cores).
set -euo pipefail
out=${1:-ina-repro}
S=${SYNCSIM:-syncsim}
P4=switchml,atp,strawasyn,pa-atp
mkdir -p "$out"
cd "$out"
# SwitchML's jobs wait out 10 ms slot timers after every loss; max_ms=62 gives every
# job 50 ms after the 12 ms warm-up and leaves ajct_ms NaN for a job that needs longer.
run() { /usr/bin/time -v "$S" sweep "$@" --trials 5 --parallel 2 --timing --force --quiet; }
run ina-testbed --set model=vgg19 --vary load=0.2,0.8 --vary protocol=byteps,switchml,atp,strawasyn,pa-atp --csv fig10.csv 2> fig10.time
run ina-leafspine --set model=resnet50 --set max_ms=62 --vary switch_mem_mib=0.5,2:10:2 \
  --vary protocol=atp,strawasyn,strawasyn-pc,strawasyn-al,pa-atp --csv fig15.csv 2> fig15.time
run ina-leafspine --set max_ms=62 --vary workers=12:24:4 --vary protocol=$P4 --csv fig12.csv 2> fig12.time
run ina-leafspine --set workload=cachefollower --set max_ms=62 --vary load=0.2:0.8:0.2 --vary protocol=$P4 --csv fig14.csv 2> fig14.time
run ina-leafspine --set max_ms=62 --vary jobs=16 --vary protocol=$P4 --csv fig13.csv 2> fig13.time
"$S" plot fig10.csv --x protocol --y ajct_ms --series load --kind bar -o fig10_ajct.png
"$S" plot fig15.csv --x switch_mem_mib --y ajct_ms --series protocol --kind line --log-y -o fig15_ajct.png
"$S" plot fig12.csv --x workers --y ajct_ms --series protocol --where protocol=atp,strawasyn,pa-atp -o fig12_ajct.png
"$S" plot fig14.csv --x load --y ajct_ms --series protocol --where protocol=atp,strawasyn,pa-atp -o fig14_ajct.png
for f in fig10 fig12 fig14 fig15; do python3 "$(dirname "$0")/summarise.py" $f.csv > $f.md; done
python3 "$(dirname "$0")/summarise.py" fig12.csv fig13.csv > fig13.md
