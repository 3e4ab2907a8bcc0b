package inagg

import (
	"testing"

	"syncsim/netsim"
)

// TestTimeoutIsFixedUnlessBackoff: the retransmission timeout of ATP and
// the asynchronous protocols stays at RTO however many expiries follow
// each other (the public ATP client's fixed receive timeout), unless
// RTOBackoff doubles it, up to MaxRTO; BytePS, over TCP, always doubles.
func TestTimeoutIsFixedUnlessBackoff(t *testing.T) {
	for _, tc := range []struct {
		proto   Protocol
		backoff bool
		want    []netsim.Time // by consecutive expiries 0..4
	}{
		{ATP, false, []netsim.Time{200, 200, 200, 200, 200}},
		{ATP, true, []netsim.Time{200, 400, 800, 1000, 1000}},
		{PAATP, false, []netsim.Time{200, 200, 200, 200, 200}},
		{StrawAsyn, true, []netsim.Time{200, 400, 800, 1000, 1000}},
		{BytePS, false, []netsim.Time{1000, 1000, 1000, 1000, 1000}},
	} {
		p := DefaultParams()
		p.RTO, p.MaxRTO, p.BytePSRTO = 200*netsim.Microsecond, netsim.Millisecond, netsim.Millisecond
		p.RTOBackoff = tc.backoff
		w := &worker{j: &Job{cfg: JobConfig{Protocol: tc.proto}, params: p}}
		for n, want := range tc.want {
			w.backoff = uint(n)
			if got := w.rtoValue(); got != want*netsim.Microsecond {
				t.Errorf("%s backoff=%v after %d expiries: RTO %v, want %v us", tc.proto, tc.backoff, n, got, want)
			}
		}
	}
}
