package ina

import (
	"math"

	"syncsim/experiments"
	"syncsim/inagg"
)

// The cost models --dry-run prints (experiments.Cost) for the INA
// experiments: gradient packets times the events each costs.
// TestCostModels checks them against real runs.

// inaPerPacket is the events one worker's gradient packet costs: its hops
// to the aggregating switch and on to the PS, the result's multicast back,
// the acknowledgements and the protocol's timers. The default ina-basic
// point (`syncsim run ina-basic`: PA-ATP, 2 x 7 MB + 2 x 3 MB of gradient
// in 248 B packets, 80,645 packets, and a 32 Gbps UDP burst of 1 ms, 2,667
// packets of 1500 B) fires 940,583 events: (940,583 - 5 x 2,667) / 80,645
// = 11.5 per packet. ATP and SwitchML fire 0.65-0.75x as many, BytePS's
// 1460 B segments fewer per byte, inside the factor of 2 the model
// promises (TestCostModels).
const inaPerPacket = 11.5

// udpPerPacket is the events of one UDP packet across the dumbbell:
// four hops and the source's timer.
const udpPerPacket = 5

// inaNs is the CPU of one event of an INA run: 153 ns on the full-size
// ina-leafspine point (docs/performance.md line 42).
const inaNs = 153

// gradientPackets is the packets a worker sends for mb megabytes of
// gradient (1 MB = 10^6 B) under protocol: 248 B of payload per INA
// packet, 1460 B per BytePS segment (inagg/wire.go).
func gradientPackets(protocol string, mb float64) float64 {
	payload := float64(inagg.INAPayloadBytes)
	if protocol == "byteps" {
		payload = float64(inagg.BytePSPayloadBytes)
	}
	return math.Ceil(mb * 1e6 / payload)
}

// basicCost is ina-basic's model: two workers per job send their gradient
// every iteration, and the UDP burst crosses the dumbbell.
func basicCost() *experiments.Cost {
	return &experiments.Cost{NsPerEvent: inaNs, Events: func(ps experiments.Params) float64 {
		proto := ps.String("protocol")
		grad := gradientPackets(proto, ps.Float("gradient_a_mb")) + gradientPackets(proto, ps.Float("gradient_b_mb"))
		pkts := 2 * grad * float64(ps.Int("iterations"))
		udp := ps.Float("udp_gbps") * 1e9 * ps.Float("udp_ms") * 1e-3 / (8 * 1500)
		return inaPerPacket*pkts + udpPerPacket*udp
	}}
}
