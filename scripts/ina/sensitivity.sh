#!/usr/bin/env bash
# PA-ATP sensitivity (docs/ina-reproduction.md): one factor at a time around a base point
# on a 4 x 4 x 8 leaf-spine (2:1 oversubscribed, 32 hosts), 4 jobs x 6 workers, the steady
# preset, Hadoop at load 0.5, 10 MiB; StrawAsyn, its two ablations and PA-ATP, 5 seeds.
#
#   scripts/ina/sensitivity.sh [OUTDIR [FACTOR...]]   (factors below; default: all)
#
# About 15 CPU-minutes. See scripts/lib/reproduce.sh for SYNCSIM, PARALLEL, RESUME and EXTRA.
source "$(dirname "$0")/../lib/reproduce.sh"
default_out=ina-sensitivity
figures=(switch_mem_mib jobs gradient_scale load workload)

base=(--set spines=4 --set leaves=4 --set hosts_per_leaf=8 --set workers=6)
protocols=strawasyn,strawasyn-pc,strawasyn-al,pa-atp

# factor NAME VALUES [SETS...]: the sweep over NAME and its tables.
factor() {
	local name=$1 values=$2
	shift 2
	sweep "$name" ina-leafspine "${base[@]}" "$@" --vary "$name=$values" --vary protocol=$protocols --trials 5
	table "$name" "Sensitivity to $name: AJCT (ms), PA-ATP's change against the others" \
		"$name.csv" --metric ajct_ms --of protocol=pa-atp --change percent --undefined unfinished
	table "$name-marks" "Sensitivity to $name: AECN marks and sequences overflowed to the PS" \
		"$name.csv" --metric aecn_marks,overflow_seqs --columns protocol
}

switch_mem_mib() { factor switch_mem_mib 0.25,0.5,1,2,10 --set jobs=4; }
jobs() { factor jobs 2,4,8; }
gradient_scale() { factor gradient_scale 0.002,0.005,0.02 --set jobs=4; }
load() { factor load 0.2,0.5,0.8 --set jobs=4; }
workload() { factor workload hadoop,cachefollower --set jobs=4; }

main "$@"
