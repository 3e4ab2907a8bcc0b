package netsim

import "testing"

func TestTimeString(t *testing.T) {
	tests := []struct {
		name string
		in   Time
		want string
	}{
		{"zero", 0, "0ps"},
		{"ps", 999, "999ps"},
		{"ns", 1500, "1.5ns"},
		{"us", 12500 * Nanosecond, "12.5us"},
		{"ms", 3 * Millisecond, "3ms"},
		{"s", 90 * Second, "90s"},
		{"negative", -2 * Microsecond, "-2us"},
		{"never", Never, "never"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.in.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestTimeConversions(t *testing.T) {
	if got := FromSeconds(1.5); got != 1500*Millisecond {
		t.Errorf("FromSeconds(1.5) = %v", got)
	}
	if got := FromMicros(2.5); got != 2500*Nanosecond {
		t.Errorf("FromMicros(2.5) = %v", got)
	}
	if got := FromMillis(0.001); got != Microsecond {
		t.Errorf("FromMillis(0.001) = %v", got)
	}
	if got := (250 * Millisecond).Seconds(); got != 0.25 {
		t.Errorf("Seconds() = %v", got)
	}
}

func TestTxTime(t *testing.T) {
	tests := []struct {
		name string
		b    Bytes
		r    Rate
		want Time
	}{
		{"1500B at 10G", 1500, 10 * Gbps, 1200 * Nanosecond},
		{"1500B at 100G", 1500, 100 * Gbps, 120 * Nanosecond},
		{"300B at 40G", 300, 40 * Gbps, 60 * Nanosecond},
		{"rounds up", 1, 3 * BitPerSecond, 2666666666667},
		{"zero bytes", 0, Gbps, 0},
		{"large no overflow", 500 * Megabyte, 25 * Mbps, 160 * Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := TxTime(tc.b, tc.r); got != tc.want {
				t.Errorf("TxTime(%d, %v) = %d, want %d", tc.b, tc.r, got, tc.want)
			}
		})
	}
}

func TestBytesIn(t *testing.T) {
	if got := BytesIn(10*Gbps, Microsecond); got != 1250 {
		t.Errorf("BytesIn(10G, 1us) = %d, want 1250", got)
	}
	// Round trip: serialising what a rate carries never takes longer than the interval.
	for _, r := range []Rate{Gbps, 25 * Mbps, 40 * Gbps, 7 * BitPerSecond} {
		d := 3*Millisecond + 7
		if tx := TxTime(BytesIn(r, d), r); tx > d {
			t.Errorf("rate %v: TxTime(BytesIn(d)) = %v > %v", r, tx, d)
		}
	}
}
