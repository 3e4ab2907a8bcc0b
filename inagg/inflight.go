package inagg

import "syncsim/netsim"

// What a job has on the wire, for the drop books and time series: every
// function here only reads state.

// PacketJob is the job ID an INA packet carries (JobConfig.ID), and false
// for a packet of another protocol (a kind the INA protocols do not use).
func PacketJob(p *netsim.Packet) (int, bool) {
	if p.Kind < KindGradient || p.Kind > KindRackAggregate {
		return 0, false
	}
	return int(p.Ext[extJob]), true
}

// PacketsSent is the packets the job's workers and PS sent as their
// source: gradients (retransmissions included) and result pulls, the PS's
// GACKs and results (each copy). What the aggregating switch sends is
// in its AggregatorStats.Sent.
func (j *Job) PacketsSent() uint64 {
	n := j.ps.stats.Sent
	for _, w := range j.workers {
		n += w.stats.Sent + w.stats.Pulls
	}
	return n
}

// Outstanding counts worker w's sequences in flight: sent and not yet
// answered by a result, the sequences s with last_AACK < s < snd_next
// that the worker sent and holds no result for (ATP's threads leave
// sequences below snd_next unsent; a result beyond last_AACK answers its
// own sequence only). gacked is how many of them the switch or the PS
// acknowledged with a GACK (the protocols with GACKs; 0 for the others):
// taken into an aggregator or by the PS, waiting for the other workers or
// for the result's way back. The scan is over the worker's window.
func (j *Job) Outstanding(w int) (sent, gacked int64) {
	wk := j.workers[w]
	for s := wk.lastAACK + 1; s < wk.sndNext; s++ {
		f := wk.flags[s&wk.mask]
		if f&(fSent|fResult) == fSent {
			sent++
			if f&fGACK != 0 {
				gacked++
			}
		}
	}
	return sent, gacked
}

// RTO is worker w's retransmission timeout as it would be armed now, its
// backoff included; under SwitchML the longest of its threads' timeouts.
func (j *Job) RTO(w int) netsim.Time {
	wk := j.workers[w]
	if c, ok := wk.ctl.(*switchmlCtl); ok {
		var r netsim.Time
		for i := range c.threads {
			r = max(r, c.threads[i].backoff.timeout)
		}
		return r
	}
	return wk.rtoValue()
}
