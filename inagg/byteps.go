package inagg

// newBytePSCtl is BytePS's worker (Jiang et al., OSDI 2020, as PA-ATP's
// baseline without INA): gradients go to the PS host over a DCTCP-like
// window (slow start, one packet per round trip, cuts by alpha/2 with
// g = 1/16) clocked by the PS's per-packet acknowledgements.
func newBytePSCtl(p Params, maxCWD float64) *asyncCtl {
	p.InitCWD = p.BytePSInitCWD
	c := newAsyncCtl(p, maxCWD, p.BytePSG, 1, false, false, false, nil, 0)
	c.lossCut = true // TCP's loss response
	return c
}
