package collective

import (
	"testing"

	"syncsim/netsim"
)

const (
	rate  = 10 * netsim.Gbps
	delay = netsim.Microsecond
	lat   = 10 * netsim.Microsecond
)

// On a star, every step of a ring crosses two cables (2 x delay) after the
// sender's StartLatency, so Eq. 2's alpha is lat + 2 delay.
const alpha = lat + 2*delay

func runTimed(t *testing.T, sim *netsim.Sim, start func(done func()) error) netsim.Time {
	t.Helper()
	at, calls := netsim.Time(-1), 0
	if err := start(func() { at = sim.Now(); calls++ }); err != nil {
		t.Fatal(err)
	}
	sim.Run(netsim.Never)
	if calls != 1 {
		t.Fatalf("done called %d times, want once", calls)
	}
	return at
}

func TestRingAllReduceMatchesEq2(t *testing.T) {
	cases := []struct {
		name string
		n    int
		size netsim.Bytes
	}{
		{"n=2", 2, 64 * netsim.Megabyte},
		{"n=3 uneven chunks", 3, 64 * netsim.Megabyte},
		{"n=4", 4, 64 * netsim.Megabyte},
		{"n=8", 8, 64 * netsim.Megabyte},
		{"n=16 small buffer, latency-bound", 16, 160 * netsim.Kilobyte},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sim, eng, hosts := fluidStar(tc.n, rate, delay)
			cb := &countBulk{inner: eng, sent: map[netsim.NodeID]netsim.Bytes{}}
			got := runTimed(t, sim, func(done func()) error {
				return RingAllReduce(sim, cb, hosts, tc.size, netsim.BulkOpts{StartLatency: lat}, done)
			})
			want := RingAllReduceTime(tc.n, tc.size, rate, alpha)
			if d := float64(got-want) / float64(want); d < -0.01 || d > 0.01 {
				t.Errorf("ring took %v, Eq. 2 gives %v (%.3f%% off)", got, want, 100*d)
			}
			// Each step ceils to the ps; when chunks are equal the
			// fluid run must match Eq. 2 to a few ps per step.
			if tc.size%netsim.Bytes(tc.n) == 0 {
				if d := got - want; d < 0 || d > netsim.Time(4*2*(tc.n-1)) {
					t.Errorf("ring took %v, Eq. 2 gives exactly %v", got, want)
				}
			}
			if err := eng.Check(); err != nil {
				t.Fatal(err)
			}
			chunks := EqualChunks(tc.size, tc.n)
			for i, h := range hosts {
				// Host i sends every chunk but (i+1) in reduce-scatter and
				// every chunk but (i+2) in all-gather.
				w := 2*tc.size - chunks[(i+1)%tc.n] - chunks[(i+2)%tc.n]
				if cb.sent[h] != w {
					t.Errorf("host %d sent %d bytes, want %d", i, cb.sent[h], w)
				}
				if tc.size%netsim.Bytes(tc.n) == 0 && cb.sent[h] != netsim.Bytes(2*(tc.n-1))*tc.size/netsim.Bytes(tc.n) {
					t.Errorf("host %d sent %d bytes, want 2(n-1)/n S", i, cb.sent[h])
				}
			}
		})
	}
}

// PS push/pull on a star of n workers and a server: the n pushes share the
// server's downlink (n S / B), then the n pulls share its uplink (n S / B);
// each phase also pays StartLatency and two cable delays.
func TestPSPushPullHandComputed(t *testing.T) {
	for _, n := range []int{1, 4, 7} {
		t.Run("n="+itoa(n), func(t *testing.T) {
			const size = 2 * netsim.Megabyte
			sim, eng, hosts := fluidStar(n+1, rate, delay)
			got := runTimed(t, sim, func(done func()) error {
				return PSPushPull(sim, eng, hosts[1:], hosts[0], size, netsim.BulkOpts{StartLatency: lat}, done)
			})
			want := 2*alpha + 2*netsim.TxTime(netsim.Bytes(n)*size, rate)
			if d := got - want; d < 0 || d > 8 {
				t.Errorf("push/pull took %v, want %v", got, want)
			}
			if eng.BytesDelivered() != 2*netsim.Bytes(n)*size {
				t.Errorf("moved %d bytes, want %d", eng.BytesDelivered(), 2*netsim.Bytes(n)*size)
			}
		})
	}
}

// All-to-all on a star: each cable carries n-1 blocks of S/n in each
// direction at B/(n-1) each, so the exchange takes alpha + (n-1) S/n / B.
func TestAllToAllHandComputed(t *testing.T) {
	for _, n := range []int{2, 4, 5} {
		t.Run("n="+itoa(n), func(t *testing.T) {
			const size = 4 * netsim.Megabyte // divisible by 2, 4, 5
			sim, eng, hosts := fluidStar(n, rate, delay)
			got := runTimed(t, sim, func(done func()) error {
				return AllToAll(sim, eng, hosts, size, netsim.BulkOpts{StartLatency: lat}, done)
			})
			want := alpha + netsim.TxTime(netsim.Bytes(n-1)*size/netsim.Bytes(n), rate)
			if d := got - want; d < 0 || d > 8 {
				t.Errorf("all-to-all took %v, want %v", got, want)
			}
			if w := netsim.Bytes(n-1) * size; eng.BytesDelivered() != w {
				t.Errorf("moved %d bytes, want %d", eng.BytesDelivered(), w)
			}
		})
	}
}

func TestRingAllReduceTime(t *testing.T) {
	cases := []struct {
		name  string
		n     int
		size  netsim.Bytes
		bw    netsim.Rate
		alpha netsim.Time
		want  netsim.Time
	}{
		// 6 alpha + 1.5 x 800 us.
		{"n=4 1MB 10G 1ms", 4, netsim.Megabyte, 10 * netsim.Gbps, netsim.Millisecond, 7200 * netsim.Microsecond},
		// The paper's Sec. IV setting: 500 MB at 20 Gbps, alpha 1 ms:
		// 2 alpha + 1 x 200 ms.
		{"n=2 500MB 20G", 2, 500 * netsim.Megabyte, 20 * netsim.Gbps, netsim.Millisecond, 202 * netsim.Millisecond},
		// n=40 at 1 Gbps: 78 ms + 2 x 39/40 x 4 s.
		{"n=40 500MB 1G", 40, 500 * netsim.Megabyte, netsim.Gbps, netsim.Millisecond, 78*netsim.Millisecond + 7800*netsim.Millisecond},
		{"rounds up to the ps", 3, 1, 3 * netsim.Gbps, 0, 3556}, // 32/9 ns = 3555.6 ps
		{"one worker", 1, netsim.Gigabyte, netsim.Gbps, netsim.Second, 0},
		{"no bandwidth", 4, 1, 0, 0, netsim.Never},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := RingAllReduceTime(tc.n, tc.size, tc.bw, tc.alpha); got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// With no latency at all, steps chain inside the engine's completion
// handler; the ring must still take exactly 2(n-1)/n S/B.
func TestRingAllReduceZeroLatency(t *testing.T) {
	const n, size = 6, 60 * netsim.Megabyte
	sim, eng, hosts := fluidStar(n, rate, 0)
	got := runTimed(t, sim, func(done func()) error {
		return RingAllReduce(sim, eng, hosts, size, netsim.BulkOpts{}, done)
	})
	want := RingAllReduceTime(n, size, rate, 0)
	if d := got - want; d < 0 || d > 4*2*(n-1) {
		t.Errorf("ring took %v, want %v", got, want)
	}
	if eng.Recomputations() > 2*(n-1) {
		t.Errorf("%d recomputations for %d lock-step ring steps", eng.Recomputations(), 2*(n-1))
	}
}
