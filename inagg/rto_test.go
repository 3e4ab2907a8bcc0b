package inagg

import (
	"testing"

	"syncsim/netsim"
)

// TestTimeoutBackoffRules: under the default rule (BackoffEach) ATP's
// retransmission timeout stays at RTO however many expiries follow each
// other (the public ATP client's fixed receive timeout) while StrawAsyn's
// (+PC, +AL) and PA-ATP's double, up to MaxRTO; BackoffFixed and
// BackoffDoubled impose one rule on all three; BytePS, over TCP, always
// doubles from its own RTO.
func TestTimeoutBackoffRules(t *testing.T) {
	fixed := []netsim.Time{200, 200, 200, 200, 200}
	doubled := []netsim.Time{200, 400, 800, 1000, 1000}
	bytePS := []netsim.Time{300, 600, 1000, 1000, 1000}
	for _, tc := range []struct {
		proto Protocol
		rule  Backoff
		want  []netsim.Time // by consecutive expiries 0..4, us
	}{
		{ATP, BackoffEach, fixed},
		{StrawAsyn, BackoffEach, doubled},
		{StrawAsynPC, BackoffEach, doubled},
		{StrawAsynAL, BackoffEach, doubled},
		{PAATP, BackoffEach, doubled},
		{ATP, BackoffDoubled, doubled},
		{PAATP, BackoffFixed, fixed},
		{StrawAsyn, BackoffFixed, fixed},
		{ATP, BackoffFixed, fixed},
		{BytePS, BackoffFixed, bytePS},
		{BytePS, BackoffEach, bytePS},
	} {
		p := DefaultParams()
		p.RTO, p.MaxRTO, p.BytePSRTO = 200*netsim.Microsecond, netsim.Millisecond, 300*netsim.Microsecond
		p.RTOBackoff = tc.rule
		w := &worker{j: &Job{cfg: JobConfig{Protocol: tc.proto}, params: p}}
		for n, want := range tc.want {
			w.backoff = uint(n)
			if got := w.rtoValue(); got != want*netsim.Microsecond {
				t.Errorf("%s rto_backoff=%s after %d expiries: RTO %v, want %v us", tc.proto, tc.rule, n, got, want)
			}
		}
	}
}

// TestBackoffNames: every rule parses back from its name, the default
// (each protocol's, "auto") first; an unknown name is refused.
func TestBackoffNames(t *testing.T) {
	names := BackoffNames()
	if names[0] != "auto" || DefaultParams().RTOBackoff != BackoffEach {
		t.Errorf("names %v, default %v: want auto first and the default", names, DefaultParams().RTOBackoff)
	}
	for _, name := range names {
		if b, err := ParseBackoff(name); err != nil || b.String() != name {
			t.Errorf("ParseBackoff(%q) = %v, %v", name, b, err)
		}
	}
	if _, err := ParseBackoff("double"); err == nil {
		t.Error("ParseBackoff(double) accepted")
	}
	p := DefaultParams()
	p.RTOBackoff = numBackoffs
	if p.Validate() == nil {
		t.Error("an unknown timer rule passes Validate")
	}
}
