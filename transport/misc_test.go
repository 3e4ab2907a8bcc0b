package transport

import (
	"testing"

	"syncsim/netsim"
)

// TestSpanSet checks the reorder buffer against a byte-map model through
// random ranges (overlapping, touching, duplicated, far ahead) above a
// moving next-expected byte and in-order draining.
func TestSpanSet(t *testing.T) {
	rng := netsim.Stream(7, "spanset")
	var x spanSet
	model := map[int64]bool{} // bytes held above nxt
	nxt := int64(0)
	for step := 0; step < 20000; step++ {
		off := 1 + rng.Int64N(40)
		if step%1000 < 10 {
			off = 1 + rng.Int64N(3000) // occasional far range
		}
		s := nxt + off
		e := s + 1 + rng.Int64N(20)
		x.add(s, e)
		for b := s; b < e; b++ {
			model[b] = true
		}
		if rng.IntN(3) == 0 { // an in-order range arrives
			nxt += 1 + rng.Int64N(10)
			for b := range model {
				if b < nxt {
					delete(model, b)
				}
			}
			want := nxt
			for model[want] {
				delete(model, want)
				want++
			}
			if got := x.advance(nxt); got != want {
				t.Fatalf("step %d: advance(%d) = %d, want %d", step, nxt, got, want)
			}
			nxt = want
		}
		if got := x.bytes(); got != int64(len(model)) {
			t.Fatalf("step %d: %d bytes held, model has %d", step, got, len(model))
		}
		for i := x.h; i < len(x.iv); i++ {
			v := x.iv[i]
			if v.s >= v.e || v.s <= nxt || (i > x.h && x.iv[i-1].e >= v.s) {
				t.Fatalf("step %d: spans %v not sorted, disjoint and above %d", step, x.iv[x.h:], nxt)
			}
		}
	}
}

// TestCBR checks exact pacing: packet k leaves at k * TxTime(size, rate)
// while the interval lasts, and every packet arrives.
func TestCBR(t *testing.T) {
	const rate = netsim.Gbps
	d := 2 * netsim.Microsecond
	tests := []struct {
		name        string
		rate        netsim.Rate
		size        netsim.Bytes
		start, stop netsim.Time
		want        uint64
	}{
		{"1 Gbps 1000 B for 1 ms", rate, 1000, 0, netsim.Millisecond, 125},              // every 8 us
		{"3 Gbps 1000 B, uneven gaps", 3 * rate, 1000, 0, 100 * netsim.Microsecond, 38}, // 2.667 us: k < 37.5
		{"late start", rate, 1500, 50 * netsim.Microsecond, 74 * netsim.Microsecond, 2}, // every 12 us
		{"empty interval", rate, 1500, 10 * netsim.Microsecond, 10 * netsim.Microsecond, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net, a, b := pair(10*netsim.Gbps, d, nil)
			c := NewCBR(net, a.ID(), b.ID(), tc.rate, tc.size, tc.start, tc.stop, 99)
			net.Sim.Run(netsim.Never)
			if c.Sent != tc.want || c.Received != tc.want || c.ReceivedBytes != netsim.Bytes(tc.want)*tc.size {
				t.Fatalf("sent %d received %d (%d B), want %d", c.Sent, c.Received, c.ReceivedBytes, tc.want)
			}
			if tc.want > 0 {
				last := tc.start + netsim.TxTime(netsim.Bytes(tc.want-1)*tc.size, tc.rate)
				if w := last + netsim.TxTime(tc.size, 10*netsim.Gbps) + d; c.LastRx != w {
					t.Fatalf("last arrival %v, want %v", c.LastRx, w)
				}
			}
			checkBooks(t, net)
		})
	}
}

// TestDeterminism runs the same congested scenario twice and compares
// every flow's counters.
func TestDeterminism(t *testing.T) {
	run := func() []uint64 {
		s := newStar(3, 10*netsim.Gbps, 3*netsim.Microsecond, newECNQueue(200*netsim.Kilobyte, 20))
		st := NewStack(s.net, DefaultConfig())
		var out []uint64
		for i, h := range s.senders {
			st.Start(h.ID(), s.recv.ID(), FlowOpts{Size: netsim.Bytes(300_000 * (i + 1))}, func(f *Flow) {
				out = append(out, f.ID, uint64(f.End), f.Retransmits, f.Cuts, uint64(f.SRTT()))
			})
		}
		s.sim.Run(netsim.Never)
		out = append(out, s.sim.Events())
		return out
	}
	a, b := run(), run()
	if len(a) != 16 {
		t.Fatalf("%d values, want 16", len(a))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("value %d differs between identical runs: %d vs %d", i, a[i], b[i])
		}
	}
}

func TestParseCC(t *testing.T) {
	tests := []struct {
		in      string
		want    CC
		wantErr bool
	}{
		{"dctcp", DCTCP, false}, {"NewReno", NewReno, false}, {"cubic", 0, true}, {"", 0, true},
	}
	for _, tc := range tests {
		got, err := ParseCC(tc.in)
		if (err != nil) != tc.wantErr || (err == nil && got != tc.want) {
			t.Errorf("ParseCC(%q) = %v, %v", tc.in, got, err)
		}
		if err == nil && got.String() != CCNames()[got] {
			t.Errorf("String of %v does not round-trip", got)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("default config invalid: %v", err)
	}
	bad := []func(*Config){
		func(c *Config) { c.CC = 9 },
		func(c *Config) { c.MSS = 0 },
		func(c *Config) { c.HeaderBytes = -1 },
		func(c *Config) { c.InitCwndPkts = 0 },
		func(c *Config) { c.MinRTO = 0 },
		func(c *Config) { c.InitRTO = -1 },
		func(c *Config) { c.MaxRTO = c.MinRTO - 1 },
		func(c *Config) { c.G = 0 },
		func(c *Config) { c.G = 1.5 },
		func(c *Config) { c.InitAlpha = 2 },
		func(c *Config) { c.MaxCwndPkts = 1 },
	}
	for i, mod := range bad {
		c := DefaultConfig()
		mod(&c)
		if c.Validate() == nil {
			t.Errorf("case %d: invalid config accepted", i)
		}
	}
}
