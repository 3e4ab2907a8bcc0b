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
//
// Sender: slow start from InitCwndPkts segments with byte counting,
// congestion avoidance of one MSS per window, fast retransmit on the third
// duplicate ACK and NewReno fast recovery with partial ACKs (RFC 6582,
// "impatient" timer), an RFC 6298 timeout with a MinRTO floor, exponential
// backoff and go-back-N. RTT samples come from a timestamp echoed by the
// receiver, so they are unambiguous even for retransmissions. DCTCP sets
// ECT on data, keeps alpha per window of data (g = 1/16) and cuts cwnd by
// alpha/2 at most once per window, floored at 2 MSS. By default its window
// keeps growing between cuts, as the DCTCP analysis assumes; Config.CWR
// holds it from a cut until the cut is acknowledged, with the reduction
// paced by proportional rate reduction (CWRHold) as Linux and ns-3 do, or
// cut at once (CWRCut).
//
// Receiver: one cumulative ACK per data segment, made from the data packet
// itself, with ECE set exactly when the segment carried CE; out-of-order
// byte ranges wait in a sorted span set (segments need not start on MSS
// multiples).
//
// Completion: a flow completes, and its done callback runs, at the virtual
// time the receiver holds every byte (the netsim.Bulk contract); FCT is
// measured from the call to Start, StartLatency included. The sender's
// final ACK arrives later and only closes the endpoints.
//
// Two netsim.Bulk implementations: Stack.Send opens a fresh flow per
// message (slow start from the initial window every time), and
// Stack.Persistent keeps one connection per ordered host pair and appends
// each message to its byte stream, so window, alpha and RTT estimate carry
// over from message to message, as collective libraries' long-lived
// sockets do; a message's done runs when the receiver holds the stream up
// to the message's end.
package transport
