package inagg

// OccupancyMode is what PA-ATP's AECN counts as overflow when it compares
// the aggregator occupancy with eta (M + BDP) (Sec. III-B3).
type OccupancyMode uint8

// Occupancy modes.
const (
	// OccupancySequences (the default) counts each sequence with at least
	// one contribution sent on to the PS once, until its result passes the
	// switch: occupancy = aggregators in use + overflowed sequences. Sec.
	// III-B3 says "the number of used aggregators and overflowed
	// gradients", where a gradient is one sequence number's segment
	// (Sec. II-B2: "each segment is assigned a unique sequence number"),
	// and the model of Sec. III-C that sets the threshold counts
	// sequences: R(t) = N x AWD(t) (Eq. 3), AWD bounding the sequences a
	// job has between its slowest result and its fastest sender, with
	// R_max = eta (M + BDP) + N (Eq. 7) and R_max < M + BDP - C_A (Eq. 8).
	// Counting each of a sequence's N contributions would reach the
	// threshold N times too early.
	OccupancySequences OccupancyMode = iota
	// OccupancyGradients counts every contribution sent on to the PS (the
	// earlier model, kept for comparison).
	OccupancyGradients
	numOccupancyModes
)

var occupancyModeNames = [numOccupancyModes]string{"sequences", "gradients"}

// String is the mode's name.
func (m OccupancyMode) String() string { return enumName(occupancyModeNames[:], m, "occupancy") }

// OccupancyModeNames lists the occupancy modes' names, the default first.
func OccupancyModeNames() []string { return append([]string(nil), occupancyModeNames[:]...) }

// ParseOccupancyMode maps a name to its OccupancyMode; the error lists the
// names.
func ParseOccupancyMode(name string) (OccupancyMode, error) {
	return parseEnum[OccupancyMode](occupancyModeNames[:], name, "AECN occupancy count")
}

// Overflowed is the overflow term of the AECN occupancy under the
// configured OccupancyMode: sequences (or gradients) sent on to the PS
// whose result has not yet passed the switch.
func (a *Aggregator) Overflowed() int64 {
	if a.cfg.Occupancy == OccupancyGradients {
		return a.ovfGrads
	}
	return a.ovfSeqs
}

// Occupancy is used aggregators + Overflowed, the quantity AECN compares
// with eta (M + BDP).
func (a *Aggregator) Occupancy() float64 { return float64(a.mem.used) + float64(a.Overflowed()) }

// AECNThreshold is eta (M + BDP), above which results are marked AECN.
func (a *Aggregator) AECNThreshold() float64 { return a.aecnThr }

// PeakOccupancyFrac is the largest Occupancy so far over M + BDP.
func (a *Aggregator) PeakOccupancyFrac() float64 {
	return float64(a.mem.PeakOccupancy()) / float64(a.mem.Size()+a.cfg.BDPPackets)
}

// MeanOccupancyFrac is the time average of Occupancy since creation (or
// Memory().ResetMean) over M + BDP, the fraction AECN compares with eta.
func (a *Aggregator) MeanOccupancyFrac() float64 {
	return a.mem.MeanOccupancy() / float64(a.mem.Size()+a.cfg.BDPPackets)
}

// countOverflow records a gradient of s's sequence seq sent on to the PS
// for cause: the per-sequence mark, the switch's outstanding overflow and
// the job's counters (a sequence's cause is that of its first overflowed
// contribution).
func (a *Aggregator) countOverflow(s *swJob, seq int64, cause overflowCause) {
	m := &s.ring[seq&s.mask]
	if m.tag != seq {
		if m.tag > seq {
			return
		}
		a.retire(m)
		*m = seqMark{tag: seq}
	}
	if m.done {
		return
	}
	if m.ovf == 0 {
		a.ovfSeqs++
		s.stats().OverflowSequences++
		switch cause {
		case ovfCollision:
			s.stats().CollisionSequences++
		case ovfExhaustion:
			s.stats().ExhaustionSequences++
		case ovfResend:
			s.stats().ResendSequences++
		}
	}
	m.ovf++
	a.ovfGrads++
	s.stats().OverflowGradients++
	a.mem.setOverflow(a.Overflowed())
}

// retire removes m's overflowed gradients from the outstanding counts.
func (a *Aggregator) retire(m *seqMark) {
	if m.ovf == 0 {
		return
	}
	a.ovfGrads -= int64(m.ovf)
	a.ovfSeqs--
	m.ovf = 0
	a.mem.setOverflow(a.Overflowed())
}
