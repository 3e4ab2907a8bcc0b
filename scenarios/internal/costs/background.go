// Package costs holds the pieces the experiments' cost models
// (experiments.Cost, printed by --dry-run) share: the packets a background
// generator delivers in a window and the mean hop count of all-to-all
// traffic on a leaf-spine. Each experiment keeps its own calibrated
// constants beside its model.
package costs

import (
	"math"

	"syncsim/workloads/background"
)

// MSS is the payload of a full-size segment (transport.DefaultConfig).
const MSS = 1460

// The background's events: every delivered segment costs BGPerSegment
// plus BGPerHop per link it crosses (its hops and its ACK's), and every
// flow BGPerFlow (its start, its completion, its first window).
// Calibrated with the background experiment's model on three points of a
// 16-host leaf-spine (`syncsim run background --set spines=2 --set
// leaves=2 --set hosts_per_leaf=8 --set duration_ms=2`, 100 Gbps, seed
// 1): Hadoop at load 0.5 (862,213 events), the same on one leaf
// (leaves=1 hosts_per_leaf=16: 699,859, every flow 2 hops) and Cache
// Follower (887,559).
const (
	BGPerSegment = 2.6
	BGPerHop     = 1.4
	BGPerFlow    = 20
)

// segments is how many finer steps each CDF segment is integrated in.
const segments = 64

// Background is what a background generator delivers in a window of
// seconds: flows arrive as a Poisson process of rate lambda =
// load x senders x hostRate / 8 / mean flow size (background.Generator),
// and a flow of size S that arrived at a in [0, T] has delivered
// min(S, r (T - a)) bytes by T, r being its rate (flowRate, bits/s).
// Averaged over a uniform arrival time, a flow delivers S (1 - S / 2rT)
// when S <= rT and rT / 2 otherwise, so heavy tails and short windows
// deliver less than they offer. It returns the flows started and the data
// segments delivered (each flow's last segment rounded up).
func Background(cdf *background.CDF, load float64, senders int, hostRate, flowRate, seconds float64) (flows, segs float64) {
	if load <= 0 || senders <= 0 || seconds <= 0 {
		return 0, 0
	}
	flows = load * float64(senders) * hostRate / 8 / cdf.Mean() * seconds
	reach := flowRate / 8 * seconds // bytes a flow delivers in the whole window
	delivered := func(s float64) float64 {
		if s <= reach {
			return s * (1 - s/(2*reach))
		}
		return reach / 2
	}
	per := 0.0 // mean segments delivered per flow
	pts := cdf.Points()
	for i := 1; i < len(pts); i++ {
		a, b, dp := pts[i-1].Size, pts[i].Size, pts[i].P-pts[i-1].P
		for k := range segments {
			s := a + (b-a)*(float64(k)+0.5)/segments
			per += dp / segments * (delivered(s)/MSS + 0.5)
		}
	}
	if pts[0].P > 0 { // a point mass at the smallest size
		per += pts[0].P * (delivered(pts[0].Size)/MSS + 0.5)
	}
	return flows, flows * per
}

// FlowShare is the fraction of its host's link a background flow moves
// at under host-basis load: the capacity the load leaves, 1 - load, as a
// processor-sharing link serves one flow, and at least a tenth.
func FlowShare(load float64) float64 { return math.Max(0.1, 1-load) }

// Across is the fraction of flows between two distinct uniform hosts of
// a leaf-spine of leaves x hostsPerLeaf that cross the spine (4 links;
// the others cross 2).
func Across(leaves, hostsPerLeaf int) float64 {
	h := float64(leaves * hostsPerLeaf)
	if h <= 1 {
		return 0
	}
	return (h - float64(hostsPerLeaf)) / (h - 1)
}

// Finite reports whether v is a usable count.
func Finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) && v >= 0 }
