package hostsync

import (
	"fmt"
	"math"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/netsim/fluid"
	"syncsim/scenarios/internal/setup"
	"syncsim/switchmodel"
	"syncsim/topologies"
	"syncsim/transport"
	"syncsim/workloads/syncctl"
	"syncsim/workloads/training"
)

// srNICGbps is a worker's nominal NIC rate on the shared fabrics: the top
// of the bandwidth law (20 Gbps, Sec. IV-A). Oversubscription is counted
// against it, and background hosts send at it; a worker's own cable runs
// at its available bandwidth b_i <= 20 Gbps.
const srNICGbps = training.MaxBandwidthGbps

// srNet is the network the flow and packet fidelities move data on.
//
//   - star: the paper's "abstract network switch" (Sec. IV-A): worker i's
//     cable runs at b_i both ways with alpha/2 of propagation, so every
//     ring transfer crosses only its two workers' cables.
//   - racks: racks top-of-rack switches behind one core switch
//     (topologies.Racks); leafspine: racks leaves under spines spines
//     (topologies.LeafSpine, ECMP by flow hash). Worker w sits in rack
//     w / ceil(n/racks); its cable runs at b_i; every cable has alpha/4 of
//     propagation, so workers in different racks are alpha apart (as in
//     Eq. 2) and workers in one rack alpha/2. A rack's uplink capacity (the
//     spines' links together on a leaf-spine) is ceil(n/racks) x 20 Gbps
//     / oversub: oversub = 1 is non-blocking for any draw of b_i.
//     bg_load > 0 adds bg_hosts background hosts per rack at 20 Gbps,
//     which send background flows to each other across the core.
//   - fattree: a k-ary fat-tree (topologies.FatTree) whose k^2/2 edge
//     switches are the racks, filled in order as above (ceil(n/(k^2/2))
//     workers each; edges past the last worker hold only background
//     hosts), with every cable at alpha/6 (six cables between pods) and
//     each edge's k/2 uplinks together at ceil(n/racks) x 20 Gbps /
//     oversub, every switch-to-switch cable at that over k/2.
type srNet struct {
	net   *netsim.Network
	fab   *topologies.Fabric
	hosts []netsim.NodeID   // hosts[w] is worker w's host
	rank  []int             // ring order key per worker (nil: the controller's order)
	edges [][2]*netsim.Link // worker w's cables: host to switch, switch to host
	bg    []netsim.NodeID   // background hosts
	file  bool              // built from a topology file
}

// buildSRNet builds the fabric of the topology parameter with worker i's
// cables at gbps[i].
func buildSRNet(sim *netsim.Sim, ps experiments.Params, gbps []float64, alpha float64, q switchmodel.QueueConfig) (*srNet, error) {
	n := len(gbps)
	rates := make([]netsim.Rate, n)
	for i, g := range gbps {
		rates[i] = training.GbpsToRate(g)
	}
	s := &srNet{net: netsim.NewNetwork(sim), hosts: make([]netsim.NodeID, n)}
	var err error
	topo := ps.String("topology")
	if setup.UsesFile(ps) {
		topo = "file"
	}
	switch topo {
	case "file":
		tf, err := topologies.ReadTopologyFile(ps.Str("topology_file"))
		if err != nil {
			return nil, err
		}
		per, err := srFilePer(ps.Str("topology_file"), tf.GroupSizes(), n)
		if err != nil {
			return nil, err
		}
		if s.fab, err = topologies.FromFile(s.net, tf, q); err != nil {
			return nil, err
		}
		s.place(ps, n, per)
		s.file = true
	case "star":
		if s.fab, err = topologies.StarRates(s.net, rates, netsim.FromSeconds(alpha/2), q); err != nil {
			return nil, err
		}
		copy(s.hosts, s.fab.HostIDs())
	case "racks", "leaf-spine", "fattree":
		racks := ps.Int("racks")
		if topo == "fattree" {
			racks = ps.Int("k") * ps.Int("k") / 2
		}
		if racks > n && topo != "fattree" {
			return nil, fmt.Errorf("racks=%d exceeds n=%d workers: every rack needs a worker", racks, n)
		}
		per := (n + racks - 1) / racks
		bgPer := 0
		if ps.Float("bg_load") > 0 {
			bgPer = ps.Int("bg_hosts_per_rack")
		}
		nic := training.GbpsToRate(srNICGbps)
		delay := netsim.FromSeconds(alpha / 4)
		up := float64(per) * float64(nic) / ps.Float("oversub")
		switch topo {
		case "racks":
			s.fab, err = topologies.Racks(s.net, racks, per+bgPer, nic, netsim.Rate(math.Round(up)), delay, q)
		case "fattree":
			// Six cables join two pods: alpha/6 each keeps the longest
			// path at alpha, as Eq. 2's latency term.
			k := ps.Int("k")
			s.fab, err = topologies.FatTree(s.net, topologies.FatTreeConfig{
				K: k, HostsPerEdge: per + bgPer, HostRate: nic,
				FabricRate: netsim.Rate(math.Round(up / float64(k/2))), Delay: netsim.FromSeconds(alpha / 6), Queue: q,
			})
		default:
			spines := ps.Int("spines")
			s.fab, err = topologies.LeafSpine(s.net, topologies.LeafSpineConfig{
				Spines: spines, Leaves: racks, HostsPerLeaf: per + bgPer, HostRate: nic,
				FabricRate: netsim.Rate(math.Round(up / float64(spines))), Delay: delay, Queue: q,
			})
		}
		if err != nil {
			return nil, err
		}
		s.place(ps, n, per)
	default:
		return nil, fmt.Errorf("unknown topology %q", topo)
	}
	s.edges = make([][2]*netsim.Link, n)
	for w, h := range s.hosts {
		ports := s.net.Node(h).Base().Ports
		if len(ports) != 1 {
			return nil, fmt.Errorf("worker %d's host has %d ports, want 1", w, len(ports))
		}
		upl := ports[0].Link
		down := s.fab.LinkBetween(upl.To, h)
		if down == nil {
			return nil, fmt.Errorf("worker %d's host has no cable back from its switch", w)
		}
		upl.Rate, down.Rate = rates[w], rates[w]
		s.edges[w] = [2]*netsim.Link{upl, down}
	}
	return s, nil
}

// place puts worker w on host w % per of group w / per (rack after rack,
// per workers each), every other host of a group (its hosts past the
// first per) a background host, and with ring_order=rack ranks the
// workers by their hosts' order in the fabric.
func (s *srNet) place(ps experiments.Params, n, per int) {
	for w := range n {
		s.hosts[w] = s.fab.HostsOf(w / per)[w%per].ID()
	}
	for r := range s.fab.Groups() {
		if hs := s.fab.HostsOf(r); len(hs) > per {
			for _, h := range hs[per:] {
				s.bg = append(s.bg, h.ID())
			}
		}
	}
	if ps.String("ring_order") == "rack" {
		s.rank = make([]int, n)
		for w, h := range s.hosts {
			s.rank[w] = s.fab.HostIndex(h)
		}
	}
}

// srFilePer is how many workers each host group (edge switch) of a
// topology file takes: ceil(n / groups), as on the built fabrics, so that
// worker w sits in group w / per. It refuses a file whose groups are too
// few or too small for that: sizes are the groups' host counts
// (TopologyFile.GroupSizes).
func srFilePer(path string, sizes []int, n int) (int, error) {
	if len(sizes) == 0 {
		return 0, fmt.Errorf("topology_file %s has no host under a switch", path)
	}
	per := (n + len(sizes) - 1) / len(sizes)
	for r := 0; r*per < n; r++ {
		if need := min(per, n-r*per); sizes[r] < need {
			return 0, fmt.Errorf("topology_file %s: n=%d workers fill its %d edge switches %d at a time, and edge switch %d (in switch id order) has %d hosts, not %d",
				path, n, len(sizes), per, r, sizes[r], need)
		}
	}
	return per, nil
}

// srFileAlpha is the one-way latency alpha on a topology file: half the
// file's round-trip bound (TopologyFile.RTTBound), 2 x top tier x its
// longest cable delay, which is exact for a fat-tree or leaf-spine of
// uniform delays (6 and 4 cables between its farthest hosts).
func srFileAlpha(path string) (float64, error) {
	tf, err := topologies.ReadTopologyFile(path)
	if err != nil {
		return 0, err
	}
	return (tf.RTTBound() / 2).Seconds(), nil
}

// follow returns the OnBandwidth hook that keeps every worker's cables at
// its bandwidth in force, through set (the fluid engine re-rates the
// transfers crossing a link; the packet engine serialises the next packet
// at the new rate).
func (s *srNet) follow(set func(l *netsim.Link, r netsim.Rate)) func(int, []float64) {
	return func(_ int, bw []float64) {
		for w, e := range s.edges {
			r := netsim.Rate(math.Round(bw[w]))
			if e[0].Rate != r {
				set(e[0], r)
			}
			if e[1].Rate != r {
				set(e[1], r)
			}
		}
	}
}

// srFlowExecutor builds the flow-fidelity executor: the fabric of
// buildSRNet and the fluid engine (max-min sharing) moving the ring
// all-reduce transfers.
func srFlowExecutor(sim *netsim.Sim, ps experiments.Params, gbps []float64, cfg *syncctl.Config) (*syncctl.FlowExecutor, *fluid.Engine, *srNet, error) {
	s, err := buildSRNet(sim, ps, gbps, cfg.Alpha, switchmodel.QueueConfig{})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("sr-cluster: %w", err)
	}
	eng := fluid.New(s.net, fluid.MaxMin)
	exec, err := syncctl.NewFlowExecutor(eng, s.hosts)
	if err != nil {
		return nil, nil, nil, err
	}
	exec.Rank = s.rank
	if cfg.Schedule != nil {
		cfg.OnBandwidth = s.follow(func(l *netsim.Link, r netsim.Rate) {
			l.Rate = r
			if err := eng.SetCapacity(l.ID, r); err != nil {
				panic("sr-cluster: " + err.Error())
			}
		})
	}
	return exec, eng, s, nil
}

// srPacketExecutor builds the packet-fidelity executor: the same fabric,
// but the ring transfers are DCTCP flows of the transport stack through
// output-queued switch ports. Every port marks ECN at the DCTCP guideline
// K for the fastest cable (C x RTT / 7 with RTT = 2 alpha) and drops
// beyond 4K packets; the minimum and initial retransmission timeouts are
// raised to 2 and 3 RTTs so that long latencies (alpha = 1 ms) do not fire
// spurious timeouts. Packet fidelity is for small models and short runs:
// a 500 MB model moves about 10^6 packets per worker per synchronisation.
func srPacketExecutor(sim *netsim.Sim, ps experiments.Params, gbps []float64, cfg *syncctl.Config) (*syncctl.FlowExecutor, *transport.Stack, *srNet, error) {
	var fastest netsim.Rate
	for _, g := range gbps {
		fastest = max(fastest, training.GbpsToRate(g))
	}
	star := ps.String("topology") == "star" && !setup.UsesFile(ps)
	if cfg.Schedule != nil || !star {
		// Bandwidths change, or background hosts send at the NIC rate.
		fastest = training.GbpsToRate(srNICGbps)
	}
	if setup.UsesFile(ps) {
		// A file's background hosts send at their own links' rates.
		tf, err := topologies.ReadTopologyFile(ps.Str("topology_file"))
		if err != nil {
			return nil, nil, nil, fmt.Errorf("sr-cluster: %w", err)
		}
		for _, l := range tf.Links {
			if !tf.Switch[l.A] || !tf.Switch[l.B] {
				fastest = max(fastest, l.Rate)
			}
		}
	}
	rtt := netsim.FromSeconds(2 * cfg.Alpha)
	if star {
		rtt = 4 * netsim.FromSeconds(cfg.Alpha/2) // host-switch-host and back
	}
	const mtu = 1500
	k := switchmodel.DCTCPK(fastest, rtt, mtu)
	q := switchmodel.QueueConfig{ECNBytes: netsim.Bytes(k) * mtu, Buffer: max(4*netsim.Bytes(k)*mtu, srPacketBuffer)}
	s, err := buildSRNet(sim, ps, gbps, cfg.Alpha, q)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("sr-cluster: %w", err)
	}
	tc, err := setup.DCTCPTransport(ps)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("sr-cluster: %w", err)
	}
	tc.MinRTO = max(tc.MinRTO, 2*rtt)
	tc.InitRTO = max(tc.InitRTO, 3*rtt)
	tc.MaxRTO = max(tc.MaxRTO, tc.InitRTO) // a round trip of minutes (latency_ms, alpha_ms) outgrows the default cap
	if err := tc.Validate(); err != nil {
		return nil, nil, nil, fmt.Errorf("sr-cluster: %w", err)
	}
	stack := transport.NewStack(s.net, tc)
	exec, err := syncctl.NewFlowExecutor(stack, s.hosts)
	if err != nil {
		return nil, nil, nil, err
	}
	exec.Rank = s.rank
	if cfg.Schedule != nil {
		cfg.OnBandwidth = s.follow(func(l *netsim.Link, r netsim.Rate) { l.Rate = r })
	}
	return exec, stack, s, nil
}

// srPacketBuffer is the least per-port drop-tail buffer at packet fidelity:
// a fast worker's window arriving at a slow worker's port (rates differ up
// to 20:1) must not overflow before ECN feedback arrives; 1 MB is the order
// of the per-port share of a datacenter switch's buffer.
const srPacketBuffer = netsim.Megabyte
