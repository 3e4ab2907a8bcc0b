#!/usr/bin/env bash
# PA-ATP Figs. 1-3, 8-10 and 12-15 at the steady defaults, 5 seeds per point
# (2 for the deterministic Fig. 2), and the claims table built from them, as
# docs/ina-reproduction.md reports them.
#
#   scripts/ina/reproduce.sh [OUTDIR [FIGURE...]]   (figures below; default: all)
#
# Every run goes on until all its jobs are done (max_ms at its default,
# 10 s of simulated time), so every protocol has a number in every cell;
# each figure also tabulates jobs_done and PA-ATP's diagnostics. Several
# CPU-hours in all (fig13 and fig14 most); costs.md has each sweep's, and
# every CSV has wall_s per run (--timing).
# See scripts/lib/reproduce.sh for SYNCSIM, PARALLEL, RESUME and EXTRA.
source "$(dirname "$0")/../lib/reproduce.sh"
default_out=ina-repro
figures=(fig12 fig12rtt fig12abl fig15 fig15jitter fig10 fig10idle fig10hold splits fig13 fig14cf08 fig14cf fig14hadoop fig14 byteps fig1 fig2 fig3 fig8 fig9 claims idle idle002 idle005 idle005switchml idlegaps idle002gaps fig10gaps idlepaced idle002paced idle005paced fig10paced)

P4=switchml,atp,strawasyn,pa-atp
# AJCT per protocol, median [min-max] over seeds; PA-ATP's change against
# every other protocol, seed by seed, in percent.
ajct=(--metric ajct_ms --of protocol=pa-atp --change percent --undefined unfinished)
# PA-ATP's mechanisms at work (docs/ina.md, "Diagnostics").
diag=(--metric jobs_done,awd_bound_frac,aecn_marks,agg_occ_max_frac,overflow_seqs,collision_seqs,exhaustion_seqs,drops,worker_timeouts)
plot() { "$SYNCSIM" plot "$@" --force; }

fig10() {
	sweep fig10 ina-testbed --vary model=resnet50,vgg19 --vary load=0.2:0.8:0.2 --vary protocol=byteps,switchml,atp,strawasyn,pa-atp --trials 5 --timing
	table fig10 "Fig. 10: testbed, two jobs, AJCT (ms)" fig10.csv "${ajct[@]}"
	table fig10-diag "Fig. 10: diagnostics" fig10.csv "${diag[@]}"
	plot fig10.csv --x load --y ajct_ms --series protocol --where model=vgg19 --log-y -o fig10_vgg19.png
	plot fig10.csv --x load --y ajct_ms --series protocol --where model=resnet50 --log-y -o fig10_resnet50.png
}

# Sec. V-C's testbed without background: PA-ATP "slightly lower than SwitchML
# and ATP" there, for its GACKs' share of the links.
fig10idle() {
	sweep fig10idle ina-testbed --vary model=resnet50,vgg19 --set load=0 --vary protocol=byteps,switchml,atp,strawasyn,pa-atp --trials 5 --timing
	table fig10idle "Testbed without background, AJCT (ms)" fig10idle.csv "${ajct[@]}"
}

# The testbed's asynchronous VGG19 rows with and without background under
# ATP's aggregation table (agg_passed=hold: a gradient takes a free
# aggregator although a partner passed its sequence), beside fig10idle.csv
# and fig10.csv at the default (agg_passed=ps; run fig10 and fig10idle
# first): what the split of a sequence between the switch and the PS does
# there.
fig10hold() {
	sweep fig10hold ina-testbed --set model=vgg19 --set agg_passed=hold --vary load=0,0.8 --vary protocol=strawasyn,pa-atp --trials 5 --timing
	[[ -e fig10.csv && -e fig10idle.csv ]] || die "fig10hold compares with fig10.csv and fig10idle.csv: run fig10 and fig10idle first"
	table fig10hold "Testbed, VGG19: the default (agg_passed=ps) against ATP's table (agg_passed=hold), AJCT (ms)" \
		fig10idle.csv fig10.csv --where model=vgg19 --where load=0,0.8 --where protocol=strawasyn,pa-atp fig10hold.csv \
		--metric ajct_ms --vs agg_passed=hold --change percent
	table fig10hold-diag "Testbed, VGG19: the default against agg_passed=hold, diagnostics" \
		fig10idle.csv fig10.csv --where model=vgg19 --where load=0,0.8 --where protocol=strawasyn,pa-atp fig10hold.csv \
		--metric jct_max_ms,drops,worker_timeouts,retransmits,overflow_seqs
}

# What becomes of a sequence split between the switch and the PS, on
# TestINALeafSpineOrder's small fabric (4 x 4 x 4, two jobs of 6 workers,
# 0.25 MiB, Hadoop at 0.6): the default (agg_passed=ps: the partial goes to
# the PS once no new gradient can complete it), ATP's table (hold: it waits
# for a resend) and every later contribution sent to the PS (the earlier
# agg_collision=follow).
order=(--set spines=4 --set leaves=4 --set hosts_per_leaf=4 --set jobs=2 --set workers=6 --set model=custom
	--set gradient_mb=1 --set iterations=3 --set load=0.6 --set bg_hosts=all --set switch_mem_mib=0.25
	--set bg_warmup_ms=0 --set skip_iters=0)
splits() {
	sweep splits ina-leafspine "${order[@]}" --vary agg_passed=ps,hold --vary protocol=strawasyn,pa-atp --trials 6 --timing
	sweep splitsfollow ina-leafspine "${order[@]}" --set agg_collision=follow --set agg_passed=hold --vary protocol=strawasyn,pa-atp --trials 6 --timing
	table splits "Split sequences: the default (agg_passed=ps) against ATP's table (hold), AJCT (ms)" \
		splits.csv --metric ajct_ms --vs agg_passed=hold --change percent
	table splits-diag "Split sequences: the three rules" splits.csv splitsfollow.csv \
		--metric ajct_ms,overflow_pkts,drops,worker_timeouts
}

fig15() {
	sweep fig15 ina-leafspine --set model=resnet50 --vary switch_mem_mib=0.5,2:10:2 \
		--vary protocol=atp,strawasyn,strawasyn-pc,strawasyn-al,pa-atp --trials 5 --timing
	table fig15 "Fig. 15: switch memory and the ablations, AJCT (ms)" fig15.csv "${ajct[@]}"
	table fig15-diag "Fig. 15: diagnostics" fig15.csv "${diag[@]}"
	plot fig15.csv --x switch_mem_mib --y ajct_ms --series protocol --kind line --log-y -o fig15_ajct.png
}

# Fig. 15's rows under lockstep timers (rto_jitter=0, the earlier model's),
# beside fig15.csv's at the default jitter (run fig15 first): what the
# timer spread does to ATP (2 MiB) and to StrawAsyn and PA-ATP where memory
# is scarce (0.5 MiB).
fig15jitter() {
	sweep fig15jitter ina-leafspine --set model=resnet50 --set switch_mem_mib=0.5 --set rto_jitter=0 --vary protocol=strawasyn,pa-atp --trials 5
	sweep fig15jitter-atp ina-leafspine --set model=resnet50 --set switch_mem_mib=2 --set rto_jitter=0 --set protocol=atp --trials 5
	[[ -e fig15.csv ]] || die "fig15jitter compares with fig15.csv: run fig15 first"
	table fig15jitter "Fig. 15 under lockstep timers (rto_jitter=0) against the default spread, AJCT (ms)" \
		fig15.csv --where switch_mem_mib=0.5,2 --where protocol=atp,strawasyn,pa-atp fig15jitter.csv fig15jitter-atp.csv \
		--metric ajct_ms --vs rto_jitter=0.25 --change percent
	table fig15jitter-diag "Fig. 15 under lockstep timers: drops and worker timeouts" \
		fig15.csv --where switch_mem_mib=0.5,2 --where protocol=atp,strawasyn,pa-atp fig15jitter.csv fig15jitter-atp.csv \
		--metric drops,worker_timeouts,retransmits
}

fig12() {
	sweep fig12 ina-leafspine --vary workers=12:24:4 --vary protocol=$P4 --trials 5 --timing
	table fig12 "Fig. 12: workers per job, AJCT (ms)" fig12.csv "${ajct[@]}"
	table fig12-diag "Fig. 12: diagnostics" fig12.csv "${diag[@]}"
	plot fig12.csv --x workers --y ajct_ms --series protocol --log-y -o fig12_ajct.png
}

# Fig. 12's 24-worker point under the former window growth (+1500 B per
# round trip after slow start), beside the paper's +1 per GACK (run fig12
# first): what the growth rule does to the drops and the AJCT there.
fig12rtt() {
	sweep fig12rtt ina-leafspine --set workers=24 --set cwd_increase=per-rtt --vary protocol=strawasyn,pa-atp --trials 5 --timing
	[[ -e fig12.csv ]] || die "fig12rtt compares with fig12.csv: run fig12 first"
	local with=(fig12.csv --where workers=24 --where protocol=strawasyn,pa-atp fig12rtt.csv)
	table fig12rtt "Fig. 12 at 24 workers: window growth per GACK and per RTT, AJCT (ms)" "${with[@]}" \
		--metric ajct_ms --vs cwd_increase=per-gack --change percent
	table fig12rtt-diag "Fig. 12 at 24 workers: window growth per GACK and per RTT, diagnostics" "${with[@]}" \
		--metric drops,worker_timeouts,overflow_seqs,agg_occ_max_frac
}

# Fig. 12's 24-worker point with StrawAsyn's two ablations beside
# fig12.csv's StrawAsyn and PA-ATP (run fig12 first): which of PA-ATP's two
# mechanisms, the progress-aware cut (+PC) or the asynchrony limit (+AL),
# makes the difference between them there; then PA-ATP with a timeout's
# pull of the front made once (rto_pull_again=front) against the default
# (reset), which repeats it after every GACK; then both protocols under the
# ATP client's fixed timer (rto_backoff=false) against the default, the
# timer doubled on consecutive expiries.
fig12abl() {
	sweep fig12abl ina-leafspine --set workers=24 --vary protocol=strawasyn-pc,strawasyn-al --trials 5 --timing
	sweep fig12front ina-leafspine --set workers=24 --set rto_pull_again=front --vary protocol=pa-atp --trials 5 --timing
	sweep fig12fixed ina-leafspine --set workers=24 --set rto_backoff=false --vary protocol=strawasyn,pa-atp --trials 5 --timing
	[[ -e fig12.csv ]] || die "fig12abl compares with fig12.csv: run fig12 first"
	local with=(fig12.csv --where workers=24 --where protocol=strawasyn,strawasyn-pc,strawasyn-al,pa-atp fig12abl.csv)
	table fig12abl "Fig. 12 at 24 workers: StrawAsyn, its ablations and PA-ATP, AJCT (ms)" "${with[@]}" \
		--metric ajct_ms --vs protocol=strawasyn --change percent --count-below 0
	table fig12abl-diag "Fig. 12 at 24 workers: StrawAsyn, its ablations and PA-ATP, diagnostics" "${with[@]}" \
		--metric drops,drops_overflow,worker_timeouts,overflow_seqs,awd_bound_frac,aecn_marks,loss_frac
	local front=(fig12.csv --where workers=24 --where protocol=pa-atp fig12front.csv)
	table fig12front "Fig. 12 at 24 workers: PA-ATP's pull once (rto_pull_again=front) against the default (reset), AJCT (ms)" \
		"${front[@]}" --metric ajct_ms --vs rto_pull_again=reset --change percent --count-below 0
	table fig12front-diag "Fig. 12 at 24 workers: PA-ATP's pull rules, diagnostics" "${front[@]}" \
		--metric jct_max_ms,drops,worker_timeouts,retransmits,loss_frac
	table fig12front-vs "Fig. 12 at 24 workers: PA-ATP under either pull rule against StrawAsyn, AJCT (ms)" \
		fig12.csv fig12front.csv --where workers=24 --where protocol=strawasyn,pa-atp \
		--metric ajct_ms --vs protocol=strawasyn --vs rto_pull_again=reset --change percent --count-below 0
	local fixed=(fig12.csv fig12fixed.csv --where workers=24 --where protocol=strawasyn,pa-atp)
	table fig12fixed "Fig. 12 at 24 workers: ATP's fixed timer (rto_backoff=false) against the default (doubled), AJCT (ms)" \
		"${fixed[@]}" --metric ajct_ms --vs rto_backoff=true --change percent --count-below 0
	table fig12fixed-vs "Fig. 12 at 24 workers, rto_backoff=false: PA-ATP against StrawAsyn, AJCT (ms)" \
		fig12fixed.csv --metric ajct_ms --of protocol=pa-atp --change percent --count-below 0
	table fig12fixed-diag "Fig. 12 at 24 workers: the timer rules, diagnostics" "${fixed[@]}" \
		--metric jct_max_ms,drops,worker_timeouts,retransmits,loss_frac
}

# Fig. 14 in three sweeps, so that each can run (and be resumed) apart:
# Cache Follower at 0.2-0.6, Cache Follower at 0.8 (fig14cf08, reused when
# its CSV is here) and Hadoop at 0.2-0.8; the tables and plots read all three.
# A sweep that finished here (its .time written) is not run again.
fig14() {
	local s
	for s in fig14cf08 fig14cf fig14hadoop; do
		[[ -e $s.csv && -s $s.time ]] || "$s"
	done
	local all=(fig14cf.csv fig14cf08.csv fig14hadoop.csv)
	table fig14 "Fig. 14: background workload and load, AJCT (ms)" "${all[@]}" "${ajct[@]}"
	table fig14-diag "Fig. 14: diagnostics" "${all[@]}" "${diag[@]}"
	plot "${all[@]}" --x load --y ajct_ms --series protocol --where workload=hadoop --log-y -o fig14_hadoop.png
	plot "${all[@]}" --x load --y ajct_ms --series protocol --where workload=cachefollower --log-y -o fig14_cachefollower.png
}

fig14cf() {
	sweep fig14cf ina-leafspine --set workload=cachefollower --vary load=0.2:0.6:0.2 --vary protocol=$P4 --trials 5 --timing
}

fig14hadoop() {
	sweep fig14hadoop ina-leafspine --set workload=hadoop --vary load=0.2:0.8:0.2 --vary protocol=$P4 --trials 5 --timing
}

# Fig. 14's Cache Follower point at load 0.8 alone (the paper's largest gains).
fig14cf08() {
	sweep fig14cf08 ina-leafspine --set workload=cachefollower --set load=0.8 --vary protocol=strawasyn,pa-atp,atp,switchml --trials 5 --timing
	table fig14cf08 "Fig. 14, Cache Follower at 0.8, AJCT (ms)" fig14cf08.csv "${ajct[@]}"
	table fig14cf08-diag "Fig. 14, Cache Follower at 0.8: diagnostics" fig14cf08.csv "${diag[@]}"
}

# Fig. 13: 16-32 jobs, beside Fig. 12's 8-job point (run fig12 first).
fig13() {
	sweep fig13 ina-leafspine --vary jobs=16:32:8 --vary protocol=$P4 --trials 5 --timing
	local with=()
	[[ -s fig12.csv ]] && with=(fig12.csv --where workers=12)
	table fig13 "Fig. 13: jobs, AJCT (ms)" "${with[@]}" fig13.csv "${ajct[@]}"
	table fig13-diag "Fig. 13: diagnostics" fig13.csv "${diag[@]}"
}

# BytePS against PA-ATP when the workers' NICs carry background or not.
byteps() {
	sweep byteps ina-leafspine --vary protocol=byteps,pa-atp --vary bg_hosts=all,idle --set jobs=2 --set workers=4 \
		--set model=custom --set gradient_mb=4 --set iterations=3 --set load=0.6 --trials 5 --timing
	table byteps "BytePS against PA-ATP, AJCT (ms)" byteps.csv --metric ajct_ms --of protocol=pa-atp --change percent
}

# Fig. 1: the motivating example, packet run beside the paper's fluid.
fig1() {
	sweep fig1 ina-motivation --set example=sync-vs-async --vary protocol=atp,strawasyn,pa-atp
	table fig1 "Fig. 1: AJCT in the paper's units, packet run and fluid" fig1.csv \
		--metric ajct_units,ideal_ajct_units,wire_ajct_units,retransmits,worker_timeouts --digits 4
}

# Fig. 2: progress-agnostic against progress-aware sending. The example has
# no randomness that acts (no loss, no timeout): two seeds show it.
fig2() {
	sweep fig2 ina-motivation --set example=progress --vary protocol=strawasyn,strawasyn-pc,pa-atp --trials 2 --timing
	table fig2 "Fig. 2: aggregation throughput (Gbit/s), progress-agnostic and -aware" fig2.csv \
		--metric agg_window_gbps,switch_agg_window_gbps,ideal_agg_gbps,drops,worker_timeouts
}

# Fig. 3: asynchrony unlimited against limited. Its timeouts draw the
# timer's jitter, so it varies with the seed.
fig3() {
	sweep fig3 ina-motivation --set example=async-limit --vary protocol=strawasyn,strawasyn-al,pa-atp --trials 5 --timing
	table fig3 "Fig. 3: aggregation throughput (Gbit/s), asynchrony unlimited and limited" fig3.csv \
		--metric switch_agg_window_gbps,agg_window_gbps,overflow_pkts,aecn_marks,drops,worker_timeouts
}

# Fig. 8: the basic example (two jobs on three paths, a UDP burst on p1).
fig8() {
	sweep fig8 ina-basic --vary protocol=switchml,atp,pa-atp --trials 5 --timing
	table fig8 "Fig. 8: the basic example" fig8.csv \
		--metric fa1_early_gbps,fa2_early_gbps,agg_a_early_gbps,jct_a_ms,jct_b_ms,loss_frac,worker_timeouts
}

# Fig. 9: one job of 3 workers on the testbed, without background and with
# Hadoop at 0.6 (training throughput is 1000 / ajct_ms iterations a second).
fig9() {
	sweep fig9 ina-testbed --set jobs=1 --vary model=resnet50,alexnet,vgg11,vgg19 --vary load=0,0.6 \
		--vary protocol=byteps,switchml,atp,pa-atp --trials 5 --timing
	table fig9 "Fig. 9: one job, AJCT (ms)" fig9.csv "${ajct[@]}"
}

# The paper's fabric without background beside it under the default
# background (docs/ina-recovery.md, "The idle fabric"): at the default
# gradient_scale, at 0.02 and at 0.05, five seeds each.
idle() {
	sweep idle ina-leafspine --vary load=0,0.5 --vary protocol=$P4 --trials 5 --timing
	table idle "The idle fabric beside the default background, AJCT (ms)" idle.csv --metric ajct_ms --vs load=0.5 --change percent
	table idle-loss "The idle fabric: loss_frac and where packets are lost" idle.csv \
		--metric loss_frac,drops_uplink,drops_downlink,drops_ps_port,drops_result,drops_overflow,drops_gradient --where load=0
}
idle002() {
	sweep idle002 ina-leafspine --set gradient_scale=0.02 --set max_ms=1000 --vary load=0,0.5 --vary protocol=$P4 --trials 5 --timing
	table idle002 "The idle fabric at gradient_scale 0.02, AJCT (ms)" idle002.csv --metric ajct_ms --vs load=0.5 --change percent
	table idle002-loss "The idle fabric at 0.02: loss_frac" idle002.csv --metric loss_frac,jobs_done
}
idle005() {
	sweep idle005 ina-leafspine --set gradient_scale=0.05 --set max_ms=1000 --vary load=0,0.5 --vary protocol=$P4 --trials 5 --timing
	table idle005 "The idle fabric at gradient_scale 0.05, AJCT (ms)" idle005.csv --metric ajct_ms --vs load=0.5 --change percent --undefined unfinished
	table idle005-loss "The idle fabric at 0.05: loss_frac" idle005.csv --metric loss_frac,jobs_done
}
# SwitchML's crawl at 0.05 without background (ina-recovery.md, "The idle
# fabric"): seed 3 run on to 30 s with its jobs' series every 100 ms (job
# 3's progress and timer in idle005long.md), and the idle point under the
# client's 10 ms timer beside a 1 ms one.
idle005switchml() {
	local sw=(ina-leafspine --set protocol=switchml --set gradient_scale=0.05 --set load=0)
	sweep idle005long "${sw[@]}" --set max_ms=30000 --set series_us=100000 --seed 3 --trials 1 --series-dir idle005long-series --timing
	local jobs=idle005long-series/ina-leafspine_0_0_jobs.csv
	if [[ -s $jobs ]]; then
		{
			printf '### SwitchML at 0.05 without background, seed 3: job 3 by the second\n\n'
			printf '| t (ms) | progress (of 3 iterations) | timeouts | longest timer (us) |\n|---|---|---|---|\n'
			awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
				$c["job"] == 3 && ($c["t_ms"] % 5000 == 0 || $c["t_ms"] == 100 || $c["t_ms"] == 1000) {
					printf "| %s | %.3f | %s | %s |\n", $c["t_ms"], $c["progress"], $c["timeouts"], $c["rto_max_us"] }' "$jobs"
		} >idle005long.md
	else
		say "idle005long: no job series at $PWD/$jobs; idle005long.md not written"
	fi
	sweep idle005timer "${sw[@]}" --set max_ms=1000 --vary switchml_timeout_ms=1,10 --trials 5 --timing
	table idle005timer "SwitchML at 0.05 without background: a 1 ms timer against the client's 10 ms" idle005timer.csv \
		--metric ajct_ms,jct_max_ms,jobs_done,worker_timeouts,drops --vs switchml_timeout_ms=10 --change percent --undefined unfinished
}
# The asynchronous rows with rto_gaps=batch (an expiry also recovers the
# GACKed sequences below the highest result held that lack their own),
# NAME.csv, and at the default (rto_gaps=front), NAMEfront.csv, seed by
# seed: the idle fabric and load 0.5 at the default scale and at 0.02,
# and the testbed's VGG19 idle and at 0.8.
# gaps NAME TITLE EXPERIMENT FLAGS...: both sweeps and NAME.md.
gaps() {
	local name=$1 title=$2 exp=$3
	shift 3
	sweep "$name" "$exp" "$@" --set rto_gaps=batch --vary protocol=strawasyn,pa-atp --trials 5 --timing
	sweep "${name}front" "$exp" "$@" --set rto_gaps=front --vary protocol=strawasyn,pa-atp --trials 5 --timing
	table "$name" "$title, AJCT (ms)" "$name.csv" "${name}front.csv" --metric ajct_ms --vs rto_gaps=front --change percent
	table "$name-diag" "$title: the slowest job, drops and expiries" "$name.csv" "${name}front.csv" \
		--metric jct_max_ms,drops,drops_result,worker_timeouts
	append_tables "$name" "$name-diag"
}
idlegaps() {
	gaps idlegaps "The idle fabric and load 0.5: rto_gaps=batch against the default (front)" ina-leafspine --vary load=0,0.5
}
idle002gaps() {
	gaps idle002gaps "The idle fabric and load 0.5 at gradient_scale 0.02: rto_gaps=batch against the default (front)" \
		ina-leafspine --set gradient_scale=0.02 --set max_ms=1000 --vary load=0,0.5
}
fig10gaps() {
	gaps fig10gaps "Testbed, VGG19, idle and load 0.8: rto_gaps=batch against the default (front)" \
		ina-testbed --set model=vgg19 --vary load=0,0.8
}
# The same points with rto_gaps=paced (one gap at the expiry, two more per
# new result), NAME.csv, against the default beside batch: the gaps
# figure's CSVs are reused when they are here (run it first to compare
# with batch; without them the default's sweep is run here).
# paced NAME GAPSNAME TITLE EXPERIMENT FLAGS...: the sweep and NAME.md.
paced() {
	local name=$1 gapsname=$2 title=$3 exp=$4
	shift 4
	sweep "$name" "$exp" "$@" --set rto_gaps=paced --vary protocol=strawasyn,pa-atp --trials 5 --timing
	[[ -e ${gapsname}front.csv ]] ||
		sweep "${gapsname}front" "$exp" "$@" --set rto_gaps=front --vary protocol=strawasyn,pa-atp --trials 5 --timing
	local csvs=("$name.csv" "${gapsname}front.csv")
	[[ -e $gapsname.csv ]] && csvs+=("$gapsname.csv")
	table "$name" "$title, AJCT (ms)" "${csvs[@]}" --metric ajct_ms --vs rto_gaps=front --change percent
	table "$name-diag" "$title: the slowest job, drops and expiries" "${csvs[@]}" \
		--metric jct_max_ms,drops,drops_result,worker_timeouts
	append_tables "$name" "$name-diag"
}
idlepaced() {
	paced idlepaced idlegaps "The idle fabric and load 0.5: rto_gaps=paced and batch against the default (front)" \
		ina-leafspine --vary load=0,0.5
}
idle002paced() {
	paced idle002paced idle002gaps "The idle fabric and load 0.5 at gradient_scale 0.02: rto_gaps=paced and batch against the default (front)" \
		ina-leafspine --set gradient_scale=0.02 --set max_ms=1000 --vary load=0,0.5
}
# At 0.05 the default's rows are idle005's (run here when idle005.csv is
# not in OUTDIR), so only paced is swept.
idle005paced() {
	local flags=(ina-leafspine --set gradient_scale=0.05 --set max_ms=1000 --vary load=0,0.5)
	sweep idle005paced "${flags[@]}" --set rto_gaps=paced --vary protocol=strawasyn,pa-atp --trials 5 --timing
	[[ -e idle005.csv ]] || idle005
	local title="The idle fabric and load 0.5 at gradient_scale 0.05: rto_gaps=paced against the default (front)"
	table idle005paced "$title, AJCT (ms)" idle005paced.csv idle005.csv --where protocol=strawasyn,pa-atp \
		--metric ajct_ms --vs rto_gaps=front --change percent
	table idle005paced-load "$title: idle against load 0.5 under paced" idle005paced.csv \
		--metric ajct_ms --vs load=0.5 --change percent --count-below 0
	table idle005paced-diag "$title: the slowest job, drops and expiries" idle005paced.csv idle005.csv \
		--where protocol=strawasyn,pa-atp --metric jct_max_ms,drops,drops_result,worker_timeouts
	append_tables idle005paced idle005paced-load idle005paced-diag
}
fig10paced() {
	paced fig10paced fig10gaps "Testbed, VGG19, idle and load 0.8: rto_gaps=paced and batch against the default (front)" \
		ina-testbed --set model=vgg19 --vary load=0,0.8
}

source "$(dirname "$0")/claims.sh"

main "$@"
