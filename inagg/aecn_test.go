package inagg

import (
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

// handSwitch drives an aggregator by hand: gradients and results are
// handed to its Ingress directly, without running the simulation.
type handSwitch struct {
	t *testing.T
	s *star
}

// gradient offers worker w's contribution to seq of job j and reports
// whether the switch took it (answered with a GACK) rather than sending it
// on to the PS.
func (h handSwitch) gradient(j *Job, w int, seq int64) bool {
	h.t.Helper()
	p := j.workers[w].packetToPS(KindGradient, seq)
	p.Payload = j.payload
	p.Size += p.Payload
	p.Ext[extValue] = GradientValue(w, seq)
	p.Ext[extBitmap] = int64(1) << uint(w)
	if v := h.s.agg.Ingress(h.s.sw, p, nil); v != switchmodel.Forward {
		h.t.Fatalf("asynchronous gradient %d of worker %d: verdict %v", seq, w, v)
	}
	switch p.Kind {
	case KindGACK:
		return true
	case KindGradient:
		return false
	}
	h.t.Fatalf("gradient became kind %d", p.Kind)
	return false
}

// result passes job j's result for seq from its PS (addressed to worker 0,
// so that the switch does not multicast it) and reports whether the switch
// marked it AECN.
func (h handSwitch) result(j *Job, seq int64) bool {
	p := h.s.net.Sim.Packets().Get()
	p.Kind = KindResult
	p.Seq = seq
	p.Src = j.ps.host.ID()
	p.Ext[extJob] = int64(j.cfg.ID)
	p.Ext[extWorker] = 0
	h.s.agg.Ingress(h.s.sw, p, nil)
	return p.Flags&netsim.FlagAECN != 0
}

// TestAECNCountsOverflowedSequences works through Sec. III-B3 by hand: M =
// 8 aggregators, BDP = 2, eta = 0.5, so results are marked while the
// occupancy exceeds 5. Job A (4 workers, offset 0) holds 4 aggregators
// (sequences 0-3, one contribution each); all 4 workers then overflow
// sequence 8 (its aggregator, 8 mod 8 = 0, holds sequence 0). Counted per
// sequence that is one overflow: occupancy 5, no mark; counted per
// gradient it is 4: occupancy 8, marked. A second overflowed sequence (9)
// brings the sequence count to 6 and the marks start. Sequence 8's result
// retires it before the switch decides on that result itself. Job B's
// results (offset 4, holding nothing) probe the marking without changing
// the occupancy.
func TestAECNCountsOverflowedSequences(t *testing.T) {
	type step struct {
		name      string
		do        func(h handSwitch, a, b *Job) bool // reports the AECN mark of the probing result
		occupancy [2]float64                         // sequences, gradients
		marked    [2]bool
	}
	steps := []step{
		{"four aggregators in use", func(h handSwitch, a, b *Job) bool {
			for seq := int64(0); seq < 4; seq++ {
				if !h.gradient(a, 0, seq) {
					h.t.Fatalf("sequence %d found no free aggregator", seq)
				}
			}
			return h.result(b, 0)
		}, [2]float64{4, 4}, [2]bool{false, false}},
		{"four workers overflow sequence 8", func(h handSwitch, a, b *Job) bool {
			for w := 0; w < 4; w++ {
				if h.gradient(a, w, 8) {
					h.t.Fatalf("worker %d's sequence 8 took aggregator 0, which holds sequence 0", w)
				}
			}
			return h.result(b, 1)
		}, [2]float64{5, 8}, [2]bool{false, true}},
		{"sequence 9 overflows", func(h handSwitch, a, b *Job) bool {
			if h.gradient(a, 0, 9) {
				h.t.Fatal("sequence 9 took aggregator 1, which holds sequence 1")
			}
			return h.result(b, 2)
		}, [2]float64{6, 9}, [2]bool{true, true}},
		{"sequence 8's result retires it", func(h handSwitch, a, b *Job) bool {
			return h.result(a, 8)
		}, [2]float64{5, 5}, [2]bool{false, false}},
	}
	for mi, mode := range []OccupancyMode{OccupancySequences, OccupancyGradients} {
		t.Run(mode.String(), func(t *testing.T) {
			cfg := DefaultAggregatorConfig()
			cfg.Memory, cfg.BDPPackets, cfg.Eta, cfg.Occupancy = 8*AggregatorBytes, 2, 0.5, mode
			s := newStar(t, starCfg{workers: 4, agg: cfg})
			if thr := s.agg.AECNThreshold(); thr != 5 {
				t.Fatalf("eta (M + BDP) = %v, want 5", thr)
			}
			h := handSwitch{t: t, s: s}
			a, b := idleJob(t, s, 0, PAATP), idleJob(t, s, 1, PAATP)
			marks := uint64(0)
			for _, st := range steps {
				got := st.do(h, a, b)
				if occ := s.agg.Occupancy(); occ != st.occupancy[mi] {
					t.Fatalf("%s: occupancy %v, want %v", st.name, occ, st.occupancy[mi])
				}
				if got != st.marked[mi] {
					t.Fatalf("%s: AECN %v, want %v (occupancy %v, threshold 5)", st.name, got, st.marked[mi], s.agg.Occupancy())
				}
				if got {
					marks++
				}
			}
			as, bs := a.SwitchStats(), b.SwitchStats()
			if as.OverflowSequences != 2 || as.OverflowGradients != 5 {
				t.Fatalf("job A overflowed %d sequences, %d gradients; want 2, 5", as.OverflowSequences, as.OverflowGradients)
			}
			if as.AECNMarked != 0 || bs.AECNMarked != marks || s.agg.Stats.AECNMarked != marks {
				t.Fatalf("AECN marks: A %d, B %d, switch %d; want 0, %d, %d", as.AECNMarked, bs.AECNMarked, s.agg.Stats.AECNMarked, marks, marks)
			}
		})
	}
}

// TestCollidedSequenceTakesFreedAggregator: after one contribution of a
// sequence overflowed, a later one finds the aggregator free again. Under
// ATP's table (ForwardPassed off) it takes the aggregator, as ATP's switch
// does (it keeps no per-sequence state); with FollowOverflow it follows
// the first to the PS.
func TestCollidedSequenceTakesFreedAggregator(t *testing.T) {
	for _, atp := range []bool{false, true} {
		cfg := DefaultAggregatorConfig()
		cfg.Memory, cfg.FollowOverflow, cfg.ForwardPassed = 8*AggregatorBytes, !atp, false
		s := newStar(t, starCfg{workers: 4, agg: cfg})
		h := handSwitch{t: t, s: s}
		a := idleJob(t, s, 0, PAATP)
		h.gradient(a, 0, 0)
		if h.gradient(a, 0, 8) {
			t.Fatal("sequence 8 took the aggregator of sequence 0")
		}
		h.result(a, 0) // sequence 0 completed at the PS: its aggregator is released
		if s.agg.Memory().Used() != 0 {
			t.Fatalf("%d aggregators still in use after sequence 0's result", s.agg.Memory().Used())
		}
		if took := h.gradient(a, 1, 8); took != atp {
			t.Fatalf("ATP's rule %v: worker 1's sequence 8 taken by the switch: %v", atp, took)
		}
	}
}
