package topologies

import (
	"math"
	"testing"

	"syncsim/netsim"
)

// countPaths is the number of distinct shortest paths from node u to dst
// that the routing tables allow, by walking the ECMP sets (a DAG, since
// every hop is one step closer to dst).
func countPaths(net *netsim.Network, u, dst netsim.NodeID, memo map[netsim.NodeID]int) int {
	if u == dst {
		return 1
	}
	if n, ok := memo[u]; ok {
		return n
	}
	ports := net.Node(u).Base().Ports
	var n int
	if hops := net.Routes().NextHops(u, dst); len(ports) == 1 {
		n = countPaths(net, ports[0].Link.To, dst, memo)
	} else {
		for _, p := range hops {
			n += countPaths(net, ports[p].Link.To, dst, memo)
		}
	}
	memo[u] = n
	return n
}

func buildFatTree(t *testing.T, k, perEdge int) (*netsim.Network, *Fabric) {
	t.Helper()
	net := newNet(3)
	c := DefaultFatTree()
	c.K, c.HostsPerEdge = k, perEdge
	f, err := FatTree(net, c)
	if err != nil {
		t.Fatal(err)
	}
	return net, f
}

// TestFatTreePaths counts the equal-cost paths between hosts (Al-Fares et
// al. 2008, Sec. 3.2): one under the same edge switch (2 cables), k/2 in
// the same pod (one per aggregation switch, 4 cables) and (k/2)^2 across
// pods (one per core switch, 6 cables), with and without edge
// oversubscription, and checks the tiers' sizes and wiring.
func TestFatTreePaths(t *testing.T) {
	for _, tc := range []struct{ k, perEdge int }{{2, 1}, {4, 2}, {4, 6}, {8, 4}, {8, 12}} {
		net, f := buildFatTree(t, tc.k, tc.perEdge)
		h := tc.k / 2
		if len(f.Edge) != tc.k*h || len(f.Agg) != tc.k*h || len(f.Core) != h*h || len(f.Hosts) != tc.k*h*tc.perEdge {
			t.Fatalf("k=%d: %d edge %d agg %d core %d hosts", tc.k, len(f.Edge), len(f.Agg), len(f.Core), len(f.Hosts))
		}
		// Every switch has k ports (edge: k/2 up plus its hosts).
		for _, sw := range f.Agg {
			if len(sw.Ports) != tc.k {
				t.Fatalf("k=%d: %s has %d ports", tc.k, sw.Name(), len(sw.Ports))
			}
		}
		for _, sw := range f.Core {
			if len(sw.Ports) != tc.k {
				t.Fatalf("k=%d: %s has %d ports", tc.k, sw.Name(), len(sw.Ports))
			}
		}
		for _, sw := range f.Edge {
			if len(sw.Ports) != h+tc.perEdge {
				t.Fatalf("k=%d: %s has %d ports", tc.k, sw.Name(), len(sw.Ports))
			}
		}
		src := f.Hosts[0]
		for _, dst := range f.Hosts[1:] {
			gs, gd := f.GroupOf(src.ID()), f.GroupOf(dst.ID())
			want, links := h*h, 6
			switch {
			case gs == gd:
				want, links = 1, 2
			case f.Pod(gs) == f.Pod(gd):
				want, links = h, 4
			}
			if got := countPaths(net, src.ID(), dst.ID(), map[netsim.NodeID]int{}); got != want {
				t.Fatalf("k=%d %d per edge: %s -> %s (groups %d, %d): %d paths, want %d", tc.k, tc.perEdge, src.Name(), dst.Name(), gs, gd, got, want)
			}
			if got := pathLen(t, net, src.ID(), dst.ID()); got != links {
				t.Fatalf("k=%d: %s -> %s crosses %d cables, want %d", tc.k, src.Name(), dst.Name(), got, links)
			}
		}
		if f.Pod(f.Groups()-1) != tc.k-1 || f.Pod(-1) != -1 || f.Pod(f.Groups()) != -1 {
			t.Errorf("k=%d: last group in pod %d", tc.k, f.Pod(f.Groups()-1))
		}
	}
}

// TestFatTreeECMPSpread: flows between two pods spread evenly over the
// (k/2)^2 core switches and, within a pod, over the k/2 aggregation
// switches. With n flows each core's count is binomial(n, 1/(k/2)^2); a
// Pearson chi-square over the cores stays below a bound exceeded with
// probability under 1e-4 for a uniform spread (15 degrees of freedom at
// k = 8: 46.8), and every core carries some flows.
func TestFatTreeECMPSpread(t *testing.T) {
	const k, n = 8, 16000
	net, f := buildFatTree(t, k, 4)
	src, dst := f.Hosts[0], f.Hosts[len(f.Hosts)-1]
	counts := make([]int, len(f.Core))
	for flow := uint64(1); flow <= n; flow++ {
		c := f.PathOf(src.ID(), dst.ID(), flow)
		if c < 0 {
			t.Fatalf("flow %d crosses no core", flow)
		}
		counts[c]++
	}
	exp := float64(n) / float64(len(counts))
	chi := 0.0
	for _, c := range counts {
		chi += (float64(c) - exp) * (float64(c) - exp) / exp
	}
	if chi > 46.8 {
		t.Errorf("core counts %v: chi-square %.1f over 15 degrees of freedom", counts, chi)
	}
	// Same pod, different edges: the aggregation switch each flow crosses.
	dstPod := f.HostsOf(1)[0]
	aggs := map[netsim.NodeID]int{}
	for flow := uint64(1); flow <= n; flow++ {
		links, err := net.Path(src.ID(), dstPod.ID(), flow)
		if err != nil || len(links) != 4 {
			t.Fatalf("flow %d: %d links, %v", flow, len(links), err)
		}
		aggs[net.Link(links[1]).To]++
	}
	if len(aggs) != k/2 {
		t.Fatalf("intra-pod flows crossed %d aggregation switches, want %d", len(aggs), k/2)
	}
	for id, c := range aggs {
		if math.Abs(float64(c)-n/4.0) > 4*math.Sqrt(n*0.25*0.75) {
			t.Errorf("aggregation switch %d carried %d of %d flows", id, c, n)
		}
	}
	// FlowForPath pins a flow to any core, both ways.
	for c := range f.Core {
		fl, err := f.FlowForPath(src.ID(), dst.ID(), c)
		if err != nil {
			t.Fatal(err)
		}
		if f.PathOf(src.ID(), dst.ID(), fl) != c || f.PathOf(dst.ID(), src.ID(), fl) != c {
			t.Fatalf("flow %d pinned to core %d crosses %d", fl, c, f.PathOf(src.ID(), dst.ID(), fl))
		}
	}
}

// TestFatTreeOversubscription: the ratio of host to uplink capacity.
func TestFatTreeOversubscription(t *testing.T) {
	c := DefaultFatTree()
	if got := c.Oversubscription(); got != 1 {
		t.Errorf("default k=8 with 4 hosts per edge: %v, want 1", got)
	}
	c.HostsPerEdge = 12
	if got := c.Oversubscription(); got != 3 {
		t.Errorf("12 hosts per edge: %v, want 3", got)
	}
}
