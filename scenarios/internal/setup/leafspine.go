package setup

import (
	"math"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/switchmodel"
	"syncsim/topologies"
)

// LeafSpineFrom reads the fabric parameters shared by leaf-spine experiments.
func LeafSpineFrom(ps experiments.Params) (topologies.LeafSpineConfig, error) {
	c := topologies.LeafSpineConfig{
		Spines:       ps.Int("spines"),
		Leaves:       ps.Int("leaves"),
		HostsPerLeaf: ps.Int("hosts_per_leaf"),
		HostRate:     netsim.Rate(ps.Float("host_gbps") * float64(netsim.Gbps)),
		FabricRate:   netsim.Rate(ps.Float("fabric_gbps") * float64(netsim.Gbps)),
		Delay:        netsim.FromMicros(ps.Float("delay_us")),
		Queue: switchmodel.QueueConfig{
			Buffer:     netsim.Bytes(math.Round(ps.Float("buffer_kb") * 1000)),
			ECNPackets: ps.Int("ecn_k_pkts"),
		},
	}
	return c, c.Queue.Validate()
}

// UnloadedLatency is the time from the first bit leaving src to the last
// bit of a packet of seg bytes reaching dst on an empty network, minus the
// packet's serialisation at the source: propagation on every link plus one
// store-and-forward serialisation per switch. Callers pass the smallest
// packet a flow can send, so no flow beats its ideal (a full segment would
// make one-packet flows look faster than ideal); for multi-segment flows
// this understates the ideal by under a segment time per switch.
func UnloadedLatency(net *netsim.Network, seg netsim.Bytes) func(src, dst netsim.NodeID) netsim.Time {
	return func(src, dst netsim.NodeID) netsim.Time {
		path, err := net.Path(src, dst, 0)
		if err != nil {
			return 0
		}
		var t netsim.Time
		for i, id := range path {
			l := net.Link(id)
			t += l.Delay
			if i > 0 {
				t += netsim.TxTime(seg, l.Rate)
			}
		}
		return t
	}
}
