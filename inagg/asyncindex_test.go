package inagg

import (
	"testing"

	"syncsim/netsim"
)

// idleJob registers a job of proto on s without starting it, so that a
// test can drive the switch program by hand.
func idleJob(t *testing.T, s *star, id int, proto Protocol) *Job {
	t.Helper()
	j, err := NewJob(s.net, JobConfig{ID: id, Protocol: proto, Workers: s.workers, PS: s.ps, Switch: s.agg,
		Gradient: 100 * netsim.Kilobyte, Iterations: 1})
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// window is the set of aggregators sequences [from, from+n) of s take.
func window(a *Aggregator, s *swJob, from, n int64) map[int]int64 {
	out := map[int]int64{}
	for seq := from; seq < from+n; seq++ {
		if prev, ok := out[a.asyncIndex(s, seq)]; ok {
			out[-1] = prev // marks a collision inside the window
		}
		out[a.asyncIndex(s, seq)] = seq
	}
	return out
}

// TestSequentialIndexKeepsWindowsApart: under IndexSequential a job's
// window of consecutive sequences never collides with itself while it is
// at most M, jobs registered together get offsets 0, M/2, 3M/4, M/4, and
// two jobs whose windows fit in their half of the memory never share an
// aggregator whatever their progress within that slack. The hash index of
// the same windows does collide (the behaviour the sequential index
// removes).
func TestSequentialIndexKeepsWindowsApart(t *testing.T) {
	const m = 64
	for _, mode := range []IndexMode{IndexSequential, IndexHash} {
		t.Run(mode.String(), func(t *testing.T) {
			cfg := DefaultAggregatorConfig()
			cfg.Memory, cfg.Index = m*AggregatorBytes, mode
			s := newStar(t, starCfg{workers: 2, agg: cfg})
			var jobs []*swJob
			for id := 0; id < 4; id++ {
				idleJob(t, s, id, PAATP)
				jobs = append(jobs, s.agg.jobs[id])
			}
			a, ja, jb := s.agg, jobs[0], jobs[1]
			selfCollisions, crossCollisions := 0, 0
			for from := int64(0); from < 3*m; from++ {
				if _, hit := window(a, ja, from, m/2)[-1]; hit {
					selfCollisions++
				}
			}
			const w = m / 4 // each job's window; slack m/2 - w either way
			for from := int64(0); from < 3*m; from++ {
				for d := -int64(m/2 - w); d <= m/2-w; d++ {
					if from+d < 0 {
						continue
					}
					wa, wb := window(a, ja, from, w), window(a, jb, from+d, w)
					for idx := range wb {
						if _, ok := wa[idx]; ok && idx >= 0 {
							crossCollisions++
						}
					}
				}
			}
			if mode == IndexHash {
				if selfCollisions == 0 {
					t.Fatal("hash(job, seq) mod M never collided within a window of M/2: the comparison is vacuous")
				}
				return
			}
			if selfCollisions != 0 || crossCollisions != 0 {
				t.Fatalf("%d windows of M/2 collided with themselves, %d aggregators shared by two jobs", selfCollisions, crossCollisions)
			}
			if _, hit := window(a, ja, 5, m+1)[-1]; !hit {
				t.Fatal("a window of M+1 sequences fitted in M aggregators")
			}
			for i, want := range []int{0, m / 2, 3 * m / 4, m / 4} {
				if got := jobs[i].aggOff; got != want {
					t.Fatalf("job %d offset %d, want %d", i, got, want)
				}
			}
		})
	}
}
