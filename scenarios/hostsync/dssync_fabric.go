package hostsync

import (
	"fmt"
	"math"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/scenarios/internal/setup"
	"syncsim/switchmodel"
	"syncsim/topologies"
	"syncsim/workloads/dssync"
)

// dssync's fabrics besides DS-Sync's own racks behind one spine
// (dssync.BuildRacks): a k-ary fat-tree (topology=fattree, k,
// hosts_per_edge) and a topology file (topology_file). On both the racks
// of the layout are the edge switches in their host-group order (a
// fat-tree's pod-major edge switches, a file's edge switches by id): rack
// r's workers take the first hosts of edge switch r, then its spare hosts
// the background task and ASP's server use, as on the racks fabric
// (dssync.Placement). So the paper's two racks are two edge switches of
// one pod on a fat-tree of k >= 4, their traffic turning at the pod's
// aggregation switches.

// dssyncFabric sets cfg's fabric from the point's topology parameters:
// nothing for topology=racks; for a fat-tree every host cable at
// link_gbps, every switch-to-switch cable at link_gbps / oversubscription,
// every cable delay_us; for a file its rates and delays (link_gbps,
// delay_us and oversubscription unused; one host rate). It reads the
// file, so a file that does not read is refused here.
func dssyncFabric(ps experiments.Params, cfg *dssync.Config) error {
	switch {
	case setup.UsesFile(ps):
		path := ps.Str("topology_file")
		tf, err := topologies.ReadTopologyFile(path)
		if err != nil {
			return err
		}
		rate := tf.HostRate()
		var delay netsim.Time
		for _, l := range tf.Links {
			if (!tf.Switch[l.A] || !tf.Switch[l.B]) && l.Rate != rate {
				return fmt.Errorf("topology_file %s:%d: a host cable at %v, another at %v; dssync needs one host rate", path, l.Line, l.Rate, rate)
			}
			delay = max(delay, l.Delay)
		}
		cfg.LinkRate, cfg.Delay, cfg.PathCables = rate, delay, 2*tf.TopTier()
		cfg.Fabric = func(net *netsim.Network, q switchmodel.QueueConfig) (*topologies.Fabric, error) {
			return topologies.FromFile(net, tf, q)
		}
	case ps.String("topology") == "fattree":
		c, err := dssyncFatTree(ps, *cfg)
		if err != nil {
			return err
		}
		cfg.PathCables = 6
		cfg.Fabric = func(net *netsim.Network, q switchmodel.QueueConfig) (*topologies.Fabric, error) {
			c.Queue = q
			return topologies.FatTree(net, c)
		}
	}
	return nil
}

// dssyncFatTree is the fat-tree of the point (without its queues).
func dssyncFatTree(ps experiments.Params, cfg dssync.Config) (topologies.FatTreeConfig, error) {
	if !(cfg.Oversub > 0) {
		return topologies.FatTreeConfig{}, fmt.Errorf("oversubscription %g must be positive", cfg.Oversub)
	}
	c := topologies.FatTreeConfig{K: ps.Int("k"), HostsPerEdge: ps.Int("hosts_per_edge"), HostRate: cfg.LinkRate,
		FabricRate: netsim.Rate(math.Round(float64(cfg.LinkRate) / cfg.Oversub)), Delay: cfg.Delay}
	if c.HostsPerEdge == 0 {
		c.HostsPerEdge = c.K / 2
	}
	return c, topologies.CheckFatTreeK(c.K)
}

// dssyncGroupSizes is the hosts under each edge switch of the point's
// fat-tree or topology file (nil for topology=racks, which is built to
// fit the layout).
func dssyncGroupSizes(ps experiments.Params, cfg dssync.Config) ([]int, error) {
	switch {
	case setup.UsesFile(ps):
		tf, err := topologies.ReadTopologyFile(ps.Str("topology_file"))
		if err != nil {
			return nil, err
		}
		return tf.GroupSizes(), nil
	case ps.String("topology") == "fattree":
		c, err := dssyncFatTree(ps, cfg)
		if err != nil {
			return nil, err
		}
		if hosts := int64(c.K) * int64(c.K/2) * int64(c.HostsPerEdge); hosts > topologies.MaxNodes {
			return nil, fmt.Errorf("fat-tree: k = %d with %d hosts per edge switch makes %d hosts, above the limit of %d nodes",
				c.K, c.HostsPerEdge, hosts, topologies.MaxNodes)
		}
		sizes := make([]int, c.K*c.K/2)
		for g := range sizes {
			sizes[g] = c.HostsPerEdge
		}
		return sizes, nil
	}
	return nil, nil
}

// checkDSSyncFabric refuses, before any run, a layout the point's
// fat-tree or topology file cannot hold (dssync.Placement.Fits).
func checkDSSyncFabric(ps experiments.Params, cfg dssync.Config, layout dssync.Layout) error {
	sizes, err := dssyncGroupSizes(ps, cfg)
	if err != nil || sizes == nil {
		return err
	}
	p, err := dssync.Place(cfg.Scenario, layout, cfg.Delayed)
	if err != nil {
		return err
	}
	if err := p.Fits(sizes, cfg.Scheme == "asp"); err != nil {
		if setup.UsesFile(ps) {
			return fmt.Errorf("topology_file %s: %w", ps.Str("topology_file"), err)
		}
		return fmt.Errorf("topology=fattree k=%d: %w (hosts_per_edge sets the hosts under each edge switch, 0: k/2)", ps.Int("k"), err)
	}
	return nil
}
