package mixed

import (
	"fmt"

	"syncsim/experiments"
	"syncsim/netsim"
)

// bulkBooks is a job's netsim.Bulk: it forwards every transfer to the
// job's bulk engine and counts what was sent and delivered, so the job can
// check that every transfer was delivered exactly once.
//
// On a partitioned network (net set) a transfer is sent on its source's
// partition and delivered on its destination's, so the books are kept
// per partition (parts) and summed by totals between windows.
type bulkBooks struct {
	bulk netsim.Bulk
	what string // the transfers' kind, for the double-completion panic

	net   *netsim.Network // set on a partitioned network
	parts []bookPart      // per partition (one without partitions)
}

// bookPart is one partition's transfer books, a cache line of its own.
type bookPart struct {
	sends, dones      int64
	sentB, deliveredB netsim.Bytes
	_                 [32]byte
}

// newBulkBooks returns the books of transfers of kind what through bulk
// on net.
func newBulkBooks(bulk netsim.Bulk, what string, net *netsim.Network) bulkBooks {
	b := bulkBooks{bulk: bulk, what: what, parts: make([]bookPart, 1)}
	if parts := net.Sim.Partitions(); parts != nil {
		b.net, b.parts = net, make([]bookPart, len(parts))
	}
	return b
}

// part is the books of host id's partition.
func (b *bulkBooks) part(id netsim.NodeID) *bookPart {
	if b.net == nil {
		return &b.parts[0]
	}
	return &b.parts[b.net.Node(id).Base().Sim().Partition()]
}

// Send implements netsim.Bulk by counting and forwarding.
func (b *bulkBooks) Send(src, dst netsim.NodeID, size netsim.Bytes, opts netsim.BulkOpts, done func()) {
	s := b.part(src)
	s.sends++
	s.sentB += size
	fired := false
	b.bulk.Send(src, dst, size, opts, func() {
		if fired {
			panic("mixed-fabric: bulk engine called done twice for one " + b.what + " transfer")
		}
		fired = true
		d := b.part(dst)
		d.dones++
		d.deliveredB += size
		done()
	})
}

// totals sums the books over partitions (outside a window).
func (b *bulkBooks) totals() (t bookPart) {
	for _, p := range b.parts {
		t.sends += p.sends
		t.dones += p.dones
		t.sentB += p.sentB
		t.deliveredB += p.deliveredB
	}
	return t
}

// checkBooks reports transfers sent but not delivered.
func (b *bulkBooks) checkBooks() error {
	if t := b.totals(); t.sends != t.dones || t.sentB != t.deliveredB {
		return fmt.Errorf("%d transfers (%d B) sent, %d (%d B) delivered", t.sends, t.sentB, t.dones, t.deliveredB)
	}
	return nil
}

// transferBook is the --check book of the jobs' transfers: every transfer
// and byte sent was delivered.
func transferBook(name string, jobs []*bulkBooks) experiments.Book {
	var sends, dones, sent, delivered float64
	for _, b := range jobs {
		t := b.totals()
		sends += float64(t.sends)
		dones += float64(t.dones)
		sent += float64(t.sentB)
		delivered += float64(t.deliveredB)
	}
	return experiments.Book{Name: name, Rule: "sent = delivered (transfers and bytes)", Terms: []experiments.Term{
		{Name: "sent", Value: sends}, {Name: "delivered", Value: dones}, {Name: "sent_bytes", Value: sent}, {Name: "delivered_bytes", Value: delivered},
	}}
}
