package switchmodel

import (
	"testing"

	"syncsim/netsim"
)

func TestDCTCPK(t *testing.T) {
	tests := []struct {
		name string
		c    netsim.Rate
		rtt  netsim.Time
		mtu  netsim.Bytes
		want int
	}{
		// 10 Gbps x 100 us = 125 KB; /7 = 17857 B = 11.9 packets -> 12.
		{"10G 100us", 10 * netsim.Gbps, 100 * netsim.Microsecond, 1500, 12},
		// 100 Gbps x 16 us = 200 KB; /7/1500 = 19.05 -> 20.
		{"100G 16us", 100 * netsim.Gbps, 16 * netsim.Microsecond, 1500, 20},
		// 8 Gbps x 73.5 us = 73500 B = exactly 7 x 7 x 1500 B: K must
		// exceed 7 -> 8.
		{"strict", 8 * netsim.Gbps, 73500 * netsim.Nanosecond, 1500, 8},
		{"tiny", netsim.Mbps, netsim.Microsecond, 1500, 1},
		{"bad", 0, netsim.Microsecond, 1500, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := DCTCPK(tc.c, tc.rtt, tc.mtu); got != tc.want {
				t.Errorf("DCTCPK = %d, want %d", got, tc.want)
			}
		})
	}
}
