package inagg

// Backoff says whether consecutive expiries of the retransmission timer of
// ATP, StrawAsyn (+PC, +AL) and PA-ATP double the timeout (up to
// Params.MaxRTO). BytePS, over TCP, always doubles (RFC 6298 Sec. 5.5).
type Backoff uint8

// Timer rules.
const (
	// BackoffEach is each protocol's own rule, the default. ATP keeps its
	// public client's fixed receive timeout: 0.0002 s once a thread has
	// heard its first packet (in-ATP/ATP client/p4ml_manager.cc:161,255),
	// restarted after every resend (:240), never doubled. StrawAsyn and
	// PA-ATP double it: the PA-ATP paper says nothing of the timer, and
	// the ATP client's fixed one, which it builds on, collapses the
	// paper's own settings (whole models on the leaf-spine: StrawAsyn's
	// jobs unfinished after 2 s of resend storms; Fig. 12's 24 workers:
	// jobs held for up to 19 ms with the window at one packet and a BDP of
	// acknowledged sequences pulled again every 200 us), the departure
	// docs/ina-recovery.md ("The timer") sets out with its runs.
	BackoffEach Backoff = iota
	// BackoffFixed keeps the timeout at RTO for every protocol.
	BackoffFixed
	// BackoffDoubled doubles it for every protocol.
	BackoffDoubled
	numBackoffs
)

var backoffNames = [numBackoffs]string{"auto", "false", "true"}

// String is the rule's name, as rto_backoff spells it.
func (b Backoff) String() string { return enumName(backoffNames[:], b, "backoff") }

// BackoffNames lists the rules' names, the default first.
func BackoffNames() []string { return append([]string(nil), backoffNames[:]...) }

// ParseBackoff maps a name to its Backoff; the error lists the names.
func ParseBackoff(name string) (Backoff, error) {
	return parseEnum[Backoff](backoffNames[:], name, "timer rule")
}

// Doubles reports whether the timer of proto doubles on consecutive
// expiries under rule b.
func (b Backoff) Doubles(proto Protocol) bool {
	switch {
	case proto == BytePS:
		return true
	case b == BackoffFixed:
		return false
	case b == BackoffDoubled:
		return true
	}
	return proto.Async()
}
