package crew

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"syncsim/netsim"
)

// FaultKind is what an outage takes down.
type FaultKind uint8

const (
	// FaultLink takes the connection between workers A and B down, both
	// directions (a WAN outage between two clouds).
	FaultLink FaultKind = iota
	// FaultNode takes worker A down: its computation stops and all its
	// connections fail.
	FaultNode
	// FaultController takes the controller down: no partial reduce is
	// formed and workers train on alone (Sec. IV-B's standalone mode).
	FaultController
)

// Fault is one outage from At for Duration (0: to the end of the run).
// The endpoints notice a link or node outage Options.Detect after it
// begins and report it to the controller, which reacts at once; when the
// outage ends the controller learns it at once. Controller outages take
// effect at once.
type Fault struct {
	Kind     FaultKind
	A, B     int // workers (B for links only)
	At       netsim.Time
	Duration netsim.Time
}

func (f Fault) validate(n int) error {
	bad := func(w int) bool { return w < 0 || w >= n }
	switch {
	case f.At < 0 || f.Duration < 0:
		return fmt.Errorf("outage at %v for %v: times must be non-negative", f.At, f.Duration)
	case f.Kind == FaultLink && (bad(f.A) || bad(f.B) || f.A == f.B):
		return fmt.Errorf("link outage %d-%d: need two distinct workers in 0..%d", f.A, f.B, n-1)
	case f.Kind == FaultNode && bad(f.A):
		return fmt.Errorf("node outage of worker %d: workers are 0..%d", f.A, n-1)
	}
	return nil
}

// ParseFaults reads an outage schedule: items separated by ';', each
//
//	link:A-B@START[+DUR]   the connection between workers A and B
//	node:A@START[+DUR]     worker A
//	ctrl@START[+DUR]       the controller
//
// with workers numbered from 0 and times in seconds; without +DUR the
// outage lasts to the end of the run. An empty string is no outage.
func ParseFaults(s string, n int) ([]Fault, error) {
	var out []Fault
	for _, item := range strings.Split(s, ";") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		what, when, ok := strings.Cut(item, "@")
		if !ok {
			return nil, fmt.Errorf("outage %q: want KIND@START[+DUR]", item)
		}
		var f Fault
		start, dur, hasDur := strings.Cut(when, "+")
		at, err := parseSeconds(start)
		if err != nil {
			return nil, fmt.Errorf("outage %q: start: %w", item, err)
		}
		f.At = at
		if hasDur {
			if f.Duration, err = parseSeconds(dur); err != nil {
				return nil, fmt.Errorf("outage %q: duration: %w", item, err)
			}
			if f.Duration == 0 {
				return nil, fmt.Errorf("outage %q: duration must be positive", item)
			}
		}
		kind, target, _ := strings.Cut(strings.TrimSpace(what), ":")
		switch kind {
		case "link":
			a, b, ok := strings.Cut(target, "-")
			if !ok {
				return nil, fmt.Errorf("outage %q: want link:A-B", item)
			}
			f.Kind = FaultLink
			if f.A, err = strconv.Atoi(strings.TrimSpace(a)); err == nil {
				f.B, err = strconv.Atoi(strings.TrimSpace(b))
			}
			if err != nil {
				return nil, fmt.Errorf("outage %q: workers must be integers", item)
			}
		case "node":
			f.Kind = FaultNode
			if f.A, err = strconv.Atoi(strings.TrimSpace(target)); err != nil {
				return nil, fmt.Errorf("outage %q: worker must be an integer", item)
			}
		case "ctrl":
			if target != "" {
				return nil, fmt.Errorf("outage %q: ctrl takes no target", item)
			}
			f.Kind = FaultController
		default:
			return nil, fmt.Errorf("outage %q: kind %q (allowed: link, node, ctrl)", item, kind)
		}
		if err := f.validate(n); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

func parseSeconds(s string) (netsim.Time, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || v < 0 || v > 1e9 {
		return 0, fmt.Errorf("%q is not a time in seconds", s)
	}
	return netsim.FromSeconds(v), nil
}

// RandomLinkFaults draws count distinct connections among n workers that
// fail at times uniform in [from, to) for duration each (0: for good), the
// "faulty links" of Fig. 8.
func RandomLinkFaults(r *rand.Rand, n, count int, from, to, duration netsim.Time) ([]Fault, error) {
	pairs := n * (n - 1) / 2
	if count < 0 || count > pairs {
		return nil, fmt.Errorf("%d faulty links: %d workers have %d connections", count, n, pairs)
	}
	if to < from {
		return nil, fmt.Errorf("fault window [%v, %v) is empty", from, to)
	}
	seen := map[[2]int]bool{}
	var out []Fault
	for len(out) < count {
		a, b := r.IntN(n), r.IntN(n)
		if a == b {
			continue
		}
		a, b = min(a, b), max(a, b)
		if seen[[2]int{a, b}] {
			continue
		}
		seen[[2]int{a, b}] = true
		at := from
		if to > from {
			at += netsim.Time(r.Int64N(int64(to - from)))
		}
		out = append(out, Fault{Kind: FaultLink, A: a, B: b, At: at, Duration: duration})
	}
	return out, nil
}

// scheduleFaults arranges every outage of the run.
func (c *Cluster) scheduleFaults() {
	for _, f := range c.cfg.Faults {
		f := f
		detected := false
		c.sim.At(f.At, func() { c.faultBegins(f) })
		if f.Kind != FaultController {
			c.sim.At(f.At+c.cfg.Detect, func() {
				if f.Duration == 0 || c.cfg.Detect < f.Duration {
					detected = true
					c.faultDetected(f)
				}
			})
		}
		if f.Duration > 0 {
			c.sim.At(f.At+f.Duration, func() { c.faultEnds(f, detected) })
		}
	}
}

// connections lists the connections an outage takes down.
func (c *Cluster) connections(f Fault) [][2]int {
	switch f.Kind {
	case FaultLink:
		return [][2]int{{f.A, f.B}}
	case FaultNode:
		var out [][2]int
		for j := 0; j < c.n; j++ {
			if j != f.A {
				out = append(out, [2]int{f.A, j})
			}
		}
		return out
	}
	return nil
}

func (c *Cluster) faultBegins(f Fault) {
	if f.Kind == FaultController {
		c.ctrlUp = false
		if g := c.forming; g != nil {
			c.forming = nil
			for _, w := range g.members {
				c.dropPre(w)
				c.standalone++
				c.startCompute(w)
			}
		}
		return
	}
	for _, cn := range c.connections(f) {
		i, j := cn[0], cn[1]
		c.physDown[i][j]++
		c.physDown[j][i]++
		if c.physDown[i][j] == 1 {
			if err := c.net.SetConnection(i, j, false); err != nil {
				c.fail("outage: %v", err)
			}
		}
	}
	if f.Kind == FaultNode {
		w := f.A
		c.dead[w] = true
		c.wgen[w]++
		c.wstate[w] = wDead
	}
}

func (c *Cluster) faultDetected(f Fault) {
	for _, cn := range c.connections(f) {
		c.knownDown[cn[0]][cn[1]]++
		c.knownDown[cn[1]][cn[0]]++
	}
	if f.Kind == FaultNode {
		c.knownDead[f.A] = true
	}
	c.refreshView()
	tasks := append([]task(nil), c.tasks...)
	switch f.Kind {
	case FaultLink:
		c.preConnDown(f.A, f.B)
		for _, t := range tasks {
			t.connDown(f.A, f.B)
		}
	case FaultNode:
		w := f.A
		c.dropPre(w)
		if g := c.forming; g != nil {
			for i, m := range g.members {
				if m == w {
					g.members = append(g.members[:i], g.members[i+1:]...)
					break
				}
			}
		}
		for j := 0; j < c.n; j++ {
			if j != w {
				c.preConnDown(w, j)
			}
		}
		for _, t := range tasks {
			t.nodeDown(w)
		}
	}
}

// preConnDown stops the non-blocking scatter over a failed connection;
// the plan of the worker's P will route its chunks elsewhere.
func (c *Cluster) preConnDown(u, v int) {
	for _, d := range [][2]int{{u, v}, {v, u}} {
		if p := c.pre[d[0]]; p != nil && p.legs[d[1]] != nil {
			c.stop(p.legs[d[1]])
		}
	}
}

func (c *Cluster) faultEnds(f Fault, detected bool) {
	if f.Kind == FaultController {
		c.ctrlUp = true
		c.refreshView()
		return
	}
	for _, cn := range c.connections(f) {
		i, j := cn[0], cn[1]
		c.physDown[i][j]--
		c.physDown[j][i]--
		if c.physDown[i][j] == 0 {
			if err := c.net.SetConnection(i, j, true); err != nil {
				c.fail("outage end: %v", err)
			}
		}
		if detected {
			c.knownDown[i][j]--
			c.knownDown[j][i]--
		}
	}
	if f.Kind == FaultNode {
		c.revive(f.A, detected)
	}
	c.refreshView()
}

// revive brings worker w back. If a partial reduce it belongs to is still
// under way (the outage ended before anyone noticed), it carries on in it;
// otherwise it leaves any group it was queued in and starts a fresh
// iteration.
func (c *Cluster) revive(w int, detected bool) {
	c.dead[w] = false
	if detected {
		c.knownDead[w] = false
	}
	c.wgen[w]++
	for _, t := range c.tasks {
		if t.member(w) {
			c.wstate[w] = wSyncing
			return
		}
	}
	c.dropPre(w)
	if g := c.forming; g != nil {
		for i, m := range g.members {
			if m == w {
				g.members = append(g.members[:i], g.members[i+1:]...)
				break
			}
		}
	}
	c.startCompute(w)
}
