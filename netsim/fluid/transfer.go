package fluid

import "syncsim/netsim"

// state is where a transfer is in its life.
type state uint8

const (
	stFree     state = iota // slot unused
	stPending               // waiting out StartLatency
	stActive                // competing for bandwidth
	stDraining              // last byte sent, propagating to dst
)

// transfer is one bulk transfer. Transfers live in Engine.slots and are
// reused after their done callback fires.
type transfer struct {
	id    uint64 // flow id, also the tie-breaker in the completion order
	slot  int32
	st    state
	src   netsim.NodeID
	dst   netsim.NodeID
	size  netsim.Bytes
	path  []netsim.LinkID
	pos   []int32 // index of this transfer in each path link's list
	prop  netsim.Time
	done  func()
	start netsim.Time // activation time (FCFS rank)
	seq   uint64      // activation order, breaks FCFS ties deterministically
	key   int64       // Priority mode: the caller's key (lower served first)

	cancelled bool // Cancel was called: done is never called

	prevAct, nextAct *transfer // neighbours in the engine's active list

	remaining float64     // bytes still to send, as of last
	rate      float64     // bits/s
	prev      float64     // rate before the current recomputation
	last      netsim.Time // time remaining was last advanced to
	finish    netsim.Time // projected completion (last byte sent); Never if rate 0
	entryAt   netsim.Time // time of its live entry in the ordered set, if inTree
	inTree    bool

	cmark  uint32 // component epoch
	fgroup uint32 // fill epoch of the group being allocated
	frozen bool   // rate fixed in the current fill
}

// item is a projected completion in the ordered set.
type item struct {
	at netsim.Time
	id uint64
	t  *transfer
}

func itemLess(a, b item) bool {
	return a.at < b.at || (a.at == b.at && a.id < b.id)
}

// linkState is the engine's view of one directed link.
type linkState struct {
	cap   float64 // bits/s
	trs   []*transfer
	resid float64 // residual capacity during a fill
	n     int32   // unfrozen transfers of the current group crossing it
	share float64 // resid/n, the heap key during a fill
	hpos  int32   // position in the fill heap, -1 when absent
	fmark uint32  // fill epoch
	cmark uint32  // component epoch
	chg   uint32  // change epoch within a fill round
	dirty bool

	uncapped bool // never a bottleneck: left out of transfers' paths
}

// bitsPerByteps converts bytes/ps to bits/s: rate[bits/s] * dt[ps] / 8e12 = bytes.
const bitsPerByteps = 8e12

// projectFinish returns now + ceil(8e12 rem / rate) ps, or Never.
func projectFinish(now netsim.Time, rem, rate float64) netsim.Time {
	if rate <= 0 {
		return netsim.Never
	}
	if rem <= 0 {
		return now
	}
	dt := rem * bitsPerByteps / rate
	if dt >= float64(netsim.Never-now) {
		return netsim.Never
	}
	d := netsim.Time(dt)
	if float64(d) < dt {
		d++
	}
	return now + d
}
