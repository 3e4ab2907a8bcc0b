#!/usr/bin/env bash
# Issue 23 item 3 and issue 22 item 3: one full-size point on the paper's
# fabric (ina-leafspine's defaults: 8 x 8 x 16, 8 jobs x 12 workers, ResNet50
# and VGG19 jobs 1:1, Hadoop at 0.5), whole models (gradient_scale=1), one
# iteration left out and one measured, per protocol and seed:
#
#   scripts/ina/fullsize.sh [OUTDIR [RUN...]]
#
# RUN is pa-atp, strawasyn or atp (seed 1), or the same with -2 (seed 2);
# the default runs all six and then `tables`. Each run writes RUN.csv, its
# cost RUN.time (CPU seconds user and system, wall seconds, peak KB, as the
# sweeps' .time files) and its series under series-RUN/; `tables` (run
# after the others) writes fullsize.md (AJCT and diagnostics, median
# [min-max] over the seeds present, and PA-ATP's paired change against the
# others) from the CSVs there. EXTRA adds flags
# to every run, as in scripts/lib/reproduce.sh.
# Costly: 45-75 CPU-minutes and about 300 MB per run at the engine's
# present speed (docs/ina-reproduction.md, "A full-size point").
# See scripts/lib/reproduce.sh for SYNCSIM.
source "$(dirname "$0")/../lib/reproduce.sh"
default_out=ina-fullsize
figures=(pa-atp strawasyn atp pa-atp-2 strawasyn-2 atp-2 tables)

# full NAME PROTOCOL SEED
full() {
	local name=$1 p=$2 seed=$3
	say "$name: syncsim run ina-leafspine --set protocol=$p --set gradient_scale=1 --set iterations=2 --set skip_iters=1 --seed $seed ${EXTRA:-}"
	# shellcheck disable=SC2086 # EXTRA is a list of flags
	/usr/bin/time -o "$name.time" -f "%U %S %e %M" "$SYNCSIM" run ina-leafspine --set protocol="$p" \
		--set gradient_scale=1 --set iterations=2 --set skip_iters=1 --seed "$seed" ${EXTRA:-} \
		--csv "$name.csv" --series-dir "series-$name" --force --quiet
}

pa-atp() { full pa-atp pa-atp 1; }
strawasyn() { full strawasyn strawasyn 1; }
atp() { full atp atp 1; }
pa-atp-2() { full pa-atp-2 pa-atp 2; }
strawasyn-2() { full strawasyn-2 strawasyn 2; }
atp-2() { full atp-2 atp 2; }

tables() {
	local csvs=() r
	for r in pa-atp strawasyn atp pa-atp-2 strawasyn-2 atp-2; do
		[[ -e $r.csv ]] && csvs+=("$r.csv")
	done
	[[ ${#csvs[@]} -gt 0 ]] || die "no full-size CSV in $PWD"
	table fullsize "A full-size point: AJCT (ms) and diagnostics" "${csvs[@]}" \
		--metric ajct_ms,jobs_done,awd_bound_frac,aecn_marks,agg_occ_mean_frac,agg_occ_max_frac,overflow_seqs,collision_seqs,exhaustion_seqs,drops,worker_timeouts,events
	table fullsize-vs "A full-size point: PA-ATP's AJCT against the others, seed by seed" "${csvs[@]}" \
		--metric ajct_ms,jct_max_ms --of protocol=pa-atp --change percent
	table fullsize-books "A full-size point: the drop books (where and which packets were lost) and loss_frac" "${csvs[@]}" \
		--metric loss_frac,retransmits,drops_nic,drops_uplink,drops_downlink,drops_ps_port,drops_host_port,drops_gradient,drops_overflow,drops_aggregate,drops_result,drops_ack,drops_pull,drops_background
	append_tables fullsize fullsize-vs fullsize-books
}

main "$@"
