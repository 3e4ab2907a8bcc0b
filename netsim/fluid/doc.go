// Package fluid is syncsim's flow-level engine: bulk transfers move as
// fluid over the links of a netsim.Network at rates set by a bandwidth
// allocation policy, instead of as packets through queues. It implements
// netsim.Bulk, so collectives written against Bulk run unchanged on it.
//
// # Timing of one transfer
//
// Send(src, dst, size, opts, done) routes the transfer over the path
// net.Path(src, dst, flow) would give a packet of flow id flow, where flow
// comes from a per-engine counter (1, 2, 3, ...), so runs are reproducible
// and ECMP spreads transfers exactly as the packet engine's switches would
// for the same flow ids. The transfer becomes active (competes for
// bandwidth) opts.StartLatency after Send. While active it holds one rate
// on every link of its path at once, as a fluid pipe does; its last byte
// leaves the source when size bytes have been sent, and done fires at that
// instant plus the path's propagation delay (the sum of link Delays). So an
// uncontended transfer takes
//
//	StartLatency + ceil(8 size / rate) + sum of link delays.
//
// Per-hop store-and-forward of a packet, headers and queueing are not
// modelled; those belong to the packet engine. A zero-size transfer takes
// StartLatency + propagation. A transfer whose source is its destination
// has an empty path and completes after StartLatency.
//
// # Allocation policies
//
// MaxMin is max-min fairness computed by progressive filling: all rates
// rise together; when a link saturates, the transfers crossing it freeze
// at its fair share, and the others continue on the remaining capacity.
// The result gives every transfer a bottleneck link that is saturated and
// on which no transfer has a higher rate.
//
// FCFS is flow-level first-come-first-served, as CREW schedules concurrent
// transfers (Sec. IV-C of its paper, evaluated in Sec. V-E: a transfer
// first on a link is not preempted by a later one). CREW's workers apply
// it at the sender on a full mesh, where each pair has its own path; here
// it applies on every link of a path, which on such a mesh is the same
// thing. Transfers are ranked by the time they became active; the earliest
// take what they can (max-min among themselves on the full link
// capacities), the next-earliest share what is left on each link, and so
// on. Transfers that became active at the same instant form one rank and
// share max-min fairly among themselves. A later transfer that crosses a
// link saturated by earlier ones waits at rate 0. Rank is kept while
// waiting: when capacity frees up, an earlier transfer that was waiting is
// served before a later one, even one that was already running on another
// part of its path, which then waits in turn.
//
// Priority (NewPriority) generalises FCFS to strict priorities: each
// transfer carries a key computed from its BulkOpts by a caller-supplied
// function, and ranks are ordered by (key, activation time), so a
// transfer of a lower key preempts higher-key transfers on every link it
// crosses, whenever it arrives; equal keys behave as FCFS. CREW's
// task-level FCFS and its multicast-first and scatter-first variants are
// such keys.
//
// # Cancellation and uncapped links
//
// Start is Send returning a Handle: Sent reports how many bytes a
// transfer has pushed out so far, and Cancel abandons it (its done never
// fires; its bandwidth is re-allocated at once), for callers that discard
// or re-route data mid-transfer. Cancelled transfers are booked apart
// from delivered ones. SetUncapped declares a link that can never be a
// bottleneck (an access cable rated at the sum of the links behind it);
// transfers leave it out of allocation but pay its delay, which keeps
// unrelated transfers out of each other's recomputations.
//
// # Incremental recomputation
//
// Rates change only when a transfer arrives, departs or a link capacity
// changes. Changes at one instant are batched: they mark the links
// involved, and one recomputation at that instant collects the transfers
// that share links, transitively, with the marked ones (the affected
// connected components). Only those transfers have their remaining bytes
// advanced (remaining -= rate * elapsed), their rates recomputed and their
// projected completion times updated; every other transfer keeps its rate
// and projection untouched.
//
// # Time and rounding
//
// Rates are float64 bits/s and remaining bytes float64; time is integer
// picoseconds. A projected completion is now + ceil(8e12 remaining / rate)
// ps, so a transfer never finishes before its bytes could have been sent,
// and at most one picosecond late. A projection is only recomputed when
// the transfer's rate changes, so it does not drift. Projections are kept
// in a B-tree ordered by (time, transfer id), with one timer armed for the
// earliest entry. Entries are updated lazily: a projection that moves
// later keeps its early entry, which is re-queued at the new time when it
// comes due; one that moves earlier gets a new entry and the old one is
// dropped when it surfaces. Completions therefore still fire exactly at
// their projections, in (time, id) order. A transfer whose links all have positive capacity
// never sits at rate 0 under MaxMin; under FCFS it may, but only behind a
// link its predecessors saturate. Violations panic naming the invariant.
package fluid
