package ina

// Background warm-up: how long the background runs alone before the jobs
// start, so that they meet it in its steady state. Measured with the
// fabric_util series (--series-dir, sample_us=500) of a run whose only job
// starts late; the warm-up is when the 2 ms means of the uplinks'
// utilisation stop rising: after it they stay within max(3%, 2 standard
// deviations of the steady-state 2 ms means) of the long-run mean.
const (
	// warmupMs is ina-leafspine's: 8 x 8 x 16 hosts, 100 Gbps, fabric-basis
	// loads 0.5 and 0.8, Hadoop and Cache Follower, 40 ms, seed 1:
	// long-run (20-40 ms) uplink utilisation 0.53 at 0.5 and 0.82-0.85 at
	// 0.8, reached after 2 ms at 0.5 and 12 ms at 0.8.
	warmupMs  = 12
	warmupDoc = "12 ms by default: on the default fabric, leaf -> spine utilisation sampled every 0.5 ms at loads 0.5 and 0.8 " +
		"(Hadoop and Cache Follower) stops rising after 2 ms at 0.5 and 12 ms at 0.8, then stays within a few percent of its " +
		"long-run mean, 0.53 and 0.82-0.85; slower links have longer transients"
	// testbedWarmupMs is ina-testbed's: 3 senders at 40 Gbps, Hadoop,
	// loads 0.6 and 0.8, 100 ms, the mean of 16 seeds: the S1 -> S2
	// utilisation is 0.86-0.92 of its long-run (40-100 ms) mean from 2 ms
	// on and within 3% of it from 8 ms at 0.6 but only from about 36 ms
	// at 0.8 (the senders' NICs at 0.8 fill with long Hadoop flows).
	testbedWarmupMs  = 40
	testbedWarmupDoc = "40 ms by default: averaged over 16 seeds, the S1 -> S2 utilisation reaches 0.9 of its long-run mean " +
		"within 6 ms but creeps up to it only after about 36 ms at load 0.8 (8 ms at 0.6)"
	// steadyCPUDoc is the measured CPU of ina-leafspine's default point
	// (go build -o /tmp/syncsim-rig ./cmd/syncsim; /usr/bin/time -v
	// /tmp/syncsim-rig run ina-leafspine --set protocol=P, seed 1, user
	// seconds on one core).
	steadyCPUDoc = "measured at the default point, seed 1: 12-13 s of CPU for strawasyn and pa-atp, 25 s for atp; switchml, " +
		"whose jobs lose packets where their workers' pools converge and wait out the client's 10 ms slot timers (doubled " +
		"after 100, 300, ... expiries), had finished 3 of its 8 jobs 28 ms after the warm-up (max_ms=40, 15 s of CPU): bound " +
		"it with max_ms, which leaves ajct_ms NaN and reports ajct_done_ms and jobs_done"
)
