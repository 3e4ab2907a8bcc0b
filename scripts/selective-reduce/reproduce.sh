#!/usr/bin/env bash
# Selective reduce (Luo et al.): Fig. 3 exactly, Figs. 5-14 over 20 seeds,
# the open readings (waiting slot, bandwidth model, BAG's seed, k's
# rounding, Eq. 4) and shared fabrics, as docs/selective-reduce.md and
# docs/selective-reduce-fidelity.md report them.
#
#   scripts/selective-reduce/reproduce.sh [OUTDIR [FIGURE...]]   (figures below; default: all)
#
# The figures take about 5 CPU-minutes, the readings as much again, and
# the fabrics with background traffic about 10 (fabric-bg: a minute or
# more per run), overlap a quarter; costs.md has each sweep's. EXTRA="--set bw_model=walk" with
# another OUTDIR runs every figure under the walk reading.
# See scripts/lib/reproduce.sh for SYNCSIM, PARALLEL, RESUME and EXTRA.
source "$(dirname "$0")/../lib/reproduce.sh"
default_out=sr-repro
figures=(fig3 point fig56 fig8 fig9 fig10 fig11 fig12 fig13 fig14 readings fabric fabric-bg fig9-short fig12-bag overlap)

schemes=allreduce,partial-reduce,selective-reduce
both=(--vary trace=cnn,transformer)
n200=(--set n=200 --trials 20)
main4=avg_sync_time_s,avg_sync_scale,total_sync,total_iteration

plot() { "$SYNCSIM" plot "$@" --force; }

# Fig. 3: the worked example, exactly (one round, five workers).
fig3() {
	sweep fig3 sr-example --vary scheme=allreduce,partial-reduce,progress-aware,bandwidth-aware,selective-reduce
	table fig3 "Fig. 3: average completion time and scale" fig3.csv
}

# One cluster point at the defaults, one seed (docs/selective-reduce.md).
point() {
	sweep point sr-cluster --vary scheme=$schemes --vary n=40,200
	table point "One cluster point, one seed" point.csv --metric avg_sync_time_s,avg_sync_scale,total_iteration
}

# Figs. 5 and 6 (CNN and Transformer traces, n = 40..200) and Fig. 7
# (wasted wait), from one sweep.
fig56() {
	sweep fig56 sr-cluster "${both[@]}" --vary n=40,80,120,160,200 --vary scheme=$schemes --trials 20
	for tr in cnn transformer; do
		table "fig56-$tr" "Figs. 5-6, $tr trace: every scheme" fig56.csv --where trace=$tr --columns scheme --metric $main4
	done
	table fig56-time "Figs. 5-6: PR's sync time over SR's, paired" \
		fig56.csv --metric avg_sync_time_s --where scheme=partial-reduce,selective-reduce --of scheme=partial-reduce --changes-only
	table fig56-gain "Figs. 5-6: SR's scale and iterations over PR's, paired" \
		fig56.csv --metric avg_sync_scale,total_iteration --where scheme=partial-reduce,selective-reduce --of scheme=selective-reduce --changes-only
	table fig7 "Fig. 7: wasted wait per worker (s) and BPAWR's waits per run" \
		fig56.csv --metric wasted_wait_s,bpawr_waits --where scheme=selective-reduce --columns trace
	plot fig56.csv --x n --y avg_sync_time_s --series scheme --facet trace -o fig56_sync_time.png
	plot fig56.csv --x n --y avg_sync_scale --series scheme --facet trace --where scheme=partial-reduce,selective-reduce -o fig56_sync_scale.png
	plot fig56.csv --x n --y total_iteration --series scheme --facet trace -o fig56_total_iteration.png
	plot fig56.csv --x n --y wasted_wait_s --series trace --where scheme=selective-reduce -o fig7_wasted_wait.png
}

# Fig. 8: the minimum group size p.
fig8() {
	sweep fig8 sr-cluster "${both[@]}" --vary p_frac=0.1,0.2,0.3,0.4,0.5 --vary scheme=partial-reduce,selective-reduce "${n200[@]}"
	for tr in cnn transformer; do
		table "fig8-$tr" "Fig. 8, $tr trace, n = 200" fig8.csv --where trace=$tr --columns scheme --metric $main4
	done
	plot fig8.csv --x p_frac --y total_sync --series scheme --facet trace -o fig8_total_sync.png
}

# Fig. 9: BAG's eta.
fig9() {
	sweep fig9 sr-cluster "${both[@]}" --vary bag_eta=0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8 --vary scheme=partial-reduce,selective-reduce "${n200[@]}"
	for tr in cnn transformer; do
		table "fig9-$tr" "Fig. 9, $tr trace, n = 200" fig9.csv --where trace=$tr --columns scheme --metric $main4
	done
	plot fig9.csv --x bag_eta --y avg_sync_time_s --series scheme --facet trace -o fig9_sync_time.png
	plot fig9.csv --x bag_eta --y total_iteration --series scheme --facet trace -o fig9_total_iteration.png
}

# Fig. 10: BPAWR's theta, with the waiting slot at 10 ms (the default)
# and at 100 ms.
fig10() {
	sweep fig10 sr-cluster "${both[@]}" --vary n=40,200 --vary theta=1,2,5,10,20 --set scheme=selective-reduce --trials 20
	sweep fig10-dt100 sr-cluster "${both[@]}" --vary n=40,200 --vary theta=1,2,5,10,20 --set scheme=selective-reduce --set dt_ms=100 --trials 20
	table fig10 "Fig. 10: theta at dt 10 and 100 ms" \
		fig10.csv fig10-dt100.csv --metric avg_sync_time_s,avg_sync_scale,total_sync,total_iteration,bpawr_waits --columns dt_ms
	plot fig10.csv fig10-dt100.csv --x theta --y total_iteration --series dt_ms --facet trace --where n=200 -o fig10_total_iteration.png
}

# Fig. 11: cold start.
fig11() {
	sweep fig11 sr-cluster "${both[@]}" --vary n=40,80,120,160,200 --vary start=warm,cold --set scheme=selective-reduce --trials 20
	table fig11 "Fig. 11: sync time (s), warm and cold start" fig11.csv --metric avg_sync_time_s --vs start=warm
	plot fig11.csv --x n --y avg_sync_time_s --series start --facet trace -o fig11_sync_time.png
}

# Fig. 12: bandwidth estimation error.
fig12() {
	sweep fig12 sr-cluster "${both[@]}" --vary start=warm,cold --vary bw_error=0,0.1,0.2,0.3,0.4,0.5 \
		--set scheme=selective-reduce "${n200[@]}"
	table fig12 "Fig. 12: bandwidth estimation error e" fig12.csv --metric $main4 --columns start
	plot fig12.csv --x bw_error --y total_iteration --series start --facet trace -o fig12_total_iteration.png
}

# Fig. 13: bandwidth skew lambda.
fig13() {
	sweep fig13 sr-cluster "${both[@]}" --vary lambda=0.05,0.1,0.2 --vary scheme=$schemes "${n200[@]}"
	table fig13 "Fig. 13: bandwidth skew lambda" fig13.csv --columns scheme --metric avg_sync_time_s,avg_sync_scale,total_iteration
	table fig13-paired "Fig. 13: PR over SR, paired" \
		fig13.csv --metric avg_sync_time_s --where scheme=partial-reduce,selective-reduce --of scheme=partial-reduce --changes-only
	plot fig13.csv --x lambda --y avg_sync_time_s --series scheme --facet trace -o fig13_sync_time.png
}

# Fig. 14: latency alpha.
fig14() {
	sweep fig14 sr-cluster "${both[@]}" --vary alpha_ms=0,1,5,50 --vary scheme=$schemes "${n200[@]}"
	table fig14 "Fig. 14: latency alpha" fig14.csv --columns scheme --metric avg_sync_time_s,avg_sync_scale,total_iteration
	plot fig14.csv --x alpha_ms --y avg_sync_time_s --series scheme --facet trace -o fig14_sync_time.png
}

# The open readings: Figs. 5-6 under every bandwidth model and waiting
# slot of the fidelity page, and under BAG's seed, k's rounding and Eq. 4.
readings() {
	local name
	while read -r name flags; do
		# shellcheck disable=SC2086 # flags is a list
		sweep "reading-$name" sr-cluster "${both[@]}" --vary n=40,80,120,160,200 --vary scheme=$schemes --trials 20 $flags
		table "reading-$name" "Figs. 5-6 with $flags: PR's sync time over SR's" \
			"reading-$name.csv" --metric avg_sync_time_s --where scheme=partial-reduce,selective-reduce --of scheme=partial-reduce
		table "reading-$name-sr" "Figs. 5-6 with $flags: SR's sync time, scale and iterations, and its scale over PR's" \
			"reading-$name.csv" --metric avg_sync_scale,avg_sync_time_s,total_iteration --where scheme=partial-reduce,selective-reduce --of scheme=selective-reduce
	done <<'READINGS'
static-dt100 --set dt_ms=100
redraw-1 --set bw_model=redraw --set bw_period_s=1
redraw-5 --set bw_model=redraw --set bw_period_s=5
redraw-5-dt100 --set bw_model=redraw --set bw_period_s=5 --set dt_ms=100
redraw-20 --set bw_model=redraw --set bw_period_s=20
walk-1-0.1 --set bw_model=walk --set bw_walk_step=0.1
walk-1-0.2 --set bw_model=walk
walk-1-0.2-dt100 --set bw_model=walk --set dt_ms=100
walk-5-0.2 --set bw_model=walk --set bw_period_s=5
walk-5-1 --set bw_model=walk --set bw_period_s=5 --set bw_walk_step=1
bag-seed-p --set bag_seed=p
k-round --set k_round=round
predict-conditional --set predict=conditional
READINGS
}

# Shared fabrics: racks with oversubscribed uplinks at flow fidelity, n = 40.
fabric() {
	local rack=(--set n=40 --set fidelity=flow --set topology=racks --set racks=4)
	sweep fabric sr-cluster "${rack[@]}" --vary oversub=1,2,4,8 --vary scheme=$schemes --trials 20
	table fabric "Racks fabric, the paper's bandwidths" fabric.csv --columns scheme --metric eq2_ratio,avg_sync_time_s,total_iteration
	sweep fabric-lambda sr-cluster "${rack[@]}" --vary lambda=0.05,0.5,1 --vary oversub=1,4,8 --vary scheme=$schemes --trials 20
	table fabric-lambda "Racks fabric, faster and more alike edges" fabric-lambda.csv --columns scheme --metric eq2_ratio,avg_sync_time_s,total_iteration
	table fabric-lambda-paired "Racks fabric: PR over SR, paired" \
		fabric-lambda.csv --metric avg_sync_time_s,total_iteration --where scheme=partial-reduce,selective-reduce --of scheme=partial-reduce --changes-only
	plot fabric-lambda.csv --x oversub --y eq2_ratio --series scheme --facet lambda -o fabric_eq2_ratio.png
}

# Background traffic on the racks fabric: the paper's skew with one
# background host per rack, then faster edges with four (a minute of CPU
# per run: the flow engine re-rates shared transfers at every flow).
fabric-bg() {
	local rack=(--set n=40 --set fidelity=flow --set topology=racks --set racks=4 --set oversub=4)
	sweep fabric-bg1 sr-cluster "${rack[@]}" --set bg_hosts_per_rack=1 --set duration_s=20 --vary bg_load=0,0.3,0.6 \
		--vary scheme=partial-reduce,selective-reduce --trials 10
	table fabric-bg1 "Background, the paper's skew, one background host per rack" \
		fabric-bg1.csv --columns scheme --metric avg_sync_time_s,total_iteration,bg_fct_slowdown_p99
	sweep fabric-bg4 sr-cluster "${rack[@]}" --set lambda=0.5 --set bg_hosts_per_rack=4 --set duration_s=10 --vary bg_load=0,0.5 \
		--vary scheme=partial-reduce,selective-reduce --trials 5
	table fabric-bg4 "Background at half the background hosts' capacity, faster edges" \
		fabric-bg4.csv --columns scheme --metric avg_sync_time_s,eq2_ratio,total_iteration,bg_fct_slowdown_p99
	table fabric-bg4-paired "Background: PR over SR, paired" \
		fabric-bg4.csv --metric avg_sync_time_s,total_iteration --of scheme=partial-reduce --changes-only
}

# Fig. 9's scale tested: whether BAG's groups exceed n - p = 140 at
# eta = 0.8 once synchronisations are short against the compute (a 50 MB
# or 5 MB model instead of 500 MB), CNN trace, n = 200, 5 seeds.
fig9-short() {
	sweep fig9-short sr-cluster --set n=200 --set scheme=selective-reduce --vary model_mb=500,50,5 \
		--vary bag_eta=0.1,0.8 --trials 5
	table fig9-short "Fig. 9 tested: SR's scale, sync time and idle time against eta with shorter synchronisations" \
		fig9-short.csv --metric avg_sync_scale,avg_sync_time_s,total_sync,total_iteration --vs bag_eta=0.1
}

# Fig. 12's larger groups tested: the estimation error with BPAWR as
# usual (theta = 1) and with it never waiting (theta = 1e6, BAG alone),
# CNN trace, n = 200, 5 seeds.
fig12-bag() {
	sweep fig12-bag sr-cluster --set n=200 --set scheme=selective-reduce --vary theta=1,1e6 \
		--vary bw_error=0,0.5 --trials 5
	table fig12-bag "Fig. 12 tested: error 0.5 against none, with BPAWR (theta 1) and BAG alone (theta 1e6)" \
		fig12-bag.csv --metric avg_sync_scale,avg_sync_time_s,total_sync,total_iteration,bpawr_waits --vs bw_error=0
}

# Layer-wise overlap of the groups' synchronisation with backprop
# (overlap=layer, docs/workers.md; the paper's runs are overlap=none):
# every scheme with and without it, each trace with its model's layer
# table (ResNet-50 for the CNN trace, BERT-base for the Transformer's),
# DDP's 25 MiB buckets, n = 40 and 200, the paper's 500 MB model and a
# 50 MB one, at the paper's latency alpha = 1 ms (each bucket's ring pays
# Eq. 2's 2(|g|-1) alpha) and without latency, 5 seeds (about 15
# CPU-seconds).
overlap() {
	local grid=(--vary n=40,200 --vary model_mb=500,50 --vary alpha_ms=1,0 --vary scheme=$schemes --vary overlap=none,layer --trials 5)
	sweep overlap-cnn sr-cluster --set trace=cnn --set layer_model=resnet50 "${grid[@]}"
	sweep overlap-transformer sr-cluster --set trace=transformer --set layer_model=bert-base "${grid[@]}"
	for tr in cnn transformer; do
		table "overlap-$tr" "Overlap, $tr trace: layer over none, paired" "overlap-$tr.csv" \
			--metric total_iteration,avg_sync_time_s,avg_sync_scale,idle_s --of overlap=layer --changes-only
	done
}

main "$@"
