package hostsync

import (
	"math"

	"syncsim/experiments"
	"syncsim/scenarios/internal/costs"
	"syncsim/scenarios/internal/setup"
	"syncsim/workloads/dssync"
	"syncsim/workloads/layers"
)

// dssync's cost model (experiments.Cost, printed by --dry-run). A run has
// no duration: it ends after iterations, each of which fires, per piece of
// the model (its buckets, dssync.PlanFor) and per worker, the compute and
// hook events (dsPerPiece), and per transfer of the scheme's collectives
// dsPerTransfer at flow fidelity, or its bytes' segments at packet
// fidelity. The transfers per piece follow each scheme's structure: a ring
// all-reduce of g workers is 2(g-1) steps of g transfers, DS-Sync's
// groups are its pattern's (dssync.InitGroups until the first detection,
// dssync.AdjustGroups for the scenario's contention after it), gossip one
// send per worker, ASP a push and a pull per worker. Calibrated on 100
// iterations of the default point (Table III's scenario, WideResNet-28-10,
// a bucket per layer, flow fidelity) under allreduce and gossip:
// 560,098 and 89,932 events, of which the competing BERT job's are about
// 21,000.
// At packet fidelity a segment costs dsPerSegment (DCTCP across the
// racks: 77.2 M events for 5 iterations of ring all-reduce, 7.0 M
// segments of the job's and the competing job's). The double binary tree's transfers per chunk and worker and
// ASP's per worker are calibrated on 20 and 100 iterations of the default
// point (1,326,941 and 191,506 events). The competing job's iterations are
// counted over the job's estimated time (compute plus its ring
// all-reduce at the link rate).
const (
	dsPerPiece      = 2.9
	dsPerTransfer   = 3.2
	dsPerSegment    = 8
	dsTreeTransfers = 6.5
	dsASPTransfers  = 3
	dsNs            = 220 // 176-364 ns per event at the calibration points on the loaded machine
)

// ringTransfers is the transfers of one ring all-reduce among g workers.
func ringTransfers(g int) float64 { return float64(2 * (g - 1) * g) }

// groupingTransfers is the transfers of one piece's ring all-reduces in
// the groups of a pattern, and the pieces they move, averaged over its
// period.
func groupingTransfers(p dssync.Pattern) (transfers, volume float64) {
	if len(p.Phases) == 0 {
		return 0, 0
	}
	for _, g := range p.Phases {
		for _, grp := range g {
			transfers += ringTransfers(len(grp))
			volume += float64(2 * (len(grp) - 1))
		}
	}
	k := float64(len(p.Phases))
	return transfers / k, volume / k
}

func dssyncCost() *experiments.Cost {
	return &experiments.Cost{NsPerEvent: dsNs, Rough: dssyncRough, Events: func(ps experiments.Params) float64 {
		cfg, err := dssyncParams(ps, nil)
		if err != nil {
			return math.NaN()
		}
		layout := cfg.Layout
		if layout == nil {
			layout = dssync.PaperLayout(cfg.Scenario)
		}
		plan, err := dssync.PlanFor(cfg)
		if err != nil {
			return math.NaN()
		}
		n, iters := layout.Workers(), float64(cfg.Iterations)
		transfers, volume, busiest, err := dsScheme(ps, cfg, layout)
		if err != nil {
			return math.NaN()
		}
		ev := iters * dsJob(plan, n, transfers, volume, cfg.Fidelity == "packet")
		// The competing task runs beside the job until it ends: its own
		// iterations (background=job, a ring of two, from a start
		// uniform within its compute) over the job's estimated time,
		// iterations x (compute + the pieces' bytes through the busiest
		// link at the link rate).
		rate := ps.Float("link_gbps") * 1e9 / 8
		size := float64(cfg.Model.Bytes())
		compute := cfg.Compute.Seconds()
		if compute == 0 {
			compute = cfg.Model.Compute.Seconds()
		}
		seconds := iters * (compute + busiest*size/rate)
		if cfg.Background == "job" {
			m := cfg.BGModel
			bgCompute := cfg.BGCompute
			if bgCompute == 0 {
				bgCompute = m.Compute
			}
			cut := dssync.Cutting{Layers: m.DefaultLayers()}
			if cfg.Layers < 0 && m.Table != "" {
				t, err := layers.Builtin(m.Table)
				if err != nil {
					return math.NaN()
				}
				cut = dssync.Cutting{Layers: -1, Table: &t, Bucket: layers.DDP}
			}
			bgPlan, err := dssync.PlanOf(m.Bytes(), bgCompute, cfg.BackwardFrac, cut)
			if err != nil {
				return math.NaN()
			}
			bgIters := math.Max(0, seconds-bgCompute.Seconds()/2) / (bgCompute.Seconds() + float64(m.Bytes())/rate)
			ev += bgIters * dsJob(bgPlan, 2, ringTransfers(2), 2, cfg.Fidelity == "packet")
		}
		return ev
	}}
}

// dsJob is the events of one iteration of a job of n workers cut as plan
// whose scheme makes transfers per piece moving volume times the piece.
func dsJob(plan dssync.Plan, n int, transfers, volume float64, packet bool) float64 {
	pieces := float64(len(plan.Pieces))
	ev := dsPerPiece * float64(n) * pieces
	if !packet {
		return ev + dsPerTransfer*transfers*pieces
	}
	for _, b := range plan.Pieces {
		ev += dsPerSegment * volume * math.Ceil(float64(b)/costs.MSS)
	}
	return ev
}

// dsScheme is the transfers one piece costs under the point's scheme per
// iteration, the bytes they move in pieces (a ring all-reduce of g is
// 2(g-1) steps of g transfers of 1/g of the piece, 2(g-1) pieces) and the
// pieces through the busiest link in an iteration: a ring member's
// 2(n-1)/n, the PS's n under ASP, one under gossip.
func dsScheme(ps experiments.Params, cfg dssync.Config, layout dssync.Layout) (transfers, volume, busiest float64, err error) {
	n := layout.Workers()
	sizes := layout.Sizes()
	busiest = 2 * float64(n-1) / float64(max(n, 1))
	transfers, volume, err = dsTransfers(ps, cfg, layout, sizes)
	switch cfg.Scheme {
	case "asp":
		busiest = float64(n)
	case "gossip":
		busiest = 1
	}
	return transfers, volume, busiest, err
}

// dsTransfers is dsScheme's transfers and volume.
func dsTransfers(ps experiments.Params, cfg dssync.Config, layout dssync.Layout, sizes []int) (transfers, volume float64, err error) {
	n := layout.Workers()
	switch cfg.Scheme {
	case "tree-allreduce":
		// Two trees, each chunk up and down every edge, in
		// dsTreeTransfers transfers per chunk and worker.
		return float64(cfg.TreeChunks) * dsTreeTransfers * float64(n-1), float64(2 * (n - 1)), nil
	case "hier-allreduce":
		// A ring in each rack, then one across the racks per shard.
		for _, g := range sizes {
			transfers += ringTransfers(g)
			volume += float64(2 * (g - 1))
		}
		transfers += float64(slicesMax(sizes)) * ringTransfers(len(sizes))
		volume += float64(2 * (len(sizes) - 1))
		return transfers, volume, nil
	case "asp":
		// A push and a pull per worker, each through the PS's queues.
		return dsASPTransfers * float64(n), float64(2 * n), nil
	case "gossip":
		return float64(n), float64(n), nil
	case "dssync":
		initial, err := dssync.InitGroups(layout)
		if err != nil {
			return 0, 0, err
		}
		transfers, volume = groupingTransfers(initial)
		if ps.String("detect") != "off" && cfg.Iterations > cfg.AdjustEvery {
			place, err := dssync.Place(cfg.Scenario, layout, cfg.Delayed)
			if err != nil {
				return 0, 0, err
			}
			if adj, err := dssync.AdjustGroups(layout, place.Truth); err == nil {
				first := float64(cfg.AdjustEvery) / float64(cfg.Iterations)
				t, v := groupingTransfers(adj)
				transfers, volume = first*transfers+(1-first)*t, first*volume+(1-first)*v
			}
		}
		return transfers, volume, nil
	}
	return ringTransfers(n), float64(2 * (n - 1)), nil // allreduce, and any other ring
}

// slicesMax is the largest of xs (0 when empty).
func slicesMax(xs []int) int {
	m := 0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// dssyncRough: the model counts a packet's events on the racks' four
// cables between racks; a fat-tree's paths between pods have six, a
// topology file's its own.
func dssyncRough(ps experiments.Params) string {
	if ps.String("fidelity") != "packet" {
		return ""
	}
	if setup.UsesFile(ps) {
		return "the paths of topology_file, which the model does not read"
	}
	if ps.String("topology") == "fattree" {
		return "a fat-tree's paths, longer than the racks' that the model counts"
	}
	return ""
}
