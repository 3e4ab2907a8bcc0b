package network

import (
	"math"

	"syncsim/experiments"
	"syncsim/scenarios/internal/costs"
	"syncsim/scenarios/internal/setup"
	"syncsim/workloads/background"
)

// The cost models --dry-run prints (experiments.Cost): packets times the
// events each costs, calibrated on the reference runs of
// docs/performance.md at b0fed2c (its note of 2026-11-29, lines 8-24),
// which count the events of today's transport (host NIC backpressure,
// DCTCP's CWR hold). TestCostModels checks them against real runs.

// wireBytes is a full-size segment on the wire: transport's default MSS
// of 1460 B and 40 B of headers (transport/config.go, DefaultConfig).
const wireBytes = 1500

// linePackets is how many full-size segments a link of gbps carries in
// ms of simulated time.
func linePackets(gbps, ms float64) float64 { return gbps * 1e9 * ms * 1e-3 / (8 * wireBytes) }

// flowPackets is the data segments of a flow of kb kilobytes (1 KB =
// 1000 B).
func flowPackets(kb float64) float64 { return math.Ceil(kb * 1000 / (wireBytes - 40)) }

// Incast's model: the bottleneck port is busy all along (R1's utilisation
// is 0.97), so a run delivers the port's line-rate segments, or the
// one-shot flows' segments when fewer, each costing incastPerPacket events
// (its hops, its ACK's hops and the senders' timers); the queue sampler
// adds one event per sample_us. R1 (`syncsim run incast --set
// duration_ms=1000`: 10 Gbps for 1 s, 833,333 line-rate segments, 100,000
// samples) fires 4.33 M events (docs/performance.md line 11):
// (4.33 M - 0.1 M) / 833,333 = 5.1 per segment, at 92 ns of CPU per event
// on the loaded machine (line 16; 70 ns quiet, line 37).
const (
	incastPerPacket = 5.1
	incastNs        = 92
)

func incastCost() *experiments.Cost {
	return &experiments.Cost{NsPerEvent: incastNs, Events: func(ps experiments.Params) float64 {
		ms := ps.Float("duration_ms")
		pkts := linePackets(ps.Float("link_gbps"), ms)
		if kb := ps.Float("flow_kb"); kb > 0 {
			pkts = math.Min(pkts, float64(ps.Int("senders"))*flowPackets(kb))
		}
		samples := 0.0
		if us := ps.Float("sample_us"); us > 0 {
			samples = ms * 1e3 / us
		}
		return incastPerPacket*pkts + samples
	}}
}

// Permutation's model: every host sends at most host_gbps, and of those
// line-rate segments the leaf-spine's ECMP collisions let through
// permDelivered; each delivered segment costs permPerPacket events (four
// hops, its ACK's four, the timers). R2 at b0fed2c (`syncsim run
// permutation`: 128 hosts at 100 Gbps for 10 ms, 10.67 M line-rate
// segments) delivers 4.51 M segments in 49.9 M events
// (docs/performance.md lines 11-12): 0.42 delivered, 11.1 events per
// segment; the 128-host permutation costs 124 ns of CPU per event (line
// 20). Fixed-size flows deliver their segments when fewer. The star and
// the dumbbell fire 0.7-1.4x the leaf-spine's events per host (measured
// on 8 hosts), inside the factor of 2 the model promises.
const (
	permDelivered = 0.42
	permPerPacket = 11.1
	permNs        = 124
)

func permutationCost() *experiments.Cost {
	return &experiments.Cost{NsPerEvent: permNs, Events: func(ps experiments.Params) float64 {
		hosts := float64(ps.Int("leaves") * ps.Int("hosts_per_leaf"))
		gbps := ps.Float("host_gbps")
		switch topo := ps.String("topology"); {
		case topo == "dumbbell" && !setup.UsesFile(ps):
			hosts = float64(2 * ps.Int("hosts_per_leaf"))
		case topo == "fattree" || setup.UsesFile(ps):
			// A fat-tree's paths have six cables, not four: 1.5x the
			// leaf-spine's hops per segment, an estimate not yet
			// calibrated.
			s, err := setup.ShapeOf(ps)
			if err != nil {
				return math.NaN()
			}
			return 1.5 * permPerPacket * permFixed(ps, permDelivered*float64(s.Hosts)*linePackets(s.HostGbps, ps.Float("duration_ms")), float64(s.Hosts))
		}
		pkts := permDelivered * hosts * linePackets(gbps, ps.Float("duration_ms"))
		return permPerPacket * permFixed(ps, pkts, hosts)
	}}
}

// permFixed caps a permutation's delivered segments pkts at what its
// hosts' fixed-size flows hold.
func permFixed(ps experiments.Params, pkts, hosts float64) float64 {
	if kb := ps.Float("flow_kb"); kb > 0 {
		pkts = math.Min(pkts, hosts*flowPackets(kb))
	}
	return pkts
}

// Background's model: flows arrive at the generator's rate for
// duration_ms and each delivers what its share of a host link carries by
// the end (costs.Background); every delivered segment costs
// costs.BGPerSegment events plus costs.BGPerHop per link it crosses, and
// every flow costs.BGPerFlow; the segments that cross the spine are at
// most what the leaves' uplinks carry. bgNs is the CPU of one event of
// the 16-host calibration points (93-112 ns on the loaded machine).
const bgNs = 95

func backgroundCost() *experiments.Cost {
	return &experiments.Cost{NsPerEvent: bgNs, Events: func(ps experiments.Params) float64 {
		cdf, err := background.Workload(ps.String("workload"))
		if err != nil {
			return math.NaN()
		}
		s, err := setup.ShapeOf(ps)
		if err != nil || s.Groups == 0 {
			return math.NaN()
		}
		leaves, hpl := s.Groups, s.Hosts/s.Groups
		rate := s.HostGbps * 1e9
		load := ps.Float("load")
		flows, segs := costs.Background(cdf, load, leaves*hpl, rate, costs.FlowShare(load)*rate, ps.Float("duration_ms")*1e-3)
		// Segments across the spine are at most what the leaves' uplinks
		// carry in the window (an oversubscribed fabric).
		across := costs.Across(leaves, hpl) * segs
		upSegs := float64(leaves) * s.UplinkGbps * 1e9 * ps.Float("duration_ms") * 1e-3 / (8 * wireBytes)
		local := segs - across
		across = math.Min(across, upSegs)
		return (costs.BGPerSegment+2*costs.BGPerHop)*local + (costs.BGPerSegment+4*costs.BGPerHop)*across + costs.BGPerFlow*flows
	}}
}
