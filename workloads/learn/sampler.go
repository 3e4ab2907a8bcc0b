package learn

import (
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// sampler draws one worker's mini-batches: its shard in a random order,
// reshuffled at every epoch, from its own stream, so worker w's k-th
// batch is the same under every scheme for a given seed.
type sampler struct {
	rows []int
	pos  int
	rng  *rand.Rand
}

func newSampler(rows []int, rng *rand.Rand) *sampler {
	s := &sampler{rows: slices.Clone(rows), rng: rng}
	s.shuffle()
	return s
}

func (s *sampler) shuffle() {
	s.rng.Shuffle(len(s.rows), func(i, j int) { s.rows[i], s.rows[j] = s.rows[j], s.rows[i] })
	s.pos = 0
}

// next fills x (B x Dim) and y with the next B rows of d.
func (s *sampler) next(d *Dataset, x *mat.Dense, y []int) {
	b, _ := x.Dims()
	for i := range b {
		if s.pos == len(s.rows) {
			s.shuffle()
		}
		r := s.rows[s.pos]
		s.pos++
		d.Row(r, x.RawRowView(i))
		y[i] = d.Labels[r]
	}
}
