package layers

import "fmt"

// vgg19Rows is torchvision's VGG-19 without batch norm (configuration "E"
// of torchvision/models/vgg.py; Simonyan and Zisserman, ICLR 2015, Table
// 1) for 224x224 inputs: one row per layer, sixteen 3x3 convolutions with
// biases and the three fully connected layers of the classifier.
func vgg19Rows() []row {
	return vggRows([][]int{{64, 64}, {128, 128}, {256, 256, 256, 256}, {512, 512, 512, 512}, {512, 512, 512, 512}})
}

// vgg11Rows is torchvision's VGG-11 without batch norm (configuration
// "A", the same sources): eight 3x3 convolutions and the classifier.
func vgg11Rows() []row {
	return vggRows([][]int{{64}, {128}, {256, 256}, {512, 512}, {512, 512}})
}

// vggRows is a VGG network of the given stages (output channels of each
// 3x3 convolution, a max pool after each stage) and torchvision's
// classifier over the 7x7x512 features, one row per layer.
func vggRows(stages [][]int) []row {
	var rows []row
	in, hw := 3, 224
	for _, stage := range stages {
		for _, c := range stage {
			r := row{name: fmt.Sprintf("conv%d", len(rows)+1)}
			r.add(conv(3, in, c, hw, hw, true))
			rows = append(rows, r)
			in = c
		}
		hw /= 2 // the max pool after each stage
	}
	for i, f := range [][2]int{{512 * 7 * 7, 4096}, {4096, 4096}, {4096, 1000}} {
		r := row{name: fmt.Sprintf("fc%d", i+6)}
		r.add(linear(f[0], f[1], 1))
		rows = append(rows, r)
	}
	return rows
}
