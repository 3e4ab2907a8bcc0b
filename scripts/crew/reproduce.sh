#!/usr/bin/env bash
# CREW (cross-cloud partial reduce): Figs. 4-11 over 5 seeds (Fig. 4 over
# 10), as docs/crew.md reports them: Figs. 5, 7, 9 and 10 at the default
# chunk pipelining, Figs. 4, 6, 8 and 11 under block store-and-forward
# (--set pipeline=block, as first measured; docs/crew.md's Studies have
# their pipelined counterparts for Figs. 4, 6 and 8); `overlap` is
# overlap=layer against none, as docs/workers.md reports it.
#
#   scripts/crew/reproduce.sh [OUTDIR [FIGURE...]]   (figures below; default: all)
#
# About 85 CPU-minutes on one core, 80 of them the pipelined Figs. 5, 7, 9
# and 10, plus 6 for overlap (costs.md has each sweep's). The
# packet-against-flow check comes from the test:
#   go test ./workloads/crew -run PacketMatchesFlow -v
# See scripts/lib/reproduce.sh for SYNCSIM, PARALLEL, RESUME and EXTRA.
source "$(dirname "$0")/../lib/reproduce.sh"
default_out=crew-repro
figures=(fig4 fig5 fig6 fig7 fig8 fig9 fig10 fig11 overlap)

workloads=(--vary network=n1,n2 --vary trace=t1,t2)

# Fig. 4: one cross-cloud partial reduce by every scheme.
fig4() {
	sweep fig4 crew-single --vary network=n1,n2 --vary scheme=ps,ring,toa,blink,a2a,opr,crew --set pipeline=block --trials 10
	table fig4 "Fig. 4: time of one partial reduce (s) and its ratio to CREW's" \
		fig4.csv --metric pr_time_s --vs scheme=crew
}

# Fig. 5: CREW against OPR and A2A, even (E-D) or LP (N-A) split, max-min
# (FS) or FCFS (FL) scheduling, p = 5 and 10.
fig5() {
	sweep fig5 crew-training "${workloads[@]}" --vary p=5,10 --vary scheme=crew,opr,a2a \
		--vary split=e-d,n-a --vary scheduling=fs,fl --trials 5
	table fig5 "Fig. 5: rounds per worker, CREW against OPR and A2A (N-A, FL)" \
		fig5.csv --metric rounds_per_worker --where split=n-a --where scheduling=fl --of scheme=crew
	table fig5-split "Fig. 5: CREW's rounds with N-A and FL against the other splits and schedulings" \
		fig5.csv --metric rounds_per_worker --where scheme=crew --of split=n-a --of scheduling=fl
}

# Fig. 6: non-blocking scatter, with an instantaneous controller and with
# 100 ms of controller latency each way.
fig6() {
	sweep fig6 crew-training "${workloads[@]}" --vary p=5,10 --vary control_ms=0,100 \
		--vary scatter=blocking,non-blocking --set pipeline=block --trials 5
	table fig6 "Fig. 6: rounds per worker, non-blocking against blocking scatter" \
		fig6.csv --metric rounds_per_worker --of scatter=non-blocking
	table fig6-wait "Fig. 6: time a worker waits for its P (what non-blocking scatter can overlap), s" \
		fig6.csv --metric queue_wait_s,pr_time_s --where scatter=blocking
	table fig6-discard "Fig. 6: chunks non-blocking scatter sent by the default plan and discarded" \
		fig6.csv --metric discarded_chunks --where scatter=non-blocking
	table fig6-pr "Fig. 6: a partial reduce's time, non-blocking against blocking scatter, s" \
		fig6.csv --metric pr_time_s --of scatter=non-blocking
}

# Fig. 7: flow scheduling on each connection.
fig7() {
	sweep fig7 crew-training "${workloads[@]}" --vary p=5,10 --vary scheduling=fs,fl,tl,c1,c2 --trials 5
	table fig7 "Fig. 7: rounds per worker under each scheduling, against FL" \
		fig7.csv --metric rounds_per_worker --vs scheduling=fl
	table fig7-c2 "Fig. 7: rounds per worker, scatter first (C2) against multicast first (C1)" \
		fig7.csv --metric rounds_per_worker --where scheduling=c1,c2 --vs scheduling=c1
	table fig7-time "Fig. 7: partial-reduce time and wait for P (s) under FL, C1 and C2, against FL" \
		fig7.csv --metric pr_time_s,queue_wait_s --where scheduling=fl,c1,c2 --vs scheduling=fl
}

# Fig. 8: connections failing at random times.
fig8() {
	sweep fig8 crew-training --vary p=5,10 --vary faulty_links=0,1,2,4,8,16 --set pipeline=block --trials 5
	table fig8 "Fig. 8: rounds per worker with faulty links, against none" \
		fig8.csv --metric rounds_per_worker --vs faulty_links=0
	table fig8-failover "Fig. 8: failovers and abandoned rounds" \
		fig8.csv --metric failovers,abandoned_rounds
}

# Fig. 9: compute times x1-x6 on T2, 100 s.
fig9() {
	sweep fig9 crew-training --set trace=t2 --set duration_s=100 --vary network=n1,n2 --vary p=4,5,10,12 \
		--vary compute_scale=1,2,3,4,5,6 --trials 5
	table fig9 "Fig. 9: rounds per worker over compute time, against x1" \
		fig9.csv --metric rounds_per_worker --vs compute_scale=1 --changes-only
	table fig9-time "Fig. 9: partial-reduce time (s) at compute x1 and x6" \
		fig9.csv --metric pr_time_s --where compute_scale=1,6 --vs compute_scale=1
}

# Fig. 10: model size x1-x8, 100 s.
fig10() {
	sweep fig10 crew-training --set duration_s=100 "${workloads[@]}" --vary model_scale=1,2,4,8 --trials 5
	table fig10 "Fig. 10: rounds per worker over model size, against x1" \
		fig10.csv --metric rounds_per_worker --vs model_scale=1
	table fig10-time "Fig. 10: partial-reduce time (s) over model size, against x1" \
		fig10.csv --metric pr_time_s --vs model_scale=1
}

# Fig. 11: bandwidth estimation noise, N2, T2.
fig11() {
	sweep fig11 crew-training --set network=n2 --set trace=t2 --vary split=e-d,n-a \
		--vary bw_noise=0,0.1,0.2,0.3,0.4,0.5 --set pipeline=block --trials 5
	table fig11 "Fig. 11: partial-reduce time (s) over noise, against none" \
		fig11.csv --metric pr_time_s --vs bw_noise=0
	table fig11-split "Fig. 11: N-A against E-D at each noise" \
		fig11.csv --metric pr_time_s --of split=n-a
}

# Layer-wise overlap of each partial reduce with backprop (overlap=layer,
# docs/workers.md; the paper's runs, and every figure above, are
# overlap=none): T2 as in Fig. 9, at its compute x1 and x6, BERT-base's
# proportions and DDP's buckets, both networks, p = 10.
overlap() {
	sweep overlap crew-training --set trace=t2 --vary network=n1,n2 --vary compute_scale=1,6 \
		--vary overlap=none,layer --trials 5
	table overlap "Overlap: rounds per worker, partial-reduce time and wait for P, layer over none, paired" \
		overlap.csv --metric rounds_per_worker,pr_time_s,queue_wait_s --of overlap=layer
}

main "$@"
