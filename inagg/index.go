package inagg

import (
	"fmt"

	"syncsim/netsim"
)

// indexOf is the aggregator of gradient or result p of job s. ATP's
// workers choose the index and carry it in the packet (the agtr field of
// the public client's header, in-ATP/ATP common/packet.h:83, which the
// switch program reads as p4ml_agtr_index, p4src/includes/headers.p4:63-66;
// see atpIndexTable); the asynchronous protocols take asyncIndex.
func (a *Aggregator) indexOf(s *swJob, p *netsim.Packet) int {
	if s.proto != ATP {
		return a.asyncIndex(s, p.Seq)
	}
	i := p.Ext[extAgtr]
	if i < 0 || i >= int64(a.mem.Size()) {
		panic(fmt.Sprintf("inagg: ATP packet of job %d seq %d carries aggregator index %d outside [0, %d)", s.id, p.Seq, i, a.mem.Size()))
	}
	return int(i)
}
