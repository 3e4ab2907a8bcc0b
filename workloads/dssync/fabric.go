package dssync

import (
	"fmt"

	"syncsim/netsim"
	"syncsim/switchmodel"
	"syncsim/topologies"
)

// pathCables is Config.PathCables with its default: four cables between
// racks (host, ToR, spine, ToR, host).
func (c *Config) pathCables() int {
	if c.PathCables > 0 {
		return c.PathCables
	}
	return 4
}

// hostAt is the host of placement index i: host i mod HostsPerRack of
// group (rack) i / HostsPerRack. On BuildRacks' racks, which have
// HostsPerRack hosts each, it is the i-th host.
func (r *run) hostAt(i int) netsim.NodeID {
	h := r.place.HostsPerRack
	return r.fab.HostsOf(i / h)[i%h].ID()
}

// customFabric builds Config.Fabric's network, checks that the placement
// fits its host groups (Placement.Fits) and that its hosts' cables run
// at LinkRate, and returns each rack's uplink capacity (EdgeUplinks).
func (r *run) customFabric(q switchmodel.QueueConfig) (*topologies.Fabric, []netsim.Rate, error) {
	f, err := r.cfg.Fabric(r.net, q)
	if err != nil {
		return nil, nil, err
	}
	sizes := make([]int, f.Groups())
	for g := range sizes {
		sizes[g] = len(f.HostsOf(g))
	}
	if err := r.place.Fits(sizes, r.cfg.Scheme == "asp"); err != nil {
		return nil, nil, err
	}
	rate, err := f.UniformHostRate()
	if err != nil {
		return nil, nil, err
	}
	if rate != r.cfg.LinkRate {
		return nil, nil, fmt.Errorf("%s: hosts attach at %v, the run's link rate is %v", f.Kind, rate, r.cfg.LinkRate)
	}
	return f, EdgeUplinks(f, len(r.cfg.Layout)), nil
}

// EdgeUplinks is the capacity from each of the first racks edge switches
// of f (host group g's, Edge[g]) to the switches above it: the sum of the
// rates of its cables to other switches (k/2 cables on a fat-tree).
func EdgeUplinks(f *topologies.Fabric, racks int) []netsim.Rate {
	up := make([]netsim.Rate, racks)
	for g := range up {
		for _, p := range f.Edge[g].Base().Ports {
			if _, host := f.Net.Node(p.Link.To).(*netsim.Host); !host {
				up[g] += p.Link.Rate
			}
		}
	}
	return up
}

// Fits checks that every host the placement uses exists on a fabric
// whose host group g has sizes[g] hosts: the workers, the background
// task's two hosts and, with ps (ASP), the parameter server. Placement
// index i is host i mod HostsPerRack of group i / HostsPerRack.
func (p Placement) Fits(sizes []int, ps bool) error {
	need := map[int]int{} // group -> hosts it needs
	use := func(i int) {
		g := i / p.HostsPerRack
		need[g] = max(need[g], i%p.HostsPerRack+1)
	}
	for _, i := range p.Worker {
		use(i)
	}
	for _, i := range p.Background {
		use(i)
	}
	if ps {
		use(p.PS)
	}
	groups := 0
	for g := range need {
		groups = max(groups, g+1)
	}
	if groups > len(sizes) {
		return fmt.Errorf("the layout has %d racks and the fabric %d edge switches", groups, len(sizes))
	}
	for g := range groups {
		if need[g] > sizes[g] {
			return fmt.Errorf("rack %d needs %d hosts under its edge switch (its workers%s), and edge switch %d has %d",
				g, need[g], p.what(g, ps), g, sizes[g])
		}
	}
	return nil
}

// what says which spare hosts rack g uses besides its workers.
func (p Placement) what(g int, ps bool) string {
	s := ""
	for _, i := range p.Background {
		if i/p.HostsPerRack == g && !p.isWorker(i) {
			s = ", a background host"
		}
	}
	if ps && p.PS/p.HostsPerRack == g {
		s += ", the parameter server"
	}
	return s
}

// isWorker reports whether host index i runs a worker.
func (p Placement) isWorker(i int) bool {
	for _, w := range p.Worker {
		if w == i {
			return true
		}
	}
	return false
}
