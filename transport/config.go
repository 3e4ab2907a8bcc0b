package transport

import (
	"fmt"
	"strings"

	"syncsim/netsim"
)

// CC names a congestion-control algorithm.
type CC uint8

// Congestion-control algorithms.
const (
	// DCTCP marks data ECN-capable and cuts cwnd by alpha/2 once per window
	// of ECN echoes (Alizadeh et al., SIGCOMM 2010); loss recovery is NewReno.
	DCTCP CC = iota
	// NewReno is TCP without ECN: slow start, congestion avoidance, fast
	// retransmit and fast recovery with partial ACKs (RFC 5681, RFC 6582).
	NewReno
)

var ccNames = [...]string{DCTCP: "dctcp", NewReno: "newreno"}

// String is the lower-case name used on the command line.
func (c CC) String() string {
	if int(c) < len(ccNames) {
		return ccNames[c]
	}
	return fmt.Sprintf("cc(%d)", uint8(c))
}

// CCNames lists the accepted algorithm names.
func CCNames() []string { return append([]string(nil), ccNames[:]...) }

// ParseCC maps "dctcp" or "newreno" (case-insensitive) to its CC.
func ParseCC(name string) (CC, error) {
	for i, n := range ccNames {
		if strings.EqualFold(name, n) {
			return CC(i), nil
		}
	}
	return 0, fmt.Errorf("unknown congestion control %q (allowed: %s)", name, strings.Join(ccNames[:], ", "))
}

// Config parameterises a Stack. Obtain defaults from DefaultConfig.
type Config struct {
	CC CC
	// MSS is the payload of a full segment (default 1460 B).
	MSS netsim.Bytes
	// HeaderBytes is added to every segment and is the size of a pure ACK
	// (default 40 B: IPv4 + TCP without options; Ethernet framing is not
	// modelled, so a full segment is 1500 B on the wire).
	HeaderBytes netsim.Bytes
	// InitCwndPkts is the initial window in segments (default 10, RFC 6928).
	InitCwndPkts int
	// MinRTO is the retransmission-timeout floor (RFC 6298 Sec. 2.4). The
	// default is 1 ms, the order used by datacenter transport studies; the
	// DCTCP paper's testbed lowered it to 10 ms and Linux uses 200 ms.
	MinRTO netsim.Time
	// InitRTO is the timeout before the first RTT sample (RFC 6298 Sec. 2.1
	// says 1 s for the Internet; the default here is 1 ms, equal to MinRTO,
	// since datacenter RTTs are tens of microseconds).
	InitRTO netsim.Time
	// MaxRTO caps the backed-off timeout (RFC 6298 Sec. 2.5; default 60 s).
	MaxRTO netsim.Time
	// G is the DCTCP estimation gain (default 1/16).
	G float64
	// InitAlpha is DCTCP's alpha before the first window ends (default 1,
	// as Linux's dctcp_alpha_on_init: the first congestion event halves).
	InitAlpha float64
	// MaxCwndPkts caps cwnd in segments, standing in for the receive
	// window (0: no cap).
	MaxCwndPkts int
	// TSQBytes caps the bytes a flow keeps queued in its own host (its
	// NIC's queue and backlog), TCP small queues' tcp_limit_output_bytes:
	// a sender at the cap waits until its host's NIC takes one of its
	// packets for the wire (netsim.TxNotifier). Below the cap the limit is
	// Linux's tcp_small_queue_check (net/ipv4/tcp_output.c): about 1 ms at
	// the flow's pacing rate (sk_pacing_shift 10), the pacing rate being
	// cwnd / srtt times 2 in slow start and 1.2 after it
	// (tcp_update_pacing_rate, sysctls tcp_pacing_ss_ratio 200 and
	// tcp_pacing_ca_ratio 120), and at least two full segments. Default
	// 1 MiB, the sysctl's default from Linux 4.x to 6.15 (4 MiB since);
	// in a datacenter 1 ms at the pacing rate is far above it, so the cap
	// is what binds. 0 turns the limit off (a flow hands its whole window
	// to its host at once), as does a host without NIC flow control
	// (netsim.Host.NICFlowControl), whose NIC credits no one.
	TSQBytes netsim.Bytes
}

// DefaultConfig is DCTCP with 1460 B segments, 40 B headers, an initial
// window of 10 segments, a 1 ms RTO floor and g = 1/16.
func DefaultConfig() Config {
	return Config{
		CC:           DCTCP,
		MSS:          1460,
		HeaderBytes:  40,
		InitCwndPkts: 10,
		MinRTO:       netsim.Millisecond,
		InitRTO:      netsim.Millisecond,
		MaxRTO:       60 * netsim.Second,
		G:            DefaultG,
		InitAlpha:    1,
		TSQBytes:     1 << 20,
	}
}

// Validate reports the first invalid field.
func (c Config) Validate() error {
	switch {
	case int(c.CC) >= len(ccNames):
		return fmt.Errorf("transport: unknown congestion control %d", c.CC)
	case c.MSS <= 0:
		return fmt.Errorf("transport: MSS must be positive, got %d", c.MSS)
	case c.HeaderBytes < 0:
		return fmt.Errorf("transport: header bytes must be non-negative, got %d", c.HeaderBytes)
	case c.MSS+c.HeaderBytes <= 0:
		return fmt.Errorf("transport: segments must have a positive size")
	case c.InitCwndPkts < 1:
		return fmt.Errorf("transport: initial window must be at least 1 segment, got %d", c.InitCwndPkts)
	case c.MinRTO <= 0:
		return fmt.Errorf("transport: minimum RTO must be positive, got %v", c.MinRTO)
	case c.InitRTO <= 0:
		return fmt.Errorf("transport: initial RTO must be positive, got %v", c.InitRTO)
	case c.MaxRTO < c.MinRTO:
		return fmt.Errorf("transport: maximum RTO %v is below the minimum %v", c.MaxRTO, c.MinRTO)
	case !(c.G > 0 && c.G <= 1):
		return fmt.Errorf("transport: DCTCP gain g must be in (0, 1], got %v", c.G)
	case !(c.InitAlpha >= 0 && c.InitAlpha <= 1):
		return fmt.Errorf("transport: initial alpha must be in [0, 1], got %v", c.InitAlpha)
	case c.MaxCwndPkts < 0:
		return fmt.Errorf("transport: maximum window must be non-negative, got %d", c.MaxCwndPkts)
	case c.MaxCwndPkts > 0 && c.MaxCwndPkts < 2:
		return fmt.Errorf("transport: maximum window must be at least 2 segments, got %d", c.MaxCwndPkts)
	case c.TSQBytes < 0:
		return fmt.Errorf("transport: TCP small queues limit must be non-negative, got %d B", c.TSQBytes)
	}
	return nil
}
