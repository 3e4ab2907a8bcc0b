package switchmodel

import (
	"fmt"
	"math"
	"math/rand/v2"

	"syncsim/netsim"
)

// REDConfig configures Random Early Detection (Floyd and Jacobson, "Random
// Early Detection Gateways for Congestion Avoidance", IEEE/ACM ToN 1993) on
// the average occupancy in bytes. Below MinBytes nothing happens; between
// MinBytes and MaxBytes an arriving packet is picked with probability
// pb = MaxP (avg - MinBytes) / (MaxBytes - MinBytes) (Sec. 4); at or above
// MaxBytes every packet is picked (or, with Gentle, the probability rises
// linearly from MaxP to 1 between MaxBytes and 2 MaxBytes; Floyd 2000).
// A picked packet is marked CE if it is ECN-capable and dropped otherwise
// (RFC 3168 Sec. 5); with HardDrop, packets picked because avg >= MaxBytes
// are dropped even if ECN-capable (RFC 3168 Sec. 7).
//
// With Weight 1 and MinBytes = MaxBytes = K, RED is DCTCP's step marking on
// the instantaneous queue (the ns-3 DCTCP setup).
type REDConfig struct {
	MinBytes netsim.Bytes // lower threshold on the average queue
	MaxBytes netsim.Bytes // upper threshold
	MaxP     float64      // marking probability at MaxBytes
	// Weight is the EWMA weight w_q of the average (Floyd and Jacobson
	// suggest 0.002); 1 uses the instantaneous queue.
	Weight float64
	// Spacing applies the paper's count correction pa = pb/(1 - count pb)
	// (Sec. 7), which spreads marks uniformly: the gap between marks is
	// uniform on 1..1/pb, so the long-run marking fraction is 2pb/(1+pb).
	// Without it each packet is picked independently with probability pb.
	Spacing bool
	// Gentle enables the gentle slope above MaxBytes.
	Gentle bool
	// HardDrop drops (rather than marks) ECN-capable packets when the
	// average is at or above MaxBytes.
	HardDrop bool
	// IdlePacketTime, if positive, decays the average over an idle period
	// as if m = idle/IdlePacketTime empty-queue arrivals had occurred:
	// avg <- (1-Weight)^m avg (Sec. 4). Set it to a typical packet's
	// transmission time on the link.
	IdlePacketTime netsim.Time
}

// Validate reports a configuration error, if any.
func (c *REDConfig) Validate() error {
	switch {
	case c.MinBytes < 0 || c.MaxBytes < c.MinBytes:
		return fmt.Errorf("RED thresholds must satisfy 0 <= min (%d B) <= max (%d B)", c.MinBytes, c.MaxBytes)
	case !(c.MaxP >= 0 && c.MaxP <= 1):
		return fmt.Errorf("RED max probability %v outside [0, 1]", c.MaxP)
	case !(c.Weight > 0 && c.Weight <= 1):
		return fmt.Errorf("RED weight %v outside (0, 1]", c.Weight)
	case c.IdlePacketTime < 0:
		return fmt.Errorf("RED idle packet time %v is negative", c.IdlePacketTime)
	}
	return nil
}

type redAction uint8

const (
	redPass redAction = iota
	redMark           // mark if ECT, else drop
	redDrop           // drop regardless
)

type redState struct {
	avg       float64
	count     int
	idle      bool
	idleStart netsim.Time
}

func (r *redState) idleSince(now netsim.Time) {
	if !r.idle {
		r.idle, r.idleStart = true, now
	}
}

// REDAverage is the current RED average occupancy in bytes (0 without RED).
func (q *PortQueue) REDAverage() float64 { return q.red.avg }

// redAverage updates the average with the occupancy an arriving packet sees.
func (q *PortQueue) redAverage(now netsim.Time) {
	c, r := q.cfg.RED, &q.red
	if r.idle {
		r.idle = false
		if c.IdlePacketTime > 0 && q.data.n == 0 {
			m := float64(now-r.idleStart) / float64(c.IdlePacketTime)
			r.avg *= math.Pow(1-c.Weight, m)
		}
	}
	r.avg += c.Weight * (float64(q.data.bytes) - r.avg)
}

// redDecide picks (or not) the arriving packet from the current average.
func (q *PortQueue) redDecide() redAction {
	c, r := q.cfg.RED, &q.red
	avg := r.avg
	min, max := float64(c.MinBytes), float64(c.MaxBytes)
	var pb float64
	switch {
	case avg < min:
		r.count = 0
		return redPass
	case avg < max:
		pb = c.MaxP * (avg - min) / (max - min)
	case c.Gentle && avg < 2*max:
		pb = c.MaxP + (1-c.MaxP)*(avg-max)/max
	default:
		r.count = 0
		if c.HardDrop {
			return redDrop
		}
		return redMark
	}
	pa := pb
	if c.Spacing {
		if d := 1 - float64(r.count)*pb; d > 0 {
			pa = pb / d
		} else {
			pa = 1
		}
	}
	if q.rng().Float64() < pa {
		r.count = 0
		return redMark
	}
	r.count++
	return redPass
}

func (q *PortQueue) rng() *rand.Rand {
	if q.redRng == nil {
		q.redRng = q.sim.Rand("switchmodel/red/" + q.name)
	}
	return q.redRng
}
