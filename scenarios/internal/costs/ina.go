package costs

import (
	"math"

	"syncsim/experiments"
	"syncsim/inagg"
	"syncsim/workloads/background"
)

// The INA pieces of the cost models of ina-basic, ina-motivation,
// ina-testbed, ina-leafspine and mixed-fabric: events per gradient packet
// by protocol, packets per gradient, and how long an iteration takes
// against its bound.

// INAPerPacket is the events one worker's gradient packet costs under the
// asynchronous INA protocols (PA-ATP, StrawAsyn and its variants): its
// hops to the aggregating switch and on to the PS, the result's multicast
// back, the acknowledgements and the protocol's timers. The default
// ina-basic point (`syncsim run ina-basic`: PA-ATP, 2 x 7 MB + 2 x 3 MB of
// gradient in 248 B packets, 80,645 packets, and a 32 Gbps UDP burst of 1
// ms, 2,667 packets of 1500 B) fires 940,583 events: (940,583 - 5 x
// 2,667) / 80,645 = 11.5 per packet.
const INAPerPacket = 11.5

// perPacket is the events one gradient packet costs under protocol. The
// synchronous protocols and BytePS's TCP differ from INAPerPacket; each
// constant is the events of `syncsim run ina-basic --set gradient_a_mb=0.5
// --set gradient_b_mb=0.2 --set udp_gbps=0 --set protocol=P` over its
// packets (5,648 of 248 B; BytePS 960 of 1460 B): ATP 45,218 (8.0),
// SwitchML 39,560 (7.0), BytePS 16,288 (17.0, its segments are
// acknowledged one by one over TCP). A protocol not listed costs
// INAPerPacket.
func PerPacket(protocol string) float64 {
	switch protocol {
	case "atp":
		return 8.0
	case "switchml":
		return 7.0
	case "byteps":
		return 17.0
	}
	return INAPerPacket
}

// UDPPerPacket is the events of one UDP packet across the dumbbell:
// four hops and the source's timer.
const UDPPerPacket = 5

// GradientPackets is the packets a worker sends for mb megabytes of
// gradient (1 MB = 10^6 B) under protocol: 248 B of payload per INA
// packet, 1460 B per BytePS segment (inagg/wire.go).
func GradientPackets(protocol string, mb float64) float64 {
	payload := float64(inagg.INAPayloadBytes)
	if protocol == "byteps" {
		payload = float64(inagg.BytePSPayloadBytes)
	}
	return math.Ceil(mb * 1e6 / payload)
}

// WirePacket is a gradient packet on the wire under protocol, bytes: 248
// B of payload and 62 B of headers for the INA protocols, a 1500 B
// segment for BytePS (inagg/wire.go).
func WirePacket(protocol string) float64 {
	if protocol == "byteps" {
		return 1500
	}
	return float64(inagg.INAPayloadBytes + inagg.INAHeaderBytes)
}

// INASlowdown is how many times the bound's time an iteration takes under
// protocol: window ramps, the asynchrony limit, the synchronous
// protocols' stalls and recovery from losses. Calibrated on ina-testbed
// and ina-leafspine at run_length=quick (seed 1): the testbed's default
// with PA-ATP, ATP and BytePS (est/measured events 0.83, 1.18, 0.69) and
// a 2 x 2 x 8 leaf-spine with jobs=2 workers=4 under each protocol
// (0.67-0.96). The default ina-leafspine point (steady, 8 x 8 x 16,
// 141.5 M events) is estimated at 0.57 of its events: its PA-ATP jobs
// lose 3% of their packets and run longer than this slowdown allows.
func INASlowdown(protocol string) float64 {
	switch protocol {
	case "atp":
		return 6
	case "switchml":
		return 2
	case "byteps":
		return 3
	}
	return 2
}

// RoughLossy is the caveat of the lossy protocols under background: ATP
// and SwitchML jobs that lose packets where background shares their
// links wait out their clients' timeouts (10 ms for SwitchML), so their
// run's length, and the background's events with it, can be several
// times the estimate (docs/performance.md: 50-130x PA-ATP's time at 0.2%
// of each model on the leaf-spine).
func RoughLossy(ps experiments.Params) string {
	p := ps.String("protocol")
	if ps.Float("load") > 0 && (p == "atp" || p == "switchml") {
		return p + " under background loses packets and waits out timeouts; its run may last several times longer"
	}
	return ""
}

// DumbbellHops is a background flow's links on the testbed dumbbell:
// host -> S1 -> a path -> S2 -> host.
const DumbbellHops = 3

// BackgroundEvents is the events of the background of ps (its workload)
// at hostLoad over senders' links of rate bits/s for seconds: the flows
// and delivered segments of Background at BGPerSegment + BGPerHop x hops
// per segment (hops: links per flow on average) and BGPerFlow per flow.
func BackgroundEvents(ps experiments.Params, hostLoad float64, senders int, rate, hops, seconds float64) float64 {
	cdf, err := background.Workload(ps.String("workload"))
	if err != nil || hostLoad <= 0 {
		return 0
	}
	flows, segs := Background(cdf, hostLoad, senders, rate, FlowShare(hostLoad)*rate, seconds)
	return (BGPerSegment+BGPerHop*hops)*segs + BGPerFlow*flows
}

// INANs is the CPU of one event of an INA run: 153 ns on the full-size
// ina-leafspine point (docs/performance.md line 42).
const INANs = 153
