#!/bin/sh
# Measures the parallel engine (docs/performance.md, "The parallel engine"):
#   1. wall clock of --threads 2 against --threads 1, paired, on permutation
#      at 128 hosts (the default) and 512 hosts (32 leaves), and on the
#      default background run (128 hosts, Hadoop at load 0.5, 10 ms);
#   2. CPU of --threads 1 against a build of the sequential engine (OLD),
#      paired, on the same runs;
#   3. the engine profile (--engine-profile) of each run at 2 threads:
#      partitions, windows, balance and the predicted speedups.
# Usage: scripts/parallel/measure.sh NEW OLD [PAIRS]
#   NEW: syncsim built from this tree; OLD: syncsim built from the commit
#   before the parallel engine (or any build to compare --threads 1 with).
# Records `uptime` before each measurement: the figures are only as quiet
# as the machine was.
set -eu
NEW=$1
OLD=$2
PAIRS=${3:-5}
out=$(mktemp -d)
run() { # name, args...
	name=$1
	shift
	echo "== $name: syncsim run $*"
	uptime
	farm-bench -n "$PAIRS" --timeout 3600 \
		--vs "sh -c 'exec $NEW run $* --threads 1 -q >>$out/$name.t1 2>&1'" \
		-- sh -c "exec $NEW run $* --threads 2 -q >>$out/$name.t2 2>&1" | grep -E 'wall|cpu'
	echo "-- $name: --threads 1 (A) against the sequential engine (B)"
	uptime
	farm-bench -n "$PAIRS" --timeout 3600 \
		--vs "sh -c 'exec $OLD run $* -q >>$out/$name.old 2>&1'" \
		-- sh -c "exec $NEW run $* --threads 1 -q >>$out/$name.t1b 2>&1" | grep -E 'cpu|user'
	echo "-- $name: engine profile at 2 threads"
	"$NEW" run "$@" --threads 2 -q --engine-profile 2>&1 >/dev/null
}
run perm128 permutation --set duration_ms=2
run perm512 permutation --set leaves=32 --set duration_ms=0.5
run background background
rm -rf "$out"
