package syncctl

// Start starts every worker's first computation now (and the bandwidth
// changes), for a cluster that shares its Sim with other tenants: the
// caller runs the Sim, and Metrics reads the results so far. Run is Start
// followed by running the Sim to the configured duration.
func (c *Cluster) Start() {
	for i := range c.w {
		c.compute(i)
	}
	c.scheduleEpoch()
}

// Metrics are the run's metrics so far (see Run).
func (c *Cluster) Metrics() Metrics { return c.metrics() }
