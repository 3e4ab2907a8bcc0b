package ina

import (
	"math"

	"syncsim/experiments"
	"syncsim/scenarios/internal/costs"
)

// The cost models --dry-run prints (experiments.Cost) for the INA
// experiments: gradient packets times the events each costs.
// TestCostModels checks them against real runs.

// basicCost is ina-basic's model: two workers per job send their gradient
// every iteration, and the UDP burst crosses the dumbbell.
func basicCost() *experiments.Cost {
	return &experiments.Cost{NsPerEvent: costs.INANs, Events: func(ps experiments.Params) float64 {
		proto := ps.String("protocol")
		grad := costs.GradientPackets(proto, ps.Float("gradient_a_mb")) + costs.GradientPackets(proto, ps.Float("gradient_b_mb"))
		pkts := 2 * grad * float64(ps.Int("iterations"))
		udp := ps.Float("udp_gbps") * 1e9 * ps.Float("udp_ms") * 1e-3 / (8 * 1500)
		return costs.PerPacket(proto)*pkts + costs.UDPPerPacket*udp
	}}
}

// modelPerPacket is the events of one gradient packet in ina-model: a
// star, so two hops to the switch, the result's two back, the GACK and
// the protocol's timers. The default point (`syncsim run ina-model`: 4
// jobs x 2 workers x 4 MB, 129,032 packets of 248 B) fires 525,541
// events: 4.07 per packet. With aggregators scarce (aggregators=256)
// more gradients overflow to the PS and the same packets cost 6.5.
const modelPerPacket = 4.1

// modelCost is ina-model's model: every worker of every job sends its
// gradient once (one iteration).
func modelCost() *experiments.Cost {
	return &experiments.Cost{NsPerEvent: costs.INANs, Events: func(ps experiments.Params) float64 {
		pkts := costs.GradientPackets("pa-atp", ps.Float("gradient_mb"))
		return modelPerPacket * float64(ps.Int("jobs")*ps.Int("workers")) * pkts
	}}
}

// motivationPerPacket is the events of one gradient packet on
// ina-motivation's dumbbell (five hops to the PS and back, as
// ina-basic's): the default point (`syncsim run ina-motivation`,
// sync-vs-async, StrawAsyn: 3 workers x 3.75 MB, 45,363 packets, and a
// UDP flow of 30 Gbps for 1 ms, 2,500 packets) fires 449,332 events:
// (449,332 - 5 x 2,500) / 45,363 = 9.6 per packet.
const motivationPerPacket = 9.6

// motivationCost is ina-motivation's model, scaled by protocol as
// ina-basic's (costs.PerPacket over costs.INAPerPacket). sync-vs-async: three workers
// send 0.75 data units each, once, beside a UDP flow at 3/4 of a link for
// one time unit. progress and async-limit: the jobs' four workers send
// gradient_units each, but no faster than the paths carry them for
// duration_ms, beside the UDP flow (bg_frac of one path) that runs all
// along: in progress the three paths less the UDP flow's share; in
// async-limit every aggregate goes to one PS, and each is two workers'
// packets, job 2's bound by its two workers sharing a path (half a link
// each) and job 1's by its worker behind the UDP flow (1 - bg_frac), so
// 2 x (1.5 - bg_frac) links of gradient.
func motivationCost() *experiments.Cost {
	return &experiments.Cost{NsPerEvent: costs.INANs, Events: func(ps experiments.Params) float64 {
		proto := ps.String("protocol")
		per := motivationPerPacket * costs.PerPacket(proto) / costs.INAPerPacket
		gbps, unit := ps.Float("link_gbps"), ps.Float("unit_ms")
		unitMB := gbps * 1e9 / 8 * unit * 1e-3 / 1e6
		if ps.String("example") == exSyncAsync {
			udp := 0.75 * gbps * 1e9 * unit * 1e-3 / (8 * 1500)
			return per*3*costs.GradientPackets(proto, 0.75*unitMB) + costs.UDPPerPacket*udp
		}
		ms, frac := ps.Float("duration_ms"), ps.Float("bg_frac")
		links := 3 - frac
		if ps.String("example") == exAsyncLimit {
			links = 2 * (1.5 - frac)
		}
		carried := links * gbps * 1e9 * ms * 1e-3 / (8 * costs.WirePacket(proto))
		pkts := math.Min(4*costs.GradientPackets(proto, ps.Float("gradient_units")*unitMB), carried)
		udp := frac * gbps * 1e9 * ms * 1e-3 / (8 * 1500)
		return per*pkts + costs.UDPPerPacket*udp
	}}
}
