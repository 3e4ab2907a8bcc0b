package crew

import (
	"fmt"
	"strings"

	"syncsim/netsim"
)

// Scheme is how a partial reduce of the workers P is carried out.
type Scheme uint8

const (
	// CREW scatters n blocks to all n workers, reduces each at its
	// aggregator and multicasts it back to P (Sec. III).
	CREW Scheme = iota
	// OPR is the original partial reduce: p blocks reduced by the p
	// workers of P only (Sec. V-A), with weights from its own LP (2) over
	// P or even.
	OPR
	// A2A: every worker of P sends its whole model to the other p - 1.
	A2A
	// PS: one global parameter server, the worker with the largest average
	// direct bandwidth to the others (ties: smallest average latency).
	PS
	// Ring: a ring over P built greedily from a random start, each next
	// worker the one with the largest bandwidth from the last.
	Ring
	// BLINK is a BLINK-like packing of up to five spanning trees over P
	// with rates from an LP (an approximation: BLINK is not public).
	BLINK
	// ToA is a TopoAdopt-like spanning tree over P found by simulated
	// annealing (an approximation: TopoAdopt is not public).
	ToA
	numSchemes
)

// schemeSpec is a scheme's registration, everything that makes it itself
// in one place: its name, how it runs one partial reduce on an idle
// network (RunSingle), and, for the schemes that train (a Cluster of
// partial reduces, crew-training), the task of one partial reduce. No code
// reads a property off a scheme's place in the list of constants.
type schemeSpec struct {
	name string // as parameters spell it
	// single runs one partial reduce of RunSingle, calling s.finish when
	// the last member holds the reduced model.
	single func(s *singleRun) error
	// task starts the partial reduce of the group f in a Cluster; nil for
	// a scheme that runs in single partial reduces only.
	task func(c *Cluster, f *forming) task
}

// schemes registers every scheme, indexed by its constant; init fills it
// (its entries refer to the code that reads it, which a variable's own
// initialiser may not) and checks it: a constant added without an entry,
// or an entry left without a name or a single partial reduce, stops every
// program that uses crew at start-up, so no scheme falls back to
// another's behaviour.
var schemes [numSchemes]schemeSpec

func init() {
	schemes = [numSchemes]schemeSpec{
		CREW:  {name: "crew", single: singleCluster, task: crewTaskOf},
		OPR:   {name: "opr", single: singleCluster, task: crewTaskOf},
		A2A:   {name: "a2a", single: singleCluster, task: func(c *Cluster, f *forming) task { return newA2ATask(c, f.pid, f.members) }},
		PS:    {name: "ps", single: singlePS},
		Ring:  {name: "ring", single: singleRing},
		BLINK: {name: "blink", single: singleBLINK},
		ToA:   {name: "toa", single: singleToA},
	}
	if err := checkSchemes(schemes[:]); err != nil {
		panic(err)
	}
	SchemeNames = schemeNamesWhere(func(schemeSpec) bool { return true })
	TrainingSchemeNames = schemeNamesWhere(func(s schemeSpec) bool { return s.task != nil })
}

// checkSchemes reports an entry of table without a name or a single
// partial reduce, or with another's name.
func checkSchemes(table []schemeSpec) error {
	seen := map[string]bool{}
	for s, spec := range table {
		if spec.name == "" || spec.single == nil || seen[spec.name] {
			return fmt.Errorf("crew: scheme %d has no entry of its own in schemes (workloads/crew/options.go)", s)
		}
		seen[spec.name] = true
	}
	return nil
}

// SchemeNames lists the schemes as parameters spell them, in declaration
// order (filled from the registrations at start-up).
var SchemeNames []string

// TrainingSchemeNames lists the schemes that run in training (a Cluster),
// in declaration order (filled from the registrations at start-up).
var TrainingSchemeNames []string

// schemeNamesWhere lists the names of the registrations for which has is
// true.
func schemeNamesWhere(has func(schemeSpec) bool) []string {
	var out []string
	for _, s := range schemes {
		if has(s) {
			out = append(out, s.name)
		}
	}
	return out
}

// String names the scheme.
func (s Scheme) String() string {
	if s < numSchemes {
		return schemes[s].name
	}
	return fmt.Sprintf("Scheme(%d)", uint8(s))
}

// ParseScheme parses a scheme name.
func ParseScheme(s string) (Scheme, error) {
	for i, spec := range schemes {
		if strings.EqualFold(s, spec.name) {
			return Scheme(i), nil
		}
	}
	return 0, fmt.Errorf("unknown scheme %q (allowed: %s)", s, strings.Join(SchemeNames, ", "))
}

// SplitMode is how CREW and OPR weigh their blocks.
type SplitMode uint8

const (
	// NetworkAware (N-A) takes the weights from the LP.
	NetworkAware SplitMode = iota
	// Even (E-D) splits the model evenly.
	Even
)

// ParseSplit parses "n-a" / "na" or "e-d" / "ed" (case-insensitive).
func ParseSplit(s string) (SplitMode, error) {
	switch strings.ToLower(strings.ReplaceAll(s, "-", "")) {
	case "na":
		return NetworkAware, nil
	case "ed":
		return Even, nil
	}
	return 0, fmt.Errorf("unknown split %q (allowed: n-a, e-d)", s)
}

// ScatterMode is blocking or non-blocking scatter (Sec. IV-A2).
type ScatterMode uint8

const (
	// Blocking: an initiator scatters once it has the plan for its P.
	Blocking ScatterMode = iota
	// NonBlocking: a ready worker scatters at once by the default plan
	// (weights for P = N); when P is known the plan is adjusted by Alg. 2
	// and chunks that reached the wrong aggregator are discarded.
	NonBlocking
)

// ParseScatter parses "blocking" or "non-blocking".
func ParseScatter(s string) (ScatterMode, error) {
	switch strings.ToLower(s) {
	case "blocking":
		return Blocking, nil
	case "non-blocking", "nonblocking":
		return NonBlocking, nil
	}
	return 0, fmt.Errorf("unknown scatter mode %q (allowed: blocking, non-blocking)", s)
}

// Eq3Load selects the workload term of Eq. 3.
//
// Eq. 3 reads h(S) = argmin_{k in S} max_{i in P} (l_i + x_j) /
// min(b_ik, b_ki), with l_i "the total block volume that worker i is
// scheduled to reduce". Indexed by i in P, l_i does not depend on the
// candidate k, which would make the choice ignore how loaded k already is;
// the text motivates the rule as picking the candidate with "the minimum
// estimated workload", so we read l_i as l_k, the candidate's own load
// (Eq3Candidate, the default), and keep the literal reading as Eq3Literal.
type Eq3Load uint8

const (
	// Eq3Candidate uses the candidate's load l_k.
	Eq3Candidate Eq3Load = iota
	// Eq3Literal uses l_i of each initiator i, as printed.
	Eq3Literal
)

// ParseEq3 parses "candidate" or "literal".
func ParseEq3(s string) (Eq3Load, error) {
	return parseName[Eq3Load]("Eq. 3 load reading", s, "candidate", "literal")
}

// Pipeline is how CREW and OPR move a block: chunk by chunk, pipelined
// (Sec. IV-A1: "by splitting the tensors into fine-grained chunks for
// pipelined communication, the multicast procedure can be partially
// overlapped with the scatter, thus T_CREW <= T"), or as one transfer
// multicast once every copy has arrived.
type Pipeline uint8

const (
	// PipelineChunk sends every copy as a stream of chunks in increasing
	// order; an aggregator reduces each chunk as soon as its p copies have
	// arrived and multicasts it at once (the paper's design).
	PipelineChunk Pipeline = iota
	// PipelineBlock moves each copy as one transfer and multicasts the
	// block once all p copies have arrived (store-and-forward per block).
	PipelineBlock
)

// ParsePipeline parses "chunk" or "block".
func ParsePipeline(s string) (Pipeline, error) {
	return parseName[Pipeline]("pipeline", s, "chunk", "block")
}

// FailoverMode is what moves to a replacement aggregator (Sec. IV-B).
type FailoverMode uint8

const (
	// FailoverMove: the replacement takes over the block ("take over the
	// aggregator role of worker j", Eq. 3 sized by the block's x_j): every
	// chunk of it that some member still lacks is scattered again to the
	// replacement by every member and reduced there; copies at the old
	// aggregator are discarded; members keep the result chunks they hold.
	FailoverMove FailoverMode = iota
	// FailoverSplit keeps what the old aggregator can still finish: the
	// chunks it has reduced and whose result already crossed the broken
	// connection stay with it (it multicasts them to the members it still
	// reaches); only the rest moves to the replacement.
	FailoverSplit
)

// ParseFailover parses "move" or "split".
func ParseFailover(s string) (FailoverMode, error) {
	return parseName[FailoverMode]("failover mode", s, "move", "split")
}

// Eq3Scope is which partial reduces Eq. 3's load l counts.
type Eq3Scope uint8

const (
	// Eq3Task counts the blocks a worker reduces in the partial reduce
	// being repaired.
	Eq3Task Eq3Scope = iota
	// Eq3Running counts the blocks it reduces in every partial reduce
	// under way ("the total block volume that worker i is scheduled to
	// reduce" need not be limited to one task).
	Eq3Running
)

// ParseEq3Scope parses "task" or "running".
func ParseEq3Scope(s string) (Eq3Scope, error) {
	return parseName[Eq3Scope]("Eq. 3 load scope", s, "task", "running")
}

// Options configure how partial reduces run.
type Options struct {
	Scheme    Scheme
	P         int          // workers per partial reduce
	Split     SplitMode    // CREW and OPR
	Objective Objective    // LP objective (N-A)
	Scatter   ScatterMode  // CREW only; the others always block
	Model     netsim.Bytes // model size
	Chunks    int          // k, chunks the model is serialised into
	// Control is the one-way latency between a worker and the controller:
	// a readiness report reaches the controller, and a plan reaches a
	// worker, Control after it is sent.
	Control netsim.Time
	// ReduceRate is how fast an aggregator sums its block (bits/s of each
	// extra copy); 0 makes reduction instantaneous (Sec. I: the reduce
	// computation is "not computationally intensive").
	ReduceRate float64
	// Eq3 selects the reading of Eq. 3 for replacement aggregators, and
	// Eq3Scope which partial reduces its load counts.
	Eq3      Eq3Load
	Eq3Scope Eq3Scope
	// Pipeline is chunk-by-chunk (the paper's) or block store-and-forward.
	Pipeline Pipeline
	// Failover is what moves to a replacement aggregator.
	Failover FailoverMode
	// Detect is how long after an outage begins its endpoints notice it
	// (heartbeat timeout, Sec. IV-B).
	Detect netsim.Time
	// Budget abandons a partial reduce not complete this long after its P
	// was formed (the self-healing time budget of Sec. IV-B); 0 = none.
	Budget netsim.Time
	// TreeSegments is how many pipelined segments the tree baselines
	// (BLINK, ToA) cut each tree's share into.
	TreeSegments int
	// AnnealSteps is the number of simulated-annealing steps of ToA.
	AnnealSteps int

	// viaEngine moves CREW's and OPR's streams through the fluid engine,
	// one transfer per chunk, instead of the mesh (tests compare the two).
	viaEngine bool
}

// Validate checks the options against n workers.
func (o Options) Validate(n int) error {
	switch {
	case o.P < 1:
		return fmt.Errorf("p = %d: need at least 1 worker per partial reduce", o.P)
	case o.P > n:
		return fmt.Errorf("p = %d exceeds the number of workers n = %d", o.P, n)
	case o.Model <= 0:
		return fmt.Errorf("model size %d bytes must be positive", o.Model)
	case o.Chunks < 1:
		return fmt.Errorf("chunks = %d: need at least 1", o.Chunks)
	case int64(o.Chunks) > int64(o.Model):
		return fmt.Errorf("chunks = %d exceed the model's %d bytes", o.Chunks, o.Model)
	case o.Control < 0 || o.Detect < 0 || o.Budget < 0:
		return fmt.Errorf("control, detection and budget times must be non-negative")
	case o.ReduceRate < 0:
		return fmt.Errorf("reduce rate %v must be non-negative", o.ReduceRate)
	case o.Scheme >= numSchemes:
		return fmt.Errorf("unknown scheme %d", o.Scheme)
	}
	return nil
}

func (o Options) chunking() Chunking { return Chunking{Size: o.Model, K: o.Chunks} }

// parseName parses one of names, the i-th standing for T(i), with the
// one-line error the parsers above share.
func parseName[T ~uint8](what, s string, names ...string) (T, error) {
	for i, n := range names {
		if s == n {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q (allowed: %s)", what, s, strings.Join(names, ", "))
}
