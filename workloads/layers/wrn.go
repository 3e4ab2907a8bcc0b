package layers

import "fmt"

// wrnRows is WRN-depth-k for 32x32 CIFAR inputs (Zagoruyko and
// Komodakis, BMVC 2016, Table 1, with the pre-activation basic block
// "B(3,3)" of their reference implementation): a 3x3 stem convolution to
// 16 channels, three groups of (depth-4)/6 blocks of widths 16k, 32k and
// 64k at 32x32, 16x16 and 8x8, a final batch norm and a linear classifier
// over classes. One row per block (its two batch norms, its two 3x3
// convolutions, and in a group's first block the 1x1 shortcut
// convolution); the stem and the head (final batch norm and classifier)
// are rows of their own.
func wrnRows(depth, k, classes int) []row {
	n := (depth - 4) / 6
	var rows []row
	stem := row{name: "conv1"}
	stem.add(conv(3, 3, 16, 32, 32, false))
	rows = append(rows, stem)
	in, hw := 16, 32
	for g, w := range []int{16 * k, 32 * k, 64 * k} {
		for b := range n {
			ohw := hw
			if b == 0 && g > 0 {
				ohw = hw / 2
			}
			r := row{name: fmt.Sprintf("block%d.%d", g+1, b)}
			r.add(bn(in))
			r.add(conv(3, in, w, ohw, ohw, false))
			r.add(bn(w))
			r.add(conv(3, w, w, ohw, ohw, false))
			if in != w {
				r.add(conv(1, in, w, ohw, ohw, false))
			}
			rows = append(rows, r)
			in, hw = w, ohw
		}
	}
	head := row{name: "head"}
	head.add(bn(in))
	head.add(linear(in, classes, 1))
	return append(rows, head)
}
