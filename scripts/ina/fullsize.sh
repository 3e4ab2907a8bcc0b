#!/usr/bin/env bash
# One full-size point on the paper's
# fabric (ina-leafspine's defaults: 8 x 8 x 16, 8 jobs x 12 workers, ResNet50
# and VGG19 jobs 1:1, Hadoop at 0.5), whole models (gradient_scale=1), one
# iteration left out and one measured, per protocol and seed:
#
#   scripts/ina/fullsize.sh [OUTDIR [RUN...]]
#
# RUN is pa-atp, strawasyn or atp (seed 1), or the same with -2 (seed 2),
# or strawasyn-fixed and pa-atp-fixed (seed 1 with rto_backoff=false, the
# ATP client's fixed timer); the default runs all eight and then `tables`.
# Each run writes RUN.csv, its cost RUN.time (CPU seconds user and system,
# wall seconds, peak KB, as the sweeps' .time files) and its series under
# series-RUN/; `tables` (run after the others) writes fullsize.md (AJCT
# and diagnostics, median [min-max] over the seeds present, and PA-ATP's
# paired change against the others) from the CSVs there, and
# fullsize-fixed.md (the fixed timer against the default) where the -fixed
# RUNs are there. EXTRA adds flags to every run, as in
# scripts/lib/reproduce.sh.
#
# The rules RUNs take the point apart instead: PA-ATP, seed 1, to 100 ms of
# simulated time only (max_ms=100), once per recovery or window rule
# (rules-default, rules-front, rules-window, rules-client, rules-gacked,
# rules-gaps, rules-elapsed, rules-earlier, the earlier model's line of
# options from docs/ina-recovery.md, and rules-fixed, the ATP client's
# fixed timer), each 100-250 CPU-seconds; `rules` tabulates every job's
# progress, AWD, timeouts and pulls at 100 ms from their job series into
# rules.md (scripts/ina/progress.py). quarter and quarter-earlier run
# PA-ATP at a quarter of the models to the end under the present defaults
# and the earlier model's line, quarter-gaps with rto_gaps=batch, and
# quarter-table tabulates them.
# Costly: 45-75 CPU-minutes and about 300 MB per run at the engine's
# present speed (docs/ina-reproduction.md, "A full-size point").
# See scripts/lib/reproduce.sh for SYNCSIM.
source "$(dirname "$0")/../lib/reproduce.sh"
default_out=ina-fullsize
figures=(pa-atp strawasyn atp pa-atp-2 strawasyn-2 atp-2 strawasyn-fixed pa-atp-fixed tables rules-default rules-front rules-window rules-client rules-gacked rules-gaps rules-elapsed rules-earlier rules-fixed rules quarter quarter-earlier quarter-gaps quarter-table)

# full NAME PROTOCOL SEED [FLAGS...]: one whole-model run.
full() {
	local name=$1 p=$2 seed=$3
	shift 3
	say "$name: syncsim run ina-leafspine --set protocol=$p --set gradient_scale=1 --set iterations=2 --set skip_iters=1 --seed $seed $* ${EXTRA:-}"
	# shellcheck disable=SC2086 # EXTRA is a list of flags
	/usr/bin/time -o "$name.time" -f "%U %S %e %M" "$SYNCSIM" run ina-leafspine --set protocol="$p" \
		--set gradient_scale=1 --set iterations=2 --set skip_iters=1 --seed "$seed" "$@" ${EXTRA:-} \
		--csv "$name.csv" --series-dir "series-$name" --force --quiet
}

pa-atp() { full pa-atp pa-atp 1; }
strawasyn() { full strawasyn strawasyn 1; }
atp() { full atp atp 1; }
pa-atp-2() { full pa-atp-2 pa-atp 2; }
strawasyn-2() { full strawasyn-2 strawasyn 2; }
atp-2() { full atp-2 atp 2; }
# The ATP client's fixed timer (rto_backoff=false), seed 1: under it
# StrawAsyn's full-size jobs spend most of their time in resend storms
# (docs/ina-recovery.md, "The timer").
strawasyn-fixed() { full strawasyn-fixed strawasyn 1 --set rto_backoff=false; }
pa-atp-fixed() { full pa-atp-fixed pa-atp 1 --set rto_backoff=false; }

# The earlier model's line of options (docs/ina-recovery.md).
earlier=(--set nic=droptail --set agg_collision=follow --set gap_threshold=3 --set rto_backoff=true
	--set rto_jitter=0 --set result_ecn=false --set init_beta=1 --set awd_rounds=elapsed --set agg_passed=hold
	--set rto_pull_again=reset)

# rule NAME FLAGS...: PA-ATP seed 1 to 100 ms under one rule.
rule() {
	local name=$1
	shift
	say "$name: syncsim run ina-leafspine --set protocol=pa-atp --set gradient_scale=1 --set iterations=2 --set skip_iters=1 --set max_ms=100 $*"
	/usr/bin/time -o "$name.time" -f "%U %S %e %M" "$SYNCSIM" run ina-leafspine --set protocol=pa-atp \
		--set gradient_scale=1 --set iterations=2 --set skip_iters=1 --set max_ms=100 "$@" \
		--csv "$name.csv" --series-dir "series-$name" --force --quiet
}
# quarter NAME FLAGS...: PA-ATP seed 1 at a quarter of the models, to the
# end (both iterations of every job; about 600 CPU-seconds).
quarter_run() {
	local name=$1
	shift
	say "$name: syncsim run ina-leafspine --set protocol=pa-atp --set gradient_scale=0.25 --set iterations=2 --set skip_iters=1 --set max_ms=1500 --set series_us=1000 $*"
	/usr/bin/time -o "$name.time" -f "%U %S %e %M" "$SYNCSIM" run ina-leafspine --set protocol=pa-atp \
		--set gradient_scale=0.25 --set iterations=2 --set skip_iters=1 --set max_ms=1500 --set series_us=1000 "$@" \
		--csv "$name.csv" --series-dir "series-$name" --force --quiet
}
quarter() { quarter_run quarter; }
quarter-earlier() { quarter_run quarter-earlier "${earlier[@]}"; }
quarter-gaps() { quarter_run quarter-gaps --set rto_gaps=batch; }
quarter-table() {
	local csvs=() r
	for r in quarter quarter-earlier quarter-gaps; do
		[[ -e $r.csv ]] && csvs+=("$r.csv")
	done
	[[ ${#csvs[@]} -gt 0 ]] || die "no quarter CSV in $PWD"
	table quarter "A quarter of the models to the end: the present defaults, the earlier model and rto_gaps=batch" "${csvs[@]}" \
		--metric ajct_ms,jct_max_ms,jobs_done,retransmits,worker_timeouts,drops,drops_result,drops_ps_port,loss_frac,events
}
rules-default() { rule rules-default; }
rules-front() { rule rules-front --set rto_pull_again=front; }
rules-window() { rule rules-window --set rto_pull_again=front --set awd_cut=window; }
rules-client() { rule rules-client --set rto_pull_again=front --set rto_recover=client; }
rules-gacked() { rule rules-gacked --set rto_pull_again=front --set rto_gacked=front; }
rules-gaps() { rule rules-gaps --set rto_gaps=batch; }
rules-elapsed() { rule rules-elapsed --set awd_rounds=elapsed; }
rules-earlier() { rule rules-earlier "${earlier[@]}"; }
rules-fixed() { rule rules-fixed --set rto_backoff=false; }
rules() {
	local args=() r
	for r in default front window client gacked gaps elapsed earlier fixed; do
		[[ -s series-rules-$r/ina-leafspine_0_0_jobs.csv ]] && args+=("$r=series-rules-$r")
	done
	if [[ ${#args[@]} -eq 0 ]]; then
		say "rules: no rules-* job series in $PWD (run the rules-* RUNs first); rules.md not written"
		return 0
	fi
	say "rules: scripts/ina/progress.py --at 100 ${args[*]}"
	{
		echo "## The full-size point to 100 ms under each rule: every job's state at 100 ms"
		echo
		python3 "$repo/scripts/ina/progress.py" --at 100 "${args[@]}"
	} >rules.md
}

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
	local fixed=()
	for r in strawasyn pa-atp; do
		[[ -e $r.csv && -e $r-fixed.csv ]] && fixed+=("$r.csv" "$r-fixed.csv")
	done
	[[ ${#fixed[@]} -gt 0 ]] || return 0
	table fullsize-fixed "A full-size point, seed 1: the ATP client's fixed timer (rto_backoff=false) against the default (doubled)" \
		"${fixed[@]}" --metric ajct_ms,jct_max_ms,jobs_done,worker_timeouts,retransmits,drops,loss_frac --vs rto_backoff=true --change percent
}

main "$@"
