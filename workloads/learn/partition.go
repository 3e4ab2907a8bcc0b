package learn

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Partition names how the training set is divided among workers.
const (
	PartitionIID       = "iid"
	PartitionDirichlet = "dirichlet"
)

// PartitionNames lists the partitions.
var PartitionNames = []string{PartitionIID, PartitionDirichlet}

// Shards divides the training rows idx (labels from d) among n workers.
//
// iid: a random permutation cut into n contiguous shards of equal size
// (the first N mod n one row longer).
//
// dirichlet: label skew as in Hsu, Qi and Brown (2019, "Measuring the
// effects of non-identical data distribution"): for every class c,
// proportions q ~ Dir(alpha, ..., alpha) over the n workers, and the
// class's rows (shuffled) are cut in those proportions. Small alpha gives
// each worker few classes; large alpha approaches iid. A worker left with
// no row gets one row taken from the largest shard, so every worker can
// draw batches.
func Shards(d *Dataset, idx []int, n int, how string, alpha float64, rng *rand.Rand) ([][]int, error) {
	if n < 1 {
		return nil, fmt.Errorf("partition: %d workers", n)
	}
	if len(idx) < n {
		return nil, fmt.Errorf("partition: %d training rows cannot give each of %d workers one", len(idx), n)
	}
	out := make([][]int, n)
	switch how {
	case PartitionIID:
		perm := slices.Clone(idx)
		rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		base, extra := len(perm)/n, len(perm)%n
		o := 0
		for w := range n {
			k := base
			if w < extra {
				k++
			}
			out[w] = perm[o : o+k]
			o += k
		}
	case PartitionDirichlet:
		if !(alpha > 0) {
			return nil, fmt.Errorf("partition: dirichlet_alpha %g, want > 0", alpha)
		}
		byClass := make([][]int, d.Classes)
		for _, i := range idx {
			byClass[d.Labels[i]] = append(byClass[d.Labels[i]], i)
		}
		// Dir(alpha) as normalised Gamma(alpha, 1) draws (gonum's
		// distmv.Dirichlet does the same; distuv avoids distmv's
		// dependency on golang.org/x/tools).
		gamma := distuv.Gamma{Alpha: alpha, Beta: 1, Src: rng}
		q := make([]float64, n)
		for _, rows := range byClass {
			rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
			var sum float64
			for w := range q {
				q[w] = gamma.Rand()
				sum += q[w]
			}
			for w := range q {
				if sum > 0 {
					q[w] /= sum
				} else {
					q[w] = 1 / float64(n)
				}
			}
			// Cut at the rounded cumulative proportions.
			var cum float64
			prev := 0
			for w := range n {
				cum += q[w]
				end := int(cum*float64(len(rows)) + 0.5)
				if w == n-1 {
					end = len(rows)
				}
				end = min(max(end, prev), len(rows))
				out[w] = append(out[w], rows[prev:end]...)
				prev = end
			}
		}
		for w := range n {
			if len(out[w]) > 0 {
				continue
			}
			big := 0
			for v := range n {
				if len(out[v]) > len(out[big]) {
					big = v
				}
			}
			last := len(out[big]) - 1
			out[w] = append(out[w], out[big][last])
			out[big] = out[big][:last]
		}
	default:
		return nil, fmt.Errorf("partition %q (allowed: iid, dirichlet)", how)
	}
	return out, nil
}
