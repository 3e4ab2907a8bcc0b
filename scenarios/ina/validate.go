package ina

import (
	"fmt"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/scenarios/internal/inarig"
	"syncsim/scenarios/internal/setup"
	"syncsim/topologies"
)

// Checks of one parameter point that the parameter ranges cannot make;
// the command line runs them at every point of a grid before it writes
// anything.

// validateINABasic: the UDP flow fits its path.
func validateINABasic(ps experiments.Params) error {
	if err := inarig.ValidateJobParams(ps); err != nil {
		return err
	}
	if ps.Float("udp_gbps") > ps.Float("link_gbps") {
		return fmt.Errorf("udp_gbps=%g exceeds link_gbps=%g", ps.Float("udp_gbps"), ps.Float("link_gbps"))
	}
	return nil
}

// validateINAMotivation: the examples measured over a window have their
// warm-up before its end.
func validateINAMotivation(ps experiments.Params) error {
	if err := inarig.ValidateJobParams(ps); err != nil {
		return err
	}
	if ps.String("example") == exSyncAsync {
		return nil
	}
	return setup.ValidateWindow(ps)
}

// validateINALeafSpine: the switch queues are valid, the fat-tree's k is
// one and the topology file reads, a job's hosts fit on the fabric,
// skip_iters leaves an iteration to measure, model_file reads, on a
// leaf-spine a host-basis load is one every tier can carry, and
// agg_placement=every-tier has tiers to aggregate at (not a topology
// file's).
func validateINALeafSpine(ps experiments.Params) error {
	if err := setup.ValidateFlowsFile(ps); err != nil {
		return err
	}
	lc, err := leafSpineINAConfig(ps)
	if err != nil {
		return err
	}
	if err := setup.ValidateFabric(ps); err != nil {
		return err
	}
	shape, err := setup.ShapeOf(ps)
	if err != nil {
		return err
	}
	leafSpine := !setup.UsesFile(ps) && ps.String("topology") == "leaf-spine"
	if hosts := shape.Hosts; ps.Int("workers")+1 > hosts {
		return fmt.Errorf("a job needs workers+1 = %d distinct hosts but the fabric has %d", ps.Int("workers")+1, hosts)
	}
	if _, err := inarig.ResolveRunLength(ps, leafSpinePresets); err != nil {
		return err
	}
	if err := inarig.ValidateJobParams(ps); err != nil {
		return err
	}
	if err := inarig.ValidateLayers(ps); err != nil {
		return err
	}
	// On a fat-tree or a topology file the run checks the load against the
	// fabric it builds (inarig.FabricGroups).
	if ps.Float("load") > 0 && leafSpine {
		if _, err := inarig.HostLoad(ps.Float("load"), ps.String("load_basis"), leafSpineTiers(ps, lc)); err != nil {
			return err
		}
	}
	if err := validateEngine(ps); err != nil {
		return err
	}
	if ps.String("protocol") == "atp" && ps.String("agg_placement") == placeEveryTier && setup.UsesFile(ps) {
		return fmt.Errorf("agg_placement=%s needs a fabric whose tiers are known (topology=fattree or leaf-spine); a topology_file's are not derived", placeEveryTier)
	}
	return nil
}

// inaEngineParam is the engine parameter of the INA experiments on a
// packet fabric (experiments.Experiment.Engine).
func inaEngineParam() experiments.Param {
	return experiments.EngineParam("engine", "; and each job's shared asynchronous degree window and iteration books "+
		"are folded at the window barriers, so the workers see the job's AWD up to one lookahead late and a job ends at "+
		"the barrier after its last worker finishes; see docs/performance.md, The parallel engine")
}

// inaPartitionsParam is how the parallel engine cuts the fabric, with
// engine=partitioned.
func inaPartitionsParam() experiments.Param {
	return setup.PartitionsParam().OnlyWhen("engine", experiments.EnginePartitioned)
}

// validateINATestbed: skip_iters leaves an iteration to measure,
// model_file reads, and the engine has a lookahead.
func validateINATestbed(ps experiments.Params) error {
	if _, err := inarig.ResolveRunLength(ps, testbedPresets); err != nil {
		return err
	}
	if err := inarig.ValidateJobParams(ps); err != nil {
		return err
	}
	if err := inarig.ValidateLayers(ps); err != nil {
		return err
	}
	return validateEngine(ps)
}

// validateEngine: engine=partitioned needs cables of positive delay, the
// lookahead whose windows bound how late the jobs' shared state is
// folded (with zero-delay cables the network would run as one partition,
// in one window to the horizon).
func validateEngine(ps experiments.Params) error {
	if ps.String("engine") == experiments.EnginePartitioned && ps.Float("delay_us") <= 0 {
		return fmt.Errorf("engine=%s needs delay_us > 0: the cables' delay is the lookahead of its windows", experiments.EnginePartitioned)
	}
	return nil
}

// leafSpineTiers bounds the tiers' utilisation at host-basis load 1 before
// the run places its jobs: exact for bg_hosts=all (h of the H hosts on
// every leaf); for bg_hosts=idle the N = H - jobs x (workers+1) idle hosts
// (none when the jobs take every host) may fall on the leaves in any way,
// so the uplink bound is the worst leaf over the counts s <= min(h, N) it
// can hold, s (N - s)/(N - 1) host rates (inarig.Tiers).
func leafSpineTiers(ps experiments.Params, lc topologies.LeafSpineConfig) inarig.TierLoads {
	up := netsim.Rate(lc.Spines) * lc.FabricRate
	h, H := lc.HostsPerLeaf, lc.Leaves*lc.HostsPerLeaf
	if ps.String("bg_hosts") != "idle" {
		gs := make([]inarig.GroupTraffic, lc.Leaves)
		for i := range gs {
			gs[i] = inarig.GroupTraffic{Senders: h, Dsts: h, Both: h, Uplink: up}
		}
		return inarig.Tiers(gs, lc.HostRate)
	}
	n := H - min(H, ps.Int("jobs")*(ps.Int("workers")+1))
	var worst inarig.TierLoads
	for s := 0; s <= min(h, n); s++ {
		// The leaf of s idle hosts and the rest elsewhere; a group of no
		// uplink capacity is left out of the link tiers.
		t := inarig.Tiers([]inarig.GroupTraffic{{Senders: s, Dsts: s, Both: s, Uplink: up}, {Senders: n - s, Dsts: n - s, Both: n - s}}, lc.HostRate)
		worst.SenderNIC = max(worst.SenderNIC, t.SenderNIC)
		worst.ReceiverNIC = max(worst.ReceiverNIC, t.ReceiverNIC)
		worst.Uplink = max(worst.Uplink, t.Uplink)
		worst.Downlink = max(worst.Downlink, t.Downlink)
	}
	return worst
}
