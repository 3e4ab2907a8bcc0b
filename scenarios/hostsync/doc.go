// Package hostsync is the scenario family of host-based synchronisation
// schemes for heterogeneous workers: the selective-reduce paper's
// motivating example (sr-example, Fig. 3) and its cluster study
// (sr-cluster, Figs. 5-14: all reduce, partial reduce and selective reduce
// at analytic, flow or packet fidelity, on the paper's star or on racks and
// leaf-spine fabrics where groups share links with each other and with
// background traffic), DS-Sync against its baselines on racks with
// inter-rack and end-host contention (dssync, Tables III-V of its paper),
// and the CREW paper's cross-cloud partial reduce (crew-single, Fig. 4;
// crew-training, Figs. 5-11). The controllers live in workloads/syncctl,
// workloads/dssync and workloads/crew, the
// collectives in workloads/collective. Register adds them to a registry.
package hostsync
