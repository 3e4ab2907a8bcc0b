package inagg

// GapRule is what a timeout of StrawAsyn (+PC, +AL) and PA-ATP does with
// the GACKed sequences behind the front that a later result passed
// (Params.RecoverGaps).
type GapRule uint8

// Gap recovery rules.
const (
	// GapsFront recovers the front (last_AACK + 1) alone among them, as
	// the public ATP client's timeout resends from last_ACK + 1 (in-ATP/ATP
	// client/p4ml_manager.cc:201-241). The default.
	GapsFront GapRule = iota
	// GapsBatch recovers up to one batch (the CWD cap) of them at the
	// expiry.
	GapsBatch
	// GapsPaced recovers one of them at the expiry and two more per new
	// result until the round reaches the highest result held at the
	// expiry, as slow start lets segments out after a timeout (RFC 5681
	// Sec. 3.1).
	GapsPaced
	numGapRules
)

var gapRuleNames = [numGapRules]string{"front", "batch", "paced"}

// String is the rule's name.
func (g GapRule) String() string { return enumName(gapRuleNames[:], g, "gaps") }

// GapRuleNames lists the rules' names, the default first.
func GapRuleNames() []string { return append([]string(nil), gapRuleNames[:]...) }

// ParseGapRule maps a name to its GapRule; the error lists the names.
func ParseGapRule(name string) (GapRule, error) {
	return parseEnum[GapRule](gapRuleNames[:], name, "gap recovery rule")
}
