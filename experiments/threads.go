package experiments

// ThreadedHint names the experiments that run on the parallel engine,
// for the message that refuses --threads elsewhere. Keep it in step with
// the experiments that set Experiment.Threads (a test checks it).
const ThreadedHint = "background, incast and permutation"
