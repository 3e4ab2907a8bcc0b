#!/usr/bin/env bash
# Selective reduce's straggler claims rerun with heterogeneous workers
# (docs/selective-reduce.md, "Stragglers and mixed accelerators"): all
# reduce, partial reduce and selective reduce (warm and cold start) on
# n = 40 and 200 with workers alike (v100:1), two accelerator mixes, and
# 10 % of the workers persistently 4x slow or 30 % 2x slow; the same at
# n = 40 with a 50 MB model, where compute and synchronisation take similar
# times; 5 seeds, paired.
#
#   scripts/selective-reduce/stragglers.sh [OUTDIR [n40 n200 n40s]]
#
# About half a CPU-minute. See scripts/lib/reproduce.sh for SYNCSIM,
# PARALLEL, RESUME and EXTRA.
source "$(dirname "$0")/../lib/reproduce.sh"
default_out=sr-stragglers
figures=(n40 n200 n40s)

schemes=(--vary scheme=allreduce,partial-reduce,selective-reduce --vary start=warm,cold --trials 5)

# study NAME N SWEEP-FLAGS...: the three heterogeneity sweeps of one setting and their tables.
study() {
	local name=$1 n=$2
	shift 2
	sweep "classes-$name" sr-cluster --set n="$n" "$@" "${schemes[@]}" --vary worker_classes=v100:1,v100:0.5+p100:0.5,v100:0.5+k80:0.5
	sweep "stragglers10-$name" sr-cluster --set n="$n" "$@" "${schemes[@]}" --set straggler_slowdown=4 --vary stragglers=0,$((n / 10))
	sweep "stragglers30-$name" sr-cluster --set n="$n" "$@" "${schemes[@]}" --set straggler_slowdown=2 --vary stragglers=0,$((3 * n / 10))
	local f
	for f in classes stragglers10 stragglers30; do
		table "$f-$name" "$f, n = $n $*: total iterations, sync time and scale (warm start), selective reduce against the others" \
			"$f-$name.csv" --metric total_iteration,avg_sync_time_s,avg_sync_scale --where start=warm --of scheme=selective-reduce
		table "$f-$name-start" "$f, n = $n $*: selective reduce's total iterations, warm against cold start" \
			"$f-$name.csv" --metric total_iteration --where scheme=selective-reduce --of start=warm
	done
	table "classes-$name-alike" "n = $n $*: total iterations (warm start) against workers alike" \
		"classes-$name.csv" --metric total_iteration --where start=warm --vs worker_classes=v100:1
	table "stragglers-$name-none" "n = $n $*: total iterations (warm start) against no stragglers" \
		"stragglers10-$name.csv" "stragglers30-$name.csv" --metric total_iteration --where start=warm --vs stragglers=0
}

n40() { study n40 40; }
n200() { study n200 200; }
n40s() { study n40s 40 --set model_mb=50; }

main "$@"
