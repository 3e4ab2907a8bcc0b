#!/usr/bin/env bash
# How much of the aggregation hides behind backprop when INA jobs compute
# layer by layer (docs/workers.md, "INA jobs, bucket by bucket"): ATP and
# PA-ATP on ina-testbed at its defaults (two jobs of 3 workers, Hadoop at
# load 0.6, run_length=steady: 4.3% of the model, 4 iterations, the first
# left out), 5 seeds per point.
#
#   scripts/ina/overlap.sh [OUTDIR [FIGURE...]]   (default OUTDIR ina-overlap)
#
# comm: the communication-only iteration (compute_ms=0, the paper's jobs)
# of VGG-19 and ResNet-50.
# vgg19, resnet50: a compute time comparable to that communication (30 ms
# for VGG-19, 6 ms for ResNet-50; the medians of comm are 31-34 and
# 4.9-5.7 ms), with overlap=layer (a bucket per layer, the default) and
# overlap=none (the whole compute, then the whole gradient).
# tables: AJCT per point, and overlap=layer's change against overlap=none
# seed by seed, and what overlap hid. About 3 CPU-minutes in all (measured:
# comm 49 s, vgg19 100 s, resnet50 19 s of CPU).
# See scripts/lib/reproduce.sh for SYNCSIM, PARALLEL, RESUME and EXTRA.
source "$(dirname "$0")/../lib/reproduce.sh"
default_out=ina-overlap
figures=(comm vgg19 resnet50 tables)

comm() { sweep comm ina-testbed --vary model=vgg19,resnet50 --vary protocol=atp,pa-atp --trials 5; }
vgg19() { sweep vgg19 ina-testbed --set model=vgg19 --set compute_ms=30 --vary protocol=atp,pa-atp --vary overlap=layer,none --trials 5; }
resnet50() { sweep resnet50 ina-testbed --set model=resnet50 --set compute_ms=6 --vary protocol=atp,pa-atp --vary overlap=layer,none --trials 5; }

tables() {
	table comm "Communication only (compute_ms=0): AJCT (ms)" comm.csv --metric ajct_ms
	local m
	for m in vgg19 resnet50; do
		table "$m" "$m with compute: AJCT (ms), overlap=layer / overlap=none seed by seed" \
			"$m.csv" --metric ajct_ms --of overlap=layer
		hidden "$m" >>"$m.md"
	done
}

# hidden NAME: per protocol, seed by seed, the time overlap hid, none -
# layer, as a share of the communication an iteration waits for without
# overlap (none - compute_ms) and of the backward pass (2/3 of compute_ms
# in the built-in tables), which bounds what can hide; median [min-max]
# over the seeds, as a Markdown table.
hidden() {
	printf '\nWhat overlap hid, seed by seed: none - layer, over the exposed communication (none - compute_ms) and over the backward pass (2/3 compute_ms):\n\n'
	printf '| protocol | hidden ms | of the communication | of the backward | seeds |\n|---|---|---|---|---|\n'
	awk -F, 'function stat(a, n,   i, j, t, med) {
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			med = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
			return sprintf("%.3g [%.3g, %.3g]", med, a[1], a[n])
		}
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		{ k = $col["protocol"] SUBSEP $col["seed"]; v[k, $col["overlap"]] = $col["ajct_ms"]; c = $col["compute_ms"]; p[$col["protocol"]] = 1; s[$col["seed"]] = 1 }
		END {
			for (pr in p) {
				n = 0
				for (sd in s) {
					k = pr SUBSEP sd
					if (!((k, "none") in v && (k, "layer") in v)) continue
					d = v[k, "none"] - v[k, "layer"]
					n++; ms[n] = d; comm[n] = d / (v[k, "none"] - c); bwd[n] = d / (c * 2 / 3)
				}
				printf "| %s | %s | %s | %s | %d |\n", pr, stat(ms, n), stat(comm, n), stat(bwd, n), n
			}
		}' "$1.csv" | sort
}

main "$@"
