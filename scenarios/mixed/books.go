package mixed

import (
	"fmt"

	"syncsim/experiments"
	"syncsim/netsim"
)

// bulkBooks is a job's netsim.Bulk: it forwards every transfer to the
// job's bulk engine and counts what was sent and delivered, so the job can
// check that every transfer was delivered exactly once.
type bulkBooks struct {
	bulk netsim.Bulk
	what string // the transfers' kind, for the double-completion panic

	sends, dones      int64
	sentB, deliveredB netsim.Bytes
}

// Send implements netsim.Bulk by counting and forwarding.
func (b *bulkBooks) Send(src, dst netsim.NodeID, size netsim.Bytes, opts netsim.BulkOpts, done func()) {
	b.sends++
	b.sentB += size
	fired := false
	b.bulk.Send(src, dst, size, opts, func() {
		if fired {
			panic("mixed-fabric: bulk engine called done twice for one " + b.what + " transfer")
		}
		fired = true
		b.dones++
		b.deliveredB += size
		done()
	})
}

// checkBooks reports transfers sent but not delivered.
func (b *bulkBooks) checkBooks() error {
	if b.sends != b.dones || b.sentB != b.deliveredB {
		return fmt.Errorf("%d transfers (%d B) sent, %d (%d B) delivered", b.sends, b.sentB, b.dones, b.deliveredB)
	}
	return nil
}

// transferBook is the --check book of the jobs' transfers: every transfer
// and byte sent was delivered.
func transferBook(name string, jobs []*bulkBooks) experiments.Book {
	var sends, dones, sent, delivered float64
	for _, b := range jobs {
		sends += float64(b.sends)
		dones += float64(b.dones)
		sent += float64(b.sentB)
		delivered += float64(b.deliveredB)
	}
	return experiments.Book{Name: name, Rule: "sent = delivered (transfers and bytes)", Terms: []experiments.Term{
		{Name: "sent", Value: sends}, {Name: "delivered", Value: dones}, {Name: "sent_bytes", Value: sent}, {Name: "delivered_bytes", Value: delivered},
	}}
}
