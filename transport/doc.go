// Package transport holds the host stacks of syncsim: DCTCP and TCP NewReno
// byte-stream flows over netsim hosts, a constant-bit-rate UDP source, and
// the congestion-control math (DCTCP alpha and window cut, RFC 5681/6582
// window arithmetic, RFC 6298 retransmission timeout) as plain functions.
//
// Wire model: every segment carries Config.HeaderBytes of headers (default
// 40 B: 20 B IPv4 + 20 B TCP, no options, no Ethernet framing) on top of at
// most Config.MSS payload bytes (default 1460 B), so a full segment is
// 1500 B on the wire; a pure ACK is HeaderBytes long. There is no
// connection handshake: the first window leaves at the flow's start time.
// Sequence and acknowledgement numbers (Packet.Seq, Packet.Ack) count
// payload bytes from zero.
package transport
