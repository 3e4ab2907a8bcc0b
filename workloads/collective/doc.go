// Package collective implements the communication patterns of distributed
// training (ring all-reduce, weighted ring all-reduce, parameter-server
// push/pull, all-to-all, NCCL's double binary tree all-reduce and pipelined
// tree reduce and broadcast, hierarchical all-reduce, groups all-reducing
// in parallel, gossip on a shift graph) once, against netsim.Bulk, so they
// run unchanged on the flow-level engine (netsim/fluid) or the packet
// engine.
//
// Every collective is asynchronous: it issues Bulk sends, chains the next
// ones from their done callbacks and calls its own done once, at the
// virtual time the last byte it needed has arrived. The caller's BulkOpts
// are passed to every send, so opts.StartLatency is the per-message
// software overhead (the alpha of cost models) paid by every step.
// Collectives that have nothing to send (a single participant) call done
// through a zero-delay event, never from inside the call.
//
// Invalid arguments (no participants, repeated participants, negative
// sizes, bad weights) are returned as errors before anything is sent.
package collective
