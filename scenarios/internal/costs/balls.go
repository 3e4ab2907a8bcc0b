package costs

import "math/rand/v2"

// maxLoadDraws is how many placements MaxLoad averages over.
const maxLoadDraws = 256

// MaxLoad is the expected largest number of balls in one of bins when
// balls are thrown uniformly at random: the PSs on the busiest leaf, when
// each job's PS lands on a uniform host of a leaf-spine. It averages
// maxLoadDraws placements drawn from a fixed stream, so the estimate is
// the same for every call (the run's own placement is seeded by the run).
func MaxLoad(balls, bins int) float64 {
	if balls <= 0 || bins <= 0 {
		return 0
	}
	if bins == 1 {
		return float64(balls)
	}
	r := rand.New(rand.NewPCG(1, 2))
	count := make([]int, bins)
	total := 0
	for range maxLoadDraws {
		clear(count)
		most := 0
		for range balls {
			b := r.IntN(bins)
			count[b]++
			most = max(most, count[b])
		}
		total += most
	}
	return float64(total) / maxLoadDraws
}
