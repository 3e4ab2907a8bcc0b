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
#               first reproduction: pipelining and detection time
#   failover    failover keeping partial copies (split) against moving them,
#               and Eq. 3's load over every running partial reduce
#   fig9        whether Fig. 9's reversal on N1 comes from N1 being slower:
#               N1 at 1x and 3x its bandwidths
#   fig6        Fig. 6 at chunk pipelining on N2 with a slow controller
#   latency     what chunk pipelining gains with and without the WAN's
#               latencies (latency=aws against latency=none), alone and in
#               training
#   fig5        Fig. 5's gaps tested: N1 at 1x and 3x its bandwidths (CREW
#               against OPR and A2A), and the LP's split against the even one
#               in a single partial reduce on N1 and N2
#   fig10       Fig. 10's fall tested: N1 at 1x and 3x its bandwidths, and
#               both networks without the WAN's latencies, model x8 against x1
#
#   scripts/crew/studies.sh [OUTDIR [STUDY...]]   (default: all of them)
#
# About 30 CPU-minutes on one core (costs.md has each sweep's). See
# scripts/lib/reproduce.sh for SYNCSIM, PARALLEL, RESUME and EXTRA.
source "$(dirname "$0")/../lib/reproduce.sh"
default_out=crew-studies
figures=(pipeline fluct stragglers fig8 failover fig9 fig6 latency fig5 fig10)

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
	table pipe-training-time "Fig. 5 pipelined: CREW's partial reduce in training (s), block store-and-forward against chunk pipelining" \
		pipe-training.csv --metric pr_time_s --where scheme=crew --vs pipeline=chunk
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
	table fluct-static "Fluctuating WAN: rounds per worker against static bandwidths" \
		fluct-static.csv fluct-walk5.csv fluct-walk1.csv fluct-redraw.csv --metric rounds_per_worker --vs bw_model=static
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
	sweep fig8-links crew-training --vary p=5,10 --vary faulty_links=0,16 --trials 5
	sweep fig8-late crew-training --vary p=5,10 --set faulty_links=16 --set detect_ms=3000 --trials 5
	table fig8-links "Fig. 8 tested: rounds per worker with 16 faulty links against none" \
		fig8-links.csv --metric rounds_per_worker --vs faulty_links=0
	table fig8-late "Fig. 8 tested: rounds per worker with 16 faulty links noticed after 3 s against 1 s" \
		fig8-links.csv fig8-late.csv --metric rounds_per_worker --where faulty_links=16 --vs detect_ms=1000
	table fig8-work "Fig. 8 tested: failovers and discarded chunks with 16 faulty links" \
		fig8-links.csv fig8-late.csv --metric failovers,abandoned_rounds,discarded_chunks --where faulty_links=16 --columns p
	sweep fig8-block crew-training --vary p=5,10 --vary faulty_links=0,16 --set detect_ms=3000 --set pipeline=block --trials 5
	table fig8-block "Fig. 8 tested under block store-and-forward, outages noticed after 3 s: 16 faulty links against none" \
		fig8-block.csv --metric rounds_per_worker --vs faulty_links=0
}

failover() {
	sweep fig8-failover crew-training --vary p=5,10 --set faulty_links=16 --vary failover=move,split --trials 5
	sweep fig8-eq3 crew-training --vary p=5,10 --set faulty_links=16 --set eq3_scope=running --trials 5
	table fig8-failover "Failover keeping partial copies (split) against moving what is still needed (move)" \
		fig8-failover.csv --metric rounds_per_worker,discarded_chunks --vs failover=move
	table fig8-eq3 "Eq. 3's load over every running partial reduce against the one being repaired" \
		fig8-failover.csv fig8-eq3.csv --metric rounds_per_worker --where failover=move --vs eq3_scope=task
}

fig9() {
	sweep fig9-n1 crew-training --set trace=t2 --set duration_s=100 --set network=n1 --vary p=5,10 \
		--vary bw_scale=1,3 --vary compute_scale=1,6 --trials 5
	table fig9-n1 "Fig. 9 tested: N1 at 1x and 3x its bandwidths, compute x6 against x1" \
		fig9-n1.csv --metric rounds_per_worker,pr_time_s --vs compute_scale=1
}

# Fig. 6 at chunk pipelining where it gains (N2, 100 ms of controller
# latency each way).
fig6() {
	sweep fig6-n2 crew-training --set network=n2 --set control_ms=100 --vary scatter=blocking,non-blocking --trials 5
	table fig6-n2 "Fig. 6 pipelined (N2, T1, 100 ms controller latency): non-blocking against blocking scatter" \
		fig6-n2.csv --metric rounds_per_worker,queue_wait_s,pr_time_s --of scatter=non-blocking
}

# Chunk pipelining with and without the WAN's latencies: one partial
# reduce (Fig. 4's setting, 10 seeds) and training (Fig. 5's, p = 10).
# latency=aws (the default) places the workers on WANify's 8 AWS regions
# with Skyplane's RTT/2 between them; latency=none removes every latency.
latency() {
	sweep pipe-latency crew-single --vary network=n1,n2 --vary scheme=crew,opr --vary latency=aws,none \
		--vary pipeline=chunk,block --trials 10
	table pipe-latency "Pipelining with and without the WAN's latencies: one partial reduce (s), block store-and-forward against chunk pipelining" \
		pipe-latency.csv --metric pr_time_s --vs pipeline=chunk
	table pipe-latency-t "Pipelining with and without the WAN's latencies: T of the split that ran (Eq. 1a + 1b, s) and the partial reduce's time" \
		pipe-latency.csv --metric t_split_s,pr_time_s --where scheme=crew
	sweep pipe-latency-training crew-training --vary network=n1,n2 --set p=10 --set scheme=crew --vary latency=aws,none \
		--vary pipeline=chunk,block --trials 5
	table pipe-latency-training "Pipelining with and without the WAN's latencies in training (p = 10): rounds per worker and partial-reduce time, chunk against block" \
		pipe-latency-training.csv --metric rounds_per_worker,pr_time_s --of pipeline=chunk
}

# Fig. 5's gaps: CREW against OPR and A2A on N1 at its own bandwidths and
# at 3x them (the same spread, a median of 160 Mbit/s against N2's 125),
# and the LP's split (N-A) against the even one (E-D) in a single partial
# reduce on each network.
fig5() {
	sweep fig5-n1 crew-training --set network=n1 --vary bw_scale=1,3 --vary p=5,10 --vary scheme=crew,opr,a2a --trials 5
	table fig5-n1 "Fig. 5 tested: rounds per worker on N1 at 1x and 3x its bandwidths, CREW against OPR and A2A" \
		fig5-n1.csv --metric rounds_per_worker --of scheme=crew
	sweep split-single crew-single --vary network=n1,n2 --vary split=e-d,n-a --trials 10
	table split-single "Fig. 5 tested: one CREW partial reduce (s) with the even split against the LP's" \
		split-single.csv --metric pr_time_s --vs split=n-a
}

# Fig. 10 on N1 at its own bandwidths and at 3x them, and on both
# networks without the WAN's latencies (100 s, T1).
fig10() {
	sweep fig10-n1 crew-training --set duration_s=100 --set network=n1 --vary bw_scale=1,3 --vary model_scale=1,8 --trials 5
	table fig10-n1 "Fig. 10 tested: N1 at 1x and 3x its bandwidths, model x8 against x1" \
		fig10-n1.csv --metric rounds_per_worker,pr_time_s --vs model_scale=1
	sweep fig10-latency crew-training --set duration_s=100 --vary network=n1,n2 --set latency=none --vary model_scale=1,8 --trials 5
	table fig10-latency "Fig. 10 tested without the WAN's latencies: model x8 against x1" \
		fig10-latency.csv --metric rounds_per_worker,pr_time_s --vs model_scale=1
}

main "$@"
