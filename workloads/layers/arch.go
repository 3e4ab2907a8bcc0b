package layers

// row is one row of a built-in table before it is timed: its parameter
// count and the multiply-accumulates of its forward pass for one sample
// (an image, or a sequence for BERT).
type row struct {
	name   string
	params int64
	macs   float64
}

// add accumulates another operator into the row.
func (r *row) add(params int64, macs float64) {
	r.params += params
	r.macs += macs
}

// conv is a k x k convolution from cin to cout channels producing an
// h x w output: k*k*cin*cout weights (plus cout biases) and that many
// multiply-accumulates per output pixel (torch.nn.Conv2d, groups = 1).
func conv(k, cin, cout, h, w int, bias bool) (int64, float64) {
	p := int64(k * k * cin * cout)
	macs := float64(p) * float64(h*w)
	if bias {
		p += int64(cout)
	}
	return p, macs
}

// bn is a batch norm over c channels: a scale and a shift per channel
// (torch.nn.BatchNorm2d, affine). Its arithmetic is not counted: the
// tables time layers by their multiply-accumulates, as the published
// per-model FLOP counts do.
func bn(c int) (int64, float64) { return int64(2 * c), 0 }

// linear is a fully connected layer from in to out features, applied to
// tokens positions (1 for an image classifier's head).
func linear(in, out, tokens int) (int64, float64) {
	return int64(in*out + out), float64(in) * float64(out) * float64(tokens)
}

// layerNorm is a layer norm over h features: a scale and a shift each.
func layerNorm(h int) (int64, float64) { return int64(2 * h), 0 }
