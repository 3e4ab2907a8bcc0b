package inagg

import (
	"fmt"
	"strings"
)

// Protocol selects a gradient-synchronisation protocol.
type Protocol uint8

// Protocols (PA-ATP Sec. V-A baselines and Sec. VI-D ablations).
const (
	// BytePS pushes every gradient to the PS host, which aggregates and
	// sends the results back; no in-network aggregation. Workers use a
	// DCTCP window clocked by per-packet acknowledgements from the PS.
	BytePS Protocol = iota
	// SwitchML gives each job a pool of switch slots; a worker sends the
	// next chunk into a slot when that slot's result returns; the switch
	// multicasts results; no congestion control; per-slot timeouts.
	SwitchML
	// ATP hashes (job, seq) to an aggregator, forwards collisions to the
	// PS, which completes aggregation and multicasts results; a window
	// clocked by results with ECN cuts; resends release partial
	// aggregators.
	ATP
	// StrawAsyn is the strawman asynchronous protocol: the switch answers
	// each gradient with a GACK, and each worker runs its own window on
	// GACKs with DCTCP-style cuts, without progress awareness and without
	// an asynchrony limit.
	StrawAsyn
	// StrawAsynPC is StrawAsyn with PA-ATP's progress-aware cuts only.
	StrawAsynPC
	// StrawAsynAL is StrawAsyn with PA-ATP's asynchrony limit (AWD, AECN)
	// only.
	StrawAsynAL
	// PAATP is PA-ATP: dual windows CWD/AWD, GACK/AACK, progress-aware
	// cuts and AECN-driven asynchrony limit (Sec. III-B).
	PAATP
	numProtocols
)

// protocolSpec is a protocol's registration, everything that makes it
// itself in one place: its name, the properties that select the switch's
// behaviour and the parameters the scenarios offer it, and the constructor
// of its workers' sending policy. No code reads a property off a
// protocol's place in the list of constants.
type protocolSpec struct {
	name string // kebab-case, as the CSVs and the command line write it
	// ina: the protocol aggregates in the switch (all but BytePS).
	ina bool
	// hashed: ATP's aggregators with PS fallback, ATP's window and
	// retransmission timer.
	hashed bool
	// async: gradients are acknowledged one by one (GACKs from the switch,
	// or the PS's acknowledgements) and the congestion window slides on
	// them.
	async bool
	// progressAware: window cuts use the progress degree (Eq. 1).
	progressAware bool
	// asyncLimited: PA-ATP's asynchronous degree window AWD limits sending
	// and the switch marks AECN (Eq. 2).
	asyncLimited bool
	// worker builds worker w of job j's sending policy (see controller)
	// when the job is created; s is this registration.
	worker func(s *protocolSpec, j *Job, w *worker, maxCWD, initAWD float64) controller
}

// protocols registers every protocol, indexed by its constant. A constant
// added without an entry does not compile (the length checks below); an
// entry left empty inside the list stops every program that uses inagg at
// start-up (init), so no protocol falls back to another's behaviour.
var protocols = [...]protocolSpec{
	BytePS: {name: "byteps", async: true, worker: func(_ *protocolSpec, j *Job, _ *worker, maxCWD, _ float64) controller {
		return newBytePSCtl(j.params, maxCWD)
	}},
	SwitchML: {name: "switchml", ina: true, worker: func(_ *protocolSpec, j *Job, w *worker, _, _ float64) controller {
		return newSwitchMLCtl(w, j.agg.jobs[j.cfg.ID].poolSize)
	}},
	ATP: {name: "atp", ina: true, hashed: true, worker: func(_ *protocolSpec, j *Job, _ *worker, _, _ float64) controller {
		return newATPCtl(j.params, j.packets, j.hdr+j.payload)
	}},
	StrawAsyn:   {name: "strawasyn", ina: true, hashed: true, async: true, worker: asyncWorker},
	StrawAsynPC: {name: "strawasyn-pc", ina: true, hashed: true, async: true, progressAware: true, worker: asyncWorker},
	StrawAsynAL: {name: "strawasyn-al", ina: true, hashed: true, async: true, asyncLimited: true, worker: asyncWorker},
	PAATP:       {name: "pa-atp", ina: true, hashed: true, async: true, progressAware: true, asyncLimited: true, worker: asyncWorker},
}

// One entry per constant, no more and no fewer.
const (
	_ = uint(len(protocols) - int(numProtocols))
	_ = uint(int(numProtocols) - len(protocols))
)

func init() {
	if err := checkProtocols(protocols[:]); err != nil {
		panic(err)
	}
}

// checkProtocols reports an entry of table without a name or a worker,
// or with another's name.
func checkProtocols(table []protocolSpec) error {
	seen := map[string]bool{}
	for p, s := range table {
		if s.name == "" || s.worker == nil || seen[s.name] {
			return fmt.Errorf("inagg: protocol %d has no entry of its own in protocols (inagg/protocol.go)", p)
		}
		seen[s.name] = true
	}
	return nil
}

// String is the protocol's kebab-case name.
func (p Protocol) String() string {
	if p < numProtocols {
		return protocols[p].name
	}
	return fmt.Sprintf("protocol(%d)", uint8(p))
}

// ProtocolNames lists every protocol name, in declaration order.
func ProtocolNames() []string { return ProtocolNamesWhere(func(Protocol) bool { return true }) }

// ProtocolNamesWhere lists, in declaration order, the names of the
// protocols for which has is true: the scenarios offer each shared
// parameter to the protocols whose properties it concerns
// (ProtocolNamesWhere(Protocol.AsyncLimited) for the AWD's), so a new
// protocol is offered them by its registration alone.
func ProtocolNamesWhere(has func(Protocol) bool) []string {
	var out []string
	for p := range numProtocols {
		if has(p) {
			out = append(out, protocols[p].name)
		}
	}
	return out
}

// ParseProtocol maps a name to its Protocol; the error lists the names.
func ParseProtocol(name string) (Protocol, error) {
	for p := range numProtocols {
		if protocols[p].name == name {
			return p, nil
		}
	}
	return 0, fmt.Errorf("unknown INA protocol %q (allowed: %s)", name, strings.Join(ProtocolNames(), ", "))
}

// INA reports whether the protocol aggregates in the switch.
func (p Protocol) INA() bool { return p < numProtocols && protocols[p].ina }

// Hashed reports whether the protocol uses ATP's hashed aggregators with
// PS fallback.
func (p Protocol) Hashed() bool { return p < numProtocols && protocols[p].hashed }

// Async reports whether gradients are acknowledged one by one (GACKs from
// the switch or PS) and the congestion window slides on them.
func (p Protocol) Async() bool { return p < numProtocols && protocols[p].async }

// ProgressAware reports whether window cuts use the progress degree.
func (p Protocol) ProgressAware() bool { return p < numProtocols && protocols[p].progressAware }

// AsyncLimited reports whether the asynchronous degree window AWD limits
// sending.
func (p Protocol) AsyncLimited() bool { return p < numProtocols && protocols[p].asyncLimited }
