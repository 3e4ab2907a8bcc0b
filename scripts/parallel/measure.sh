#!/usr/bin/env bash
# Measures the parallel engine (docs/performance.md, "The parallel engine"):
#   1. wall clock of --threads 2 against --threads 1, round by round, on
#      permutation at 128 hosts (2 ms) and 512 hosts (32 leaves, 0.5 ms),
#      and on the default background run (128 hosts, Hadoop at load 0.5);
#   2. CPU of --threads 1 against a build of the sequential engine (OLD),
#      in the same rounds;
#   3. the engine profile (--engine-profile) of each run at 2 threads:
#      partitions, windows, balance and the predicted speedups.
# Each round runs NEW --threads 1, NEW --threads 2 and OLD once, in turn,
# under /usr/bin/time, so that a shared machine's drift falls on all three
# alike; ratios are taken round by round and summarised as median
# [min-max].
# Usage: scripts/parallel/measure.sh NEW OLD [ROUNDS]
#   NEW: syncsim built from this tree; OLD: syncsim built from the commit
#   before the parallel engine (or any build to compare --threads 1 with).
# Records `uptime` before each measurement: the figures are only as quiet
# as the machine was.
set -euo pipefail
NEW=${1:?usage: measure.sh NEW OLD [ROUNDS]}
OLD=${2:?usage: measure.sh NEW OLD [ROUNDS]}
ROUNDS=${3:-5}
for b in "$NEW" "$OLD"; do
	command -v "$b" >/dev/null || { echo "measure.sh: no program $b" >&2; exit 1; }
done
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || { echo "measure.sh: ROUNDS must be a positive integer, not $ROUNDS" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# timed FILE PROGRAM ARGS...: runs one command, appends "user+sys wall" to FILE
timed() {
	local file=$1
	shift
	/usr/bin/time -o "$out/t" -f '%U %S %e' "$@" -q >/dev/null 2>"$out/err" ||
		{ echo "measure.sh: $* failed: $(tail -1 "$out/err")" >&2; exit 1; }
	awk '{print $1 + $2, $3}' "$out/t" >>"$file"
}

# summary LABEL A B COL: median [min-max] of A's column COL over B's, row by row
summary() {
	paste -d ' ' "$2" "$3" | awk -v col="$4" '{ print $(col) / $(col + 2) }' | sort -g |
		awk -v label="$1" '
			{ r[NR] = $1 }
			END {
				med = (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
				printf "%s: %.2f [%.2f-%.2f] (%d rounds)\n", label, med, r[1], r[NR], NR
			}'
}

run() { # name, args...
	local name=$1
	shift
	echo "== $name: syncsim run $*"
	uptime
	for _ in $(seq "$ROUNDS"); do
		timed "$out/$name.t1" "$NEW" run "$@" --threads 1
		timed "$out/$name.t2" "$NEW" run "$@" --threads 2
		timed "$out/$name.old" "$OLD" run "$@"
	done
	summary "--threads 2 wall speed-up (--threads 1 wall / --threads 2 wall)" "$out/$name.t1" "$out/$name.t2" 2
	summary "--threads 2 CPU / --threads 1 CPU" "$out/$name.t2" "$out/$name.t1" 1
	summary "--threads 1 CPU / sequential engine CPU" "$out/$name.t1" "$out/$name.old" 1
	echo "-- $name: engine profile at 2 threads"
	"$NEW" run "$@" --threads 2 -q --engine-profile 2>&1 >/dev/null
}
run perm128 permutation --set duration_ms=2
run perm512 permutation --set leaves=32 --set duration_ms=0.5
run background background
