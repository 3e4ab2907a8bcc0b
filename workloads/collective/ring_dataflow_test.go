package collective

import (
	"fmt"
	"math/bits"
	"testing"

	"syncsim/netsim"
)

// dataflowBulk carries data as a test sees it: every host holds, for every
// chunk, the set of hosts whose contributions it has summed (a bit mask).
// A message is identified by its size alone (the test gives every chunk a
// distinct size), and its payload is the sender's set for that chunk when
// the message was sent. The receiver applies the semantics of a ring
// all-reduce, written here without calling the code under test: its first
// n-1 messages are reduce-scatter partials, which it adds to its own (two
// partials that share a contributor would double-count it), and its last
// n-1 are all-gather copies, which must be fully reduced and replace its
// own.
type dataflowBulk struct {
	t      *testing.T
	sim    *netsim.Sim
	n      int
	index  map[netsim.NodeID]int
	chunk  map[netsim.Bytes]int // size -> chunk
	delay  []netsim.Time        // per sender, per message
	have   [][]uint64           // [host][chunk] contributors
	recv   []int                // messages received per host
	afterR []func(host int)     // called after a host's (n-1)th receipt
}

func (d *dataflowBulk) full() uint64 { return 1<<d.n - 1 }

func (d *dataflowBulk) Send(src, dst netsim.NodeID, size netsim.Bytes, _ netsim.BulkOpts, done func()) {
	s, r := d.index[src], d.index[dst]
	c, ok := d.chunk[size]
	if !ok {
		d.t.Fatalf("host %d sent %d bytes, not the size of any chunk", s, size)
	}
	payload := d.have[s][c]
	d.sim.AfterFunc(d.delay[s], func() {
		m := d.recv[r]
		d.recv[r]++
		if m < d.n-1 {
			if payload&d.have[r][c] != 0 {
				d.t.Errorf("reduce-scatter message %d to host %d: chunk %d from host %d carries contributors %b, host %d already holds %b (double count)",
					m, r, c, s, payload, r, d.have[r][c])
			}
			d.have[r][c] |= payload
			if m == d.n-2 {
				for _, f := range d.afterR {
					f(r)
				}
			}
		} else {
			if payload != d.full() {
				d.t.Errorf("all-gather message %d to host %d: chunk %d from host %d holds contributors %b, not all %d",
					m, r, c, s, payload, d.n)
			}
			d.have[r][c] = payload
		}
		done()
	})
}

// TestRingDataFlow follows the data of ring all-reduce with contributor
// sets: after its reduce-scatter host i holds chunk (i+1) mod n with all n
// contributions, nothing is counted twice, every all-gather message
// carries a fully reduced chunk, and at the end every host holds every
// chunk fully reduced. Chunk c is given 10+c bytes (weights 10+c summing
// to the buffer), so the test reads which chunk a message carries from its
// size; hosts run at different speeds, so fast parts of the ring run
// ahead as the dependency rule allows.
func TestRingDataFlow(t *testing.T) {
	for _, n := range []int{2, 3, 4, 5, 7} {
		for _, speeds := range [][]netsim.Time{nil, {3, 1, 7, 2, 5, 11, 1}} {
			t.Run(fmt.Sprintf("n=%d/heterogeneous=%v", n, speeds != nil), func(t *testing.T) {
				sim := netsim.New(1)
				hosts := make([]netsim.NodeID, n)
				weights := make([]float64, n)
				var size netsim.Bytes
				d := &dataflowBulk{t: t, sim: sim, n: n, index: map[netsim.NodeID]int{}, chunk: map[netsim.Bytes]int{},
					delay: make([]netsim.Time, n), have: make([][]uint64, n), recv: make([]int, n)}
				for i := range hosts {
					hosts[i] = netsim.NodeID(100 + 7*i)
					d.index[hosts[i]] = i
					weights[i] = float64(10 + i)
					size += netsim.Bytes(10 + i)
					d.chunk[netsim.Bytes(10+i)] = i
					d.have[i] = make([]uint64, n)
					for c := range d.have[i] {
						d.have[i][c] = 1 << i
					}
					d.delay[i] = netsim.Microsecond
					if speeds != nil {
						d.delay[i] = speeds[i] * netsim.Microsecond
					}
				}
				reduced := make([]bool, n)
				d.afterR = append(d.afterR, func(h int) {
					c := (h + 1) % n
					if d.have[h][c] != d.full() {
						t.Errorf("after reduce-scatter host %d holds chunk %d with contributors %b, want all %d", h, c, d.have[h][c], n)
					}
					reduced[h] = true
				})
				finished := 0
				if err := WeightedRingAllReduce(sim, d, hosts, size, weights, netsim.BulkOpts{}, func() { finished++ }); err != nil {
					t.Fatal(err)
				}
				sim.Run(netsim.Never)
				if finished != 1 {
					t.Fatalf("done called %d times", finished)
				}
				for h := range hosts {
					if d.recv[h] != 2*(n-1) {
						t.Errorf("host %d received %d messages, want %d", h, d.recv[h], 2*(n-1))
					}
					if !reduced[h] {
						t.Errorf("host %d never finished its reduce-scatter", h)
					}
					for c := range d.have[h] {
						if d.have[h][c] != d.full() {
							t.Errorf("host %d ends with chunk %d from %d of %d contributors (%b)", h, c, bits.OnesCount64(d.have[h][c]), n, d.have[h][c])
						}
					}
				}
			})
		}
	}
}
