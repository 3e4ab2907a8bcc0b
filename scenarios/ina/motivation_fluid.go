package ina

// fig1AJCT is the fluid AJCT of PA-ATP Fig. 1 (Sec. II-B1) in time units
// when each worker pushes g data units (0 < g <= 1; the paper's g = 3/4).
// Paths P1 and P2 carry one data unit per time unit; job A has A1 on P1
// and A2 on P2, job B one worker on P1 from t = 1; a UDP flow takes 3/4 of
// P2 during [0, 1).
//
// Synchronous (ATP, SwitchML): A advances at A2's 1/4 until t = 1 and then
// at the half of P1 it shares with B, finishing at 1 + 2(g - 1/4); B has
// sent g - 1/4 by then and finishes the last 1/4 alone, so its JCT is
// 2g - 1/4 and AJCT = 2g + 1/8 (1.625 at g = 3/4).
//
// Asynchronous: A1 finishes alone at g <= 1, A2 sends 1/4 by t = 1 and the
// rest at full rate, so A's JCT is g + 3/4; B finds P1 idle, JCT g; AJCT =
// g + 3/8 (1.125 at g = 3/4).
func fig1AJCT(g float64, sync bool) float64 {
	if sync {
		return 2*g + 0.125
	}
	return g + 0.375
}
