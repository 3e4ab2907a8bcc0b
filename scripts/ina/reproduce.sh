#!/usr/bin/env bash
# PA-ATP Figs. 10 and 12-15 at the steady defaults, 5 seeds per point, as
# docs/ina-reproduction.md reports them.
#
#   scripts/ina/reproduce.sh [OUTDIR [FIGURE...]]   (figures below; default: all)
#
# About 1.8 CPU-hours (an hour on 2 cores); costs.md has each sweep's,
# and every CSV has wall_s per run (--timing). SwitchML's jobs wait out
# 10 ms slot timers after every loss; max_ms=62 gives every job 50 ms
# after the 12 ms warm-up and leaves ajct_ms undefined (NaN, "unfinished"
# in the tables) for a job that needs longer.
# See scripts/lib/reproduce.sh for SYNCSIM, PARALLEL, RESUME and EXTRA.
source "$(dirname "$0")/../lib/reproduce.sh"
default_out=ina-repro
figures=(fig10 fig15 fig12 fig14 fig13 byteps fig1)

P4=switchml,atp,strawasyn,pa-atp
# AJCT per protocol, median [min-max] over seeds; PA-ATP's change against
# every other protocol, seed by seed, in percent.
ajct=(--metric ajct_ms --of protocol=pa-atp --change percent --undefined unfinished)
plot() { "$SYNCSIM" plot "$@" --force; }

fig10() {
	sweep fig10 ina-testbed --set model=vgg19 --vary load=0.2,0.8 --vary protocol=byteps,switchml,atp,strawasyn,pa-atp --trials 5 --timing
	table fig10 "Fig. 10: testbed, two VGG19 jobs, AJCT (ms)" fig10.csv "${ajct[@]}"
	plot fig10.csv --x protocol --y ajct_ms --series load --kind bar -o fig10_ajct.png
}

fig15() {
	sweep fig15 ina-leafspine --set model=resnet50 --set max_ms=62 --vary switch_mem_mib=0.5,2:10:2 \
		--vary protocol=atp,strawasyn,strawasyn-pc,strawasyn-al,pa-atp --trials 5 --timing
	table fig15 "Fig. 15: switch memory and the ablations, AJCT (ms)" fig15.csv "${ajct[@]}"
	table fig15-marks "Fig. 15: AECN marks and sequences overflowed to the PS" fig15.csv --metric aecn_marks,overflow_seqs --columns protocol
	plot fig15.csv --x switch_mem_mib --y ajct_ms --series protocol --kind line --log-y -o fig15_ajct.png
}

fig12() {
	sweep fig12 ina-leafspine --set max_ms=62 --vary workers=12:24:4 --vary protocol=$P4 --trials 5 --timing
	table fig12 "Fig. 12: workers per job, AJCT (ms)" fig12.csv "${ajct[@]}"
	table fig12-done "Fig. 12: jobs done within max_ms" fig12.csv --metric jobs_done --columns protocol
	plot fig12.csv --x workers --y ajct_ms --series protocol --where protocol=atp,strawasyn,pa-atp -o fig12_ajct.png
}

fig14() {
	sweep fig14 ina-leafspine --set workload=cachefollower --set max_ms=62 --vary load=0.2:0.8:0.2 --vary protocol=$P4 --trials 5 --timing
	table fig14 "Fig. 14: Cache Follower background, AJCT (ms)" fig14.csv "${ajct[@]}"
	table fig14-done "Fig. 14: jobs done within max_ms" fig14.csv --metric jobs_done --columns protocol
	plot fig14.csv --x load --y ajct_ms --series protocol --where protocol=atp,strawasyn,pa-atp -o fig14_ajct.png
}

# Fig. 13: 16 jobs, beside Fig. 12's 8-job point (run fig12 first).
fig13() {
	sweep fig13 ina-leafspine --set max_ms=62 --vary jobs=16 --vary protocol=$P4 --trials 5 --timing
	local with=()
	[[ -s fig12.csv ]] && with=(fig12.csv --where workers=12)
	table fig13 "Fig. 13: jobs, AJCT (ms)" "${with[@]}" fig13.csv "${ajct[@]}"
}

# BytePS against PA-ATP when the workers' NICs carry background or not.
byteps() {
	sweep byteps ina-leafspine --vary protocol=byteps,pa-atp --vary bg_hosts=all,idle --set jobs=2 --set workers=4 \
		--set model=custom --set gradient_mb=4 --set iterations=3 --set load=0.6 --trials 3 --timing
	table byteps "BytePS against PA-ATP, AJCT (ms)" byteps.csv --metric ajct_ms --of protocol=pa-atp --change percent
}

# Fig. 1: the motivating example, packet run beside the paper's fluid.
fig1() {
	sweep fig1 ina-motivation --set example=sync-vs-async --vary protocol=atp,strawasyn,pa-atp
	table fig1 "Fig. 1: AJCT in the paper's units, packet run and fluid" fig1.csv \
		--metric ajct_units,ideal_ajct_units,wire_ajct_units,retransmits,worker_timeouts --digits 4
}

main "$@"
