package inagg

import "syncsim/netsim"

// atpIndexTable is the aggregator index of each of a job's n = threads x
// ATPThreadWindow slots, as the public ATP client builds its table: slot
// i gets crc32(appID, i) mod M, salted until the index is one the job has
// not taken yet (in-ATP/ATP client/p4ml_manager.cc:611-618 calling
// HashNew_crc, common/HashTable.cc:57-76). Every worker of the job builds
// the same table, so they all send a sequence to the same aggregator;
// other jobs' tables are independent and may collide with it (the PS
// fallback resolves that). Here a 64-bit hash stands in for the CRC. The
// client needs M >= n (its salting loop would not end otherwise); when
// M < n, slots past the first M repeat the first M, so any M consecutive
// slots still differ.
func atpIndexTable(job int32, n, m int) []int32 {
	tab := make([]int32, n)
	taken := make(map[int32]bool, min(n, m))
	for i := range tab {
		if i >= m {
			tab[i] = tab[i-m]
			continue
		}
		for salt := uint64(0); ; salt++ {
			x := int32(netsim.Hash64(uint64(job)<<24^salt<<48^0x41_5450, uint64(i)) % uint64(m))
			if !taken[x] {
				taken[x] = true
				tab[i] = x
				break
			}
		}
	}
	return tab
}

// atpIndex is the aggregator index of label seq: thread t's k-th packet
// of an iteration (see atpCtl) uses slot t x W + (k mod W), W =
// ATPThreadWindow, as the client's thread uses hash_map[agtr_start_pos +
// (seq - 1) % max_agtr_size_per_thread] with agtr_start_pos = W x thread
// (client/p4ml_manager.cc:387,637). A thread's window never exceeds W, so
// the packets it has outstanding use different aggregators.
func (j *Job) atpIndex(seq int64) int64 {
	off := seq % j.packets
	t, k := off%j.atpThreads, off/j.atpThreads
	return int64(j.atpIdx[t*j.atpWindow+k%j.atpWindow])
}
