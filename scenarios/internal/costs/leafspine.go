package costs

import (
	"math"

	"syncsim/netsim"
	"syncsim/scenarios/internal/inarig"
)

// LeafSpineLoads is the background's host-basis load and the busiest
// tier's utilisation on a leaf-spine of spines x leaves x hostsPerLeaf
// (host links of hostRate, leaf-spine links of fabricRate, bits/s) with
// senders background hosts spread evenly over the leaves, for load on
// basis (inarig.HostLoad, as the runs resolve load_basis); NaN where the
// run would refuse the load.
func LeafSpineLoads(load float64, basis string, spines, leaves, hostsPerLeaf, senders int, hostRate, fabricRate float64) (host, fabric float64) {
	if load <= 0 || senders == 0 {
		return 0, 0
	}
	per := min(hostsPerLeaf, (senders+leaves-1)/leaves)
	groups := make([]inarig.GroupTraffic, leaves)
	for i := range groups {
		groups[i] = inarig.GroupTraffic{Senders: per, Dsts: per, Both: per, Uplink: netsim.Rate(float64(spines) * fabricRate)}
	}
	tiers := inarig.Tiers(groups, netsim.Rate(hostRate))
	host, err := inarig.HostLoad(load, basis, tiers)
	if err != nil {
		return math.NaN(), math.NaN()
	}
	_, busiest := tiers.Busiest()
	return host, math.Min(1, host*busiest)
}
