package ina

import (
	"math"

	"syncsim/experiments"
	"syncsim/scenarios/internal/costs"
	"syncsim/scenarios/internal/inarig"
	"syncsim/scenarios/internal/setup"
)

// The cost models of ina-testbed and ina-leafspine: INA jobs beside DCTCP
// background that runs from t = 0 until the last job ends. The jobs' events
// are their gradient packets times the events each costs (perPacket); the
// background's are what its generator delivers over the run's length
// (costs.Background), which the jobs' completion time sets. That time is
// not known before the run: it is estimated as bg_warmup_ms plus
// iterations x the iteration time of the slowest job, compute_ms plus the
// time its gradient takes through the busiest link it shares (the
// capacity the background leaves there), stretched by the protocol's
// measured slowdown over that bound (costs.INASlowdown).

// jobGradients is each job's gradient in bytes: model=mix alternates
// ResNet50 (even jobs) and VGG19 (odd), as ina-leafspine deals them.
func jobGradients(ps experiments.Params, jobs int, rl inarig.RunLength) ([]float64, error) {
	out := make([]float64, jobs)
	for j := range out {
		model := ps.String("model")
		if model == modelMix {
			model = "resnet50"
			if j%2 == 1 {
				model = "vgg19"
			}
		}
		g, err := inarig.Gradient(model, ps.Float("gradient_mb"), rl.GradientScale)
		if err != nil {
			return nil, err
		}
		out[j] = float64(g)
	}
	return out, nil
}

// inaJobs is the jobs' share of a run: their gradient packets and the
// wire bytes of the largest gradient (the slowest job's).
func inaJobs(ps experiments.Params, grads []float64, workers, iterations int) (pkts, wireMax float64) {
	proto := ps.String("protocol")
	for _, g := range grads {
		n := costs.GradientPackets(proto, g/1e6)
		pkts += float64(workers*iterations) * n
		wireMax = math.Max(wireMax, n*costs.WirePacket(proto))
	}
	return pkts, wireMax
}

// testbedCost is ina-testbed's model. The jobs' workers (jobs x workers,
// dealt over the 8 S1 servers) push through the 4 paths, of which the
// background (load x 3 senders' links) takes its share, and through their
// own links.
func testbedCost() *experiments.Cost {
	return &experiments.Cost{NsPerEvent: costs.INANs, Rough: costs.RoughLossy, Events: func(ps experiments.Params) float64 {
		rl, err := inarig.ResolveRunLength(ps, testbedPresets)
		if err != nil {
			return math.NaN()
		}
		jobs, workers := ps.Int("jobs"), ps.Int("workers")
		grads, err := jobGradients(ps, jobs, rl)
		if err != nil {
			return math.NaN()
		}
		proto := ps.String("protocol")
		pkts, wire := inaJobs(ps, grads, workers, rl.Iterations)
		rate := ps.Float("link_gbps") * 1e9 / 8 // bytes/s
		load := ps.Float("load")
		paths := math.Max(float64(testbedPaths)-load*testbedBg, 0.1*testbedPaths) * rate
		perHost := math.Ceil(float64(jobs*workers) / testbedLeft)
		bound := math.Max(float64(jobs*workers)*wire/paths, perHost*wire/rate)
		iter := ps.Float("compute_ms")*1e-3 + costs.INASlowdown(proto)*bound + 16*ps.Float("delay_us")*1e-6
		seconds := rl.WarmupMs*1e-3 + float64(rl.Iterations)*iter
		return costs.PerPacket(proto)*pkts + costs.BackgroundEvents(ps, load, testbedBg, 8*rate, costs.DumbbellHops, seconds)
	}}
}

// leafSpineCost is ina-leafspine's model. Each job's PS leaf receives the
// gradients of its workers on other leaves through its uplinks, of which
// the background takes load (on the fabric basis, the busiest tier's
// share; jobs whose PS shares a leaf share them too, and the slowest job's
// leaf is the one with most PSs, costs.MaxLoad), and each worker
// pushes through its own link beside the background's host-basis load.
func leafSpineCost() *experiments.Cost {
	return &experiments.Cost{NsPerEvent: costs.INANs, Rough: costs.RoughLossy, Events: func(ps experiments.Params) float64 {
		rl, err := inarig.ResolveRunLength(ps, leafSpinePresets)
		if err != nil {
			return math.NaN()
		}
		jobs, workers := ps.Int("jobs"), ps.Int("workers")
		spines, leaves, hpl := ps.Int("spines"), ps.Int("leaves"), ps.Int("hosts_per_leaf")
		if ps.String("topology") != "leaf-spine" || setup.UsesFile(ps) {
			// A fat-tree or a file as the leaf-spine of its edge
			// switches with the same uplink capacity.
			s, err := setup.ShapeOf(ps)
			if err != nil || s.Groups == 0 {
				return math.NaN()
			}
			leaves, hpl = s.Groups, max(1, s.Hosts/s.Groups)
			spines = max(1, int(math.Round(s.UplinkGbps/ps.Float("link_gbps"))))
		}
		grads, err := jobGradients(ps, jobs, rl)
		if err != nil {
			return math.NaN()
		}
		proto := ps.String("protocol")
		pkts, wire := inaJobs(ps, grads, workers, rl.Iterations)
		gbps := ps.Float("link_gbps")
		rate := gbps * 1e9 / 8
		hosts := leaves * hpl
		senders := hosts
		if ps.String("bg_hosts") == "idle" {
			senders = max(0, hosts-jobs*(workers+1))
		}
		hostLoad, fabricLoad := costs.LeafSpineLoads(ps.Float("load"), ps.String("load_basis"), spines, leaves, hpl, senders,
			gbps*1e9, gbps*1e9)
		across := costs.Across(leaves, hpl)
		psPerLeaf := costs.MaxLoad(jobs, leaves)
		up := float64(spines) * rate * math.Max(0.1, 1-fabricLoad)
		perHost := math.Max(1, float64(jobs*(workers+1))/float64(hosts))
		bound := math.Max(psPerLeaf*float64(workers)*across*wire/up, perHost*wire/(rate*costs.FlowShare(hostLoad)))
		iter := ps.Float("compute_ms")*1e-3 + costs.INASlowdown(proto)*bound + 16*ps.Float("delay_us")*1e-6
		seconds := rl.WarmupMs*1e-3 + float64(rl.Iterations)*iter
		return costs.PerPacket(proto)*pkts + costs.BackgroundEvents(ps, hostLoad, senders, 8*rate, 2+2*across, seconds)
	}}
}
