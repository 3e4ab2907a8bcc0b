#!/usr/bin/env bash
# Time to accuracy under every scheme, 5 seeds per point, as docs/tta.md
# reports it: every table there is one written here. Paired: every scheme
# of a seed draws the same data, initial model and compute times.
#
#   scripts/tta/reproduce.sh [OUTDIR [FIGURE...]]   (figures below; default: all)
#
# dssync: DS-Sync Sec. V against ring, tree and hierarchical all-reduce,
#   ASP (both server steps) and gossip, MLP on MNIST to 0.95.
# sr: selective reduce Eq. 1 as p varies, softmax on MNIST to 0.90.
# crew: CREW Fig. 3, CREW against A2A, MLP on MNIST to 0.95, each of the
#   three scores (eval_model), the table at CREW's (worker-min).
# evalmodel: partial reduce at p = 2 against all reduce, each score
#   (the crew sweep gives CREW's).
# ina: PA-ATP Fig. 11, two jobs at load 0.6 (packet level).
#
# CPU on one core, with the workers' own models evaluated (costs.md has
# each sweep's): dssync about 20 minutes, sr 25, crew 35, evalmodel 15,
# ina about 2 hours. The figures under docs/figures/tta are dssync's
# PNGs. See scripts/lib/reproduce.sh for SYNCSIM, PARALLEL, RESUME and
# EXTRA.
source "$(dirname "$0")/../lib/reproduce.sh"
default_out=tta-repro
figures=(dssync sr crew evalmodel ina)

# tta_tables NAME TITLE REF METRICS RATIOS CSV...: NAME.md holds the
# metrics of every point as median [min-max] over the seeds, then for
# each metric of RATIOS the reference's (REF: k=v, or several separated
# by spaces for a joint baseline) over each other row's, seed by seed.
tta_tables() {
	local name=$1 title=$2 ref=$3 metrics=$4 ratios=$5 r m
	shift 5
	local of=() parts=()
	for r in $ref; do of+=(--of "$r"); done
	table "$name" "$title" "$@" --metric "$metrics"
	for m in ${ratios//,/ }; do
		table "$name-$m" "$title: $m, $ref's over each row's, seed by seed" "$@" --metric "$m" "${of[@]}" --changes-only
		parts+=("$name-$m")
	done
	append_tables "$name" "${parts[@]}"
}

plot() { "$SYNCSIM" plot "$@" --force; }

# DS-Sync Sec. V: the MLP on MNIST to 0.95 under each contention scenario,
# at the present defaults (a bucket per layer overlapping the backward
# pass; ASP's server steps with lr, asp_lr=same); ASP again with lr /
# workers (asp_lr=scaled).
dssync() {
	sweep dssync dssync --vary scenario=static,inter-rack,both --vary scheme=dssync,allreduce,tree-allreduce,hier-allreduce,asp,gossip \
		--set learn_model=mlp --set lr=0.5 --set iterations=500 --trials 5 --series-dir dssync-series
	tta_tables dssync "DS-Sync Sec. V: MLP on MNIST to 0.95" scheme=dssync \
		final_acc,swa_acc,worker_acc_min,iters_to_target,tta_s,iter_time_ms tta_s,iters_to_target dssync.csv
	sweep asp-scaled dssync --vary scenario=static,inter-rack,both --set scheme=asp --set asp_lr=scaled \
		--set learn_model=mlp --set lr=0.5 --set iterations=500 --trials 5
	table asp-scaled "DS-Sync Sec. V: ASP with the server's step at lr / workers" \
		asp-scaled.csv --metric final_acc,iters_to_target,tta_s,iter_time_ms
	local sc
	for sc in static inter-rack both; do
		plot dssync-series --from-series learning --x t_s --bin 10 --y test_acc --series scheme \
			--where scenario=$sc --where scheme=dssync,allreduce,hier-allreduce,gossip --y-range 0.88:0.97 -o dssync_$sc.png
	done
}

# Selective reduce Sec. II-C, Eq. 1: softmax on MNIST to 0.90, n = 40, as
# p varies, scored on the workers' own models (sr-cluster's default,
# worker-mean; the average's and the worst worker's times beside).
sr_common=(--set learn_model=softmax --set model_mb=100 --set duration_s=400 --set lr=0.5 --set eval_every=5 --vary partition=iid,dirichlet --trials 5)
sr() {
	sweep sr-ar sr-cluster --set scheme=allreduce "${sr_common[@]}"
	sweep sr-pr sr-cluster --set scheme=partial-reduce --vary p_frac=0.05,0.1,0.2,0.3,0.5 "${sr_common[@]}"
	sweep sr-sr sr-cluster --set scheme=selective-reduce --vary p_frac=0.1,0.3 "${sr_common[@]}"
	# p_frac has no effect on all reduce, whose rows carry the default
	# 0.3: the joint baseline.
	tta_tables sr "Selective reduce Eq. 1: softmax on MNIST to 0.90, n = 40" "scheme=allreduce p_frac=0.3" \
		final_acc,iters_to_target,tta_s,tta_avg_s,tta_worker_min_s,avg_sync_time_s tta_s,iters_to_target sr-ar.csv sr-pr.csv sr-sr.csv
}

# CREW Fig. 3: rounds to 0.95 (MLP on MNIST), 8 workers, p = 4, IID and
# non-IID, at the chunk pipelining default, scored each of three ways.
crew() {
	sweep crew crew-training --set n=8 --set p=4 --set network=n2 --set duration_s=10000 --set learn_model=mlp --set lr=0.5 \
		--set eval_every=10 --set eval_samples=1000 --vary partition=iid,dirichlet --vary scheme=crew,a2a \
		--vary eval_model=average,worker-mean,worker-min --trials 5
	tta_tables crew "CREW Fig. 3: MLP on MNIST to 0.95, scored on the worst worker (eval_model=worker-min)" scheme=crew \
		final_acc,iters_to_target,tta_s,pr_time_s,rounds_per_worker tta_s,iters_to_target crew.csv --where eval_model=worker-min
	table crew-eval "CREW Fig. 3: time and rounds to 0.95 by score, the average's over each, seed by seed" \
		crew.csv --metric tta_s,iters_to_target --of eval_model=average
}

# What the score does to partial reduce at its smallest groups (p = 2 of
# 40, IID and non-IID) against all reduce: each score as eval_model.
evalmodel() {
	sweep evalmodel-sr sr-cluster --vary scheme=allreduce,partial-reduce --set p_frac=0.05 \
		--vary eval_model=average,worker-mean,worker-min "${sr_common[@]}"
	table evalmodel-sr "Partial reduce at p = 2: time to 0.90 by score, the average's over each, seed by seed" \
		evalmodel-sr.csv --metric tta_s,iters_to_target --of eval_model=average
	table evalmodel-speedup "Partial reduce at p = 2: all reduce's time to 0.90 over partial reduce's, by score, seed by seed" \
		evalmodel-sr.csv --metric tta_s --of scheme=allreduce
}

# PA-ATP Fig. 11: two jobs at load 0.6, time to 90% (MLP on MNIST).
ina() {
	sweep ina ina-testbed --set run_length=quick --set iterations=120 --set load=0.6 --set learn_model=mlp --set lr=0.5 \
		--set target_acc=0.9 --set eval_every=5 --vary protocol=byteps,switchml,atp,strawasyn,pa-atp --trials 5
	tta_tables ina "PA-ATP Fig. 11: two jobs at load 0.6, MLP on MNIST to 0.90" protocol=pa-atp \
		final_acc,iters_to_target,tta_s,tta_max_s,ajct_ms tta_s ina.csv
}

main "$@"
