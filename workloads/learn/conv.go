package learn

// convGeom is the geometry of a 2-D convolution of stride 1 with a square
// kernel and zero padding, over one sample in CHW layout (channel planes
// of h x w, row-major): output oh x ow = (h + 2 pad - k + 1) x (w + 2 pad
// - k + 1) per output channel.
//
// It is computed as im2col and one matrix product (Chellapilla, Puri and
// Simard 2006, "High performance convolutional neural networks for
// document processing"; the layout of Caffe's im2col_cpu and col2im_cpu,
// BVLC/caffe src/caffe/util/im2col.cpp lines 11-43 and 69-100 at
// 07da62c): the columns matrix has a row per (input channel, ky, kx), in
// that order, and a column per output position, so the output of cout
// filters is W (cout x cin k k, PyTorch's weight layout
// [cout][cin][kh][kw] flattened) times the columns.
type convGeom struct {
	cin, h, w int
	k, pad    int
	oh, ow    int
}

// newConvGeom is the geometry of a k x k convolution with padding pad over
// cin planes of h x w.
func newConvGeom(cin, h, w, k, pad int) convGeom {
	return convGeom{cin: cin, h: h, w: w, k: k, pad: pad, oh: h + 2*pad - k + 1, ow: w + 2*pad - k + 1}
}

// rows is the columns matrix's rows, cin k k.
func (g convGeom) rows() int { return g.cin * g.k * g.k }

// positions is the columns matrix's columns, oh ow.
func (g convGeom) positions() int { return g.oh * g.ow }

// span returns the output columns ox in [lo, hi) whose input column
// ox + kx - pad falls inside the image.
func (g convGeom) span(kx int) (lo, hi int) {
	lo = min(max(0, g.pad-kx), g.ow)
	hi = max(min(g.ow, g.w+g.pad-kx), lo)
	return lo, hi
}

// im2col writes the columns matrix of the sample x (cin x h x w) into
// cols (rows() x positions()).
func (g convGeom) im2col(x, cols []float64) {
	p := g.positions()
	r := 0
	for c := range g.cin {
		plane := x[c*g.h*g.w : (c+1)*g.h*g.w]
		for ky := range g.k {
			for kx := range g.k {
				row := cols[r*p : (r+1)*p]
				r++
				lo, hi := g.span(kx)
				for oy := range g.oh {
					dst := row[oy*g.ow : (oy+1)*g.ow]
					iy := oy + ky - g.pad
					if iy < 0 || iy >= g.h {
						clear(dst)
						continue
					}
					src := plane[iy*g.w : (iy+1)*g.w]
					clear(dst[:lo])
					copy(dst[lo:hi], src[lo+kx-g.pad:hi+kx-g.pad])
					clear(dst[hi:])
				}
			}
		}
	}
}

// col2im adds the columns matrix cols back into the sample dx (cin x h x
// w): the adjoint of im2col, so dL/dx from dL/dcols.
func (g convGeom) col2im(cols, dx []float64) {
	p := g.positions()
	r := 0
	for c := range g.cin {
		plane := dx[c*g.h*g.w : (c+1)*g.h*g.w]
		for ky := range g.k {
			for kx := range g.k {
				row := cols[r*p : (r+1)*p]
				r++
				lo, hi := g.span(kx)
				for oy := range g.oh {
					iy := oy + ky - g.pad
					if iy < 0 || iy >= g.h {
						continue
					}
					dst := plane[iy*g.w+lo+kx-g.pad : iy*g.w+hi+kx-g.pad]
					for i, v := range row[oy*g.ow+lo : oy*g.ow+hi] {
						dst[i] += v
					}
				}
			}
		}
	}
}

// pool2 is 2 x 2 max pooling of stride 2 over c planes of h x w in z
// (floor: an odd last row or column is dropped, PyTorch's default): it
// writes the maxima to out (c x h/2 x w/2) and the index into z of each
// to arg (the first of equal maxima).
func pool2(c, h, w int, z, out []float64, arg []int32) {
	ph, pw := h/2, w/2
	o := 0
	for ch := range c {
		base := ch * h * w
		for py := range ph {
			for px := range pw {
				i := base + 2*py*w + 2*px
				best := i
				for _, j := range [3]int{i + 1, i + w, i + w + 1} {
					if z[j] > z[best] {
						best = j
					}
				}
				out[o], arg[o] = z[best], int32(best)
				o++
			}
		}
	}
}

// growInt32 returns (*buf)[:n], reallocating only when the capacity is
// short.
func growInt32(buf *[]int32, n int) []int32 {
	if cap(*buf) < n {
		*buf = make([]int32, n)
	}
	*buf = (*buf)[:n]
	return *buf
}
