package hostsync

import (
	"fmt"
	"math"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/scenarios/internal/setup"
	"syncsim/workloads/background"
	"syncsim/workloads/training"
)

// srBackground is the background traffic of a shared sr-cluster fabric:
// flows from the bg_workload flow-size CDF with Poisson arrivals at
// bg_load (background.LoadDefinition, over the background hosts' 20 Gbps
// NICs, or their cables' rate on a topology file) between random pairs of the background hosts, on the same engine
// as the ring transfers (fluid or DCTCP), for the whole run.
//
// With flows_file, the file's flows are replayed instead, between any
// hosts of the fabric (background.IndexHostMap of its hosts).
type srBackground struct {
	gen   *background.Generator
	net   *srNet
	end   netsim.Time
	hosts *background.HostMap
}

// srBackgroundName names the generator's random streams
// ("background/sr/arrivals", ...), so they shift no other draw.
const srBackgroundName = "sr"

func newSRBackground(r *experiments.Run, sim *netsim.Sim, bulk netsim.Bulk, net *srNet, end netsim.Time) (*srBackground, error) {
	ps := r.Params
	hosts := setup.HostMap(net.fab)
	cfg := background.Config{Hosts: net.bg, HostRate: training.GbpsToRate(srNICGbps), Stop: end, Name: srBackgroundName}
	if net.file && ps.Str("flows_file") == "" {
		// A topology file's background hosts send at their own cables'
		// rate, which bg_load is a fraction of.
		for i, h := range net.bg {
			r := net.net.Node(h).Base().Ports[0].Link.Rate
			if i > 0 && r != cfg.HostRate {
				return nil, fmt.Errorf("bg_load: background hosts %s and %s attach at %v and %v; bg_load needs one rate",
					net.net.Node(net.bg[0]).Base().Name(), net.net.Node(h).Base().Name(), cfg.HostRate, r)
			}
			cfg.HostRate = r
		}
	}
	if ps.Str("flows_file") != "" {
		replay, err := setup.Replays(ps, hosts, end)
		if err != nil {
			return nil, err
		}
		cfg.Replay, cfg.Hosts = replay, net.fab.HostIDs()
	} else {
		if len(net.bg) < 2 {
			return nil, fmt.Errorf("background needs at least 2 background hosts, have %d", len(net.bg))
		}
		cdf, err := background.Workload(ps.String("bg_workload"))
		if err != nil {
			return nil, err
		}
		cfg.CDF, cfg.Load = cdf, ps.Float("bg_load")
	}
	gen, err := background.New(sim, bulk, cfg)
	if err != nil {
		return nil, err
	}
	if err := setup.RecordFCT(r, gen); err != nil {
		return nil, err
	}
	// The flows are summarised as they complete, not kept: the same
	// statistics as Stats over their records, in memory that does not
	// grow with the run (background.Generator.Measure).
	if err := gen.Measure(srStatsConfig(net, end)); err != nil {
		return nil, err
	}
	return &srBackground{gen: gen, net: net, end: end, hosts: hosts}, nil
}

// srStatsConfig is the measurement of the background flows: the whole
// run, ideal FCTs over the unloaded path latency.
func srStatsConfig(net *srNet, end netsim.Time) background.StatsConfig {
	return background.StatsConfig{Stop: end, Latency: setup.UnloadedLatency(net.net, 1)}
}

// metrics fills bg_flows_done and bg_fct_slowdown_p99 over the whole run
// (no warm-up: the training starts at time 0 too). The ideal FCT is the
// flow's bytes at the NIC rate plus the unloaded path latency
// (setup.UnloadedLatency).
func (b *srBackground) metrics(m map[string]float64) error {
	sum, err := b.gen.Summary()
	if err != nil {
		return err
	}
	m["bg_flows_done"] = float64(sum.All.Done)
	m["bg_fct_slowdown_p99"] = sum.All.Slowdown.P99
	if sum.All.Done == 0 {
		m["bg_fct_slowdown_p99"] = math.NaN()
	}
	return nil
}
