package hostsync

import (
	"math"

	"syncsim/experiments"
	"syncsim/scenarios/internal/costs"
	"syncsim/scenarios/internal/setup"
	"syncsim/scenarios/internal/workers"
	"syncsim/workloads/background"
	"syncsim/workloads/syncctl"
	"syncsim/workloads/training"
)

// The cost models of sr-example and sr-cluster (experiments.Cost, printed
// by --dry-run). The selective-reduce experiments are event-driven at the
// level of computations and synchronisations: a run's events are its
// workers' computations, its groups' launches and selective reduce's
// waiting slots, and, at flow and packet fidelity, each group's ring
// all-reduce (2(g-1) steps of g transfers; at packet fidelity their
// segments).

// srHostNs is the CPU of one event of the host-synchronisation
// experiments at flow fidelity: sr-cluster's `--set fidelity=flow` at
// n = 40 and 80, 146-178 ns on the loaded machine (analytic runs cost
// more per event, most of it setting up: 0.00-0.07 s a run).
const srHostNs = 170

// srExampleCost is sr-example's model: Fig. 3's five workers compute
// once, groups of at least p synchronise them, and selective reduce polls
// every horizon_s while the example's 12 s unfold (`syncsim run
// sr-example --set scheme=selective-reduce --set horizon_s=0.1`: 127
// events).
func srExampleCost() *experiments.Cost {
	return &experiments.Cost{NsPerEvent: srHostNs, Events: func(ps experiments.Params) float64 {
		ev := 5 + math.Ceil(5/float64(ps.Int("p")))
		if ps.String("scheme") == "selective-reduce" && ps.Float("horizon_s") > 0 {
			ev += math.Ceil(12 / ps.Float("horizon_s"))
		}
		return ev
	}}
}

// Events of a transfer of the flow engine (its start, its completion and
// the rates' recomputations), 2.7-3.0 on sr-cluster's flow fidelity at
// its defaults, n = 80 and each scheme; and of a segment at packet
// fidelity on the star (two hops and the ACK's: 411,577 events for the
// 4 all-reduces of `syncsim run sr-cluster --set n=8 --set
// fidelity=packet --set model_mb=2 --set duration_s=3 --set
// scheme=allreduce`, 8 workers x 2,398 segments each, 5.4 per segment
// with the computations).
// A background transfer on sr-cluster's racks costs bgPerTransfer at
// flow fidelity (more links to recompute, and more transfers in flight):
// `syncsim run sr-cluster --set fidelity=flow --set topology=racks --set
// bg_load=0.3 --set duration_s=10` fires 2.55 M events for about 500 k
// Hadoop flows.
const (
	flowPerTransfer = 2.9
	bgPerTransfer   = 5
	srPerSegment    = 5
)

// srGroup is the expected size of a synchronisation group: n for all
// reduce, p for partial reduce, and 1.17 p (at least p + 1) for selective
// reduce, which launches only when more than p are ready and BPAWR waits
// for more (avg_sync_scale 14, 27.4 and 74.2 at n = 40, 80 and 200 with
// p_frac = 0.3).
func srGroup(scheme string, n, p int) float64 {
	switch scheme {
	case "allreduce":
		return float64(n)
	case "selective-reduce":
		return math.Min(float64(n), math.Max(float64(p+1), 1.17*float64(p)))
	}
	return float64(p)
}

// srMinBandwidth is the expected slowest bandwidth of a group of g,
// bits/s, under the law b = 20 u Gbps, u ~ U[lambda, 1] (Sec. IV-A): for
// groups drawn regardless of bandwidth, the expected minimum of g draws,
// lambda + (1 - lambda)/(g + 1) of 20 Gbps; selective reduce's BAG
// groups workers of like bandwidth, and its syncs run at about
// srSelectiveShare of the law's mean whatever n (avg_sync_time_s 1.64,
// 1.66 and 1.83 s at n = 40, 80 and 200: 4.4-4.8 Gbps of Eq. 2's
// bandwidth for a 500 MB model).
func srMinBandwidth(scheme string, lambda, g float64) float64 {
	if scheme == "selective-reduce" {
		return srSelectiveShare * training.BandwidthLaw{Lambda: lambda}.Mean() * 1e9
	}
	return training.MaxBandwidthGbps * 1e9 * (lambda + (1-lambda)/(g+1))
}

// srSelectiveShare: see srMinBandwidth.
const srSelectiveShare = 0.45

// srSlots is the share of duration / dt_ms selective reduce spends in
// BPAWR's waiting slots.
const srSlots = 0.7

// srClusterCost is sr-cluster's model. A worker's cycle is its mean
// compute (the trace's mean times the workers' mean multiplier; all
// reduce waits for the slowest worker) plus Eq. 2's
// time for a group of the scheme's expected size at its expected slowest
// bandwidth; the workers do n x duration / cycle computations in groups
// of that size.
func srClusterCost() *experiments.Cost {
	return &experiments.Cost{NsPerEvent: srHostNs, Rough: srClusterRough, Events: func(ps experiments.Params) float64 {
		n, p := ps.Int("n"), srP(ps)
		scheme := ps.String("scheme")
		dist, err := srComputeDist(ps)
		if err != nil {
			return math.NaN()
		}
		compute := dist.Mean() * workers.Mean(ps, n)
		if scheme == "allreduce" {
			// The round waits for the slowest worker: the slowest
			// multiplier, and 1.5 times the trace's mean for the longest
			// of n draws.
			slow, _, err := workers.Slowest(ps)
			if err != nil {
				return math.NaN()
			}
			compute = 1.5 * dist.Mean() * slow
		}
		g := srGroup(scheme, n, p)
		cost, err := syncctl.ParseCostModel(ps.String("sync_cost"))
		if err != nil {
			return math.NaN()
		}
		v := ps.Float("model_mb") * 1e6
		sync := cost.Time(int(math.Round(g)), v, srMinBandwidth(scheme, ps.Float("lambda"), g), ps.Float("alpha_ms")/1e3)
		duration := ps.Float("duration_s")
		computations := float64(n) * duration / (compute + sync)
		syncs := computations / g
		ev := computations + syncs
		if scheme == "selective-reduce" {
			// BPAWR's waiting slots: 0.49-0.95 of duration / dt (0.95
			// at the defaults, 0.49 at n = 24, lambda = 0.2).
			ev += srSlots * duration / (ps.Float("dt_ms") / 1e3)
		}
		// With overlap=layer each bucket is a ring all-reduce of its own:
		// as many transfers per group as buckets (the segments stay the
		// model's).
		buckets := 1.0
		if bs, err := layerBuckets(ps, v); err == nil && len(bs) > 1 {
			buckets = float64(len(bs))
			// Each further bucket's end, and the wait for its members'
			// backprop when it is not yet produced.
			ev += 2 * syncs * (buckets - 1)
		}
		switch ps.String("fidelity") {
		case "flow":
			ev += flowPerTransfer * syncs * 2 * (g - 1) * g * buckets
			ev += srBackgroundEvents(ps, duration, true)
		case "packet":
			ev += srPerSegment * syncs * g * math.Ceil(2*(g-1)/g*v/costs.MSS)
			ev += srBackgroundEvents(ps, duration, false)
		}
		return ev
	}}
}

// srBackgroundEvents is the events of sr-cluster's background (bg_load > 0):
// bg_hosts_per_rack hosts per rack at 20 Gbps, a transfer each at flow
// fidelity, its delivered segments at packet fidelity (costs.Background).
func srBackgroundEvents(ps experiments.Params, seconds float64, flow bool) float64 {
	load := ps.Float("bg_load")
	if load <= 0 {
		return 0
	}
	cdf, err := background.Workload(ps.String("bg_workload"))
	if err != nil {
		return 0
	}
	senders := ps.Int("racks") * ps.Int("bg_hosts_per_rack")
	rate := srNICGbps * 1e9
	flows, segs := costs.Background(cdf, load, senders, rate, costs.FlowShare(load)*rate, seconds)
	if flow {
		return bgPerTransfer * flows
	}
	return (costs.BGPerSegment+4*costs.BGPerHop)*segs + costs.BGPerFlow*flows
}

// srClusterRough: the model takes the groups' bandwidths at random; with
// bandwidths that change during the run (bw_model other than static) or
// measured ones (a trace), and with learning, whose evaluations it does
// not count, it may miss by more.
func srClusterRough(ps experiments.Params) string {
	if m := ps.String("bw_model"); m == "trace" {
		return "bandwidths from bw_trace_file, which the model does not read"
	}
	if setup.UsesFile(ps) {
		return "the fabric of topology_file (its alpha and background hosts), which the model does not read"
	}
	return ""
}
