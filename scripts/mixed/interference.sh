#!/usr/bin/env bash
# INA and partial-reduce tenants on one leaf-spine (docs/selective-reduce.md,
# "Partial reduce on a shared fabric"): how an INA job's completion time
# moves as partial-reduce jobs are added, and how a partial-reduce job's
# synchronisations move as INA jobs are added; without background and with
# Hadoop at fabric-basis load 0.3 after ina-leafspine's 12 ms warm-up; the
# INA jobs' protocol varied; 5 seeds, paired.
#
#   scripts/mixed/interference.sh [OUTDIR [ina pr sr protocol overlap]]
#
# About 2 CPU-minutes (103 CPU-seconds on a 2-core machine). See
# scripts/lib/reproduce.sh for SYNCSIM, PARALLEL, RESUME and EXTRA;
# EXTRA="--set nic=droptail --set dctcp_cwr=grow" runs it with the earlier
# host (a drop-tail NIC, DCTCP growing in CWR).
source "$(dirname "$0")/../lib/reproduce.sh"
default_out=mixed-interference
figures=(ina pr sr protocol overlap)

common=(--set ring_jobs=0 --set workers=4 --set gradient_mb=4 --set pr_workers=4 --set pr_p=2 --set pr_mb=2
	--set pr_compute_ms=0.5 --set iterations=6 --trials 5)

ina() {
	sweep ina-vs-pr mixed-fabric --set ina_jobs=1 --vary pr_jobs=0,1,2 --vary load=0,0.3 --set warmup_ms=12 "${common[@]}"
	table ina-vs-pr "An INA job's completion and iteration (ms) as partial-reduce jobs are added, against none" \
		ina-vs-pr.csv --metric ina_jct_ms,ina_iter_ms --vs pr_jobs=0
}

pr() {
	sweep pr-vs-ina mixed-fabric --set pr_jobs=1 --vary ina_jobs=0,1,2 --vary load=0,0.3 --set warmup_ms=12 "${common[@]}"
	table pr-vs-ina "A partial-reduce job's synchronisation and completion (ms) as INA jobs are added, against none" \
		pr-vs-ina.csv --metric pr_sync_ms,pr_jct_ms --vs ina_jobs=0
}

sr() {
	sweep sr-vs-ina mixed-fabric --set pr_jobs=1 --set pr_scheme=selective-reduce --vary ina_jobs=0,1,2 --vary load=0,0.3 --set warmup_ms=12 "${common[@]}"
	table sr-vs-ina "A selective-reduce job's synchronisation (ms) and scale as INA jobs are added, against none" \
		sr-vs-ina.csv --metric pr_sync_ms,pr_scale --vs ina_jobs=0
}

# BytePS synchronises over DCTCP like the rings.
protocol() {
	sweep pr-vs-protocol mixed-fabric --set pr_jobs=1 --vary ina_jobs=0,2 --vary protocol=pa-atp,byteps,atp --set load=0 "${common[@]}"
	table pr-vs-protocol "A partial-reduce job's synchronisation (ms) beside two INA jobs, by their protocol" \
		pr-vs-protocol.csv --metric pr_sync_ms --vs ina_jobs=0
}

# The partial-reduce tenant with its groups all-reducing bucket by bucket
# during backprop (pr_overlap=layer: ResNet-50's proportions, DDP's
# buckets) against after it, alone and beside two INA jobs, without
# background (docs/workers.md).
overlap() {
	sweep pr-overlap mixed-fabric --set pr_jobs=1 --vary ina_jobs=0,2 --vary pr_scheme=partial-reduce,selective-reduce \
		--vary pr_overlap=none,layer --set load=0 "${common[@]}"
	table pr-overlap "A partial-reduce job's completion and synchronisation (ms), layer over none, paired" \
		pr-overlap.csv --metric pr_jct_ms,pr_sync_ms,pr_scale --of pr_overlap=layer --changes-only
}

main "$@"
