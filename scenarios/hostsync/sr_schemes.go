package hostsync

import (
	"fmt"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/workloads/syncctl"
)

// srScheme is one synchronisation scheme of sr-cluster: its name, which
// the scheme parameter offers, and the constructor of its controller.
type srScheme struct {
	name string
	ctl  func(a srSchemeArgs) (syncctl.Controller, error)
}

// srSchemeArgs is what a scheme's constructor may read: the point's
// parameters, its group size p, the model's bytes and the simulation (for
// random streams, sim.Rand).
type srSchemeArgs struct {
	ps         experiments.Params
	p          int
	modelBytes float64
	sim        *netsim.Sim
}

// srSchemes are sr-cluster's schemes, in the order the scheme parameter
// lists them. A scheme is added here and nowhere else: the parameter's
// choices are these names, and a run builds the controller of the one it
// names.
var srSchemes = []srScheme{
	{"allreduce", func(srSchemeArgs) (syncctl.Controller, error) { return syncctl.AllReduce{}, nil }},
	{"partial-reduce", func(a srSchemeArgs) (syncctl.Controller, error) { return syncctl.NewPartialReduce(a.p) }},
	{"selective-reduce", newSRSelective},
}

// srSchemeNames are the names of srSchemes.
func srSchemeNames() []string {
	names := make([]string, len(srSchemes))
	for i, s := range srSchemes {
		names[i] = s.name
	}
	return names
}

// srController builds the controller of the scheme named name.
func srController(name string, a srSchemeArgs) (syncctl.Controller, error) {
	for _, s := range srSchemes {
		if s.name == name {
			return s.ctl(a)
		}
	}
	return nil, fmt.Errorf("unknown scheme %q", name)
}

// newSRSelective is selective reduce (Alg. 3) with the point's BAG, BPAWR
// and estimation settings.
func newSRSelective(a srSchemeArgs) (syncctl.Controller, error) {
	ps := a.ps
	seed, err := syncctl.ParseBAGSeed(ps.String("bag_seed"))
	if err != nil {
		return nil, err
	}
	kround, err := syncctl.ParseKRounding(ps.String("k_round"))
	if err != nil {
		return nil, err
	}
	return syncctl.NewSelectiveReduce(syncctl.SelectiveConfig{
		P:                a.p,
		Eta:              ps.Float("bag_eta"),
		Theta:            ps.Float("theta"),
		Dt:               ps.Float("dt_ms") / 1e3,
		C:                ps.Int("c"),
		BWError:          ps.Float("bw_error"),
		Cold:             ps.String("start") == "cold",
		ExactConditional: ps.String("predict") == "conditional",
		Seed:             seed,
		KRound:           kround,
	}, a.modelBytes, a.sim.Rand("syncctl/bw-estimate"))
}
