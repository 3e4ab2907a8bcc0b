package hostsync

import (
	"math"

	"syncsim/experiments"
	"syncsim/scenarios/internal/costs"
	"syncsim/scenarios/internal/workers"
	"syncsim/workloads/training"
)

// The cost models of crew-single and crew-training (experiments.Cost,
// printed by --dry-run). A partial reduce's events follow its scheme's
// transfers on the flow engine: CREW's and OPR's chunk pipeline sends
// every chunk of every initiator's model through an aggregator and back
// (per initiator and chunk, or with pipeline=block per initiator and
// block: n blocks for CREW, p for OPR), the baselines their rings, trees
// and pushes. At packet fidelity each initiator's model goes out and its
// result back in segments. crew-training runs n/p partial reduces side by
// side, each worker's cycle its compute plus the partial reduce's time:
// about twice the model through the initiator's n - 1 connections at the
// network's effective rate (crewRate), plus three one-way latencies
// (scatter, reduce, multicast), for CREW; OPR's and A2A's are fitted
// (crewReduceTime).

// crewPerUnit is the events of one partial reduce per initiator and
// pipeline unit (chunk, or block), by scheme, from crew-single at its
// defaults (n = 60, p = 10, 1,000 chunks, N1): CREW 37,072 events (3.7
// per initiator and chunk; pipeline=block: 2,360, 3.9 per initiator and
// block), OPR 23,506 (2.35); the baselines per transfer of their
// structure: a2a 146 for p(p-1) sends (1.6), ps 42 for 2p (2.1), ring 505
// for 2(p-1)p (2.8), blink and toa 3,860 and 782 for p x tree_segments
// (24 and 4.9).
func crewSingleEvents(scheme string, ps experiments.Params) float64 {
	n, p := float64(ps.Int("n")), float64(ps.Int("p"))
	chunks := float64(ps.Int("chunks"))
	block := ps.String("pipeline") == "block"
	switch scheme {
	case "crew":
		if block {
			return 3.9 * p * n
		}
		return 3.7 * p * math.Max(chunks, n)
	case "opr":
		if block {
			return 3.9 * p * p
		}
		return 2.35 * p * math.Max(chunks, p)
	case "a2a":
		return 1.6 * p * (p - 1)
	case "ps":
		return 2.1 * 2 * p
	case "ring":
		return 2.8 * 2 * (p - 1) * p
	case "blink":
		return 24 * p * float64(ps.Int("tree_segments"))
	case "toa":
		return 4.9 * p * float64(ps.Int("tree_segments"))
	}
	return 3.7 * p * math.Max(chunks, n)
}

// crewPerSegment is the events of a segment of a partial reduce at packet
// fidelity: `syncsim run crew-single --set n=8 --set p=4 --set
// model_mb=16 --set network=n2 --set latency=const --set latency_ms=5
// --set fidelity=packet` fires 735,596 events for 4 x 16 MB out and back,
// 87,671 segments (8.4 each).
const crewPerSegment = 8.4

// crewEvents is one partial reduce's events at the point's fidelity.
func crewEvents(scheme string, ps experiments.Params) float64 {
	if ps.String("fidelity") == "packet" {
		model, err := crewModel(ps)
		if err != nil {
			return math.NaN()
		}
		return crewPerSegment * 2 * float64(ps.Int("p")) * math.Ceil(float64(model)/costs.MSS)
	}
	return crewSingleEvents(scheme, ps)
}

// crewNs is the CPU of one event of crew-training at flow fidelity:
// 432-501 ns at its defaults, N2 and 10 s (the LP's solves included).
const crewNs = 480

func crewSingleCost() *experiments.Cost {
	return &experiments.Cost{NsPerEvent: crewNs, Events: func(ps experiments.Params) float64 {
		return crewEvents(ps.String("scheme"), ps)
	}}
}

// crewRate is the network's effective rate of one connection in a
// partial reduce, bits/s: crew-single's CREW partial reduce of 180 MB at
// n = 30 and 60, p = 5 and 10 takes 1.9-4.8 s on N1, 2 x 1.44 Gbit over
// n - 1 connections at 19-25 Mbit/s; on N2 0.77 s, 63 Mbit/s. For a
// bw_file, 0.4 of its mean entry (N1's and N2's rates are 0.3-0.5 of
// their means).
func crewRate(ps experiments.Params) float64 {
	scale := ps.Float("bw_scale")
	switch ps.String("network") {
	case "n1":
		return 22e6 * scale
	case "n2":
		return 63e6 * scale
	}
	m, err := readBWFile(ps)
	if err != nil {
		return math.NaN()
	}
	mean, ok := offDiagonalMean(m)
	if !ok {
		return math.NaN()
	}
	return 0.4 * mean * scale
}

// crewLatency is three one-way latencies of the point's latency model,
// seconds: AWS's inter-region latencies add about 0.27 s to a CREW
// partial reduce (0.49 s for 18 MB on N1 against 0.22 s of transfer).
func crewLatency(ps experiments.Params) float64 {
	switch ps.String("latency") {
	case "aws":
		return 0.27
	case "const":
		return 3 * ps.Float("latency_ms") / 1e3
	case "file":
		m, err := readLatencyFile(ps)
		if err != nil {
			return math.NaN()
		}
		if mean, ok := offDiagonalMean(m); ok {
			return 3 * mean
		}
	}
	return 0
}

// offDiagonalMean is the mean of m's entries off its diagonal (the
// pairs of distinct workers), and whether there is any.
func offDiagonalMean(m [][]float64) (float64, bool) {
	sum, k := 0.0, 0
	for i := range m {
		for j := range m[i] {
			if i != j {
				sum += m[i][j]
				k++
			}
		}
	}
	if k == 0 {
		return 0, false
	}
	return sum / float64(k), true
}

// crewReduceTime is a partial reduce's time, seconds, for a model of
// bits: CREW's is twice the model through the initiator's n - 1
// connections plus the latencies. OPR reduces among the p workers of P
// only and A2A sends the whole model over single connections; their
// times, fitted to crew-single on N1 (n = 60: OPR 17.2 and 13.95 s at p =
// 5 and 10, A2A 49.7 and 96.0 s; OPR 7 s at n = 16, p = 4, bw_scale = 3
// in crew-training), are 2 x bits x p / (10 (p - 1)) and 0.15 p x bits
// over the rate.
func crewReduceTime(scheme string, ps experiments.Params, bits float64) float64 {
	n, p := float64(ps.Int("n")), float64(ps.Int("p"))
	rate := crewRate(ps)
	switch scheme {
	case "opr":
		return 2*bits*p/(10*math.Max(p-1, 1)*rate) + crewLatency(ps)
	case "a2a":
		return 0.15*p*bits/rate + crewLatency(ps)
	}
	return 2*bits/(math.Max(n-1, 1)*rate) + crewLatency(ps)
}

func crewTrainingCost() *experiments.Cost {
	return &experiments.Cost{NsPerEvent: crewNs, Rough: crewTrainingRough, Events: func(ps experiments.Params) float64 {
		n, p := ps.Int("n"), ps.Int("p")
		scheme := ps.String("scheme")
		model, err := crewModel(ps)
		if err != nil {
			return math.NaN()
		}
		trace, err := crewTrace(ps)
		if err != nil {
			return math.NaN()
		}
		compute := training.Scaled{D: trace, M: ps.Float("compute_scale")}.Mean() * workers.Mean(ps, n)
		pr := crewReduceTime(scheme, ps, 8*float64(model))
		duration := ps.Float("duration_s")
		// n/p partial reduces side by side, each taking a cycle, from the
		// end of the workers' first compute; one in progress at the end
		// counts in proportion.
		cycles := math.Max(0, duration-compute) / (compute + pr)
		return float64(n)/float64(p)*cycles*crewEvents(scheme, ps) + float64(n)*(1+cycles)
	}}
}

// crewTrainingRough: failures and bandwidths that change as the run goes
// (faulty links, an outage schedule, bw_model other than static) stall
// or re-plan partial reduces, which the model does not count.
func crewTrainingRough(ps experiments.Params) string {
	if ps.Int("faulty_links") > 0 || ps.Str("faults") != "" {
		return "failures stall and re-plan partial reduces, which the model does not count"
	}
	if ps.String("bw_model") != "static" {
		return "bandwidths that change during the run re-plan partial reduces, which the model does not count"
	}
	return ""
}
