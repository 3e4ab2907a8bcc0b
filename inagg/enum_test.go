package inagg

import (
	"strings"
	"testing"
)

// TestEnumNames: every option type's names parse back to their values,
// a value out of range prints as kind(n), and an unknown name is refused
// with what was asked for and every allowed name.
func TestEnumNames(t *testing.T) {
	for _, name := range GapRuleNames() {
		g, err := ParseGapRule(name)
		if err != nil || g.String() != name {
			t.Errorf("ParseGapRule(%q) = %v, %v; want it back", name, g, err)
		}
	}
	if got := GapRule(7).String(); got != "gaps(7)" {
		t.Errorf("GapRule(7) prints %q, want gaps(7)", got)
	}
	if got := IncreaseMode(9).String(); got != "increase(9)" {
		t.Errorf("IncreaseMode(9) prints %q, want increase(9)", got)
	}
	_, err := ParseAWDScope("rack")
	if err == nil || err.Error() != `unknown AWD scope "rack" (allowed: job, worker)` {
		t.Errorf("ParseAWDScope(rack): err = %v", err)
	}
	if _, err := ParseIndexMode("x"); err == nil || !strings.Contains(err.Error(), "aggregator index") {
		t.Errorf("ParseIndexMode(x): err = %v", err)
	}
	if m, err := ParseOccupancyMode(OccupancyModeNames()[1]); err != nil || m != 1 {
		t.Errorf("ParseOccupancyMode of the second name: %v, %v", m, err)
	}
	if m, err := ParsePMaxMode("leader"); err != nil || m != PMaxLeader {
		t.Errorf("ParsePMaxMode(leader): %v, %v", m, err)
	}
}
