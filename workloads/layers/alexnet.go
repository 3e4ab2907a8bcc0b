package layers

import "fmt"

// alexnetRows is torchvision's AlexNet (torchvision/models/alexnet.py,
// after Krizhevsky, "One weird trick for parallelizing convolutional
// neural networks", 2014) for 224x224 inputs, one row per layer: five
// convolutions with biases (11x11 stride 4 to 55x55, 5x5 at 27x27, three
// 3x3 at 13x13, max pools between) and the three fully connected layers
// over the 6x6x256 features.
func alexnetRows() []row {
	var rows []row
	for _, c := range []struct {
		k, in, out, hw int
	}{{11, 3, 64, 55}, {5, 64, 192, 27}, {3, 192, 384, 13}, {3, 384, 256, 13}, {3, 256, 256, 13}} {
		r := row{name: fmt.Sprintf("conv%d", len(rows)+1)}
		r.add(conv(c.k, c.in, c.out, c.hw, c.hw, true))
		rows = append(rows, r)
	}
	for i, f := range [][2]int{{256 * 6 * 6, 4096}, {4096, 4096}, {4096, 1000}} {
		r := row{name: fmt.Sprintf("fc%d", i+6)}
		r.add(linear(f[0], f[1], 1))
		rows = append(rows, r)
	}
	return rows
}
