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

var protocolNames = [numProtocols]string{"byteps", "switchml", "atp", "strawasyn", "strawasyn-pc", "strawasyn-al", "pa-atp"}

// String is the protocol's kebab-case name.
func (p Protocol) String() string {
	if p < numProtocols {
		return protocolNames[p]
	}
	return fmt.Sprintf("protocol(%d)", uint8(p))
}

// ProtocolNames lists every protocol name, in declaration order.
func ProtocolNames() []string { return append([]string(nil), protocolNames[:]...) }

// ParseProtocol maps a name to its Protocol; the error lists the names.
func ParseProtocol(name string) (Protocol, error) {
	for i, n := range protocolNames {
		if n == name {
			return Protocol(i), nil
		}
	}
	return 0, fmt.Errorf("unknown INA protocol %q (allowed: %s)", name, strings.Join(protocolNames[:], ", "))
}

// INA reports whether the protocol aggregates in the switch.
func (p Protocol) INA() bool { return p != BytePS }

// Hashed reports whether the protocol uses ATP's hashed aggregators with
// PS fallback.
func (p Protocol) Hashed() bool { return p >= ATP && p < numProtocols }

// Async reports whether gradients are acknowledged one by one (GACKs from
// the switch or PS) and the congestion window slides on them.
func (p Protocol) Async() bool { return p == BytePS || p >= StrawAsyn && p < numProtocols }

// ProgressAware reports whether window cuts use the progress degree.
func (p Protocol) ProgressAware() bool { return p == StrawAsynPC || p == PAATP }

// AsyncLimited reports whether the asynchronous degree window AWD limits
// sending.
func (p Protocol) AsyncLimited() bool { return p == StrawAsynAL || p == PAATP }
