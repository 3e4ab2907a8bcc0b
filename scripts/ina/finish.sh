#!/usr/bin/env bash
# SwitchML and ATP over every point of PA-ATP Figs. 12-14
# on the paper's fabric (ina-leafspine's steady defaults), run until every
# job finishes (max_ms at its default, 10 s of simulated time), seed 1, with
# each run's CPU cost (--timing's wall_s; the .time files). Fig. 13's 8-job
# point is Fig. 12's 12-worker point.
#
#   scripts/ina/finish.sh [OUTDIR [FIGURE...]]   (figures below; default: all)
#
# Costly: 100-550 M events per run at 8 jobs, more at 16-32 jobs (Fig. 13);
# about 45 CPU-minutes for fig12, as much for fig14, more for fig13.
# See scripts/lib/reproduce.sh for SYNCSIM, PARALLEL, RESUME and EXTRA.
source "$(dirname "$0")/../lib/reproduce.sh"
default_out=ina-finish
figures=(fig12 fig14 fig13)

both=(--vary protocol=switchml,atp --timing)
done_cols=(--metric ajct_ms,jobs_done,worker_timeouts,drops,wall_s --undefined unfinished)

fig12() {
	sweep fig12 ina-leafspine --vary workers=12:24:4 "${both[@]}"
	table fig12 "Fig. 12 without max_ms: SwitchML and ATP, seed 1" fig12.csv "${done_cols[@]}"
}

fig14() {
	sweep fig14 ina-leafspine --vary workload=hadoop,cachefollower --vary load=0.2:0.8:0.2 "${both[@]}"
	table fig14 "Fig. 14 without max_ms: SwitchML and ATP, seed 1" fig14.csv "${done_cols[@]}"
}

fig13() {
	sweep fig13 ina-leafspine --vary jobs=16:32:8 "${both[@]}"
	table fig13 "Fig. 13 without max_ms: SwitchML and ATP, seed 1" fig13.csv "${done_cols[@]}"
}

main "$@"
