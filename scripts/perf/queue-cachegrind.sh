#!/usr/bin/env bash
# Per-event instructions and cache misses of the scheduler's two near-event
# structures, the binary heap and the calendar queue, each held on its own
# (netsim's BenchmarkSimHold: every fired event schedules one more at a
# random time up to 1 us ahead, through the slab and the queue), at several
# pending counts, under cachegrind. Each point runs the benchmark for 200,000
# and for 1,000,000 events and divides the difference by 800,000, so
# set-up and the switch into the calendar drop out.
# docs/performance-history.md ("The event queue at scale") sets the hybrid's thresholds from these figures.
#
# usage: scripts/perf/queue-cachegrind.sh [PENDING...]   (default: 16 64 256 1000 100000)
set -euo pipefail
cd "$(dirname "$0")/../.."
SIZES=${*:-"16 64 256 1000 100000"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/netsim.test" ./netsim
count() { # impl pending events -> "Ir D1 LLd" of the whole process
	GODEBUG=cpu.rdtscp=off GOMAXPROCS=1 valgrind --tool=cachegrind --cache-sim=yes --LL=1048576,16,64 \
		--cachegrind-out-file="$tmp/out.cg" "$tmp/netsim.test" -test.run xxx \
		-test.bench "SimHold/$1/pending=$2\$" -test.benchtime "$3x" >/dev/null 2>&1
	awk '/^fn=/ { next } /^[0-9]/ { ir += $2; d1 += $6 + $9; ll += $7 + $10 } END { print ir, d1, ll }' "$tmp/out.cg"
}
for impl in heap2 calendar; do
	for n in $SIZES; do
		read -r i1 d1 l1 < <(count "$impl" "$n" 200000)
		read -r i2 d2 l2 < <(count "$impl" "$n" 1000000)
		awk -v impl="$impl" -v n="$n" -v di=$((i2 - i1)) -v dd=$((d2 - d1)) -v dl=$((l2 - l1)) 'BEGIN {
			printf "%-8s pending %6d: %6.1f instructions, %6.3f L1d misses, %6.3f LLd misses per event\n",
				impl, n, di / 800000, dd / 800000, dl / 800000 }'
	done
done
