package ina

import (
	"fmt"

	"syncsim/experiments"
	"syncsim/scenarios/internal/setup"
)

// Checks of one parameter point that the parameter ranges cannot make;
// the command line runs them at every point of a grid before it writes
// anything.

// validateINABasic: the UDP flow fits its path.
func validateINABasic(ps experiments.Params) error {
	if ps.Float("udp_gbps") > ps.Float("link_gbps") {
		return fmt.Errorf("udp_gbps=%g exceeds link_gbps=%g", ps.Float("udp_gbps"), ps.Float("link_gbps"))
	}
	return nil
}

// validateINAMotivation: the examples measured over a window have their
// warm-up before its end.
func validateINAMotivation(ps experiments.Params) error {
	if ps.String("example") == exSyncAsync {
		return nil
	}
	return setup.ValidateWindow(ps)
}

// validateINALeafSpine: the switch queues are valid and a job's hosts
// fit on the fabric.
func validateINALeafSpine(ps experiments.Params) error {
	lc, err := leafSpineINAConfig(ps)
	if err != nil {
		return err
	}
	if hosts := lc.Leaves * lc.HostsPerLeaf; ps.Int("workers")+1 > hosts {
		return fmt.Errorf("a job needs workers+1 = %d distinct hosts but the fabric has %d", ps.Int("workers")+1, hosts)
	}
	return nil
}
