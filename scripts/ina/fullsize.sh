#!/usr/bin/env bash
# Issue 23 item 3 and issue 22 item 3: one full-size point on the paper's
# fabric (ina-leafspine's defaults: 8 x 8 x 16, 8 jobs x 12 workers, ResNet50
# and VGG19 jobs 1:1, Hadoop at 0.5), whole models (gradient_scale=1), one
# iteration left out and one measured, seed 1, per protocol:
#
#   scripts/ina/fullsize.sh [OUTDIR [PROTOCOL...]]   (pa-atp strawasyn atp; default: all)
#
# Each protocol's run writes PROTOCOL.csv, its cost PROTOCOL.time (CPU
# seconds user and system, wall seconds, peak KB, as the sweeps' .time
# files) and its series under series-PROTOCOL/; `tables` (run after the
# others) writes fullsize.md (AJCT and diagnostics) from the CSVs there.
# Costly: 45-75 CPU-minutes and about 300 MB per run at the engine's
# present speed (docs/ina-reproduction.md, "A full-size point").
# See scripts/lib/reproduce.sh for SYNCSIM.
source "$(dirname "$0")/../lib/reproduce.sh"
default_out=ina-fullsize
figures=(pa-atp strawasyn atp tables)

full() {
	local p=$1
	say "$p: syncsim run ina-leafspine --set protocol=$p --set gradient_scale=1 --set iterations=2 --set skip_iters=1"
	/usr/bin/time -o "$p.time" -f "%U %S %e %M" "$SYNCSIM" run ina-leafspine --set protocol="$p" \
		--set gradient_scale=1 --set iterations=2 --set skip_iters=1 \
		--csv "$p.csv" --series-dir "series-$p" --force --quiet
}

pa-atp() { full pa-atp; }
strawasyn() { full strawasyn; }
atp() { full atp; }

tables() {
	local csvs=() p
	for p in pa-atp strawasyn atp; do
		[[ -e $p.csv ]] && csvs+=("$p.csv")
	done
	[[ ${#csvs[@]} -gt 0 ]] || die "no full-size CSV in $PWD"
	table fullsize "A full-size point: AJCT (ms) and diagnostics, seed 1" "${csvs[@]}" \
		--metric ajct_ms,jobs_done,awd_bound_frac,aecn_marks,agg_occ_mean_frac,agg_occ_max_frac,overflow_seqs,collision_seqs,exhaustion_seqs,drops,worker_timeouts,events
}

main "$@"
