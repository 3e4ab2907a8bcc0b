package dssync

import (
	"fmt"
	"slices"
	"strings"

	"syncsim/netsim"
	"syncsim/switchmodel"
	"syncsim/topologies"
)

// Scenario is one of the network bottleneck settings of Sec. V-A5.
type Scenario int

// Scenarios.
const (
	// Static has no competing task: only the static heterogeneity of the
	// racks (their uplinks' oversubscription).
	Static Scenario = iota
	// InterRack runs the background task on spare nodes of the first and
	// last racks, so its flows share those racks' inter-rack links but no
	// worker's NIC (Table IV).
	InterRack
	// EndHost co-locates one background worker with a worker of the job
	// (sharing its NIC) and puts the other on a spare node of the same
	// rack, so its flows never cross the core.
	EndHost
	// Both co-locates one background worker with a worker of the first
	// rack and puts the other on a spare node of the last rack: its flows
	// share that worker's NIC and the inter-rack links (Table III).
	Both
)

// ScenarioNames lists the scenarios by name, indexed by Scenario.
var ScenarioNames = []string{Static: "static", InterRack: "inter-rack", EndHost: "end-host", Both: "both"}

// String names the scenario.
func (s Scenario) String() string {
	if int(s) >= 0 && int(s) < len(ScenarioNames) {
		return ScenarioNames[s]
	}
	return fmt.Sprintf("scenario(%d)", int(s))
}

// ParseScenario maps a name of ScenarioNames to its Scenario.
func ParseScenario(s string) (Scenario, error) {
	if i := slices.Index(ScenarioNames, s); i >= 0 {
		return Scenario(i), nil
	}
	return 0, fmt.Errorf("unknown scenario %q (allowed: %s)", s, strings.Join(ScenarioNames, ", "))
}

// PaperLayout is the testbed's worker layout for a scenario (Sec. V-A5):
// workers 0-4 in rack 0 and 5-7 in rack 1 under inter-rack and end-host
// contention, four and four otherwise.
func PaperLayout(s Scenario) Layout {
	if s == Both || s == EndHost {
		return LayoutOf(5, 3)
	}
	return LayoutOf(4, 4)
}

// Placement maps a job's workers, the background task and the parameter
// server onto the hosts of a racks fabric with HostsPerRack hosts per
// rack (topologies.RacksWithUplinks numbers hosts rack by rack: rack r's
// hosts are r*HostsPerRack, ...). Every rack has two hosts more than its
// largest worker count: spares for the background task and the server.
type Placement struct {
	HostsPerRack int
	Worker       []int // host index of each worker
	// Background are the host indexes of the background task's two
	// workers (nil in the static scenario).
	Background []int
	// PS is the host index of the parameter server for ASP: a spare node
	// of rack 0.
	PS int
	// Truth is the contention the scenario creates, for detection given
	// up front.
	Truth Contention
}

// Place lays out scenario s for the workers of l. delayed is the worker
// whose NIC the background task shares in the end-host and both
// scenarios (-1: the last worker of rack 0, the paper's worker 4 in the
// 5+3 layout).
func Place(s Scenario, l Layout, delayed int) (Placement, error) {
	if err := l.validate(); err != nil {
		return Placement{}, err
	}
	h := 0
	for _, r := range l {
		h = max(h, len(r))
	}
	h += 2
	p := Placement{HostsPerRack: h, Worker: make([]int, l.Workers()), PS: len(l[0]) + 1}
	for r, ws := range l {
		for i, w := range ws {
			p.Worker[w] = r*h + i
		}
	}
	if delayed < 0 {
		delayed = l[0][len(l[0])-1]
	}
	if delayed >= l.Workers() {
		return Placement{}, fmt.Errorf("delayed worker %d, have %d workers", delayed, l.Workers())
	}
	last := len(l) - 1
	spare := func(r int) int { return r*h + len(l[r]) }
	switch s {
	case Static:
	case InterRack:
		if len(l) < 2 {
			return Placement{}, fmt.Errorf("scenario inter-rack needs at least two racks")
		}
		p.Background = []int{spare(0), spare(last)}
		p.Truth.Racks = []int{0, last}
	case EndHost:
		r := l.RackOf()[delayed]
		p.Background = []int{p.Worker[delayed], spare(r)}
		p.Truth.Workers = []int{delayed}
	case Both:
		if len(l) < 2 {
			return Placement{}, fmt.Errorf("scenario both needs at least two racks")
		}
		r := l.RackOf()[delayed]
		far := last
		if r == last {
			far = 0
		}
		p.Background = []int{p.Worker[delayed], spare(far)}
		p.Truth = Contention{Racks: []int{min(r, far), max(r, far)}, Workers: []int{delayed}}
	default:
		return Placement{}, fmt.Errorf("unknown scenario %d", s)
	}
	return p, nil
}

// BuildRacks builds the racks fabric of a placement: len(l) racks of
// p.HostsPerRack hosts at link, each rack's uplink at link/oversub, every
// cable with propagation delay.
func BuildRacks(net *netsim.Network, l Layout, p Placement, link netsim.Rate, oversub float64, delay netsim.Time, q switchmodel.QueueConfig) (*topologies.Fabric, []netsim.Rate, error) {
	if !(oversub > 0) {
		return nil, nil, fmt.Errorf("oversubscription %g must be positive", oversub)
	}
	up := make([]netsim.Rate, len(l))
	for i := range up {
		up[i] = netsim.Rate(float64(link) / oversub)
	}
	f, err := topologies.RacksWithUplinks(net, p.HostsPerRack, link, up, delay, q)
	return f, up, err
}
