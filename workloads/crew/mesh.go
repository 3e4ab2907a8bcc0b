package crew

import (
	"fmt"
	"math"
	"slices"

	"syncsim/netsim"
)

// mesh moves CREW's and OPR's streams at flow fidelity without a fluid
// transfer per chunk. On the full mesh every transfer crosses exactly one
// capacity-limited link, the directed connection src -> dst (the access
// cables are never a bottleneck, see NewNet), so the fluid engine's
// allocation on a path reduces to one link's: max-min is an equal share of
// the connection among the streams sending on it (FS), and the priority
// policies give the whole connection to the stream of the lowest key
// (FL, TL, C1, C2: every stream has a key of its own). A link here keeps
// its sending streams, advances their remaining bytes when anything on it
// changes (a stream starts or stops a chunk, the capacity changes) and
// arms one timer for the next chunk to leave, with the fluid engine's
// rounding (remaining -= rate x elapsed; a completion at now + ceil(8e12
// remaining / rate) ps). A test holds it to the fluid engine on single
// partial reduces and training runs; Options.viaEngine keeps the engine.
type mesh struct {
	c     *Cluster
	links [][]*wlink // [src][dst]
	key   func(netsim.BulkOpts) int64

	// Books: bytes of chunks started, left, and of cancelled transfers.
	started, left, cancelled netsim.Bytes
}

// wlink is one directed connection's streams.
type wlink struct {
	m        *mesh
	src, dst int
	act      []*stream // streams with a chunk transfer under way; by key unless FS
	last     netsim.Time
	timer    netsim.Timer
}

const meshTimerKind int32 = 1

func newMesh(c *Cluster) *mesh {
	m := &mesh{c: c, links: make([][]*wlink, c.n), key: priorityKey(c.net.pol)}
	if m.key == nil {
		m.key = func(netsim.BulkOpts) int64 { return 0 }
	}
	for i := range m.links {
		m.links[i] = make([]*wlink, c.n)
	}
	return m
}

func (m *mesh) link(i, j int) *wlink {
	l := m.links[i][j]
	if l == nil {
		l = &wlink{m: m, src: i, dst: j, last: m.c.sim.Now()}
		l.timer.Init(m.c.sim, l, meshTimerKind)
		m.links[i][j] = l
	}
	return l
}

// start begins sending chunks cur of s (s.cur, s.live set by the caller).
func (m *mesh) start(s *stream) {
	size := m.c.ch.Bytes(s.cur)
	m.c.net.Transfers++
	m.c.net.BytesSent += size
	m.started += size
	l := m.link(s.src, s.dst)
	l.advance()
	s.key = m.key(netsim.BulkOpts{Class: s.cls, Tag: legTag(s.pid, s.seq)})
	s.rem = float64(size)
	s.rate = 0
	if m.c.net.pol == FS {
		l.act = append(l.act, s)
	} else {
		k := slices.IndexFunc(l.act, func(o *stream) bool { return o.key > s.key })
		if k < 0 {
			k = len(l.act)
		}
		l.act = slices.Insert(l.act, k, s)
	}
	l.rearm()
}

// sent is how many bytes of s's transfer under way have left its source.
func (m *mesh) sent(s *stream) netsim.Bytes {
	size := m.c.ch.Bytes(s.cur)
	rem := s.rem
	if l := m.links[s.src][s.dst]; l != nil {
		if dt := m.c.sim.Now() - l.last; dt > 0 && s.rate > 0 {
			rem -= s.rate * float64(dt) / 8e12
		}
	}
	done := float64(size) - rem
	if done <= 0 {
		return 0
	}
	return min(netsim.Bytes(done), size)
}

// cancel stops s's transfer under way and returns the bytes that had left.
func (m *mesh) cancel(s *stream) netsim.Bytes {
	l := m.links[s.src][s.dst]
	l.advance()
	sent := m.sent(s)
	m.cancelled += m.c.ch.Bytes(s.cur)
	l.remove(s)
	l.rearm()
	return sent
}

// capacity re-rates link i -> j after its capacity or state changed.
func (m *mesh) capacity(i, j int) {
	if l := m.links[i][j]; l != nil {
		l.advance()
		l.rearm()
	}
}

// capacity is the link's capacity in force, bits/s (0 when down).
func (l *wlink) capacity() float64 {
	nt := l.m.c.net
	if !nt.up[l.src][l.dst] {
		return 0
	}
	return math.Max(math.Round(nt.cur[l.src][l.dst]), 1)
}

// advance moves every sending stream's remaining bytes to now.
func (l *wlink) advance() {
	now := l.m.c.sim.Now()
	if dt := now - l.last; dt > 0 {
		for _, s := range l.act {
			if s.rate > 0 {
				s.rem -= s.rate * float64(dt) / 8e12
			}
		}
	}
	l.last = now
}

// rearm sets the streams' rates and the timer for the next chunk to leave.
func (l *wlink) rearm() {
	c := l.m.c.net.pol
	capa := l.capacity()
	for i, s := range l.act {
		switch {
		case capa == 0:
			s.rate = 0
		case c == FS:
			s.rate = capa / float64(len(l.act))
		case i == 0:
			s.rate = capa
		default:
			s.rate = 0
		}
	}
	next := netsim.Never
	now := l.m.c.sim.Now()
	for _, s := range l.act {
		if s.rate <= 0 {
			continue
		}
		t := now
		if s.rem > 0 {
			// A chunk that would leave after the clock's end never
			// leaves (as in fluid's projectFinish).
			if dt := math.Ceil(8e12 * s.rem / s.rate); dt < float64(netsim.Never-now) {
				t += netsim.Time(dt)
			} else {
				t = netsim.Never
			}
		}
		s.finish = t
		next = min(next, t)
	}
	if next == netsim.Never {
		l.timer.Stop()
		return
	}
	l.timer.Set(next)
}

// remove takes s off the link's sending streams.
func (l *wlink) remove(s *stream) {
	if k := slices.Index(l.act, s); k >= 0 {
		l.act = slices.Delete(l.act, k, k+1)
	}
	s.rate = 0
}

// HandleEvent: the chunks whose last byte leaves now are sent; their
// streams go on with their next chunks.
func (l *wlink) HandleEvent(netsim.Event) {
	l.advance()
	now := l.m.c.sim.Now()
	var done []*stream
	for _, s := range l.act {
		if s.rate > 0 && s.finish <= now {
			done = append(done, s)
		}
	}
	for _, s := range done {
		l.remove(s)
		l.m.left += l.m.c.ch.Bytes(s.cur)
	}
	for _, s := range done {
		l.m.c.chunkLeft(s)
	}
	l.advance()
	l.rearm()
}

// check verifies the books: every byte started has left, was cancelled, or
// belongs to a transfer still under way.
func (m *mesh) check() error {
	var under netsim.Bytes
	for _, row := range m.links {
		for _, l := range row {
			if l == nil {
				continue
			}
			for _, s := range l.act {
				under += m.c.ch.Bytes(s.cur)
			}
		}
	}
	if m.started != m.left+m.cancelled+under {
		return fmt.Errorf("crew mesh: %d bytes started, %d left, %d cancelled, %d under way", m.started, m.left, m.cancelled, under)
	}
	return nil
}
