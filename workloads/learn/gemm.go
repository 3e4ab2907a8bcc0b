package learn

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// gemmTileRows and gemmTileCols bound the block of C that one call of
// gonum's Dgemm computes. Gonum goes parallel, one goroutine per 64 x 64
// block of C, once C spans at least 4 such blocks
// (gonum.org/v1/gonum/blas/gonum/dgemm.go, dgemmParallel; blockSize = 64
// and minParBlock = 4 in gonum.go); a tile of 64 x 192 spans 3 and stays
// on the serial kernels. So every product here runs on the calling
// goroutine, allocates nothing, and costs one core: a sweep's runs are
// what parallelise (--parallel). Tiling does not change a result: each
// element of C is accumulated over k in the same order either way.
const (
	gemmTileRows = 64
	gemmTileCols = 192
)

// gemm computes C = op(A) op(B) + beta C through gonum's BLAS
// (blas64.Implementation().Dgemm), with op(A) m x k, op(B) k x n and C
// m x n, all row-major with leading dimensions lda, ldb and ldc; tA and
// tB say whether A and B are stored transposed. It tiles C so that each
// call stays serial (see gemmTileRows).
func gemm(tA, tB bool, m, n, k int, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	ta, tb := blas.NoTrans, blas.NoTrans
	if tA {
		ta = blas.Trans
	}
	if tB {
		tb = blas.Trans
	}
	impl := blas64.Implementation()
	for i := 0; i < m; i += gemmTileRows {
		mi := min(gemmTileRows, m-i)
		var as []float64
		if tA {
			as = a[i:] // columns i.. of the stored k x m
		} else {
			as = a[i*lda:] // rows i.. of A
		}
		for j := 0; j < n; j += gemmTileCols {
			nj := min(gemmTileCols, n-j)
			var bs []float64
			if tB {
				bs = b[j*ldb:] // rows j.. of the stored n x k
			} else {
				bs = b[j:] // columns j.. of B
			}
			impl.Dgemm(ta, tb, mi, nj, k, 1, as, lda, bs, ldb, beta, c[i*ldc+j:], ldc)
		}
	}
}
