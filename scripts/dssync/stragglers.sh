#!/usr/bin/env bash
# DS-Sync with compute stragglers and mixed accelerators (docs/dssync.md,
# "Compute stragglers and mixed accelerators"): every scheme under Table
# III's and Table V's scenarios (both, static), WideResNet-28-10, with one
# persistent straggler at 2x and 4x and with half the workers P100s;
# iteration and communication time, 5 seeds, paired.
#
#   scripts/dssync/stragglers.sh [OUTDIR [stragglers classes]]
#
# About 12 CPU-minutes with a bucket per layer. See scripts/lib/reproduce.sh
# for SYNCSIM, PARALLEL, RESUME and EXTRA.
source "$(dirname "$0")/../lib/reproduce.sh"
default_out=dssync-stragglers
figures=(stragglers classes)

schemes=(--vary scenario=both,static --vary scheme=dssync,allreduce,tree-allreduce,hier-allreduce,asp,gossip --trials 5)

stragglers() {
	sweep stragglers dssync "${schemes[@]}" --vary stragglers=0,1 --vary straggler_slowdown=2,4
	table stragglers "One persistent straggler: iteration (ms), each scheme against DS-Sync" \
		stragglers.csv --metric iter_time_ms --vs scheme=dssync --changes-only
	table stragglers-none "One persistent straggler: iteration (mean over workers and the fastest worker's, ms) against none" \
		stragglers.csv --metric iter_time_ms,iter_time_min_ms --vs stragglers=0
}

classes() {
	sweep classes dssync "${schemes[@]}" --vary worker_classes=v100:1,v100:0.5+p100:0.5
	table classes "Half the workers P100s: iteration (ms), each scheme against DS-Sync" \
		classes.csv --metric iter_time_ms --vs scheme=dssync --changes-only
	table classes-alike "Half the workers P100s: iteration (mean and fastest, ms) against workers alike" \
		classes.csv --metric iter_time_ms,iter_time_min_ms --vs worker_classes=v100:1
}

main "$@"
