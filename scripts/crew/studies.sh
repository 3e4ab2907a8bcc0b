#!/usr/bin/env bash
# CREW studies beyond the paper's figures, as docs/crew.md's "Studies"
# section reports them (defaults: n = 60, p = 10, N1, T1, 50 s, chunk
# pipelining; 5 seeds, Fig. 4 10; every ratio paired seed by seed):
#
#   pipeline    what chunk pipelining changes in Fig. 4 and Fig. 5 (against
#               pipeline=block, the first reproduction's store-and-forward)
#   fluct       CREW against OPR when the WAN's bandwidths change (walk,
#               redraw), the controller re-planning from probes or not
#   stragglers  CREW and OPR with persistent stragglers and mixed accelerators
#   fig8        why 16 faulty links cost more at p = 5 than at p = 10 in the
#               first reproduction: detection time, pipelining, failover
#               mode, Eq. 3's scope
#   fig9        whether Fig. 9's reversal on N1 comes from N1 being slower:
#               N1 at 1x and 3x its bandwidths
#   spot        Figs. 6, 7, 10 and 11 at chunk pipelining, one workload each
#
#   scripts/crew/studies.sh [OUTDIR [STUDY...]]   (default: all of them)
#
# About 30 CPU-minutes on one core (costs.md has each sweep's). See
# scripts/lib/reproduce.sh for SYNCSIM, PARALLEL, RESUME and EXTRA.
source "$(dirname "$0")/../lib/reproduce.sh"
default_out=crew-studies
figures=(pipeline fluct stragglers fig8 fig9 spot)

pipeline() {
	sweep pipe-single crew-single --vary network=n1,n2 --vary scheme=crew,opr --vary pipeline=chunk,block --trials 10
	table pipe-single "Fig. 4 pipelined: one partial reduce (s), block store-and-forward against chunk pipelining" \
		pipe-single.csv --metric pr_time_s --vs pipeline=chunk
	table pipe-single-t "Fig. 4 pipelined: T of the split that ran (Eq. 1a + 1b, s) and the partial reduce's time" \
		pipe-single.csv --metric t_split_s,pr_time_s --where pipeline=chunk
	sweep pipe-training crew-training --vary network=n1,n2 --vary p=5,10 --vary scheme=crew,opr --vary pipeline=chunk,block --trials 5
	table pipe-training "Fig. 5 pipelined: rounds per worker, chunk pipelining against block store-and-forward" \
		pipe-training.csv --metric rounds_per_worker --of pipeline=chunk
	table pipe-training-crew "Fig. 5 pipelined: CREW against OPR" \
		pipe-training.csv --metric rounds_per_worker --of scheme=crew --changes-only
}

# bandwidth changes: a walk of each b_ij's quantile (5 s steps of up to
# 0.1, 1 s steps of up to 0.3) or a fresh draw every 5 s; the controller
# plans from probes every second (bw_probe_s=1) or never learns a change
# (bw_probe_s=-1).
fluct() {
	sweep fluct-static crew-training --vary scheme=crew,opr --trials 5
	sweep fluct-walk5 crew-training --vary scheme=crew,opr --set bw_model=walk --set bw_period_s=5 --set bw_walk_step=0.1 \
		--vary bw_probe_s=1,-1 --trials 5
	sweep fluct-walk1 crew-training --vary scheme=crew,opr --set bw_model=walk --set bw_period_s=1 --set bw_walk_step=0.3 \
		--vary bw_probe_s=1,-1 --trials 5
	sweep fluct-redraw crew-training --vary scheme=crew,opr --set bw_model=redraw --set bw_period_s=5 \
		--vary bw_probe_s=1,-1 --trials 5
	table fluct "Fluctuating WAN: rounds per worker, CREW against OPR" \
		fluct-static.csv fluct-walk5.csv fluct-walk1.csv fluct-redraw.csv --metric rounds_per_worker --of scheme=crew
	table fluct-probe "Fluctuating WAN: rounds per worker, re-planning from probes against never learning a change" \
		fluct-walk5.csv fluct-walk1.csv fluct-redraw.csv --metric rounds_per_worker --of bw_probe_s=1
}

stragglers() {
	sweep str-classes crew-training --vary scheme=crew,opr --vary p=5,10 --vary worker_classes=v100:1,v100:0.5+k80:0.5 --trials 5
	table str-classes "Half the workers K80s: rounds per worker against workers alike" \
		str-classes.csv --metric rounds_per_worker --vs worker_classes=v100:1
	table str-classes-crew "Half the workers K80s: CREW against OPR" \
		str-classes.csv --metric rounds_per_worker --of scheme=crew --changes-only
	sweep str-k crew-training --vary scheme=crew,opr --vary p=5,10 --set straggler_slowdown=4 --vary stragglers=0,6 --trials 5
	table str-k "Six 4x stragglers: rounds per worker (mean and fewest) against none" \
		str-k.csv --metric rounds_per_worker,rounds_min --vs stragglers=0
	table str-k-crew "Six 4x stragglers: CREW against OPR" \
		str-k.csv --metric rounds_per_worker --of scheme=crew --changes-only
}

fig8() {
	sweep fig8-detect crew-training --vary p=5,10 --vary faulty_links=0,16 --vary detect_ms=100,1000,3000 --trials 5
	table fig8-detect "Fig. 8 tested: rounds per worker with 16 faulty links against none, by detection time" \
		fig8-detect.csv --metric rounds_per_worker --vs faulty_links=0
	table fig8-detect-work "Fig. 8 tested: failovers, abandoned rounds and discarded chunks with 16 faulty links" \
		fig8-detect.csv --metric failovers,abandoned_rounds,discarded_chunks --where faulty_links=16 --columns p
	sweep fig8-block crew-training --vary p=5,10 --vary faulty_links=0,16 --vary detect_ms=100,1000,3000 --set pipeline=block --trials 5
	table fig8-block "Fig. 8 tested under block store-and-forward: rounds per worker with 16 faulty links against none" \
		fig8-block.csv --metric rounds_per_worker --vs faulty_links=0
	sweep fig8-failover crew-training --vary p=5,10 --set faulty_links=16 --vary failover=move,split --vary eq3_scope=task,running --trials 5
	table fig8-failover "Failover keeping partial copies (split) against moving what is still needed (move)" \
		fig8-failover.csv --metric rounds_per_worker,discarded_chunks --vs failover=move
	table fig8-eq3 "Eq. 3's load over every running partial reduce against the one being repaired" \
		fig8-failover.csv --metric rounds_per_worker --vs eq3_scope=task
}

fig9() {
	sweep fig9-n1 crew-training --set trace=t2 --set duration_s=100 --set network=n1 --set p=10 \
		--vary bw_scale=1,3 --vary compute_scale=1,6 --trials 5
	table fig9-n1 "Fig. 9 tested: N1 at 1x and 3x its bandwidths, compute x6 against x1" \
		fig9-n1.csv --metric rounds_per_worker,pr_time_s --vs compute_scale=1
}

spot() {
	sweep spot-fig6 crew-training --set network=n2 --set control_ms=100 --vary scatter=blocking,non-blocking --trials 5
	table spot-fig6 "Fig. 6 pipelined (N2, T1, 100 ms controller latency): non-blocking against blocking scatter" \
		spot-fig6.csv --metric rounds_per_worker --of scatter=non-blocking
	sweep spot-fig7 crew-training --vary scheduling=fl,fs,tl,c1,c2 --trials 5
	table spot-fig7 "Fig. 7 pipelined (N1, T1): rounds per worker under each scheduling, against FL" \
		spot-fig7.csv --metric rounds_per_worker --vs scheduling=fl
	sweep spot-fig10 crew-training --set duration_s=100 --vary model_scale=1,8 --trials 5
	table spot-fig10 "Fig. 10 pipelined (N1, T1, 100 s): rounds per worker, model x8 against x1" \
		spot-fig10.csv --metric rounds_per_worker --vs model_scale=1
	sweep spot-fig11 crew-training --set network=n2 --set trace=t2 --vary split=e-d,n-a --vary bw_noise=0,0.5 --trials 5
	table spot-fig11 "Fig. 11 pipelined (N2, T2): partial-reduce time (s), noise 0.5 against none" \
		spot-fig11.csv --metric pr_time_s --vs bw_noise=0
	table spot-fig11-split "Fig. 11 pipelined: N-A against E-D" \
		spot-fig11.csv --metric pr_time_s --of split=n-a --changes-only
}

main "$@"
