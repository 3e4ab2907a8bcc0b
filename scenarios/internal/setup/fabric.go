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
	fab, lc, err := FabricWith(net, ps, lc)
	if err != nil {
		return nil, 0, err
	}
	return fab, lc.HostRate, nil
}

// FabricWith is Fabric with the links and queues of lc (its sizes are
// the leaf-spine's): the fat-tree takes lc's rates, delay and queue, a
// topology file lc's queue. It returns lc with HostRate the hosts' rate
// (a file's), and with a file FabricRate the slowest switch-to-switch
// link's and Delay the longest link's.
func FabricWith(net *netsim.Network, ps experiments.Params, lc topologies.LeafSpineConfig) (*topologies.Fabric, topologies.LeafSpineConfig, error) {
	var fab *topologies.Fabric
	var err error
	topo := "leaf-spine"
	if ps.Has("topology") {
		topo = ps.String("topology")
	}
	switch {
	case UsesFile(ps):
		tf, err := topologies.ReadTopologyFile(ps.Str("topology_file"))
		if err != nil {
			return nil, lc, err
		}
		if fab, err = topologies.FromFile(net, tf, lc.Queue); err != nil {
			return nil, lc, err
		}
		lc.FabricRate, lc.Delay = 0, 0
		for _, l := range tf.Links {
			if tf.Switch[l.A] && tf.Switch[l.B] && (lc.FabricRate == 0 || l.Rate < lc.FabricRate) {
				lc.FabricRate = l.Rate
			}
			lc.Delay = max(lc.Delay, l.Delay)
		}
	case topo == "leaf-spine":
		fab, err = topologies.LeafSpine(net, lc)
	case topo == "fattree":
		c := topologies.FatTreeConfig{K: ps.Int("k"), HostsPerEdge: ps.Int("hosts_per_edge"),
			HostRate: lc.HostRate, FabricRate: lc.FabricRate, Delay: lc.Delay, Queue: lc.Queue}
		if c.HostsPerEdge == 0 {
			c.HostsPerEdge = c.K / 2
		}
		fab, err = topologies.FatTree(net, c)
	default:
		return nil, lc, fmt.Errorf("unknown topology %q", topo)
	}
	if err != nil {
		return nil, lc, err
	}
	if lc.HostRate, err = fab.UniformHostRate(); err != nil {
		return nil, lc, err
	}
	if lc.FabricRate == 0 {
		lc.FabricRate = lc.HostRate
	}
	if err := ApplyNIC(ps, fab); err != nil {
		return nil, lc, err
	}
	return fab, lc, nil
}

// FabricShape is what a cost model needs of the fabric a point names:
// its hosts, their groups (edge switches), the mean capacity from an
// edge switch to the switches above it in Gbit/s and the host rate in
// Gbit/s.
// For a topology file it reads the file (an unreadable file gives an
// error).
type FabricShape struct {
	Hosts, Groups        int
	UplinkGbps, HostGbps float64
}

// ShapeOf returns the FabricShape of the point's leaf-spine, fat-tree or
// topology file.
func ShapeOf(ps experiments.Params) (FabricShape, error) {
	host, fabric := gbps(ps, "host_gbps"), gbps(ps, "fabric_gbps")
	switch {
	case UsesFile(ps):
		tf, err := topologies.ReadTopologyFile(ps.Str("topology_file"))
		if err != nil {
			return FabricShape{}, err
		}
		var s FabricShape
		edge := map[int]bool{}
		for _, l := range tf.Links {
			if !tf.Switch[l.A] || !tf.Switch[l.B] {
				s.Hosts++
				s.HostGbps = l.Rate.Gbps()
				edge[l.A], edge[l.B] = tf.Switch[l.A], tf.Switch[l.B]
			}
		}
		var up float64
		for _, l := range tf.Links {
			if tf.Switch[l.A] && tf.Switch[l.B] && edge[l.A] != edge[l.B] {
				up += l.Rate.Gbps()
			}
		}
		for id, e := range edge {
			if !e {
				delete(edge, id)
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
		return FabricShape{Hosts: g * per, Groups: g, UplinkGbps: float64(k/2) * fabric, HostGbps: host}, nil
	}
	l := ps.Int("leaves")
	return FabricShape{Hosts: l * ps.Int("hosts_per_leaf"), Groups: l, UplinkGbps: float64(ps.Int("spines")) * fabric, HostGbps: host}, nil
}

// ValidateFabric refuses, before any run, a fat-tree arity no fat-tree
// has and a topology file that does not read.
func ValidateFabric(ps experiments.Params) error {
	if UsesFile(ps) {
		_, err := topologies.ReadTopologyFile(ps.Str("topology_file"))
		return err
	}
	if !ps.Has("topology") || ps.String("topology") != "fattree" {
		return nil
	}
	k := ps.Int("k")
	if err := topologies.CheckFatTreeK(k); err != nil {
		return err
	}
	if ps.Has("hosts_per_edge") {
		per := ps.Int("hosts_per_edge")
		if per == 0 {
			per = k / 2
		}
		if hosts := int64(k) * int64(k/2) * int64(per); hosts > topologies.MaxNodes {
			return fmt.Errorf("fat-tree: k = %d with %d hosts per edge switch makes %d hosts, above the limit of %d nodes",
				k, per, hosts, topologies.MaxNodes)
		}
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

// gbps is the rate parameter name, or link_gbps in experiments with one
// rate for every cable.
func gbps(ps experiments.Params, name string) float64 {
	if ps.Has(name) {
		return ps.Float(name)
	}
	return ps.Float("link_gbps")
}
