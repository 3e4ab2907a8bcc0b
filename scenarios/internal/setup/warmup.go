package setup

// Background warm-up: how long the background runs alone before the jobs
// start, so that they meet it in its steady state. Measured with
// ina-leafspine's fabric_util series (--series-dir, sample_us=500) of a run
// whose only job starts late; the warm-up is when the 2 ms means of the
// uplinks' utilisation stop rising: after it they stay within max(3%, 2
// standard deviations of the steady-state 2 ms means) of the long-run mean.
const (
	// LeafSpineWarmupMs is the leaf-spine's (ina-leafspine, and
	// mixed-fabric's default): 8 x 8 x 16 hosts, 100 Gbps, fabric-basis
	// loads 0.5 and 0.8, Hadoop and Cache Follower, 40 ms, seed 1:
	// long-run (20-40 ms) uplink utilisation 0.53 at 0.5 and 0.82-0.85 at
	// 0.8, reached after 2 ms at 0.5 and 12 ms at 0.8.
	LeafSpineWarmupMs = 12
	// TestbedWarmupMs is ina-testbed's: 3 senders at 40 Gbps, Hadoop,
	// loads 0.6 and 0.8, 100 ms, the mean of 16 seeds: the S1 -> S2
	// utilisation is 0.86-0.92 of its long-run (40-100 ms) mean from 2 ms
	// on and within 3% of it from 8 ms at 0.6 but only from about 36 ms
	// at 0.8 (the senders' NICs at 0.8 fill with long Hadoop flows).
	TestbedWarmupMs = 40
)
