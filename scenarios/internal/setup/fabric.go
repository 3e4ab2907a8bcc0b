package setup

import (
	"fmt"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/topologies"
)

// TopologyParam declares the topology parameter with its choices (the
// first is the default); "leafspine" is accepted for "leaf-spine".
func TopologyParam(choices []string, help string) experiments.Param {
	return experiments.EnumParam("topology", choices[0], choices, help).Alias("leafspine", "leaf-spine")
}

// FatTreeParams are the size parameters of topology=fattree; its links
// take host_gbps, fabric_gbps, delay_us, buffer_kb and ecn_k_pkts as a
// leaf-spine does.
func FatTreeParams() []experiments.Param {
	return []experiments.Param{
		experiments.IntParam("k", 8, 2, topologies.MaxFatTreeK,
			"topology=fattree: ports per switch, even (k pods of k/2 edge and k/2 aggregation switches, (k/2)^2 core switches, k^3/4 hosts)").
			OnlyWhen("topology", "fattree"),
		experiments.IntParam("hosts_per_edge", 0, 0, 4096,
			"topology=fattree: hosts under each edge switch (0: k/2, full bisection; more oversubscribes the edge by hosts_per_edge/(k/2))").
			Means("0", "k/2, full bisection").OnlyWhen("topology", "fattree"),
	}
}

// TopologyFileParam declares topology_file.
func TopologyFileParam() experiments.Param {
	return experiments.TextParam("topology_file", "",
		"build the fabric from this file in the HPCC ns-3 topology.txt format (node_num switch_num link_num; the switch ids; "+
			"src dst rate delay error_rate per link) instead of topology and its size parameters: rates and delays from the file, "+
			"buffer_kb and ecn_k_pkts at every port, shortest-path ECMP (empty: none)")
}

// FatTreeFrom reads a fat-tree's parameters: k, hosts_per_edge and the
// leaf-spine's link and queue parameters.
func FatTreeFrom(ps experiments.Params) (topologies.FatTreeConfig, error) {
	lc, err := LeafSpineFrom(ps)
	if err != nil {
		return topologies.FatTreeConfig{}, err
	}
	c := topologies.FatTreeConfig{
		K: ps.Int("k"), HostsPerEdge: ps.Int("hosts_per_edge"),
		HostRate: lc.HostRate, FabricRate: lc.FabricRate, Delay: lc.Delay, Queue: lc.Queue,
	}
	if c.HostsPerEdge == 0 {
		c.HostsPerEdge = c.K / 2
	}
	return c, topologies.CheckFatTreeK(c.K)
}

// UsesFile reports whether the point builds its fabric from a topology
// file.
func UsesFile(ps experiments.Params) bool {
	return ps.Has("topology_file") && ps.Str("topology_file") != ""
}

// Fabric builds the fabric the point names: the topology_file if one is
// set, else topology=leaf-spine (the spines, leaves, hosts_per_leaf
// parameters) or topology=fattree (k, hosts_per_edge), with the host NIC
// parameters applied. It returns the hosts' link rate, which must be one
// rate for every host.
func Fabric(net *netsim.Network, ps experiments.Params) (*topologies.Fabric, netsim.Rate, error) {
	lc, err := LeafSpineFrom(ps)
	if err != nil {
		return nil, 0, err
	}
	var fab *topologies.Fabric
	topo := "leaf-spine"
	if ps.Has("topology") {
		topo = ps.String("topology")
	}
	switch {
	case UsesFile(ps):
		tf, err := topologies.ReadTopologyFile(ps.Str("topology_file"))
		if err != nil {
			return nil, 0, err
		}
		fab, err = topologies.FromFile(net, tf, lc.Queue)
		if err != nil {
			return nil, 0, err
		}
	case topo == "leaf-spine":
		fab, err = topologies.LeafSpine(net, lc)
	case topo == "fattree":
		c, err2 := FatTreeFrom(ps)
		if err2 != nil {
			return nil, 0, err2
		}
		fab, err = topologies.FatTree(net, c)
	default:
		return nil, 0, fmt.Errorf("unknown topology %q", topo)
	}
	if err != nil {
		return nil, 0, err
	}
	rate, err := fab.UniformHostRate()
	if err != nil {
		return nil, 0, err
	}
	if err := ApplyNIC(ps, fab); err != nil {
		return nil, 0, err
	}
	return fab, rate, nil
}

// FabricShape is what a cost model needs of the fabric a point names:
// its hosts, their groups (edge switches), the switch-to-switch
// capacity leaving each group in Gbit/s and the host rate in Gbit/s.
// For a topology file it reads the file (an unreadable file gives an
// error).
type FabricShape struct {
	Hosts, Groups      int
	UplinkGbps, HostGbps float64
}

// ShapeOf returns the FabricShape of the point's leaf-spine, fat-tree or
// topology file.
func ShapeOf(ps experiments.Params) (FabricShape, error) {
	host := ps.Float("host_gbps")
	switch {
	case UsesFile(ps):
		tf, err := topologies.ReadTopologyFile(ps.Str("topology_file"))
		if err != nil {
			return FabricShape{}, err
		}
		var s FabricShape
		edge := map[int]bool{}
		var up float64
		for _, l := range tf.Links {
			switch {
			case !tf.Switch[l.A] || !tf.Switch[l.B]:
				s.Hosts++
				s.HostGbps = l.Rate.Gbps()
				if tf.Switch[l.A] {
					edge[l.A] = true
				} else {
					edge[l.B] = true
				}
			default:
				up += l.Rate.Gbps()
			}
		}
		s.Groups = len(edge)
		if s.Groups > 0 {
			s.UplinkGbps = up / float64(s.Groups)
		}
		return s, nil
	case ps.Has("topology") && ps.String("topology") == "fattree":
		k := ps.Int("k")
		per := ps.Int("hosts_per_edge")
		if per == 0 {
			per = k / 2
		}
		g := k * k / 2
		return FabricShape{Hosts: g * per, Groups: g, UplinkGbps: float64(k/2) * ps.Float("fabric_gbps"), HostGbps: host}, nil
	}
	l := ps.Int("leaves")
	return FabricShape{Hosts: l * ps.Int("hosts_per_leaf"), Groups: l, UplinkGbps: float64(ps.Int("spines")) * ps.Float("fabric_gbps"), HostGbps: host}, nil
}

// ValidateFabric refuses, before any run, a fat-tree arity no fat-tree
// has and a topology file that does not read.
func ValidateFabric(ps experiments.Params) error {
	if UsesFile(ps) {
		_, err := topologies.ReadTopologyFile(ps.Str("topology_file"))
		return err
	}
	if ps.Has("topology") && ps.String("topology") == "fattree" {
		return topologies.CheckFatTreeK(ps.Int("k"))
	}
	return nil
}

// ValidateWindowAndFabric is ValidateWindow and ValidateFabric.
func ValidateWindowAndFabric(ps experiments.Params) error {
	if err := ValidateWindow(ps); err != nil {
		return err
	}
	return ValidateFabric(ps)
}
