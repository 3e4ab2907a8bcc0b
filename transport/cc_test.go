package transport

import (
	"math"
	"testing"

	"syncsim/netsim"
)

const mss = netsim.Bytes(1460)

func TestDCTCPAlpha(t *testing.T) {
	tests := []struct {
		name           string
		alpha, g, f    float64
		want           float64
		tolerance, eps float64
	}{
		{name: "no marks decays by 15/16", alpha: 1, g: 1.0 / 16, f: 0, want: 0.9375},
		{name: "all marked from zero", alpha: 0, g: 1.0 / 16, f: 1, want: 0.0625},
		{name: "half marked", alpha: 0.5, g: 1.0 / 16, f: 0.5, want: 0.5},
		{name: "quarter from 0.2", alpha: 0.2, g: 1.0 / 16, f: 0.25, want: 0.2*15/16 + 0.25/16},
		{name: "g=1 tracks F", alpha: 0.7, g: 1, f: 0.1, want: 0.1},
		{name: "F above 1 is clamped", alpha: 0, g: 0.5, f: 3, want: 0.5},
		{name: "F below 0 is clamped", alpha: 1, g: 0.5, f: -1, want: 0.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := DCTCPAlpha(tc.alpha, tc.g, tc.f); math.Abs(got-tc.want) > 1e-15 {
				t.Fatalf("DCTCPAlpha(%v, %v, %v) = %v, want %v", tc.alpha, tc.g, tc.f, got, tc.want)
			}
		})
	}
	// Repeated windows with all bytes marked converge to 1 geometrically:
	// 1 - alpha_n = (15/16)^n.
	a := 0.0
	for i := 0; i < 20; i++ {
		a = DCTCPAlpha(a, DefaultG, 1)
	}
	if want := 1 - math.Pow(15.0/16, 20); math.Abs(a-want) > 1e-12 {
		t.Fatalf("after 20 marked windows alpha = %v, want %v", a, want)
	}
}

func TestMarkedFraction(t *testing.T) {
	tests := []struct {
		marked, acked netsim.Bytes
		want          float64
	}{
		{0, 0, 0}, {0, 100, 0}, {25, 100, 0.25}, {100, 100, 1}, {150, 100, 1},
	}
	for _, tc := range tests {
		if got := MarkedFraction(tc.marked, tc.acked); got != tc.want {
			t.Errorf("MarkedFraction(%d, %d) = %v, want %v", tc.marked, tc.acked, got, tc.want)
		}
	}
}

func TestDCTCPCut(t *testing.T) {
	tests := []struct {
		name  string
		cwnd  netsim.Bytes
		alpha float64
		want  netsim.Bytes
	}{
		{"alpha 1 halves", 20 * mss, 1, 10 * mss},
		{"alpha 0 keeps", 20 * mss, 0, 20 * mss},
		{"alpha 0.5 cuts a quarter", 20 * mss, 0.5, 15 * mss},
		{"truncates to bytes", 10001, 0.5, 7500}, // 7500.75
		{"floor at 2 MSS", 3 * mss, 1, 2 * mss},
		{"never raises a small window", mss, 1, mss},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := DCTCPCut(tc.cwnd, tc.alpha, mss); got != tc.want {
				t.Fatalf("DCTCPCut(%d, %v) = %d, want %d", tc.cwnd, tc.alpha, got, tc.want)
			}
		})
	}
}

func TestSlowStart(t *testing.T) {
	tests := []struct {
		cwnd, acked, want netsim.Bytes
	}{
		{10 * mss, mss, 11 * mss},
		{10 * mss, 500, 10*mss + 500},
		{10 * mss, 5 * mss, 11 * mss}, // at most one SMSS per ACK
		{10 * mss, 0, 10 * mss},
	}
	for _, tc := range tests {
		if got := SlowStart(tc.cwnd, tc.acked, mss); got != tc.want {
			t.Errorf("SlowStart(%d, %d) = %d, want %d", tc.cwnd, tc.acked, got, tc.want)
		}
	}
}

func TestCongestionAvoidance(t *testing.T) {
	tests := []struct {
		name              string
		cwnd, acc, acked  netsim.Bytes
		wantCwnd, wantAcc netsim.Bytes
	}{
		{"accumulates below cwnd", 10 * mss, 0, mss, 10 * mss, mss},
		{"grows when a window is acked", 10 * mss, 9 * mss, mss, 11 * mss, 0},
		{"keeps the remainder", 10 * mss, 9*mss + 100, mss, 11 * mss, 100},
		{"one MSS per ACK at most", 2 * mss, 0, 10 * mss, 3 * mss, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, a := CongestionAvoidance(tc.cwnd, tc.acc, tc.acked, mss)
			if c != tc.wantCwnd || a != tc.wantAcc {
				t.Fatalf("got (%d, %d), want (%d, %d)", c, a, tc.wantCwnd, tc.wantAcc)
			}
		})
	}
	// A window of per-segment ACKs grows cwnd by exactly one MSS.
	c, a := 10*mss, netsim.Bytes(0)
	for i := 0; i < 10; i++ {
		c, a = CongestionAvoidance(c, a, mss, mss)
	}
	if c != 11*mss || a != 0 {
		t.Fatalf("after one window of ACKs: cwnd %d acc %d, want %d 0", c, a, 11*mss)
	}
}

func TestLossWindows(t *testing.T) {
	tests := []struct {
		name                 string
		flight               netsim.Bytes
		wantSsthresh, wantCw netsim.Bytes
	}{
		{"halves the flight", 20 * mss, 10 * mss, 13 * mss},
		{"odd flight truncates", 2921, 2920, 2920 + 3*mss},
		{"floor at 2 MSS", 3 * mss, 2 * mss, 5 * mss},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := LossSsthresh(tc.flight, mss); got != tc.wantSsthresh {
				t.Fatalf("LossSsthresh = %d, want %d", got, tc.wantSsthresh)
			}
			cw, ss := FastRecoveryEntry(tc.flight, mss)
			if cw != tc.wantCw || ss != tc.wantSsthresh {
				t.Fatalf("FastRecoveryEntry = (%d, %d), want (%d, %d)", cw, ss, tc.wantCw, tc.wantSsthresh)
			}
		})
	}
}

func TestPartialAckDeflate(t *testing.T) {
	tests := []struct {
		cwnd, acked, want netsim.Bytes
	}{
		{16 * mss, 3 * mss, 14 * mss}, // -3 MSS + 1 MSS
		{16 * mss, 500, 16*mss - 500}, // less than one MSS: no add-back
		{2 * mss, 5 * mss, mss},       // floor
	}
	for _, tc := range tests {
		if got := PartialAckDeflate(tc.cwnd, tc.acked, mss); got != tc.want {
			t.Errorf("PartialAckDeflate(%d, %d) = %d, want %d", tc.cwnd, tc.acked, got, tc.want)
		}
	}
}

func TestFullAckWindow(t *testing.T) {
	tests := []struct {
		ssthresh, flight, want netsim.Bytes
	}{
		{10 * mss, 20 * mss, 10 * mss}, // plenty in flight: ssthresh
		{10 * mss, 3 * mss, 4 * mss},   // little in flight: flight + MSS
		{10 * mss, 0, 2 * mss},         // nothing in flight: max(0, MSS) + MSS
	}
	for _, tc := range tests {
		if got := FullAckWindow(tc.ssthresh, tc.flight, mss); got != tc.want {
			t.Errorf("FullAckWindow(%d, %d) = %d, want %d", tc.ssthresh, tc.flight, got, tc.want)
		}
	}
}

func TestRTOEstimator(t *testing.T) {
	us := netsim.Microsecond
	ms := netsim.Millisecond
	type step struct {
		sample                  netsim.Time // 0: no sample, -1: backoff
		srtt, rttvar, base, rto netsim.Time
	}
	tests := []struct {
		name           string
		init, min, max netsim.Time
		steps          []step
	}{
		{
			name: "RFC 6298 arithmetic above the floor",
			init: ms, min: 10 * us, max: 60 * netsim.Second,
			steps: []step{
				{0, 0, 0, ms, ms}, // initial RTO
				// first: SRTT=100, RTTVAR=50, RTO=100+200
				{100 * us, 100 * us, 50 * us, 300 * us, 300 * us},
				// second R=200: RTTVAR=(3*50+100)/4=62.5, SRTT=(7*100+200)/8=112.5
				{200 * us, 112500 * netsim.Nanosecond, 62500 * netsim.Nanosecond, 362500 * netsim.Nanosecond, 362500 * netsim.Nanosecond},
				// backoff doubles, twice quadruples
				{-1, 112500 * netsim.Nanosecond, 62500 * netsim.Nanosecond, 362500 * netsim.Nanosecond, 725 * us},
				{-1, 112500 * netsim.Nanosecond, 62500 * netsim.Nanosecond, 362500 * netsim.Nanosecond, 1450 * us},
				// a new sample R=112.5us clears the backoff: RTTVAR=(3*62.5+0)/4
				{112500 * netsim.Nanosecond, 112500 * netsim.Nanosecond, 46875 * netsim.Nanosecond, 300 * us, 300 * us},
			},
		},
		{
			name: "floor and ceiling",
			init: 3 * ms, min: ms, max: 5 * ms,
			steps: []step{
				{0, 0, 0, 3 * ms, 3 * ms},
				{20 * us, 20 * us, 10 * us, ms, ms}, // 60us raised to the 1ms floor
				{-1, 20 * us, 10 * us, ms, 2 * ms},
				{-1, 20 * us, 10 * us, ms, 4 * ms},
				{-1, 20 * us, 10 * us, ms, 5 * ms}, // capped
				{-1, 20 * us, 10 * us, ms, 5 * ms},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := NewRTOEstimator(tc.init, tc.min, tc.max)
			for i, s := range tc.steps {
				switch {
				case s.sample > 0:
					e.Sample(s.sample)
				case s.sample < 0:
					e.Backoff()
				}
				if e.SRTT() != s.srtt || e.RTTVar() != s.rttvar || e.Base() != s.base || e.RTO() != s.rto {
					t.Fatalf("step %d: srtt %v rttvar %v base %v rto %v, want %v %v %v %v",
						i, e.SRTT(), e.RTTVar(), e.Base(), e.RTO(), s.srtt, s.rttvar, s.base, s.rto)
				}
			}
		})
	}
}

// TestDCTCPEstimator walks one estimator through windows by hand: alpha
// changes only when the window's last byte is acknowledged, with F the
// marked share of the bytes counted in that window.
func TestDCTCPEstimator(t *testing.T) {
	d := dctcpEstimator{alpha: 1, g: 0.5, end: 4 * int64(mss)}
	steps := []struct {
		bytes   netsim.Bytes
		ece     bool
		ack     int64
		sndNxt  int64
		alpha   float64
		nextEnd int64
	}{
		{mss, true, 1 * int64(mss), 6 * int64(mss), 1, 4 * int64(mss)},
		{mss, false, 2 * int64(mss), 7 * int64(mss), 1, 4 * int64(mss)},
		{2 * mss, false, 4 * int64(mss), 8 * int64(mss), 0.5*1 + 0.5*0.25, 8 * int64(mss)}, // F = 1/4
		{4 * mss, false, 8 * int64(mss), 12 * int64(mss), 0.3125, 12 * int64(mss)},         // F = 0
		{mss, true, 8 * int64(mss), 12 * int64(mss), 0.3125, 12 * int64(mss)},              // dupack: counted, window open
		{3 * mss, true, 12 * int64(mss), 13 * int64(mss), 0.5*0.3125 + 0.5, 13 * int64(mss)},
	}
	for i, s := range steps {
		d.account(s.bytes, s.ece)
		d.closeWindow(s.ack, s.sndNxt)
		if math.Abs(d.alpha-s.alpha) > 1e-15 || d.end != s.nextEnd {
			t.Fatalf("step %d: alpha %v end %d, want %v %d", i, d.alpha, d.end, s.alpha, s.nextEnd)
		}
	}
}
