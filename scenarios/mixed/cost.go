package mixed

import (
	"math"
	"syncsim/scenarios/internal/setup"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/scenarios/internal/costs"
)

// mixed-fabric's cost model (experiments.Cost, printed by --dry-run):
// every tenant's packets times the events each costs, and the background's
// over the run's length, bg_warmup_ms plus the slowest job's completion
// time. INA gradient packets cost costs.PerPacket, as on ina-basic; a
// segment of a DCTCP all-reduce (ring and partial-reduce jobs) costs
// dctcpPerSegment: 259,611 events for the default ring job alone
// (`syncsim run mixed-fabric --set load=0 --set ina_jobs=0`: 4 workers x 3
// iterations x 2(n-1)/n x 2 MB, 24,658 segments of 1460 B) is 10.5 per
// segment. A job's iteration is its compute plus its volume through its
// worker's link (the capacity the background's host-basis load leaves),
// stretched as the INA jobs' (costs.INASlowdown) or, for the DCTCP rings,
// by ringSlowdown. Calibrated on the default point (6.64 M events; 2.04 M
// without background) and its tenants one by one.
const (
	dctcpPerSegment = 10.5
	ringSlowdown    = 2
	mixedNs         = 150
)

func mixedCost() *experiments.Cost {
	return &experiments.Cost{NsPerEvent: mixedNs, Rough: costs.RoughLossy, Events: func(ps experiments.Params) float64 {
		iters := float64(ps.Int("iterations"))
		rate := ps.Float("host_gbps") * 1e9 / 8 // bytes/s
		spines, leaves, hpl := ps.Int("spines"), ps.Int("leaves"), ps.Int("hosts_per_leaf")
		if ps.String("topology") != "leaf-spine" || setup.UsesFile(ps) {
			// A fat-tree or a file as the leaf-spine of its edge
			// switches with the same uplink capacity.
			s, err := setup.ShapeOf(ps)
			if err != nil || s.Groups == 0 {
				return math.NaN()
			}
			leaves, hpl = s.Groups, max(1, s.Hosts/s.Groups)
			spines = max(1, int(math.Round(s.UplinkGbps/ps.Float("fabric_gbps"))))
		}
		hosts := leaves * hpl
		senders := hosts
		if ps.String("bg_hosts") == "idle" {
			senders = max(0, hosts-int(mixedDemand(ps)))
		}
		hostLoad, _ := costs.LeafSpineLoads(ps.Float("load"), ps.String("load_basis"), spines, leaves, hpl, senders,
			ps.Float("host_gbps")*1e9, ps.Float("fabric_gbps")*1e9)
		share := rate * costs.FlowShare(hostLoad)
		compute := ps.Float("compute_ms") * 1e-3
		events, makespan := 0.0, 0.0
		if n := ps.Int("ina_jobs"); n > 0 {
			proto := ps.String("protocol")
			pkts := costs.GradientPackets(proto, ps.Float("gradient_mb"))
			events += costs.PerPacket(proto) * float64(n*ps.Int("workers")) * pkts * iters
			makespan = math.Max(makespan, iters*(compute+costs.INASlowdown(proto)*pkts*costs.WirePacket(proto)/share))
		}
		if n := ps.Int("ring_jobs"); n > 0 {
			size, comp, _, err := ringPlan(ps, netsim.Bytes(math.Round(ps.Float("ring_mb")*float64(netsim.Megabyte))), netsim.FromMillis(ps.Float("compute_ms")))
			if err != nil {
				return math.NaN()
			}
			w := float64(ps.Int("ring_workers"))
			perWorker := 2 * (w - 1) / w * float64(size) // Eq. 2's volume
			events += dctcpPerSegment * float64(n) * w * iters * math.Ceil(perWorker/costs.MSS)
			makespan = math.Max(makespan, iters*(comp.Seconds()+ringSlowdown*perWorker/share))
		}
		if n := ps.Int("pr_jobs"); n > 0 {
			// Each worker does iterations rounds, each in a group of about
			// p plus the scheme's extra workers (one under selective
			// reduce, which launches only when more than p are ready):
			// Eq. 2's volume for the group.
			sc, err := prSchemeOf(ps.String("pr_scheme"))
			if err != nil {
				return math.NaN()
			}
			g := float64(max(2, ps.Int("pr_p"))) + sc.extra
			perRound := 2 * (g - 1) / g * ps.Float("pr_mb") * 1e6
			events += dctcpPerSegment * float64(n*ps.Int("pr_workers")) * iters * math.Ceil(perRound/costs.MSS)
			makespan = math.Max(makespan, iters*(ps.Float("pr_compute_ms")*1e-3+ringSlowdown*perRound/share))
		}
		seconds := makespan
		if hostLoad > 0 {
			seconds += mixedWarmup(ps) * 1e-3
		}
		return events + costs.BackgroundEvents(ps, hostLoad, senders, ps.Float("host_gbps")*1e9, 2+2*costs.Across(leaves, hpl), seconds)
	}}
}
