package crew

import (
	"syncsim/netsim"
	"syncsim/netsim/fluid"
)

// a2aTask is one partial reduce by all-to-all direct delivery (Sec. V-A):
// each member of P sends its whole model to the other p - 1 and reduces
// what it receives. It has no aggregator to replace: an outage of a
// connection it still needs, or a member's failure, abandons it.
type a2aTask struct {
	c      *Cluster
	id     int
	P      []int
	pos    []int
	h      [][]fluid.Handle
	live   [][]bool // [src][dst] transfer under way
	got    [][]bool // [src][dst] model delivered
	recv   []int    // per member: models received
	done   []bool
	left   int
	formed netsim.Time
	state  uint8
}

func newA2ATask(c *Cluster, pid int, P []int) *a2aTask {
	p := len(P)
	t := &a2aTask{c: c, id: pid, P: append([]int(nil), P...), formed: c.sim.Now(), left: p}
	t.pos = make([]int, c.n)
	for i := range t.pos {
		t.pos[i] = -1
	}
	for mi, w := range t.P {
		t.pos[w] = mi
	}
	t.h = make([][]fluid.Handle, p)
	t.live = make([][]bool, p)
	t.got = make([][]bool, p)
	for i := range t.h {
		t.h[i] = make([]fluid.Handle, p)
		t.live[i] = make([]bool, p)
		t.got[i] = make([]bool, p)
	}
	t.recv = make([]int, p)
	t.done = make([]bool, p)
	return t
}

func (t *a2aTask) pid() int { return t.id }

func (t *a2aTask) member(w int) bool { return t.pos[w] >= 0 && !t.done[t.pos[w]] }

func (t *a2aTask) start() {
	if len(t.P) == 1 {
		t.finish(0)
		return
	}
	for mi := range t.P {
		mi := mi
		t.c.after(t.c.cfg.Control, func() { t.send(mi) })
	}
}

// send: member si, knowing P, sends its model to every other member.
func (t *a2aTask) send(si int) {
	if t.state != tActive {
		return
	}
	c := t.c
	for di, dst := range t.P {
		if di == si {
			continue
		}
		di := di
		t.live[si][di] = true
		c.nextSeq++
		t.h[si][di] = c.net.send(t.P[si], dst, c.cfg.Model, ClassOther, legTag(t.id, c.nextSeq), nil, nil, func() {
			if t.state != tActive || !t.live[si][di] {
				return
			}
			t.live[si][di] = false
			if t.got[si][di] {
				c.fail("partial reduce %d: worker %d received worker %d's model twice", t.id, t.P[di], t.P[si])
			}
			t.got[si][di] = true
			t.recv[di]++
			if t.recv[di] == len(t.P)-1 {
				t.finish(di)
			}
		})
	}
}

func (t *a2aTask) finish(mi int) {
	t.done[mi] = true
	t.left--
	t.c.memberDone(t.P[mi])
	if t.left == 0 {
		t.state = tComplete
		t.c.accepted += int64(len(t.P) * (len(t.P) - 1))
		t.c.taskEnded(t, true, t.formed)
	}
}

func (t *a2aTask) connDown(u, v int) {
	if t.state != tActive {
		return
	}
	a, b := t.pos[u], t.pos[v]
	if a < 0 || b < 0 {
		return
	}
	if !t.got[a][b] || !t.got[b][a] {
		t.abandon()
	}
}

func (t *a2aTask) nodeDown(w int) {
	if t.state == tActive && t.pos[w] >= 0 {
		t.abandon()
	}
}

func (t *a2aTask) abandon() {
	if t.state != tActive {
		return
	}
	c := t.c
	t.state = tAbandoned
	for si := range t.live {
		for di := range t.live[si] {
			if t.live[si][di] {
				c.net.cancel(t.h[si][di])
				t.live[si][di] = false
			}
		}
	}
	for mi, w := range t.P {
		if !t.done[mi] {
			c.memberReleased(w)
		}
	}
	c.taskEnded(t, false, t.formed)
}
