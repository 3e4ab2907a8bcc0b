package ina

import (
	"math"

	"syncsim/experiments"
	"syncsim/inagg"
)

// The cost models --dry-run prints (experiments.Cost) for the INA
// experiments: gradient packets times the events each costs.
// TestCostModels checks them against real runs.

// inaPerPacket is the events one worker's gradient packet costs under the
// asynchronous INA protocols (PA-ATP, StrawAsyn and its variants): its
// hops to the aggregating switch and on to the PS, the result's multicast
// back, the acknowledgements and the protocol's timers. The default
// ina-basic point (`syncsim run ina-basic`: PA-ATP, 2 x 7 MB + 2 x 3 MB of
// gradient in 248 B packets, 80,645 packets, and a 32 Gbps UDP burst of 1
// ms, 2,667 packets of 1500 B) fires 940,583 events: (940,583 - 5 x
// 2,667) / 80,645 = 11.5 per packet.
const inaPerPacket = 11.5

// perPacket is the events one gradient packet costs under protocol. The
// synchronous protocols and BytePS's TCP differ from inaPerPacket; each
// constant is the events of `syncsim run ina-basic --set gradient_a_mb=0.5
// --set gradient_b_mb=0.2 --set udp_gbps=0 --set protocol=P` over its
// packets (5,648 of 248 B; BytePS 960 of 1460 B): ATP 45,218 (8.0),
// SwitchML 39,560 (7.0), BytePS 16,288 (17.0, its segments are
// acknowledged one by one over TCP). A protocol not listed costs
// inaPerPacket.
func perPacket(protocol string) float64 {
	switch protocol {
	case "atp":
		return 8.0
	case "switchml":
		return 7.0
	case "byteps":
		return 17.0
	}
	return inaPerPacket
}

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
		return perPacket(proto)*pkts + udpPerPacket*udp
	}}
}
