package learn

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// naiveCNNLogits is the CNN's forward pass written as the definition's
// loops, nothing shared with the model's code: a zero-padded
// cross-correlation per output pixel, ReLU, 2 x 2 max pooling, the dense
// layers.
func naiveCNNLogits(m *CNN, theta, img []float64) []float64 {
	conv := func(in [][][]float64, w, b []float64, cout, pad int) [][][]float64 {
		cin, h, wd := len(in), len(in[0]), len(in[0][0])
		k := cnnKernel
		oh, ow := h+2*pad-k+1, wd+2*pad-k+1
		out := make([][][]float64, cout)
		for o := range cout {
			out[o] = make([][]float64, oh)
			for y := range oh {
				out[o][y] = make([]float64, ow)
				for x := range ow {
					s := b[o]
					for c := range cin {
						for ky := range k {
							for kx := range k {
								iy, ix := y+ky-pad, x+kx-pad
								if iy >= 0 && iy < h && ix >= 0 && ix < wd {
									s += w[((o*cin+c)*k+ky)*k+kx] * in[c][iy][ix]
								}
							}
						}
					}
					out[o][y][x] = math.Max(s, 0)
				}
			}
		}
		return out
	}
	pool := func(in [][][]float64) [][][]float64 {
		out := make([][][]float64, len(in))
		for c, plane := range in {
			ph, pw := len(plane)/2, len(plane[0])/2
			out[c] = make([][]float64, ph)
			for y := range ph {
				out[c][y] = make([]float64, pw)
				for x := range pw {
					out[c][y][x] = math.Max(math.Max(plane[2*y][2*x], plane[2*y][2*x+1]), math.Max(plane[2*y+1][2*x], plane[2*y+1][2*x+1]))
				}
			}
		}
		return out
	}
	in := [][][]float64{make([][]float64, m.S)}
	for y := range m.S {
		in[0][y] = img[y*m.S : (y+1)*m.S]
	}
	o := 0
	take := func(n int) []float64 { o += n; return theta[o-n : o] }
	w1, b1 := take(cnnC1*25), take(cnnC1)
	w2, b2 := take(cnnC2*cnnC1*25), take(cnnC2)
	a := pool(conv(pool(conv(in, w1, b1, cnnC1, 2)), w2, b2, cnnC2, 0))
	var feat []float64
	for _, plane := range a {
		for _, row := range plane {
			feat = append(feat, row...)
		}
	}
	dense := func(x []float64, out int, act bool) []float64 {
		w, b := take(len(x)*out), take(out)
		y := make([]float64, out)
		for j := range out {
			s := b[j]
			for i, v := range x {
				s += v * w[i*out+j]
			}
			if act {
				s = math.Max(s, 0)
			}
			y[j] = s
		}
		return y
	}
	return dense(dense(feat, m.H, true), m.C, false)
}

// TestCNNForwardIsTheDefinition: the im2col-and-BLAS forward pass gives
// the loss and predictions of the naive loops, on an odd side (15, whose
// poolings drop a row and a column) and MNIST's 28.
func TestCNNForwardIsTheDefinition(t *testing.T) {
	for _, side := range []int{15, 28} {
		const c, h, b = 5, 7, 3
		mm, err := NewModel(ModelCNN, side*side, c, h)
		if err != nil {
			t.Fatal(err)
		}
		m := mm.(*CNN)
		rng := rand.New(rand.NewPCG(3, 4))
		theta := make([]float64, m.NumParams())
		for i := range theta {
			theta[i] = rng.NormFloat64() * 0.3
		}
		x := mat.NewDense(b, side*side, nil)
		y := make([]int, b)
		var want float64
		wantCorrect := 0
		for i := range b {
			row := x.RawRowView(i)
			for k := range row {
				row[k] = rng.Float64()
			}
			y[i] = rng.IntN(c)
			z := naiveCNNLogits(m, theta, row)
			best, mx, s := 0, math.Inf(-1), 0.0
			for k, v := range z {
				if v > z[best] {
					best = k
				}
				mx = math.Max(mx, v)
			}
			for _, v := range z {
				s += math.Exp(v - mx)
			}
			want += -(z[y[i]] - mx - math.Log(s))
			if best == y[i] {
				wantCorrect++
			}
		}
		loss, correct := m.Eval(theta, x, y)
		if math.Abs(loss-want) > 1e-9*math.Max(1, want) || correct != wantCorrect {
			t.Errorf("side %d: loss %.12g and %d correct, the definition's %.12g and %d", side, loss, correct, want, wantCorrect)
		}
	}
}
