package layers

import "fmt"

// resnetRows is torchvision's ResNet-50 (v1.5: the stride on the 3x3
// convolution; torchvision/models/resnet.py, Bottleneck and ResNet) for
// 224x224 inputs, one row per bottleneck block plus the stem and the
// classifier. widthMult is 1 for resnet50 and 2 for wide_resnet50_2
// (width_per_group = 128: the bottleneck's inner width doubles, its output
// stays 4 x planes). Each block row holds its three convolutions, their
// batch norms and, in a stage's first block, the downsampling 1x1
// convolution and its batch norm.
func resnetRows(widthMult int) []row {
	var rows []row
	stem := row{name: "conv1"}
	stem.add(conv(7, 3, 64, 112, 112, false))
	stem.add(bn(64))
	rows = append(rows, stem)
	in, hw := 64, 56 // after the 3x3 max pool
	for s, blocks := range []int{3, 4, 6, 3} {
		planes := 64 << s
		width, out := planes*widthMult, planes*4
		for b := range blocks {
			stride := 1
			if b == 0 && s > 0 {
				stride = 2
			}
			ohw := hw / stride
			r := row{name: fmt.Sprintf("layer%d.%d", s+1, b)}
			r.add(conv(1, in, width, hw, hw, false))
			r.add(bn(width))
			r.add(conv(3, width, width, ohw, ohw, false))
			r.add(bn(width))
			r.add(conv(1, width, out, ohw, ohw, false))
			r.add(bn(out))
			if b == 0 {
				r.add(conv(1, in, out, ohw, ohw, false))
				r.add(bn(out))
			}
			rows = append(rows, r)
			in, hw = out, ohw
		}
	}
	fc := row{name: "fc"}
	fc.add(linear(2048, 1000, 1))
	return append(rows, fc)
}
