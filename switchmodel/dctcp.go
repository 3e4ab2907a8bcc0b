package switchmodel

import "syncsim/netsim"

// DCTCPK is the smallest step-marking threshold, in packets of mtu bytes,
// that satisfies DCTCP's guideline K > C x RTT / 7 for a bottleneck of rate
// c and round-trip time rtt (Alizadeh et al., SIGCOMM 2010, the parameter
// guidelines of Sec. 3). It returns at least 1; non-positive arguments give 1.
func DCTCPK(c netsim.Rate, rtt netsim.Time, mtu netsim.Bytes) int {
	if c <= 0 || rtt <= 0 || mtu <= 0 {
		return 1
	}
	bdp := netsim.BytesIn(c, rtt) // exact, in integers
	return int(bdp/(7*mtu)) + 1   // the smallest integer strictly greater
}
