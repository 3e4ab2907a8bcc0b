package inagg

// FlushMode is what a resend that finds its sequence's partial aggregate
// in an aggregator sends to the PS (AggregatorConfig.Flush). Either way
// the aggregator is freed (ATP's memory-leak avoidance, PA-ATP Sec.
// III-B1).
type FlushMode uint8

// Flush modes.
const (
	// FlushSeparate: the partial aggregate goes to the PS as a packet of
	// its own and the resend goes on beside it, two packets: PA-ATP Sec.
	// III-B1, the resend "will release the partitioned aggregation result
	// in aggregator and be directly sent to PS". The default for every
	// protocol.
	FlushSeparate FlushMode = iota
	// FlushMerged: the resend carries the partial aggregate, with its own
	// contribution added if the aggregate lacked it, to the PS in one
	// packet, as ATP's switch does (in-ATP/ATP p4src/p4ml.p4:92-129,
	// 175-215); a PS that already holds part of it drops the packet
	// (server/ParameterServer.cc:262-274), with every other contribution
	// the packet carries, and answers it with the result if the sequence
	// is complete. Under ATP's collision rule this is a departure for ATP
	// kept as an option: on the default idle ina-leafspine point ATP
	// finished 4 of 8 jobs by 400 ms with 35 M drops under it, against an
	// AJCT of 7.3 ms with separate flushes, and PA-ATP left 1 of 8 jobs
	// unfinished by 100 ms (2.5 ms separate).
	FlushMerged
	numFlushModes
)

var flushModeNames = [numFlushModes]string{"separate", "merged"}

// String is the mode's name.
func (m FlushMode) String() string {
	if m < numFlushModes {
		return flushModeNames[m]
	}
	return "flush(?)"
}

// FlushModeNames lists the modes' names, the default first.
func FlushModeNames() []string { return append([]string(nil), flushModeNames[:]...) }

// ParseFlushMode maps a name to its FlushMode.
func ParseFlushMode(name string) (FlushMode, bool) {
	for i, n := range flushModeNames {
		if n == name {
			return FlushMode(i), true
		}
	}
	return 0, false
}
