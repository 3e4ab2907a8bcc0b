package crew

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"syncsim/netsim"
)

// Formation is one partial reduce as the controller formed it: its id,
// the time, and its members P in the order their readiness reports
// reached the controller's queue (Sec. III: "the CREW controller
// maintains a queue to record which workers are ready for partial
// reduce, and would pop them out ... once the number of workers in the
// queue reaches p"), with when each became ready and how many partial
// reduces each had completed.
type Formation struct {
	Pid     int
	At      netsim.Time
	Members []int
	Ready   []netsim.Time // per member: when its local iteration ended
	Rounds  []int         // per member: partial reduces it completed before
}

// mixing tallies which workers meet in the partial reduces formed from
// time from on: the pairs of workers that were members of one P together
// and the distinct sets P. Whether the groups mix is what lets partial
// reduce's models agree: each partial reduce averages only its members'
// models, so if the same sets keep forming, workers in different sets
// never exchange anything and their models drift apart.
type mixing struct {
	n      int
	from   netsim.Time
	met    []bool // n x n, i < j
	groups map[string]bool
	formed int
}

func newMixing(n int, from netsim.Time) *mixing {
	return &mixing{n: n, from: from, met: make([]bool, n*n), groups: map[string]bool{}}
}

// add books the formation of members at time at.
func (m *mixing) add(at netsim.Time, members []int) {
	if at < m.from {
		return
	}
	m.formed++
	s := slices.Clone(members)
	slices.Sort(s)
	var key strings.Builder
	for i, a := range s {
		key.WriteString(strconv.Itoa(a))
		key.WriteByte(',')
		for _, b := range s[i+1:] {
			m.met[a*m.n+b] = true
		}
	}
	m.groups[key.String()] = true
}

// pairsFrac is the fraction of the n(n-1)/2 worker pairs that were
// members of one partial reduce together (NaN with fewer than 2 workers
// or no partial reduce formed in the window).
func (m *mixing) pairsFrac() float64 {
	if m.n < 2 || m.formed == 0 {
		return math.NaN()
	}
	k := 0
	for _, v := range m.met {
		if v {
			k++
		}
	}
	return float64(k) / float64(m.n*(m.n-1)/2)
}
