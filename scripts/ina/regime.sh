#!/usr/bin/env bash
# The regime. AJCT per protocol and the per-run diagnostics
# (the fraction of time AWD bounds sending, AECN marks, aggregator occupancy
# mean and max, overflow by cause) as the gradient grows, 5 seeds per point.
#
#   scripts/ina/regime.sh [OUTDIR [FIGURE...]]   (figures below; default: all)
#
# small0005, small002, small005, small005abl: the 4 x 4 x 8 leaf-spine of
# sensitivity.sh (2:1 oversubscribed, 32 hosts), 4 jobs x 6 workers, Hadoop at
# fabric load 0.5, 10 MiB per switch, 2 iterations with the first left out, at
# gradient_scale 0.005 (every INA protocol), 0.02 (StrawAsyn, its two
# ablations and PA-ATP) and 0.05 (StrawAsyn and PA-ATP; small005abl: the two
# ablations). About 20 CPU-minutes.
# paper0005: the paper's fabric (ina-leafspine's defaults: 8 x 8 x 16, 8 jobs x
# 12 workers) at 0.005 for the asynchronous family, about 7 CPU-minutes;
# paper002, paper005: StrawAsyn and PA-ATP there at 0.02 and 0.05, about 13
# and 50 CPU-minutes at the present defaults (StrawAsyn's runs at 0.05, with
# their losses, 10-20 minutes each).
# paper005follow: paper005 under agg_collision=follow, about 23 CPU-minutes
# (a follow table against paper005's rows: run paper005 first).
# tables: the tables over every scale run so far (run it after the others).
# distance: how far each scale on the paper's fabric is from full size, in
# PA-ATP's paired change against StrawAsyn, seed by seed (seeds 1 and 2, the
# ones fullsize.sh runs): distance.md, from the paper* CSVs here and the
# full-size CSVs in FULLSIZE (absolute or relative to OUTDIR; default
# ../ina-fullsize, fullsize.sh's default beside this script's).
# Larger scales are not here: fullsize.sh runs 1.0 (about an hour of CPU per
# run at the engine's present speed); paper02 runs 0.2 with two seeds,
# those fullsize.sh runs, for the paired distance from full size.
# See scripts/lib/reproduce.sh for SYNCSIM, PARALLEL, RESUME and EXTRA.
source "$(dirname "$0")/../lib/reproduce.sh"
default_out=ina-regime
figures=(small0005 small002 small005 small005abl paper0005 paper002 paper005 paper005follow paper02 tables distance)

small=(--set spines=4 --set leaves=4 --set hosts_per_leaf=8 --set workers=6 --set jobs=4 --set iterations=2 --set skip_iters=1)
async=strawasyn,strawasyn-pc,strawasyn-al,pa-atp
diag=awd_bound_frac,aecn_marks,agg_occ_mean_frac,agg_occ_max_frac,overflow_seqs,collision_seqs,exhaustion_seqs
ajct=(--metric ajct_ms --of protocol=pa-atp --change percent --undefined unfinished)

small0005() { sweep small0005 ina-leafspine "${small[@]}" --set gradient_scale=0.005 --vary protocol=switchml,atp,$async --trials 5 --timing; }
small002() { sweep small002 ina-leafspine "${small[@]}" --set gradient_scale=0.02 --vary protocol=$async --trials 5 --timing; }
small005() { sweep small005 ina-leafspine "${small[@]}" --set gradient_scale=0.05 --vary protocol=strawasyn,pa-atp --trials 5 --timing; }
small005abl() { sweep small005abl ina-leafspine "${small[@]}" --set gradient_scale=0.05 --vary protocol=strawasyn-pc,strawasyn-al --trials 5 --timing; }
paper0005() { sweep paper0005 ina-leafspine --set gradient_scale=0.005 --vary protocol=$async --trials 5 --timing; }
paper002() { sweep paper002 ina-leafspine --set gradient_scale=0.02 --vary protocol=strawasyn,pa-atp --trials 5 --timing; }
paper005() { sweep paper005 ina-leafspine --set gradient_scale=0.05 --vary protocol=strawasyn,pa-atp --trials 5 --timing; }
# paper005follow: paper005 under the earlier model's collision rule
# (agg_collision=follow, ina-recovery.md): how much of StrawAsyn's loss at
# 0.05 ATP's rule (the default) accounts for. The follow table reads
# paper005's CSV beside it.
paper005follow() {
	sweep paper005follow ina-leafspine --set gradient_scale=0.05 --set agg_collision=follow --vary protocol=strawasyn,pa-atp --trials 5 --timing
	[[ -e paper005.csv ]] || die "paper005follow compares with paper005's CSV: run paper005 first"
	table follow "The collision rule at 0.05 on the paper's fabric: AJCT (ms) and drops, follow against ATP's rule" \
		paper005.csv paper005follow.csv --metric ajct_ms,drops,loss_frac,drops_uplink,drops_downlink,drops_ps_port,drops_result,drops_overflow,overflow_seqs,exhaustion_seqs,worker_timeouts
	table follow-rule "The collision rule at 0.05: each protocol's change under follow, seed by seed" \
		paper005.csv paper005follow.csv --metric ajct_ms,drops --vs agg_collision=atp --change percent --count-below 0
	table follow-pa "The collision rule at 0.05: PA-ATP's change against StrawAsyn under each rule" \
		paper005.csv paper005follow.csv --metric ajct_ms --of protocol=pa-atp --change percent --count-below 0
	append_tables follow follow-rule follow-pa
}
# 0.2: two seeds per protocol (about 15 CPU-minutes a run), the seeds
# fullsize.sh runs at 1.0: a paired distance from full size, not a
# five-seed comparison.
paper02() { sweep paper02 ina-leafspine --set gradient_scale=0.2 --vary protocol=strawasyn,pa-atp --trials 2 --timing; }

# tables: one AJCT table (PA-ATP's paired change against each protocol) and
# one diagnostics table per fabric, over the scales whose CSVs exist.
tables() {
	local small_csvs=() f
	for f in small0005 small002 small005 small005abl; do
		[[ -e $f.csv ]] && small_csvs+=("$f.csv")
	done
	if [[ ${#small_csvs[@]} -gt 0 ]]; then
		table small "The regime on the 4 x 4 x 8 fabric: AJCT (ms), PA-ATP's change against the others" "${small_csvs[@]}" "${ajct[@]}"
		table small-diag "The regime on the 4 x 4 x 8 fabric: diagnostics" "${small_csvs[@]}" --metric "$diag"
		table small-vs-straw "The regime on the 4 x 4 x 8 fabric: AJCT against StrawAsyn" "${small_csvs[@]}" --metric ajct_ms --vs protocol=strawasyn --change percent --undefined unfinished
	fi
	local paper_csvs=()
	for f in paper0005 paper002 paper005 paper02; do
		[[ -e $f.csv ]] && paper_csvs+=("$f.csv")
	done
	if [[ ${#paper_csvs[@]} -gt 0 ]]; then
		table paper "The regime on the paper's fabric: AJCT (ms), PA-ATP's change against the others" "${paper_csvs[@]}" "${ajct[@]}"
		table paper-diag "The regime on the paper's fabric: diagnostics" "${paper_csvs[@]}" --metric "$diag"
	fi
}

distance() {
	local full=${FULLSIZE:-../ina-fullsize} csvs=() f
	for f in paper0005 paper002 paper005 paper02; do
		[[ -e $f.csv ]] && csvs+=("$f.csv")
	done
	for f in strawasyn pa-atp strawasyn-2 pa-atp-2; do
		[[ -e $full/$f.csv ]] && csvs+=("$full/$f.csv")
	done
	[[ ${#csvs[@]} -gt 0 ]] || die "no paper* CSV here and no full-size CSV in $full"
	local common=(--metric ajct_ms --where protocol=strawasyn,pa-atp --of protocol=pa-atp --change percent)
	table distance "The distance from full size: AJCT (ms) and PA-ATP's change against StrawAsyn on seeds 1 and 2" \
		"${csvs[@]}" "${common[@]}" --where seed=1,2
	table distance-1 "The distance from full size, seed 1" "${csvs[@]}" "${common[@]}" --where seed=1
	table distance-2 "The distance from full size, seed 2" "${csvs[@]}" "${common[@]}" --where seed=2
	append_tables distance distance-1 distance-2
}

main "$@"
