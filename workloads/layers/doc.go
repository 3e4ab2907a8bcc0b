// Package layers models one worker's training iteration layer by layer:
// a model is a list of layers, each with its gradient bytes and its
// forward and backward compute time; backprop produces the gradients from
// the last layer to the first; gradients are fused into buckets as
// PyTorch DistributedDataParallel fuses them; each bucket's
// synchronisation can start as soon as backprop has produced it, and the
// next iteration's forward pass of a layer waits for the bucket that holds
// it (SPEC.md section 1, "Workers").
//
// The files, one concept each:
//
//   - model.go: Layer and Model, totals and rescaling to a worker's speed.
//   - arch.go: parameter and multiply-accumulate counts of convolutions,
//     batch norms and linear layers, from which the built-in tables are
//     computed.
//   - resnet.go, vgg.go, wrn.go, bert.go: the built-in tables (ResNet-50,
//     Wide ResNet-50-2, VGG-19, WRN-28-10, BERT-base and BERT-large),
//     computed from each architecture's definition.
//   - builtin.go: the registry of built-in tables and the measured
//     throughput that turns their compute into milliseconds.
//   - file.go: a user's own table (model_file=PATH, CSV).
//   - astra.go: a user's ASTRA-sim 1.0 text workload (workload_file=PATH,
//     DATA parallelism), read into the same table.
//   - bucket.go: DDP's gradient buckets.
//   - overlap.go: the schedule of one or more iterations given each
//     bucket's synchronisation time (a pure function: no network), so
//     tests and schemes can check the critical path; Record draws it as a
//     timeline (internal/timeline).
//
// Times are netsim.Time, sizes netsim.Bytes.
package layers
