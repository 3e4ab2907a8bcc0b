package switchmodel

import (
	"fmt"

	"syncsim/netsim"
)

// SharedBuffer is a switch-wide packet memory shared by the switch's output
// queues under the dynamic-threshold policy of Choudhury and Hahne ("Dynamic
// queue length thresholds for shared-memory packet switches", IEEE/ACM ToN
// 1998, Sec. II): a packet is admitted to a queue of length q only if
//
//	q < Alpha * (Total - used)
//
// where used is the memory occupied by all queues, and the packet fits in
// the free memory. A queue can therefore take at most Alpha/(1+Alpha) of the
// buffer when alone, and N congested queues settle at Alpha*Total/(1+N*Alpha)
// each. Broadcom-class datacenter switches use Alpha of 1 or 2 (alpha = 1 is
// the value Choudhury and Hahne recommend and the common default).
type SharedBuffer struct {
	Total netsim.Bytes // memory shared by the switch's queues
	Alpha float64      // dynamic-threshold factor

	used netsim.Bytes
}

// NewSharedBuffer returns an empty shared buffer.
func NewSharedBuffer(total netsim.Bytes, alpha float64) *SharedBuffer {
	return &SharedBuffer{Total: total, Alpha: alpha}
}

// Clone returns an empty buffer with the same size and factor (one per
// switch, from a configuration template).
func (s *SharedBuffer) Clone() *SharedBuffer { return NewSharedBuffer(s.Total, s.Alpha) }

// Validate reports a configuration error, if any.
func (s *SharedBuffer) Validate() error {
	if s.Total <= 0 {
		return fmt.Errorf("shared buffer size %d B must be positive", s.Total)
	}
	if !(s.Alpha > 0) {
		return fmt.Errorf("shared buffer alpha %v must be positive", s.Alpha)
	}
	return nil
}

// Used is the memory occupied by all queues drawing on the buffer.
func (s *SharedBuffer) Used() netsim.Bytes { return s.used }

// Threshold is the current per-queue limit Alpha*(Total-used), in bytes.
func (s *SharedBuffer) Threshold() float64 { return s.Alpha * float64(s.Total-s.used) }

// Admits reports whether a queue holding qbytes may take a packet of size
// bytes now.
func (s *SharedBuffer) Admits(qbytes, size netsim.Bytes) bool {
	return s.used+size <= s.Total && float64(qbytes) < s.Threshold()
}

func (s *SharedBuffer) admit(qbytes, size netsim.Bytes) bool { return s.Admits(qbytes, size) }
