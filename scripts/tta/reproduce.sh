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
# crew: CREW Fig. 3, CREW against A2A, MLP on MNIST to 0.95.
# ina: PA-ATP Fig. 11, two jobs at load 0.6 (packet level).
# dssync, sr and crew also write each score's time against the average's, run by
# run (views.awk): what eval_model changes.
# The headline claims on SEEDS seeds (default 10), each ratio counted
# seed by seed (on how many it lies below 1):
# dssync-seeds: DS-Sync against ring and tree all-reduce, both contentions, MLP.
# sr-seeds: partial reduce at p = 2 and 0.5n against all reduce, Dirichlet, softmax.
# crew-seeds: CREW against A2A, IID, MLP.
# dssync-cnn: DS-Sync against ring all-reduce, both contentions, the CNN to 0.97.
# sr-cnn: partial reduce at p = 2 against all reduce, Dirichlet, the CNN to 0.95, n = 8.
# dssync-cnn-more: DS-Sync against tree and hierarchical all-reduce, gossip
#   and ASP, both contentions, the CNN to 0.97.
# crew-cnn: CREW against A2A, IID, the CNN to 0.95.
# dssync-cnn-asp: ASP with its parameter server without momentum, both
#   contentions, the CNN to 0.97, beside dssync-cnn-more's DS-Sync and ASP.
# crew-groups: which workers meet in crew-cnn's partial reduces (its
#   schedule without the learning, CREW and A2A).
# sr-cnn-p: partial reduce at p = 0.5n and selective reduce at p = 2 and
#   0.5n, the CNN with label skew, beside sr-cnn's rows (run sr-cnn first).
# sr-cnn-iid: all reduce, partial and selective reduce at p = 2 and 0.5n,
#   the CNN, IID: sr-cnn and sr-cnn-p's counterpart without skew.
# ina-cnn: PA-ATP Fig. 11 with the CNN to 0.97, the ina figure's network.
# crew-seeds-skew, sr-seeds-iid, sr-seeds-p, dssync-seeds-scen, ina-seeds:
#   the five-seed panels of crew (skew), sr (IID; skew at 0.1n-0.3n and
#   selective reduce), dssync (static, inter-rack; hierarchical, gossip and
#   ASP under both) and ina on SEEDS seeds (seeds 1-5 their rows again).
# crew-cnn-skew: crew-cnn under Dirichlet(0.5) label skew.
# dssync-cnn-scen: DS-Sync against ring, tree and hierarchical all-reduce,
#   gossip and ASP (its server without momentum), static and inter-rack
#   contention, the CNN to 0.97.
#
# CPU, with the workers' own models evaluated (costs.md has each
# sweep's): dssync 18 minutes, sr 20, crew 18, ina 12; at SEEDS=10
# dssync-seeds 7.3 (437 s), sr-seeds 6.4 (386 s), crew-seeds 7.2 (432 s),
# dssync-cnn 10.6 (634 s), sr-cnn 11.7 (700 s), dssync-cnn-more 32.2
# (1930 s), crew-cnn 18.1 (1088 s), dssync-cnn-asp 9.2 (552 s; its tables
# read dssync-cnn-more's CSVs, so run that first), crew-groups 0.3 (18.3 s),
# dssync-cnn-scen 67.0 (4020 s: 2969 s for 100 runs, 1051 s for ASP's 20),
# sr-cnn-p 16.0 (959 s for 30 runs), sr-cnn-iid 27.3 (1636 s for 50 runs),
# ina-cnn 75.0 (4501 s for 50 runs),
# crew-seeds-skew 7.9 (475 s), sr-seeds-iid 20.0 (1201 s), sr-seeds-p 14.1
# (846 s; its tables read sr-seeds' CSVs, so run that first),
# dssync-seeds-scen 22.6 (1354 s), crew-cnn-skew 25.7 (1542 s).
# scripts/tta/results keeps the last nineteen's CSVs, costs and tables (not
# crew-groups' series; OUTDIR scripts/tta/results):
# RESUME=1 with that OUTDIR writes their tables again without a sweep.
# The figures under docs/figures/tta are dssync's PNGs. See
# scripts/lib/reproduce.sh for SYNCSIM, PARALLEL, RESUME and EXTRA.
source "$(dirname "$0")/../lib/reproduce.sh"
default_out=tta-repro
figures=(dssync sr crew ina dssync-cnn sr-cnn dssync-seeds sr-seeds crew-seeds dssync-cnn-more crew-cnn dssync-cnn-asp crew-groups dssync-cnn-scen sr-cnn-p sr-cnn-iid ina-cnn crew-seeds-skew sr-seeds-iid sr-seeds-p dssync-seeds-scen ina-seeds crew-cnn-skew)

# SEEDS: the seeds of the headline comparisons (default 10). Iterations to
# the target spread more than 20% across seeds (DS-Sync's 210-390 with the
# MLP), which 5 seeds cannot separate from a 5-25% effect, so the claims
# the papers rest on get SEEDS paired seeds, 1 to SEEDS, and every ratio
# says on how many of them it lies below 1 (summarise --count-below 1).
seeds=${SEEDS:-10}
[[ $seeds =~ ^[0-9]+$ && $seeds -ge 5 ]] || die "SEEDS=$seeds: want a whole number of seeds, 5 or more"

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

# views NAME TITLE KEYS DEN NUMS CSV...: NAME.md holds each metric of NUMS
# over DEN, run by run, as median [min-max] over the seeds of every point
# of the parameters KEYS (views.awk); with below=V set (below=1 views ...)
# each cell also says on how many runs the ratio lies below V.
views() {
	local name=$1 title=$2 keys=$3 den=$4 nums=$5 count=
	shift 5
	[[ -n ${below:-} ]] && count=" -v below=$below"
	{
		printf '### %s\n\n`awk -v keys=%s -v den=%s -v nums=%s%s -f scripts/tta/views.awk %s`\n\n' "$title" "$keys" "$den" "$nums" "$count" "$*"
		awk -v keys="$keys" -v den="$den" -v nums="$nums" -v below="${below:-}" -f "$repo/scripts/tta/views.awk" "$@"
	} >"$name.md"
	say "$name.md: $title"
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
	views dssync-views "DS-Sync Sec. V: the workers' scores' time to 0.95 over the average's, run by run" \
		scenario,scheme tta_avg_s tta_worker_mean_s,tta_worker_min_s dssync.csv
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
# worker-mean), the average's and the worst worker's times beside and in
# the speed-ups over all reduce.
sr_common=(--set learn_model=softmax --set model_mb=100 --set duration_s=400 --set lr=0.5 --set eval_every=5 --vary partition=iid,dirichlet --trials 5)
sr() {
	sweep sr-ar sr-cluster --set scheme=allreduce "${sr_common[@]}"
	sweep sr-pr sr-cluster --set scheme=partial-reduce --vary p_frac=0.05,0.1,0.2,0.3,0.5 "${sr_common[@]}"
	sweep sr-sr sr-cluster --set scheme=selective-reduce --vary p_frac=0.1,0.3 "${sr_common[@]}"
	# p_frac has no effect on all reduce, whose rows carry the default
	# 0.3: the joint baseline.
	tta_tables sr "Selective reduce Eq. 1: softmax on MNIST to 0.90, n = 40" "scheme=allreduce p_frac=0.3" \
		final_acc,avg_acc,iters_to_target,tta_s,tta_avg_s,tta_worker_min_s,avg_sync_time_s \
		tta_s,tta_avg_s,tta_worker_min_s,iters_to_target sr-ar.csv sr-pr.csv sr-sr.csv
	views sr-views "Selective reduce Eq. 1: each score's time to 0.90 over the average's, run by run" \
		partition,scheme,p_frac tta_avg_s tta_worker_mean_s,tta_worker_min_s sr-ar.csv sr-pr.csv sr-sr.csv
}

# CREW Fig. 3: rounds to 0.95 (MLP on MNIST), 8 workers, p = 4, IID and
# non-IID, at the chunk pipelining default, scored on the worst worker
# (crew-training's default, worker-min), the average's and the workers'
# mean beside.
crew() {
	sweep crew crew-training --set n=8 --set p=4 --set network=n2 --set duration_s=20000 --set learn_model=mlp --set lr=0.5 \
		--set eval_every=10 --set eval_samples=1000 --vary partition=iid,dirichlet --vary scheme=crew,a2a --trials 5
	tta_tables crew "CREW Fig. 3: MLP on MNIST to 0.95" scheme=crew \
		final_acc,avg_acc,iters_to_target,tta_s,tta_avg_s,tta_worker_mean_s,pr_time_s,rounds_per_worker \
		tta_s,tta_avg_s,iters_to_target crew.csv
	views crew-views "CREW Fig. 3: each score's time to 0.95 over the average's, run by run" \
		partition,scheme tta_avg_s tta_worker_mean_s,tta_worker_min_s crew.csv
}

# seeded NAME SWEEP-FLAGS...: the sweep on SEEDS seeds in two files, seeds
# 1-5 in NAME-1.csv and 6 to SEEDS in NAME-6.csv (summarise reads them as
# one), so that an interrupted run still leaves five paired seeds of every
# point: a sweep runs its points one after another.
seeded() {
	local name=$1
	shift
	sweep "$name-1" "$@" --trials 5
	if ((seeds > 5)); then
		sweep "$name-6" "$@" --seed 6 --trials $((seeds - 5))
	fi
}

# seed_files NAME: the CSVs seeded NAME wrote.
seed_files() {
	local f
	for f in "$1-1.csv" "$1-6.csv"; do
		[[ -e $f ]] && printf '%s\n' "$f"
	done
	return 0
}

# counted_tables NAME TITLE REF METRICS RATIOS CSV...: as tta_tables, each
# ratio also counting on how many seeds it lies below 1.
counted_tables() {
	local name=$1 title=$2 ref=$3 metrics=$4 ratios=$5 r m
	shift 5
	local of=() parts=()
	for r in $ref; do of+=(--of "$r"); done
	table "$name" "$title" "$@" --metric "$metrics"
	for m in ${ratios//,/ }; do
		table "$name-$m" "$title: $m, $ref's over each row's, seed by seed" "$@" --metric "$m" "${of[@]}" --changes-only --count-below 1
		parts+=("$name-$m")
	done
	append_tables "$name" "${parts[@]}"
}

# DS-Sync Sec. V's headline on SEEDS seeds with the MLP: DS-Sync against
# ring and tree all-reduce under both contentions (the dssync figure's
# settings; its seeds 1-5 are these rows again, to the byte).
dssync-seeds() {
	seeded dssync-seeds dssync --set scenario=both --vary scheme=dssync,allreduce,tree-allreduce \
		--set learn_model=mlp --set lr=0.5 --set iterations=500
	counted_tables dssync-seeds "DS-Sync Sec. V: MLP on MNIST to 0.95, both contentions, $seeds seeds" scheme=dssync \
		final_acc,swa_acc,iters_to_target,tta_s,tta_worker_mean_s tta_s,iters_to_target,tta_worker_mean_s,final_acc $(seed_files dssync-seeds)
	swa_views dssync-seeds
}

# swa_views NAME: NAME-swa.md, the SWA ensemble's accuracy over the final
# model's, run by run (DS-Sync Sec. V: "slightly higher accuracy").
swa_views() {
	below=1 views "$1-swa" "$1: the SWA ensemble's accuracy over the final model's, run by run" scheme final_acc swa_acc $(seed_files "$1")
}

# Selective reduce Eq. 1's headline on SEEDS seeds with softmax: partial
# reduce at p = 2 and 0.5n against all reduce under Dirichlet(0.5) skew
# (the sr figure's settings; its seeds 1-5 are these rows again).
sr-seeds() {
	local common=(--set learn_model=softmax --set model_mb=100 --set duration_s=400 --set lr=0.5 --set eval_every=5 --set partition=dirichlet)
	seeded sr-seeds-ar sr-cluster --set scheme=allreduce "${common[@]}"
	seeded sr-seeds-pr sr-cluster --set scheme=partial-reduce --vary p_frac=0.05,0.5 "${common[@]}"
	counted_tables sr-seeds "Selective reduce Eq. 1: softmax on MNIST to 0.90, n = 40, Dirichlet(0.5), $seeds seeds" "scheme=allreduce p_frac=0.3" \
		iters_to_target,tta_s,tta_avg_s,avg_sync_time_s tta_s,tta_avg_s,iters_to_target $(seed_files sr-seeds-ar) $(seed_files sr-seeds-pr)
}

# CREW against A2A on SEEDS seeds (IID, MLP to 0.95 on the worst worker):
# CREW over 8,000 s and A2A over 20,000 s, each past the target on every
# seed of the crew figure; an evaluation every 20 rounds.
crew-seeds() {
	local common=(--set n=8 --set p=4 --set network=n2 --set learn_model=mlp --set lr=0.5 --set eval_every=20 --set eval_samples=1000)
	seeded crew-seeds-crew crew-training --set scheme=crew --set duration_s=8000 "${common[@]}"
	seeded crew-seeds-a2a crew-training --set scheme=a2a --set duration_s=20000 "${common[@]}"
	counted_tables crew-seeds "CREW Fig. 3: CREW against A2A, MLP on MNIST to 0.95, IID, $seeds seeds" scheme=crew \
		final_acc,iters_to_target,tta_s,tta_avg_s,pr_time_s tta_s,tta_avg_s,iters_to_target $(seed_files crew-seeds-crew) $(seed_files crew-seeds-a2a)
}

# The five-seed panels of the dssync, sr and crew figures on SEEDS seeds
# (each figure's settings; their seeds 1-5 are the five-seed rows again).
# dssync-seeds-scen: DS-Sync against every other scheme under static and
# inter-rack contention, and against hierarchical all-reduce, gossip and
# ASP under both, the MLP to 0.95 (both's ring and tree are dssync-seeds').
dssync-seeds-scen() {
	local common=(--set learn_model=mlp --set lr=0.5 --set iterations=500)
	seeded dssync-seeds-scen dssync --vary scenario=static,inter-rack --vary scheme=dssync,allreduce,tree-allreduce,hier-allreduce,asp,gossip "${common[@]}"
	seeded dssync-seeds-both dssync --set scenario=both --vary scheme=dssync,hier-allreduce,asp,gossip "${common[@]}"
	counted_tables dssync-seeds-scen "DS-Sync Sec. V: MLP on MNIST to 0.95, every scenario, $seeds seeds" scheme=dssync \
		final_acc,swa_acc,worker_acc_min,iters_to_target,tta_s,iter_time_ms tta_s,iters_to_target,final_acc \
		$(seed_files dssync-seeds-scen) $(seed_files dssync-seeds-both)
}

# sel_table NAME DATA CSV...: appends to NAME.md selective reduce's
# time, synchronisation and iterations over partial reduce's at the same p
# (0.1n and 0.3n), seed by seed, from the partial and selective reduce
# CSVs given.
sel_table() {
	local name=$1 data=$2
	shift 2
	table "$name-sel" "Selective reduce against partial reduce at the same p, $data, $seeds seeds" "$@" --where p_frac=0.1,0.3 \
		--metric tta_s,avg_sync_time_s,iters_to_target --of scheme=selective-reduce --changes-only --count-below 1
	append_tables "$name" "$name-sel"
}

# sr-seeds-iid: Eq. 1 as p varies with softmax, IID, the sr figure's
# points (partial reduce at p = 0.05n-0.5n, selective reduce at 0.1n and
# 0.3n, all reduce) on SEEDS seeds.
sr-seeds-iid() {
	local common=(--set learn_model=softmax --set model_mb=100 --set duration_s=400 --set lr=0.5 --set eval_every=5 --set partition=iid)
	seeded sr-seeds-iid-ar sr-cluster --set scheme=allreduce "${common[@]}"
	seeded sr-seeds-iid-pr sr-cluster --set scheme=partial-reduce --vary p_frac=0.05,0.1,0.2,0.3,0.5 "${common[@]}"
	seeded sr-seeds-iid-sr sr-cluster --set scheme=selective-reduce --vary p_frac=0.1,0.3 "${common[@]}"
	counted_tables sr-seeds-iid "Selective reduce Eq. 1: softmax on MNIST to 0.90, n = 40, IID, $seeds seeds" "scheme=allreduce p_frac=0.3" \
		iters_to_target,tta_s,tta_avg_s,avg_sync_time_s tta_s,tta_avg_s,iters_to_target \
		$(seed_files sr-seeds-iid-ar) $(seed_files sr-seeds-iid-pr) $(seed_files sr-seeds-iid-sr)
	sel_table sr-seeds-iid IID $(seed_files sr-seeds-iid-pr) $(seed_files sr-seeds-iid-sr)
}

# sr-seeds-p: the same with Dirichlet(0.5) label skew at the points
# sr-seeds leaves out (partial reduce at 0.1n-0.3n, selective reduce),
# set against sr-seeds' all reduce and partial reduce seed by seed: run
# sr-seeds first (its kept CSVs, of a build before topology_file, read
# with --missing topology_file=).
sr-seeds-p() {
	local common=(--set learn_model=softmax --set model_mb=100 --set duration_s=400 --set lr=0.5 --set eval_every=5 --set partition=dirichlet)
	seeded sr-seeds-p-pr sr-cluster --set scheme=partial-reduce --vary p_frac=0.1,0.2,0.3 "${common[@]}"
	seeded sr-seeds-p-sr sr-cluster --set scheme=selective-reduce --vary p_frac=0.1,0.3 "${common[@]}"
	[[ -e sr-seeds-ar-1.csv ]] || die "sr-seeds-p compares with sr-seeds' CSVs: run sr-seeds first"
	counted_tables sr-seeds-p "Selective reduce Eq. 1 as p varies: softmax on MNIST to 0.90, n = 40, Dirichlet(0.5), $seeds seeds" "scheme=allreduce p_frac=0.3" \
		iters_to_target,tta_s,tta_avg_s,avg_sync_time_s tta_s,tta_avg_s,iters_to_target \
		$(seed_files sr-seeds-ar) $(seed_files sr-seeds-pr) $(seed_files sr-seeds-p-pr) $(seed_files sr-seeds-p-sr) --missing topology_file=
	sel_table sr-seeds-p "Dirichlet(0.5)" $(seed_files sr-seeds-p-pr) $(seed_files sr-seeds-p-sr)
}

# crew-seeds-skew: crew-seeds under Dirichlet(0.5) label skew, A2A over
# 30,000 s (about 2,000 rounds): over 20,000 s its worst worker was short
# of 0.95 on 2 of 10 seeds, where CREW needed up to 1,660 rounds.
crew-seeds-skew() {
	local common=(--set n=8 --set p=4 --set network=n2 --set learn_model=mlp --set lr=0.5 --set eval_every=20 --set eval_samples=1000 --set partition=dirichlet)
	seeded crew-seeds-skew-crew crew-training --set scheme=crew --set duration_s=8000 "${common[@]}"
	seeded crew-seeds-skew-a2a crew-training --set scheme=a2a --set duration_s=30000 "${common[@]}"
	counted_tables crew-seeds-skew "CREW Fig. 3: CREW against A2A, MLP on MNIST to 0.95, Dirichlet(0.5), $seeds seeds" scheme=crew \
		final_acc,iters_to_target,tta_s,tta_avg_s,pr_time_s tta_s,tta_avg_s,iters_to_target $(seed_files crew-seeds-skew-crew) $(seed_files crew-seeds-skew-a2a)
}

# ina-seeds: PA-ATP Fig. 11 (the ina figure) on SEEDS seeds.
ina-seeds() {
	seeded ina-seeds ina-testbed --set run_length=quick --set iterations=120 --set load=0.6 --set learn_model=mlp --set lr=0.5 \
		--set target_acc=0.9 --set eval_every=5 --vary protocol=byteps,switchml,atp,strawasyn,pa-atp
	counted_tables ina-seeds "PA-ATP Fig. 11: two jobs at load 0.6, MLP on MNIST to 0.90, $seeds seeds" protocol=pa-atp \
		final_acc,iters_to_target,tta_s,tta_max_s,ajct_ms tta_s,tta_max_s,iters_to_target $(seed_files ina-seeds)
}

# The CNN (LeNet-5-like, momentum 0.9, lr 0.05, batch 32 per worker) on
# MNIST to 0.97, evaluated on 1000 test rows every 10 iterations: 0.98
# costs 90 CPU-s a DS-Sync trial with the workers' models scored, and the
# schemes separate by 0.97 (docs/tta.md, "What the CNN costs").
cnn=(--set learn_model=cnn --set lr=0.05 --set momentum=0.9 --set eval_samples=1000)

# DS-Sync Sec. V with the CNN under both contentions (Table III's
# scenario): DS-Sync against ring all-reduce on SEEDS seeds.
dssync-cnn() {
	seeded dssync-cnn dssync --set scenario=both --vary scheme=dssync,allreduce "${cnn[@]}" --set target_acc=0.97 --set iterations=220
	counted_tables dssync-cnn "DS-Sync Sec. V: CNN on MNIST to 0.97, both contentions" scheme=dssync \
		final_acc,swa_acc,worker_acc_min,iters_to_target,tta_s,tta_worker_mean_s,iter_time_ms tta_s,iters_to_target,tta_worker_mean_s,final_acc $(seed_files dssync-cnn)
	swa_views dssync-cnn
}

# DS-Sync Sec. V's other comparisons with the CNN, dssync-cnn's settings:
# DS-Sync against tree and hierarchical all-reduce, gossip and ASP (its
# server stepping with lr, asp_lr=same: "the same hyper-parameters") on
# SEEDS seeds. DS-Sync's rows are run again, not read from dssync-cnn's
# CSVs: summarise reads files of one set of columns, and the build that
# wrote those lacked four parameter columns added since (topology, k,
# hosts_per_edge, topology_file); every other column of its rows is
# these rows' again (docs/tta.md).
dssync-cnn-more() {
	seeded dssync-cnn-more dssync --set scenario=both --vary scheme=dssync,tree-allreduce,hier-allreduce,gossip,asp "${cnn[@]}" \
		--set target_acc=0.97 --set iterations=220
	counted_tables dssync-cnn-more "DS-Sync Sec. V: CNN on MNIST to 0.97, both contentions, against tree and hierarchical all-reduce, gossip and ASP" scheme=dssync \
		final_acc,swa_acc,worker_acc_min,iters_to_target,tta_s,tta_worker_mean_s,iter_time_ms tta_s,iters_to_target,tta_worker_mean_s,final_acc $(seed_files dssync-cnn-more)
	swa_views dssync-cnn-more
}

# ASP with the CNN as dssync-cnn-more runs it, but its parameter server
# without momentum (momentum=0: under ASP the workers push gradients and
# take no step, so momentum is the server's alone), at the workers' lr
# (asp_lr=same), on SEEDS seeds, set beside dssync-cnn-more's DS-Sync and
# ASP rows. Asynchrony brings an implicit momentum of about 1 - 1/M with
# M workers (Mitliagkas et al. 2016, "Asynchrony begets momentum, with an
# application to deep learning"), 0.875 here, so the explicit momentum
# that keeps the total near the workers' 0.9 is about none; with the
# server's momentum at 0.9 ASP ends at chance (docs/tta.md). The tables
# read dssync-cnn-more's CSVs in OUTDIR: run that figure first.
dssync-cnn-asp() {
	seeded dssync-cnn-asp dssync --set scenario=both --set scheme=asp --set asp_lr=same --set learn_model=cnn --set lr=0.05 \
		--set momentum=0 --set eval_samples=1000 --set target_acc=0.97 --set iterations=220
	counted_tables dssync-cnn-asp "DS-Sync Sec. V: CNN on MNIST to 0.97, both contentions, DS-Sync against ASP with and without the server's momentum" \
		"scheme=dssync momentum=0.9" final_acc,worker_acc_min,iters_to_target,tta_s,tta_worker_mean_s,iter_time_ms \
		tta_s,iters_to_target,final_acc --where scheme=dssync,asp $(seed_files dssync-cnn-more) $(seed_files dssync-cnn-asp)
}

# DS-Sync Sec. V-A5's other two scenarios with the CNN (static: no
# competing task, the racks' oversubscribed uplinks only; inter-rack: the
# background task's flows share the inter-rack links, no worker's NIC;
# Table IV), dssync-cnn-more's settings: DS-Sync against ring, tree and
# hierarchical all-reduce and gossip on SEEDS seeds, and ASP as
# dssync-cnn-asp runs it (its server at the workers' lr without momentum)
# in a second sweep, since momentum is the workers' optimiser's under
# every other scheme; the tables read both.
dssync-cnn-scen() {
	seeded dssync-cnn-scen dssync --vary scenario=static,inter-rack --vary scheme=dssync,allreduce,tree-allreduce,hier-allreduce,gossip \
		"${cnn[@]}" --set target_acc=0.97 --set iterations=220
	seeded dssync-cnn-scen-asp dssync --vary scenario=static,inter-rack --set scheme=asp --set asp_lr=same --set learn_model=cnn --set lr=0.05 \
		--set momentum=0 --set eval_samples=1000 --set target_acc=0.97 --set iterations=220
	counted_tables dssync-cnn-scen "DS-Sync Sec. V: CNN on MNIST to 0.97, static and inter-rack contention, against ring, tree and hierarchical all-reduce, gossip and ASP (its server without momentum)" \
		"scheme=dssync momentum=0.9" final_acc,swa_acc,worker_acc_min,iters_to_target,tta_s,tta_worker_mean_s,iter_time_ms \
		tta_s,iters_to_target,tta_worker_mean_s,final_acc $(seed_files dssync-cnn-scen) $(seed_files dssync-cnn-scen-asp)
}

# Selective reduce Eq. 1 with the CNN: partial reduce at p = 2 against all
# reduce under Dirichlet(0.5) label skew, scored on the workers' own models
# (sr-cluster's default, worker-mean), on SEEDS seeds. 8 workers, not 40,
# and 0.95 over 120 s, not 0.97: at n = 40 partial reduce at p = 2 runs 90
# CNN steps per simulated second and scores 41 models per evaluation.
sr-cnn() {
	seeded sr-cnn sr-cluster --set n=8 --set p_frac=0.25 --vary scheme=allreduce,partial-reduce --set partition=dirichlet \
		--set model_mb=100 --set duration_s=120 --set eval_every=10 "${cnn[@]}" --set target_acc=0.95
	counted_tables sr-cnn "Selective reduce Eq. 1: CNN on MNIST to 0.95, n = 8, p = 2, Dirichlet(0.5)" scheme=allreduce \
		final_acc,avg_acc,worker_acc_min,iters_to_target,tta_s,tta_avg_s,tta_worker_min_s,avg_sync_time_s tta_s,tta_avg_s,iters_to_target $(seed_files sr-cnn)
}

# Eq. 1's trade-off as p varies with the CNN: partial reduce at p = 0.5n
# and selective reduce at p = 2 and 0.5n, sr-cnn's settings otherwise, on
# SEEDS seeds, set against sr-cnn's all reduce (and its partial reduce at
# p = 2) seed by seed. The tables read sr-cnn's CSVs: run that first (CSVs
# of a build before topology_file existed, as the kept ones, read with
# --missing topology_file=, the empty value their runs had; a no-op on
# newer ones).
sr-cnn-p() {
	local common=(--set n=8 --set partition=dirichlet --set model_mb=100 --set duration_s=120 --set eval_every=10 "${cnn[@]}" --set target_acc=0.95)
	seeded sr-cnn-p-pr sr-cluster --set scheme=partial-reduce --set p_frac=0.5 "${common[@]}"
	seeded sr-cnn-p-sr sr-cluster --set scheme=selective-reduce --vary p_frac=0.25,0.5 "${common[@]}"
	[[ -e sr-cnn-1.csv ]] || die "sr-cnn-p compares with sr-cnn's CSVs: run sr-cnn first"
	counted_tables sr-cnn-p "Selective reduce Eq. 1 as p varies: CNN on MNIST to 0.95, n = 8, Dirichlet(0.5), $seeds seeds" "scheme=allreduce p_frac=0.25" \
		final_acc,avg_acc,worker_acc_min,iters_to_target,tta_s,tta_avg_s,avg_sync_time_s tta_s,tta_avg_s,iters_to_target \
		$(seed_files sr-cnn) $(seed_files sr-cnn-p-pr) $(seed_files sr-cnn-p-sr) --missing topology_file=
}

# Eq. 1's trade-off as p varies with the CNN, IID: all reduce, partial and
# selective reduce at p = 2 and 0.5n (p_frac 0.25 and 0.5), sr-cnn's
# settings otherwise, on SEEDS seeds, all reduce (its rows carry p_frac
# 0.25, which it ignores) the reference seed by seed; then each scheme's
# p = 0.5n over its p = 2, partial reduce over selective reduce at each
# p, and the schedule (rounds, group sizes, time in the ready queue). The
# network does not depend on the data: every run's synchronisations are
# those of the same seed and point of sr-cnn and sr-cnn-p (Dirichlet),
# to the digit.
sr-cnn-iid() {
	local common=(--set n=8 --set partition=iid --set model_mb=100 --set duration_s=120 --set eval_every=10 "${cnn[@]}" --set target_acc=0.95)
	seeded sr-cnn-iid-ar sr-cluster --set scheme=allreduce --set p_frac=0.25 "${common[@]}"
	seeded sr-cnn-iid-p sr-cluster --vary scheme=partial-reduce,selective-reduce --vary p_frac=0.25,0.5 "${common[@]}"
	counted_tables sr-cnn-iid "Selective reduce Eq. 1 as p varies: CNN on MNIST to 0.95, n = 8, IID, $seeds seeds" "scheme=allreduce p_frac=0.25" \
		final_acc,avg_acc,worker_acc_min,iters_to_target,tta_s,tta_avg_s,avg_sync_time_s tta_s,tta_avg_s,iters_to_target \
		$(seed_files sr-cnn-iid-ar) $(seed_files sr-cnn-iid-p)
	table sr-cnn-iid-pp "Selective reduce Eq. 1 as p varies: CNN on MNIST to 0.95, n = 8, IID, $seeds seeds: p = 0.5n's over p = 2's, seed by seed" \
		$(seed_files sr-cnn-iid-p) --metric iters_to_target,tta_s --of p_frac=0.5 --changes-only --count-below 1
	table sr-cnn-iid-sp "Selective reduce Eq. 1 as p varies: CNN on MNIST to 0.95, n = 8, IID, $seeds seeds: partial reduce's over selective reduce's, seed by seed" \
		$(seed_files sr-cnn-iid-p) --metric tta_s,iters_to_target --of scheme=partial-reduce --changes-only --count-below 1
	table sr-cnn-iid-sched "Selective reduce Eq. 1 as p varies: CNN on MNIST to 0.95, n = 8, IID, $seeds seeds: the schedule" \
		$(seed_files sr-cnn-iid-ar) $(seed_files sr-cnn-iid-p) --metric total_iteration,avg_sync_scale,idle_s,bpawr_waits
	append_tables sr-cnn-iid sr-cnn-iid-pp sr-cnn-iid-sp sr-cnn-iid-sched
}

# CREW Fig. 3 with the CNN: CREW against A2A on SEEDS seeds (IID, to 0.95
# on the worst worker, Fig. 3's target), an evaluation every 20 rounds.
# CREW over 1,300 s and A2A over 5,000 s, about 340 rounds per worker
# each: on seed 1 the worst worker reached 0.95 after 140 rounds under
# CREW and 160 under A2A.
crew-cnn() { crew_cnn_panel crew-cnn IID 1300 5000; }

# crew-cnn-skew: crew-cnn under Dirichlet(0.5) label skew, CREW over
# 2,000 s and A2A over 7,500 s (about 520 rounds each, half as many again
# as crew-cnn's: skew cost the MLP 1.4-1.7 times the rounds).
crew-cnn-skew() { crew_cnn_panel crew-cnn-skew "Dirichlet(0.5)" 2000 7500 --set partition=dirichlet; }

# crew_cnn_panel NAME DATA CREW_S A2A_S [SETS...]: CREW over CREW_S and
# A2A over A2A_S seconds with the CNN to 0.95 on SEEDS seeds, SETS added
# to both, and their counted tables (DATA names the partition).
crew_cnn_panel() {
	local name=$1 data=$2 crew_s=$3 a2a_s=$4
	shift 4
	local common=(--set n=8 --set p=4 --set network=n2 --set eval_every=20 "${cnn[@]}" --set target_acc=0.95 "$@")
	seeded "$name-crew" crew-training --set scheme=crew --set duration_s="$crew_s" "${common[@]}"
	seeded "$name-a2a" crew-training --set scheme=a2a --set duration_s="$a2a_s" "${common[@]}"
	counted_tables "$name" "CREW Fig. 3: CREW against A2A, CNN on MNIST to 0.95, $data, $seeds seeds" scheme=crew \
		final_acc,avg_acc,iters_to_target,tta_s,tta_avg_s,tta_worker_mean_s,pr_time_s,rounds_per_worker tta_s,tta_avg_s,iters_to_target \
		$(seed_files "$name-crew") $(seed_files "$name-a2a")
}

# crew-groups: which workers meet in crew-cnn's partial reduces, CREW and
# A2A on SEEDS seeds without the learning (the schedule does not depend on
# it: the same rounds, partial reduces and times as crew-cnn's rows), each
# run's groups series kept: group_pairs_frac and distinct_groups per
# scheme, and per run when the same sets began to form (groups.awk).
crew-groups() {
	local common=(--set n=8 --set p=4 --set network=n2 --trials "$seeds")
	sweep crew-groups-crew crew-training --set scheme=crew --set duration_s=1300 "${common[@]}" --series-dir crew-groups-crew
	sweep crew-groups-a2a crew-training --set scheme=a2a --set duration_s=5000 "${common[@]}" --series-dir crew-groups-a2a
	table crew-groups "Which workers meet: crew-cnn's schedule, $seeds seeds" crew-groups-crew.csv crew-groups-a2a.csv \
		--metric group_pairs_frac,distinct_groups,rounds_per_worker,pr_time_s
	local scheme f files
	for scheme in crew a2a; do
		files=()
		for ((f = 0; f < seeds; f++)); do # in trial order
			[[ -e crew-groups-$scheme/crew-training_0_${f}_groups.csv ]] && files+=("crew-groups-$scheme/crew-training_0_${f}_groups.csv")
		done
		((${#files[@]})) || { say "crew-groups: no groups series in crew-groups-$scheme"; continue; }
		{
			printf '\n### %s: when the same sets began to form, trial k is seed k + 1\n\n`awk -f groups.awk crew-groups-%s/*_groups.csv`\n\n' "$scheme" "$scheme"
			awk -f "$repo/scripts/tta/groups.awk" "${files[@]}"
		} >>crew-groups.md
	done
}

# PA-ATP Fig. 11: two jobs at load 0.6, time to 90% (MLP on MNIST).
ina() {
	sweep ina ina-testbed --set run_length=quick --set iterations=120 --set load=0.6 --set learn_model=mlp --set lr=0.5 \
		--set target_acc=0.9 --set eval_every=5 --vary protocol=byteps,switchml,atp,strawasyn,pa-atp --trials 5
	tta_tables ina "PA-ATP Fig. 11: two jobs at load 0.6, MLP on MNIST to 0.90" protocol=pa-atp \
		final_acc,iters_to_target,tta_s,tta_max_s,ajct_ms tta_s ina.csv
}

# PA-ATP Fig. 11 with the CNN: the ina figure's two jobs at load 0.6 (the
# quick run length), the CNN to 0.97 on SEEDS seeds, PA-ATP the
# reference; with the tables of tta_s those of ajct_ms and of the
# iterations to the target, seed by seed, and the later job's time to
# the target over the two jobs' mean and the slower job's mean iteration
# over the two jobs' mean (ajct_ms), run by run. 300 iterations, an
# evaluation every 10: on seed 1 the two jobs first reach 0.97 after 130
# and 200 iterations and 0.98 after 220 and 320, near the top of the
# curve (0.98 and 0.99 after 600). A run of 300 costs 88 CPU-s on
# average, mostly the packet level: about 64 under BytePS to 101 under
# PA-ATP (seed 1 at 120 iterations: 26.5, 30.8, 36.7, 40.9 and 41.9 for
# BytePS, SwitchML, ATP, StrawAsyn and PA-ATP).
ina-cnn() {
	seeded ina-cnn ina-testbed --set run_length=quick --set iterations=300 --set load=0.6 "${cnn[@]}" --set target_acc=0.97 \
		--set eval_every=10 --vary protocol=byteps,switchml,atp,strawasyn,pa-atp
	counted_tables ina-cnn "PA-ATP Fig. 11: two jobs at load 0.6, CNN on MNIST to 0.97, $seeds seeds" protocol=pa-atp \
		final_acc,iters_to_target,tta_s,tta_max_s,ajct_ms tta_s,tta_max_s,ajct_ms,iters_to_target $(seed_files ina-cnn)
	views ina-cnn-views "PA-ATP Fig. 11 with the CNN: the later job's time to 0.97 over the two jobs' mean, run by run" \
		protocol tta_s tta_max_s $(seed_files ina-cnn)
	views ina-cnn-jobs "PA-ATP Fig. 11 with the CNN: the slower job's mean iteration over the two jobs' mean, run by run" \
		protocol ajct_ms jct_max_ms $(seed_files ina-cnn)
	append_tables ina-cnn-views ina-cnn-jobs
}

main "$@"
