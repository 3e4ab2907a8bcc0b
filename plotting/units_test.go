package plotting

import "testing"

func TestLabel(t *testing.T) {
	tests := []struct{ column, want string }{
		{"ajct_ms", "ajct (ms)"},
		{"goodput_gbps", "goodput (Gbit/s)"},
		{"load", "load"},
		{"fct_p99_us", "fct p99 (µs)"},
		{"avg_sync_time_s", "avg sync time (s)"},
		{"iters_per_s", "iters (1/s)"},
		{"events_per_s", "events (1/s)"},
		{"queue_max_pkts", "queue max (packets)"},
		{"ca_pkts_rtt", "ca (packets/RTT)"},
		{"buffer_kb", "buffer (KB)"},
		{"switch_mem_mb", "switch mem (MB)"},
		{"link_mbps", "link (Mbit/s)"},
		{"delay_ns", "delay (ns)"},
		{"model_t_rounds", "model t (rounds)"},
		{"ajct_units", "ajct (units)"},
		{"loss_pct", "loss (%)"},
		{"fct_slowdown_p99", "fct slowdown p99"},
		{"agg_b", "agg b"}, // "b" is job B, not bytes
		{"ms", "ms"},       // a bare unit word names no quantity: kept whole
		{"utilisation", "utilisation"},
	}
	for _, tc := range tests {
		t.Run(tc.column, func(t *testing.T) {
			if got := Label(tc.column); got != tc.want {
				t.Errorf("Label(%q) = %q, want %q", tc.column, got, tc.want)
			}
		})
	}
}

func TestLabelUnit(t *testing.T) {
	tests := []struct{ column, unit, want string }{
		{"ajct_ms", "ms", "ajct (ms)"},
		{"fct_p99_us", "us", "fct p99 (µs)"},
		{"model_s", "packets", "model s (packets)"},
		{"drops", "packets", "drops (packets)"},
		{"timeouts", "", "timeouts"},
		{"goodput_gbps", "", "goodput (Gbit/s)"},
	}
	for _, tc := range tests {
		t.Run(tc.column, func(t *testing.T) {
			if got := LabelUnit(tc.column, tc.unit); got != tc.want {
				t.Errorf("LabelUnit(%q, %q) = %q, want %q", tc.column, tc.unit, got, tc.want)
			}
		})
	}
}
