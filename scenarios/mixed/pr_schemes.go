package mixed

import (
	"fmt"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/workloads/syncctl"
)

// prScheme is one controller a partial-reduce tenant can run: its name,
// which pr_scheme offers, the constructor of its controller, the rule
// between its least group size p and the job's workers, and how many
// workers beyond p its groups hold on average (for the cost model).
type prScheme struct {
	name  string
	ctl   func(a prSchemeArgs) (syncctl.Controller, error)
	check func(p, n int) error
	extra float64
}

// prSchemeArgs is what a scheme's constructor may read: the point's
// parameters, p, the model's bytes, the simulation and the job's stream
// prefix (for random streams, sim.Rand(name + "/...")).
type prSchemeArgs struct {
	ps         experiments.Params
	p          int
	modelBytes float64
	sim        *netsim.Sim
	name       string
}

// prSchemes are the partial-reduce tenants' schemes, in the order
// pr_scheme lists them. A scheme is added here and nowhere else: the
// parameter's choices are these names, and a job builds the controller of
// the one it names. An entry without a name, a constructor or a check
// stops the experiment's construction (a code defect, not user input).
var prSchemes = []prScheme{
	// The first p ready workers.
	{"partial-reduce", func(a prSchemeArgs) (syncctl.Controller, error) { return syncctl.NewPartialReduce(a.p) }, checkPartialP, 0},
	// BAG, BPAWR and Alg. 3 of the selective-reduce paper, on the hosts'
	// NIC rates; it launches only when more than p are ready.
	{"selective-reduce", newPRSelective, checkSelectiveP, 1},
}

// prSchemeNames are the names of prSchemes, after checking every entry.
func prSchemeNames() []string {
	names := make([]string, len(prSchemes))
	seen := map[string]bool{}
	for i, s := range prSchemes {
		if s.name == "" || s.ctl == nil || s.check == nil || seen[s.name] {
			panic(fmt.Sprintf("mixed: partial-reduce scheme %d has no entry of its own in prSchemes (scenarios/mixed/pr_schemes.go)", i))
		}
		seen[s.name] = true
		names[i] = s.name
	}
	return names
}

// prSchemeOf is the registration of name.
func prSchemeOf(name string) (*prScheme, error) {
	for i := range prSchemes {
		if prSchemes[i].name == name {
			return &prSchemes[i], nil
		}
	}
	return nil, fmt.Errorf("unknown pr_scheme %q", name)
}

// newPRSelective is selective reduce with the tenant's settings
// (selectiveConfig).
func newPRSelective(a prSchemeArgs) (syncctl.Controller, error) {
	cfg, err := selectiveConfig(a.ps, a.p)
	if err != nil {
		return nil, err
	}
	return syncctl.NewSelectiveReduce(cfg, a.modelBytes, a.sim.Rand(a.name+"/bw-estimate"))
}

// checkPartialP: partial reduce pops p ready workers, so p <= n.
func checkPartialP(p, n int) error {
	if p > n {
		return fmt.Errorf("pr_p = %d exceeds pr_workers = %d", p, n)
	}
	return nil
}

// checkSelectiveP: selective reduce launches only when more than p are
// ready (Alg. 3, line 8), so p <= n-1 (syncctl.SelectiveConfig.
// CheckWorkers; the tenant never sets Alg. 3's c, which alone could
// launch with p >= n).
func checkSelectiveP(p, n int) error {
	if (syncctl.SelectiveConfig{P: p}).CheckWorkers(n) != nil {
		return fmt.Errorf("pr_p = %d with pr_workers = %d: selective reduce launches a group only when more than pr_p workers are ready "+
			"(Alg. 3, line 8), so it would never launch one; want pr_p <= %d", p, n, n-1)
	}
	return nil
}
