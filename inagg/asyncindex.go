package inagg

import (
	"slices"
)

// IndexMode is how the switch maps a hashed protocol's (job, seq) to an
// aggregator.
type IndexMode uint8

// Index modes.
const (
	// IndexSequential (the default) gives each job an offset when it
	// registers and maps seq to (offset + seq) mod M: the sequences a job
	// has outstanding are consecutive, so they take distinct aggregators
	// while its window (the span from the slowest worker's last result to
	// the fastest worker's next sequence) is below M, and two jobs collide
	// only when one's window runs into the other's. This is what the public
	// ATP client achieves: each thread owns a block of
	// max_agtr_size_per_thread distinct aggregators, sequence s uses entry
	// (s - 1) mod max_agtr_size_per_thread of the block, and the window
	// never exceeds the block (in-ATP/ATP, client/p4ml_manager.cc:224,387
	// for the index, :612-617 and common/HashTable.cc:57-76 for the block
	// of distinct aggregators), so a job never collides with itself; jobs
	// meet only where their blocks overlap. The PA-ATP paper takes ATP's
	// aggregation as it is (Sec. II-B2, IV).
	IndexSequential IndexMode = iota
	// IndexHash maps (job, seq) to hash(job, seq) mod M, so that
	// sequences of one job collide with each other at any occupancy (the
	// earlier model, kept for comparison).
	IndexHash
	numIndexModes
)

var indexModeNames = [numIndexModes]string{"sequential", "hash"}

// String is the mode's name.
func (m IndexMode) String() string { return enumName(indexModeNames[:], m, "index") }

// IndexModeNames lists the index modes' names, the default first.
func IndexModeNames() []string { return append([]string(nil), indexModeNames[:]...) }

// ParseIndexMode maps a name to its IndexMode; the error lists the names.
func ParseIndexMode(name string) (IndexMode, error) {
	return parseEnum[IndexMode](indexModeNames[:], name, "aggregator index")
}

// asyncIndex is the aggregator of sequence seq of hashed job s under the
// configured IndexMode.
func (a *Aggregator) asyncIndex(s *swJob, seq int64) int {
	m := int64(a.mem.Size())
	if a.cfg.Index == IndexHash {
		return hashIndex(s.id, seq, int(m))
	}
	return int((int64(s.aggOff) + seq%m) % m)
}

// chooseOffset is the sequential index's offset for a job registering now:
// the middle of the widest stretch of aggregators between the positions
// the registered hashed jobs have reached (offset plus the highest
// sequence seen), 0 for the first job. Jobs registered together (offsets
// 0, M/2, 3M/4, M/4, ...) start as far apart as the memory allows, so that
// none runs into another until their progress differs by the gap.
func (a *Aggregator) chooseOffset() int {
	m := a.mem.Size()
	var pos []int
	for _, s := range a.jobs {
		if s != nil && s.proto.Hashed() {
			pos = append(pos, int((int64(s.aggOff)+max(s.smax, 0))%int64(m)))
		}
	}
	if len(pos) == 0 {
		return 0
	}
	slices.Sort(pos)
	bestAt, bestGap := pos[len(pos)-1], pos[0]+m-pos[len(pos)-1] // the stretch that wraps
	for i := 1; i < len(pos); i++ {
		if g := pos[i] - pos[i-1]; g > bestGap {
			bestAt, bestGap = pos[i-1], g
		}
	}
	return (bestAt + bestGap/2) % m
}
